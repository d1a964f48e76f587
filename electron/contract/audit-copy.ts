/**
 * The `auditCopy.*` channels: audit trails kept on this computer (issue 16, "Audit trail kept
 * offline"). "Keep a copy" pulls a CMS site's trail into SQLite, incrementally after the first
 * time; an exported CSV or JSON file (document 2's `/audit/export`) can be imported into a site's
 * copy or a copy of its own; every copy is searched at once, offline, with every filter of
 * `AuditFilter` (`q` is full text here: words, see `AuditCopyQuery`), paged newest first by key,
 * with its facets, and can be exported again. How long a copy keeps its events is the person's
 * choice (`AuditRetention`), not the site's. Keep, import and export are Host jobs reported as
 * `auditCopy.job` events. Everything here writes only the app's database and the files the person
 * chose: no site sees a change.
 */
import * as v from 'valibot';
import { channel, event, None } from './define';
import { SiteId } from './sites';
import { AuditFilter, type AuditEvent } from './audit-event';

/** How long a copy keeps its events, applied after every keep and import and when changed. */
export type AuditRetention = { kind: 'all' } | { kind: 'days'; days: number } | { kind: 'count'; events: number };

/** One kept trail: a site's (kept from it, imports may add to it) or an imported file's own. */
export interface AuditCopy {
  id: number;
  kind: 'site' | 'file';
  /** The site a `site` copy belongs to; null for a file's copy. */
  siteId: string | null;
  /** The site's name now, or the name the person gave the imported copy. */
  name: string;
  events: number;
  /** The oldest and newest event kept (epoch ms); null for an empty copy. */
  oldest: number | null;
  newest: number | null;
  /** When events last came in (a keep or an import finished); null before the first. */
  keptAt: string | null;
  retention: AuditRetention;
  /** A keep was cut short (cancelled, a crash, the site away): the next keep goes on from where it stopped. */
  resumable: boolean;
}

export type AuditCopyJobKind = 'keep' | 'import' | 'export';
export type AuditCopyJobState = 'running' | 'done' | 'cancelled' | 'failed';

/** A row of an imported file that could not be read (the file's line, from 1), and why. */
export interface AuditRowProblem {
  line: number;
  problem: string;
}

/**
 * A keep, an import or an export, as `auditCopy.job` reports it (a few times a second while it
 * runs, and at every change of state). Finished jobs are kept for the Host's life.
 */
export interface AuditCopyJob {
  id: string;
  kind: AuditCopyJobKind;
  copyId: number | null;
  siteId: string | null;
  state: AuditCopyJobState;
  /** Events handled so far: read from the site (keep), read from the file (import), written (export). */
  done: number;
  /** How many there are, when known: the site's count for the run (keep), the matches (export). */
  total: number | null;
  /** Import and export: bytes of the file read or written, and the file's size (import). */
  bytes: { done: number; total: number | null } | null;
  /** Events new to the copy. */
  added: number;
  /** Keep: events the site sent (those the copy had already included: the measure of a second keep). */
  transferred: number;
  /** Events the copy had already (by the site's id), not added again. */
  duplicates: number;
  /** Import: rows that could not be read (the first 50 in `problems`). */
  unreadable: number;
  problems: AuditRowProblem[];
  /** Events the copy's retention removed after the job. */
  removed: number;
  /**
   * Import: once the rows are stored, their words are added to the full-text index (the job ends
   * when they are in): events indexed of those to index. null before, and for other jobs.
   */
  indexing: { done: number; total: number } | null;
  /** Why the job failed or stopped, in words. */
  error: string | null;
  /** The file's name (import, export; never its folder). */
  file: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** An event of a kept copy: its place in the timeline (`key`, newest first) and its copy. */
export interface KeptAuditEvent extends AuditEvent {
  /** Orders every copy's events together by time; the `before` of keyset paging. */
  key: number;
  copyId: number;
}

/** When each copy an answer read was last kept (an answer is from the copies, not the sites). */
export interface AuditCopyStamp {
  copyId: number;
  siteId: string | null;
  name: string;
  keptAt: string | null;
}

export interface AuditCopyPage {
  events: KeptAuditEvent[];
  /** Every match, over all pages. */
  total: number;
  /**
   * false: an estimate ("about"): words that match more than 20,000 events are not counted one by
   * one (their newest matches' share of the time searched, and of those the share the other filters
   * keep, over all of them). The pages are exact: `next` is null at the last one.
   */
  totalExact: boolean;
  /** `before` for the next page; null when this page is the last. */
  next: number | null;
  /** The words `q` searched for (each quoted: FTS5 syntax is never read from what a person types). */
  terms: string[];
  copies: AuditCopyStamp[];
  /**
   * A search with words while an import's words are still being added to the full-text index (in
   * the background, newest events first): events of the searched copies indexed of all of them.
   * Matches among the others are not in this answer yet: say "Full text is still being indexed:
   * N of M events". null when every event is indexed (or no words were searched).
   */
  indexing: { indexed: number; total: number } | null;
}

export interface AuditFacetValue {
  value: string;
  count: number;
}

export interface AuditCopyFacets {
  events: AuditFacetValue[];
  actors: { id: string | null; name: string | null; count: number }[];
  targetTypes: AuditFacetValue[];
  severities: AuditFacetValue[];
  copies: { copyId: number; count: number }[];
  copiesKept: AuditCopyStamp[];
}

/** The system's open-file dialog (Electron), or why there is none (browser mode asks for a path). */
export type AuditFileChoice = { file: string } | { cancelled: true } | { unsupported: true };

// ── inputs ──────────────────────────────────────────────────────────────────────────────────

export const CopyId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
const CopyIds = v.pipe(v.array(CopyId), v.maxLength(1000, 'At most 1,000 copies.'));
const JobId = v.pipe(v.string(), v.maxLength(100));
/** A file on this computer, as the dialog gave it or the person typed it (checked by the Host). */
const FilePath = v.pipe(v.string(), v.trim(), v.nonEmpty('Enter the file’s full path.'), v.maxLength(4096, 'That path is too long.'));
const CopyName = v.pipe(v.string(), v.trim(), v.nonEmpty('Give the copy a name.'), v.maxLength(200, 'At most 200 characters.'));
const Format = v.picklist(['csv', 'json'], 'Choose CSV or JSON.');
const EventKey = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));

export const AuditRetentionSchema = v.variant(
  'kind',
  [
    v.strictObject({ kind: v.literal('all') }),
    v.strictObject({ kind: v.literal('days'), days: v.pipe(v.number(), v.integer(), v.minValue(1, 'At least one day.'), v.maxValue(36_500, 'At most 100 years.')) }),
    v.strictObject({ kind: v.literal('count'), events: v.pipe(v.number(), v.integer(), v.minValue(1, 'At least one event.'), v.maxValue(1_000_000_000, 'At most a billion events.')) }),
  ],
  'Keep everything, the last N days, or at most N events.',
);

/**
 * A search of the kept copies: AuditFilter's fields, where `q` is full text over the actor's name,
 * the target, the event code, the address, the user agent and the context (every word must be
 * there; "quoted words" stay together; a trailing * searches a prefix), `copies` (none: all), and
 * keyset paging (`before`: the `next` of the previous page).
 */
export const AuditCopyQuery = v.strictObject({
  ...AuditFilter.entries,
  copies: v.optional(CopyIds),
  before: v.optional(EventKey),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500, 'At most 500 a page.')), 100),
});
export type AuditCopyQuery = v.InferInput<typeof AuditCopyQuery>;

export const AuditImportInput = v.strictObject({
  file: FilePath,
  /** Default: by the file's name (.csv, .json), else by its first character. */
  format: v.optional(Format),
  into: v.variant('kind', [v.strictObject({ kind: v.literal('site'), siteId: SiteId }), v.strictObject({ kind: v.literal('file'), name: CopyName })], 'Say which site the file belongs to, or name its own copy.'),
});

export const AuditExportInput = v.strictObject({
  file: FilePath,
  format: Format,
  /** Write over a file already there (a save dialog asked the person). */
  overwrite: v.optional(v.boolean()),
  ...AuditFilter.entries,
  copies: v.optional(CopyIds),
});

// ── channels and events ──────────────────────────────────────────────────────────────────────

export const auditCopyChannels = {
  /** Every kept copy: events, oldest, newest, when kept, its retention. */
  'auditCopy.copies': channel<AuditCopy[]>()(None),
  /** "Keep a copy": pulls what is new on the site's trail (all of it the first time); answers the job at once. */
  'auditCopy.keep': channel<AuditCopyJob>()(v.strictObject({ siteId: SiteId })),
  /** The system's open-file dialog for an export file (Electron); browser mode answers `unsupported`. */
  'auditCopy.chooseOpenFile': channel<AuditFileChoice>()(None),
  /** Imports an exported CSV or JSON file, streamed; answers the job at once. */
  'auditCopy.import': channel<AuditCopyJob>()(AuditImportInput),
  /** Writes the matching events to a file (CSV in the site's columns, or JSON), streamed; answers the job at once. */
  'auditCopy.export': channel<AuditCopyJob>()(AuditExportInput),
  /** Stops a running job (a keep stays resumable; what an import kept stays); `job: null` when it was not running. */
  'auditCopy.cancel': channel<{ job: AuditCopyJob | null }>()(v.strictObject({ jobId: JobId })),
  /** The jobs of this Host's life, newest first. */
  'auditCopy.jobs': channel<AuditCopyJob[]>()(None),
  'auditCopy.search': channel<AuditCopyPage>()(AuditCopyQuery),
  /** The values of the copies (all, or `copies`) with their counts, for the filter pickers. */
  'auditCopy.facets': channel<AuditCopyFacets>()(v.strictObject({ copies: v.optional(CopyIds) })),
  /** Sets a copy's retention and applies it now. */
  'auditCopy.setRetention': channel<AuditCopy>()(v.strictObject({ copyId: CopyId, retention: AuditRetentionSchema })),
  /** Forgets a copy entirely (its events are removed, then overwritten on disk). */
  'auditCopy.forget': channel<{ copyId: number }>()(v.strictObject({ copyId: CopyId })),
};

export const auditCopyEvents = {
  /** A job moved on (a few times a second at most, and at every change of state). */
  'auditCopy.job': event<AuditCopyJob>(),
  /** The copies changed (a job finished, a retention applied, a copy forgotten): the list as it is now. */
  'auditCopy.changed': event<AuditCopy[]>(),
};
