import { describe, expect, test } from 'vitest';
import { eolOf, mergeHeader, mergeText, resolveHeader, resolveText, same } from '../../electron/sync/merge';

const L = (...xs: string[]) => xs.join('\n');

describe('text merge by lines', () => {
  test('disjoint edits merge cleanly', () => {
    const base = L('one', 'two', 'three', 'four', 'five');
    const mine = L('ONE', 'two', 'three', 'four', 'five');
    const theirs = L('one', 'two', 'three', 'four', 'FIVE');
    expect(mergeText(base, mine, theirs)).toMatchObject({ clean: true, text: L('ONE', 'two', 'three', 'four', 'FIVE') });
  });

  test('the same line changed on both sides differently is a conflict holding all three', () => {
    const m = mergeText(L('a', 'b', 'c'), L('a', 'mine', 'c'), L('a', 'theirs', 'c'));
    expect(m.clean).toBe(false);
    expect(m.text).toBeNull();
    expect(m.hunks).toEqual([
      { kind: 'same', lines: ['a'] },
      { kind: 'conflict', base: ['b'], mine: ['mine'], theirs: ['theirs'] },
      { kind: 'same', lines: ['c'] },
    ]);
    expect(resolveText(m, ['theirs'])).toBe(L('a', 'theirs', 'c'));
    expect(resolveText(m, ['both'])).toBe(L('a', 'mine', 'theirs', 'c'));
    expect(resolveText(m, [{ text: 'typed\nby hand' }])).toBe(L('a', 'typed', 'by hand', 'c'));
    expect(() => resolveText(m, [])).toThrow(/No choice/);
  });

  test('the same change on both sides is not a conflict', () => {
    expect(mergeText(L('a', 'b'), L('a', 'B'), L('a', 'B'))).toMatchObject({ clean: true, text: L('a', 'B') });
  });

  test('one side unchanged: the other wins whole', () => {
    expect(mergeText('x', 'x', 'y').text).toBe('y');
    expect(mergeText('x', 'y', 'x').text).toBe('y');
  });

  test('insertions at both ends and in the middle', () => {
    const base = L('a', 'b', 'c');
    expect(mergeText(base, L('start', 'a', 'b', 'c'), L('a', 'b', 'c', 'end')).text).toBe(L('start', 'a', 'b', 'c', 'end'));
    expect(mergeText(base, L('a', 'a2', 'b', 'c'), L('a', 'b', 'b2', 'c')).text).toBe(L('a', 'a2', 'b', 'b2', 'c'));
  });

  test('a line deleted on one side and kept on the other merges to the deletion', () => {
    expect(mergeText(L('a', 'b', 'c'), L('a', 'c'), L('a', 'b', 'c', 'd')).text).toBe(L('a', 'c', 'd'));
  });

  test('deleted on one side, edited on the other: a conflict (no word lost)', () => {
    const m = mergeText(L('a', 'b', 'c'), L('a', 'c'), L('a', 'b edited', 'c'));
    expect(m.clean).toBe(false);
    expect(m.hunks.find((h) => h.kind === 'conflict')).toMatchObject({ mine: [], theirs: ['b edited'] });
  });

  test('CRLF against LF: line endings alone never conflict; mine keeps its endings', () => {
    const base = 'a\nb\nc';
    const mine = 'a\r\nB\r\nc';
    const theirs = 'a\nb\nc\nd';
    const m = mergeText(base, mine, theirs);
    expect(m).toMatchObject({ clean: true, eol: '\r\n', text: 'a\r\nB\r\nc\r\nd' });
    expect(mergeText('a\nb', 'a\r\nb', 'a\nb').text).toBe('a\r\nb');
    expect(eolOf('x\r\ny\r\nz\n')).toBe('\r\n');
  });

  test('unicode: combining marks, emoji and right-to-left text survive', () => {
    const base = L('Ünïcödé', '日本語', 'שלום');
    const mine = L('Ünïcödé ✓', '日本語', 'שלום');
    const theirs = L('Ünïcödé', '日本語', 'שלום 👋🏽');
    expect(mergeText(base, mine, theirs).text).toBe(L('Ünïcödé ✓', '日本語', 'שלום 👋🏽'));
  });

  test('a trailing newline added on one side is kept', () => {
    expect(mergeText('a\nb', 'a\nb\n', 'A\nb').text).toBe('A\nb\n');
  });

  test('empty texts', () => {
    expect(mergeText('', '', 'new').text).toBe('new');
    expect(mergeText('', 'mine', 'theirs').clean).toBe(false);
  });
});

describe('header merge field by field', () => {
  test('a key added on both sides with the same value, and different keys added on each side', () => {
    const m = mergeHeader({ title: 'T' }, { title: 'T', menu: 'Home', a: 1 }, { title: 'T', menu: 'Home', b: 2 });
    expect(m).toEqual({ merged: { title: 'T', menu: 'Home', a: 1, b: 2 }, conflicts: [] });
  });

  test('a key added on both sides with different values is a conflict', () => {
    const m = mergeHeader({}, { menu: 'Mine' }, { menu: 'Theirs' });
    expect(m.conflicts).toEqual([{ path: 'menu', base: undefined, mine: 'Mine', theirs: 'Theirs' }]);
    expect(resolveHeader(m, { menu: 'theirs' })).toEqual({ menu: 'Theirs' });
  });

  test('deleted on one side, unchanged on the other: deleted', () => {
    expect(mergeHeader({ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 2 }).merged).toEqual({ a: 1 });
    expect(mergeHeader({ a: 1, b: 2 }, { a: 1, b: 2 }, { b: 2 }).merged).toEqual({ b: 2 });
  });

  test('deleted on one side, changed on the other: a conflict that can go either way', () => {
    const m = mergeHeader({ a: 1 }, {}, { a: 2 });
    expect(m.conflicts).toEqual([{ path: 'a', base: 1, mine: undefined, theirs: 2 }]);
    expect(resolveHeader(m, { a: 'mine' })).toEqual({});
    expect(resolveHeader(m, { a: 'theirs' })).toEqual({ a: 2 });
  });

  test('nested objects merge key by key with dotted paths', () => {
    const base = { taxonomy: { category: ['blog'], tag: ['a'] } };
    const mine = { taxonomy: { category: ['news'], tag: ['a'] } };
    const theirs = { taxonomy: { category: ['blog'], tag: ['a', 'b'] } };
    expect(mergeHeader(base, mine, theirs).merged).toEqual({ taxonomy: { category: ['news'], tag: ['a', 'b'] } });
    const clash = mergeHeader(base, { taxonomy: { category: ['x'], tag: ['a'] } }, { taxonomy: { category: ['y'], tag: ['a'] } });
    expect(clash.conflicts.map((c) => c.path)).toEqual(['taxonomy.category']);
    expect(resolveHeader(clash, { 'taxonomy.category': { value: ['x', 'y'] } })).toEqual({ taxonomy: { category: ['x', 'y'], tag: ['a'] } });
  });

  test('lists are values: reordered lists on both sides conflict rather than silently mixing', () => {
    const m = mergeHeader({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }, { tags: ['a', 'b', 'c'] });
    expect(m.conflicts.map((c) => c.path)).toEqual(['tags']);
  });

  test('key order does not make a change', () => {
    expect(same({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
    expect(mergeHeader({ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1, b: 3 }).merged).toEqual({ a: 1, b: 3 });
  });

  test('unicode keys and values', () => {
    expect(mergeHeader({ 'titel-ü': 'Ä' }, { 'titel-ü': 'Ä', '標題': '新' }, { 'titel-ü': 'Ö' }).merged).toEqual({ 'titel-ü': 'Ö', '標題': '新' });
  });
});
