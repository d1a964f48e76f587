/**
 * Imports (docs/mailer-audience.md, "Imports"): the preview (columns, preset, mapping, the first
 * rows as they would be read, a dry run over the whole file) and the run, row by row in the
 * order of Mailroom's rules. Both read the spooled upload a record at a time (csv.ts), and the
 * "seen before in this file" check lives in a scratch table, so memory stays flat however long the
 * file is.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Flavor } from '../../flavor';
import type { Audience } from './audience';
import { readCsvFile, type CsvFileInfo, type CsvRecord } from './csv';
import {
  detectPreset,
  guessMapping,
  IMPORT_FIELDS,
  mappingAsHeaders,
  MappingError,
  normaliseEmail,
  normaliseTag,
  presetMapping,
  readDate,
  readName,
  readStatus,
  readTags,
  resolveMapping,
  type ColumnMap,
  type ImportField,
  type Preset,
  type ReadStatus,
} from './presets';
import { emailHash } from './schema';
import type { MailerStore, RawImport, RawList, RawSubscriber } from './store';
import { invalid, refuse } from './wire';

export type RowOutcome = 'new' | 'updated' | 'invalid' | 'duplicate' | 'suppressed' | 'unsubscribe' | 'skipped';

export interface ReadRow {
  line: number;
  /** the address as read, before checking (null: the column is empty) */
  raw: string | null;
  email: string | null;
  name: string;
  tags: string[];
  status: ReadStatus;
  subscribed_at: number | null;
  language: string | null;
}

export interface Decision {
  outcome: RowOutcome;
  /** the reason's key (counted in `reasons`) */
  reason: string | null;
  existing: RawSubscriber | null;
}

export const COUNT_KEYS = ['new', 'updated', 'invalid', 'duplicates', 'suppressed', 'unsubscribed', 'skipped'] as const;
type Counts = Record<(typeof COUNT_KEYS)[number], number>;
const countKey: Record<RowOutcome, keyof Counts> = { new: 'new', updated: 'updated', invalid: 'invalid', duplicate: 'duplicates', suppressed: 'suppressed', unsubscribe: 'unsubscribed', skipped: 'skipped' };

export const REASON_WORDS: Record<string, string> = {
  missing_address: 'There is no address in this row.',
  invalid_address: 'This is not an email address.',
  duplicate: 'The same address is earlier in the file.',
  pending_at_source: 'They never confirmed at the old tool, so they are not imported.',
  suppressed: 'This address is suppressed (or bounced or complained) here, so nothing is written.',
  unsubscribed_at_source: 'They unsubscribed at the old tool: the address will be suppressed.',
  left_themselves: 'They left this list (or every list) themselves, so nothing is written.',
};

const emptyCounts = (): Counts => ({ new: 0, updated: 0, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0 });

export interface FileLayout {
  headers: string[];
  map: ColumnMap;
  preset: Preset | null;
  source: 'given' | 'preset' | 'headings';
  fileStatus: ReadStatus | null;
  info: Partial<CsvFileInfo>;
}

/** The header record of a spooled file; a file without one is 422 `file_not_csv`. */
async function headerOf(path: string): Promise<{ headers: string[]; info: Partial<CsvFileInfo> }> {
  const info: Partial<CsvFileInfo> = {};
  const gen = readCsvFile(path, info);
  try {
    const first = await gen.next();
    const headers = first.done ? [] : first.value.cells.map((c) => c.trim());
    if (!headers.length || headers.every((h) => h === '') || headers.some((h) => h.includes('\u0000'))) {
      throw refuse(422, 'file_not_csv', 'The file is not a CSV with a header row: export it from the other tool as CSV (comma, semicolon or tab separated), with the column names in the first row.', { errors: [{ field: 'file', message: 'no header row' }] });
    }
    return { headers, info };
  } finally {
    await gen.return(undefined);
  }
}

export async function layoutOf(path: string, mapping: unknown, flavor: Flavor, requireEmail: boolean): Promise<FileLayout> {
  const { headers, info } = await headerOf(path);
  const preset = detectPreset(headers, flavor);
  let map: ColumnMap;
  let source: FileLayout['source'];
  if (mapping !== undefined && mapping !== null && mapping !== '') {
    let parsed = mapping;
    if (typeof mapping === 'string') {
      try {
        parsed = JSON.parse(mapping);
      } catch {
        throw invalid('mapping', 'mapping must be JSON: an object from field to column, e.g. {"email": "Email Address"}.', 'mapping_invalid');
      }
    }
    try {
      map = resolveMapping(parsed, headers);
    } catch (e) {
      if (e instanceof MappingError) throw invalid(e.field, e.message, 'mapping_invalid');
      throw e;
    }
    source = 'given';
  } else if (preset) {
    map = presetMapping(preset, headers);
    source = 'preset';
  } else {
    map = guessMapping(headers);
    source = 'headings';
  }
  if (requireEmail && map.email === undefined) throw invalid('mapping.email', 'The mapping needs an email column: name the column that holds the addresses, e.g. {"email": "Email"}.', 'mapping_invalid');
  return { headers, map, preset, source, fileStatus: preset?.fileStatus?.(new Set(headers)) ?? null, info };
}

export function readRow(rec: CsvRecord, layout: FileLayout): ReadRow {
  const cell = (f: ImportField) => (layout.map[f] === undefined ? undefined : (rec.cells[layout.map[f]!] ?? ''));
  const raw = cell('email')?.trim() || null;
  const statusCell = cell('status');
  const status: ReadStatus = layout.fileStatus ?? (statusCell === undefined || statusCell.trim() === '' ? 'subscribed' : (layout.preset?.status ?? readStatus)(statusCell));
  const lang = cell('language')?.trim();
  return {
    line: rec.line,
    raw,
    email: raw ? normaliseEmail(raw) : null,
    name: readName({ name: cell('name'), first_name: cell('first_name'), last_name: cell('last_name') }),
    tags: cell('tags') ? readTags(cell('tags')!) : [],
    status,
    subscribed_at: cell('subscribed_at') ? readDate(cell('subscribed_at')!) : null,
    language: lang ? lang.slice(0, 35) : null,
  };
}

/** Which way a row goes (Mailroom's order), against the store as it is now and what the file held above it. */
export function decide(row: ReadRow, store: MailerStore, list: RawList | null, seen: (email: string) => boolean): Decision {
  if (!row.raw) return { outcome: 'invalid', reason: 'missing_address', existing: null };
  if (!row.email) return { outcome: 'invalid', reason: 'invalid_address', existing: null };
  if (seen(row.email)) return { outcome: 'duplicate', reason: 'duplicate', existing: null };
  if (row.status === 'pending') return { outcome: 'skipped', reason: 'pending_at_source', existing: null };
  const existing = store.byEmail(row.email);
  if (store.suppression(emailHash(row.email)) || (existing && (existing.status === 'bounced' || existing.status === 'complained'))) return { outcome: 'suppressed', reason: 'suppressed', existing };
  if (row.status === 'unsubscribed') return { outcome: 'unsubscribe', reason: 'unsubscribed_at_source', existing };
  if (existing) {
    if (existing.status === 'unsubscribed' && existing.left_by === 'self') return { outcome: 'skipped', reason: 'left_themselves', existing };
    if (list) {
      const m = store.membership(existing.id, list.id);
      if (m?.status === 'unsubscribed' && m.left_by === 'self') return { outcome: 'skipped', reason: 'left_themselves', existing };
    }
    return { outcome: 'updated', reason: null, existing };
  }
  return { outcome: 'new', reason: null, existing: null };
}

/** The scratch table that remembers the addresses of one read of a file. */
class Seen {
  readonly run: string;
  private readonly has;
  private readonly add;
  constructor(
    private readonly store: MailerStore,
    run?: string,
  ) {
    this.run = run ?? `preview-${randomBytes(6).toString('hex')}`;
    this.has = store.prep('SELECT 1 FROM import_seen WHERE run = ? AND email = ?');
    this.add = store.prep('INSERT OR IGNORE INTO import_seen (run, email) VALUES (?, ?)');
  }
  check = (email: string): boolean => this.has.get(this.run, email) !== undefined;
  mark(email: string): void {
    this.add.run(this.run, email);
  }
  clear(): void {
    this.store.prep('DELETE FROM import_seen WHERE run = ?').run(this.run);
  }
}

const PREVIEW_ROWS = 20;

/** POST /imports/preview */
export async function previewImport(o: { store: MailerStore; flavor: Flavor; path: string; fileName: string; bytes: number; mapping: unknown; list: RawList | null }) {
  const layout = await layoutOf(o.path, o.mapping, o.flavor, false);
  const seen = new Seen(o.store);
  const counts = emptyCounts();
  const reasons: Record<string, number> = {};
  const rows: unknown[] = [];
  let total = 0;
  try {
    let first = true;
    let batch: CsvRecord[] = [];
    const flush = () => {
      // one transaction per batch of marks: a dry run writes nothing but its scratch rows
      o.store.tx(() => {
        for (const rec of batch) {
          const row = readRow(rec, layout);
          const d = layout.map.email === undefined ? ({ outcome: 'invalid', reason: 'missing_address', existing: null } as Decision) : decide(row, o.store, o.list, seen.check);
          if (row.email && d.outcome !== 'invalid' && d.outcome !== 'duplicate') seen.mark(row.email);
          counts[countKey[d.outcome]]++;
          if (d.reason) reasons[d.reason] = (reasons[d.reason] ?? 0) + 1;
          if (rows.length < PREVIEW_ROWS) {
            rows.push({
              line: row.line,
              values: { email: row.raw, name: row.name, tags: row.tags, status: row.status, subscribed_at: row.subscribed_at, language: row.language },
              outcome: d.outcome,
              reason: d.reason ? REASON_WORDS[d.reason]! : null,
            });
          }
        }
      });
      batch = [];
    };
    for await (const rec of readCsvFile(o.path)) {
      if (first) {
        first = false;
        continue;
      }
      total++;
      batch.push(rec);
      if (batch.length >= 1000) flush();
    }
    flush();
  } finally {
    seen.clear();
  }
  const mapped = new Map(Object.entries(layout.map).map(([f, i]) => [i, f]));
  return {
    file: { name: o.fileName, bytes: o.bytes, rows: total, delimiter: layout.info.delimiter ?? ',', bom: layout.info.bom ?? false },
    columns: layout.headers.map((header, index) => ({ index, header, field: mapped.get(index) ?? null })),
    preset: layout.preset ? { key: layout.preset.key, label: layout.preset.label } : null,
    mapping: mappingAsHeaders(layout.map, layout.headers),
    mapping_source: layout.source,
    rows,
    dry_run: { rows: total, ...counts, reasons },
  };
}

/** How many data rows a spooled file holds (streamed). */
export async function countRows(path: string): Promise<number> {
  let n = -1;
  for await (const _ of readCsvFile(path)) n++;
  return Math.max(0, n);
}

export interface RunOptions {
  store: MailerStore;
  audience: Audience;
  flavor: Flavor;
  nowSec: () => number;
  siteName: string;
}

/**
 * One import being worked through: `step(n)` reads and writes up to n more rows, updating the
 * import's record; `done` once the file is read.
 */
export class ImportRun {
  private gen: AsyncGenerator<CsvRecord> | null = null;
  private layout: FileLayout | null = null;
  private seen: Seen;
  private counts: Counts;
  private reasons: Record<string, number>;
  private list: RawList | null = null;
  private tagId: number | null = null;
  private rowsDone: number;
  /** tag code → id for this run (a 100,000-row file names the same few tags again and again) */
  private readonly tagIds = new Map<string, number>();
  done = false;

  constructor(
    private readonly o: RunOptions,
    readonly record: RawImport,
  ) {
    this.seen = new Seen(o.store, `import-${record.id}`);
    this.counts = { ...emptyCounts(), ...(JSON.parse(record.counts) as Partial<Counts>) };
    this.reasons = JSON.parse(record.reasons) as Record<string, number>;
    this.rowsDone = record.rows_done;
  }

  private async open(): Promise<void> {
    const r = this.record;
    this.layout = await layoutOf(r.spool!, JSON.parse(r.mapping), this.o.flavor, true);
    this.list = r.list_id ? this.o.store.list(r.list_id) : null;
    if (r.tag) this.tagId = this.o.store.ensureTag(r.tag, null, this.o.nowSec()).tag.id;
    this.gen = readCsvFile(r.spool!);
    await this.gen.next(); // the header
    // a run picked up again skips what it already did (each row was written on its own)
    for (let i = 0; i < this.rowsDone; i++) if ((await this.gen.next()).done) break;
    this.o.store.prep("UPDATE imports SET status = 'running', started_at = coalesce(started_at, ?) WHERE id = ?").run(this.o.nowSec(), r.id);
  }

  /** Reads and writes up to `max` rows; returns how many it did. */
  async step(max: number): Promise<number> {
    if (this.done) return 0;
    if (!this.gen) await this.open();
    const recs: CsvRecord[] = [];
    while (recs.length < max) {
      const next = await this.gen!.next();
      if (next.done) {
        this.done = true;
        break;
      }
      recs.push(next.value);
    }
    const { store } = this.o;
    store.tx(() => {
      for (const rec of recs) this.write(readRow(rec, this.layout!));
      this.rowsDone += recs.length;
      store.prep('UPDATE imports SET rows_done = ?, counts = ?, reasons = ? WHERE id = ?').run(this.rowsDone, JSON.stringify(this.counts), JSON.stringify(this.reasons), this.record.id);
      if (this.done) this.finish('finished', null);
    });
    if (this.done) this.cleanUp();
    return recs.length;
  }

  fail(message: string): void {
    this.done = true;
    this.o.store.tx(() => this.finish('failed', message));
    this.cleanUp();
  }

  private finish(status: 'finished' | 'failed', error: string | null): void {
    this.o.store.prep('UPDATE imports SET status = ?, finished_at = ?, error = ?, spool = NULL, rows_total = CASE WHEN ? = \'finished\' THEN rows_done ELSE rows_total END WHERE id = ?').run(status, this.o.nowSec(), error, status, this.record.id);
  }

  private cleanUp(): void {
    void this.gen?.return(undefined);
    this.seen.clear();
    if (this.record.spool) rmSync(this.record.spool, { force: true });
  }

  private write(row: ReadRow): void {
    const { store, audience } = this.o;
    const now = this.o.nowSec();
    const d = decide(row, store, this.list, this.seen.check);
    if (row.email && d.outcome !== 'invalid' && d.outcome !== 'duplicate') this.seen.mark(row.email);
    this.counts[countKey[d.outcome]]++;
    if (d.reason) this.reasons[d.reason] = (this.reasons[d.reason] ?? 0) + 1;
    const r = this.record;
    const confirmed = r.as_confirmed === 1;
    const tags = [...row.tags, ...(r.tag ? [normaliseTag(r.tag)] : [])].filter(Boolean);
    switch (d.outcome) {
      case 'unsubscribe':
        store.addSuppression(row.email!, 'manual', `import: ${r.file_name}`, now);
        if (d.existing) audience.unsubscribe(d.existing.id, null);
        return;
      case 'new': {
        const id = store.insertSubscriber({
          email: row.email!,
          name: row.name,
          status: confirmed ? 'subscribed' : 'pending',
          source: 'import',
          source_ref: null,
          language: row.language,
          import_id: r.id,
          created_at: now,
          updated_at: now,
          consent_at: confirmed ? (row.subscribed_at ?? now) : null,
          consent_ip: null,
          consent_basis: r.basis,
          confirmed_at: null,
          unsubscribed_at: null,
          left_by: null,
          left_via: null,
        });
        this.join(id, row.email!, now, confirmed);
        for (const code of tags) store.addTag(id, this.tagOf(code, now));
        return;
      }
      case 'updated': {
        const s = d.existing!;
        const patch: Partial<RawSubscriber> = {};
        if (!s.name && row.name) patch.name = row.name;
        if (!s.language && row.language) patch.language = row.language;
        store.updateSubscriber(s.id, patch, now);
        const m = this.list ? store.membership(s.id, this.list.id) : null;
        if (this.list && (!m || m.status === 'unsubscribed')) this.join(s.id, s.email, now, confirmed);
        for (const code of tags) store.addTag(s.id, this.tagOf(code, now));
        store.refreshStatus(s.id, now);
        return;
      }
      default:
        return;
    }
  }

  private tagOf(code: string, now: number): number {
    let id = this.tagIds.get(code);
    if (id === undefined) {
      id = this.o.store.ensureTag(code, null, now).tag.id;
      this.tagIds.set(code, id);
    }
    return id;
  }

  private join(id: number, email: string, now: number, confirmed: boolean): void {
    const { store } = this.o;
    if (!this.list) return;
    store.setMembership({ subscriber_id: id, list_id: this.list.id, status: confirmed ? 'subscribed' : 'pending', since: now, left_by: null, left_via: null });
    store.logConsent({ subscriber_id: id, at: now, action: confirmed ? 'imported' : 'imported_pending', list_id: this.list.id, by: 'import', note: this.record.basis });
    if (!confirmed) store.logMessage(id, email, 'confirmation', `Please confirm your email address for ${this.o.siteName}`, now);
    store.refreshStatus(id, now);
  }
}

export { IMPORT_FIELDS };
