/**
 * The state of one page's media panel, without the DOM: the list as the site sent it, reading and
 * its failure, the sort, the filter clauses being written and the filter applied (a filter the site
 * refuses is said at the filter, not as a failed list), the file to delete and the one previewed,
 * thumbnails that did not load, and the uploads, whose answer (the page's whole list) is taken as
 * it is unless a filter or sort is on. `invoke` is its only way out; PageMedia.svelte draws it.
 * Tested in test/unit/page-media.test.ts.
 *
 *   const media = new PageMediaState({ site: () => site, route: () => route, onChanged });
 *   const stop = media.start();   // follows upload progress
 *   media.open();                 // reads the route's list (again on every route change)
 *   media.sort = 'size:desc'; await media.load();
 */
import { SvelteSet } from 'svelte/reactivity';
import type { PageMediaItem, Site } from '../../../electron/contract/index';
import { invoke, on } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { toasts } from '../../lib/app.svelte';
import { UploadQueue } from '../../lib/upload-queue.svelte';
import { addClause, filterOf, type Clause } from './clauses';

/** The sorts the site offers (`field:order`; empty: the site's own order). */
export const MEDIA_SORTS = [
  { value: '', label: 'Site order' },
  { value: 'filename:asc', label: 'Name, A–Z' },
  { value: 'filename:desc', label: 'Name, Z–A' },
  { value: 'size:asc', label: 'Size, smallest first' },
  { value: 'size:desc', label: 'Size, largest first' },
  { value: 'modified:desc', label: 'Modified, newest first' },
  { value: 'modified:asc', label: 'Modified, oldest first' },
] as const;

export interface PageMediaOptions {
  site: () => Site;
  route: () => string;
  /** The page's whole media list after it was read or changed here (not called while a filter is on). */
  onChanged?: ((items: PageMediaItem[]) => void) | undefined;
}

export class PageMediaState {
  readonly #opts: PageMediaOptions;
  items = $state<PageMediaItem[]>([]);
  loading = $state(true);
  loadError = $state<AppError | null>(null);
  /** `field:order` from MEDIA_SORTS, or '' for the site's order. */
  sort = $state('');
  filterOpen = $state(false);
  /** The clauses being written, and the filter the list was last read with. */
  clauses = $state<Clause[]>([]);
  applied = $state<string[]>([]);
  /** The site refused the filter: said under it, the list stays as it was. */
  filterError = $state<string | null>(null);
  /** Thumbnails that did not load (the preview shows the same placeholder). */
  /** File names whose thumbnail failed to load (a set: a file may be named `constructor`). */
  readonly failedThumbs = new SvelteSet<string>();
  toDelete = $state<PageMediaItem | null>(null);
  deleteOpen = $state(false);
  previewItem = $state<PageMediaItem | null>(null);
  previewOpen = $state(false);
  readonly uploads: UploadQueue;

  constructor(opts: PageMediaOptions) {
    this.#opts = opts;
    this.uploads = new UploadQueue({
      where: opts.route,
      stage: (uploadId, offset, data) => invoke('media.uploadChunk', { uploadId, offset, data }),
      follow: (listener) => on('media.progress', listener),
      taken: (_route, name) => this.items.some((m) => m.filename === name),
      send: async (u, choice) => {
        const before = new Set(this.items.map((m) => m.filename));
        const list = await invoke('media.upload', {
          siteId: opts.site().id,
          route: u.where,
          uploadId: u.id,
          filename: u.name,
          type: u.file.type || 'application/octet-stream',
          // keep both: the site renames the new one
          ...(choice === 'keep' ? { avoidOverwriting: true } : {}),
        });
        // the upload answers the page's whole list, unfiltered: read again when a filter or sort is on
        if (this.applied.length || this.sort) void this.load();
        else this.#take(list);
        return choice === 'keep' ? (list.find((m) => !before.has(m.filename) && m.filename.endsWith(u.name))?.filename ?? u.name) : u.name;
      },
    });
  }

  /** Follows upload progress; returns the stop function. */
  start(): () => void {
    return this.uploads.start();
  }

  /** A route is shown (the first, or another): its list is read from the start. */
  open(): Promise<void> {
    this.loading = true;
    this.failedThumbs.clear();
    return this.load();
  }

  /** Reads the list with the sort and the applied filter; an answer for a route no longer shown is dropped. */
  async load(): Promise<void> {
    const route = this.#opts.route();
    this.loadError = null;
    this.filterError = null;
    try {
      const [field, order] = this.sort ? this.sort.split(':') : [];
      const list = await invoke('media.list', {
        siteId: this.#opts.site().id,
        route,
        ...(this.applied.length ? { filter: this.applied } : {}),
        ...(field ? { sort: field, order: order as 'asc' | 'desc' } : {}),
      });
      if (route !== this.#opts.route()) return;
      this.#take(list);
    } catch (err) {
      const e = AppError.from(err);
      if (e.fields?.filter) this.filterError = e.fields.filter;
      // the list is how a route typed in the Media area is found to be no page (nothing reads the page first)
      else if (e.code === 'not_found' || e.fields?.route) this.loadError = new AppError({ ...e.toInfo(), message: e.fields?.route ?? `There is no page at ${route}.` });
      else this.loadError = e;
    } finally {
      this.loading = false;
    }
  }

  /** A new list: the page's whole list goes to `onChanged` (a filtered one is not the whole). */
  #take(list: PageMediaItem[]): void {
    this.items = list;
    if (!this.applied.length) this.#opts.onChanged?.(list);
  }

  toggleFilter(): void {
    if (this.filterOpen) this.filterOpen = false;
    else {
      if (!this.clauses.length) this.clauses = addClause(this.clauses);
      this.filterOpen = true;
    }
  }

  applyFilter(): Promise<void> {
    this.applied = filterOf(this.clauses);
    this.loading = true;
    return this.load();
  }

  clearFilter(): Promise<void> {
    this.clauses = [];
    this.applied = [];
    this.loading = true;
    return this.load();
  }

  askDelete(item: PageMediaItem): void {
    this.toDelete = item;
    this.deleteOpen = true;
  }

  /** Deletes the file asked about (the confirm dialog shows a refusal and stays open). */
  async remove(): Promise<void> {
    const m = this.toDelete;
    if (!m) return;
    await invoke('media.delete', { siteId: this.#opts.site().id, route: this.#opts.route(), filename: m.filename });
    this.#take(this.items.filter((x) => x.filename !== m.filename));
    toasts.success('Deleted', m.filename);
  }

  preview(item: PageMediaItem): void {
    this.previewItem = item;
    this.previewOpen = true;
  }

  /** The previewed file's thumbnail did not load either. */
  get previewFailed(): boolean {
    return !!this.previewItem && this.failedThumbs.has(this.previewItem.filename);
  }
}
