/**
 * A small QR Code encoder (ISO/IEC 18004): byte mode, error correction level M, versions 1–10
 * (up to 213 bytes, plenty for an `otpauth://` URI), the mask chosen by the standard's penalty
 * rules. The 2FA enrolment answers carry the code as an image (qr-image.ts), so an authenticator
 * app, or the app's tests, can scan a real code; no package with a binary download is needed.
 */

/** Per version (index 1–10), level M: EC codewords per block and the blocks' data codeword counts. */
const BLOCKS: readonly { ec: number; data: readonly number[] }[] = [
  { ec: 0, data: [] },
  { ec: 10, data: [16] },
  { ec: 16, data: [28] },
  { ec: 26, data: [44] },
  { ec: 18, data: [32, 32] },
  { ec: 24, data: [43, 43] },
  { ec: 16, data: [27, 27, 27, 27] },
  { ec: 18, data: [31, 31, 31, 31] },
  { ec: 22, data: [38, 38, 39, 39] },
  { ec: 22, data: [36, 36, 36, 37, 37] },
  { ec: 26, data: [43, 43, 43, 43, 44] },
];

/** Alignment pattern centres per version. */
const ALIGNMENT: readonly (readonly number[])[] = [[], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

export const QR_MAX_BYTES = 213;

/** A QR symbol: `size`×`size` modules, `dark[y][x]`. */
export interface QrCode {
  version: number;
  size: number;
  mask: number;
  dark: boolean[][];
}

/** Encodes text (as UTF-8 bytes) in the smallest version that holds it; throws past 213 bytes. */
export function encodeQr(text: string): QrCode {
  const bytes = Buffer.from(text, 'utf8');
  const version = pickVersion(bytes.length);
  const codewords = interleave(version, dataCodewords(version, bytes));
  const size = version * 4 + 17;
  const base = new Grid(size);
  drawFunctionPatterns(base, version);
  placeData(base, codewords);
  let best: Grid | null = null;
  let bestScore = Infinity;
  let bestMask = 0;
  for (let mask = 0; mask < 8; mask++) {
    const g = base.clone();
    applyMask(g, mask);
    drawFormat(g, mask);
    const score = penalty(g);
    if (score < bestScore) [best, bestScore, bestMask] = [g, score, mask];
  }
  return { version, size, mask: bestMask, dark: best!.dark };
}

function pickVersion(length: number): number {
  for (let v = 1; v <= 10; v++) {
    const capacityBits = BLOCKS[v]!.data.reduce((a, b) => a + b, 0) * 8;
    const countBits = v < 10 ? 8 : 16;
    if (4 + countBits + length * 8 <= capacityBits) return v;
  }
  throw new Error(`Too long for a QR code here: ${length} bytes (at most ${QR_MAX_BYTES}).`);
}

/** Mode indicator, count, the bytes, terminator and padding, as data codewords. */
function dataCodewords(version: number, bytes: Uint8Array): number[] {
  const capacity = BLOCKS[version]!.data.reduce((a, b) => a + b, 0);
  const bits: number[] = [];
  const push = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  push(0b0100, 4);
  push(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) push(b, 8);
  push(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  const out: number[] = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; out.length < capacity; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

/** Splits into blocks, adds each block's Reed–Solomon codewords, interleaves column by column. */
function interleave(version: number, data: number[]): number[] {
  const { ec, data: sizes } = BLOCKS[version]!;
  const divisor = rsDivisor(ec);
  const blocks: { data: number[]; ec: number[] }[] = [];
  let at = 0;
  for (const n of sizes) {
    const d = data.slice(at, at + n);
    at += n;
    blocks.push({ data: d, ec: rsRemainder(d, divisor) });
  }
  const out: number[] = [];
  const longest = Math.max(...sizes);
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]!);
  for (let i = 0; i < ec; i++) for (const b of blocks) out.push(b.ec[i]!);
  return out;
}

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1
function gfMul(a: number, b: number): number {
  let r = 0;
  for (let i = 7; i >= 0; i--) {
    r = (r << 1) ^ ((r >>> 7) * 0x11d);
    r ^= ((b >>> i) & 1) * a;
  }
  return r & 0xff;
}

/** Coefficients (highest power dropped) of ∏ (x − α^i), i < degree. */
function rsDivisor(degree: number): number[] {
  const coeffs = new Array<number>(degree).fill(0);
  coeffs[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      coeffs[j] = gfMul(coeffs[j]!, root);
      if (j + 1 < degree) coeffs[j] = coeffs[j]! ^ coeffs[j + 1]!;
    }
    root = gfMul(root, 0x02);
  }
  return coeffs;
}

function rsRemainder(data: number[], divisor: number[]): number[] {
  const result = new Array<number>(divisor.length).fill(0);
  for (const b of data) {
    const factor = b ^ result.shift()!;
    result.push(0);
    divisor.forEach((coef, i) => (result[i] = result[i]! ^ gfMul(coef, factor)));
  }
  return result;
}

class Grid {
  dark: boolean[][];
  fixed: boolean[][];

  constructor(readonly size: number) {
    this.dark = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
    this.fixed = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  }

  set(x: number, y: number, dark: boolean): void {
    this.dark[y]![x] = dark;
    this.fixed[y]![x] = true;
  }

  clone(): Grid {
    const g = new Grid(this.size);
    g.dark = this.dark.map((r) => [...r]);
    g.fixed = this.fixed.map((r) => [...r]);
    return g;
  }
}

function drawFunctionPatterns(g: Grid, version: number): void {
  const n = g.size;
  for (let i = 0; i < n; i++) {
    g.set(6, i, i % 2 === 0);
    g.set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]] as const) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= n || y >= n) continue;
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        g.set(x, y, d !== 2 && d !== 4);
      }
    }
  }
  const centres = ALIGNMENT[version]!;
  for (const cy of centres) {
    for (const cx of centres) {
      // none over the finder patterns
      if ((cx === 6 && cy === 6) || (cx === 6 && cy === n - 7) || (cx === n - 7 && cy === 6)) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) g.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  drawFormat(g, 0); // reserves the format areas; redrawn per mask
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const bit = ((bits >>> i) & 1) === 1;
      const a = n - 11 + (i % 3);
      const b = Math.floor(i / 3);
      g.set(a, b, bit);
      g.set(b, a, bit);
    }
  }
}

/** The 15 format bits (level M = 00, the mask) in both copies, and the dark module. */
function drawFormat(g: Grid, mask: number): void {
  const data = (0b00 << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i: number) => ((bits >>> i) & 1) === 1;
  const n = g.size;
  for (let i = 0; i <= 5; i++) g.set(8, i, bit(i));
  g.set(8, 7, bit(6));
  g.set(8, 8, bit(7));
  g.set(7, 8, bit(8));
  for (let i = 9; i < 15; i++) g.set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i++) g.set(n - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i++) g.set(8, n - 15 + i, bit(i));
  g.set(8, n - 8, true);
}

/** The codewords' bits in the standard's two-column zigzag, right to left, skipping the timing column. */
function placeData(g: Grid, codewords: number[]): void {
  const n = g.size;
  let i = 0;
  for (let right = n - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < n; vert++) {
      const y = upward ? n - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        if (g.fixed[y]![x]) continue;
        // past the last codeword: the remainder bits, zero
        g.dark[y]![x] = i < codewords.length * 8 && ((codewords[i >>> 3]! >>> (7 - (i & 7))) & 1) === 1;
        i++;
      }
    }
  }
}

const MASKS: readonly ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function applyMask(g: Grid, mask: number): void {
  const flip = MASKS[mask]!;
  for (let y = 0; y < g.size; y++) for (let x = 0; x < g.size; x++) if (!g.fixed[y]![x] && flip(x, y)) g.dark[y]![x] = !g.dark[y]![x];
}

/** The standard's four penalty rules: runs, 2×2 blocks, finder-like patterns, dark balance. */
function penalty(g: Grid): number {
  const n = g.size;
  const lines: string[] = [];
  for (let y = 0; y < n; y++) lines.push(g.dark[y]!.map((d) => (d ? '1' : '0')).join(''));
  for (let x = 0; x < n; x++) lines.push(g.dark.map((row) => (row[x] ? '1' : '0')).join(''));
  let score = 0;
  for (const line of lines) {
    for (const run of line.match(/0{5,}|1{5,}/g) ?? []) score += run.length - 2;
    for (const p of ['10111010000', '00001011101']) {
      for (let at = line.indexOf(p); at >= 0; at = line.indexOf(p, at + 1)) score += 40;
    }
  }
  let darkCount = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (g.dark[y]![x]) darkCount++;
      if (x + 1 < n && y + 1 < n) {
        const c = g.dark[y]![x];
        if (c === g.dark[y]![x + 1] && c === g.dark[y + 1]![x] && c === g.dark[y + 1]![x + 1]) score += 3;
      }
    }
  }
  score += Math.floor(Math.abs((darkCount * 100) / (n * n) - 50) / 5) * 10;
  return score;
}
