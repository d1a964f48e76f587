/**
 * The rows of an audit trail for a virtualised table, read a page at a time as the person scrolls
 * (lib/paged-rows.svelte.ts), so a trail of a million events scrolls without a million rows in
 * memory. The source is a function, so the same rows serve the site's trail (`audit.events`) and
 * the kept copy.
 */
import type { AuditEvent } from '../../../electron/contract/index';
import { PagedRows, type PageLoader, type PagedRowsOptions } from '../../lib/paged-rows.svelte';

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
export type AuditPageLoader = PageLoader<AuditRowsPage>;

export type AuditRow = { kind: 'event'; event: AuditRowEvent } | { kind: 'unreadable'; row: AuditUnreadableRow };

/** The most rows a table lays out: past this the browser cannot make the list tall enough (30 px rows, ~33.5 million px). */
export const MAX_TABLE_ROWS = 1_100_000;

export type AuditRowsOptions = PagedRowsOptions;

export class AuditRows extends PagedRows<AuditRowsPage, AuditRow> {
  /** Rows matching, as the source said with the first page; null before it answered or when it cannot say. */
  total = $state<number | null>(null);
  /** The first page's copy time, when the source answered from a copy. */
  copiedAt = $state<string | null>(null);

  constructor(loader: AuditPageLoader, o: AuditRowsOptions = {}) {
    super(loader, o, { keepPages: 40, maxRows: MAX_TABLE_ROWS });
  }

  /** The event at `index`, if read and readable. */
  eventAt(index: number): AuditRowEvent | undefined {
    const r = this.at(index);
    return r?.kind === 'event' ? r.event : undefined;
  }

  protected rowOf(event: AuditRowEvent): AuditRow {
    return { kind: 'event', event };
  }

  protected unreadableRow(row: AuditUnreadableRow): AuditRow {
    return { kind: 'unreadable', row };
  }

  protected headed(answer: AuditRowsPage, first: boolean): void {
    if (!first) return;
    this.total = answer.total;
    this.copiedAt = answer.copiedAt ?? null;
  }

  protected headless(): void {
    this.total = null;
  }
}
