/**
 * The mailer's campaigns (document 2, "Mailing plugin campaigns"; docs/mailer-campaigns.md, the
 * written design of what it leaves "not shown"): the table with its status counts over the whole
 * table, one campaign with its counters, rates, what start still needs and the moves its state
 * allows, the audience counted before a campaign is made, and the moves (start now or at a time,
 * pause, resume, cancel, delete). Sending is always a person's action while online: no move is
 * ever queued.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { MailerId, PageNumber, PerPage, type UnreadableRow } from './mailer-common';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'stopped', 'canceled', 'sent'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_STATUS_WORDS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  stopped: 'Stopped by the sender',
  canceled: 'Canceled',
  sent: 'Sent',
};

/** The moves a caller makes (the sender's own finish and stop are not among them). */
export const CAMPAIGN_MOVES = ['edit', 'delete', 'start', 'schedule', 'pause', 'resume', 'cancel'] as const;
export type CampaignMove = (typeof CAMPAIGN_MOVES)[number];

/** The moves a state allows (docs/mailer-campaigns.md, "The record"), for a site that does not say them. */
export const MOVES_OF: Record<CampaignStatus, readonly CampaignMove[]> = {
  draft: ['edit', 'delete', 'start', 'schedule'],
  scheduled: ['edit', 'start', 'schedule', 'pause', 'cancel'],
  sending: ['pause', 'cancel'],
  paused: ['resume', 'cancel'],
  stopped: ['resume', 'cancel'],
  canceled: ['delete'],
  sent: [],
};

export interface CampaignCounters {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  failed: number;
}

export interface MailerCampaign {
  id: number;
  name: string;
  status: CampaignStatus;
  subject: string | null;
  preheader: string | null;
  /** The text, Markdown; null until written. */
  bodyMd: string | null;
  layout: 'store' | 'plain' | null;
  trackOpens: boolean;
  trackClicks: boolean;
  /** The A/B subject test: the second subject, the share of the audience it is tried on (10–50 %), and how long before the winner goes to the rest. */
  subjectB: string | null;
  abSamplePercent: number | null;
  abWindowMinutes: number | null;
  /** Where the subject test stands, as the site says it (null: no test, or a site that does not say). */
  subjectTest: SubjectTest | null;
  fromName: string | null;
  fromEmail: string | null;
  replyTo: string | null;
  /** The lists it goes to, in order; none with a segment: everybody on any list who matches it. */
  listIds: number[];
  segmentId: number | null;
  counters: CampaignCounters;
  /** 0..1: opens and clicks of those delivered, bounces of those sent. */
  rates: { open: number; click: number; bounce: number };
  /** What start still needs (`subject`, `body_md`, `list_ids`). */
  missing: string[];
  /** The moves its state allows now (not the account's permissions, nor readiness). */
  nextMoves: CampaignMove[];
  scheduledAt: string | null;
  startedAt: string | null;
  pausedAt: string | null;
  sentAt: string | null;
  canceledAt: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

export const SUBJECT_TEST_PHASES = ['sample', 'window', 'rest'] as const;
export type SubjectTestPhase = (typeof SUBJECT_TEST_PHASES)[number];
export const SUBJECT_TEST_PHASE_WORDS: Record<SubjectTestPhase, string> = {
  sample: 'Mailing the sample',
  window: 'Waiting for opens',
  rest: 'The winner goes to the rest',
};
export const SUBJECT_TEST_DECIDED_WORDS: Record<'open_rate' | 'tie' | 'too_few', string> = {
  open_rate: 'the higher open rate',
  tie: 'a tie, which goes to A',
  too_few: 'too few people to compare: A went to everybody',
};

/** One subject's figures in the sample (opens of those delivered, 0..1). */
export interface SubjectVariant {
  subject: string | null;
  sent: number;
  delivered: number;
  opened: number;
  openRate: number;
}

/** The A/B subject test (docs/mailer-campaigns.md, "The subject test"): its settings with the site's defaults, where it is, the sample's figures and the pick. */
export interface SubjectTest {
  subjectB: string | null;
  samplePercent: number | null;
  windowMinutes: number | null;
  /** null until it goes out. */
  phase: SubjectTestPhase | null;
  sampleSize: number | null;
  sampleSentAt: string | null;
  /** When the winner is picked (the sample's last message plus the window). */
  windowEndsAt: string | null;
  variants: { a: SubjectVariant; b: SubjectVariant };
  winner: 'a' | 'b' | null;
  winnerPickedAt: string | null;
  decidedBy: 'open_rate' | 'tie' | 'too_few' | string | null;
  /** The figures the pick was made on (opens up to the window's end). */
  decision: { a: { delivered: number; opened: number; openRate: number }; b: { delivered: number; opened: number; openRate: number } } | null;
}

export interface CampaignPage {
  items: MailerCampaign[];
  unreadable: UnreadableRow[];
  total: number;
  page: number;
  perPage: number;
  next: number | null;
  /** Every state's count over the whole table (null when the site does not say). */
  statusCounts: Record<CampaignStatus, number> | null;
  /** Sitedesk's copy's time when the site did not answer (the first page without a filter is kept). */
  copiedAt: string | null;
}

/** The campaign rendered by the site: the HTML its readers get (sanitised before it is shown), the text version, and what it still lacks. */
export interface CampaignPreview {
  subject: string | null;
  preheader: string | null;
  layout: 'store' | 'plain' | null;
  html: string;
  text: string;
  /** `subject`, `body_md` where empty. */
  missing: string[];
}

export const SEND_OUTCOMES = ['delivered', 'opened', 'clicked', 'bounced', 'failed'] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];

/** One person's send of a campaign (their address: the site shows it to whoever may read the subscribers). */
export interface CampaignSend {
  id: number;
  subscriberId: number | null;
  email: string;
  name: string;
  status: SendOutcome | string;
  attempts: number;
  sentAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
  /** Why it failed, in the provider's words. */
  error: string | null;
}

export interface CampaignSendPage {
  items: CampaignSend[];
  unreadable: UnreadableRow[];
  total: number;
  page: number;
  perPage: number;
  next: number | null;
  statusCounts: Record<string, number> | null;
}

export interface CampaignLink {
  url: string;
  clicks: number;
  uniqueClicks: number;
  /** A link of the text (shown with no clicks too). */
  inBody: boolean;
}

/** Sends, first opens and first clicks per hour from the start (at most 48 hours). */
export interface CampaignTimeline {
  startedAt: string | null;
  hours: { hour: number; from: string | null; sent: number; opened: number; clicked: number }[];
}

/** People in a campaign's audience now who were never sent it (joined its lists since it went out). */
export interface CampaignCatchUp {
  count: number;
  /** When it went out (who joined after this). */
  since: string | null;
  /** The site sends it to them now (only once it is sent). */
  canSend: boolean;
}

/** What a catch-up or a retry of failed sends did. */
export interface CampaignResend {
  sent: number;
  delivered: number;
  bounced: number;
  failed: number;
  /** A retry: failed sends tried again, and those skipped (their person can no longer be mailed). */
  retried: number;
  skipped: number;
  campaign: MailerCampaign | null;
}

/** A site's mailer at a glance (docs/mailer-campaigns.md, "Overview"). */
export interface MailerOverview {
  subscribers: { pending: number; subscribed: number; unsubscribed: number; bounced: number; complained: number; total: number };
  campaigns: Record<CampaignStatus, number> & { total: number };
  growth: {
    days: number;
    joined: number;
    left: number;
    net: number;
    /** One per UTC day, oldest first: who joined, who left, and who was subscribed at its end. */
    series: { day: string; joined: number; left: number; net: number; subscribed: number }[];
  };
  recent: { id: number; name: string; status: CampaignStatus; sentAt: string | null; scheduledAt: string | null; sent: number; openRate: number; clickRate: number }[];
  /** Most pressing first; `detail` says what to do. */
  alerts: { code: string; severity: 'error' | 'warning' | 'info'; title: string; detail: string; campaignId: number | null }[];
  /** Sitedesk's copy's time when the site did not answer. */
  copiedAt: string | null;
}

/** Content a campaign starts from (its subject, preheader, text and layout are copied once). */
export interface MailerTemplate {
  id: number;
  name: string;
  subject: string | null;
  preheader: string | null;
  bodyMd: string | null;
  layout: 'store' | 'plain';
  /** Offered when a campaign is made (switched off: kept, not offered). */
  isActive: boolean;
  /** Campaigns written from it (each keeps its own copy). */
  campaigns: number;
  missing: string[];
  createdAt: string | null;
  updatedAt: string | null;
}

/** Who a campaign would reach: `count` can be mailed; `leftOut` match but cannot (suppressed, unsubscribed). */
export interface CampaignAudience {
  count: number;
  leftOut: number;
}

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Give the campaign a name.'), v.maxLength(200, 'At most 200 characters.'));
const Subject = v.pipe(v.string(), v.trim(), v.maxLength(300, 'At most 300 characters.'));
const BodyMd = v.pipe(v.string(), v.maxLength(500_000, 'At most 500,000 characters.'));
const ListIds = v.pipe(v.array(MailerId), v.maxLength(100, 'At most 100 lists.'));
const Preheader = v.pipe(v.string(), v.trim(), v.maxLength(300, 'At most 300 characters.'));
const Layout = v.picklist(['store', 'plain']);
const Email = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(254, 'An email address has at most 254 characters.'), v.regex(/^$|^[^\s@]+@[^\s@]+$/, 'Not an email address.')));
const Percent = v.nullable(v.pipe(v.number(), v.integer('A whole number.'), v.minValue(10, 'At least 10 %.'), v.maxValue(50, 'At most 50 %.')));
const Minutes = v.nullable(v.pipe(v.number(), v.integer('A whole number of minutes.'), v.minValue(1, 'At least a minute.'), v.maxValue(10_080, 'At most a week.')));
/** What an edit may change (the state is the moves', the times the site's). */
export const CampaignChanges = v.strictObject({
  name: v.optional(Name),
  subject: v.optional(v.nullable(Subject)),
  preheader: v.optional(v.nullable(Preheader)),
  bodyMd: v.optional(v.nullable(BodyMd)),
  layout: v.optional(Layout),
  fromName: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(120, 'At most 120 characters.')))),
  fromEmail: v.optional(Email),
  replyTo: v.optional(Email),
  trackOpens: v.optional(v.boolean()),
  trackClicks: v.optional(v.boolean()),
  subjectB: v.optional(v.nullable(Subject)),
  abSamplePercent: v.optional(Percent),
  abWindowMinutes: v.optional(Minutes),
  listIds: v.optional(ListIds),
  segmentId: v.optional(v.nullable(MailerId)),
});
export type CampaignChangesInput = v.InferInput<typeof CampaignChanges>;

/** What an edit of a template may change. */
export const TemplateChanges = v.strictObject({
  name: v.optional(Name),
  subject: v.optional(v.nullable(Subject)),
  preheader: v.optional(v.nullable(Preheader)),
  bodyMd: v.optional(v.nullable(BodyMd)),
  layout: v.optional(Layout),
  isActive: v.optional(v.boolean()),
});

/** A time ahead, as ISO text (the person's time zone made UTC by the renderer); the site takes epoch seconds. */
const When = v.pipe(v.string(), v.isoTimestamp('A date and time.'));

export const mailerCampaignChannels = {
  /** The table, newest first, with every state's count; the first unfiltered page kept as a copy. */
  'mailer.campaigns': channel<CampaignPage>()(v.strictObject({ siteId: SiteId, status: v.optional(v.picklist(CAMPAIGN_STATUSES)), page: PageNumber, perPage: PerPage })),
  'mailer.campaign': channel<{ campaign: MailerCampaign }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** Who a campaign to these lists (none: any list) and segment would reach, before it is made. */
  'mailer.campaignAudience': channel<CampaignAudience>()(v.strictObject({ siteId: SiteId, listIds: ListIds, segmentId: v.optional(v.nullable(MailerId)) })),
  /** Makes a draft. */
  'mailer.createCampaign': channel<{ campaign: MailerCampaign }>()(
    v.strictObject({ siteId: SiteId, name: Name, subject: v.optional(Subject), bodyMd: v.optional(BodyMd), listIds: v.optional(ListIds), segmentId: v.optional(v.nullable(MailerId)), templateId: v.optional(MailerId) }),
  ),
  /**
   * A move of the campaign's state: start (now, or at `scheduledAt`: then it is scheduled), pause,
   * resume, cancel. Sent at once or refused (the site not answering): never queued.
   */
  'mailer.moveCampaign': channel<{ campaign: MailerCampaign }>()(
    v.strictObject({ siteId: SiteId, id: MailerId, move: v.picklist(['start', 'pause', 'resume', 'cancel']), scheduledAt: v.optional(When) }),
  ),
  /** Changes a draft or a scheduled campaign (only what is given). */
  'mailer.updateCampaign': channel<{ campaign: MailerCampaign }>()(v.strictObject({ siteId: SiteId, id: MailerId, changes: CampaignChanges })),
  /** The campaign rendered by the site: as saved, or with unsaved `draft` text over it (saves nothing). */
  'mailer.previewCampaign': channel<CampaignPreview>()(
    v.strictObject({ siteId: SiteId, id: MailerId, draft: v.optional(v.strictObject({ subject: v.optional(v.nullable(Subject)), preheader: v.optional(v.nullable(Preheader)), bodyMd: v.optional(v.nullable(BodyMd)), layout: v.optional(Layout) })) }),
  ),
  /**
   * One test copy to an address (not counted, any state). A test whose answer was lost may have
   * gone out: asked again it is refused with that said, unless `again` (send another).
   */
  'mailer.testCampaign': channel<{ subject: string; sentAt: string | null }>()(
    v.strictObject({ siteId: SiteId, id: MailerId, email: v.pipe(v.string(), v.trim(), v.nonEmpty('The address the test copy goes to.'), v.maxLength(254, 'An email address has at most 254 characters.'), v.regex(/^[^\s@]+@[^\s@]+$/, 'Not an email address.')), again: v.optional(v.boolean()) }),
  ),
  /** Who it was sent to and how each went, in the order mailed, paged; by outcome. */
  'mailer.campaignSends': channel<CampaignSendPage>()(v.strictObject({ siteId: SiteId, id: MailerId, status: v.optional(v.picklist(SEND_OUTCOMES)), page: PageNumber, perPage: PerPage })),
  'mailer.campaignLinks': channel<{ links: CampaignLink[]; totalClicks: number; uniqueClickers: number }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  'mailer.campaignTimeline': channel<CampaignTimeline>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** How many joined its audience since it went out and were never sent it. */
  'mailer.campaignCatchUp': channel<CampaignCatchUp>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** Sends a sent campaign to those who joined since (a second time finds nobody). */
  'mailer.sendCatchUp': channel<CampaignResend>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** Tries every failed send again (or one, `sendId`). */
  'mailer.retryFailed': channel<CampaignResend>()(v.strictObject({ siteId: SiteId, id: MailerId, sendId: v.optional(MailerId) })),
  /** The mailer at a glance: counts, growth over `days` (7–90), recent campaigns, alerts; kept as a copy. */
  'mailer.overview': channel<MailerOverview>()(v.strictObject({ siteId: SiteId, days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(7), v.maxValue(90))) })),
  /** Every template by name (switched-off ones too, said so); kept as a copy. */
  'mailer.templates': channel<{ templates: MailerTemplate[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  'mailer.createTemplate': channel<{ template: MailerTemplate }>()(v.strictObject({ siteId: SiteId, name: Name, subject: v.optional(v.nullable(Subject)), preheader: v.optional(v.nullable(Preheader)), bodyMd: v.optional(v.nullable(BodyMd)), layout: v.optional(Layout), isActive: v.optional(v.boolean()) })),
  'mailer.updateTemplate': channel<{ template: MailerTemplate }>()(v.strictObject({ siteId: SiteId, id: MailerId, changes: TemplateChanges })),
  /** Deletes a template; campaigns written from it keep their copy. */
  'mailer.deleteTemplate': channel<{ id: number }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** A template rendered by the site, as saved or with unsaved text over it (saves nothing). */
  'mailer.previewTemplate': channel<CampaignPreview>()(
    v.strictObject({ siteId: SiteId, id: MailerId, draft: v.optional(v.strictObject({ subject: v.optional(v.nullable(Subject)), preheader: v.optional(v.nullable(Preheader)), bodyMd: v.optional(v.nullable(BodyMd)), layout: v.optional(Layout) })) }),
  ),
  /** Deletes a draft or a canceled campaign. */
  'mailer.deleteCampaign': channel<{ id: number }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
};
