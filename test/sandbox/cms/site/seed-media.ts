/**
 * The demo media library: a few hundred files in nested folders, of every kind the type filter
 * tells apart (PNG, JPEG and GIF images, an SVG, PDFs and text documents, MP4 videos, MP3 audio),
 * some with `.meta.yaml` sidecars (alt, title), plus an empty folder. Dates are fixed so listings
 * are the same on every run. Written once, on the library's first use.
 *
 *   brand/                logos (PNG, SVG), colour swatches (GIF)
 *   docs/{2023,2024,2025}/ reports (PDF), notes (TXT)
 *   events/<year>/<event>/ photos (JPEG), programmes (PDF)
 *   photos/<place>/       photos (JPEG), panoramas (PNG)
 *   audio/, video/        podcasts (MP3), clips (MP4)
 *   empty/                nothing (a folder that can be deleted)
 */
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { solidPng } from '../content/seed-content';
import type { MediaLibrary } from './media-library';

/** 2025-03-01T10:00:00Z; files are a minute apart from there. */
const BASE_TIME = Date.UTC(2025, 2, 1, 10, 0, 0);

export interface MediaSeedInfo {
  files: number;
  folders: string[];
}

/**
 * A baseline JPEG of one grey level: one component, all-ones quantisation, and Huffman tables
 * holding only the codes a flat image needs (each block is its DC value and an end-of-block).
 */
export function solidJpeg(width: number, height: number, grey: number): Buffer {
  const seg = (marker: number, body: number[]) => [0xff, marker, ((body.length + 2) >> 8) & 0xff, (body.length + 2) & 0xff, ...body];
  const dc = 8 * (grey - 128);
  const cat = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1;
  // DC table: category 0 → "0", the first block's category → "10"; AC table: end-of-block → "0"
  const dcCounts = [1, cat === 0 ? 0 : 1, ...Array(14).fill(0)];
  const dht = [0x00, ...dcCounts, 0, ...(cat === 0 ? [] : [cat]), 0x10, 1, ...Array(15).fill(0), 0x00];
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  for (let b = 0; b < blocks; b++) {
    if (b === 0 && cat > 0) {
      put(0b10, 2);
      put(dc > 0 ? dc : dc + (1 << cat) - 1, cat);
    } else put(0, 1);
    put(0, 1); // end of block
  }
  while (bits.length % 8) bits.push(1);
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const byte = parseInt(bits.slice(i, i + 8).join(''), 2);
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00);
  }
  return Buffer.from([
    0xff, 0xd8,
    ...seg(0xdb, [0x00, ...Array(64).fill(1)]),
    ...seg(0xc0, [8, (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff, 1, 1, 0x11, 0]),
    ...seg(0xc4, dht),
    ...seg(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/** A GIF of one colour: a two-colour palette and a pixel stream of the first colour. */
export function solidGif(width: number, height: number, rgb: [number, number, number]): Buffer {
  // LZW with 2-bit codes: clear, then the colour-0 code for every pixel (re-clearing before the
  // code table would grow), then end; codes are 3 bits wide throughout
  const codes: number[] = [];
  const pixels = width * height;
  for (let i = 0; i < pixels; i++) {
    if (i % 2 === 0) codes.push(4); // clear keeps the code width at 3 bits
    codes.push(0);
  }
  codes.push(5);
  const bytes: number[] = [];
  let acc = 0;
  let n = 0;
  for (const c of codes) {
    acc |= c << n;
    n += 3;
    while (n >= 8) {
      bytes.push(acc & 0xff);
      acc >>= 8;
      n -= 8;
    }
  }
  if (n > 0) bytes.push(acc & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  const le = (v: number) => [v & 0xff, (v >> 8) & 0xff];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...le(width), ...le(height), 0x80, 0, 0,
    ...rgb, 255, 255, 255,
    0x2c, 0, 0, 0, 0, ...le(width), ...le(height), 0,
    2, ...blocks, 0,
    0x3b,
  ]);
}

const SVG = (colour: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="28" fill="${colour}"/></svg>\n`;
const PDF = (title: string) => Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
/** An MP4's first box (`ftyp`), which is what tells the type. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1'), Buffer.alloc(256)]);
/** An ID3v2 tag header and a frame sync. */
const MP3 = Buffer.concat([Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1'), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(256)]);

const PLACES = ['harbour', 'old-town', 'mountains', 'coast', 'forest', 'river'];
const EVENTS = ['spring-fair', 'summer-concert', 'open-day', 'workshop'];

export function seedMedia(lib: MediaLibrary): MediaSeedInfo {
  let n = 0;
  const folders = new Set<string>();
  const put = (dir: string, name: string, data: Buffer | string, meta?: Record<string, string>) => {
    lib.write(dir, name, data);
    folders.add(dir);
    const file = join(lib.abs(dir), name);
    const at = new Date(BASE_TIME + n * 60_000);
    utimesSync(file, at, at);
    if (meta) lib.write(dir, name + '.meta.yaml', Object.entries(meta).map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`).join(''));
    n++;
  };

  put('', 'site-logo.png', solidPng(96, 32, [30, 30, 30]), { alt: 'The site logo', title: 'Logo' });
  put('', 'favicon.png', solidPng(16, 16, [200, 40, 40]));
  put('', 'readme.txt', 'Files for the whole site: logos, documents, photos.\n');
  put('brand', 'logo-dark.png', solidPng(120, 40, [20, 20, 20]), { alt: 'Logo on a dark background' });
  put('brand', 'logo-light.png', solidPng(120, 40, [240, 240, 240]), { alt: 'Logo on a light background' });
  put('brand', 'mark.svg', SVG('#3366cc'), { title: 'Brand mark' });
  for (let i = 1; i <= 12; i++) put('brand/swatches', `swatch-${i}.gif`, solidGif(8, 8, [i * 20, 255 - i * 20, 128]));
  for (const year of [2023, 2024, 2025]) {
    for (let q = 1; q <= 4; q++) put(`docs/${year}`, `report-${year}-q${q}.pdf`, PDF(`Report ${year} Q${q}`), { title: `Quarterly report ${year} Q${q}` });
    for (let i = 1; i <= 10; i++) put(`docs/${year}`, `notes-${year}-${String(i).padStart(2, '0')}.txt`, `Meeting notes ${year} #${i}\n`);
  }
  for (const year of [2024, 2025]) {
    for (const event of EVENTS) {
      const dir = `events/${year}/${event}`;
      for (let i = 1; i <= 12; i++) put(dir, `${event}-${i}.jpg`, solidJpeg(48 + i, 32, 40 + ((i * 17) % 180)), i % 4 === 1 ? { alt: `${event.replace('-', ' ')} ${year}, photo ${i}` } : undefined);
      put(dir, 'programme.pdf', PDF(`${event} ${year}`), { title: `Programme of the ${event.replace('-', ' ')}` });
    }
  }
  for (const [p, place] of PLACES.entries()) {
    for (let i = 1; i <= 20; i++) put(`photos/${place}`, `${place}-${String(i).padStart(2, '0')}.jpg`, solidJpeg(64, 40 + i, 60 + ((p * 30 + i * 7) % 160)), i === 1 ? { alt: `A view of the ${place.replace('-', ' ')}`, title: place } : undefined);
    put(`photos/${place}`, `${place}-panorama.png`, solidPng(200, 50, [40 + p * 30, 120, 160]));
  }
  for (let i = 1; i <= 8; i++) put('audio/podcast', `episode-${String(i).padStart(2, '0')}.mp3`, MP3, { title: `Episode ${i}` });
  for (let i = 1; i <= 6; i++) put('video', `clip-${i}.mp4`, MP4);
  lib.mkdir('empty');
  folders.add('empty');
  return { files: n, folders: [...folders].filter(Boolean).sort() };
}
