/**
 * The `mailer.*` channels: the audience of a CMS site's mailing plugin (document 2, "Mailing plugin
 * routes"; docs/mailer-audience.md is the one written definition the sandbox and the app follow).
 * The plugin is document 2's under `/mailer/` with `mailer.*` permissions, or Grav's Mailroom — the
 * same API under `/mailroom/` with `mailroom.*`; the Host finds which by asking, keeps it with the
 * site, and asks again when the kept one stops answering (`mailer.site`).
 *
 * This file: the plugin found, the offline copy of subscribers (a per-site choice: they are
 * personal data), lists, tags, suppressions and erasure; and the whole area's channels and events,
 * assembled from its parts (mailer-subscribers.ts, mailer-imports.ts, mailer-segments.ts; shared
 * records and inputs in mailer-common.ts). By default only counts, lists, tags and segments are
 * kept on this computer.
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import { EmailAddress, MailerId, PageNumber, PerPage, TagText, type MailerBase, type MailerList, type MailerTag } from './mailer-common';
import { mailerSubscriberChannels, mailerSubscriberEvents } from './mailer-subscribers';
import { mailerImportChannels, mailerImportEvents } from './mailer-imports';
import { mailerSegmentChannels } from './mailer-segments';
import { mailerCampaignChannels } from './mailer-campaigns';
import { mailDraftChannels } from './mail-drafts';
import { mailerReportChannels } from './mailer-reports';
import { mailerFlowChannels } from './mailer-flows';

/** The plugin a site runs, as found. */
export interface MailerPlugin {
  /** The path under the API: `mailer` (document 2) or `mailroom` (Grav's Mailroom). */
  base: MailerBase;
  /** What its permissions are called: `mailer.view`… or `mailroom.view`… */
  permissionPrefix: MailerBase;
  /** How to name it to a person. */
  name: 'Mailer' | 'Mailroom';
  /** When it was found (the Host asks again when the kept base stops answering). */
  foundAt: string;
}

/**
 * The offline copy of a site's subscribers: kept only where the person turned it on for that site
 * (`keep`). `count` people are kept, as the table last read them (and the pages of those whose page
 * was opened); `total` is how many the site had then; `complete` false when the copy holds fewer
 * (it keeps at most MAILER_COPY_MAX, newest first). `keeping`: a fill under way.
 */
export interface MailerOfflineState {
  siteId: string;
  keep: boolean;
  copiedAt: string | null;
  count: number;
  total: number | null;
  complete: boolean;
  keeping: { done: number; total: number | null } | null;
  /** Why the last fill stopped short (the site stopped answering), or null. */
  problem: string | null;
}

/** At most this many people are kept offline for one site, newest first. */
export const MAILER_COPY_MAX = 50_000;

/** What a site's mailer is: the plugin found (null: none) with why not, and the offline copy's state. */
export interface MailerSite {
  plugin: MailerPlugin | null;
  /** Why there is no plugin, in words (null when found). */
  message: string | null;
  offline: MailerOfflineState;
}

export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'manual', 'invalid'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const SUPPRESSION_REASON_WORDS: Record<SuppressionReason, string> = {
  hard_bounce: 'Bounced (the address does not exist)',
  complaint: 'Marked as spam',
  manual: 'Added by hand',
  invalid: 'Not a working address',
};

/** An address that is never mailed, keyed by the SHA-256 of the lower-cased address (common/email-hash.ts); the address itself is not kept with it. */
export interface Suppression {
  hash: string;
  reason: SuppressionReason | string;
  note: string | null;
  /** `a***@example.com`; null once the address was erased. */
  emailMasked: string | null;
  /** Only the hash is left (the person was erased). */
  erased: boolean;
  /** The person holding the address, when someone does. */
  subscriberId: number | null;
  createdAt: string | null;
}

export interface SuppressionPage {
  items: Suppression[];
  total: number | null;
  page: number;
  perPage: number;
  next: number | null;
}

/** What an erasure forgot (Mailroom's keys; `suppressions` is 1 when a suppression was stripped to its hash). Never an address, hash or id. */
export interface EraseCounts {
  subscribers: number;
  memberships: number;
  tags: number;
  sends: number;
  clicks: number;
  suppressions: number;
  enrolments: number;
  consent: number;
  events: number;
  messages: number;
}

export interface EraseOutcome {
  /** false: the site held nothing of the address (or an earlier erasure forgot it). */
  erased: boolean;
  counts: EraseCounts;
  /** People removed from this computer's offline copy of the site (0 or 1). */
  removedHere: number;
  /** An erasure of this address whose answer was lost had done it: the counts were in that lost answer (these are the second's, all 0). */
  earlier: boolean;
}

const ListCode = v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Lower case letters, digits, hyphens or underscores (up to 64), starting with a letter or digit.'));
const ListName = v.pipe(v.string(), v.trim(), v.nonEmpty('Give the list a name.'), v.maxLength(120, 'At most 120 characters.'));
const OptionalText = (max: number) => v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(max, `At most ${max} characters.`)));
const FromEmail = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(254, 'An email address has at most 254 characters.'), v.regex(/^$|^[^\s@]+@[^\s@]+$/, 'Not an email address.')));
const Position = v.pipe(v.number(), v.integer(), v.minValue(-1_000_000), v.maxValue(1_000_000));

const ListFields = {
  description: v.optional(OptionalText(1000)),
  doubleOptIn: v.optional(v.boolean()),
  public: v.optional(v.boolean()),
  isDefault: v.optional(v.boolean()),
  position: v.optional(Position),
  fromName: v.optional(OptionalText(120)),
  fromEmail: v.optional(FromEmail),
};

export const mailerChannels = {
  /** Which mailing plugin the site runs (asked once, kept with the site), and the offline copy's state. */
  'mailer.site': channel<MailerSite>()(v.strictObject({ siteId: SiteId })),
  /** The offline copy's state. */
  'mailer.offline': channel<MailerOfflineState>()(v.strictObject({ siteId: SiteId })),
  /**
   * Turns the offline copy of the site's subscribers on (it is filled in the background, with
   * `mailer.offlineChanged` events) or off (the copy is removed from this computer at once, securely).
   */
  'mailer.setOffline': channel<MailerOfflineState>()(v.strictObject({ siteId: SiteId, keep: v.boolean() })),

  /** Every list with its counts, by position; kept as a copy. */
  'mailer.lists': channel<{ lists: MailerList[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  /** Makes a list; its code never changes afterwards. */
  'mailer.createList': channel<{ list: MailerList; earlier: boolean }>()(v.strictObject({ siteId: SiteId, code: ListCode, name: ListName, ...ListFields })),
  /** Changes a list (not its code: the site refuses that). Lists are never deleted. */
  'mailer.updateList': channel<{ list: MailerList }>()(v.strictObject({ siteId: SiteId, id: MailerId, changes: v.strictObject({ name: v.optional(ListName), ...ListFields }) })),

  /** Every tag with how many carry it; kept as a copy. */
  'mailer.tags': channel<{ tags: MailerTag[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  /** Makes a tag from a label (its code is made from it) or answers the one that exists (`created: false`). */
  'mailer.createTag': channel<{ tag: MailerTag; created: boolean }>()(v.strictObject({ siteId: SiteId, label: TagText, code: v.optional(TagText) })),
  /** Deletes a tag from everybody; answers how many carried it. */
  'mailer.deleteTag': channel<{ id: number; removedFrom: number }>()(v.strictObject({ siteId: SiteId, id: MailerId })),

  /** Suppressed addresses by reason, newest first, paged. */
  'mailer.suppressions': channel<SuppressionPage>()(v.strictObject({ siteId: SiteId, reason: v.optional(v.picklist(SUPPRESSION_REASONS)), page: PageNumber, perPage: PerPage })),
  /** Suppresses an address by hand (`manual`) or as not working (`invalid`); an address already suppressed answers its row (`created: false`). */
  'mailer.suppress': channel<{ suppression: Suppression; created: boolean }>()(
    v.strictObject({ siteId: SiteId, email: EmailAddress, reason: v.optional(v.picklist(['manual', 'invalid'], 'Bounces and complaints come from the mail provider’s reports.')), note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(1000, 'At most 1000 characters.'))) }),
  ),
  /**
   * Removes a suppression by its hash (`suppressionHash` of common/email-hash.ts); nobody is put
   * back on a list by it. `removed: false`: the site has no suppression with that hash (never, or
   * no longer).
   */
  'mailer.unsuppress': channel<{ hash: string; removed: boolean }>()(v.strictObject({ siteId: SiteId, hash: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[0-9a-f]{64}$/, 'A suppression’s hash is 64 hex characters (the SHA-256 of the lower-cased address).')) })),
  /** Forgets an address everywhere on the site (a suppression keeps only its hash), and on this computer. */
  'mailer.erase': channel<EraseOutcome>()(v.strictObject({ siteId: SiteId, email: EmailAddress })),

  ...mailerSubscriberChannels,
  ...mailerImportChannels,
  ...mailerSegmentChannels,
  ...mailerCampaignChannels,
  ...mailDraftChannels,
  ...mailerReportChannels,
  ...mailerFlowChannels,
};

export const mailerEvents = {
  /** The offline copy changed (a fill's progress, its end, turned on or off). */
  'mailer.offlineChanged': event<MailerOfflineState>(),
  ...mailerSubscriberEvents,
  ...mailerImportEvents,
};
