/**
 * Which pages GET /pages lists and in which order, as the documents describe it (the `spec`
 * flavour; the real service's rules are in list-real.ts): the filters published, visible,
 * routable, template, parent (descendants, the parent itself excluded), children_of (direct
 * children by route), root (top level, or a subtree for a route); the sort fields; paging clamped
 * to 1–100. Search over title, slug, route and markdown is shared by both flavours.
 */
import { boolText, isBoolText, isObject } from './common';
import { dateMs, published, routable, titleOf, tryLoad, visible, type LoadedPage } from './serialize';
import { inSubtree, nativeOrder, normalizeRoute, parentRoute, type PageFiles, type ContentTree } from './page-files';

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;
export const SORTS = ['date', 'title', 'slug', 'modified', 'order', 'default'] as const;
export type SortField = (typeof SORTS)[number];

/** `page` / `per_page` as the documents allow them: bad or small values clamp, never fail. */
export function specPaging(url: URL): { page: number; perPage: number } {
  const page = Math.max(1, Math.trunc(Number(url.searchParams.get('page') ?? 1)) || 1);
  const raw = url.searchParams.get('per_page');
  const n = raw === null || raw.trim() === '' ? PER_PAGE_DEFAULT : Math.trunc(Number(raw));
  const perPage = Number.isNaN(n) ? PER_PAGE_DEFAULT : Math.min(PER_PAGE_MAX, Math.max(1, n));
  return { page, perPage };
}

/** Full text over title, slug, route and markdown, case-insensitive (both flavours). */
export function searchRows(rows: LoadedPage[], q: URLSearchParams): LoadedPage[] {
  const search = q.get('search');
  if (search === null || search.trim() === '') return rows;
  // the real service needs its indexed backend for this; the sandbox always has it
  const needle = search.trim().toLowerCase();
  return rows.filter((p) => [titleOf(p), p.node.slug, p.node.route, p.content].some((t) => t.toLowerCase().includes(needle)));
}

/** The listed rows filtered and sorted by the query (`rows`: every page readable in the language). */
export function specSelect(store: PageFiles, tree: ContentTree, rows: LoadedPage[], q: URLSearchParams, lang: string | null): LoadedPage[] {
  const boolFilter = (name: string, test: (p: LoadedPage) => boolean) => {
    const v = q.get(name);
    if (v !== null) rows = rows.filter((p) => test(p) === boolText(v));
  };
  boolFilter('published', published);
  boolFilter('visible', visible);
  boolFilter('routable', routable);
  const template = q.get('template');
  if (template !== null) rows = rows.filter((p) => p.file.template === template);
  const parent = q.get('parent');
  // spec: "descendants whose route starts with it" (the parent itself is not its own descendant)
  if (parent !== null) {
    const pr = normalizeRoute(parent);
    rows = rows.filter((p) => p.node.route !== pr && inSubtree(p.node.route, pr));
  }
  const childrenOf = q.get('children_of');
  if (childrenOf !== null) {
    const pr = normalizeRoute(childrenOf);
    rows = rows.filter((p) => parentRoute(p.node.route) === pr);
  }
  const root = q.get('root');
  if (root !== null) {
    // The spec calls `root` a subtree root; the OpenAPI and the real service treat it as a
    // boolean "top-level pages only". Both: a boolean-looking value filters to top-level pages
    // (or nothing, when false); a route keeps that page and everything below it.
    if (isBoolText(root)) {
      if (boolText(root)) rows = rows.filter((p) => parentRoute(p.node.route) === '/');
    } else {
      const rr = normalizeRoute(root);
      rows = rows.filter((p) => inSubtree(p.node.route, rr));
    }
  }
  rows = searchRows(rows, q);

  // sort: omitted = date, newest first (real service); `default` with children_of = native order
  // (or the parent's collection order from its header), `default` alone = order ascending
  const sortParam = q.get('sort') as SortField | null;
  const orderParam = (q.get('order') ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
  let field: SortField = sortParam || 'date';
  let dir: 'asc' | 'desc' = sortParam ? orderParam : 'desc';
  if (field === 'default' && childrenOf !== null) {
    const parentNode = tree.byRoute.get(normalizeRoute(childrenOf));
    const by = collectionOrder(parentNode ? tryLoad(store, parentNode, lang) : null);
    if (by) {
      field = by.field;
      dir = by.dir;
    } else rows.sort((a, b) => nativeOrder(a.node, b.node));
  } else if (field === 'default') {
    field = 'order';
    dir = 'asc';
  }
  if (field !== 'default') sortRows(rows, field, dir);
  return rows;
}

/** Where a `locate` route is in the sorted rows (-1: not listed). */
export function specLocate(rows: LoadedPage[], locate: string): number {
  return rows.findIndex((p) => p.node.route === normalizeRoute(locate));
}

/** The parent's collection order (`content.order.by/dir` in its header), when it sets one. */
function collectionOrder(parent: LoadedPage | null): { field: Exclude<SortField, 'default'>; dir: 'asc' | 'desc' } | null {
  if (!parent) return null;
  const admin = parent.header.admin;
  if (isObject(admin) && admin.children_display_order !== undefined && admin.children_display_order !== 'collection') return null;
  const content = parent.header.content;
  const order = isObject(content) ? content.order : undefined;
  const by = isObject(order) ? order.by : undefined;
  if (typeof by !== 'string' || by === '') return null;
  const field = ({ title: 'title', date: 'date', modified: 'modified', timestamp: 'modified', slug: 'slug', basename: 'slug' } as const)[by as 'title'] ?? 'order';
  const dir = isObject(order) && String(order.dir).toLowerCase() === 'desc' ? 'desc' : 'asc';
  return { field, dir };
}

/** Sorts in place, stable: ties keep the incoming (native) order in either direction. */
function sortRows(rows: LoadedPage[], field: Exclude<SortField, 'default'>, dir: 'asc' | 'desc'): void {
  const key = (p: LoadedPage): number | string => {
    switch (field) {
      case 'date':
        return dateMs(p);
      case 'modified':
        return p.mtimeMs;
      case 'title':
        return titleOf(p).toLowerCase();
      case 'slug':
        return p.node.slug;
      case 'order':
        return p.node.order ?? Number.MAX_SAFE_INTEGER;
    }
  };
  const keyed = rows.map((p, i) => ({ p, i, k: key(p) }));
  keyed.sort((a, b) => {
    const c = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return (dir === 'desc' ? -c : c) || a.i - b.i;
  });
  keyed.forEach((x, i) => (rows[i] = x.p));
}
