/**
 * Which pages GET /pages lists and in which order, as the real Grav API plugin does it (the `real`
 * flavour). It follows getgrav/grav-plugin-api:classes/Api/Controllers/PagesController.php
 * (indexViaFlex(), indexViaDefaultSort(), matchesFilters(), isDirectChildOf(), sortPages(),
 * applyLocate()) and AbstractApiController.php getPagination() / getSorting():
 *
 *   paging       `(int)` of page and per_page as PHP reads numbers ("abc" and "" are 0, so 1
 *                page row), per_page capped at 1000 (`plugins.api.pagination.max_per_page`)
 *   published, visible, routable
 *                the page's own values (visible and routable also need it published)
 *   parent       a bare prefix of the public route: `/blog` lists /blog itself and /blog-archive
 *   children_of  the page's real parent: `/` is the top level (home itself included, its children
 *                not), any other route names the parent by its raw or its public route
 *   root         `true` lists the top level; any other value (false, a route) lists nothing
 *   sort         omitted: date, newest first; `default` with children_of: the parent's collection
 *                order from its header, else ordered folders by prefix then the rest by slug; the
 *                parent is the page whose route or raw route is children_of (`/` finds the home
 *                page); `default` alone: order ascending; `order` puts unordered pages first
 *                (PHP compares false below "01.")
 *   locate       matches the public or the raw route
 */
import { boolText, isObject } from './common';
import { searchRows, type SortField } from './list-spec';
import { realDateMs, realModifiedMs, realOrder, realPublished, realRoutable, realVisible } from './serialize-real';
import { titleOf, type LoadedPage } from './serialize';
import type { PageFiles, ContentTree, PageNode } from './page-files';

const PER_PAGE_DEFAULT = 20;
const PER_PAGE_MAX = 1000;

/** PHP's `(int)` of a query string: the leading integer, 0 when there is none. */
function phpInt(value: string): number {
  const m = /^\s*([+-]?\d+)/.exec(value);
  return m ? Number(m[1]) : 0;
}

export function realPaging(url: URL): { page: number; perPage: number } {
  const page = Math.max(1, phpInt(url.searchParams.get('page') ?? '1'));
  const raw = url.searchParams.get('per_page');
  const perPage = Math.min(PER_PAGE_MAX, Math.max(1, raw === null ? PER_PAGE_DEFAULT : phpInt(raw)));
  return { page, perPage };
}

/** `'/' . trim($value, '/')` */
const slashed = (value: string) => '/' + value.replace(/^\/+|\/+$/g, '');

/** isDirectChildOf(): the page's parent is the pages root (`/`), or has that raw or public route. */
function isDirectChildOf(store: PageFiles, node: PageNode, value: string): boolean {
  const parent = node.parent;
  if (!parent) return false;
  const wanted = slashed(value);
  if (wanted === '/') return parent.route === '/';
  return parent.route !== '/' && (wanted === parent.route || wanted === store.publicRoute(parent));
}

const FILTERS = ['published', 'template', 'routable', 'visible', 'parent', 'children_of', 'root'] as const;

function matchesFilters(store: PageFiles, p: LoadedPage, filters: [string, string][]): boolean {
  return filters.every(([name, value]) => {
    switch (name) {
      case 'published':
        return realPublished(p) === boolText(value);
      case 'template':
        return p.file.template === value;
      case 'routable':
        return realRoutable(p) === boolText(value);
      case 'visible':
        return realVisible(p) === boolText(value);
      case 'parent':
        return store.publicRoute(p.node).startsWith(slashed(value));
      case 'children_of':
        return isDirectChildOf(store, p.node, value);
      case 'root':
        return boolText(value) && isDirectChildOf(store, p.node, '/');
      default:
        return true;
    }
  });
}

type Field = Exclude<SortField, 'default'>;

/** sortPages(): PHP's comparisons per field; stable, so ties keep the listing's order. */
function sortPages(store: PageFiles, rows: LoadedPage[], field: Field, dir: string): LoadedPage[] {
  const cmp = (a: LoadedPage, b: LoadedPage): number => {
    switch (field) {
      case 'date':
        return Math.sign(realDateMs(a) - realDateMs(b));
      case 'modified':
        return Math.sign(realModifiedMs(store, a) - realModifiedMs(store, b));
      case 'title': {
        const x = titleOf(a).toLowerCase();
        const y = titleOf(b).toLowerCase();
        return x < y ? -1 : x > y ? 1 : 0;
      }
      case 'slug':
        return a.node.slug < b.node.slug ? -1 : a.node.slug > b.node.slug ? 1 : 0;
      case 'order': {
        // false (unordered) compares below any "NN." prefix; prefixes compare as numbers
        const x = realOrder(a.node);
        const y = realOrder(b.node);
        if (x === false || y === false) return x === y ? 0 : x === false ? -1 : 1;
        return Math.sign(parseInt(x, 10) - parseInt(y, 10));
      }
    }
  };
  return rows
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (dir === 'desc' ? -cmp(a.p, b.p) : cmp(a.p, b.p)) || a.i - b.i)
    .map((x) => x.p);
}

/** A dotted value of the parent's header (`content.order.by`). */
function headerValue(p: LoadedPage, path: string): unknown {
  let node: unknown = p.header;
  for (const seg of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[seg];
  }
  return node;
}

/** indexViaDefaultSort(): the parent's collection order, else folder order. */
function defaultSort(store: PageFiles, rows: LoadedPage[], all: LoadedPage[], childrenOf: string): LoadedPage[] {
  const wanted = slashed(childrenOf);
  const parent = all.filter((p) => store.publicRoute(p.node) === wanted || p.node.route === wanted).at(-1) ?? null;
  if (parent) {
    const display = headerValue(parent, 'admin.children_display_order') ?? 'collection';
    const by = display === 'collection' ? headerValue(parent, 'content.order.by') : undefined;
    if (by) {
      const field = ({ title: 'title', date: 'date', modified: 'modified', timestamp: 'modified', slug: 'slug', basename: 'slug' } as const)[String(by) as 'title'] ?? 'order';
      return sortPages(store, rows, field, String(headerValue(parent, 'content.order.dir') ?? 'asc'));
    }
  }
  const ordered = rows.filter((p) => p.node.order !== null).map((p, i) => ({ p, i }));
  ordered.sort((a, b) => a.p.node.order! - b.p.node.order! || a.i - b.i);
  const unordered = rows.filter((p) => p.node.order === null).map((p, i) => ({ p, i }));
  unordered.sort((a, b) => {
    const x = a.p.node.slug.toLowerCase();
    const y = b.p.node.slug.toLowerCase();
    return (x < y ? -1 : x > y ? 1 : 0) || a.i - b.i;
  });
  return [...ordered.map((x) => x.p), ...unordered.map((x) => x.p)];
}

/** The listed rows filtered and sorted by the query (`rows`: every page readable in the language). */
export function realSelect(store: PageFiles, _tree: ContentTree, rows: LoadedPage[], q: URLSearchParams): LoadedPage[] {
  const all = rows;
  const filters = FILTERS.filter((f) => q.has(f)).map((f) => [f, q.get(f)!] as [string, string]);
  let out = searchRows(rows, q).filter((p) => matchesFilters(store, p, filters));
  const sortParam = q.get('sort');
  let order = (q.get('order') ?? 'asc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') order = 'asc';
  let field = (sortParam || 'date') as SortField;
  const dir = sortParam ? order : 'desc';
  if (field === 'default' && q.has('children_of')) return defaultSort(store, out, all, q.get('children_of')!);
  if (field === 'default') return sortPages(store, out, 'order', 'asc');
  out = sortPages(store, out, field, dir);
  return out;
}

/** applyLocate(): where the route (public or raw) is in the sorted rows (-1: not listed). */
export function realLocate(store: PageFiles, rows: LoadedPage[], locate: string): number {
  const needle = slashed(locate);
  return rows.findIndex((p) => store.publicRoute(p.node) === needle || p.node.route === needle);
}
