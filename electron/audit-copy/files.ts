/**
 * Audit exports as files: an exported CSV or JSON file imported into a kept copy, and a copy's
 * events written out again, both streamed (the file is read and written a chunk at a time, the
 * events go in and out of SQLite a batch at a time: a million-event file never sits in memory).
 *
 * Import: a CSV's first line names its columns (document 2's, any order); each record is read
 * with the formula apostrophe the site added taken off; a JSON file is a bare list of events. A
 * row that cannot be read is counted and reported with its line (the first 50), never the whole
 * import lost; what the copy already has (by the site's id) is not added again, so importing the
 * same file twice adds nothing the second time. Each batch is one transaction.
 *
 * Export: newest first, as the site exports: CSV in the site's columns with the apostrophe before
 * a formula start, or JSON (a bare list). Written to a temporary file beside the target, renamed
 * into place at the end, so a cancelled or failed export leaves no half file under the name.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { AppError } from '../base/app-error';
import type { AuditRowProblem } from '../contract';
import type { AuditCopyRepo, EventInput, SearchSpec, StoredEvent } from '../db/repos/audit-copy';
import { CsvReader, csvLine } from './csv';
import { JsonArrayReader } from './json-array';
import { CSV_COLUMNS, cellOf, csvHeader, eventFromCells, eventFromJson, type CsvColumn } from './event-row';

/** Events written per transaction: small enough that the Host answers other calls between them. */
export const IMPORT_BATCH = 2_500;
const EXPORT_PAGE = 2_000;
const MAX_PROBLEMS = 50;
const CHUNK = 1 << 20;

export class FileJobCancelled extends Error {}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const fileError = (message: string) => AppError.fields({ file: message }, message);

/** A file system error met while a job reads or writes its file, in words (the path is the person's own). */
function fileProblem(err: unknown, doing: 'read' | 'written'): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (typeof code !== 'string' || err instanceof AppError) return err;
  const why =
    code === 'ENOSPC' ? 'the disk holding it is full' : code === 'ENOENT' ? 'it is no longer there' : code === 'EACCES' || code === 'EPERM' ? 'Sitedesk may not use it' : `the system said ${code}`;
  return new AppError({ code: code === 'ENOSPC' ? 'disk_full' : 'internal', message: `The file could not be ${doing}: ${why}.${doing === 'read' ? ' What was imported before stays.' : ' Nothing was left under its name.'}` }, { cause: err });
}

/** A file to import: an absolute path to a readable, non-empty regular file. Answers its size. */
export async function checkImportFile(file: string): Promise<number> {
  if (!isAbsolute(file)) throw fileError('Give the file’s full path (starting from the top of the disk).');
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fileError(code === 'ENOENT' ? 'There is no file at that path.' : code === 'EACCES' ? 'Sitedesk may not read that file.' : 'That file cannot be read.');
  }
  if (!info.isFile()) throw fileError('That is a folder, not a file.');
  if (info.size === 0) throw fileError('That file is empty.');
  return info.size;
}

/** CSV or JSON: the file's name says, else its first character ([ is JSON). */
export async function formatOf(file: string): Promise<'csv' | 'json'> {
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.json')) return 'json';
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    return /^(\uFEFF)?\s*\[/.test(buffer.subarray(0, bytesRead).toString('utf8')) ? 'json' : 'csv';
  } finally {
    await handle.close();
  }
}

export interface ImportTally {
  /** Rows read from the file (readable or not). */
  read: number;
  added: number;
  duplicates: number;
  unreadable: number;
  problems: AuditRowProblem[];
  bytes: { done: number; total: number | null };
}

export interface ImportDeps {
  repo: AuditCopyRepo;
  copyId: number;
  file: string;
  size: number;
  format: 'csv' | 'json';
  signal: AbortSignal;
  progress: (t: ImportTally) => void;
  batchSize?: number;
}

/** Reads the file into the copy; throws FileJobCancelled when stopped (the batches written stay). */
export async function importFile(deps: ImportDeps): Promise<ImportTally> {
  const { repo, copyId, signal } = deps;
  const batchSize = deps.batchSize ?? IMPORT_BATCH;
  const tally: ImportTally = { read: 0, added: 0, duplicates: 0, unreadable: 0, problems: [], bytes: { done: 0, total: deps.size } };
  const problem = (line: number, text: string) => {
    tally.unreadable++;
    if (tally.problems.length < MAX_PROBLEMS) tally.problems.push({ line, problem: text });
  };
  let batch: EventInput[] = [];
  const flush = () => {
    if (!batch.length) return;
    const events = batch;
    batch = [];
    repo.transaction(() => {
      const r = repo.insertBatch(copyId, events);
      tally.added += r.added;
      tally.duplicates += r.duplicates;
    });
  };

  let take: (chunk: string | null) => void;
  if (deps.format === 'csv') {
    let header: Map<CsvColumn, number> | null = null;
    let width = 0;
    // a record the two CSV dialects read differently is the one that makes an event
    const reader = new CsvReader({ accept: (fields) => !header || (fields.length === width && 'event' in eventFromCells(fields, header)) });
    take = (chunk) => {
      for (const rec of chunk === null ? reader.end() : reader.push(chunk)) {
        if (!header) {
          const h = csvHeader(rec.fields);
          if ('problem' in h) throw fileError(`That file cannot be imported: ${h.problem}.`);
          header = h;
          width = rec.fields.length;
          continue;
        }
        tally.read++;
        if (rec.problem) {
          problem(rec.line, rec.problem);
          continue;
        }
        if (rec.fields.length !== width) {
          problem(rec.line, `${rec.fields.length} values where the first line names ${width} columns`);
          continue;
        }
        const r = eventFromCells(rec.fields, header);
        if ('event' in r) batch.push(r.event);
        else problem(rec.line, r.problem);
      }
    };
  } else {
    const reader = new JsonArrayReader();
    take = (chunk) => {
      const elements = chunk === null ? reader.end() : reader.push(chunk);
      for (const el of elements) {
        tally.read++;
        let raw: unknown;
        try {
          raw = JSON.parse(el.text);
        } catch {
          problem(el.line, 'not JSON');
          continue;
        }
        const r = eventFromJson(raw);
        if ('event' in r) batch.push(r.event);
        else problem(el.line, r.problem);
      }
      if (reader.stop) {
        if (tally.read === 0 && tally.unreadable === 0) throw fileError(`That file cannot be imported: ${reader.stop.message}`);
        problem(reader.stop.line, reader.stop.message);
      }
    };
  }

  const stream = createReadStream(deps.file, { highWaterMark: CHUNK });
  stream.setEncoding('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      if (signal.aborted) throw new FileJobCancelled('stopped');
      take(chunk);
      tally.bytes.done = stream.bytesRead;
      while (batch.length >= batchSize) {
        const rest = batch.splice(batchSize);
        flush();
        batch = rest;
        deps.progress(tally);
        await yieldLoop();
        if (signal.aborted) throw new FileJobCancelled('stopped');
      }
    }
    take(null);
    flush();
  } catch (err) {
    throw fileProblem(err, 'read');
  } finally {
    stream.destroy();
  }
  tally.bytes.done = deps.size;
  deps.progress(tally);
  return tally;
}

// ── export ──────────────────────────────────────────────────────────────────────────────────

/** A file to write: an absolute path in a folder that exists; an existing file only when `overwrite`. */
export async function checkExportFile(file: string, overwrite: boolean): Promise<void> {
  if (!isAbsolute(file)) throw fileError('Give the file’s full path (starting from the top of the disk).');
  try {
    if (!(await stat(dirname(file))).isDirectory()) throw fileError('The folder for that file is not a folder.');
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw fileError('The folder for that file does not exist.');
  }
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw fileError('That is a folder; give a file name inside it.');
    // a conflict, as the site's export says it: the person may choose to replace it
    if (!overwrite) throw new AppError({ code: 'conflict', message: 'A file with that name is already there. Choose another name, or say it may be replaced.', fields: { file: 'A file with that name is already there.' } });
  } catch (err) {
    if (err instanceof AppError) throw err;
    // not there yet: good
  }
}

/** A kept event in the site's export fields (snake_case), as its JSON export writes them. */
export function exportRow(e: StoredEvent): Record<CsvColumn, unknown> {
  return {
    id: e.id,
    ts: e.ts,
    event: e.event,
    severity: e.severity,
    actor_id: e.actorId,
    actor_name: e.actorName,
    actor_roles: e.actorRoles,
    auth_method: e.authMethod,
    ip: e.ip,
    user_agent: e.userAgent,
    target_type: e.targetType,
    target_id: e.targetId,
    status: e.status,
    context: e.context,
  };
}

/** One CSV line of the site's export: arrays and objects JSON-encoded, null empty, a formula start defused. */
export function exportCsvLine(e: StoredEvent): string {
  const row = exportRow(e);
  return csvLine(
    CSV_COLUMNS.map((c) => {
      const v = row[c];
      return cellOf(v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    }),
  );
}

export interface ExportDeps {
  repo: AuditCopyRepo;
  spec: Omit<SearchSpec, 'before' | 'limit'>;
  file: string;
  format: 'csv' | 'json';
  overwrite: boolean;
  signal: AbortSignal;
  progress: (written: number, bytes: number) => void;
}

async function write(ws: WriteStream, text: string): Promise<void> {
  if (!ws.write(text)) await once(ws, 'drain');
}

/** Writes the matching events, newest first; answers how many. Throws FileJobCancelled when stopped (nothing is left under the name). */
export async function exportFile(deps: ExportDeps): Promise<{ written: number; bytes: number }> {
  const temp = join(dirname(deps.file), `.${basename(deps.file)}.${randomBytes(4).toString('hex')}.part`);
  const ws = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
  try {
    await once(ws, 'open');
  } catch (err) {
    throw fileProblem(err, 'written');
  }
  let written = 0;
  let done = false;
  try {
    await write(ws, deps.format === 'csv' ? csvLine(CSV_COLUMNS) : '[');
    let before: number | undefined;
    for (;;) {
      if (deps.signal.aborted) throw new FileJobCancelled('stopped');
      const page = deps.repo.page({ ...deps.spec, ...(before !== undefined ? { before } : {}), limit: EXPORT_PAGE });
      if (!page.length) break;
      let text = '';
      for (const e of page) {
        text += deps.format === 'csv' ? exportCsvLine(e) : `${written ? ',' : ''}\n${JSON.stringify(exportRow(e))}`;
        written++;
      }
      await write(ws, text);
      before = page[page.length - 1]!.key;
      deps.progress(written, ws.bytesWritten + ws.writableLength);
      if (page.length < EXPORT_PAGE) break;
      await yieldLoop();
    }
    if (deps.format === 'json') await write(ws, written ? '\n]\n' : ']\n');
    ws.end();
    await once(ws, 'finish');
    await once(ws, 'close');
    if (deps.overwrite) await rename(temp, deps.file);
    else {
      try {
        await link(temp, deps.file); // never over a file that appeared meanwhile
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw fileError('A file with that name appeared meanwhile; the export was not written over it.');
        throw err;
      }
      await unlink(temp);
    }
    done = true;
    return { written, bytes: ws.bytesWritten };
  } catch (err) {
    throw fileProblem(err, 'written');
  } finally {
    if (!done) {
      ws.destroy();
      await unlink(temp).catch(() => {});
    }
  }
}
