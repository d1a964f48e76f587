/**
 * The mailer's subscribers (docs/mailer-audience.md, "Subscribers", "Bulk", "Exports"): the table
 * paged by the site (at most 200 a page) with every filter, the status counts of the whole table
 * and a list's counts; one person's page; add with its mode and the four outcomes; edit;
 * unsubscribe, resubscribe (with a note) and confirm; delete; an export of one person or of the
 * filtered table into a file the person chose, streamed with progress; and bulk actions over a
 * selection or everyone matching a filter, counted first and walked by the Host with progress.
 *
 * Writes are sent now or refused with the reason, never queued (personal data and consent: a
 * change landing hours later, unseen, could undo what someone asked for meanwhile). A write whose
 * answer was lost is never sent twice blindly: an add, a resubscribe or a confirm asked again finds
 * what the first did (`earlier: true`); a bulk action asks before it runs again.
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import type { SaveFileChoice } from './audit';
import {
  ConsentNote,
  EmailAddress,
  FilePath,
  JobId,
  LanguageCode,
  MailerId,
  PageNumber,
  PerPage,
  SubscriberFilter,
  TagText,
  type ListCounts,
  type MembershipStatus,
  type StatusCounts,
  type SubscriberRow,
  type UnreadableRow,
} from './mailer-common';

export interface SubscriberPage {
  items: SubscriberRow[];
  unreadable: UnreadableRow[];
  /** People matching the filter (the site's count; the copy's while the site is away). */
  total: number;
  page: number;
  /** The page size the site used (it caps what was asked at 200). */
  perPage: number;
  next: number | null;
  /** Every status's count over the whole table, whatever the filters (the chips); null when the site did not say. */
  statusCounts: StatusCounts | null;
  /** With a `list` filter: where people stand on that list, whatever the other filters. */
  listCounts: ListCounts | null;
  /** The copy's time while the site is away (the offline copy); null for the site's answer. */
  copiedAt: string | null;
  /** Filters the offline copy could not apply (a campaign's reach is the site's to know): the page lists as if they were not set. */
  filterIgnored: ('campaignId' | 'campaignReceived')[];
}

export type ConsentAction =
  | 'signed_up'
  | 'confirmed'
  | 'confirmed_by_site'
  | 'invited'
  | 'added'
  | 'imported'
  | 'imported_pending'
  | 'left'
  | 'taken_off'
  | 'came_back'
  | 'put_back'
  | 'automation_added';

/** One change to a person's lists, newest first in `Subscriber.consentLog`; never edited. */
export interface ConsentEntry {
  id: number;
  at: string | null;
  action: ConsentAction | string;
  listId: number | null;
  listName: string | null;
  /** `self`, `site`, `import` or `automation`. */
  by: string | null;
  /** The account that acted for the site. */
  admin: string | null;
  note: string | null;
  /** Only on the person's own acts. */
  ip: string | null;
  via: string | null;
}

export interface SubscriberSend {
  campaignId: number;
  campaignName: string | null;
  /** `sent`, `delivered`, `opened`, `clicked`, `bounced`, `failed`. */
  status: string;
  sentAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
}

/** One person's page (`GET /subscribers/{id}`). */
export interface Subscriber extends SubscriberRow {
  consent: {
    agreedAt: string | null;
    ip: string | null;
    /** Where they agreed (the note, or the import's basis). */
    basis: string | null;
    confirmedAt: string | null;
    leftAt: string | null;
    leftBy: string | null;
    /** `link`, `list_unsubscribe`, `preferences`, `complaint`, `bounce` or `site`. */
    leftVia: string | null;
  };
  import: { id: number; fileName: string | null; createdAt: string | null } | null;
  suppression: { reason: string; createdAt: string | null } | null;
  /** The newest 50 campaign sends. */
  sends: SubscriberSend[];
  sendsTotal: number;
  consentLog: ConsentEntry[];
}

export const ADD_OUTCOMES = ['added', 'invited', 'already_on', 'already_invited'] as const;
export type AddOutcomeWord = (typeof ADD_OUTCOMES)[number];

/** The four outcomes in words (document 2's), for the add dialog and its toast. */
export const ADD_OUTCOME_WORDS: Record<AddOutcomeWord, string> = {
  added: 'Added: they are on the list now, as subscribed.',
  invited: 'Invited: a confirmation email is on its way; they join once they confirm.',
  already_on: 'Already on this list: nothing was changed.',
  already_invited: 'Already invited and waiting to confirm: nothing was changed, and no second email was sent.',
};

/**
 * What an add did. The site names an existing person by id only (it never tells a caller more
 * about someone than that they exist): `subscriber` is there only for a person this add created.
 * A refusal is an error with the site's words and its `reason`: `suppressed` (the address is never
 * mailed), `left_themselves` (only a resubscribe with a note puts them back), `note_required`
 * (under `note`), `invalid_email` (under `email`), `unknown_list` (under `listId`).
 */
export interface AddOutcome {
  outcome: AddOutcomeWord;
  subscriberId: number;
  listId: number;
  listStatus: MembershipStatus | null;
  subscriber: SubscriberRow | null;
  /**
   * An add of this address to this list whose answer was lost went through after all: this outcome
   * is what the site says now (`already_invited` for the invitation the lost answer would have said).
   */
  earlier: boolean;
}

/** An edit: the person as the site has them now, and the lists they were not put on, with why. */
export interface SubscriberEdit {
  subscriber: SubscriberRow;
  keptOff: { listId: number; reason: 'left_themselves' | 'not_held' | string }[];
}

/** An unsubscribe, resubscribe or confirm: whether anything needed doing, and the person now. */
export interface SubscriberChange {
  changed: boolean;
  subscriber: SubscriberRow;
  /** The same change asked before, whose answer was lost, had done it. */
  earlier: boolean;
}

export const BULK_ACTIONS = ['add_to_list', 'remove_from_list', 'add_tag', 'remove_tag', 'unsubscribe', 'delete', 'confirm'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** At most this many ids in one call (the site's limit); more people are named by a filter. */
export const BULK_IDS_MAX = 500;
/** Pasted addresses in one call (the site's limit). */
export const BULK_ADDRESSES_MAX = 1000;

/**
 * Who a bulk action is for: a selection of ids; everyone matching a filter (`all: true` is needed
 * to unsubscribe or delete with a filter that sets nothing, i.e. everybody); or pasted addresses
 * (one per line or comma-separated, `Name <address>` too), for `add_to_list` only.
 */
export const BulkTarget = v.variant('kind', [
  v.strictObject({ kind: v.literal('ids'), ids: v.pipe(v.array(MailerId), v.minLength(1, 'Select someone first.'), v.maxLength(BULK_IDS_MAX, `At most ${BULK_IDS_MAX} at a time; choose “everyone matching this filter” for more.`)) }),
  v.strictObject({ kind: v.literal('filter'), filter: SubscriberFilter, all: v.optional(v.boolean()) }),
  v.strictObject({ kind: v.literal('addresses'), addresses: v.pipe(v.string(), v.trim(), v.nonEmpty('Paste at least one address.'), v.maxLength(300_000, 'That is more text than 1,000 addresses.')) }),
]);

/**
 * A bulk action's progress and outcome. `done` counts what was done by its word (`added`,
 * `invited`, `removed`, `tagged`, `untagged`, `unsubscribed`, `deleted`, `confirmed`); `skipped`
 * who was left alone by reason (`suppressed`, `left_every_list`, `left_this_list`, `already_on`,
 * `already_invited`, `not_on_list`, `without_tag`, `already_tagged`, `already_off`, `not_pending`,
 * `not_an_address`, `gone`). Never an address.
 */
export interface BulkProgress {
  bulkId: string;
  siteId: string;
  action: BulkAction;
  target: 'ids' | 'filter' | 'addresses';
  /** People worked through so far. */
  processed: number;
  /** How many the action names (for a filter: how many matched when the walk began). */
  total: number | null;
  done: Record<string, number>;
  skipped: Record<string, number>;
}

export type BulkOutcome =
  | ({ outcome: 'finished' } & BulkProgress)
  /** Stopped by the person between two batches: what was done stays done. */
  | ({ outcome: 'stopped' } & BulkProgress)
  /**
   * The site stopped answering (or refused) part way: what was done stays done, and the same
   * action asked again goes on from where it stopped (after asking, when a batch's answer was lost).
   */
  | ({ outcome: 'interrupted'; message: string } & BulkProgress);

/** What an export wrote: the file whole, or stopped by the person (nothing left behind). */
export type MailerExportOutcome =
  | { outcome: 'written'; file: string; bytes: number; rows: number; matched: number | null }
  | { outcome: 'cancelled'; bytes: number; rows: number };

export interface MailerExportProgress {
  exportId: string;
  siteId: string;
  bytes: number;
  rows: number;
  /** People matching when the export began (the table's export), null for one person's. */
  matched: number | null;
}

const AddInput = v.strictObject({
  siteId: SiteId,
  email: EmailAddress,
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(190, 'At most 190 characters.'))),
  /** Omitted: the site's default list. */
  listId: v.optional(MailerId),
  tags: v.optional(v.pipe(v.array(TagText), v.maxLength(50, 'At most 50 tags.'))),
  language: v.optional(LanguageCode),
  /** `invite` (they confirm by email) or `subscribed` (they already agreed: `note` says where); omitted: the list decides. */
  mode: v.optional(v.picklist(['invite', 'subscribed'], 'Invite them, or add them as already agreed.')),
  note: v.optional(ConsentNote),
});

const SubscriberChanges = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(190, 'At most 190 characters.'))),
  /** null clears it. */
  language: v.optional(v.nullable(LanguageCode)),
  /** The lists they should stay on: a held list left out is left (done by the site); one they do not hold is not joined (`keptOff`). */
  lists: v.optional(v.pipe(v.array(MailerId), v.maxLength(1000))),
  /** Their tags, replaced (new codes are made). */
  tags: v.optional(v.pipe(v.array(TagText), v.maxLength(200, 'At most 200 tags.'))),
});

const One = v.strictObject({ siteId: SiteId, id: MailerId });

export const mailerSubscriberChannels = {
  /** A page of the table, newest first, with the filters, the status counts and a list's counts; from the offline copy while the site is away (when kept). */
  'mailer.subscribers': channel<SubscriberPage>()(v.strictObject({ siteId: SiteId, filter: v.optional(SubscriberFilter, {}), page: PageNumber, perPage: PerPage })),
  /** How many people match a filter (shown before a bulk action or an export on "everyone matching"). */
  'mailer.count': channel<{ total: number; statusCounts: StatusCounts | null }>()(v.strictObject({ siteId: SiteId, filter: v.optional(SubscriberFilter, {}) })),
  /**
   * One person's page; from the offline copy while the site is away (when kept). `partial`: only
   * their row of the table is kept (their page was not opened while the site answered), so the
   * consent history, sends, import and suppression are empty.
   */
  'mailer.subscriber': channel<{ subscriber: Subscriber; copiedAt: string | null; partial: boolean }>()(One),
  /** Adds one address to a list, answering which of the four outcomes it was. */
  'mailer.add': channel<AddOutcome>()(AddInput),
  /** Changes a person's name, language, lists (only lists they hold move) or tags; the address never changes. */
  'mailer.update': channel<SubscriberEdit>()(v.strictObject({ siteId: SiteId, id: MailerId, changes: SubscriberChanges })),
  /** Takes them off every list, done by the site (they may sign up again themselves). */
  'mailer.unsubscribe': channel<SubscriberChange>()(One),
  /** Puts back someone who left, with a note saying how they asked; on `listId` or every list they left. */
  'mailer.resubscribe': channel<SubscriberChange>()(v.strictObject({ siteId: SiteId, id: MailerId, note: ConsentNote, listId: v.optional(MailerId) })),
  /** Confirms someone waiting, by hand. */
  'mailer.confirm': channel<SubscriberChange>()(One),
  /** Deletes a person (their lists, tags, history and sends; a suppression stays), here too. */
  'mailer.delete': channel<{ id: number }>()(One),
  /** The system's save dialog for an export (Electron); browser mode answers `unsupported` and the screen asks for a path. */
  'mailer.chooseExportFile': channel<SaveFileChoice>()(v.strictObject({ what: v.picklist(['person', 'table']), id: v.optional(MailerId) })),
  /**
   * Everything the site holds about one person, one JSON document (the site's file, named by id),
   * into `file` (absolute, its folder existing; an existing file only with `overwrite`), 0600.
   */
  'mailer.exportPerson': channel<MailerExportOutcome>()(v.strictObject({ siteId: SiteId, id: MailerId, exportId: JobId, file: FilePath, overwrite: v.optional(v.boolean()) })),
  /** The filtered table as the site's CSV, streamed into `file` with `mailer.exportProgress` events; a cut or cancelled export leaves no file. */
  'mailer.exportTable': channel<MailerExportOutcome>()(v.strictObject({ siteId: SiteId, exportId: JobId, filter: v.optional(SubscriberFilter, {}), file: FilePath, overwrite: v.optional(v.boolean()) })),
  /** Stops an export under way; false when none runs by that id. */
  'mailer.cancelExport': channel<{ cancelled: boolean }>()(v.strictObject({ exportId: JobId })),
  /**
   * One action over a selection, everyone matching a filter (walked by the Host 500 at a time with
   * `mailer.bulkProgress` events), or pasted addresses. `again`: the same action's earlier run lost
   * an answer part way and the person looked and wants it to go on (without it, the Host asks
   * first: a `conflict` saying so).
   */
  'mailer.bulk': channel<BulkOutcome>()(
    v.strictObject({
      siteId: SiteId,
      bulkId: JobId,
      action: v.picklist(BULK_ACTIONS, 'Not an action.'),
      target: BulkTarget,
      /** `add_to_list`, `remove_from_list`. */
      listId: v.optional(MailerId),
      /** `add_to_list`: as a single add. */
      mode: v.optional(v.picklist(['invite', 'subscribed'])),
      note: v.optional(ConsentNote),
      /** `add_tag`: a code or label (made when new). */
      tag: v.optional(TagText),
      /** `remove_tag`. */
      tagId: v.optional(MailerId),
      again: v.optional(v.boolean()),
    }),
  ),
  /** Stops a bulk action between two batches; false when none runs by that id. */
  'mailer.cancelBulk': channel<{ cancelled: boolean }>()(v.strictObject({ bulkId: JobId })),
};

export const mailerSubscriberEvents = {
  'mailer.exportProgress': event<MailerExportProgress>(),
  'mailer.bulkProgress': event<BulkProgress>(),
};
