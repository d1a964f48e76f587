import { describe, expect, test } from 'vitest';
import { holdRemoval, langKeys, listingConsistent, planFor, settingsOf, unchangedByList } from '../../electron/mirror/plan';
import { listSignature, type CacheCheck } from '../../electron/db/repos/pages';
import type { MirrorRow } from '../../electron/api/cms/pages';

const row = (over: Partial<MirrorRow> = {}): MirrorRow => ({
  route: '/blog/post',
  slug: 'post',
  title: 'Post',
  template: 'item',
  published: true,
  visible: true,
  routable: true,
  order: null,
  hasChildren: false,
  modified: '2026-03-20T12:00:00+00:00',
  date: '2026-03-20T12:00:00+00:00',
  translated: ['en', 'de'],
  untranslated: ['fr'],
  explicit: ['en', 'de'],
  hasDefaultFile: false,
  ...over,
});
const cached = (r: MirrorRow, over: Partial<CacheCheck> = {}): CacheCheck => ({
  full: true,
  etag: '"abc"',
  sig: listSignature(r),
  verifiedAt: '2026-03-20T12:00:05.000Z',
  hasMedia: false,
  ...over,
});

describe('the quick check: when the page list vouches for the cached copy', () => {
  test('everything the row shows is as cached, the copy was known current after the change: no request', () => {
    expect(unchangedByList(row(), cached(row()))).toBe(true);
  });

  test('anything the row shows differently, or a copy that cannot be trusted: ask the site', () => {
    const r = row();
    expect(unchangedByList(row({ modified: '2026-03-20T12:00:01+00:00' }), cached(r))).toBe(false);
    expect(unchangedByList(row({ title: 'Renamed' }), cached(r))).toBe(false);
    expect(unchangedByList(row({ order: 3 }), cached(r))).toBe(false); // a folder renamed: the file time stays
    expect(unchangedByList(row({ hasChildren: true }), cached(r))).toBe(false);
    expect(unchangedByList(r, undefined)).toBe(false);
    expect(unchangedByList(r, cached(r, { full: false }))).toBe(false);
    expect(unchangedByList(r, cached(r, { etag: null }))).toBe(false);
    expect(unchangedByList(r, cached(r, { hasMedia: true }))).toBe(false); // media change without `modified`
    expect(unchangedByList(r, cached(r, { verifiedAt: null }))).toBe(false);
    expect(unchangedByList(row({ modified: null }), cached(row({ modified: null })))).toBe(false);
  });

  test('a copy from the same second as the last change may miss a second change in that second', () => {
    const r = row();
    expect(unchangedByList(r, cached(r, { verifiedAt: '2026-03-20T12:00:00.900Z' }))).toBe(false);
    expect(unchangedByList(r, cached(r, { verifiedAt: '2026-03-20T12:00:01.000Z' }))).toBe(true);
    expect(unchangedByList(r, cached(r, { verifiedAt: '2026-03-20T11:59:00.000Z' }))).toBe(false); // a clock behind
  });
});

describe('what a run reads', () => {
  test('the default language always, translations the settings want and the page has', () => {
    const plan = { languages: 'all' as const, defaultLanguage: 'en' };
    expect(langKeys(row(), plan)).toEqual(['', 'de']);
    expect(langKeys(row({ translated: ['en', 'de', 'fr'] }), { ...plan, languages: ['fr'] })).toEqual(['', 'fr']);
    expect(langKeys(row({ translated: [] }), { languages: 'all', defaultLanguage: null })).toEqual(['']);
  });

  test('scopes become list queries', () => {
    const s = settingsOf(undefined);
    expect(planFor(s, 'en', []).queries).toEqual([{}]);
    expect(planFor({ ...s, scope: { kind: 'prefix', route: '/docs' } }, 'en', [])).toMatchObject({ queries: [{ parent: '/docs' }], extra: ['/docs'] });
    expect(planFor({ ...s, scope: { kind: 'levels' } }, 'en', ['/', '/blog']).queries).toEqual([{ childrenOf: '/' }, { childrenOf: '/blog' }]);
  });

  test('stored settings are completed and repaired', () => {
    expect(settingsOf(undefined)).toEqual({ scope: { kind: 'site' }, languages: 'all', autoSync: true });
    expect(settingsOf({ autoSync: false, scope: { kind: 'bogus' } as never, languages: 'some' as never })).toEqual({ scope: { kind: 'site' }, languages: 'all', autoSync: false });
  });
});

describe('removals', () => {
  test('most of the cached part would go: held until confirmed', () => {
    expect(holdRemoval(12, 16, false)).toBe(true);
    expect(holdRemoval(12, 16, true)).toBe(false);
    expect(holdRemoval(5, 6, false)).toBe(false); // a handful is just done
    expect(holdRemoval(40, 100, false)).toBe(false);
  });

  test('only a listing whose rows add up to the totals is trusted', () => {
    expect(listingConsistent(300, { query: 1, page: 1, totals: [300] })).toBe(true);
    expect(listingConsistent(299, { query: 1, page: 1, totals: [300] })).toBe(false);
    expect(listingConsistent(30, { query: 2, page: 1, totals: [10, 20] })).toBe(true);
  });
});
