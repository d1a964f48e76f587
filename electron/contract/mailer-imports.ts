/**
 * The mailer's imports (docs/mailer-audience.md, "Imports"): a CSV file the person picks is sent
 * to the site from disk as it is read (never held whole: up to the site's 64 MB), first for a
 * preview — its columns, the preset the site detected (another mailing tool's export), the mapping
 * of columns to fields, the first rows as they would be read and a dry run of the whole file with
 * its counts — then for the run, which the site queues and works through at its own pace while
 * the Host follows it and reports its progress as events. Past runs are listed with their counts.
 * No count or reason ever names an address; the preview's rows are the person's own file.
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import { FilePath, JobId, MailerId, PageNumber, PerPage, TagText, type MailerFileChoice } from './mailer-common';

/** The fields a column can be mapped to. `first_name` and `last_name` make the name where there is no `name` column. */
export const IMPORT_FIELDS = ['email', 'name', 'first_name', 'last_name', 'tags', 'status', 'subscribed_at', 'language'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const IMPORT_FIELD_WORDS: Record<ImportField, string> = {
  email: 'Email address',
  name: 'Name',
  first_name: 'First name',
  last_name: 'Last name',
  tags: 'Tags',
  status: 'Status at the old tool',
  subscribed_at: 'Subscribed at',
  language: 'Language',
};

/** A column named by its heading, or by its 0-based place. */
const Column = v.union([v.pipe(v.string(), v.trim(), v.nonEmpty('Choose a column.'), v.maxLength(500, 'At most 500 characters.')), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(9999))]);

/** Field → column. One column per field and one field per column (the site refuses the rest under `mapping`). */
export const ImportMapping = v.strictObject({
  email: v.optional(Column),
  name: v.optional(Column),
  first_name: v.optional(Column),
  last_name: v.optional(Column),
  tags: v.optional(Column),
  status: v.optional(Column),
  subscribed_at: v.optional(Column),
  language: v.optional(Column),
});
export type ImportMapping = v.InferOutput<typeof ImportMapping>;

export type ImportRowOutcome = 'new' | 'updated' | 'invalid' | 'duplicate' | 'suppressed' | 'unsubscribe' | 'skipped';

export interface ImportCounts {
  new: number;
  updated: number;
  invalid: number;
  duplicates: number;
  suppressed: number;
  unsubscribed: number;
  skipped: number;
}

export interface ImportPreview {
  file: { name: string; bytes: number; rows: number; delimiter: string; bom: boolean };
  /** Every column with the field it is mapped to (null: not imported). */
  columns: { index: number; header: string; field: ImportField | null }[];
  /** Another tool's export the site recognised (its mapping and status reading are prefilled). */
  preset: { key: string; label: string } | null;
  /** Field → heading, as the site will read the file. */
  mapping: Partial<Record<ImportField, string>>;
  /** Where the mapping came from: the one sent, the preset, or headings that plainly name a field. */
  mappingSource: 'given' | 'preset' | 'headings' | string;
  /** The first rows as the import would read them, each with what it would do and, when nothing is written, why (the site's words). */
  rows: {
    line: number;
    values: { email: string | null; name: string; tags: string[]; status: string | null; subscribedAt: string | null; language: string | null };
    outcome: ImportRowOutcome | string;
    reason: string | null;
  }[];
  /** The whole file read, nothing written. `reasons`: rows not written, counted by reason key. */
  dryRun: ImportCounts & { rows: number; reasons: Record<string, number> };
}

export type ImportStatus = 'queued' | 'running' | 'finished' | 'failed';

export interface MailerImport {
  id: number;
  fileName: string;
  status: ImportStatus | string;
  /** null: no list (people only). */
  listId: number | null;
  tag: string | null;
  /** The consent basis kept for everyone it brings in. */
  basis: string | null;
  /** false: everyone is asked to confirm by email. */
  asConfirmed: boolean;
  preset: string | null;
  mapping: Record<string, string>;
  rowsTotal: number;
  rowsDone: number;
  /** 0 to 1. */
  progress: number;
  counts: ImportCounts;
  reasons: Record<string, number>;
  createdBy: string | null;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export interface ImportPage {
  items: MailerImport[];
  total: number | null;
  page: number;
  perPage: number;
  next: number | null;
}

/**
 * A file going to the site and a run the Host follows: `uploading` with the bytes sent (a preview's
 * or a run's), then for a run `queued`, `running` (its counts so far), `finished` or `failed`;
 * `lost` when the Host stopped following (the site stopped answering): `mailer.import` with
 * `follow` takes it up again.
 */
export interface ImportProgress {
  siteId: string;
  /** The id the renderer gave the preview or run. */
  jobId: string;
  phase: 'uploading' | 'queued' | 'running' | 'finished' | 'failed' | 'lost';
  sent: number;
  /** The request's size in bytes while uploading. */
  total: number;
  import: MailerImport | null;
}

const Basis = v.pipe(v.string(), v.trim(), v.nonEmpty('Say where these people agreed (it is kept as their consent).'), v.maxLength(500, 'At most 500 characters.'));

export const mailerImportChannels = {
  /** The system's open-file dialog for a CSV (Electron); browser mode answers `unsupported` and the screen asks for a path. */
  'mailer.chooseImportFile': channel<MailerFileChoice>()(v.strictObject({})),
  /**
   * Sends the file for a preview (nothing is written on the site): columns, preset, mapping, the
   * first rows and a dry run with `listId`. `mapping` overrides what the site would pick.
   */
  'mailer.importPreview': channel<ImportPreview>()(v.strictObject({ siteId: SiteId, jobId: JobId, file: FilePath, mapping: v.optional(ImportMapping), listId: v.optional(MailerId) })),
  /**
   * Sends the file to be imported; answers once the site queued it (or, when an earlier run of the
   * same file lost its answer, the import that one made: `earlier`). The Host then follows the run
   * with `mailer.importProgress` events until it ends.
   */
  'mailer.importRun': channel<{ import: MailerImport; earlier: boolean }>()(
    v.strictObject({
      siteId: SiteId,
      jobId: JobId,
      file: FilePath,
      mapping: ImportMapping,
      /** null: people only, on no list. */
      listId: v.nullable(MailerId),
      /** true: they confirmed at the other tool; false: everyone is asked to confirm by email. */
      asConfirmed: v.boolean(),
      tag: v.optional(TagText),
      /** Where they agreed; the site's default is the file's name. */
      basis: v.optional(Basis),
    }),
  ),
  /** Past runs, newest first. */
  'mailer.imports': channel<ImportPage>()(v.strictObject({ siteId: SiteId, page: PageNumber, perPage: PerPage })),
  /** One run with its progress; `follow`: the Host follows it until it ends (after a reload), as `jobId`. */
  'mailer.import': channel<MailerImport>()(v.strictObject({ siteId: SiteId, id: MailerId, follow: v.optional(JobId) })),
};

export const mailerImportEvents = {
  'mailer.importProgress': event<ImportProgress>(),
};
