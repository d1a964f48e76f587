/**
 * What a file is by its first bytes, as PHP's mime_content_type() and getimagesize() tell the
 * real service (the media library's `type`, its `image|video|audio|document` filter and
 * `dimensions`): PNG, JPEG, GIF, WebP, SVG, PDF, MP4, MP3, WAV, Ogg; anything else by its
 * extension. Pure functions over bytes.
 */
import { mimeOf } from '../content/serialize';

/** The MIME type of `head` (the file's first bytes, 64 are enough), else of its name. */
export function sniffMime(head: Buffer, filename: string): string {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/x-wav';
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  if (ascii(4, 8) === 'ftyp') return 'video/mp4';
  if (ascii(0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  const text = ascii(0, Math.min(head.length, 64)).trimStart();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && filename.toLowerCase().endsWith('.svg'))) return 'image/svg+xml';
  const byName = mimeOf(filename);
  if (byName !== 'application/octet-stream') return byName;
  return head.length && [...head.subarray(0, 64)].every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127)) ? 'text/plain' : 'application/octet-stream';
}

export interface ImageKind {
  ext: 'jpg' | 'png' | 'gif' | 'webp';
  mime: string;
  width: number;
  height: number;
}

/**
 * The raster type and pixel size of `b` (getimagesize()), or null when it is not a whole-headed
 * JPEG, PNG, GIF or WebP naming a width and height above 0. The one strict reader: the avatar
 * upload takes a file as an image only when this reads it, the media library's `dimensions` come
 * from it.
 */
export function sniffImage(b: Buffer): ImageKind | null {
  const kind = (ext: ImageKind['ext'], mime: string, width: number, height: number): ImageKind | null => (width > 0 && height > 0 ? { ext, mime, width, height } : null);
  if (b.length >= 24 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && b.toString('latin1', 12, 16) === 'IHDR') {
    return kind('png', 'image/png', b.readUInt32BE(16), b.readUInt32BE(20));
  }
  if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return kind('gif', 'image/gif', b.readUInt16LE(6), b.readUInt16LE(8));
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = b.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return kind('webp', 'image/webp', 1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
    if (chunk === 'VP8L' && b[20] === 0x2f) {
      const bits = b.readUInt32LE(21);
      return kind('webp', 'image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return kind('webp', 'image/webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegSize(b);
  return null;
}

/** The pixel size of a PNG, GIF, WebP or JPEG (sniffImage()); null for anything else or a broken header. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  const kind = sniffImage(bytes);
  return kind && { width: kind.width, height: kind.height };
}

/** Walks the JPEG segments (fill bytes skipped) to the first start-of-frame marker for the size. */
function jpegSize(b: Buffer): ImageKind | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = b.readUInt16BE(at + 5);
      const width = b.readUInt16BE(at + 7);
      return width > 0 && height > 0 ? { ext: 'jpg', mime: 'image/jpeg', width, height } : null;
    }
    at += 2 + length;
  }
  return null;
}

/** The media library's type filter (the real service's match on the MIME type). */
export function matchesType(mime: string, type: string): boolean {
  switch (type) {
    case 'image':
      return mime.startsWith('image/');
    case 'video':
      return mime.startsWith('video/');
    case 'audio':
      return mime.startsWith('audio/');
    case 'document':
      return !mime.startsWith('image/') && !mime.startsWith('video/') && !mime.startsWith('audio/');
    default:
      return true;
  }
}
