/**
 * What the mailer's channels share (docs/mailer-audience.md: the one written definition of the
 * mailing plugin's audience routes, document 2's "Mailing plugin routes" where it says "not
 * shown"): the plugin a site runs (document 2's `/mailer/` or Grav's Mailroom under `/mailroom/`),
 * the statuses and sources, the subscribers table's filter, and the records several channels
 * answer (a list, a tag, a table row).
 *
 * Times: every time in an answer is ISO 8601 text in UTC (`2025-03-01T09:30:00.000Z`), or null
 * when the site does not know it, as in every other area; the site's UTC epoch seconds are turned
 * into it by the Host. The one time that goes in is a segment condition's `date` value, which is
 * the site's own document (epoch seconds, mailer-segments.ts) sent as it is.
 */
import * as v from 'valibot';

/** The two spellings of the plugin: document 2's routes and permissions, or Grav's Mailroom (the same API under its own name). */
export const MAILER_BASES = ['mailer', 'mailroom'] as const;
export type MailerBase = (typeof MAILER_BASES)[number];

/** A person's standing: waiting to confirm, on some list, off every list, or reported by the mail provider. */
export const SUBSCRIBER_STATUSES = ['pending', 'subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** How a person joined. */
export const SUBSCRIBER_SOURCES = ['form', 'import', 'api', 'admin', 'automation'] as const;
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number];

/** Where a person stands on one list. */
export const MEMBERSHIP_STATUSES = ['pending', 'subscribed', 'unsubscribed'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** The statuses in words, the same on every screen. */
export const STATUS_WORDS: Record<SubscriberStatus, string> = {
  pending: 'Waiting to confirm',
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Complained',
};

export const SOURCE_WORDS: Record<SubscriberSource, string> = {
  form: 'Signup form',
  import: 'Imported',
  api: 'API',
  admin: 'Added by the site',
  automation: 'An automation',
};

/**
 * The mailer's states and refusals in words, the same in the Host's errors and on the screen. The
 * site's own `detail` is shown as it says it wherever it sent one; these are for what the app knows.
 */
export const MAILER_WORDS = {
  none: 'This site has no mailing plugin: neither /mailer nor /mailroom answers on its API.',
  demo: 'Demo accounts cannot change the mailing audience on this site (demo mode).',
  demoReal: 'This site’s mailing plugin (Mailroom) refuses demo accounts altogether: its permissions are not read permissions, which is all demo mode lets through.',
  needsSite: 'Subscribers are kept on this computer only where you turn on the offline copy for the site.',
  notFilled: 'The offline copy of this site’s subscribers is not filled yet: it fills once the site answers.',
  notKept: 'This person is not in the offline copy.',
} as const;

/** The problem codes the sites send (docs/mailer-audience.md, "Problem codes"), for a screen to branch on (`AppError.reason`). */
export const MAILER_PROBLEMS = [
  'invalid_email',
  'invalid_mode',
  'invalid_field',
  'note_required',
  'unknown_list',
  'unknown_tag',
  'filter_invalid',
  'address_immutable',
  'list_code_immutable',
  'list_code_invalid',
  'tag_invalid',
  'reason_not_allowed',
  'hash_invalid',
  'definition_invalid',
  'nested_groups_unsupported',
  'mapping_invalid',
  'file_required',
  'file_not_csv',
  'bulk_target',
  'bulk_too_many',
  'unknown_action',
  'all_required',
  'not_found',
  'lists_not_deletable',
  'suppressed',
  'left_themselves',
  'not_pending',
  'not_left',
  'list_code_taken',
  'default_list_required',
  'segment_in_use',
  'no_lists',
  'file_too_large',
  'worker_unavailable',
] as const;
export type MailerProblem = (typeof MAILER_PROBLEMS)[number];

// ── records ──────────────────────────────────────────────────────────────────────────────────

export interface MailerList {
  id: number;
  /** What signup forms, imports and campaigns name it by; never changes. */
  code: string;
  name: string;
  description: string | null;
  /** People added by invitation or signup wait to confirm. */
  doubleOptIn: boolean;
  /** Offered on the preference centre. */
  public: boolean;
  /** Where an add naming no list goes; exactly one list is. */
  isDefault: boolean;
  /** Order of display, ascending. */
  position: number;
  /** This list's From; null: the site's. */
  fromName: string | null;
  fromEmail: string | null;
  counts: { subscribed: number; pending: number; unsubscribed: number };
  createdAt: string | null;
  updatedAt: string | null;
}

export interface MailerTag {
  id: number;
  /** Lower case, hyphens: "Early Access" is `early-access`. */
  code: string;
  label: string;
  /** People carrying it. */
  count: number;
  createdAt: string | null;
}

/** A person's standing on one list. */
export interface Membership {
  listId: number;
  code: string;
  name: string;
  status: MembershipStatus;
  since: string | null;
  /** Who took them off: `self` (they left) or `site`; null while on it. */
  leftBy: 'self' | 'site' | null;
}

/** A row of the subscribers table, and the start of every subscriber record. */
export interface SubscriberRow {
  id: number;
  email: string;
  name: string;
  status: SubscriberStatus;
  source: SubscriberSource | string;
  /** The form's own note of where (`footer`). */
  sourceRef: string | null;
  language: string | null;
  /** The address is on the suppression list (never mailed). */
  suppressed: boolean;
  /** The import that brought them in. */
  importId: number | null;
  lists: Membership[];
  tags: { id: number; code: string; label: string }[];
  createdAt: string | null;
  updatedAt: string | null;
  /** When they agreed (an invited person has none until they confirm). */
  consentAt: string | null;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}

/** A row the site sent that could not be read: set aside with its place and the field at fault (never its values: they are personal data). */
export interface UnreadableRow {
  position: number;
  problem: string;
}

export type StatusCounts = Record<SubscriberStatus, number>;

/** Where people stand on one list, whatever the other filters (`meta.list_counts`). */
export interface ListCounts {
  pending: number;
  subscribed: number;
  unsubscribed: number;
  total: number;
}

// ── inputs ───────────────────────────────────────────────────────────────────────────────────

/** A site's integer id of a person, list, tag, segment or import. */
export const MailerId = v.pipe(v.number('Not an id.'), v.integer('Not an id.'), v.minValue(1, 'Not an id.'), v.maxValue(Number.MAX_SAFE_INTEGER, 'Not an id.'));

/** An email address as a person types it: trimmed, one `@`, no spaces; the site checks the rest and says so. */
export const EmailAddress = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('Enter an email address.'),
  v.maxLength(254, 'An email address has at most 254 characters.'),
  v.regex(/^[^\s@]+@[^\s@]+$/, 'Not an email address: it needs one @ and no spaces (name@example.com).'),
);

/** A tag code or label as typed (the site normalises it). */
export const TagText = v.pipe(v.string(), v.trim(), v.nonEmpty('Enter a tag.'), v.maxLength(120, 'At most 120 characters.'));

/** A note saying where or how a person agreed or asked (kept in their consent history). */
export const ConsentNote = v.pipe(v.string(), v.trim(), v.nonEmpty('Say where they agreed, or how they asked.'), v.maxLength(1000, 'At most 1000 characters.'));

export const LanguageCode = v.pipe(v.string(), v.trim(), v.maxLength(35, 'A language code has at most 35 characters.'));

/**
 * The subscribers table's filters (document 2's query; docs/mailer-audience.md): words in the
 * address or name, status, source, a list (with where they stand on it), a tag, a campaign and
 * whether it reached them. The same object names "everyone matching this filter" for a bulk action
 * and an export.
 */
export const SubscriberFilter = v.strictObject({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'At most 200 characters.'))),
  status: v.optional(v.picklist(SUBSCRIBER_STATUSES, 'Not a status.')),
  source: v.optional(v.picklist(SUBSCRIBER_SOURCES, 'Not a source.')),
  list: v.optional(MailerId),
  /** Needs `list` (the Host refuses it alone, under this field): where they stand on it (`any`: on it in any standing). */
  listStatus: v.optional(v.picklist([...MEMBERSHIP_STATUSES, 'any'], 'Not a standing on a list.')),
  /** A tag's id. */
  tag: v.optional(MailerId),
  campaignId: v.optional(MailerId),
  /** Needs `campaignId` (refused alone, likewise): `yes` the people it reached (the default), `no` the others. */
  campaignReceived: v.optional(v.picklist(['yes', 'no'])),
});
export type SubscriberFilter = v.InferOutput<typeof SubscriberFilter>;

/** What a filter asks that cannot be asked (a standing without its list, a campaign's reach without the campaign), by field; null when nothing. Both sides check it: the form before sending, the Host at the boundary. */
export function filterProblems(f: SubscriberFilter): Record<string, string> | null {
  const out: Record<string, string> = {};
  if (f.listStatus !== undefined && f.list === undefined) out.listStatus = 'Choose the list first.';
  if (f.campaignReceived !== undefined && f.campaignId === undefined) out.campaignReceived = 'Choose the campaign first.';
  return Object.keys(out).length ? out : null;
}

/** Whether a filter sets nothing (it names everybody). */
export const filterIsEmpty = (f: SubscriberFilter): boolean => Object.values(f).every((x) => x === undefined || x === '');

/** An id the renderer makes for a long job (an export, a bulk action, an import's run), to follow its events and stop it. */
export const JobId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'Not a job id.'));

/** A file's full path (a save or open dialog's answer, or typed in browser mode); the Host checks it. */
export const FilePath = v.pipe(v.string(), v.trim(), v.nonEmpty('Enter the file’s full path.'), v.maxLength(4096, 'That path is too long.'));

/** A page of a paged list: 1-based, at most 200 a page (the sites' limit). */
export const PageNumber = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000_000)), 1);
export const PerPage = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200, 'At most 200 a page (the site’s limit).')), 50);

/** A file picked in a system dialog (Electron), or why there is none (browser mode asks for a path). */
export type MailerFileChoice = { file: string } | { cancelled: true } | { unsupported: true };
