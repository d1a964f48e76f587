/**
 * The rows of an audit trail for a virtualised table, read a page at a time from a source as the
 * person scrolls: only the pages near the view are asked for, each once, and only a bounded number
 * of pages is held (the farthest from the view are let go and asked again when scrolled back to),
 * so a trail of a million events scrolls without a million rows in memory. The source is a
 * function, so the same rows serve the site's trail (`audit.events`) and the kept copy.
 */
import type { AuditEvent } from '../../../electron/contract/index';

/** An event as a row; `siteId` when a table shows several sites' trails. */
export type AuditRowEvent = AuditEvent & { siteId?: string };

/** A row the source could not read, at its place. */
export interface AuditUnreadableRow {
  position: number;
  problem: string;
}

export interface AuditRowsPage {
  items: AuditRowEvent[];
  unreadable?: AuditUnreadableRow[];
  /** Rows matching in all (the count of matches); null when the source cannot say. */
  total: number | null;
  /** The page size the source used (a site caps what was asked). */
  perPage: number;
  next: number | null;
  /** When the answer came from a copy (offline), its time. */
  copiedAt?: string | null;
}

/** Reads page `page` (1-based) of `perPage` rows, newest first. */
export type AuditPageLoader = (page: number, perPage: number) => Promise<AuditRowsPage>;

export type AuditRow = { kind: 'event'; event: AuditRowEvent } | { kind: 'unreadable'; row: AuditUnreadableRow };

/** The most rows a table lays out: past this the browser cannot make the list tall enough (30 px rows, ~33.5 million px). */
export const MAX_TABLE_ROWS = 1_100_000;

export interface AuditRowsOptions {
  /** Rows asked per page (the site may answer fewer). */
  perPage?: number;
  /** Pages held at most; the ones farthest from the view are let go. */
  keepPages?: number;
  /** The words of a failure (the renderer's AppError message). */
  describe?: (err: unknown) => string;
}

export class AuditRows {
  /** Rows matching, as the source said with the first page; null before it answered or when it cannot say. */
  total = $state<number | null>(null);
  /** The first page is being read (nothing to show yet). */
  loading = $state(false);
  /** Why the first page could not be read. */
  error = $state<string | null>(null);
  /** Why a later page could not be read (the rows read so far stay). */
  pageError = $state<string | null>(null);
  /** The first page's copy time, when the source answered from a copy. */
  copiedAt = $state<string | null>(null);
  /** Rows known so far: the total, or what was read while the source says more follow. */
  count = $state(0);

  #loader: AuditPageLoader;
  #perPage: number;
  readonly #askPerPage: number;
  readonly #keep: number;
  readonly #describe: (err: unknown) => string;
  #pages = new Map<number, AuditRow[]>();
  #inFlight = new Set<number>();
  #generation = 0;
  #version = $state(0);
  /** Bumped at every reset (new filters): a table goes back to its top. */
  resets = $state(0);

  constructor(loader: AuditPageLoader, o: AuditRowsOptions = {}) {
    this.#loader = loader;
    this.#askPerPage = o.perPage ?? 200;
    this.#perPage = this.#askPerPage;
    this.#keep = o.keepPages ?? 40;
    this.#describe = o.describe ?? ((err) => (err instanceof Error ? err.message : String(err)));
  }

  /** The rows a table lays out (the count, bounded by what a browser can lay out). */
  get shown(): number {
    return Math.min(this.count, MAX_TABLE_ROWS);
  }

  /** The page size in use (the source's answer to the first page). */
  get perPage(): number {
    return this.#perPage;
  }

  /** Starts again from the first page, with a new source (new filters) or the same one. */
  async reset(loader?: AuditPageLoader): Promise<void> {
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

  /** The row at `index`, or undefined while its page is not read (the table shows a placeholder). */
  at(index: number): AuditRow | undefined {
    void this.#version;
    const page = Math.floor(index / this.#perPage) + 1;
    return this.#pages.get(page)?.[index - (page - 1) * this.#perPage];
  }

  /** The event at `index`, if read and readable. */
  eventAt(index: number): AuditRowEvent | undefined {
    const r = this.at(index);
    return r?.kind === 'event' ? r.event : undefined;
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

  #want(pages: number[]): void {
    for (const p of pages) if (!this.#pages.has(p) && !this.#inFlight.has(p)) void this.#read(p, false);
    this.#forget(new Set(pages));
  }

  /** Changes whenever rows arrive or go: an effect that reads it runs again. */
  get version(): number {
    return this.#version;
  }

  /** Reads a page again after it failed. */
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
      const answer = await this.#loader(page, this.#perPage);
      if (generation !== this.#generation) return;
      if (first) {
        this.#perPage = Math.max(1, answer.perPage);
        this.total = answer.total;
        this.copiedAt = answer.copiedAt ?? null;
      }
      const offset = (page - 1) * this.#perPage;
      const rows: AuditRow[] = [];
      const unreadable = new Map((answer.unreadable ?? []).map((u) => [u.position, u]));
      let items = 0;
      for (let i = offset; items < answer.items.length || unreadable.has(i); i++) {
        const u = unreadable.get(i);
        if (u) rows.push({ kind: 'unreadable', row: u });
        else rows.push({ kind: 'event', event: answer.items[items++]! });
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
        this.total = null;
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
