/**
 * The order a tree level has on the site, worked out from the copy for a level the site never
 * listed to us (a folder copied by "Make available offline" but not opened online), so the tree
 * reads the same offline. It is the order GET /pages?children_of=…&sort=default gives: the parent's
 * collection order from its header (`content.order.by` / `dir`, unless `admin.children_display_order`
 * says otherwise), else the folders with a number first by number, then the rest by slug
 * (the Grav API plugin's indexViaDefaultSort and sortPages). Pure, so it is unit-tested.
 */
import type { PageSummary } from '../contract';
import { fieldAt } from '../contract';

type Field = 'title' | 'date' | 'modified' | 'slug' | 'order';

/** `content.order.by` values → the field compared (anything else sorts by folder number). */
const FIELDS: Record<string, Field> = { title: 'title', date: 'date', modified: 'modified', timestamp: 'modified', slug: 'slug', basename: 'slug' };

/** The parent's collection order, when its header sets one the level follows. */
export function collectionOrder(parentHeader: Record<string, unknown> | null | undefined): { field: Field; dir: 'asc' | 'desc' } | null {
  if (!parentHeader) return null;
  const display = fieldAt(parentHeader, ['admin', 'children_display_order']) ?? 'collection';
  if (display !== 'collection') return null;
  const by = fieldAt(parentHeader, ['content', 'order', 'by']);
  if (typeof by !== 'string' || by === '') return null;
  const dir = String(fieldAt(parentHeader, ['content', 'order', 'dir']) ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
  return { field: FIELDS[by] ?? 'order', dir };
}

const ms = (iso: string | null): number => {
  const t = iso === null ? NaN : Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};
/** Byte order, as PHP's strcmp (not the locale's). */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compare(field: Field, a: PageSummary, b: PageSummary): number {
  switch (field) {
    case 'date':
      // a page without a date of its own is dated by its file
      return Math.sign(ms(a.date ?? a.modified) - ms(b.date ?? b.modified));
    case 'modified':
      return Math.sign(ms(a.modified) - ms(b.modified));
    case 'title':
      return cmp(a.title.toLowerCase(), b.title.toLowerCase());
    case 'slug':
      return cmp(a.slug, b.slug);
    case 'order':
      return Math.sign((a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER));
  }
}

/** A sorted copy; ties keep the order the rows came in (Array.prototype.sort is stable). */
const sorted = <T>(rows: readonly T[], by: (a: T, b: T) => number): T[] => [...rows].sort(by);

/** A level's rows in the site's order, from the parent's header (null: the top level, or a parent not copied whole). */
export function siteOrder<T extends PageSummary>(rows: readonly T[], parentHeader: Record<string, unknown> | null | undefined): T[] {
  const by = collectionOrder(parentHeader);
  if (by) return sorted(rows, (a, b) => (by.dir === 'desc' ? -compare(by.field, a, b) : compare(by.field, a, b)));
  // the folder order: numbered folders by number, then the others by slug, case aside
  const ordered = sorted(
    rows.filter((r) => r.order !== null),
    (a, b) => a.order! - b.order!,
  );
  const unordered = sorted(
    rows.filter((r) => r.order === null),
    (a, b) => cmp(a.slug.toLowerCase(), b.slug.toLowerCase()),
  );
  return [...ordered, ...unordered];
}
