/**
 * RFC 4648 base32 and RFC 6238 TOTP (HMAC-SHA1, 30 s step, 6 digits), as authenticator apps and
 * the real service's 2FA use them. Tests import `totp` to compute the code a person would type.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32, ignoring case, spaces, hyphens and `=` padding; throws on other characters. */
function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const idx = ALPHABET.indexOf(ch);
    if (idx < 0) throw new Error(`Not a base32 character: ${ch}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export interface TotpOptions {
  stepSeconds?: number;
  digits?: number;
}

/** The code for the step containing `timeMs` (RFC 6238 with SHA-1 and dynamic truncation). */
export function totp(secretBase32: string, timeMs: number, opts: TotpOptions = {}): string {
  const step = opts.stepSeconds ?? 30;
  const digits = opts.digits ?? 6;
  return hotp(base32Decode(secretBase32), Math.floor(timeMs / 1000 / step), digits);
}

/** True when `code` matches the step of `timeMs` or one step either side (clock drift). */
export function verifyTotp(secretBase32: string, code: string, timeMs: number, window = 1, opts: TotpOptions = {}): boolean {
  const digits = opts.digits ?? 6;
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return false;
  let key: Buffer;
  try {
    key = base32Decode(secretBase32);
  } catch {
    return false;
  }
  if (key.length === 0) return false;
  const counter = Math.floor(timeMs / 1000 / (opts.stepSeconds ?? 30));
  let ok = false;
  for (let d = -window; d <= window; d++) {
    // compare every candidate, constant time each: no early exit that times the match
    ok = timingSafeEqual(Buffer.from(hotp(key, counter + d, digits)), Buffer.from(code)) || ok;
  }
  return ok;
}

/** Seconds left in the current step, for "code valid for N s" hints. */
export function totpSecondsLeft(timeMs: number, stepSeconds = 30): number {
  return stepSeconds - (Math.floor(timeMs / 1000) % stepSeconds);
}

/** otpauth:// URI an authenticator app understands (as a QR code or pasted). */
export function otpauthUri(secretBase32: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secretBase32}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}

function hotp(key: Buffer, counter: number, digits: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(Math.max(0, counter)));
  const mac = createHmac('sha1', key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** digits).padStart(digits, '0');
}
