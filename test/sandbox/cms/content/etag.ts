/**
 * Entity tags (pages; the user and config routes use the same hash). Like the real service, a page's ETag is a hash of the JSON it answers, so
 * it changes whenever anything in the representation changes (header, content, media, the file's
 * modification time). PATCH compares `If-Match` against the ETag of the *plain* read (no render,
 * children, translations or summary): the ETag of a richer read is a different hash and is
 * refused with 409, exactly as the real service does. Clients keep the plain-read ETag.
 */
import { createHash } from 'node:crypto';

/** A strong ETag (quoted) for a JSON-serialisable representation. */
export function etagOf(representation: unknown): string {
  return `"${createHash('md5').update(JSON.stringify(representation)).digest('hex')}"`;
}

/** An ETag without its weak marker and quotes (the config routes compare only that much). */
export function bareEtag(value: string): string {
  let v = value.trim();
  if (v.startsWith('W/')) v = v.slice(2);
  return v.replace(/^"|"$/g, '');
}

/**
 * The bare opaque value of an ETag as a client may echo it: weak marker, quotes and the suffix a
 * compressing proxy appends (`-gzip`, `;br`, …) removed, as the real service normalises them.
 */
export function normalizeEtag(value: string): string {
  return bareEtag(value).replace(/[-;](?:gzip|br|deflate|zstd)$/i, '');
}

/** Whether a conditional header (`If-None-Match` / `If-Match`, possibly a list or `*`) names `etag`. */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (text.trim() === '') return false;
  const want = normalizeEtag(etag);
  return text.split(',').some((part) => {
    const p = part.trim();
    return p === '*' || (p !== '' && normalizeEtag(p) === want);
  });
}
