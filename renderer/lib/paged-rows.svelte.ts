/**
 * The rows of a virtualised table read a page at a time from a source as the person scrolls: only
 * the pages under the rows a table renders are asked for, each once, and only a bounded number of
 * pages is held (the farthest from the view are let go and read again when scrolled back to), so a
 * million rows scroll without a million rows in memory. A reset (new filters, a search typed)
 * starts a new generation: an answer of an older one is dropped when it arrives, so the last
 * filter's answer always wins. A row the source could not read keeps its place.
 *
 * The mechanism of the audit trail's and the subscribers' tables; each says what its rows are and
 * what it keeps of the first page's answer (`AuditRows`, `SubscriberRows`).
 */

/** A row the source could not read, at its place. */
export interface UnreadableAt {
  position: number;
  problem: string;
}

/** What a page's answer holds, whatever else the source says with it. */
export interface PagedAnswer<Item> {
  items: Item[];
  unreadable?: UnreadableAt[];
  /** Rows matching in all; null when the source cannot say. */
  total: number | null;
  /** The page size the source used (a site caps what was asked). */
  perPage: number;
  next: number | null;
}

/** Reads page `page` (1-based) of `perPage` rows. */
export type PageLoader<A> = (page: number, perPage: number) => Promise<A>;

export interface PagedRowsOptions {
  /** Rows asked per page (the source may answer fewer). */
  perPage?: number;
  /** Pages held at most; the ones farthest from the view are let go. */
  keepPages?: number;
  /** The words of a failure (the renderer's AppError message). */
  describe?: (err: unknown) => string;
}

export abstract class PagedRows<A extends PagedAnswer<unknown>, Row> {
  /** The first page is being read (nothing to show yet). */
  loading = $state(false);
  /** Why the first page could not be read. */
  error = $state<string | null>(null);
  /** Why a later page could not be read (the rows read so far stay). */
  pageError = $state<string | null>(null);
  /** Rows known so far: the total, or what was read while the source says more follow. */
  count = $state(0);
  /** Pages asked for since the table was made (first pages included): what a benchmark counts. */
  fetched = $state(0);
  /** Bumped at every reset (new filters): a table goes back to its top. */
  resets = $state(0);

  #loader: PageLoader<A>;
  #perPage: number;
  readonly #askPerPage: number;
  readonly #keep: number;
  readonly #maxRows: number;
  readonly #describe: (err: unknown) => string;
  #pages = new Map<number, Row[]>();
  #inFlight = new Set<number>();
  #generation = 0;
  #version = $state(0);

  /** `maxRows`: the most rows a table of this row height can lay out (a browser's ~33.5 million px). */
  constructor(loader: PageLoader<A>, o: PagedRowsOptions, defaults: { keepPages: number; maxRows: number }) {
    this.#loader = loader;
    this.#askPerPage = o.perPage ?? 200;
    this.#perPage = this.#askPerPage;
    this.#keep = o.keepPages ?? defaults.keepPages;
    this.#maxRows = defaults.maxRows;
    this.#describe = o.describe ?? ((err) => (err instanceof Error ? err.message : String(err)));
  }

  /** A row of an item the source read. */
  protected abstract rowOf(item: A['items'][number]): Row;
  /** A row the source could not read. */
  protected abstract unreadableRow(u: UnreadableAt): Row;
  /** Page 1 answered (`first`: the reset's own read): what the table keeps of it. */
  protected abstract headed(answer: A, first: boolean): void;
  /** The reset's first page failed: what was kept of an earlier one goes. */
  protected abstract headless(): void;

  /** The rows a table lays out (the count, bounded by what a browser can lay out). */
  get shown(): number {
    return Math.min(this.count, this.#maxRows);
  }

  /** The page size in use (the source's answer to the first page). */
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
  async reset(loader?: PageLoader<A>): Promise<void> {
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

  /** Reads the pages again where the table is: the rows stay until their page comes back. */
  refresh(): void {
    this.#generation++;
    this.#inFlight = new Set();
    this.pageError = null;
    for (const p of new Set([1, ...this.#pages.keys()])) void this.#read(p, false);
  }

  /** The row at `index`, or undefined while its page is not read (the table shows a placeholder). */
  at(index: number): Row | undefined {
    void this.#version;
    const page = Math.floor(index / this.#perPage) + 1;
    return this.#pages.get(page)?.[index - (page - 1) * this.#perPage];
  }

  /** Reads the pages holding rows `from`…`to` (indexes) that are not held yet. */
  ensure(from: number, to: number): void {
    if (this.count === 0) return;
    const first = Math.floor(Math.max(0, from) / this.#perPage) + 1;
    const last = Math.floor(Math.min(this.count - 1, Math.max(from, to)) / this.#perPage) + 1;
    const pages: number[] = [];
    for (let p = first; p <= last; p++) pages.push(p);
    this.#want(pages);
  }

  /**
   * Reads the pages holding these rows (the ones a table renders: those in view and the focused
   * one, which may be far from them), each page once, never the pages between.
   */
  ensureRows(indexes: readonly number[]): void {
    if (this.count === 0) return;
    const pages = new Set<number>();
    for (const i of indexes) if (i >= 0 && i < this.count) pages.add(Math.floor(i / this.#perPage) + 1);
    this.#want([...pages]);
  }

  /** Reads a failed page again. */
  retry(): void {
    this.pageError = null;
    this.#version++;
  }

  /** Changes held rows in place (`change` answers the row to put there, or undefined to leave it). */
  protected replaceRows(change: (row: Row) => Row | undefined): void {
    let changed = false;
    for (const rows of this.#pages.values()) {
      for (let i = 0; i < rows.length; i++) {
        const next = change(rows[i]!);
        if (next !== undefined) {
          rows[i] = next;
          changed = true;
        }
      }
    }
    if (changed) this.#version++;
  }

  #want(pages: number[]): void {
    for (const p of pages) if (!this.#pages.has(p) && !this.#inFlight.has(p)) void this.#read(p, false);
    this.#forget(new Set(pages));
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
      if (first) this.#perPage = Math.max(1, answer.perPage);
      if (page === 1) this.headed(answer, first);
      const offset = (page - 1) * this.#perPage;
      const rows: Row[] = [];
      const unreadable = new Map((answer.unreadable ?? []).map((u) => [u.position, u]));
      let items = 0;
      for (let i = offset; items < answer.items.length || unreadable.has(i); i++) {
        const u = unreadable.get(i);
        rows.push(u ? this.unreadableRow(u) : this.rowOf(answer.items[items++]!));
      }
      this.#pages.set(page, rows);
      const seen = offset + rows.length;
      // without a total: one placeholder row past what was read while more follow, so scrolling to it reads on
      if (answer.total !== null) this.count = answer.total;
      else this.count = answer.next !== null ? Math.max(first ? 0 : this.count, seen + 1) : seen;
      this.#version++;
    } catch (err) {
      if (generation !== this.#generation) return;
      if (first) {
        this.error = this.#describe(err);
        this.headless();
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
