/**
 * An exported file read into packed batches (db/repos/audit-pack.ts), streamed: 1 MiB chunks of
 * text, records parsed as they complete, a batch handed on each time `batchSize` events are read,
 * so a million-event file never sits in memory. The Host runs this in a worker thread
 * (import-worker.ts, started by import-source.ts): parsing then runs beside the Host's inserts,
 * on the other core, and the Host's event loop only ever inserts. Without a worker (tests of the
 * reader itself) the same reading runs in the Host's thread.
 *
 * CSV: the first line names the columns (any order); each record read with the formula
 * apostrophe the site added taken off; a record the two CSV dialects read differently is read the
 * way that makes an event (csv.ts). JSON: a bare list of events, one element at a time
 * (json-array.ts). A row that cannot be read is counted and named by its line (the first 50); a
 * file that is no export at all is refused (`ImportRefused`) before anything is imported.
 */
import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import type { AuditRowProblem } from '../contract';
import { AuditPacker, type PackedBatch } from '../db/repos/audit-pack';
import { CsvReader, type CsvRecord } from './csv';
import { JsonArrayReader } from './json-array';
import { columnsAt, csvHeader, eventFromCells, packFromCells, packFromJson, type ColumnAt, type CsvColumn, type PackRead } from './event-row';

/** Events per batch: one transaction of the Host, short enough to answer other calls between them. */
export const IMPORT_BATCH = 2_500;
export const MAX_PROBLEMS = 50;
/** The file is read this much at a time. */
export const IMPORT_CHUNK = 1 << 20;

/** The file is no audit export (its first line, its first character): nothing of it is imported. The message says why, in words. */
export class ImportRefused extends Error {}

export interface ReadCounts {
  /** Rows read from the file (readable or not). */
  read: number;
  unreadable: number;
  /** The first MAX_PROBLEMS unreadable rows, by line. */
  problems: AuditRowProblem[];
}

/** One step of a reading: a batch (null: the file is read to its end), the counts so far, the bytes read. */
export interface ImportStep {
  batch: PackedBatch | null;
  read: number;
  unreadable: number;
  problems: AuditRowProblem[];
  bytes: number;
}

/** Text in, chunk by chunk; packed batches out (pure). */
export class ImportReader {
  readonly counts: ReadCounts = { read: 0, unreadable: 0, problems: [] };
  private readonly packer = new AuditPacker();
  private readonly ready: PackedBatch[] = [];
  private readonly take: (chunk: string | null) => void;

  constructor(
    format: 'csv' | 'json',
    private readonly batchSize = IMPORT_BATCH,
  ) {
    this.take = format === 'csv' ? this.csv() : this.json();
  }

  /** Reads a chunk; throws ImportRefused when the file turns out to be no export. */
  push(chunk: string): void {
    this.take(chunk);
  }

  /** The end of the file: the last record, and the events not yet in a batch as one. */
  end(): void {
    this.take(null);
    if (this.packer.size) this.ready.push(this.packer.take());
  }

  /** The next batch ready, or null. */
  next(): PackedBatch | null {
    return this.ready.shift() ?? null;
  }

  private problem(line: number, text: string): void {
    this.counts.unreadable++;
    if (this.counts.problems.length < MAX_PROBLEMS) this.counts.problems.push({ line, problem: text });
  }

  private add(r: PackRead, line: number): void {
    if ('problem' in r) {
      this.problem(line, r.problem);
      return;
    }
    this.packer.add(r.input);
    if (this.packer.size >= this.batchSize) this.ready.push(this.packer.take());
  }

  private csv(): (chunk: string | null) => void {
    let header: Map<CsvColumn, number> | null = null;
    let at: ColumnAt | null = null;
    let width = 0;
    // a record the two CSV dialects read differently is the one that makes an event
    const reader = new CsvReader({ accept: (fields) => !header || (fields.length === width && 'event' in eventFromCells(fields, header)) });
    const each = (rec: CsvRecord) => {
      if (!at) {
        const h = csvHeader(rec.fields);
        if ('problem' in h) throw new ImportRefused(`That file cannot be imported: ${h.problem}.`);
        header = h;
        at = columnsAt(h);
        width = rec.fields.length;
        return;
      }
      this.counts.read++;
      if (rec.problem) this.problem(rec.line, rec.problem);
      else if (rec.fields.length !== width) this.problem(rec.line, `${rec.fields.length} values where the first line names ${width} columns`);
      else this.add(packFromCells(rec.fields, at), rec.line);
    };
    return (chunk) => {
      if (chunk === null) reader.endEach(each);
      else reader.pushEach(chunk, each);
    };
  }

  private json(): (chunk: string | null) => void {
    const reader = new JsonArrayReader();
    return (chunk) => {
      for (const el of chunk === null ? reader.end() : reader.push(chunk)) {
        this.counts.read++;
        let raw: unknown;
        try {
          raw = JSON.parse(el.text);
        } catch {
          this.problem(el.line, 'not JSON');
          continue;
        }
        this.add(packFromJson(raw), el.line);
      }
      const stop = reader.stop;
      if (stop && !this.stopSaid) {
        this.stopSaid = true;
        if (this.counts.read === 0 && this.counts.unreadable === 0) throw new ImportRefused(`That file cannot be imported: ${stop.message}`);
        this.problem(stop.line, stop.message);
      }
    };
  }

  private stopSaid = false;
}

/**
 * A file's bytes as text, chunk by chunk: a chunk of ASCII only (an audit export nearly always is)
 * read as such, twenty times faster than UTF-8 decoding; otherwise UTF-8, a character cut by the
 * chunk's end kept for the next chunk.
 */
export class Utf8Chunks {
  private carry: Buffer | null = null;

  text(chunk: Buffer): string {
    const b = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    // the end of the last whole character: a lead byte whose continuation bytes are not all here is kept
    let cut = b.length;
    let i = b.length - 1;
    while (i >= 0 && b.length - i <= 3 && (b[i]! & 0xc0) === 0x80) i--;
    if (i >= 0 && b[i]! >= 0xc0 && b.length - i < (b[i]! >= 0xf0 ? 4 : b[i]! >= 0xe0 ? 3 : 2)) cut = i;
    this.carry = cut < b.length ? Buffer.from(b.subarray(cut)) : null;
    const whole = cut < b.length ? b.subarray(0, cut) : b;
    return isAscii(whole) ? whole.toString('ascii') : whole.toString('utf8');
  }

  /** What is left at the end of the file (a character cut short: its replacement). */
  end(): string {
    const rest = this.carry ? this.carry.toString('utf8') : '';
    this.carry = null;
    return rest;
  }
}

/**
 * Reads the file into batches, a chunk at a time; the last step has `batch: null`. Throws
 * ImportRefused, or the file system's error (its `code`) when the file cannot be read.
 */
export async function* readImportFile(file: string, format: 'csv' | 'json', batchSize = IMPORT_BATCH, chunkSize = IMPORT_CHUNK): AsyncGenerator<ImportStep> {
  const reader = new ImportReader(format, batchSize);
  const stream = createReadStream(file, { highWaterMark: chunkSize });
  const decode = new Utf8Chunks();
  const step = (batch: PackedBatch | null, bytes: number): ImportStep => ({ batch, read: reader.counts.read, unreadable: reader.counts.unreadable, problems: reader.counts.problems, bytes });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      reader.push(decode.text(chunk));
      for (let b = reader.next(); b; b = reader.next()) yield step(b, stream.bytesRead);
    }
    const rest = decode.end();
    if (rest) reader.push(rest);
    reader.end();
    for (let b = reader.next(); b; b = reader.next()) yield step(b, stream.bytesRead);
    yield step(null, stream.bytesRead);
  } finally {
    stream.destroy();
  }
}
