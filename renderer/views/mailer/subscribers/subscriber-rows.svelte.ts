/**
 * The subscribers table's rows, read a page at a time from the site as the person scrolls (the
 * audit table's way: `views/audit/audit-rows.svelte.ts`): only the pages under the rows a table
 * renders are asked for, each once, and at most `keepPages` pages are held (the farthest from the
 * view are let go and read again when scrolled back to), so 500,000 people scroll without 500,000
 * rows in memory. A reset (new filters, a search typed) starts a new generation: an answer of an
 * older one is dropped when it arrives, so the last filter's answer always wins.
 *
 * The first page's answer heads the table: how many match, the status counts of the whole table,
 * a list's counts, and the copy's time while the site is away. A row changed or deleted by the
 * person is changed in place (no read, no jump back to the top).
 */
import type { SubscriberPage, SubscriberRow, UnreadableRow } from '../../../../electron/contract/index';

/** Reads page `page` (1-based) of `perPage` people. */
export type SubscriberPageLoader = (page: number, perPage: number) => Promise<SubscriberPage>;

export type SubscriberTableRow = { kind: 'person'; person: SubscriberRow } | { kind: 'unreadable'; row: UnreadableRow } | { kind: 'gone'; person: SubscriberRow };

/** The first page's answer, without its rows. */
export type SubscriberHead = Omit<SubscriberPage, 'items' | 'unreadable' | 'page' | 'next'>;

/** The most rows a table lays out: past this a browser cannot make the list tall enough (34 px rows, ~33.5 million px). */
export const MAX_TABLE_ROWS = 950_000;

export interface SubscriberRowsOptions {
  /** People asked per page (the site answers at most 200). */
  perPage?: number;
  /** Pages held at most; the ones farthest from the view are let go. */
  keepPages?: number;
  /** The words of a failure (the renderer's AppError message). */
  describe?: (err: unknown) => string;
}

export class SubscriberRows {
  /** The first page's answer (null before it came, or after it failed). */
  head = $state.raw<SubscriberHead | null>(null);
  /** The first page is being read. */
  loading = $state(false);
  /** Why the first page could not be read. */
  error = $state<string | null>(null);
  /** Why a later page could not be read (the rows read so far stay). */
  pageError = $state<string | null>(null);
  /** Rows in the table: the site's count of matches. */
  count = $state(0);
  /** Pages read since the table was made (every request, first pages included): what a benchmark counts. */
  fetched = $state(0);
  /** Bumped at every reset: a table goes back to its top. */
  resets = $state(0);

  #loader: SubscriberPageLoader;
  #perPage: number;
  readonly #askPerPage: number;
  readonly #keep: number;
  readonly #describe: (err: unknown) => string;
  #pages = new Map<number, SubscriberTableRow[]>();
  #inFlight = new Set<number>();
  #generation = 0;
  #version = $state(0);

  constructor(loader: SubscriberPageLoader, o: SubscriberRowsOptions = {}) {
    this.#loader = loader;
    this.#askPerPage = o.perPage ?? 200;
    this.#perPage = this.#askPerPage;
    this.#keep = o.keepPages ?? 30;
    this.#describe = o.describe ?? ((err) => (err instanceof Error ? err.message : String(err)));
  }

  /** The rows a table lays out (the count, bounded by what a browser can lay out). */
  get shown(): number {
    return Math.min(this.count, MAX_TABLE_ROWS);
  }

  /** The page size in use (the site's answer to the first page). */
  get perPage(): number {
    return this.#perPage;
  }

  /** Pages held now (bounded by `keepPages`). */
  get held(): number {
    void this.#version;
    return this.#pages.size;
  }

  /** Changes whenever rows arrive, change or go: an effect that reads it runs again. */
  get version(): number {
    return this.#version;
  }

  /** Starts again from the first page, with a new source (new filters) or the same one. */
  async reset(loader?: SubscriberPageLoader): Promise<void> {
    if (loader) this.#loader = loader;
    this.#generation++;
    this.resets++;
    this.#pages = new Map();
    this.#inFlight = new Set();
    this.#perPage = this.#askPerPage;
    this.pageError = null;
    this.#version++;
    await this.#read(1, true);
  }

  /** Reads the pages again where the table is (after a bulk action): the rows stay until their page comes back. */
  refresh(): void {
    this.#generation++;
    this.#inFlight = new Set();
    this.pageError = null;
    for (const p of new Set([1, ...this.#pages.keys()])) void this.#read(p, false);
  }

  /** The row at `index`, or undefined while its page is not read (the table shows a placeholder). */
  at(index: number): SubscriberTableRow | undefined {
    void this.#version;
    const page = Math.floor(index / this.#perPage) + 1;
    return this.#pages.get(page)?.[index - (page - 1) * this.#perPage];
  }

  /** The person at `index`, if read and still there. */
  personAt(index: number): SubscriberRow | undefined {
    const r = this.at(index);
    return r?.kind === 'person' ? r.person : undefined;
  }

  /** The ids of the people read between two indexes (a Shift range), in the table's order. */
  idsBetween(a: number, b: number): number[] {
    const out: number[] = [];
    for (let i = Math.min(a, b); i <= Math.max(a, b); i++) {
      const p = this.personAt(i);
      if (p) out.push(p.id);
    }
    return out;
  }

  /** Reads the pages holding these rows (those a table renders), each page once, never the pages between. */
  ensureRows(indexes: readonly number[]): void {
    if (this.count === 0) return;
    const pages = new Set<number>();
    for (const i of indexes) if (i >= 0 && i < this.count) pages.add(Math.floor(i / this.#perPage) + 1);
    for (const p of pages) if (!this.#pages.has(p) && !this.#inFlight.has(p)) void this.#read(p, false);
    this.#forget(pages);
  }

  /** A person changed here (an edit, an unsubscribe): their row shows it at once. */
  put(person: SubscriberRow): void {
    let changed = false;
    for (const rows of this.#pages.values()) {
      const i = rows.findIndex((r) => r.kind !== 'unreadable' && r.person.id === person.id);
      if (i >= 0) {
        rows[i] = { kind: 'person', person };
        changed = true;
      }
    }
    if (changed) this.#version++;
  }

  /** A person deleted here: their row stays, struck through, until the table is read again. */
  gone(id: number): void {
    let changed = false;
    for (const rows of this.#pages.values()) {
      const i = rows.findIndex((r) => r.kind === 'person' && r.person.id === id);
      const r = rows[i];
      if (r?.kind === 'person') {
        rows[i] = { kind: 'gone', person: r.person };
        changed = true;
      }
    }
    if (changed) this.#version++;
  }

  /** Reads a failed page again. */
  retry(): void {
    this.pageError = null;
    this.#version++;
  }

  async #read(page: number, first: boolean): Promise<void> {
    const generation = this.#generation;
    this.#inFlight.add(page);
    if (first) {
      this.loading = true;
      this.error = null;
    }
    try {
      this.fetched++;
      const answer = await this.#loader(page, this.#perPage);
      if (generation !== this.#generation) return;
      if (page === 1) {
        const { items: _i, unreadable: _u, page: _p, next: _n, ...head } = answer;
        this.head = head;
        this.error = null;
        if (first) this.#perPage = Math.max(1, answer.perPage);
      }
      const offset = (page - 1) * this.#perPage;
      const rows: SubscriberTableRow[] = [];
      const unreadable = new Map(answer.unreadable.map((u) => [u.position, u]));
      let items = 0;
      for (let i = offset; items < answer.items.length || unreadable.has(i); i++) {
        const u = unreadable.get(i);
        if (u) rows.push({ kind: 'unreadable', row: u });
        else rows.push({ kind: 'person', person: answer.items[items++]! });
      }
      this.#pages.set(page, rows);
      this.count = answer.total;
      this.#version++;
    } catch (err) {
      if (generation !== this.#generation) return;
      if (first) {
        this.error = this.#describe(err);
        this.head = null;
        this.count = 0;
      } else this.pageError = this.#describe(err);
    } finally {
      if (generation === this.#generation) {
        this.#inFlight.delete(page);
        if (first) this.loading = false;
      }
    }
  }

  /** Lets go of the pages farthest from the ones wanted now once more than the bound are held. */
  #forget(wanted: Set<number>): void {
    if (this.#pages.size <= this.#keep || wanted.size === 0) return;
    const near = (p: number) => Math.min(...[...wanted].map((w) => Math.abs(w - p)));
    const far = [...this.#pages.keys()].filter((p) => !wanted.has(p)).sort((a, b) => near(b) - near(a));
    for (const p of far.slice(0, this.#pages.size - this.#keep)) this.#pages.delete(p);
  }
}
