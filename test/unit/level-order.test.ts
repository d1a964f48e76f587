/**
 * The order of a tree level worked out from the copy (a level the site never listed to us): the
 * parent's collection order from its header, else numbered folders by number and the rest by slug,
 * as the Grav API plugin's GET /pages?children_of=…&sort=default gives it.
 */
import { describe, expect, test } from 'vitest';
import type { PageSummary } from '../../electron/contract';
import { collectionOrder, siteOrder } from '../../electron/pages/level-order';

function page(slug: string, o: Partial<PageSummary> = {}): PageSummary {
  return {
    route: `/blog/${slug}`,
    slug,
    title: slug,
    template: 'item',
    published: true,
    visible: true,
    routable: true,
    order: null,
    hasChildren: false,
    modified: '2024-01-01T00:00:00Z',
    date: null,
    ...o,
  };
}
const slugs = (rows: PageSummary[]) => rows.map((r) => r.slug);

describe('the order of a level from the copy', () => {
  test('a blog ordered by date, newest first: the demo blog’s order online', () => {
    const rows = [
      page('bright-journey-11', { date: '2024-01-23T09:00:00Z' }),
      page('quiet-garden-140', { date: '2024-10-07T09:00:00Z' }),
      page('early-forest-138', { date: '2024-10-03T09:00:00Z' }),
      page('wild-orchard-139', { date: '2024-10-05T09:00:00Z' }),
    ];
    const header = { content: { items: '@self.children', order: { by: 'date', dir: 'desc' } } };
    expect(slugs(siteOrder(rows, header))).toEqual(['quiet-garden-140', 'wild-orchard-139', 'early-forest-138', 'bright-journey-11']);
  });

  test('without a date of its own a page is dated by its file', () => {
    const rows = [page('a', { date: '2024-03-01T00:00:00Z' }), page('b', { date: null, modified: '2024-05-01T00:00:00Z' })];
    expect(slugs(siteOrder(rows, { content: { order: { by: 'date', dir: 'asc' } } }))).toEqual(['a', 'b']);
  });

  test('by title (case aside), by slug, by modified, by folder number for anything else', () => {
    const rows = [page('c', { title: 'beta', order: 2, modified: '2024-02-01T00:00:00Z' }), page('a', { title: 'Gamma', order: 1, modified: '2024-03-01T00:00:00Z' }), page('b', { title: 'Alpha', order: 3, modified: '2024-01-01T00:00:00Z' })];
    const by = (by: string, dir?: string) => slugs(siteOrder(rows, { content: { order: { by, ...(dir ? { dir } : {}) } } }));
    expect(by('title')).toEqual(['b', 'c', 'a']);
    expect(by('basename', 'desc')).toEqual(['c', 'b', 'a']);
    expect(by('timestamp')).toEqual(['b', 'c', 'a']);
    expect(by('folder')).toEqual(['a', 'c', 'b']);
  });

  test('no collection order (or the admin shows another one): numbered folders first by number, then the rest by slug', () => {
    const rows = [page('Zeta'), page('two', { order: 2 }), page('alpha'), page('one', { order: 1 })];
    expect(slugs(siteOrder(rows, null))).toEqual(['one', 'two', 'alpha', 'Zeta']);
    expect(slugs(siteOrder(rows, { content: { order: { by: 'title' } }, admin: { children_display_order: 'default' } }))).toEqual(['one', 'two', 'alpha', 'Zeta']);
  });

  test('what the parent’s header says, read defensively', () => {
    expect(collectionOrder({ content: { order: { by: 'date', dir: 'DESC' } } })).toEqual({ field: 'date', dir: 'desc' });
    expect(collectionOrder({ content: { order: { by: '' } } })).toBeNull();
    expect(collectionOrder({ content: 'oops' })).toBeNull();
    expect(collectionOrder(undefined)).toBeNull();
  });
});
