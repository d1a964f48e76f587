/**
 * Counts the events of an export as its bytes stream past, and tells whether the file ended whole
 * (pure, no I/O). The bytes are looked at, never kept or changed: the file is the site's, formula
 * apostrophes and all. Only ASCII marks matter (quote, backslash, brackets, line feed), and UTF-8
 * never uses those bytes inside a longer character, so the bytes need no decoding.
 *
 * - CSV (PHP's fputcsv, as the real service writes it): a record ends at a line feed outside
 *   quotes; the first record is the header (`id,ts,event,…`); a whole file ends with a line feed,
 *   outside quotes.
 * - JSON: a bare array of event objects (the real service pretty-prints it, the sandbox writes a
 *   row a line); an event is an object opened at the array's level; whole once the array closes.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

export interface ExportCounter {
  feed(piece: Uint8Array): void;
  /** Events seen so far (whole records or opened objects). */
  readonly rows: number;
  readonly bytes: number;
  /** Why what came is not a whole export of this format, or null when it is. */
  problem(): string | null;
}

export function exportCounter(format: 'csv' | 'json'): ExportCounter {
  return format === 'csv' ? csvCounter() : jsonCounter();
}

function csvCounter(): ExportCounter {
  let bytes = 0;
  let records = 0;
  let quoted = false;
  let last = -1;
  let head = '';
  return {
    feed(piece) {
      if (head.length < 16 && records === 0) head += Buffer.from(piece.subarray(0, 16 - head.length)).toString('latin1');
      for (let i = 0; i < piece.length; i++) {
        const b = piece[i]!;
        if (b === QUOTE) quoted = !quoted; // "" inside quotes flips twice: still quoted
        else if (b === LF && !quoted) records++;
      }
      if (piece.length) last = piece[piece.length - 1]!;
      bytes += piece.length;
    },
    get rows() {
      return Math.max(0, records - 1);
    },
    get bytes() {
      return bytes;
    },
    problem() {
      if (bytes === 0) return 'the site sent an empty file';
      if (!/^(\ufeff|\xef\xbb\xbf)?"?id"?,/i.test(head)) return 'it does not start with the CSV columns of an audit export';
      if (quoted || last !== LF) return 'its last line is incomplete';
      return null;
    },
  };
}

function jsonCounter(): ExportCounter {
  let bytes = 0;
  let rows = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  let closed = false;
  let wrong: string | null = null;
  return {
    feed(piece) {
      bytes += piece.length;
      for (let i = 0; i < piece.length && !wrong; i++) {
        const b = piece[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) inString = false;
          continue;
        }
        if (closed) {
          if (!isSpace(b)) wrong = 'there is more after the list of events';
          continue;
        }
        if (!started) {
          if (isSpace(b) || b === 0xef || b === 0xbb || b === 0xbf) continue; // a byte-order mark
          if (b !== OPEN_ARR) {
            wrong = 'it is not a JSON list of events';
            continue;
          }
          started = true;
          depth = 1;
          continue;
        }
        if (b === QUOTE) inString = true;
        else if (b === OPEN_OBJ || b === OPEN_ARR) {
          if (depth === 1 && b === OPEN_OBJ) rows++;
          depth++;
        } else if (b === CLOSE_OBJ || b === CLOSE_ARR) {
          depth--;
          if (depth === 0) closed = true;
        }
      }
    },
    get rows() {
      return rows;
    },
    get bytes() {
      return bytes;
    },
    problem() {
      if (wrong) return wrong;
      if (bytes === 0) return 'the site sent an empty file';
      if (!closed) return 'the list of events never closes';
      return null;
    },
  };
}
