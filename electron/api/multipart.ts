import { randomBytes } from 'node:crypto';

/** One file as multipart/form-data (the CMS takes uploads this way), plus plain text fields. */
export function multipartFile(
  field: string,
  file: { name: string; type: string; bytes: Uint8Array },
  fields: Record<string, string> = {},
): { bytes: Uint8Array; contentType: string } {
  const boundary = `----sitedesk${randomBytes(12).toString('hex')}`;
  // a file name is a header value: quotes and line breaks would break the part
  const safeName = file.name.replace(/["\r\n\\]/g, '_');
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
