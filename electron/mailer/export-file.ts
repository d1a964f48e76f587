/**
 * An export of the mailer (one person's JSON document, or the filtered table's CSV) streamed from
 * the site into the file the person named, with the rules every export follows (base/save-file.ts):
 * checked first, written to a private temporary file beside it, named only once whole, nothing left
 * behind when it is cut, refused or stopped. The bytes are the site's, counted as they pass (CSV
 * records: line feeds outside quotes, past the header), never gathered or logged: they are
 * personal data.
 */
import { AppError, isAppError } from '../base/app-error';
import { checkTarget, dropTemp, fileError, openTemp, settle } from '../base/save-file';
import type { MailerExportOutcome } from '../contract';

const QUOTE = 0x22;
const LF = 0x0a;

/** Counts CSV records as bytes pass (a quoted line feed is inside a cell); whole once the last byte ends a record. */
export function csvRecords() {
  let bytes = 0;
  let records = 0;
  let quoted = false;
  let last = -1;
  return {
    feed(piece: Uint8Array) {
      for (let i = 0; i < piece.length; i++) {
        const b = piece[i]!;
        if (b === QUOTE) quoted = !quoted;
        else if (b === LF && !quoted) records++;
      }
      if (piece.length) last = piece[piece.length - 1]!;
      bytes += piece.length;
    },
    get bytes() {
      return bytes;
    },
    /** Records past the header. */
    get rows() {
      return Math.max(0, records - 1);
    },
    problem(): string | null {
      if (bytes === 0) return 'the site sent an empty file';
      if (quoted || last !== LF) return 'its last line is incomplete';
      return null;
    },
  };
}

/** A JSON document's bytes: whole when it parses as one object. */
export function jsonDocument() {
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  return {
    feed(piece: Uint8Array) {
      bytes += piece.length;
      // one person's document is small (their sends and history); it is parsed once to check it is whole
      if (bytes <= 16 * 1024 * 1024) pieces.push(piece);
    },
    get bytes() {
      return bytes;
    },
    get rows() {
      return bytes > 0 ? 1 : 0;
    },
    problem(): string | null {
      if (bytes === 0) return 'the site sent an empty file';
      if (bytes > 16 * 1024 * 1024) return null;
      try {
        const doc = JSON.parse(Buffer.concat(pieces).toString('utf8')) as unknown;
        return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? null : 'it is not one JSON document';
      } catch {
        return 'it is not one JSON document (cut short?)';
      }
    },
  };
}

export interface ExportRun {
  file: string;
  overwrite: boolean;
  signal: AbortSignal;
  counter: ReturnType<typeof csvRecords> | ReturnType<typeof jsonDocument>;
  /** Streams the site's bytes into `into`. */
  download: (into: (piece: Uint8Array) => Promise<void>) => Promise<unknown>;
  progress: (bytes: number, rows: number) => void;
  /** How the site's refusals are said. */
  said: (err: unknown) => never;
  matched: number | null;
}

/** How often an export under way reports (at most). */
const PROGRESS_MS = 150;

export async function exportToFile(run: ExportRun): Promise<MailerExportOutcome> {
  const file = await checkTarget(run.file, run.overwrite, '/home/me/subscribers.csv');
  const { temp, handle } = await openTemp(file);
  let open = true;
  let lastReport = 0;
  const report = (force = false) => {
    const at = Date.now();
    if (!force && at - lastReport < PROGRESS_MS) return;
    lastReport = at;
    run.progress(run.counter.bytes, run.counter.rows);
  };
  try {
    report(true);
    try {
      await run.download(async (piece) => {
        run.counter.feed(piece);
        try {
          await handle.write(piece);
        } catch (err) {
          throw fileError(err, file, 'could not be written');
        }
        report();
      });
    } catch (err) {
      if (run.signal.aborted) return { outcome: 'cancelled', rows: run.counter.rows, bytes: run.counter.bytes };
      if (isAppError(err) && (err.code === 'network' || err.code === 'timeout') && run.counter.bytes > 0) {
        throw new AppError({ ...err.info, message: `The export was cut off after ${run.counter.rows.toLocaleString('en')} rows (${err.message.replace(/\.$/, '')}). The unfinished file was removed; export again.` }, { cause: err });
      }
      run.said(err);
    }
    if (run.signal.aborted) return { outcome: 'cancelled', rows: run.counter.rows, bytes: run.counter.bytes };
    const problem = run.counter.problem();
    if (problem) throw new AppError({ code: 'bad_response', message: `The site’s export is not whole: ${problem}. The unfinished file was removed; export again.` });
    await handle.sync();
    await handle.close();
    open = false;
    await settle(temp, file, run.overwrite);
    report(true);
    return { outcome: 'written', file, bytes: run.counter.bytes, rows: run.counter.rows, matched: run.matched };
  } finally {
    if (open) await handle.close().catch(() => undefined);
    await dropTemp(temp);
  }
}
