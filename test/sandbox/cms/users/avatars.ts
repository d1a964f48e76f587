/**
 * Avatar images: the type is read from the bytes, never from the client's name or Content-Type
 * (as the real service does with getimagesizefromstring(), GHSA-xc64-vh46-vph6): a file counts
 * as an image only when its header is whole and names a width and height. The documents accept
 * JPEG, PNG, GIF and WebP; the real service (UsersController.php uploadAvatar()) refuses GIF.
 * Files live in `<data>/avatars/`, served at /user/accounts/avatars/NAME.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ImageKind {
  ext: 'jpg' | 'png' | 'gif' | 'webp';
  mime: string;
  width: number;
  height: number;
}

/** The raster type and size of `b`, or null when it is not a whole-headed JPEG, PNG, GIF or WebP. */
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

/** Walks the JPEG segments to the first start-of-frame marker for the size. */
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

export class AvatarFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'avatars');
  }

  write(name: string, data: Buffer): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, name), data);
  }

  remove(name: string): void {
    const file = join(this.dir, name);
    if (!name.includes('/') && existsSync(file)) rmSync(file);
  }
}
