/**
 * A JSON array read as a stream (pure): the text of each top-level element as soon as it is
 * complete, whatever the chunks (an element, a string or an escape may be split anywhere), with
 * the line it starts on, so the caller parses one element at a time and never holds the file. The
 * audit exports are such arrays: the sandbox's one event a line, the real service's pretty-printed
 * (JSON_PRETTY_PRINT, an event over 15 lines).
 *
 * Only the structure is read here (strings, nesting, commas); whether an element is valid JSON is
 * JSON.parse's to say, per element. What cannot be an array at all (another first character, an
 * element longer than `maxElement`, a `}` out of place, the end of the file inside the list) stops
 * the reading with its line: what was read before stands.
 */

export interface JsonElement {
  /** The element's text (valid JSON or not: JSON.parse decides). */
  text: string;
  /** Its line in the file, from 1. */
  line: number;
  /** Its place in the array, from 0. */
  index: number;
}

export interface JsonStop {
  line: number;
  message: string;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_LIST = 91;
const CLOSE_LIST = 93;

type Phase = 'start' | 'between' | 'in' | 'done' | 'stopped';

export class JsonArrayReader {
  private buf = '';
  private pos = 0;
  private phase: Phase = 'start';
  private depth = 0;
  private inString = false;
  private start = 0;
  private startLine = 1;
  private line = 1;
  private index = 0;
  private stopped: JsonStop | null = null;

  constructor(private readonly maxElement = 4 * 1024 * 1024) {}

  /** Why reading stopped, or null. */
  get stop(): JsonStop | null {
    return this.stopped;
  }

  /** The elements this chunk completes (none once reading stopped). */
  push(chunk: string): JsonElement[] {
    if (this.phase === 'done' || this.phase === 'stopped') return [];
    this.buf += chunk;
    const out = this.scan();
    this.compact();
    return out;
  }

  /** The end of the file: a list that never closed stops with its line. */
  end(): JsonElement[] {
    if (this.phase === 'start') this.fail(this.line, 'The file is empty: a JSON export is a list of events ([…]).');
    else if (this.phase === 'between' || this.phase === 'in') this.fail(this.line, 'The list never closes: the file ends inside it (cut short?). The events before this line were read.');
    return [];
  }

  private fail(line: number, message: string): void {
    this.stopped = { line, message };
    this.phase = 'stopped';
    this.buf = '';
    this.pos = 0;
  }

  /** Drops the text already handled, keeping the element in progress. */
  private compact(): void {
    const keep = this.phase === 'in' ? this.start : this.pos;
    if (keep > 0) {
      this.buf = this.buf.slice(keep);
      this.pos -= keep;
      this.start -= keep;
    }
  }

  private emit(out: JsonElement[], end: number): void {
    const text = this.buf.slice(this.start, end).trim();
    if (text !== '') out.push({ text, line: this.startLine, index: this.index++ });
  }

  private scan(): JsonElement[] {
    const out: JsonElement[] = [];
    const s = this.buf;
    const n = s.length;
    let i = this.pos;
    while (i < n) {
      if (this.phase === 'in') {
        if (this.inString) {
          const q = s.indexOf('"', i);
          if (q < 0) {
            i = n;
            break;
          }
          let slashes = 0;
          for (let k = q - 1; k >= this.start && s.charCodeAt(k) === BACKSLASH; k--) slashes++;
          i = q + 1;
          if ((slashes & 1) === 0) this.inString = false;
          continue;
        }
        const c = s.charCodeAt(i);
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_LIST) this.depth++;
        else if (c === LF) this.line++;
        else if (c === CLOSE_OBJECT || c === CLOSE_LIST) {
          if (this.depth > 0) this.depth--;
          else if (c === CLOSE_LIST) {
            this.emit(out, i);
            this.phase = 'done';
            this.pos = i + 1;
            return out;
          } else {
            this.fail(this.line, `A } with no { before it, on line ${this.line}: the file is not a JSON list of events from there on.`);
            return out;
          }
        } else if (c === COMMA && this.depth === 0) {
          this.emit(out, i);
          this.phase = 'between';
        }
        i++;
        continue;
      }
      const c = s.charCodeAt(i);
      if (c === SPACE || c === TAB || c === CR || c === LF) {
        if (c === LF) this.line++;
        i++;
        continue;
      }
      if (this.phase === 'start') {
        if (c === 0xfeff) {
          i++;
          continue;
        }
        if (c !== OPEN_LIST) {
          this.fail(this.line, 'The file is not a JSON list of events: a JSON export starts with [.');
          return out;
        }
        this.phase = 'between';
        i++;
        continue;
      }
      if (this.phase === 'done') break;
      // between elements
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CLOSE_LIST) {
        this.phase = 'done';
        i++;
        break;
      }
      this.phase = 'in';
      this.depth = 0;
      this.inString = false;
      this.start = i;
      this.startLine = this.line;
    }
    this.pos = i;
    if (this.phase === 'in' && n - this.start > this.maxElement) {
      this.fail(this.startLine, `The list's element on line ${this.startLine} is longer than ${Math.round(this.maxElement / 1048576)} MiB: it is not an audit event. The events before it were read.`);
    }
    return out;
  }
}
