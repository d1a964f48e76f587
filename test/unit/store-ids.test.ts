/**
 * The ids Sitedesk chooses for new pets and orders (electron/store/ids.ts): never 0, always a safe
 * integer (and so within a Java long), apart by time and chance, growing within a run.
 */
import { describe, expect, test } from 'vitest';
import { IdMaker, idAt } from '../../electron/store/ids';

const EPOCH = Date.UTC(2024, 0, 1);

describe('idAt', () => {
  test('milliseconds since 2024 times 4096, plus the random part', () => {
    expect(idAt(EPOCH + 1, 0)).toBe(4096);
    expect(idAt(EPOCH + 1, 4095)).toBe(8191);
    expect(idAt(EPOCH + 2, 7)).toBe(2 * 4096 + 7);
    const now = Date.UTC(2026, 10, 20, 9, 12, 1);
    expect(Math.floor(idAt(now, 123) / 4096)).toBe(now - EPOCH);
  });

  test('safe integers until 2093, far below a Java long; a clock outside that range is refused, never a 0 or an unsafe id', () => {
    const last = EPOCH + 2 ** 41 - 1;
    expect(new Date(last).getUTCFullYear()).toBe(2093);
    expect(idAt(last, 4095)).toBe(Number.MAX_SAFE_INTEGER);
    expect(Number.MAX_SAFE_INTEGER < 2 ** 63 - 1).toBe(true);
    expect(() => idAt(last + 1, 0)).toThrow(RangeError);
    expect(() => idAt(EPOCH, 5)).toThrow(RangeError);
    expect(() => idAt(Date.UTC(2001, 0, 1), 5)).toThrow(RangeError);
  });
});

describe('IdMaker', () => {
  test('two ids in the same millisecond differ by their random part', () => {
    const rolls = [17, 3000];
    const ids = new IdMaker(() => EPOCH + 1000, () => rolls.shift()!);
    expect(ids.next()).toBe(1000 * 4096 + 17);
    expect(ids.next()).toBe(1000 * 4096 + 3000);
  });

  test('within a run ids only grow, even when chance or the clock would repeat one', () => {
    let now = EPOCH + 5000;
    const ids = new IdMaker(() => now, () => 9);
    const a = ids.next();
    const b = ids.next(); // same ms, same roll
    now -= 3000; // the clock set back
    const c = ids.next();
    expect([a, b, c]).toEqual([a, a + 1, a + 2]);
  });

  test('the real clock and randomness: many ids, all distinct, safe and not 0', () => {
    const ids = new IdMaker();
    const made = Array.from({ length: 5000 }, () => ids.next());
    expect(new Set(made).size).toBe(made.length);
    expect(made.every((id) => Number.isSafeInteger(id) && id > 4096)).toBe(true);
  });
});
