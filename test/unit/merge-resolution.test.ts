/**
 * The merge view's side of a resolution (renderer/views/sync/resolution.ts) over the one shared merge
 * (electron/common/merge.ts): what it starts from (no choice yet = mine), the title and header it
 * sends, and that its answers are the shared merge's for every choice.
 */
import { describe, expect, test } from 'vitest';
import { fieldKey, mergeHeader, mergeText, resolveHeader, resolveText } from '../../electron/common/merge';
import { headerToSend, resolvedHeader, resolvedText, resolvedTitle, showValue, type HunkChoice } from '../../renderer/views/sync/resolution';

const L = (...xs: string[]) => xs.join('\n');

describe('text', () => {
  const base = L('intro', 'two', 'three', 'four', 'five', 'outro');
  const mine = L('intro', 'MINE two', 'three', 'four', 'MINE five', 'outro');
  const theirs = L('intro', 'THEIRS two', 'three', 'four', 'THEIRS five', 'outro');
  const m = mergeText(base, mine, theirs);

  test('two conflicts with context between them', () => {
    expect(m.hunks.filter((h) => h.kind === 'conflict')).toHaveLength(2);
  });

  const cases: HunkChoice[][] = [
    ['mine', 'mine'],
    ['theirs', 'base'],
    ['both', 'theirs'],
    ['base', 'both'],
  ];
  test.each(cases)('choices %s / %s give what the shared merge gives', (a, b) => {
    expect(resolvedText(m.hunks, [a, b], m.eol)).toBe(resolveText(m, [a, b]));
  });

  test('both is mine then theirs, as two paragraphs (never glued into one); CRLF texts stay CRLF', () => {
    const crlf = mergeText('a\r\nb\r\nc', 'a\r\nB1\r\nc', 'a\r\nB2\r\nc');
    expect(crlf.eol).toBe('\r\n');
    expect(resolvedText(crlf.hunks, ['both'], crlf.eol)).toBe('a\r\nB1\r\n\r\nB2\r\nc');
    expect(resolvedText(crlf.hunks, ['both'], crlf.eol)).toBe(resolveText(crlf, ['both']));
    const list = mergeText('- a\n- b', '- a\n- x', '- a\n- y');
    expect(resolvedText(list.hunks, ['both'], list.eol)).toBe('- a\n- x\n- y');
  });

  test('clean changes from the site and mine: kept, or undone to their base, as the shared merge gives it', () => {
    const b = L('# History', '', 'one', 'two', 'between', 'three', 'end');
    const mine2 = L('# History', '', 'one', 'TWO mine', 'between', 'three', 'end');
    const theirs2 = L('# Our history', '', 'one', 'two', 'between', 'THREE theirs', 'end');
    const mm = mergeText(b, mine2, theirs2);
    expect(mm.hunks.map((h) => h.kind)).toEqual(['theirs', 'same', 'mine', 'same', 'theirs', 'same']);
    for (const undone of [new Set<number>(), new Set([0]), new Set([2, 4]), new Set([0, 2, 4])]) {
      expect(resolvedText(mm.hunks, [], mm.eol, undone)).toBe(resolveText(mm, [], undone));
    }
    expect(resolvedText(mm.hunks, [], mm.eol, new Set([0, 2, 4]))).toBe(b);
  });

  test('a missing choice counts as mine (the view starts there)', () => {
    expect(resolvedText(m.hunks, [], m.eol)).toBe(mine);
  });
});

describe('header', () => {
  const base = { title: 'T', menu: 'Base', taxonomy: { tag: ['a'] }, gone: 1 };
  const mine = { title: 'T mine', menu: 'Mine', taxonomy: { tag: ['a', 'm'] } };
  const theirs = { title: 'T theirs', menu: 'Theirs', taxonomy: { tag: ['a', 't'] }, gone: 2 };
  const h = mergeHeader(base, mine, theirs);

  test('each field choice gives what the shared merge gives, nested paths and removals included', () => {
    expect(h.conflicts.map((c) => c.path.join('/')).sort()).toEqual(['gone', 'menu', 'taxonomy/tag', 'title']);
    const choices = { [fieldKey(['title'])]: 'theirs', [fieldKey(['menu'])]: 'mine', [fieldKey(['taxonomy', 'tag'])]: 'theirs', [fieldKey(['gone'])]: 'mine' } as const;
    const ours = resolvedHeader(h.merged, h.conflicts, choices);
    expect(ours).toEqual(resolveHeader(h, choices));
    expect(ours).not.toHaveProperty('gone'); // mine removed it
    expect(ours.taxonomy).toEqual({ tag: ['a', 't'] });
  });

  test('the title comes from its choice and travels in the header only where mine had one', () => {
    const merge = { text: mergeText('', '', ''), header: h };
    expect(resolvedTitle(merge, { [fieldKey(['title'])]: 'theirs' }, 'fallback')).toBe('T theirs');
    expect(resolvedTitle(merge, {}, 'fallback')).toBe('T mine');
    const resolved = resolvedHeader(h.merged, h.conflicts, { [fieldKey(['title'])]: 'theirs' });
    expect(headerToSend(resolved, { menu: 'x' }, 'Typed')).not.toHaveProperty('title');
    expect(headerToSend(resolved, { title: 'x' }, 'Typed').title).toBe('Typed');
  });

  test('a clean change undone gives what the shared merge gives, the title included', () => {
    const c = mergeHeader({ title: 'T', menu: 'Old', extra: 1 }, { title: 'T', menu: 'Old', extra: 1, mine: true }, { title: 'T site', extra: 1 });
    const undone = new Set([fieldKey(['title']), fieldKey(['menu'])]);
    expect(resolvedHeader(c.merged, c.conflicts, {}, c.changes, undone)).toEqual(resolveHeader(c, {}, undone));
    const merge = { text: mergeText('', '', ''), header: c };
    expect(resolvedTitle(merge, {}, 'fallback')).toBe('T site');
    expect(resolvedTitle(merge, {}, 'fallback', undone)).toBe('T');
  });

  test('values read plainly', () => {
    expect(showValue(undefined)).toBe('(not set)');
    expect(showValue(['a', 'b'])).toBe('["a","b"]');
    expect(showValue(true)).toBe('true');
  });
});
