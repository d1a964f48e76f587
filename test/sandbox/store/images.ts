/**
 * Pet images. POST /pet/{petId}/uploadImage takes the image as the raw body
 * (`application/octet-stream` in the reference; any type is accepted) or, like older petstores, as
 * multipart/form-data (the first file part). The file lands in `<data>/images/<petId>/` and its
 * address (served by this sandbox under /images/, outside the API prefix) is added to the pet's
 * photoUrls. The demo pets' photos are small generated SVGs under /images/demo/.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { readBytes } from '../http';
import { readMultipart } from '../multipart';
import { fail } from './answers';

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };
const TYPE_OF_EXT: Record<string, string> = Object.fromEntries(Object.entries(EXT).map(([t, e]) => [e, t]));

/** The image type from the first bytes (a client may well send application/octet-stream). */
function sniffImage(b: Buffer): string | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(b.subarray(0, 256).toString('utf8'))) return 'image/svg+xml';
  return null;
}

export interface Upload {
  data: Buffer;
  type: string;
}

export async function readUpload(req: IncomingMessage, maxBytes: number): Promise<Upload> {
  const declared = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let data: Buffer;
  let type: string | null = null;
  if (declared === 'multipart/form-data') {
    const form = await readMultipart(req, maxBytes);
    const file = form.files[0];
    if (!file) throw fail(400, 'No file uploaded: the form holds no file part.');
    data = file.data;
    type = file.type;
  } else {
    data = await readBytes(req, maxBytes);
    type = declared || null;
  }
  if (data.length === 0) throw fail(400, 'No file uploaded: the body is empty.');
  const sniffed = sniffImage(data);
  return { data, type: sniffed ?? (type && type !== 'application/octet-stream' ? type : 'application/octet-stream') };
}

/** Stores the bytes; answers the address they are served at. */
export function saveImage(dataDir: string, origin: string, petId: number, upload: Upload): string {
  const dir = join(dataDir, 'images', String(petId));
  mkdirSync(dir, { recursive: true });
  const name = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}.${EXT[upload.type] ?? 'bin'}`;
  writeFileSync(join(dir, name), upload.data);
  return `${origin}/images/${petId}/${name}`;
}

/** GET /images/<petId>/<file> and /images/demo/<name>.svg; false when the path is not one. */
export function serveImage(dataDir: string, path: string, res: ServerResponse): boolean {
  const demo = /^\/images\/demo\/([a-z]+)\.svg$/.exec(path);
  if (demo) {
    const svg = demoSvg(demo[1]!);
    res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Content-Length': Buffer.byteLength(svg), 'Cache-Control': 'max-age=3600' });
    res.end(svg);
    return true;
  }
  const m = /^\/images\/(\d+)\/([a-z0-9]+-[0-9a-f]{8}\.([a-z]+))$/.exec(path);
  if (!m) return false;
  const file = join(dataDir, 'images', m[1]!, m[2]!);
  if (!existsSync(file)) return false;
  res.writeHead(200, { 'Content-Type': TYPE_OF_EXT[m[3]!] ?? 'application/octet-stream', 'Content-Length': statSync(file).size, 'Cache-Control': 'no-cache' });
  createReadStream(file).pipe(res);
  return true;
}

/** A round badge with the pet's initial, its colour taken from the name. */
function demoSvg(name: string): string {
  const hue = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  const initial = name.charAt(0).toUpperCase();
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">` +
    `<circle cx="80" cy="80" r="76" fill="hsl(${hue},55%,55%)"/>` +
    `<text x="80" y="104" font-family="sans-serif" font-size="72" text-anchor="middle" fill="#fff">${initial}</text></svg>`
  );
}
