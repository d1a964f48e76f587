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
import { createWriteStream, type WriteStream } from 'node:fs';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { AppError } from '../base/app-error';
import type { AuditRowProblem } from '../contract';
import { packRefs, type AuditCopyRepo, type SearchSpec, type StoredEvent } from '../db/repos/audit-copy';
import { csvLine } from './csv';
import { CSV_COLUMNS, cellOf, type CsvColumn } from './event-row';
import { IMPORT_BATCH, ImportRefused } from './import-reader';
import { importSteps } from './import-source';

const EXPORT_PAGE = 2_000;

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
  /** Once the rows are stored: the events whose words the full-text index has (done) of those it had to add (total). */
  indexing: { done: number; total: number } | null;
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
  /** The reader's worker code; null: read in this thread (import-source.ts). Default: the build's. */
  workerCode?: string | null;
}

/**
 * Reads the file into the copy: the file is read and parsed in a worker thread (import-source.ts)
 * while this thread stores each batch it posts (one transaction: the events and their tally) and
 * lets other calls run between batches. Their words go into the full-text index after the rows
 * (the repository's background indexing, newest first, a few milliseconds at a time): the import
 * ends when they are in. Throws FileJobCancelled when stopped (the batches stored stay, and their
 * words are still indexed in the background; what the reader had read beyond them is dropped).
 */
export async function importFile(deps: ImportDeps): Promise<ImportTally> {
  const { repo, signal } = deps;
  const tally: ImportTally = { read: 0, added: 0, duplicates: 0, unreadable: 0, problems: [], bytes: { done: 0, total: deps.size }, indexing: null };
  await repo.storing(() => storeRows(deps, tally));
  tally.bytes.done = deps.size;
  deps.progress(tally);
  // the words: the copy's events still to index (and any other copy's: the index catches up in one run)
  const total = repo.unindexed(null);
  if (total > 0) {
    tally.indexing = { done: 0, total };
    deps.progress(tally);
    try {
      await repo.indexText({
        signal,
        progress: (left) => {
          tally.indexing = { done: Math.max(0, total - left), total };
          deps.progress(tally);
        },
      });
    } catch (err) {
      if (signal.aborted) throw new FileJobCancelled('stopped');
      throw err;
    }
    tally.indexing = { done: total, total };
    deps.progress(tally);
  }
  return tally;
}

async function storeRows(deps: ImportDeps, tally: ImportTally): Promise<void> {
  const { repo, copyId, signal } = deps;
  const refs = packRefs();
  const steps = importSteps({ file: deps.file, format: deps.format, batchSize: deps.batchSize ?? IMPORT_BATCH, ...(deps.workerCode !== undefined ? { workerCode: deps.workerCode } : {}) });
  try {
    for await (const step of steps) {
      if (signal.aborted) throw new FileJobCancelled('stopped');
      tally.read = step.read;
      tally.unreadable = step.unreadable;
      tally.problems = step.problems;
      tally.bytes.done = step.bytes;
      const batch = step.batch;
      if (!batch) break;
      repo.transaction(() => {
        const r = repo.insertPacked(copyId, batch, refs, { deferText: true });
        tally.added += r.added;
        tally.duplicates += r.duplicates;
      });
      deps.progress(tally);
      await yieldLoop();
      await repo.bulkPause();
      if (signal.aborted) throw new FileJobCancelled('stopped');
    }
  } catch (err) {
    if (err instanceof ImportRefused) throw fileError(err.message);
    throw fileProblem(err, 'read');
  } finally {
    await steps.return?.();
  }
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
