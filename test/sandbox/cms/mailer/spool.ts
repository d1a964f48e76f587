/**
 * A streaming `multipart/form-data` reader for the mailer's imports: the file part is written to
 * a spool file in the data folder as it arrives, the small text parts (`mapping`, `list_id`, …) are
 * kept, and no more than a chunk and a boundary's length is ever held in memory — a 100,000-row
 * upload is never whole in memory (the shared ../../multipart.ts reads a body whole, which suits
 * page media, not audiences). `peakBuffered` reports the most it held at once.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { HttpProblem } from '../../http';

export interface Spooled {
  fields: Record<string, string>;
  file: { field: string; filename: string; path: string; bytes: number } | null;
  /** the most bytes the reader held at once */
  peakBuffered: number;
}

const MAX_FIELD = 256 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

function param(disposition: string, key: string): string | null {
  const re = new RegExp(`;\\s*${key.replace('*', '\\*')}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]+))`, 'i');
  const m = re.exec(disposition);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!.trim();
}

/** Reads a multipart request, spooling the part named `fileField` under `dir`. Over `maxBytes` is a 413 (the spool removed). */
export async function spoolMultipart(req: IncomingMessage, dir: string, maxBytes: number, fileField = 'file'): Promise<Spooled> {
  const type = String(req.headers['content-type'] ?? '');
  const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!m) {
    req.resume();
    throw new HttpProblem(400, 'Bad Request', 'Send the file as multipart/form-data, in a part named file.', { code: 'file_required' });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw new HttpProblem(413, 'Payload Too Large', `The file is larger than ${maxBytes} bytes: split it and import the parts one after another.`, { code: 'file_too_large' });
  }
  const opening = Buffer.from(`--${m[1] ?? m[2]}`);
  const delimiter = Buffer.concat([CRLF, opening]);
  const out: Spooled = { fields: {}, file: null, peakBuffered: 0 };

  let state: 'preamble' | 'after-boundary' | 'headers' | 'body' | 'done' = 'preamble';
  let buf: Buffer = Buffer.alloc(0);
  let size = 0;
  let tooLarge = false;
  let part: { name: string; filename: string | null; chunks: Buffer[]; length: number; stream: WriteStream | null } | null = null;
  let spoolPath: string | null = null;

  const write = async (data: Buffer) => {
    if (!part || data.length === 0) return;
    if (part.stream) {
      out.file!.bytes += data.length;
      if (!part.stream.write(data)) await new Promise<void>((resolve) => part!.stream!.once('drain', resolve));
    } else if (part.length < MAX_FIELD) {
      part.chunks.push(data);
      part.length += data.length;
    }
  };
  const closePart = async () => {
    if (!part) return;
    if (part.stream) {
      const s = part.stream;
      await new Promise<void>((resolve, reject) => s.end((err?: Error | null) => (err ? reject(err) : resolve())));
    } else if (part.filename === null) out.fields[part.name] = Buffer.concat(part.chunks).toString('utf8');
    part = null;
  };

  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        continue; // read the rest and drop it, so the client gets the answer
      }
      if (state === 'done') continue;
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      out.peakBuffered = Math.max(out.peakBuffered, buf.length);
      for (;;) {
        if (state === 'preamble') {
          const i = buf.indexOf(opening);
          if (i < 0) {
            buf = buf.subarray(Math.max(0, buf.length - opening.length));
            break;
          }
          buf = buf.subarray(i + opening.length);
          state = 'after-boundary';
        }
        if (state === 'after-boundary') {
          if (buf.length < 2) break;
          if (buf[0] === 0x2d && buf[1] === 0x2d) {
            state = 'done';
            break;
          }
          buf = buf.subarray(buf[0] === 0x0d && buf[1] === 0x0a ? 2 : 0);
          state = 'headers';
        }
        if (state === 'headers') {
          const end = buf.indexOf(HEADER_END);
          if (end < 0) {
            if (buf.length > 16 * 1024) throw new HttpProblem(400, 'Bad Request', 'Malformed multipart body: part headers not terminated.');
            break;
          }
          const headers = buf.subarray(0, end).toString('utf8');
          buf = buf.subarray(end + 4);
          const disposition = /content-disposition:\s*form-data([^\r\n]*)/i.exec(headers)?.[1] ?? '';
          const name = param(disposition, 'name') ?? '';
          const filename = param(disposition, 'filename');
          part = { name, filename, chunks: [], length: 0, stream: null };
          if (filename !== null && name === fileField && !out.file) {
            mkdirSync(dir, { recursive: true });
            spoolPath = join(dir, `upload-${randomBytes(8).toString('hex')}.csv`);
            part.stream = createWriteStream(spoolPath);
            out.file = { field: name, filename, path: spoolPath, bytes: 0 };
          }
          state = 'body';
        }
        if (state === 'body') {
          const i = buf.indexOf(delimiter);
          if (i < 0) {
            // keep what could be the start of the delimiter
            const keep = Math.min(buf.length, delimiter.length - 1);
            await write(buf.subarray(0, buf.length - keep));
            buf = buf.subarray(buf.length - keep);
            break;
          }
          await write(buf.subarray(0, i));
          await closePart();
          buf = buf.subarray(i + delimiter.length);
          state = 'after-boundary';
          continue;
        }
        break;
      }
      // the buffer holds at most a chunk and a delimiter now: copy it, so the chunk can go
      buf = Buffer.from(buf);
    }
    if (tooLarge) throw new HttpProblem(413, 'Payload Too Large', `The file is larger than ${maxBytes} bytes: split it and import the parts one after another.`, { code: 'file_too_large' });
    if (state !== 'done') throw new HttpProblem(400, 'Bad Request', 'Malformed multipart body: the closing boundary is missing.');
    return out;
  } catch (e) {
    if (part?.stream) part.stream.destroy();
    if (spoolPath) rmSync(spoolPath, { force: true });
    throw e;
  }
}
