/**
 * Offline search (search.query) over the cache of two sites mirrored from two CMS sandboxes: the
 * demo site (301 pages, en/de/fr) and a small one-language site with unicode pages. Ranking,
 * snippets, header values, the index following the cache, and inputs that would be FTS5 syntax.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import { cmsPages } from '../../electron/api/cms/pages';
import type { ChannelInput, ChannelName, SearchHit, Site } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { mirrored, withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { adminApi, hostCalls } from '../support/host-calls';

let demo: CmsSandbox;
let small: CmsSandbox;
let host: Host;
let fx: DemoHost;
let demoSite: Site;
let smallSite: Site;

const { call } = hostCalls(() => host);
async function answer<K extends ChannelName>(channel: K, input: ChannelInput<K>) {
  return host.invoke(channel, input);
}
const search = (text: string, more: Partial<ChannelInput<'search.query'>> = {}) => call('search.query', { text, ...more });
const hitText = (h: SearchHit) => h.snippet.map((p) => p.text).join('');
const marked = (h: SearchHit) => h.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase());

const serverOf = (sb: CmsSandbox) => adminApi(sb);


describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    // not a test of the rate limit: two mirrors of 120 a minute would take minutes
    const limits = { api: { limit: 10_000, windowSec: 60 } };
    [fx, small] = await Promise.all([withHost({ sandbox: { flavor, limits } }), startCmsSandbox({ flavor, seed: 'demo', content: 'single', limits })]);
    ({ cms: demo, host, site: demoSite } = fx);
    await cmsPages.create(serverOf(small), {
      route: '/tokyo',
      title: 'Ünïcödé café in 東京',
      header: { tags: ['Größe', 'naïve'] },
      content: 'Über die Straße: the smörgåsbord costs 1 200 ¥ near Shibuya. 🍣 Sushi for everyone.',
    });
    smallSite = await call('sites.add', { name: 'Small', kind: 'cms', baseUrl: small.url, environment: null, authMode: 'apikey', apiKey: small.seeded!.adminApiKey! });
    await Promise.all([mirrored(call, demoSite.id), mirrored(call, smallSite.id)]);
  });
  afterAll(async () => {
    await Promise.all([fx.close(), small.close()]);
  });

  describe('offline search', () => {
    test('hits carry the site, route, language, title, a marked snippet and the time of the copy; titles rank first', async () => {
      const hits = await search('lighthouse');
      expect(hits.length).toBeGreaterThan(3);
      for (const h of hits) {
        expect(h).toMatchObject({ siteId: demoSite.id, route: expect.stringMatching(/^\//), lang: expect.any(String), title: expect.any(String), cachedAt: expect.any(String) });
        expect(marked(h)).toContain('lighthouse');
      }
      // a title match outranks text-only matches
      expect(hits[0]!.title.toLowerCase()).toContain('lighthouse');
      expect(hits.every((h) => typeof Date.parse(h.cachedAt) === 'number')).toBe(true);
    });

    test('translations are found in their language, and the language is told', async () => {
      const de = await search('Leuchtturm');
      expect(de.length).toBeGreaterThan(0);
      expect(de.every((h) => h.lang === 'de')).toBe(true);
    });

    test('every site is searched, or one', async () => {
      const both = await search('contact');
      expect(new Set(both.map((h) => h.siteId))).toEqual(new Set([demoSite.id, smallSite.id]));
      const one = await search('contact', { siteId: smallSite.id });
      expect(one.length).toBeGreaterThan(0);
      expect(one.every((h) => h.siteId === smallSite.id)).toBe(true);
      expect(await search('lighthouse', { siteId: smallSite.id })).toEqual([]);
    });

    test('unicode: accents optional, CJK and German words found, snippets keep the original text', async () => {
      // (ß is a letter of its own to the tokenizer: "strasse" does not find "Straße")
      for (const q of ['東京', 'Ünïcödé', 'unicode', 'Straße', 'STRAßE', 'smorgasbord', 'naive', 'Größe', 'GRÖßE', 'cafe']) {
        const hits = await search(q);
        expect(hits.map((h) => h.route), q).toContain('/tokyo');
      }
      const [tokyo] = await search('smorgasbord');
      expect(hitText(tokyo!)).toContain('smörgåsbord');
      expect(marked(tokyo!)).toEqual(['smörgåsbord']);
      // the demo's unicode slug, through its German title
      expect((await search('über uns')).map((h) => h.route)).toContain('/about/über-uns');
    });

    test('header values are searched (taxonomy tags), not only titles and text', async () => {
      const hits = await search('photography', { limit: 100 });
      expect(hits.length).toBeGreaterThan(5);
      // the word is in no title or text of the demo site: every hit comes from a tag in the header
      expect(hits.every((h) => !h.title.toLowerCase().includes('photography'))).toBe(true);
      expect(hits.some((h) => h.route.startsWith('/blog/'))).toBe(true);
      expect(hits.every((h) => marked(h).includes('photography'))).toBe(true);
    });

    test('phrases, prefixes and the limit', async () => {
      expect((await search('harb*')).some((h) => marked(h).includes('harbour'))).toBe(true);
      const phrase = await search('"written for the demo"', { limit: 100 });
      expect(phrase.length).toBeGreaterThan(0);
      expect(await search('"demo written for the"')).toEqual([]); // the words, but not in that order
      expect((await search('demo written for the', { limit: 100 })).length).toBe(phrase.length); // all the words, anywhere
      expect(await search('page', { limit: 3 })).toHaveLength(3);
    });

    test('the index follows the cache: a page read anew is found by its new words, a removed page is gone', async () => {
      demo.editPage({ route: '/about/history', content: 'Zeppelins over the quokka meadow.' });
      expect(await search('quokka')).toEqual([]);
      await call('pages.get', { siteId: demoSite.id, route: '/about/history' });
      expect((await search('quokka')).map((h) => h.route)).toEqual(['/about/history']);
      await call('pages.delete', { siteId: demoSite.id, route: '/about/history' });
      expect(await search('quokka')).toEqual([]);
    });

    test('what people type is never FTS5 syntax: no crash, either hits or a clear error', async () => {
      const hostile = [
        '"', '""', '*', 'AND OR', 'AND', 'OR NOT', 'NEAR(', 'NEAR(a b', 'title:lighthouse', '(', ')))', '^', '-', 'a*', '"unbalanced',
        'foo"bar', "'; DROP TABLE pages; --", '{title}: x', 'lighthouse NOT', 'x'.repeat(200), '🍣', '+-*/', 'col:', '\\', 'NEAR("a" "b", 2)',
      ];
      for (const text of hostile) {
        const r = await answer('search.query', { text });
        if (r.ok) {
          expect(Array.isArray(r.value), text).toBe(true);
        } else {
          expect(r.error, text).toMatchObject({ code: 'invalid_input', fields: { text: expect.any(String) } });
        }
      }
      // the operators' characters around a word are dropped: it is searched as the word
      const plain = (await search('lighthouse', { limit: 100 })).map((h) => `${h.siteId}${h.route}${h.lang}`);
      for (const text of ['(lighthouse', 'lighthouse)', '"lighthouse', '^lighthouse', 'lighthouse:', '{lighthouse}']) {
        expect((await search(text, { limit: 100 })).map((h) => `${h.siteId}${h.route}${h.lang}`), text).toEqual(plain);
      }
      // nothing searchable: said plainly
      for (const text of ['"', '*', '^', '🍣', '+-*/']) {
        expect(await answer('search.query', { text })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('word') } });
      }
      // the boundary: empty, too long, bad limit
      expect(await answer('search.query', { text: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(await answer('search.query', { text: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(await answer('search.query', { text: 'x', limit: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      // and the table is still there
      expect((await search('lighthouse')).length).toBeGreaterThan(0);
    });
  });
});
