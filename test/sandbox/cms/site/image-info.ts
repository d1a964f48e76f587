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

/** The pixel size of a PNG, GIF, WebP or JPEG (getimagesize()); null for anything else or a broken header. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  const mime = sniffMime(bytes.subarray(0, 64), '');
  try {
    if (mime === 'image/png' && bytes.length >= 24) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
    if (mime === 'image/gif' && bytes.length >= 10) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
    if (mime === 'image/webp') return webpSize(bytes);
    if (mime === 'image/jpeg') return jpegSize(bytes);
  } catch {
    return null;
  }
  return null;
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  const chunk = b.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return null;
}

/** The first start-of-frame marker's size. */
function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + len;
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
