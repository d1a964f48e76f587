/**
 * The Pages area's list view, one per site (the site's `SitePagesState` holds it as `listView`):
 * its filters, sort and paging, the page of results the site last sent and how reading it went. A
 * site that cannot search is listed without it by the Host (`searchUnavailable`), and the search
 * field says so from then on. While the list is shown (`follow`), a change of filters reads it again:
 * typed ones (search, parent) after a pause, the rest at once. Kept apart from the tree so each
 * file holds one concern; tested in test/unit/page-list.test.ts.
 *
 *   const view = pagesOf(useSite()).listView;
 *   const stop = view.follow();            // reads now, and after every change of filters
 *   view.setFilter('published', 'yes');   // back to page 1
 */
import { untrack } from 'svelte';
import type { PageList, PageSummary } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { errorMessage } from '../../lib/errors';
import { normaliseRoute, ROOT } from '../../../electron/common/route';

export type Tri = 'any' | 'yes' | 'no';
export type SortField = 'title' | 'slug' | 'date' | 'modified' | 'order';

export interface ListFilters {
  search: string;
  published: Tri;
  visible: Tri;
  routable: Tri;
  template: string;
  parent: string;
  sort: SortField;
  order: 'asc' | 'desc';
  page: number;
  perPage: 50 | 100;
}

export const DEFAULT_FILTERS: ListFilters = {
  search: '',
  published: 'any',
  visible: 'any',
  routable: 'any',
  template: '',
  parent: '',
  sort: 'title',
  order: 'asc',
  page: 1,
  perPage: 50,
};

/** How long typing in the search or parent field pauses before the list is read again. */
export const TYPED_DELAY_MS = 300;

/** Whether any filter narrows the list (the page size is no filter). */
export const filtersActive = (f: ListFilters): boolean =>
  f.search.trim() !== '' || f.published !== 'any' || f.visible !== 'any' || f.routable !== 'any' || f.template !== '' || f.parent.trim() !== '';

export class PageListState {
  readonly siteId: string;
  filters = $state<ListFilters>({ ...DEFAULT_FILTERS });
  /** The page of results on screen (kept while the next one loads, so nothing flickers). */
  list = $state.raw<PageList | null>(null);
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle');
  error = $state<string | null>(null);
  /** The site answered an error for `search` while the same query without it worked. */
  searchUnavailable = $state(false);
  /** Each read's number: an answer older than the last read started is dropped. */
  #seq = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  /** Whether any filter narrows the list. */
  get filtered(): boolean {
    return filtersActive(this.filters);
  }

  /**
   * Reads the list now and again after every change of filters (typed ones after a pause, so a
   * word is not a request per letter); the returned function stops following.
   */
  follow(): () => void {
    let timer: ReturnType<typeof setTimeout> | null = null;
    // read untracked: a caller inside an effect must not re-run on every filter change
    let lastTyped = untrack(() => `${this.filters.search}\n${this.filters.parent}`);
    const stop = $effect.root(() => {
      $effect(() => {
        const { search, parent, ...rest } = this.filters;
        const typed = `${search}\n${parent}`;
        void JSON.stringify(rest);
        untrack(() => {
          if (timer) clearTimeout(timer);
          const wait = typed !== lastTyped && this.list !== null;
          lastTyped = typed;
          if (wait) timer = setTimeout(() => void this.load(), TYPED_DELAY_MS);
          else void this.load();
        });
      });
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }

  /** Loads the list for the current filters (without the search once the Host said the site has none). */
  async load(): Promise<void> {
    const seq = ++this.#seq;
    const f = this.filters;
    const query = {
      siteId: this.siteId,
      page: f.page,
      perPage: f.perPage,
      sort: f.sort,
      order: f.order,
      ...(f.published !== 'any' ? { published: f.published === 'yes' } : {}),
      ...(f.visible !== 'any' ? { visible: f.visible === 'yes' } : {}),
      ...(f.routable !== 'any' ? { routable: f.routable === 'yes' } : {}),
      ...(f.template ? { template: f.template } : {}),
      ...(f.parent.trim() && f.parent.trim() !== ROOT ? { parent: normaliseRoute(f.parent) } : {}),
    };
    const search = this.searchUnavailable ? '' : f.search.trim();
    this.status = 'loading';
    try {
      // a site that cannot search: the Host lists without it and says so
      const result = await invoke('pages.list', search ? { ...query, search } : query);
      if (seq !== this.#seq) return;
      if (result.searchUnavailable) this.searchUnavailable = true;
      // a page past the end (after a delete, a narrower filter): show the last one
      const last = Math.max(1, Math.ceil(result.total / result.perPage));
      if (result.items.length === 0 && result.total > 0 && f.page > last) {
        this.filters.page = last;
        return this.load();
      }
      this.list = result;
      this.status = 'ready';
      this.error = null;
    } catch (err) {
      if (seq !== this.#seq) return;
      this.status = 'error';
      this.error = errorMessage(err);
    }
  }

  /** Changes one filter; any but the page itself goes back to the first page. */
  setFilter<K extends keyof ListFilters>(key: K, value: ListFilters[K]): void {
    this.filters[key] = value;
    if (key !== 'page') this.filters.page = 1;
  }

  /** A column header: the same column flips the order; another sorts by it (dates newest first). */
  sortBy(field: SortField): void {
    if (this.filters.sort === field) this.setFilter('order', this.filters.order === 'asc' ? 'desc' : 'asc');
    else {
      this.filters.sort = field;
      this.setFilter('order', field === 'modified' || field === 'date' ? 'desc' : 'asc');
    }
  }

  /** Clears every filter; the page size stays. */
  resetFilters(): void {
    this.filters = { ...DEFAULT_FILTERS, perPage: this.filters.perPage };
  }

  /** A page's row shows what the editor saved (`fields`: the summary's values that changed). */
  patch(route: string, fields: Partial<PageSummary>): void {
    if (this.list) this.list = { ...this.list, items: this.list.items.map((p) => (p.route === route ? { ...p, ...fields } : p)) };
  }
}
