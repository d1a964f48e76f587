/**
 * The Pages list view without a browser: the query its filters, sort and paging make, a filter
 * change going back to page 1, a page past the end showing the last one, a site without search
 * (the Host's answer says so: search is switched off and said), an older answer never
 * replacing a newer one, following the filters (typed ones after a pause), and the tree's state
 * composing it (a saved page's row follows; a refresh
 * reads the list again). The Host is a small stand-in behind the renderer's transport.
 */
import { describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import type { PageList, PageSummary } from '../../electron/contract/index';
import { setTransport } from '../../renderer/lib/client';
import { DEFAULT_FILTERS, filtersActive, PageListState, TYPED_DELAY_MS } from '../../renderer/views/pages/page-list.svelte';
import { SitePagesState } from '../../renderer/views/pages/pages.svelte';

type Input = Record<string, unknown>;

const summary = (route: string, title: string): PageSummary =>
  ({ route, title, slug: route.split('/').pop(), template: 'default', published: true, visible: true, routable: true, hasChildren: false, parentRoute: '/' }) as unknown as PageSummary;

/** A stand-in Host answering `pages.list` with `total` pages; it may lack a search backend. */
class FakeHost {
  total = 120;
  noSearch = false;
  down = false;
  asked: Input[] = [];
  held: (() => void)[] = [];
  hold = false;

  constructor() {
    setTransport({
      kind: 'browser',
      invoke: async (channel, input) => {
        const i = input as Input;
        if (channel === 'pages.level') return { ok: true, value: { items: [], unreadable: [] } };
        if (channel !== 'pages.list') return { ok: false, error: { code: 'internal', message: `no ${channel} here` } };
        this.asked.push(i);
        if (this.hold) await new Promise<void>((go) => this.held.push(go));
        if (this.down) return { ok: false, error: { code: 'network', message: 'The site did not answer.' } };
        // the Host lists a site without search without it, and says so
        const unavailable = Boolean(i.search && this.noSearch);
        const page = Number(i.page);
        const perPage = Number(i.perPage);
        const count = Math.max(0, Math.min(perPage, this.total - (page - 1) * perPage));
        const items = Array.from({ length: count }, (_, k) => summary(`/p${(page - 1) * perPage + k + 1}`, `Page ${(page - 1) * perPage + k + 1}`));
        return { ok: true, value: { items, total: this.total, page, perPage, ...(unavailable ? { searchUnavailable: true } : {}) } satisfies Partial<PageList> as unknown as PageList };
      },
      on: () => () => {},
    });
  }
}

describe('PageListState', () => {
  it('reads the first page with the default sort; filters go into the query', async () => {
    const host = new FakeHost();
    const view = new PageListState('s1');
    await view.load();
    expect(host.asked[0]).toEqual({ siteId: 's1', page: 1, perPage: 50, sort: 'title', order: 'asc' });
    expect(view.status).toBe('ready');
    expect(view.list?.items).toHaveLength(50);

    view.setFilter('published', 'no');
    view.setFilter('template', 'blog');
    view.setFilter('parent', 'blog/');
    view.setFilter('search', '  hello ');
    await view.load();
    expect(host.asked.at(-1)).toEqual({ siteId: 's1', page: 1, perPage: 50, sort: 'title', order: 'asc', published: false, template: 'blog', parent: '/blog', search: 'hello' });
    expect(view.filtered).toBe(true);
  });

  it('a filter change goes back to page 1; the page size is no filter', () => {
    new FakeHost();
    const view = new PageListState('s1');
    view.setFilter('page', 3);
    expect(view.filters.page).toBe(3);
    view.setFilter('visible', 'yes');
    expect(view.filters.page).toBe(1);
    view.setFilter('perPage', 100);
    expect(view.filtered).toBe(true);
    view.resetFilters();
    expect(view.filters).toEqual({ ...DEFAULT_FILTERS, perPage: 100 });
    expect(filtersActive(view.filters)).toBe(false);
  });

  it('a column sorts by itself; again flips the order; dates start with the newest', () => {
    new FakeHost();
    const view = new PageListState('s1');
    view.sortBy('title');
    expect([view.filters.sort, view.filters.order]).toEqual(['title', 'desc']);
    view.setFilter('page', 2);
    view.sortBy('modified');
    expect([view.filters.sort, view.filters.order, view.filters.page]).toEqual(['modified', 'desc', 1]);
    view.sortBy('slug');
    expect([view.filters.sort, view.filters.order]).toEqual(['slug', 'asc']);
  });

  it('a page past the end shows the last one', async () => {
    const host = new FakeHost();
    const view = new PageListState('s1');
    view.setFilter('page', 9);
    await view.load();
    expect(host.asked.map((q) => q.page)).toEqual([9, 3]);
    expect(view.filters.page).toBe(3);
    expect(view.list?.page).toBe(3);
    expect(view.list?.items).toHaveLength(20);
  });

  it('a site without search (the Host says so): search is switched off, one call each time', async () => {
    const host = new FakeHost();
    host.noSearch = true;
    const view = new PageListState('s1');
    view.setFilter('search', 'hello');
    await view.load();
    expect(host.asked.map((q) => q.search ?? null)).toEqual(['hello']);
    expect(view.searchUnavailable).toBe(true);
    expect(view.status).toBe('ready');
    await view.load();
    expect(host.asked.at(-1)?.search).toBeUndefined();
  });

  it('a site that does not answer is an error, not a missing search', async () => {
    const host = new FakeHost();
    host.down = true;
    const view = new PageListState('s1');
    view.setFilter('search', 'hello');
    await view.load();
    expect(host.asked).toHaveLength(1);
    expect(view.searchUnavailable).toBe(false);
    expect(view.status).toBe('error');
    expect(view.error).toBe('The site did not answer.');
  });

  it('while followed, a filter change reads again: at once, or after a pause for typed ones', async () => {
    vi.useFakeTimers();
    try {
      const host = new FakeHost();
      const view = new PageListState('s1');
      const stop = view.follow();
      flushSync();
      await vi.advanceTimersByTimeAsync(0);
      expect(host.asked).toHaveLength(1);
      view.setFilter('visible', 'no');
      flushSync();
      await vi.advanceTimersByTimeAsync(0);
      expect(host.asked).toHaveLength(2);
      expect(host.asked[1]?.visible).toBe(false);
      // typing: one read for the word, once the typing pauses
      for (const word of ['h', 'he', 'hel', 'hello']) {
        view.setFilter('search', word);
        flushSync();
        await vi.advanceTimersByTimeAsync(50);
      }
      expect(host.asked).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(TYPED_DELAY_MS);
      expect(host.asked).toHaveLength(3);
      expect(host.asked[2]?.search).toBe('hello');
      // stopped: a pending read is dropped, and changes read nothing
      view.setFilter('parent', '/blog');
      flushSync();
      stop();
      view.setFilter('published', 'yes');
      flushSync();
      await vi.advanceTimersByTimeAsync(TYPED_DELAY_MS * 2);
      expect(host.asked).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an older answer never replaces a newer one', async () => {
    const host = new FakeHost();
    const view = new PageListState('s1');
    host.hold = true;
    const first = view.load();
    view.setFilter('page', 2);
    const second = view.load();
    host.held[1]!();
    await second;
    expect(view.list?.page).toBe(2);
    host.held[0]!();
    await first;
    expect(view.list?.page).toBe(2);
  });
});

describe('SitePagesState with its list view', () => {
  it('a saved page’s row in the list follows; a refresh reads the list again', async () => {
    const host = new FakeHost();
    const pages = new SitePagesState('s1');
    await pages.listView.load();
    expect(pages.known.get('/p2')?.title).toBe('Page 2');
    pages.pageSaved({ ...summary('/p2', 'Renamed'), published: false });
    expect(pages.listView.list?.items[1]).toMatchObject({ route: '/p2', title: 'Renamed', published: false });
    expect(pages.known.get('/p2')?.title).toBe('Renamed');
    const reads = host.asked.length;
    await pages.refresh(['/']);
    expect(host.asked.length).toBe(reads + 1);
  });

  it('the list’s cached copy is the one the area warns about while the list is shown', async () => {
    new FakeHost();
    const pages = new SitePagesState('s1');
    pages.view = 'list';
    pages.listView.list = { items: [], total: 0, page: 1, perPage: 50, cachedAt: '2026-01-02T03:04:05Z' } as unknown as PageList;
    expect(pages.copyFrom).toBe('2026-01-02T03:04:05Z');
    pages.view = 'tree';
    expect(pages.copyFrom).toBeNull();
  });
});
