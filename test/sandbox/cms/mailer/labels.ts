/**
 * The admin's strings (document 2 "Overview and settings" → `GET mailer/labels`;
 * docs/mailer-campaigns.md, "Labels"): what each word the API answers with is called on screen, so
 * a client shows the plugin's own names for states, outcomes and reasons rather than the codes.
 * English only in the sandbox.
 */

export const LABEL_LANGUAGES = ['en'] as const;

export const LABELS = {
  campaign_status: { draft: 'Draft', scheduled: 'Scheduled', sending: 'Sending', paused: 'Paused', stopped: 'Stopped', canceled: 'Canceled', sent: 'Sent' },
  campaign_move: { edit: 'Edit', delete: 'Delete', start: 'Send now', schedule: 'Schedule', pause: 'Pause', resume: 'Resume', cancel: 'Cancel' },
  send_status: { delivered: 'Delivered', opened: 'Opened', clicked: 'Clicked', bounced: 'Bounced', failed: 'Failed' },
  subject_test_phase: { sample: 'Testing on a sample', window: 'Waiting for opens', rest: 'Sending the winner' },
  subject_test_decided_by: { open_rate: 'Higher open rate', tie: 'A tie: subject A kept', too_few: 'Too few people to test: subject A sent' },
  subscriber_status: { pending: 'Waiting to confirm', subscribed: 'Subscribed', unsubscribed: 'Unsubscribed', bounced: 'Bounced', complained: 'Complained' },
  membership_status: { pending: 'Waiting to confirm', subscribed: 'Subscribed', unsubscribed: 'Unsubscribed' },
  source: { form: 'Signup form', import: 'Import', api: 'API', admin: 'Added by the site', automation: 'Automation' },
  suppression_reason: { hard_bounce: 'Hard bounce', complaint: 'Spam complaint', manual: 'Added by hand', invalid: 'Not a real address' },
  left_via: { link: 'Unsubscribe link', list_unsubscribe: "Inbox's unsubscribe button", preferences: 'Preference centre', complaint: 'Spam complaint', bounce: 'Bounce', site: 'The site' },
  consent_action: {
    signed_up: 'Signed up', confirmed: 'Confirmed', confirmed_by_site: 'Confirmed by the site', invited: 'Invited', added: 'Added', imported: 'Imported',
    imported_pending: 'Imported, waiting to confirm', left: 'Left', taken_off: 'Taken off', came_back: 'Came back', put_back: 'Put back', automation_added: 'Added by an automation',
  },
  import_status: { queued: 'Queued', running: 'Running', finished: 'Finished', failed: 'Failed' },
  layout: { store: 'Branded', plain: 'Plain' },
  alert: {
    worker_stopped: 'The job queue is not running',
    campaign_stopped: 'Campaign stopped by the sender',
    campaign_not_ready: 'Scheduled campaign not ready',
    failed_sends: 'Failed sends to retry',
    bounce_rate_high: 'High bounce rate',
    import_failed: 'Import failed',
    campaign_paused: 'Campaign paused',
  },
  alert_severity: { error: 'Needs action', warning: 'Worth a look', info: 'For your information' },
} as const;

export type AlertCode = keyof (typeof LABELS)['alert'];
