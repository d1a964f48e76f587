/**
 * A QR symbol (qr.ts) as the data URIs the 2FA enrolment answers carry: a PNG (the documents'
 * `qr_code`) written with node:zlib, or an SVG (what the real service's login plugin sends,
 * recording 74). Both draw the four-module quiet zone readers need.
 */
import { deflateSync } from 'node:zlib';
import type { QrCode } from './qr';

const QUIET = 4;

/** `data:image/png;base64,…`: 8-bit greyscale, `scale` pixels per module. */
export function qrPngDataUri(qr: QrCode, scale = 6): string {
  return `data:image/png;base64,${qrPng(qr, scale).toString('base64')}`;
}

/** `data:image/svg+xml;base64,…`: one path of unit squares over a white background. */
export function qrSvgDataUri(qr: QrCode, scale = 6): string {
  const side = qr.size + QUIET * 2;
  let path = '';
  for (let y = 0; y < qr.size; y++) for (let x = 0; x < qr.size; x++) if (qr.dark[y]![x]) path += `M${x + QUIET},${y + QUIET}h1v1h-1z`;
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${side * scale}" height="${side * scale}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

export function qrPng(qr: QrCode, scale: number): Buffer {
  const side = (qr.size + QUIET * 2) * scale;
  const raw = Buffer.alloc((side + 1) * side, 0xff);
  for (let py = 0; py < side; py++) {
    raw[py * (side + 1)] = 0; // filter: none
    const y = Math.floor(py / scale) - QUIET;
    for (let px = 0; px < side; px++) {
      const x = Math.floor(px / scale) - QUIET;
      if (y >= 0 && x >= 0 && y < qr.size && x < qr.size && qr.dark[y]![x]) raw[py * (side + 1) + 1 + px] = 0;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
