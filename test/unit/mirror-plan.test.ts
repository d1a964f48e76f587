import { describe, expect, test } from 'vitest';
import { holdRemoval, inScope, langKeys, listingConsistent, planFor, rowHash, settingsOf, unchangedByRow } from '../../electron/mirror/plan';
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
  sent: {},
  ...over,
});

/** A list row as the site sends it. */
const raw = (over: Record<string, unknown> = {}) => ({
  route: '/blog/post',
  title: 'Post',
  template: 'item',
  language: 'en',
  header: { title: 'Post', taxonomy: { tag: ['a', 'b'] } },
  published: true,
  order: '02.',
  modified: '2026-03-20T12:00:00+00:00',
  translated_languages: { en: '/blog/post', de: '/blog/post' },
  ...over,
});

describe('the row hash: everything a list row carries', () => {
  test('the same row hashes alike whatever the order of its keys', () => {
    const { route, ...rest } = raw();
    expect(rowHash({ ...rest, route })).toBe(rowHash(raw()));
  });

  test('any difference a row shows changes it: header, order, flags, language, translations', () => {
    const h = rowHash(raw());
    for (const over of [
      { header: { title: 'Post', taxonomy: { tag: ['a'] } } },
      { order: '03.' },
      { published: false },
      { template: 'default' },
      { language: null },
      { modified: '2026-03-20T12:00:01+00:00' },
      { translated_languages: { en: '/blog/post' } },
      { has_children: true },
    ]) {
      expect(rowHash(raw(over)), JSON.stringify(over)).not.toBe(h);
    }
  });
});

describe('the quick check: when the page list vouches for the cached copy', () => {
  const hash = rowHash(raw());
  const modified = '2026-03-20T12:00:00+00:00';

  test('the row as it was before the last read, that read after the change, a full copy: no request', () => {
    expect(unchangedByRow({ hash, modified }, { hash, readAt: '2026-03-20T12:00:05.000Z' }, true)).toBe(true);
  });

  test('a row that differs, a read not made, or no full copy: read again', () => {
    const seen = { hash, readAt: '2026-03-20T12:00:05.000Z' };
    expect(unchangedByRow({ hash: rowHash(raw({ title: 'Renamed' })), modified }, seen, true)).toBe(false);
    expect(unchangedByRow({ hash, modified }, undefined, true)).toBe(false);
    expect(unchangedByRow({ hash, modified }, { hash, readAt: null }, true)).toBe(false); // seen, never read since
    expect(unchangedByRow({ hash, modified }, seen, false)).toBe(false);
    expect(unchangedByRow({ hash, modified: null }, seen, true)).toBe(false);
    expect(unchangedByRow({ hash, modified: 'last tuesday' }, seen, true)).toBe(false);
  });

  test('a read in the same second as the last change may have missed a second change in that second', () => {
    expect(unchangedByRow({ hash, modified }, { hash, readAt: '2026-03-20T12:00:00.900Z' }, true)).toBe(false);
    expect(unchangedByRow({ hash, modified }, { hash, readAt: '2026-03-20T12:00:01.000Z' }, true)).toBe(true);
    expect(unchangedByRow({ hash, modified }, { hash, readAt: '2026-03-20T11:59:00.000Z' }, true)).toBe(false); // a clock behind
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

  test('each wanted language besides the default is listed in its own language, after the default listing', () => {
    const s = settingsOf(undefined);
    expect(planFor(s, 'en', [], {}, ['en', 'de', 'fr'])).toMatchObject({ queries: [{}, { lang: 'de' }, { lang: 'fr' }], listedLanguages: ['de', 'fr'] });
    expect(planFor({ ...s, languages: ['fr', 'it'] }, 'en', [], {}, ['en', 'de', 'fr']).queries).toEqual([{}, { lang: 'fr' }]);
    expect(planFor({ ...s, scope: { kind: 'levels' } }, 'en', ['/', '/blog'], {}, ['en', 'de']).queries).toEqual([
      { childrenOf: '/' },
      { childrenOf: '/blog' },
      { childrenOf: '/', lang: 'de' },
      { childrenOf: '/blog', lang: 'de' },
    ]);
    expect(planFor(s, null, [], {}, []).queries).toEqual([{}]); // one language
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
    // the language listings' totals are not pages of their own
    expect(listingConsistent(300, { query: 3, page: 1, totals: [300, 290, 295] }, [{}, { lang: 'de' }, { lang: 'fr' }])).toBe(true);
  });

  test('a prefix scope is the pages below the prefix; rows outside it count against the total', () => {
    // the real service's parent filter is a bare prefix: /blog itself and /blog-archive come along
    expect(inScope('/blog/post', { parent: '/blog' })).toBe(true);
    expect(inScope('/blog/a/b', { parent: '/blog/' })).toBe(true);
    expect(inScope('/blog', { parent: '/blog' })).toBe(false);
    expect(inScope('/blog-archive/x', { parent: '/blog' })).toBe(false);
    expect(inScope('/anything', { parent: '/' })).toBe(true);
    expect(inScope('/anything', {})).toBe(true);
    expect(inScope('/anything', { childrenOf: '/blog' })).toBe(true);
    // 30 listed in scope, of a total of 32 with 2 outside it
    expect(listingConsistent(30, { query: 1, page: 1, totals: [32], skipped: [2] }, [{ parent: '/blog' }])).toBe(true);
    expect(listingConsistent(30, { query: 1, page: 1, totals: [32] }, [{ parent: '/blog' }])).toBe(false);
  });
});
