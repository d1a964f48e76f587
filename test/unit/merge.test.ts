import { describe, expect, test } from 'vitest';
import { diff3Merge } from 'node-diff3';
import { bothBlocks, eolOf, fieldKey, mergeHeader, mergeText, resolveHeader, resolveText, same } from '../../electron/common/merge';

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
    // both sides as separate paragraphs (it used to glue the two lines into one paragraph)
    expect(resolveText(m, ['both'])).toBe(L('a', 'mine', '', 'theirs', 'c'));
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

describe('clean changes are kept apart, for what they are', () => {
  test('a line the site replaced is a change from the site with the line it replaced, not unchanged text', () => {
    const base = L('# History', '', 'We started in 1998.', 'Thanks.');
    const m = mergeText(base, L('# History', '', 'We started in 1998, in a garage.', 'Thanks.'), L('# Our history', '', 'We started in 1998.', 'Thanks.'));
    expect(m.hunks).toEqual([
      { kind: 'theirs', base: ['# History'], lines: ['# Our history'] },
      { kind: 'same', lines: [''] },
      { kind: 'mine', base: ['We started in 1998.'], lines: ['We started in 1998, in a garage.'] },
      { kind: 'same', lines: ['Thanks.'] },
    ]);
    expect(m.text).toBe(L('# Our history', '', 'We started in 1998, in a garage.', 'Thanks.'));
    // each can be undone: its base stands in its place
    expect(resolveText(m, [], new Set([0]))).toBe(L('# History', '', 'We started in 1998, in a garage.', 'Thanks.'));
    expect(resolveText(m, [], new Set([2]))).toBe(L('# Our history', '', 'We started in 1998.', 'Thanks.'));
  });

  test('a deletion keeps what it deleted; the same change on both sides is said so', () => {
    expect(mergeText(L('a', 'b', 'c'), L('a', 'b', 'c'), L('a', 'c')).hunks).toEqual([
      { kind: 'same', lines: ['a'] },
      { kind: 'theirs', base: ['b'], lines: [] },
      { kind: 'same', lines: ['c'] },
    ]);
    expect(mergeText(L('a', 'b'), L('a', 'B'), L('a', 'B')).hunks).toEqual([
      { kind: 'same', lines: ['a'] },
      { kind: 'mine', base: ['b'], lines: ['B'], alsoTheirs: true },
    ]);
  });

  test('conflicts and clean changes side by side, and the merged text as node-diff3 merges it', () => {
    // a seeded walk over random edits: the regions give the same text and conflicts as diff3Merge
    let seed = 20;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const edit = (xs: string[], tag: string) => {
      const out = [...xs];
      for (let k = rnd(4); k >= 0; k--) {
        const at = rnd(out.length + 1);
        const op = rnd(3);
        if (op === 0) out.splice(at, 0, `${tag}${rnd(100)}`);
        else if (op === 1) out.splice(at, 1);
        else out.splice(at, 1, `${tag}${rnd(100)}`);
      }
      return out;
    };
    for (let n = 0; n < 300; n++) {
      const o = Array.from({ length: 1 + rnd(12) }, (_, i) => `line ${i}`);
      const a = edit(o, 'm');
      const b = edit(o, 't');
      const m = mergeText(L(...o), L(...a), L(...b));
      const regions = diff3Merge(a, o, b, { excludeFalseConflicts: true });
      expect(m.hunks.filter((h) => h.kind === 'conflict').length).toBe(regions.filter((r) => r.conflict).length);
      expect(resolveText(m, m.hunks.filter((h) => h.kind === 'conflict').map(() => 'mine'))).toBe(
        L(...regions.flatMap((r) => (r.ok ? r.ok : r.conflict!.a))),
      );
      if (m.clean) expect(m.text).toBe(L(...regions.flatMap((r) => r.ok ?? [])));
    }
  });

  test('both sides as Markdown blocks: paragraphs apart, list items and table rows together, no blank line doubled', () => {
    expect(bothBlocks(['Now we are forty.'], ['Now we are a team of 40.'])).toEqual(['Now we are forty.', '', 'Now we are a team of 40.']);
    expect(bothBlocks(['- garden'], ['- river'])).toEqual(['- garden', '- river']);
    expect(bothBlocks(['1. one'], ['2) two'])).toEqual(['1. one', '2) two']);
    expect(bothBlocks(['| a | b |'], ['| c | d |'])).toEqual(['| a | b |', '| c | d |']);
    expect(bothBlocks(['text', ''], ['more'])).toEqual(['text', '', 'more']);
    expect(bothBlocks(['text'], ['', 'more'])).toEqual(['text', '', 'more']);
    expect(bothBlocks([], ['more'])).toEqual(['more']);
    expect(bothBlocks(['- item'], ['A paragraph.'])).toEqual(['- item', '', 'A paragraph.']);
  });

  test('header fields changed on one side are listed, and an undone one gets its base back', () => {
    const h = mergeHeader({ title: 'T', menu: 'Old', tags: ['a'] }, { title: 'T', menu: 'Old', tags: ['a', 'b'] }, { title: 'T2', tags: ['a'] });
    expect(h.changes).toEqual([
      { path: ['title'], side: 'theirs', base: 'T', value: 'T2' },
      { path: ['menu'], side: 'theirs', base: 'Old', value: undefined },
      { path: ['tags'], side: 'mine', base: ['a'], value: ['a', 'b'] },
    ]);
    expect(h.merged).toEqual({ title: 'T2', tags: ['a', 'b'] });
    expect(resolveHeader(h, {}, new Set([fieldKey(['menu']), fieldKey(['title'])]))).toEqual({ title: 'T', menu: 'Old', tags: ['a', 'b'] });
  });
});

describe('header merge field by field', () => {
  test('a key added on both sides with the same value, and different keys added on each side', () => {
    const m = mergeHeader({ title: 'T' }, { title: 'T', menu: 'Home', a: 1 }, { title: 'T', menu: 'Home', b: 2 });
    expect(m).toEqual({
      merged: { title: 'T', menu: 'Home', a: 1, b: 2 },
      conflicts: [],
      changes: [
        { path: ['menu'], side: 'mine', base: undefined, value: 'Home', alsoTheirs: true },
        { path: ['a'], side: 'mine', base: undefined, value: 1 },
        { path: ['b'], side: 'theirs', base: undefined, value: 2 },
      ],
    });
  });

  test('a key added on both sides with different values is a conflict', () => {
    const m = mergeHeader({}, { menu: 'Mine' }, { menu: 'Theirs' });
    expect(m.conflicts).toEqual([{ path: ['menu'], base: undefined, mine: 'Mine', theirs: 'Theirs' }]);
    expect(resolveHeader(m, { [fieldKey(['menu'])]: 'theirs' })).toEqual({ menu: 'Theirs' });
  });

  test('deleted on one side, unchanged on the other: deleted', () => {
    expect(mergeHeader({ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 2 }).merged).toEqual({ a: 1 });
    expect(mergeHeader({ a: 1, b: 2 }, { a: 1, b: 2 }, { b: 2 }).merged).toEqual({ b: 2 });
  });

  test('deleted on one side, changed on the other: a conflict that can go either way', () => {
    const m = mergeHeader({ a: 1 }, {}, { a: 2 });
    expect(m.conflicts).toEqual([{ path: ['a'], base: 1, mine: undefined, theirs: 2 }]);
    expect(resolveHeader(m, { [fieldKey(['a'])]: 'mine' })).toEqual({});
    expect(resolveHeader(m, { [fieldKey(['a'])]: 'theirs' })).toEqual({ a: 2 });
  });

  test('nested objects merge key by key, their fields paths of keys', () => {
    const base = { taxonomy: { category: ['blog'], tag: ['a'] } };
    const mine = { taxonomy: { category: ['news'], tag: ['a'] } };
    const theirs = { taxonomy: { category: ['blog'], tag: ['a', 'b'] } };
    expect(mergeHeader(base, mine, theirs).merged).toEqual({ taxonomy: { category: ['news'], tag: ['a', 'b'] } });
    const clash = mergeHeader(base, { taxonomy: { category: ['x'], tag: ['a'] } }, { taxonomy: { category: ['y'], tag: ['a'] } });
    expect(clash.conflicts.map((c) => c.path)).toEqual([['taxonomy', 'category']]);
    expect(resolveHeader(clash, { [fieldKey(['taxonomy', 'category'])]: { value: ['x', 'y'] } })).toEqual({ taxonomy: { category: ['x', 'y'], tag: ['a'] } });
  });

  test('lists are values: reordered lists on both sides conflict rather than silently mixing', () => {
    const m = mergeHeader({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }, { tags: ['a', 'b', 'c'] });
    expect(m.conflicts.map((c) => c.path)).toEqual([['tags']]);
  });

  test('key order does not make a change', () => {
    expect(same({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
    expect(mergeHeader({ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1, b: 3 }).merged).toEqual({ a: 1, b: 3 });
  });

  test('unicode keys and values', () => {
    expect(mergeHeader({ 'titel-ü': 'Ä' }, { 'titel-ü': 'Ä', '標題': '新' }, { 'titel-ü': 'Ö' }).merged).toEqual({ 'titel-ü': 'Ö', '標題': '新' });
  });
});
