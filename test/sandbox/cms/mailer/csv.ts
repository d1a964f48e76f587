/**
 * CSV for the mailer's imports and exports (docs/mailer-audience.md, "Imports", "Exports"): an
 * incremental reader fed text in chunks of any size, so a 100,000-row upload is read a row at a
 * time from disk and never held whole, and the writer's cell rules. Pure: no I/O but
 * `readCsvFile`, which streams a file through the reader.
 *
 * Reading: RFC 4180 with what other tools' exports do — a byte order mark, CRLF or LF, quoted
 * fields with doubled quotes and line breaks inside, a separator of comma, semicolon or tab read
 * from the header line. Blank lines are skipped.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export type Delimiter = ',' | ';' | '\t';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export interface CsvRecord {
  /** the file's line number where the record starts (1-based; the header is line 1) */
  line: number;
  cells: string[];
}

/** The separator of a file, from its header line: the one of comma, semicolon and tab seen most outside quotes (comma on a tie). */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  let best: Delimiter = ',';
  for (const d of [';', '\t'] as const) if (counts[d] > counts[best]) best = d;
  return best;
}

/**
 * The incremental reader: `push(text)` any number of times, then `end()`; each call returns the
 * records completed by it. Holds at most one unfinished record between calls.
 */
export class CsvReader {
  private field = '';
  private row: string[] = [];
  private quoted = false;
  /** the last character was a quote inside a quoted field (an escape or the closing quote) */
  private quoteSeen = false;
  /** the record ended with CR: an LF right after it belongs to the same line end */
  private pendingCR = false;
  private crInQuote = false;
  private line = 1;
  private rowLine = 1;
  private started = false;
  private fieldStarted = false;

  constructor(private readonly delimiter: Delimiter) {}

  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    const len = text.length;
    const delim = this.delimiter.charCodeAt(0);
    let i = 0;
    if (!this.started && len) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    // a field's text is taken as slices of the chunk, not a character at a time (a string built
    // by += per character is a chain of tiny pieces: a 500-byte cell would hold kilobytes)
    let seg = i;
    const take = (end: number) => {
      if (end > seg) this.field += text.slice(seg, end);
    };
    for (; i < len; i++) {
      const c = text.charCodeAt(i);
      if (this.pendingCR) {
        this.pendingCR = false;
        if (c === LF) {
          seg = i + 1;
          continue;
        }
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === QUOTE) {
            // a doubled quote inside quotes is one quote
            this.field += '"';
            seg = i + 1;
            continue;
          }
          this.quoted = false; // the closing quote: c is read unquoted below
          seg = i;
        } else if (c === QUOTE) {
          take(i);
          this.quoteSeen = true;
          seg = i + 1;
          continue;
        } else {
          // a line break inside quotes is kept; CRLF counts as one line
          if (c === LF) {
            if (!this.crInQuote) this.line++;
            this.crInQuote = false;
          } else if (c === CR) {
            this.line++;
            this.crInQuote = true;
          } else this.crInQuote = false;
          continue;
        }
      }
      if (c === QUOTE && !this.fieldStarted) {
        this.quoted = true;
        this.fieldStarted = true;
        seg = i + 1;
        continue;
      }
      if (c === delim) {
        take(i);
        this.row.push(this.field);
        this.field = '';
        this.fieldStarted = false;
        seg = i + 1;
        continue;
      }
      if (c === LF || c === CR) {
        take(i);
        if (c === CR) this.pendingCR = true;
        this.finishRow(out);
        this.line++;
        this.rowLine = this.line;
        seg = i + 1;
        continue;
      }
      this.fieldStarted = true;
    }
    take(len);
    return out;
  }

  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.quoteSeen) {
      this.quoteSeen = false;
      this.quoted = false;
    }
    this.finishRow(out);
    return out;
  }

  private finishRow(out: CsvRecord[]): void {
    const blank = this.row.length === 0 && this.field === '' && !this.fieldStarted;
    if (!blank) {
      this.row.push(this.field);
      out.push({ line: this.rowLine, cells: this.row });
    }
    this.row = [];
    this.field = '';
    this.fieldStarted = false;
    this.quoted = false;
    this.quoteSeen = false;
  }
}

/** Reads a whole text with the reader (tests and small inputs). */
export function parseCsv(text: string, delimiter?: Delimiter): CsvRecord[] {
  const d = delimiter ?? detectDelimiter(text.split(/\r?\n/, 1)[0] ?? '');
  const r = new CsvReader(d);
  return [...r.push(text), ...r.end()];
}

export interface CsvFileInfo {
  delimiter: Delimiter;
  bom: boolean;
}

/**
 * Streams a CSV file's records, 64 KB of text at a time: the first record is the header. The
 * separator is read from the first line once it has arrived. `info` is filled before the first
 * record is yielded.
 */
export async function* readCsvFile(path: string, info: Partial<CsvFileInfo> = {}): AsyncGenerator<CsvRecord> {
  const decoder = new StringDecoder('utf8');
  let reader: CsvReader | null = null;
  let head = '';
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let text = decoder.write(chunk);
      if (!reader) {
        head += text;
        const nl = head.search(/[\r\n]/);
        if (nl < 0 && head.length < 1_000_000) continue;
        info.bom = head.charCodeAt(0) === 0xfeff;
        info.delimiter = detectDelimiter(head.slice(info.bom ? 1 : 0, nl < 0 ? undefined : nl));
        reader = new CsvReader(info.delimiter);
        text = head;
        head = '';
      }
      for (const rec of reader.push(text)) yield rec;
    }
    const rest = decoder.end();
    if (!reader) {
      head += rest;
      info.bom = head.charCodeAt(0) === 0xfeff;
      const nl = head.search(/[\r\n]/);
      info.delimiter = detectDelimiter(head.slice(info.bom ? 1 : 0, nl < 0 ? undefined : nl));
      reader = new CsvReader(info.delimiter);
      for (const rec of reader.push(head)) yield rec;
    } else if (rest) for (const rec of reader.push(rest)) yield rec;
    for (const rec of reader.end()) yield rec;
  } finally {
    stream.destroy();
  }
}

/** A cell's text for an export: null empty, a formula-like start defused with an apostrophe. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text !== '' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV record: a field holding the separator, a quote or a line break is quoted, quotes doubled. CRLF ends it (RFC 4180). */
export function csvLine(cells: string[]): string {
  return cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',') + '\r\n';
}
