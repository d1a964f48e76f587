/**
 * Uploads as multipart/form-data (the CMS takes them this way). The file's name and type become
 * header lines of the part: the name has its quotes and line breaks replaced, and a type with a
 * control character is refused here too (the contract's UploadType refuses it first), so nothing
 * can add a header line or a part.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../base/app-error';

/** One file as multipart/form-data (the CMS takes uploads this way), plus plain text fields. */
export function multipartFile(
  field: string,
  file: { name: string; type: string; bytes: Uint8Array },
  fields: Record<string, string> = {},
): { bytes: Uint8Array; contentType: string } {
  if (/[\u0000-\u001f\u007f]/.test(file.type)) throw new AppError({ code: 'invalid_input', message: 'A file type cannot hold line breaks or control characters.', fields: { type: 'A file type cannot hold line breaks or control characters.' } });
  const boundary = `----sitedesk${randomBytes(12).toString('hex')}`;
  // a file name is a header value: quotes and line breaks would break the part
  const safeName = file.name.replace(/["\\\u0000-\u001f\u007f]/g, '_');
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${safeName}"\r\nContent-Type: ${file.type || 'application/octet-stream'}\r\n\r\n`),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { bytes: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * One file as multipart/form-data without holding it: its bytes stay a Blob (a file on disk, as
 * `fs.openAsBlob` gives it) between the part's head and the closing boundary, so the request is
 * read from disk as it is sent, with its length known (the real plugin reads a body only with a
 * Content-Length). Text fields come first, as in `multipartFile`.
 */
export function multipartBlob(field: string, file: { name: string; type: string; blob: Blob }, fields: Record<string, string> = {}): { bytes: Blob; contentType: string } {
  if (/[\u0000-\u001f\u007f]/.test(file.type)) throw new AppError({ code: 'invalid_input', message: 'A file type cannot hold line breaks or control characters.', fields: { type: 'A file type cannot hold line breaks or control characters.' } });
  const boundary = `----sitedesk${randomBytes(12).toString('hex')}`;
  const safeName = file.name.replace(/["\\\u0000-\u001f\u007f]/g, '_');
  const parts: (Buffer | Blob)[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\\\u0000-\u001f\u007f]/g, '_')}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${safeName}"\r\nContent-Type: ${file.type || 'application/octet-stream'}\r\n\r\n`),
    file.blob,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { bytes: new Blob(parts as ConstructorParameters<typeof Blob>[0]), contentType: `multipart/form-data; boundary=${boundary}` };
}
