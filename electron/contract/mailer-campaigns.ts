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
  layout: 'store' | 'plain' | null;
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

/** Who a campaign would reach: `count` can be mailed; `leftOut` match but cannot (suppressed, unsubscribed). */
export interface CampaignAudience {
  count: number;
  leftOut: number;
}

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Give the campaign a name.'), v.maxLength(200, 'At most 200 characters.'));
const Subject = v.pipe(v.string(), v.trim(), v.maxLength(300, 'At most 300 characters.'));
const BodyMd = v.pipe(v.string(), v.maxLength(500_000, 'At most 500,000 characters.'));
const ListIds = v.pipe(v.array(MailerId), v.maxLength(100, 'At most 100 lists.'));
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
    v.strictObject({ siteId: SiteId, name: Name, subject: v.optional(Subject), bodyMd: v.optional(BodyMd), listIds: v.optional(ListIds), segmentId: v.optional(v.nullable(MailerId)) }),
  ),
  /**
   * A move of the campaign's state: start (now, or at `scheduledAt`: then it is scheduled), pause,
   * resume, cancel. Sent at once or refused (the site not answering): never queued.
   */
  'mailer.moveCampaign': channel<{ campaign: MailerCampaign }>()(
    v.strictObject({ siteId: SiteId, id: MailerId, move: v.picklist(['start', 'pause', 'resume', 'cancel']), scheduledAt: v.optional(When) }),
  ),
  /** Deletes a draft or a canceled campaign. */
  'mailer.deleteCampaign': channel<{ id: number }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
};
