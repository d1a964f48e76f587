/**
 * CSV as the sites write their audit export, read as a stream (pure: text in, records out; a
 * record may span any number of chunks and lines) and written back.
 *
 * Reading takes both writers: RFC 4180 (a quote inside a quoted value doubled: the sandbox, and
 * spreadsheets) and PHP's fputcsv (the real service), which also treats a backslash as an escape:
 * the first quote right after a backslash is written once, not doubled (`a\"b` is written
 * `"a\"b"`), and JSON in a cell (`{"t":"say \"hi\""}`) is full of them. The two dialects read
 * a file the same way except at a run of quotes right after a backslash. A record that has one is
 * read both ways and the reading the caller accepts (`accept`: the right number of columns, values
 * that parse) is kept, record by record (a value PHP wrote ending in a backslash is read only the
 * RFC way, and PHP's own reader misreads it too: a record holding both kinds is one neither reads,
 * reported, never silently split).
 *
 * A record is reported with the line it starts on (lines inside quoted values counted), so a row
 * that cannot be read is named by its line. A record longer than `maxRecord` (a quote that never
 * closes) is reported as one problem and reading goes on at the line after its start.
 */

export type CsvDialect = 'rfc' | 'php';

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const BACKSLASH = 92;

export interface CsvRecord {
  /** The file's line the record starts on, from 1. */
  line: number;
  fields: string[];
  /** Why the record may not hold what the file meant (a malformed quote, a runaway value). */
  problem: string | null;
}

interface Parsed {
  fields: string[];
  end: number;
  newlines: number;
  problem: string | null;
  /** A run of quotes after a backslash was read: the other dialect may read the record otherwise. */
  escapes: boolean;
}

/** Lines inside `s` from `from` to `to` (LF only). */
function linesIn(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = s.indexOf('\n', from); k >= 0 && k < to; k = s.indexOf('\n', k + 1)) n++;
  return n;
}

/**
 * One record from `start`, or null when `s` ends before the record does and more text may come.
 * `final`: no more text comes (the end of `s` ends the record).
 */
function parseRecord(s: string, start: number, final: boolean, dialect: CsvDialect): Parsed | null {
  const n = s.length;
  const fields: string[] = [];
  let i = start;
  let newlines = 0;
  let problem: string | null = null;
  let escapes = false;
  for (;;) {
    let value: string;
    if (i < n && s.charCodeAt(i) === QUOTE) {
      const open = i;
      value = '';
      let from = i + 1;
      for (;;) {
        const q = s.indexOf('"', from);
        if (q < 0) {
          if (!final) return null;
          newlines += linesIn(s, from, n);
          value += s.slice(from);
          problem ??= 'a quoted value never ends';
          i = n;
          break;
        }
        let r = 1;
        while (q + r < n && s.charCodeAt(q + r) === QUOTE) r++;
        if (q + r >= n && !final) return null; // what follows the run decides what it means
        const after = q + r < n ? s.charCodeAt(q + r) : -1;
        const ends = after === COMMA || after === LF || after === CR || after === -1;
        let quotes = r >> 1;
        let close = (r & 1) === 1;
        if (q - 1 > open && s.charCodeAt(q - 1) === BACKSLASH) {
          escapes = true;
          if (dialect === 'php') {
            // the first quote after a backslash stands alone, the rest are pairs (or the close)
            quotes = 1 + ((r - 1) >> 1);
            close = ((r - 1) & 1) === 1;
          }
        }
        newlines += linesIn(s, from, q);
        value += s.slice(from, q);
        if (quotes) value += '"'.repeat(quotes);
        from = q + r;
        if (!close) continue;
        i = from;
        if (!ends) {
          // text after the closing quote (not CSV): kept, as PHP's reader keeps it, and flagged
          problem ??= 'a quote inside a quoted value is not doubled';
          let k = i;
          while (k < n) {
            const c = s.charCodeAt(k);
            if (c === COMMA || c === LF || c === CR) break;
            k++;
          }
          if (k >= n && !final) return null;
          value += s.slice(i, k);
          i = k;
        }
        break;
      }
    } else {
      let k = i;
      while (k < n) {
        const c = s.charCodeAt(k);
        if (c === COMMA || c === LF || c === CR) break;
        k++;
      }
      if (k >= n && !final) return null;
      value = s.slice(i, k);
      i = k;
    }
    fields.push(value);
    if (i >= n) return { fields, end: n, newlines, problem, escapes };
    const c = s.charCodeAt(i);
    if (c === COMMA) {
      i++;
      if (i >= n && !final) return null;
      if (i >= n) {
        fields.push('');
        return { fields, end: n, newlines, problem, escapes };
      }
      continue;
    }
    if (c === LF) return { fields, end: i + 1, newlines: newlines + 1, problem, escapes };
    // CR: a CRLF, or an old Mac line end
    if (i + 1 >= n && !final) return null;
    return { fields, end: i + 1 < n && s.charCodeAt(i + 1) === LF ? i + 2 : i + 1, newlines: newlines + 1, problem, escapes };
  }
}

export interface CsvReaderOptions {
  /** The longest record (in characters) held while waiting for its end (default 4 MiB). */
  maxRecord?: number;
  /** Whether a record's fields are what the file means (the caller's columns and values); decides a record the dialects read differently. */
  accept?: (fields: string[]) => boolean;
}

export class CsvReader {
  private buf = '';
  private line = 1;
  private started = false;
  /** The dialect the last record that needed a choice was read in (tried first at the next). */
  dialect: CsvDialect = 'php';
  private readonly maxRecord: number;
  private readonly accept: (fields: string[]) => boolean;
  /** Text up to the next line break is dropped (the rest of a runaway record's first line). */
  private skipping = false;

  constructor(options: CsvReaderOptions = {}) {
    this.maxRecord = options.maxRecord ?? 4 * 1024 * 1024;
    this.accept = options.accept ?? (() => true);
  }

  /** One record; one with a quote after a backslash read both ways, the reading the caller accepts kept. */
  private record(s: string, i: number, final: boolean): Parsed | null {
    const first = parseRecord(s, i, final, this.dialect);
    if (!first || !first.escapes) return first;
    if (first.problem === null && this.accept(first.fields)) return first;
    const otherDialect = this.dialect === 'php' ? 'rfc' : 'php';
    const other = parseRecord(s, i, final, otherDialect);
    if (!other) return null;
    if (other.problem === null && this.accept(other.fields)) {
      this.dialect = otherDialect;
      return other;
    }
    return first.problem === null ? { ...first, problem: 'its quotes read as neither CSV dialect makes them (a value ending in a backslash?)' } : first;
  }

  /** The records this chunk completes. */
  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    this.pushEach(chunk, (r) => out.push(r));
    return out;
  }

  /** The last record (a file may end without a line break). */
  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    this.endEach((r) => out.push(r));
    return out;
  }

  /** As `push`, each record handed to `each` as soon as it is read (none kept: a chunk's records are not held together). */
  pushEach(chunk: string, each: (r: CsvRecord) => void): void {
    this.buf = this.buf === '' ? chunk : this.buf + chunk;
    this.drain(false, each);
  }

  /** As `end`, the last record handed to `each`. */
  endEach(each: (r: CsvRecord) => void): void {
    this.drain(true, each);
  }

  private drain(final: boolean, each: (r: CsvRecord) => void): void {
    const s = this.buf;
    let i = 0;
    if (!this.started && s.length) {
      this.started = true;
      if (s.charCodeAt(0) === 0xfeff) i = 1; // a byte order mark
    }
    if (this.skipping) {
      const next = s.indexOf('\n', i);
      if (next < 0) {
        this.buf = '';
        return;
      }
      this.skipping = false;
      this.line++;
      i = next + 1;
    }
    while (i < s.length) {
      const r = this.record(s, i, final);
      if (!r) {
        if (s.length - i > this.maxRecord) {
          // a record this long is a quote that never closed: said once, and reading goes on at the next line
          const next = s.indexOf('\n', i);
          each({ line: this.line, fields: [], problem: `a record longer than ${Math.round(this.maxRecord / 1048576)} MiB (a quote that never closes?)` });
          if (next < 0) {
            this.skipping = true;
            i = s.length;
            break;
          }
          this.line++;
          i = next + 1;
          continue;
        }
        break;
      }
      // a blank line is no record
      if (!(r.fields.length === 1 && r.fields[0] === '' && r.end - i <= 2)) each({ line: this.line, fields: r.fields, problem: r.problem });
      this.line += r.newlines;
      i = r.end;
    }
    this.buf = i >= s.length ? '' : s.slice(i);
  }
}

/** A CSV value quoted when it holds a delimiter, quote, line break, tab, space or backslash (as PHP's fputcsv), quotes doubled (RFC 4180). */
export function csvValue(text: string): string {
  return /[",\n\r\t \\]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i ? ',' : '') + csvValue(cells[i]!);
  return line + '\n';
}
