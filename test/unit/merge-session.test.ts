/**
 * The merge view's state without a browser: choices make the result, a hand edit holds later
 * choices back until "start again", undone clean changes put their base back, the title follows its
 * field's choice until typed in, and the resolution sent to the Host carries the chosen header.
 */
import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import type { DraftDetail } from '../../electron/contract/index';
import { MergeSession } from '../../renderer/views/sync/merge-session.svelte';

function conflicted(): DraftDetail {
  const same = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
  return {
    id: 3,
    siteId: 's1',
    route: '/blog/hello',
    lang: '',
    state: 'conflicted',
    title: 'Mine',
    problem: null,
    updatedAt: '2026-01-01T00:00:00Z',
    base: { title: 'Base', header: { title: 'Base', tag: 'a' }, content: '' },
    mine: { title: 'Mine', header: { title: 'Mine', tag: 'a', color: 'red' }, content: '' },
    theirs: { title: 'Theirs', header: { title: 'Theirs', tag: 'b' }, content: '' },
    merge: {
      text: {
        clean: false,
        eol: '\n',
        text: null,
        hunks: [
          { kind: 'same', lines: same },
          { kind: 'conflict', base: ['B'], mine: ['M'], theirs: ['T'] },
          { kind: 'theirs', base: ['old'], lines: ['new from the site'] },
        ],
      },
      header: {
        merged: { title: 'Mine', tag: 'b', color: 'red' },
        conflicts: [{ path: ['title'], base: 'Base', mine: 'Mine', theirs: 'Theirs' }],
        changes: [{ path: ['tag'], side: 'theirs', base: 'a', value: 'b' }],
      },
    },
  };
}

function session() {
  const m = new MergeSession(3);
  m.reset(conflicted());
  flushSync();
  return m;
}

const text = (mid: string, end = 'new from the site') => [...Array.from({ length: 12 }, (_, i) => `line ${i + 1}`), mid, end].join('\n');

describe('MergeSession', () => {
  it('starts from mine everywhere, with the clean changes in', () => {
    const m = session();
    expect(m.conflictCount).toBe(1);
    expect(m.fromSite).toBe(1);
    expect(m.result).toBe(text('M'));
    expect(m.title).toBe('Mine');
    expect(m.worked).toBe(false);
  });

  it('a choice puts its side in the result; Both keeps the two as blocks', () => {
    const m = session();
    m.chooseHunk(0, 'theirs');
    expect(m.result).toBe(text('T'));
    m.chooseHunk(0, 'both');
    expect(m.result).toBe(text('M\n\nT'));
    expect(m.worked).toBe(true);
  });

  it('after a hand edit, new choices wait until the person starts again from them', () => {
    const m = session();
    m.result = 'typed by hand';
    flushSync();
    m.chooseHunk(0, 'base');
    expect(m.result).toBe('typed by hand');
    expect(m.choicesWaiting).toBe(true);
    m.startAgain();
    expect(m.result).toBe(text('B'));
    expect(m.choicesWaiting).toBe(false);
  });

  it('an undone clean change puts its base back, in the text and in the header', () => {
    const m = session();
    m.keepHunk(2, false);
    expect(m.result).toBe(text('M', 'old'));
    m.keepField(['tag'], false);
    expect(m.resolution()?.header.tag).toBe('a');
  });

  it('the title follows its field choice until it is typed in', () => {
    const m = session();
    m.chooseField(['title'], 'theirs');
    expect(m.title).toBe('Theirs');
    m.title = 'My own';
    m.chooseField(['title'], 'mine');
    expect(m.title).toBe('My own');
    expect(m.resolution()).toEqual({ title: 'My own', content: text('M'), header: { title: 'My own', tag: 'b', color: 'red' } });
  });

  it('an empty title is said before anything is sent', async () => {
    const m = session();
    m.title = ' ';
    expect(m.titleError).toBe('A page needs a title.');
    expect(await m.resolve()).toBe('not_saved');
  });

  it('long unchanged runs fold to their edge next to a change, and open in full', () => {
    const m = session();
    const run = m.hunks[0]!.kind === 'same' ? m.hunks[0]!.lines : [];
    expect(m.context(0, run)).toEqual({ head: [], hidden: 9, tail: ['line 10', 'line 11', 'line 12'] });
    m.expanded[0] = true;
    expect(m.context(0, run).hidden).toBe(0);
  });
});
