/**
 * A QR reader for tests, written apart from the encoder (qr.ts) so a test checks the 2FA image the
 * way a phone would: it decodes the PNG itself (chunks, CRCs, zlib, all five row filters), finds
 * the quiet zone and the module size from the top-left finder pattern, samples module centres,
 * accepts only a format word that is a valid BCH code, unmasks, checks every block's Reed–Solomon
 * syndromes are zero, and parses the byte-mode payload. Level M, versions 1–10 (what the sandbox
 * writes); anything else throws with the reason.
 */
import { inflateSync } from 'node:zlib';

/** Data codewords per block and EC codewords per block, level M, versions 1–10. */
const LEVEL_M: readonly [number, number[]][] = [
  [0, []], [10, [16]], [16, [28]], [26, [44]], [18, [32, 32]], [24, [43, 43]], [16, [27, 27, 27, 27]],
  [18, [31, 31, 31, 31]], [22, [38, 38, 39, 39]], [22, [36, 36, 36, 37, 37]], [26, [43, 43, 43, 43, 44]],
];
const ALIGN: readonly number[][] = [[], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

/** Greyscale pixels of an 8-bit greyscale or RGB(A) PNG. */
export function readPng(png: Buffer): { width: number; height: number; grey: Uint8Array } {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    if (png.readUInt32BE(at + 8 + len) !== crc(png.subarray(at + 4, at + 8 + len))) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[data[9]!] ?? 0;
      if (!channels) throw new Error(`colour type ${data[9]} not read here`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= channels ? px[y * stride + x - channels]! : 0;
      const b = y > 0 ? px[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? px[(y - 1) * stride + x - channels]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      px[y * stride + x] = (v + [0, a, b, (a + b) >> 1, paeth][filter]!) & 0xff;
    }
  }
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) grey[i] = px[i * channels]!;
  return { width, height, grey };
}

/** The text a QR code in a PNG holds. */
export function readQrPng(png: Buffer): string {
  const { width, height, grey } = readPng(png);
  const dark = (x: number, y: number) => grey[y * width + x]! < 128;
  // the top-left finder: the first dark pixel, and its top edge's run of 7 modules
  let x0 = -1;
  let y0 = -1;
  for (let y = 0; y < height && y0 < 0; y++) {
    for (let x = 0; x < width; x++) {
      if (dark(x, y)) {
        [x0, y0] = [x, y];
        break;
      }
    }
  }
  if (y0 < 0) throw new Error('no dark pixel: no code');
  let run = 0;
  while (x0 + run < width && dark(x0 + run, y0)) run++;
  const scale = run / 7;
  let right = width - 1;
  while (right > x0 && !dark(right, y0)) right--;
  const size = Math.round((right - x0 + 1) / scale);
  return readQrModules(size, (x, y) => dark(Math.floor(x0 + (x + 0.5) * scale), Math.floor(y0 + (y + 0.5) * scale)));
}

/** The text of a QR code drawn as the sandbox's SVG: unit squares `M x,y h1v1h-1z` in a viewBox with a 4-module margin. */
export function readQrSvg(svg: string): string {
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  if (!box) throw new Error('no viewBox');
  const size = Number(box[1]) - 8;
  const squares = new Set([...svg.matchAll(/M(\d+),(\d+)h1v1h-1z/g)].map((m) => `${Number(m[1]) - 4},${Number(m[2]) - 4}`));
  return readQrModules(size, (x, y) => squares.has(`${x},${y}`));
}

/** The text of a symbol of `size` modules, `m(x, y)` true for a dark module. */
export function readQrModules(size: number, m: (x: number, y: number) => boolean): string {
  const version = (size - 17) / 4;
  if (!Number.isInteger(version) || version < 1 || version > 10) throw new Error(`a ${size}-module symbol is not a version 1–10 code`);

  // format: 15 bits around the top-left finder, most significant first
  let word = 0;
  const coords: [number, number][] = [[8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8], [7, 8], [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8]];
  coords.forEach(([x, y], i) => (word |= (m(x, y) ? 1 : 0) << i));
  let format = -1;
  for (let data = 0; data < 32; data++) {
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    if ((((data << 10) | rem) ^ 0x5412) === word) format = data;
  }
  if (format < 0) throw new Error('the format bits are not a valid code word');
  if (format >> 3 !== 0) throw new Error(`error correction level bits ${format >> 3}, not M`);
  const mask = format & 7;

  const reserved = (x: number, y: number): boolean => {
    if ((x < 9 && y < 9) || (x >= size - 8 && y < 9) || (x < 9 && y >= size - 8)) return true; // finders, separators, format
    if (x === 6 || y === 6) return true; // timing
    if (version >= 7 && ((x >= size - 11 && y < 6) || (y >= size - 11 && x < 6))) return true; // version
    for (const cy of ALIGN[version]!) {
      for (const cx of ALIGN[version]!) {
        const onFinder = (cx === 6 && cy === 6) || (cx === 6 && cy === size - 7) || (cx === size - 7 && cy === 6);
        if (!onFinder && Math.abs(x - cx) <= 2 && Math.abs(y - cy) <= 2) return true;
      }
    }
    return false;
  };
  const flip = [
    (x: number, y: number) => (x + y) % 2 === 0,
    (_: number, y: number) => y % 2 === 0,
    (x: number) => x % 3 === 0,
    (x: number, y: number) => (x + y) % 3 === 0,
    (x: number, y: number) => (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0,
    (x: number, y: number) => ((x * y) % 2) + ((x * y) % 3) === 0,
    (x: number, y: number) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
    (x: number, y: number) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
  ][mask]!;
  const bits: number[] = [];
  let upward = true;
  for (let col = size - 1; col > 0; col -= 2) {
    if (col === 6) col--;
    for (let i = 0; i < size; i++) {
      const y = upward ? size - 1 - i : i;
      for (const x of [col, col - 1]) if (!reserved(x, y)) bits.push((m(x, y) ? 1 : 0) ^ (flip(x, y) ? 1 : 0));
    }
    upward = !upward;
  }
  const [ec, sizes] = LEVEL_M[version]!;
  const total = sizes.reduce((a, b) => a + b, 0) + ec * sizes.length;
  const codewords: number[] = [];
  for (let i = 0; i < total; i++) codewords.push(parseInt(bits.slice(i * 8, i * 8 + 8).join(''), 2));
  // de-interleave, then every block must divide by the generator (all syndromes zero)
  const blocks = sizes.map((n) => ({ data: [] as number[], ec: [] as number[], n }));
  let k = 0;
  for (let i = 0; i < Math.max(...sizes); i++) for (const b of blocks) if (i < b.n) b.data.push(codewords[k++]!);
  for (let i = 0; i < ec; i++) for (const b of blocks) b.ec.push(codewords[k++]!);
  for (const [i, b] of blocks.entries()) {
    const word = [...b.data, ...b.ec];
    for (let s = 0; s < ec; s++) {
      let syndrome = 0;
      for (const c of word) syndrome = mul(syndrome, pow2(s)) ^ c;
      if (syndrome !== 0) throw new Error(`block ${i}: Reed–Solomon syndrome ${s} is not zero`);
    }
  }
  const data = blocks.flatMap((b) => b.data);
  const stream = data.flatMap((c) => Array.from({ length: 8 }, (_, i) => (c >> (7 - i)) & 1));
  const take = (n: number) => parseInt(stream.splice(0, n).join('') || '0', 2);
  if (take(4) !== 0b0100) throw new Error('not byte mode');
  const count = take(version < 10 ? 8 : 16);
  return Buffer.from(Array.from({ length: count }, () => take(8))).toString('utf8');
}

function mul(a: number, b: number): number {
  let r = 0;
  for (let i = 7; i >= 0; i--) {
    r = (r << 1) ^ ((r >> 7) * 0x11d);
    if ((b >> i) & 1) r ^= a;
  }
  return r & 0xff;
}

function pow2(n: number): number {
  let r = 1;
  for (let i = 0; i < n; i++) r = mul(r, 2);
  return r;
}

function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
