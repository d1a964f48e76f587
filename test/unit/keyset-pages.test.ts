/** Page numbers over a keyset search (views/audit/keyset-pages.ts): boundaries remembered, jumps walked, one walk at a time. */
import { describe, expect, test } from 'vitest';
import { keysetPages, type KeysetSearch } from '../../renderer/views/audit/keyset-pages';

/** 1,234 items keyed 10,000 down to 8,767 (newest first), as the kept copies page them. */
const KEYS = Array.from({ length: 1234 }, (_, i) => 10_000 - i);
function source() {
  const calls: { before: number | undefined; limit: number }[] = [];
  const search: KeysetSearch<number> = async (before, limit) => {
    calls.push({ before, limit });
    const from = before === undefined ? 0 : KEYS.findIndex((k) => k < before);
    const items = from < 0 ? [] : KEYS.slice(from, from + limit);
    const more = from >= 0 && from + limit < KEYS.length;
    return { items, total: KEYS.length, next: more ? items[items.length - 1]! : null };
  };
  return { calls, search };
}

describe('keysetPages', () => {
  test('pages in order: one search each, the boundary of the page before', async () => {
    const { calls, search } = source();
    const p = keysetPages(search, { maxLimit: 500 });
    const one = await p.page(1, 100);
    expect(one.items[0]).toBe(10_000);
    expect(one.items).toHaveLength(100);
    expect(one).toMatchObject({ total: 1234, perPage: 100, next: 2 });
    const two = await p.page(2, 100);
    expect(two.items[0]).toBe(9_900);
    expect(calls).toEqual([
      { before: undefined, limit: 100 },
      { before: 9_901, limit: 100 },
    ]);
  });

  test('a jump to the last page walks the pages between in the largest steps, then reads it; the way back is known', async () => {
    const { calls, search } = source();
    const p = keysetPages(search, { maxLimit: 500 });
    const last = await p.page(13, 100);
    expect(last.items).toEqual(KEYS.slice(1200));
    expect(last.next).toBeNull();
    expect(calls.map((c) => c.limit)).toEqual([500, 500, 200, 100]);
    calls.length = 0;
    const mid = await p.page(11, 100);
    expect(mid.items[0]).toBe(KEYS[1000]);
    expect(calls).toEqual([{ before: KEYS[999], limit: 100 }]);
  });

  test('pages asked together are read one walk at a time, each stretch once', async () => {
    const { calls, search } = source();
    const p = keysetPages(search, { maxLimit: 500 });
    const [a, b] = await Promise.all([p.page(7, 100), p.page(8, 100)]);
    expect(a.items[0]).toBe(KEYS[600]);
    expect(b.items[0]).toBe(KEYS[700]);
    expect(calls.map((c) => c.limit)).toEqual([500, 100, 100, 100]);
  });

  test('past the end: an empty page, and later asks past it cost nothing', async () => {
    const { calls, search } = source();
    const p = keysetPages(search, { maxLimit: 500 });
    expect((await p.page(40, 100)).items).toEqual([]);
    const before = calls.length;
    expect(await p.page(41, 100)).toMatchObject({ items: [], next: null });
    expect(calls.length).toBe(before);
  });

  test('a failed search fails its page only; the next page asked still works', async () => {
    let fail = true;
    const { search } = source();
    const p = keysetPages<number>(async (b, l) => {
      if (fail) {
        fail = false;
        throw new Error('the database is busy');
      }
      return search(b, l);
    }, { maxLimit: 500 });
    await expect(p.page(1, 100)).rejects.toThrow('busy');
    expect((await p.page(1, 100)).items[0]).toBe(10_000);
  });
});
