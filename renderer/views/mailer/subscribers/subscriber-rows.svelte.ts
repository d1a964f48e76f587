/**
 * The subscribers table's rows, read a page at a time from the site as the person scrolls
 * (lib/paged-rows.svelte.ts), so 500,000 people scroll without 500,000 rows in memory.
 *
 * The first page's answer heads the table: how many match, the status counts of the whole table,
 * a list's counts, and the copy's time while the site is away. A row changed or deleted by the
 * person is changed in place (no read, no jump back to the top).
 */
import type { SubscriberPage, SubscriberRow, UnreadableRow } from '../../../../electron/contract/index';
import { PagedRows, type PageLoader, type PagedRowsOptions } from '../../../lib/paged-rows.svelte';

/** Reads page `page` (1-based) of `perPage` people. */
export type SubscriberPageLoader = PageLoader<SubscriberPage>;

export type SubscriberTableRow = { kind: 'person'; person: SubscriberRow } | { kind: 'unreadable'; row: UnreadableRow } | { kind: 'gone'; person: SubscriberRow };

/** The first page's answer, without its rows. */
export type SubscriberHead = Omit<SubscriberPage, 'items' | 'unreadable' | 'page' | 'next'>;

/** The most rows a table lays out: past this a browser cannot make the list tall enough (34 px rows, ~33.5 million px). */
export const MAX_TABLE_ROWS = 950_000;

/** `perPage`: people asked per page (the site answers at most 200). */
export type SubscriberRowsOptions = PagedRowsOptions;

export class SubscriberRows extends PagedRows<SubscriberPage, SubscriberTableRow> {
  /** The first page's answer (null before it came, or after it failed). */
  head = $state.raw<SubscriberHead | null>(null);

  constructor(loader: SubscriberPageLoader, o: SubscriberRowsOptions = {}) {
    super(loader, o, { keepPages: 30, maxRows: MAX_TABLE_ROWS });
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

  /** A person changed here (an edit, an unsubscribe): their row shows it at once. */
  put(person: SubscriberRow): void {
    this.replaceRows((r) => (r.kind !== 'unreadable' && r.person.id === person.id ? { kind: 'person', person } : undefined));
  }

  /** A person deleted here: their row stays, struck through, until the table is read again. */
  gone(id: number): void {
    this.replaceRows((r) => (r.kind === 'person' && r.person.id === id ? { kind: 'gone', person: r.person } : undefined));
  }

  protected rowOf(person: SubscriberRow): SubscriberTableRow {
    return { kind: 'person', person };
  }

  protected unreadableRow(row: UnreadableRow): SubscriberTableRow {
    return { kind: 'unreadable', row };
  }

  /** Page 1 heads the table whenever it is read (a refresh after a bulk action too). */
  protected headed(answer: SubscriberPage): void {
    const { items: _i, unreadable: _u, page: _p, next: _n, ...head } = answer;
    this.head = head;
    this.error = null;
  }

  protected headless(): void {
    this.head = null;
  }
}
