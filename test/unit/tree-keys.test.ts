/** The page tree's and the page list's keyboard maps, type-ahead and drop zones (renderer/views/pages/tree-keys.ts). */
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../electron/common/route';
import type { PageSummary } from '../../electron/contract/index';
import type { TreeRow } from '../../renderer/views/pages/pages.svelte';
import { dropVerdict, dropZone, listKeyAction, nextSiblingAfter, treeKeyAction, typeAheadMatch, type KeyPress, type KeyRow } from '../../renderer/views/pages/tree-keys';

const summary = (route: string, title: string, hasChildren = false): PageSummary =>
  ({ route, slug: route.split('/').pop()!, title, hasChildren, published: true, visible: true, routable: true }) as PageSummary;

type PageRow = Extract<TreeRow, { kind: 'page' }>;
const pageRow = (route: string, title: string, parent: string, level: number, opts: { hasChildren?: boolean; expanded?: boolean } = {}): PageRow => ({
  kind: 'page',
  key: route,
  page: summary(route, title, opts.hasChildren ?? false),
  parent,
  level,
  posinset: 1,
  setsize: 1,
  expanded: opts.expanded ?? false,
  loading: false,
});

// /blog (open) > /blog/one, /blog/two ; /about (closed folder) ; an unreadable row ; /contact
const rows: TreeRow[] = [
  pageRow('/blog', 'Blog', ROOT, 1, { hasChildren: true, expanded: true }),
  pageRow('/blog/one', 'One', '/blog', 2),
  pageRow('/blog/two', 'Two', '/blog', 2),
  pageRow('/about', 'About', ROOT, 1, { hasChildren: true }),
  { kind: 'unreadable', key: 'unreadable::3', row: { route: '/broken', title: null, position: 3, problem: 'no title' } as never, parent: ROOT, level: 1, posinset: 4, setsize: 5 },
  pageRow('/contact', 'Contact', ROOT, 1),
];

const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });
const rw = { canWrite: true, busy: false };
const ro = { canWrite: false, busy: false };

describe('treeKeyAction', () => {
  test('Up and Down move and select; Shift extends, Ctrl moves without selecting; the ends stay put', () => {
    expect(treeKeyAction(key('ArrowDown'), rows, 0, rw)).toEqual({ kind: 'focus', index: 1, select: 'only' });
    expect(treeKeyAction(key('ArrowUp', { shiftKey: true }), rows, 2, rw)).toEqual({ kind: 'focus', index: 1, select: 'range' });
    expect(treeKeyAction(key('ArrowDown', { ctrlKey: true }), rows, 2, rw)).toEqual({ kind: 'focus', index: 3, select: 'none' });
    expect(treeKeyAction(key('ArrowUp'), rows, 0, rw)).toEqual({ kind: 'none' });
    expect(treeKeyAction(key('ArrowDown'), rows, rows.length - 1, rw)).toEqual({ kind: 'none' });
    expect(treeKeyAction(key('Home'), rows, 3, rw)).toEqual({ kind: 'focus', index: 0, select: 'only' });
    expect(treeKeyAction(key('End'), rows, 0, rw)).toEqual({ kind: 'focus', index: rows.length - 1, select: 'only' });
  });

  test('Alt+Up/Down moves the page among its siblings only with write access and when idle', () => {
    expect(treeKeyAction(key('ArrowUp', { altKey: true }), rows, 2, rw)).toEqual({ kind: 'nudge', route: '/blog/two', delta: -1 });
    expect(treeKeyAction(key('ArrowDown', { altKey: true }), rows, 2, ro)).toEqual({ kind: 'none' });
    expect(treeKeyAction(key('ArrowDown', { altKey: true }), rows, 2, { canWrite: true, busy: true })).toEqual({ kind: 'none' });
    expect(treeKeyAction(key('ArrowDown', { altKey: true }), rows, 4, rw)).toEqual({ kind: 'none' });
  });

  test('Right opens a closed node, then goes to its first child; Left closes, then goes to the parent', () => {
    expect(treeKeyAction(key('ArrowRight'), rows, 3, rw)).toEqual({ kind: 'expand', routes: ['/about'] });
    expect(treeKeyAction(key('ArrowRight'), rows, 0, rw)).toEqual({ kind: 'focus', index: 1, select: 'only' });
    expect(treeKeyAction(key('ArrowRight'), rows, 1, rw)).toEqual({ kind: 'none' });
    expect(treeKeyAction(key('ArrowLeft'), rows, 0, rw)).toEqual({ kind: 'collapse', route: '/blog' });
    expect(treeKeyAction(key('ArrowLeft'), rows, 2, rw)).toEqual({ kind: 'focus', index: 0, select: 'only' });
    expect(treeKeyAction(key('ArrowLeft'), rows, 5, rw)).toEqual({ kind: 'none' });
  });

  test('* opens every closed folder of the level', () => {
    expect(treeKeyAction(key('*'), rows, 5, rw)).toEqual({ kind: 'expand', routes: ['/about'] });
  });

  test('Enter opens a page, repeats an unreadable row\'s reason, retries a failed level', () => {
    expect(treeKeyAction(key('Enter'), rows, 1, rw)).toEqual({ kind: 'open', route: '/blog/one' });
    expect(treeKeyAction(key('Enter'), rows, 4, rw)).toMatchObject({ kind: 'explain', row: { route: '/broken', problem: 'no title' } });
    const failed: TreeRow[] = [{ kind: 'error', key: 'error:/blog', parent: '/blog', level: 2, message: 'down', offline: false }];
    expect(treeKeyAction(key('Enter'), failed, 0, rw)).toEqual({ kind: 'retry', parent: '/blog' });
  });

  test('Space toggles, Shift+Space extends, Ctrl+A selects all; nothing selects an unreadable row', () => {
    expect(treeKeyAction(key(' '), rows, 1, rw)).toEqual({ kind: 'toggle', route: '/blog/one' });
    expect(treeKeyAction(key(' ', { shiftKey: true, ctrlKey: true }), rows, 1, rw)).toEqual({ kind: 'select-range', route: '/blog/one', add: true });
    expect(treeKeyAction(key(' '), rows, 4, rw)).toEqual({ kind: 'none' });
    expect(treeKeyAction(key('a', { ctrlKey: true }), rows, 1, rw)).toEqual({ kind: 'select-all' });
    expect(treeKeyAction(key('A', { metaKey: true }), rows, 1, rw)).toEqual({ kind: 'select-all' });
  });

  test('Delete asks to delete only with write access; other keys are left to the browser', () => {
    expect(treeKeyAction(key('Delete'), rows, 1, rw)).toEqual({ kind: 'delete', route: '/blog/one' });
    expect(treeKeyAction(key('Delete'), rows, 1, ro)).toBeNull();
    expect(treeKeyAction(key('Delete'), rows, 4, rw)).toBeNull();
    expect(treeKeyAction(key('Tab'), rows, 1, rw)).toBeNull();
    expect(treeKeyAction(key('c', { altKey: true }), rows, 1, rw)).toBeNull();
    expect(treeKeyAction(key('c'), rows, 1, rw)).toEqual({ kind: 'type', ch: 'c' });
  });
});

describe('typeAheadMatch', () => {
  test('a first letter looks past the current row and wraps; more letters refine from it', () => {
    expect(typeAheadMatch(rows, 'c', 0)).toBe(5);
    expect(typeAheadMatch(rows, 'b', 0)).toBe(0); // wraps round to itself
    expect(typeAheadMatch(rows, 'a', 5)).toBe(3);
    expect(typeAheadMatch(rows, 'tw', 2)).toBe(2);
    expect(typeAheadMatch(rows, 'zz', 0)).toBe(-1);
  });
});

describe('drop zones', () => {
  const closed = rows[3] as PageRow;
  const open = rows[0] as PageRow;

  test('top quarter before, bottom quarter after, the middle into; after an open node means into', () => {
    expect(dropZone(2, 28, closed)).toBe('before');
    expect(dropZone(14, 28, closed)).toBe('into');
    expect(dropZone(26, 28, closed)).toBe('after');
    expect(dropZone(26, 28, open)).toBe('into');
  });

  test('the verdict asks about the target parent (never the root) and refuses a page into itself', () => {
    const asked: string[] = [];
    const refuse = (_routes: string[], target: string) => {
      asked.push(target);
      return target === '/blog/one' ? 'A page cannot go into itself or a page below it.' : null;
    };
    expect(dropVerdict(['/contact'], closed, 'into', refuse)).toEqual({ ok: true, reason: null });
    expect(dropVerdict(['/contact'], closed, 'before', refuse)).toEqual({ ok: true, reason: null });
    expect(dropVerdict(['/about'], closed, 'into', refuse)).toEqual({ ok: false, reason: null });
    expect(dropVerdict(['/blog'], rows[1] as PageRow, 'into', refuse)).toEqual({ ok: false, reason: 'A page cannot go into itself or a page below it.' });
    expect(asked).toEqual(['/about', '/about', '/blog/one']);
  });

  test('dropped after a page, the moved pages go before the next sibling that is not moving', () => {
    const siblings = ['/a', '/b', '/c', '/d'].map((r) => summary(r, r));
    expect(nextSiblingAfter(siblings, '/a', ['/b'])).toBe('/c');
    expect(nextSiblingAfter(siblings, '/b', [])).toBe('/c');
    expect(nextSiblingAfter(siblings, '/c', ['/d'])).toBeNull();
  });
});

describe('listKeyAction (the list view: the tree\'s selection keys, flat, with PageUp/PageDown)', () => {
  const list: KeyRow[] = [
    { kind: 'page', page: summary('/a', 'A') },
    { kind: 'unreadable', row: { route: '/bad', title: null, position: 1, problem: 'order: not a number' } },
    { kind: 'page', page: summary('/c', 'C') },
    { kind: 'page', page: summary('/d', 'D') },
  ];
  const at = (k: KeyPress, i: number, opts: { canWrite: boolean; busy: boolean; pageStep?: number } = rw) => listKeyAction(k, list[i], i, list.length, opts);

  test('moves like the tree, selecting as Shift and Ctrl say; PageUp/PageDown go a page of rows, clamped', () => {
    expect(at(key('ArrowDown'), 0)).toEqual({ kind: 'focus', index: 1, select: 'only' });
    expect(at(key('ArrowUp', { shiftKey: true }), 2)).toEqual({ kind: 'focus', index: 1, select: 'range' });
    expect(at(key('ArrowDown'), 3)).toEqual({ kind: 'none' });
    expect(at(key('End', { ctrlKey: true }), 0)).toEqual({ kind: 'focus', index: 3, select: 'none' });
    expect(at(key('PageDown'), 0, { ...rw, pageStep: 10 })).toEqual({ kind: 'focus', index: 3, select: 'only' });
    expect(at(key('PageUp'), 3, { ...rw, pageStep: 2 })).toEqual({ kind: 'focus', index: 1, select: 'only' });
  });

  test('Enter opens a page or explains an unreadable row; Space, Delete and Ctrl+A select or ask; letters are the browser\'s', () => {
    expect(at(key('Enter'), 0)).toEqual({ kind: 'open', route: '/a' });
    expect(at(key('Enter'), 1)).toMatchObject({ kind: 'explain', row: { route: '/bad' } });
    expect(at(key(' '), 2)).toEqual({ kind: 'toggle', route: '/c' });
    expect(at(key(' ', { shiftKey: true, ctrlKey: true }), 2)).toEqual({ kind: 'select-range', route: '/c', add: true });
    expect(at(key('Delete'), 2)).toEqual({ kind: 'delete', route: '/c' });
    expect(at(key('Delete'), 2, ro)).toBeNull();
    expect(at(key('a', { metaKey: true }), 0)).toEqual({ kind: 'select-all' });
    expect(at(key('c'), 0)).toBeNull();
  });
});
