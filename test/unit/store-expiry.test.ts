/**
 * A store login's X-Expires-After read (electron/api/store/expiry.ts): ISO 8601 as the document's
 * store writes it, java.util.Date.toString() as the real Petstore does in whatever zone its server
 * runs, an HTTP date; nothing guessed, nothing thrown.
 */
import { describe, expect, test } from 'vitest';
import { parseExpiresAfter } from '../../electron/api/store/expiry';

const at = (iso: string) => Date.parse(iso);

describe('parseExpiresAfter', () => {
  test('ISO 8601 with a zone', () => {
    expect(parseExpiresAfter('2026-11-20T09:12:01Z')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('2026-11-20T09:12:01.250+01:00')).toBe(at('2026-11-20T08:12:01.250Z'));
    expect(parseExpiresAfter('2026-11-20T09:12:01+0100')).toBe(at('2026-11-20T08:12:01Z'));
  });

  test('Java’s Date.toString() with the zone names servers print, standard and daylight time', () => {
    expect(parseExpiresAfter('Fri Nov 20 09:12:01 UTC 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 09:12:01 GMT 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 10:12:01 CET 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Jul 03 10:12:01 CEST 2026')).toBe(at('2026-07-03T08:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 01:12:01 PST 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Jul 03 01:12:01 PDT 2026')).toBe(at('2026-07-03T08:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 04:12:01 EST 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Sat Nov 21 02:12:01 AEDT 2026')).toBe(at('2026-11-20T15:12:01Z'));
  });

  test('numeric zones: Java’s GMT+05:30 for zones without a name, and the like', () => {
    expect(parseExpiresAfter('Fri Nov 20 14:42:01 GMT+05:30 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 06:12:01 GMT-03:00 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 10:12:01 UTC+1 2026')).toBe(at('2026-11-20T09:12:01Z'));
    expect(parseExpiresAfter('Fri Nov 20 10:12:01 +0100 2026')).toBe(at('2026-11-20T09:12:01Z'));
  });

  test('an HTTP date', () => {
    expect(parseExpiresAfter('Fri, 20 Nov 2026 09:12:01 GMT')).toBe(at('2026-11-20T09:12:01Z'));
  });

  test('zone names that mean different offsets in different countries are not guessed', () => {
    for (const zone of ['CST', 'IST', 'BST', 'AST']) expect(parseExpiresAfter(`Fri Nov 20 09:12:01 ${zone} 2026`), zone).toBeNull();
  });

  test('anything unreadable is null, never an exception or a wrong date', () => {
    for (const raw of [null, undefined, '', '   ', 'soon', 'tomorrow at noon', 'Fri Nov 31 09:12:01 UTC 2026', 'Fri Feb 30 09:12:01 UTC 2026', 'Fri Nov 20 25:12:01 UTC 2026', 'Fri Nov 20 09:12:01 XYZ 2026', 'Fri Nov 20 09:12:01 GMT+99:00 2026', '2026-11-20', '2026-11-20T09:12:01', '1763629921']) {
      expect(parseExpiresAfter(raw), String(raw)).toBeNull();
    }
  });
});
