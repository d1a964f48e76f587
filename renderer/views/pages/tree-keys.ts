/**
 * What a key pressed on a row of the page tree or the page list means, and where a dragged page
 * would land: the keyboard maps (the list's selection keys, which the tree shares, plus the ARIA
 * tree pattern, Alt+Up/Down and type-ahead for the tree) and the tree's drop zones as pure
 * functions of the rows, so they are tested without a DOM. PageTree and PageList carry the answers
 * out on the Pages state.
 */
import { ROOT } from '../../../electron/common/route';
import type { PageSummary, UnreadablePage } from '../../../electron/contract/index';
import type { SitePagesState, TreeRow } from './pages.svelte';

export type SelectMode = 'only' | 'range' | 'none';

/** The parts of a keyboard event the map reads. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** What the tree does for a key (null: the key is not the tree's, the browser keeps it). */
export type TreeKeyAction =
  | { kind: 'focus'; index: number; select: SelectMode }
  | { kind: 'nudge'; route: string; delta: -1 | 1 }
  | { kind: 'expand'; routes: string[] }
  | { kind: 'collapse'; route: string }
  | { kind: 'retry'; parent: string }
  | { kind: 'explain'; row: UnreadablePage }
  | { kind: 'open'; route: string }
  | { kind: 'toggle'; route: string }
  | { kind: 'select-range'; route: string; add: boolean }
  | { kind: 'delete'; route: string }
  | { kind: 'select-all' }
  | { kind: 'type'; ch: string }
  /** the key is the tree's (its default is prevented) but does nothing here */
  | { kind: 'none' };

export interface TreeKeyOptions {
  canWrite: boolean;
  busy: boolean;
}

/** A row of the page list (or the tree) as the selection keys see it: a page, or one the site sent unreadable. */
export type KeyRow = { kind: 'page'; page: PageSummary } | { kind: 'unreadable'; row: UnreadablePage } | { kind: 'error' };

/**
 * The keys the list and the tree share, for `e` on row `index` of `count`: Up/Down/Home/End (and
 * PageUp/PageDown by `pageStep`, when given) move, selecting as Shift and Ctrl say; Enter opens or
 * explains; Space toggles or extends; Delete asks; Ctrl+A selects all.
 */
export function listKeyAction(e: KeyPress, row: KeyRow | undefined, index: number, count: number, opts: TreeKeyOptions & { pageStep?: number }): TreeKeyAction | null {
  if (!row) return null;
  const mod = e.ctrlKey || e.metaKey;
  const page = row.kind === 'page' ? row.page : null;
  const select: SelectMode = e.shiftKey ? 'range' : mod ? 'none' : 'only';
  const none = { kind: 'none' } as const;
  const to = (i: number) => ({ kind: 'focus', index: Math.min(count - 1, Math.max(0, i)), select }) as const;
  switch (e.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const next = index + (e.key === 'ArrowDown' ? 1 : -1);
      return next >= 0 && next < count ? to(next) : none;
    }
    case 'PageDown':
    case 'PageUp':
      return opts.pageStep ? to(index + (e.key === 'PageDown' ? opts.pageStep : -opts.pageStep)) : null;
    case 'Home':
      return to(0);
    case 'End':
      return to(count - 1);
    case 'Enter':
      if (row.kind === 'unreadable') return { kind: 'explain', row: row.row };
      return page ? { kind: 'open', route: page.route } : none;
    case ' ':
      if (!page) return none;
      return e.shiftKey ? { kind: 'select-range', route: page.route, add: mod } : { kind: 'toggle', route: page.route };
    case 'Delete':
      return page && opts.canWrite ? { kind: 'delete', route: page.route } : null;
    default:
      if (mod && !e.altKey && e.key.toLowerCase() === 'a') return { kind: 'select-all' };
      return null;
  }
}

/** The action for `e` pressed on row `index` of the tree's `rows`: the tree's own keys, else the shared ones. */
export function treeKeyAction(e: KeyPress, rows: readonly TreeRow[], index: number, opts: TreeKeyOptions): TreeKeyAction | null {
  const row = rows[index];
  if (!row) return null;
  const mod = e.ctrlKey || e.metaKey;
  const page = row.kind === 'page' ? row.page : null;
  const none = { kind: 'none' } as const;
  switch (e.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const delta = e.key === 'ArrowDown' ? 1 : -1;
      if (e.altKey) return page && opts.canWrite && !opts.busy ? { kind: 'nudge', route: page.route, delta } : none;
      return listKeyAction(e, row, index, rows.length, opts);
    }
    case 'ArrowRight':
      if (row.kind !== 'page' || !row.page.hasChildren) return none;
      if (!row.expanded) return { kind: 'expand', routes: [row.page.route] };
      return rows[index + 1] && rows[index + 1]!.level > row.level ? { kind: 'focus', index: index + 1, select: 'only' } : none;
    case '*': {
      // the tree pattern's "expand all siblings": every folder at this level opens
      const routes = rows.flatMap((r) => (r.kind === 'page' && r.parent === row.parent && r.page.hasChildren && !r.expanded ? [r.page.route] : []));
      return { kind: 'expand', routes };
    }
    case 'ArrowLeft': {
      if (row.kind === 'page' && row.expanded) return { kind: 'collapse', route: row.page.route };
      if (row.parent === ROOT) return none;
      const p = rows.findIndex((r) => r.key === row.parent);
      return p >= 0 ? { kind: 'focus', index: p, select: 'only' } : none;
    }
    case 'Enter':
      if (row.kind === 'error') return { kind: 'retry', parent: row.parent };
      return listKeyAction(e, row, index, rows.length, opts);
    case 'PageDown':
    case 'PageUp':
      return null;
    default:
      if (e.key.length === 1 && !mod && !e.altKey && e.key !== ' ') return { kind: 'type', ch: e.key };
      return listKeyAction(e, row, index, rows.length, opts);
  }
}

/**
 * The row type-ahead lands on: the next page (from `from`, wrapping) whose title (or slug) starts
 * with `typed`. A first letter looks past the current row, so pressing it again goes on to the next.
 */
export function typeAheadMatch(rows: readonly TreeRow[], typed: string, from: number): number {
  const n = rows.length;
  const start = typed.length === 1 ? from + 1 : from;
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    const r = rows[i];
    if (r?.kind === 'page' && (r.page.title || r.page.slug).toLowerCase().startsWith(typed)) return i;
  }
  return -1;
}

export type DropZone = 'before' | 'after' | 'into';

/**
 * Where the pointer at `y` (from the row's top, row `height` high) drops: the top quarter before
 * the row, the bottom quarter after it, the middle into it. Below an open node its first child
 * follows, so "after" there means "into, first".
 */
export function dropZone(y: number, height: number, row: TreeRow): DropZone {
  const zone: DropZone = y < height * 0.25 ? 'before' : y > height * 0.75 ? 'after' : 'into';
  if (zone === 'after' && row.kind === 'page' && row.expanded) return 'into';
  return zone;
}

/**
 * Whether `dragging` may drop on `row` in `zone`: the reason `refuseInto` gives for the target
 * parent (null when it may), and ok (no reason, and not a page dropped into itself).
 */
export function dropVerdict(
  dragging: readonly string[],
  row: Extract<TreeRow, { kind: 'page' }>,
  zone: DropZone,
  refuseInto: (routes: string[], target: string) => string | null,
): { ok: boolean; reason: string | null } {
  const target = zone === 'into' ? row.page.route : row.parent;
  const reason = target === ROOT ? null : refuseInto([...dragging], target);
  const ok = reason === null && !(zone === 'into' && dragging.length === 1 && dragging[0] === row.page.route);
  return { ok, reason };
}

/**
 * The sibling the dragged pages go before when dropped after `route`: the next sibling that is not
 * itself being moved, or null (the end of the level).
 */
export function nextSiblingAfter(siblings: readonly PageSummary[], route: string, moving: readonly string[]): string | null {
  const at = siblings.findIndex((p) => p.route === route);
  return siblings.slice(at + 1).find((p) => !moving.includes(p.route))?.route ?? null;
}

/**
 * Carries out on the site's pages a key action the list and the tree share: open, explain, the
 * selection's toggle, range and all, and Delete (the selection's batch when the row is in it).
 * `ordered`: the page routes in view, in order. False for an action that is the view's own
 * (focus, and the tree's expand, collapse, nudge, retry and type-ahead).
 */
export function doSharedKey(pages: SitePagesState, action: TreeKeyAction, ordered: readonly string[]): boolean {
  switch (action.kind) {
    case 'explain':
      pages.explain(action.row);
      return true;
    case 'open':
      void pages.choose(action.route);
      return true;
    case 'toggle':
      pages.selection.toggle(action.route);
      return true;
    case 'select-range':
      pages.selection.range(action.route, ordered, action.add);
      return true;
    case 'select-all':
      pages.selection.set(ordered);
      return true;
    case 'delete':
      if (pages.selection.size > 1 && pages.selection.has(action.route)) pages.showDialog({ kind: 'batch-delete', routes: pages.selection.list });
      else pages.showDialog({ kind: 'delete', route: action.route });
      return true;
    default:
      return false;
  }
}
