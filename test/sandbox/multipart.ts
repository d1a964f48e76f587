/**
 * A small `multipart/form-data` reader for the sandboxes' upload endpoints: the body is read whole
 * (up to `maxBytes`, else 413) and split on the boundary into file parts and plain fields.
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './http';

export interface UploadedFile {
  /** the form field name (`file`, `files[]`, …) */
  field: string;
  /** the client's file name, as sent */
  filename: string;
  /** the part's Content-Type, when sent */
  type: string | null;
  data: Buffer;
}

export interface MultipartBody {
  files: UploadedFile[];
  fields: Record<string, string>;
}

export async function readMultipart(req: IncomingMessage, maxBytes: number): Promise<MultipartBody> {
  const type = String(req.headers['content-type'] ?? '');
  const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!m) throw new HttpProblem(400, 'Bad Request', 'Expected a multipart/form-data body.');
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw new HttpProblem(413, 'Payload Too Large', `The request body is larger than ${maxBytes} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // past the limit the rest is read and dropped, so the client gets the answer, not a reset
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes) throw new HttpProblem(413, 'Payload Too Large', `The request body is larger than ${maxBytes} bytes.`);
  const body = Buffer.concat(chunks);
  const out: MultipartBody = { files: [], fields: {} };
  let pos = body.indexOf(boundary);
  if (pos < 0) throw new HttpProblem(400, 'Bad Request', 'Malformed multipart body: no boundary found.');
  for (;;) {
    pos += boundary.length;
    if (body.subarray(pos, pos + 2).toString() === '--') break; // closing boundary
    if (body.subarray(pos, pos + 2).toString() === '\r\n') pos += 2;
    const headEnd = body.indexOf('\r\n\r\n', pos);
    if (headEnd < 0) throw new HttpProblem(400, 'Bad Request', 'Malformed multipart body: part headers not terminated.');
    const headers = body.subarray(pos, headEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), boundary]), headEnd + 4);
    if (next < 0) throw new HttpProblem(400, 'Bad Request', 'Malformed multipart body: missing closing boundary.');
    const data = body.subarray(headEnd + 4, next);
    const disposition = /content-disposition:\s*form-data([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = param(disposition, 'name') ?? '';
    const filename = param(disposition, 'filename*') ?? param(disposition, 'filename');
    const partType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? null;
    if (filename !== null) out.files.push({ field: name, filename, type: partType, data: Buffer.from(data) });
    else out.fields[name] = data.toString('utf8');
    pos = next + 2;
  }
  return out;
}

function param(disposition: string, key: string): string | null {
  const re = new RegExp(`;\\s*${key.replace('*', '\\*')}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]+))`, 'i');
  const m = re.exec(disposition);
  if (!m) return null;
  const v = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!.trim();
  if (key.endsWith('*')) {
    const ext = /^[^']*'[^']*'(.*)$/.exec(v);
    try {
      return decodeURIComponent(ext ? ext[1]! : v);
    } catch {
      return v;
    }
  }
  return v;
}
