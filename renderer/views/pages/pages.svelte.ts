/**
 * The Pages area's state, one instance per site (memory only, kept while the app runs so a site's
 * tree comes back as it was left): the tree's loaded levels (`pages.level`, lazily per parent),
 * which nodes are expanded, the selection (Ctrl/Shift multi-select, shared by the tree and the
 * list), the page open in the editor, the dialogs, and the write operations (move, reorder,
 * reorganize, batch) with the reloads they need afterwards. The list view's filters, sort, paging
 * and reads are its own class (`listView`, page-list.svelte.ts), which this one composes.
 *
 *   const state = pagesOf(useSite());
 *   state.rows                     the tree flattened to its visible rows (virtualised by PageTree)
 *   await state.moveInto(['/a'], '/b');
 *   const run = await state.batch('publish', routes);      // the Host splits it to the site's limit
 *   state.listView.setFilter('published', 'yes');
 */
import { SvelteSet } from 'svelte/reactivity';
import { can, writeBlockedReason, type BatchRun, type PageSummary, type SiteLanguages, type UnreadablePage } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError, errorMessage } from '../../lib/errors';
import { sessions } from '../../state/sessions.svelte';
import type { SiteScope } from '../../state/site-context.svelte';
import { ui } from '../../lib/ui.svelte';
import { Selection } from '../../lib/selection.svelte';
import { unsavedEdits } from '../editor/unsaved.svelte';
import { PageListState } from './page-list.svelte';

import { inSubtree, joinRoute, parentOf, ROOT, slugOf, topmost } from '../../../electron/common/route';

export interface ChildLevel {
  status: 'loading' | 'ready' | 'error';
  /** The children in the site's own order (kept while a reload runs, so nothing flickers). */
  items: PageSummary[];
  /** Children the site sent that could not be read, with their place in the level. */
  unreadable: UnreadablePage[];
  error: string | null;
  /** The error is the site not answering (the level is not in the offline copy), not a refusal. */
  offline?: boolean;
}

/**
 * The readable children and the unreadable ones in one sequence, each unreadable row at the place
 * the site sent it (`position` counts every row of the level).
 */
export function levelRows<P>(items: readonly P[], unreadable: readonly UnreadablePage[], offset = 0): ({ kind: 'page'; page: P } | { kind: 'unreadable'; row: UnreadablePage })[] {
  const out: ({ kind: 'page'; page: P } | { kind: 'unreadable'; row: UnreadablePage })[] = [];
  const bad = [...unreadable].sort((a, b) => a.position - b.position);
  let b = 0;
  for (const page of items) {
    while (b < bad.length && bad[b]!.position - offset <= out.length) out.push({ kind: 'unreadable', row: bad[b++]! });
    out.push({ kind: 'page', page });
  }
  while (b < bad.length) out.push({ kind: 'unreadable', row: bad[b++]! });
  return out;
}

/** What an unreadable row is called on screen: its title, else its route, else "A page". */
export const unreadableName = (u: UnreadablePage): string => u.title ?? u.route ?? 'A page';

export type TreeRow =
  | {
      kind: 'page';
      key: string;
      page: PageSummary;
      parent: string;
      level: number;
      posinset: number;
      setsize: number;
      expanded: boolean;
      loading: boolean;
    }
  | { kind: 'unreadable'; key: string; row: UnreadablePage; parent: string; level: number; posinset: number; setsize: number }
  | { kind: 'error'; key: string; parent: string; level: number; message: string; offline: boolean };

export type PagesDialog =
  | { kind: 'new'; parent: string }
  | { kind: 'copy'; route: string }
  | { kind: 'move'; routes: string[] }
  | { kind: 'delete'; route: string }
  | { kind: 'batch-copy'; routes: string[] }
  | { kind: 'batch-delete'; routes: string[] }
  | { kind: 'batch-results'; operation: string; result: BatchRun | null; error: string | null };

/** A batch as the Host ran it (split to the site's limit, the results merged). */

export type Template = { type: string; label: string };

const OPERATION_DONE: Record<string, string> = { publish: 'Published', unpublish: 'Unpublished', delete: 'Deleted', copy: 'Copied' };
export const operationLabel = (op: string) => OPERATION_DONE[op] ?? op;

export class SitePagesState {
  readonly siteId: string;

  view = $state<'tree' | 'list'>('tree');

  /** Parent route → its loaded children. Replaced, never mutated, so the flattening stays cheap. */
  levels = $state.raw<Record<string, ChildLevel>>({});
  expanded = new SvelteSet<string>();

  /** Selected routes (multi-select, shared by the tree and the list); `focus` is the tree's current row. */
  readonly selection = new Selection<string>();
  focus = $state<string | null>(null);

  /** The page in the editor. */
  open = $state<{ route: string; lang?: string } | null>(null);

  dialog = $state<PagesDialog | null>(null);

  /** A short message in the area's live region (a refused drop, a finished move…). */
  notice = $state<{ tone: 'info' | 'danger' | 'success'; text: string } | null>(null);
  #noticeTimer: ReturnType<typeof setTimeout> | null = null;

  /** True while a move / reorder / reorganize runs (the tree refuses new drops meanwhile). */
  busy = $state(false);

  /** The list view: its filters, sort, paging and the results it read. */
  readonly listView: PageListState;
  /** The oldest cached copy the current view shows (the site did not answer), or null. */
  copyFrom = $derived.by(() => {
    let oldest: string | null = null;
    const see = (t: string | undefined) => {
      if (t && (oldest === null || t < oldest)) oldest = t;
    };
    if (this.view === 'list') see(this.listView.list?.cachedAt);
    else for (const level of Object.values(this.levels)) for (const p of level.items) see(p.cachedAt);
    return oldest;
  });

  // ---- lookups for the dialogs
  templates = $state.raw<Template[] | null>(null);
  templatesError = $state<string | null>(null);
  taxonomy = $state.raw<Record<string, string[]> | null>(null);
  languages = $state.raw<SiteLanguages | null>(null);

  constructor(siteId: string) {
    this.siteId = siteId;
    this.listView = new PageListState(siteId);
  }

  /** May this account write pages (create, move, delete, batch)? */
  get canWrite(): boolean {
    return can(sessions.me(this.siteId), 'api.pages.write');
  }

  /** Why this account may not write pages (a demo account's rule, or the permission), or null. */
  get writeBlocked(): string | null {
    return writeBlockedReason(sessions.me(this.siteId), 'api.pages.write', 'This account may read pages but not change them (it lacks api.pages.write).');
  }

  /** Every page the tree or the list knows, by route. */
  readonly known: ReadonlyMap<string, PageSummary> = $derived.by(() => {
    const map = new Map<string, PageSummary>();
    for (const level of Object.values(this.levels)) for (const p of level.items) map.set(p.route, p);
    for (const p of this.listView.list?.items ?? []) if (!map.has(p.route)) map.set(p.route, p);
    return map;
  });

  /** The tree flattened to the rows on screen: every loaded child of every expanded node, depth first. */
  readonly rows: TreeRow[] = $derived.by(() => {
    const rows: TreeRow[] = [];
    const levels = this.levels;
    const expanded = this.expanded;
    const walk = (parent: string, level: number) => {
      const lv = levels[parent];
      if (!lv) return;
      const all = lv.unreadable.length ? levelRows(lv.items, lv.unreadable) : lv.items.map((page) => ({ kind: 'page' as const, page }));
      const n = all.length;
      for (let i = 0; i < n; i++) {
        const entry = all[i]!;
        if (entry.kind === 'unreadable') {
          rows.push({ kind: 'unreadable', key: `unreadable:${parent}:${entry.row.position}`, row: entry.row, parent, level, posinset: i + 1, setsize: n });
          continue;
        }
        const page = entry.page;
        const open = page.hasChildren && expanded.has(page.route);
        const child = open ? levels[page.route] : undefined;
        rows.push({ kind: 'page', key: page.route, page, parent, level, posinset: i + 1, setsize: n, expanded: open, loading: open && (!child || child.status === 'loading') });
        if (open) walk(page.route, level + 1);
      }
      if (lv.status === 'error' && parent !== ROOT) rows.push({ kind: 'error', key: `error:${parent}`, parent, level, message: lv.error ?? 'The pages could not be loaded.', offline: lv.offline === true });
    };
    walk(ROOT, 1);
    return rows;
  });

  // ------------------------------------------------------------------------------------------
  // the tree's levels

  #inflight = new Map<string, Promise<void>>();

  /** Loads (or reloads) the children of `parent`; concurrent calls share one request. */
  loadChildren(parent: string, force = false): Promise<void> {
    const running = this.#inflight.get(parent);
    if (running) return running;
    const had = this.levels[parent];
    if (had && had.status === 'ready' && !force) return Promise.resolve();
    this.#setLevel(parent, { status: 'loading', items: had?.items ?? [], unreadable: had?.unreadable ?? [], error: null });
    const job = (async () => {
      try {
        const level = await invoke('pages.level', { siteId: this.siteId, route: parent });
        this.#setLevel(parent, { status: 'ready', items: level.items, unreadable: level.unreadable ?? [], error: null });
      } catch (err) {
        const e = AppError.from(err);
        this.#setLevel(parent, { status: 'error', items: had?.items ?? [], unreadable: had?.unreadable ?? [], error: e.message, offline: e.unreachable });
      } finally {
        this.#inflight.delete(parent);
      }
    })();
    this.#inflight.set(parent, job);
    return job;
  }

  #setLevel(parent: string, level: ChildLevel) {
    this.levels = { ...this.levels, [parent]: level };
  }

  /** Reloads the given parents that the tree has loaded (and the list, when it has rows). */
  async refresh(parents: Iterable<string>): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const p of new Set(parents)) if (this.levels[p] || p === ROOT) jobs.push(this.loadChildren(p, true));
    if (this.listView.list) jobs.push(this.listView.load());
    await Promise.all(jobs);
  }

  /** Expanded rows on screen whose level is not loaded (it moved, or was dropped): load them. */
  loadMissing(): void {
    for (const row of this.rows) if (row.kind === 'page' && row.expanded && !this.levels[row.page.route]) void this.loadChildren(row.page.route);
  }

  expand(route: string): void {
    this.expanded.add(route);
    void this.loadChildren(route);
  }

  collapse(route: string): void {
    this.expanded.delete(route);
  }

  toggleExpanded(route: string): void {
    if (this.expanded.has(route)) this.collapse(route);
    else this.expand(route);
  }

  /** Expands every ancestor of `route` (loading their levels) so its row is on screen. */
  async reveal(route: string): Promise<void> {
    const chain: string[] = [];
    for (let p = parentOf(route); p !== ROOT; p = parentOf(p)) chain.unshift(p);
    await this.loadChildren(ROOT);
    for (const p of chain) {
      this.expanded.add(p);
      await this.loadChildren(p);
    }
  }

  openPage(route: string, lang?: string): void {
    this.open = lang ? { route, lang } : { route };
  }

  /** A click on a page's row (tree or list): Shift selects the range over `ordered` (adding with Ctrl/Cmd), Ctrl/Cmd toggles it, a plain click chooses it. */
  clickSelect(route: string, ordered: readonly string[], e: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void {
    if (e.shiftKey) this.selection.range(route, ordered, e.ctrlKey || e.metaKey);
    else if (e.ctrlKey || e.metaKey) this.selection.toggle(route);
    else void this.choose(route);
  }

  /** Enter on a row the site sent unreadable: what was wrong with it. */
  explain(row: UnreadablePage): void {
    this.say(`“${unreadableName(row)}” could not be read: ${row.problem}`, 'danger', 10_000);
  }

  /**
   * A click or Enter on a page: it becomes the selection and opens in the editor, once the open
   * editor (if it has unsaved text) has asked its user. Answers false when the user stayed.
   */
  async choose(route: string): Promise<boolean> {
    if (this.open && this.open.route !== route && !(await unsavedEdits.confirmLeave())) return false;
    this.selection.only(route);
    this.focus = route;
    if (this.open?.route !== route) this.openPage(route);
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // feedback

  say(text: string, tone: 'info' | 'danger' | 'success' = 'info', ms = 6000): void {
    this.notice = { tone, text };
    if (this.#noticeTimer) clearTimeout(this.#noticeTimer);
    this.#noticeTimer = setTimeout(() => (this.notice = null), ms);
  }

  /** Opens one of the area's dialogs; focus returns to `from` (default: what has focus now) when it closes. */
  showDialog(dialog: PagesDialog, from?: HTMLElement | null): void {
    ui.returnFocus = from ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
    this.dialog = dialog;
  }

  closeDialog(kind: PagesDialog['kind']): void {
    if (this.dialog?.kind === kind) this.dialog = null;
  }

  titleOf(route: string): string {
    if (route === ROOT) return 'Top level';
    return this.known.get(route)?.title || slugOf(route);
  }

  /** The parent of a page: as the site said (`parentRoute`) when the page is known, else from its route. */
  parentOfPage(route: string): string {
    return this.known.get(route)?.parentRoute ?? parentOf(route);
  }

  /** The slug the site knows a page by (reorder names children by it), else the route's last part. */
  slugOfPage(route: string): string {
    return this.known.get(route)?.slug || slugOf(route);
  }

  // ------------------------------------------------------------------------------------------
  // routes that change: everything that remembers a route follows it

  /** `old` (and everything below it) is now at `next` (or gone, when `next` is null). */
  remap(old: string, next: string | null): void {
    const map = (r: string) => (inSubtree(r, old) ? (next === null ? null : next + r.slice(old.length)) : r);
    for (const r of [...this.expanded]) {
      const m = map(r);
      if (m !== r) {
        this.expanded.delete(r);
        if (m) this.expanded.add(m);
      }
    }
    this.selection.remap((r) => map(r) || null);
    if (this.focus) this.focus = map(this.focus) ?? parentOfOrNull(old);
    if (this.open) {
      const m = map(this.open.route);
      this.open = m ? { ...this.open, route: m } : null;
    }
    // levels of the old subtree are stale: drop them (an expanded node loads again when shown)
    const levels: Record<string, ChildLevel> = {};
    for (const [k, v] of Object.entries(this.levels)) if (!inSubtree(k, old) || k === ROOT) levels[k] = v;
    this.levels = levels;
  }

  // ------------------------------------------------------------------------------------------
  // moving and reordering

  /**
   * Why `routes` cannot go into `target`, or null when they can: a page cannot go into itself or
   * below itself.
   */
  refuseInto(routes: readonly string[], target: string): string | null {
    const own = routes.find((r) => inSubtree(target, r));
    if (!own) return null;
    const what = this.titleOf(own);
    return own === target ? `“${what}” cannot be moved into itself.` : `“${what}” cannot be moved into its own subpage “${this.titleOf(target)}”.`;
  }

  /** Moves pages under `target` (the end of its children). One page: `pages.move`; several: `pages.reorganize`. */
  async moveInto(routes: readonly string[], target: string): Promise<string[]> {
    const list = topmost(routes);
    const refused = this.refuseInto(list, target);
    if (refused) {
      this.say(refused, 'danger');
      throw new AppError({ code: 'invalid_input', message: refused });
    }
    const moving = list.filter((r) => this.parentOfPage(r) !== target);
    if (moving.length === 0) {
      this.say(list.length === 1 ? `“${this.titleOf(list[0]!)}” is already there.` : 'These pages are already there.');
      return list;
    }
    return this.#run(async () => {
      const before = moving.map((r) => this.parentOfPage(r));
      const moved = await this.#relocate(moving, target);
      this.expanded.add(target);
      await Promise.all([this.refresh([...before, target, parentOf(target), ...before.map(parentOf)]), this.loadChildren(target, true)]);
      const stayed = list.filter((r) => !moving.includes(r));
      this.selection.set([...moved, ...stayed]);
      this.say(moved.length === 1 ? `Moved “${this.titleOf(moved[0]!)}” to ${this.titleOf(target)}.` : `Moved ${moved.length} pages to ${this.titleOf(target)}.`, 'success');
      return moved;
    });
  }

  /**
   * Puts pages among the children of `parent`, before the child `beforeRoute` (null = at the
   * end): moves them there first when they live elsewhere, then sends the parent's full child
   * order (`pages.reorder`; the top level, which has no reorder route, goes by reorganize positions).
   */
  async placeAmong(routes: readonly string[], parent: string, beforeRoute: string | null): Promise<void> {
    const list = topmost(routes);
    const refused = parent === ROOT ? null : this.refuseInto(list, parent);
    if (refused) {
      this.say(refused, 'danger');
      throw new AppError({ code: 'invalid_input', message: refused });
    }
    await this.#run(async () => {
      const moving = list.filter((r) => this.parentOfPage(r) !== parent);
      const before = moving.map((r) => this.parentOfPage(r));
      let placed = list;
      if (moving.length) {
        const moved = await this.#relocate(moving, parent);
        placed = list.map((r) => (moving.includes(r) ? moved[moving.indexOf(r)]! : r));
      }
      await this.loadChildren(parent, true);
      const siblings = (this.levels[parent]?.items ?? []).map((p) => p.route);
      const rest = siblings.filter((r) => !placed.includes(r));
      let at = beforeRoute ? rest.indexOf(beforeRoute) : rest.length;
      if (at < 0) at = rest.length;
      const order = [...rest.slice(0, at), ...placed, ...rest.slice(at)];
      if (order.join('\n') !== siblings.join('\n')) await this.#sendOrder(parent, order, placed);
      // the parent's level is fresh already (read above, or the reorder's answer)
      await this.refresh([...before, ...before.map(parentOf), parentOf(parent)]);
      this.selection.set(placed);
      this.say(placed.length === 1 ? `Moved “${this.titleOf(placed[0]!)}”.` : `Moved ${placed.length} pages.`, 'success');
    });
  }

  /** Alt+Up / Alt+Down: one step up or down among its siblings. Answers false at the edge. */
  async nudge(route: string, delta: -1 | 1): Promise<boolean> {
    const parent = this.parentOfPage(route);
    const siblings = (this.levels[parent]?.items ?? []).map((p) => p.route);
    const i = siblings.indexOf(route);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= siblings.length) return false;
    const order = [...siblings];
    [order[i], order[j]] = [order[j]!, order[i]!];
    await this.#run(async () => {
      await this.#sendOrder(parent, order, [route]);
      if (this.listView.list) await this.listView.load();
    });
    const now = (this.levels[parent]?.items ?? []).map((p) => p.route).indexOf(route);
    if (now === i) this.say(`The site keeps “${this.titleOf(route)}” in place: ${this.titleOf(parent)} sorts its pages itself.`);
    else this.say(`“${this.titleOf(route)}” is now ${now + 1} of ${siblings.length}.`, 'success');
    return true;
  }

  /**
   * Moves pages (none of them already under `target`) and answers their new routes, in order: the
   * Host's answer names them (a page's folder takes its slug, which its header may set apart from
   * the folder's name it had).
   */
  async #relocate(routes: string[], target: string): Promise<string[]> {
    if (routes.length === 1) {
      const r = routes[0]!;
      const { route } = await invoke('pages.move', { siteId: this.siteId, route: r, parent: target });
      this.remap(r, route);
      return [route];
    }
    // several pages: one reorganize operation each (the Host splits them to the site's limit)
    const slugs = routes.map((r) => this.slugOfPage(r));
    const rows = await invoke('pages.reorganize', { siteId: this.siteId, operations: routes.map((route) => ({ route, parent: target })) });
    const moved = slugs.map((slug) => rows.find((x) => x.parent === target && x.slug === slug)?.route ?? joinRoute(target, slug));
    routes.forEach((r, i) => this.remap(r, moved[i]!));
    return moved;
  }

  /**
   * Sends a parent's full child order (`placed`: the pages the user moved); the parent's level is
   * then as the site orders it (a reorder answers it, the top level is read again).
   */
  async #sendOrder(parent: string, order: string[], placed: readonly string[] = []): Promise<void> {
    if (parent !== ROOT) {
      const level = await invoke('pages.reorder', { siteId: this.siteId, route: parent, order: order.map((r) => this.slugOfPage(r)) });
      this.#setLevel(parent, { status: 'ready', items: level.items, unreadable: level.unreadable ?? [], error: null });
      return;
    }
    // The top level has no reorder route (it needs a parent page): positions through reorganize.
    // Only pages that already have an order, and the ones moved, get one: an unordered top-level
    // page (no number prefix) is hidden from menus on purpose, and numbering it would show it.
    const known = this.levels[ROOT]?.items ?? [];
    const ordered = order.filter((r) => placed.includes(r) || known.find((p) => p.route === r)?.order != null);
    await invoke('pages.reorganize', { siteId: this.siteId, operations: ordered.map((route, i) => ({ route, position: i + 1 })) });
    await this.loadChildren(ROOT, true);
  }

  async #run<T>(work: () => Promise<T>): Promise<T> {
    this.busy = true;
    try {
      return await work();
    } catch (err) {
      this.say(errorMessage(err), 'danger', 10_000);
      throw err;
    } finally {
      this.busy = false;
    }
  }

  // ------------------------------------------------------------------------------------------
  // single-page writes (the dialogs call these)

  async afterCreate(route: string): Promise<void> {
    const parent = parentOf(route);
    if (parent !== ROOT) this.expanded.add(parent);
    await this.refresh([parent, parentOf(parent)]);
    this.selection.only(route);
    this.focus = route;
    this.openPage(route);
  }

  async afterCopy(destination: string): Promise<void> {
    const parent = parentOf(destination);
    if (parent !== ROOT) this.expanded.add(parent);
    await this.refresh([parent, parentOf(parent)]);
    this.selection.only(destination);
    this.focus = destination;
  }

  async afterMove(old: string, next: string): Promise<void> {
    const from = this.parentOfPage(old);
    this.remap(old, next);
    const parent = parentOf(next);
    if (parent !== ROOT) this.expanded.add(parent);
    await this.refresh([from, parentOf(from), parent, parentOf(parent)]);
    this.selection.only(next);
    this.focus = next;
  }

  async afterDelete(route: string, lang: string | null): Promise<void> {
    const parent = this.parentOfPage(route);
    if (lang) {
      // one language gone: the page stays, unless that was its last file (the reload tells)
      if (this.open?.route === route && this.open.lang === lang) this.open = { route };
      await this.refresh([parent, parentOf(parent)]);
      const level = this.levels[parent];
      if (level?.status === 'ready' && !level.items.some((p) => p.route === route)) this.remap(route, null);
      return;
    }
    this.remap(route, null);
    await this.refresh([parent, parentOf(parent)]);
  }

  /** The editor saved a page: its row shows the new title and flags. */
  pageSaved(page: PageSummary): void {
    const parent = page.parentRoute ?? this.parentOfPage(page.route);
    const level = this.levels[parent];
    if (level) {
      const items = level.items.map((p) => (p.route === page.route ? { ...p, ...pick(page) } : p));
      this.#setLevel(parent, { ...level, items });
    }
    this.listView.patch(page.route, pick(page));
  }

  /** The editor moved (renamed) the open page. */
  async pageMoved(old: string, next: string): Promise<void> {
    await this.afterMove(old, next);
    this.openPage(next);
  }

  // ------------------------------------------------------------------------------------------
  // batch

  /** Runs a batch operation on any number of routes (the Host splits them to the site's limit). */
  async batch(operation: 'publish' | 'unpublish' | 'delete' | 'copy', routes: readonly string[], options?: Record<string, unknown>): Promise<BatchRun> {
    this.busy = true;
    let merged: BatchRun;
    try {
      merged = await invoke('pages.batch', { siteId: this.siteId, operation, routes: [...routes], ...(options ? { options } : {}) });
    } finally {
      this.busy = false;
    }

    const done = merged.results.filter((r) => r.status === 'success').map((r) => r.route);
    const parents = done.map(parentOf);
    if (operation === 'delete') {
      for (const r of done) this.remap(r, null);
      parents.push(...parents.map(parentOf));
    }
    if (operation === 'copy') {
      const dest = typeof options?.destination === 'string' ? options.destination : null;
      if (dest) parents.push(dest, parentOf(dest));
    }
    await this.refresh(parents);
    return merged;
  }

  // ------------------------------------------------------------------------------------------
  // lookups

  async loadTemplates(): Promise<Template[]> {
    if (this.templates) return this.templates;
    try {
      const list = await invoke('blueprints.templates', { siteId: this.siteId });
      this.templates = [...list].sort((a, b) => (a.type === 'default' ? -1 : b.type === 'default' ? 1 : a.label.localeCompare(b.label)));
      this.templatesError = null;
    } catch (err) {
      this.templatesError = errorMessage(err);
      return [];
    }
    return this.templates;
  }

  /** The site's taxonomy values (the editor's tag fields offer them); {} while the site does not answer. */
  async loadTaxonomy(): Promise<Record<string, string[]>> {
    if (this.taxonomy) return this.taxonomy;
    try {
      this.taxonomy = await invoke('pages.taxonomy', { siteId: this.siteId });
    } catch {
      return {};
    }
    return this.taxonomy;
  }

  async loadLanguages(): Promise<SiteLanguages | null> {
    if (this.languages) return this.languages;
    try {
      this.languages = await invoke('translations.siteLanguages', { siteId: this.siteId });
    } catch {
      return null;
    }
    return this.languages;
  }
}

function parentOfOrNull(route: string): string | null {
  const p = parentOf(route);
  return p === ROOT ? null : p;
}

function pick(p: PageSummary): Partial<PageSummary> {
  return { title: p.title, template: p.template, published: p.published, visible: p.visible, routable: p.routable, modified: p.modified, date: p.date };
}

/** The Pages state of a site: kept in the site's context (made on first use, kept for the session). */
export function pagesOf(ctx: SiteScope): SitePagesState {
  const siteId = ctx.id;
  return ctx.area('pages', () => new SitePagesState(siteId));
}
