/**
 * "Make available offline" against the CMS sandbox's demo site (301 pages in en, de, fr) over real
 * HTTP, with the Host's real SQLite file: a full mirror, a second one that reads no page at all
 * (the list rows, in each language, vouch for every copy: no conditional reads, which the real
 * service never answers with 304), a translation changed alone read alone, deletions on the site
 * removed from the cache, cancel and resume across a Host restart, failures reported and retried,
 * progress counts, and at the end the sandbox stopped: the tree, the list, the editor and the
 * translation matrix from the cache.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DB_FILE, type Host } from '../../electron/core/host';
import { cmsPages } from '../../electron/api/cms/pages';
import type { MirrorProgress, Site } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { DEMO_PAGE_COUNT } from '../sandbox/cms/content/seed-content';
import type { RequestRecord } from '../sandbox/cms/request-log';
import { mirrored, mirrorStatus, withHost, type DemoHost } from '../support/demo-host';
import { UNHURRIED } from '../support/limits';
import { until } from '../support/until';
import { flavors } from '../support/flavors';
import { adminApi, hostCalls } from '../support/host-calls';
import { startProxy } from '../support/proxy';
import { tempDir } from '../support/tmp';

let cms: CmsSandbox;
let cmsOpen = true;
let host: Host;
let dir: ReturnType<typeof tempDir>;
let site: Site;
let fx: DemoHost;
/** the mirror progress the Host announced, in order */
const progress = () => fx.events.filter((e) => e.name === 'mirror.progress').map((e) => e.payload as MirrorProgress);

const { call, fails } = hostCalls(() => host);

/** opens the Host again after a test closed it (a quit or a crash) */
async function openHost() {
  host = await fx.open();
}

const server = () => adminApi(cms);

/** Resolves once the sandbox has seen no new request for 200 ms. */
async function quiet(log: { list(): unknown[] }): Promise<void> {
  let seen = -1;
  while (log.list().length !== seen) {
    seen = log.list().length;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * /about/media (made in beforeAll, in the default language) cannot be read through the API:
 * GET /pages/about/media is the media list of /about (the API's own sub-resource). The mirror
 * marks its read as one the API cannot make (the copy keeps the list row), never as failed; the
 * demo content itself has no such page.
 */
const TRAP = '/about/media';
const UNREADABLE = 1;
const readable = (r: RequestRecord) => !/^\/api\/v1\/pages\/about\/media(\?|$)/.test(r.url);

/** Page reads (not lists) the sandbox saw. */
const pageReads = (filter: (r: RequestRecord) => boolean = () => true) =>
  cms.requests.list((r) => r.method === 'GET' && /^\/api\/v1\/pages\/[^?]/.test(r.url) && filter(r));
/** List requests the sandbox saw. */
const listReads = () => cms.requests.list((r) => r.method === 'GET' && /^\/api\/v1\/pages(\?|$)/.test(r.url));

/** What the demo site has: one read per page and per translation besides English. */
function expectedReads(): number {
  const content = cms.content;
  return content.tree().pages.reduce((n, node) => n + 1 + Object.keys(content.translated(node)).filter((l) => l !== 'en').length, 0);
}

function cacheRows(sql: string, ...params: unknown[]): unknown[] {
  const db = new Database(join(dir.path, DB_FILE), { readonly: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  beforeAll(async () => {
    // not a test of the rate limit (mirror-paced.test.ts is): the real service's 120 a minute would make each mirror take minutes
    // the last tests stop the sandbox themselves: it is started here and handed in
    cms = await startCmsSandbox({ flavor, seed: 'demo', content: 'demo', recordRequests: true, ...UNHURRIED });
    cmsOpen = true;
    fx = await withHost({ cms });
    ({ host, dir, site } = fx);
    await cmsPages.create(server(), { route: TRAP, title: 'Media kit', content: 'Logos and photos for the press.' });
  });
  afterAll(async () => {
    await fx.close();
    if (cmsOpen) await cms.close();
  });

  describe('make available offline', () => {
    test('a full mirror reads every page in every language into the cache, with consistent progress', async () => {
      const total = expectedReads();
      fx.events.length = 0;
      const r = await mirrored(call, site.id);
      expect(r).toMatchObject({ state: 'done', phase: 'done', listed: true, total, done: total - UNREADABLE, fetched: total - UNREADABLE, unchanged: 0, failed: 0, unreadable: UNREADABLE, removed: 0 });
      // the page the API cannot read is said so with the reason, and the run is not called failed
      expect(r.error).toBeNull();
      expect(cacheRows("SELECT route, lang, error FROM mirror_items WHERE state IN ('failed', 'unreadable') ORDER BY lang")).toEqual([
        { route: TRAP, lang: '', error: 'The site’s API cannot read /about/media: its address is also that of the media list of /about.' },
      ]);
      // and to the renderer, which shows it under the card
      expect(await call('mirror.failures', { siteId: site.id })).toEqual({
        runId: r.runId,
        total: 0,
        items: [],
        unreadable: [{ route: TRAP, lang: '', reason: expect.stringContaining('cannot read /about/media') }],
      });
      // the copy keeps what the list gave
      expect(cacheRows("SELECT title, full_at FROM pages WHERE site_id = ? AND route = ? AND lang = ''", site.id, TRAP)).toEqual([{ title: 'Media kit', full_at: null }]);

      // on disk: every page with its header and content, the translations under their code
      const [count] = cacheRows("SELECT count(*) AS n FROM pages WHERE site_id = ? AND full_at IS NOT NULL", site.id) as { n: number }[];
      expect(count!.n).toBe(total - UNREADABLE);
      const [home] = cacheRows("SELECT content, media FROM pages WHERE site_id = ? AND route = '/home' AND lang = 'de'", site.id) as { content: string; media: string }[];
      const serverHome = (await cmsPages.get(server(), '/home', { lang: 'de' }));
      expect(home!.content).toBe(serverHome.content);
      expect(JSON.parse(home!.media)).toHaveLength(5);

      // progress events: never more finished than known, never going back, the last one the end
      const mine = progress().filter((e) => e.runId === r.runId);
      expect(mine.length).toBeGreaterThan(2);
      let last = 0;
      for (const e of mine) {
        expect(e.done + e.failed).toBeLessThanOrEqual(e.total);
        expect(e.done).toBeGreaterThanOrEqual(last);
        last = e.done;
      }
      expect(mine.map((e) => e.phase)).toEqual(expect.arrayContaining(['listing', 'reading', 'done']));
      expect(mine.at(-1)).toMatchObject({ state: 'done', done: total - UNREADABLE, failed: 0, unreadable: UNREADABLE });
    });

    test('a second mirror of the unchanged site reads no page: the list rows, in each language, vouch for every copy', async () => {
      const total = expectedReads();
      cms.requests.clear();
      const r = await mirrored(call, site.id);
      expect(r).toMatchObject({ state: 'done', total, done: total - UNREADABLE, fetched: 0, unchanged: total - UNREADABLE, failed: 0, unreadable: UNREADABLE });
      // only the three reads that fail every time are made again (they have no copy)
      expect(pageReads(readable)).toEqual([]);
      expect(pageReads()).toHaveLength(UNREADABLE);
      // the lists: the default language (301 rows, 100 a page), then German and French (the pages with
      // a file the language can use: its own or an untyped one)
      const lists = listReads();
      const defaultPages = Math.ceil(DEMO_PAGE_COUNT / 100);
      expect(lists.filter((q) => !q.url.includes('lang='))).toHaveLength(defaultPages);
      expect(lists.filter((q) => q.url.includes('lang=de')).length).toBeGreaterThanOrEqual(1);
      expect(lists.filter((q) => q.url.includes('lang=fr')).length).toBeGreaterThanOrEqual(1);
      expect(lists.length).toBeLessThanOrEqual(3 * defaultPages);
      expect(lists.every((q) => q.status === 200)).toBe(true);
      expect(cms.requests.list((q) => q.ifNoneMatch !== null || q.status === 304)).toEqual([]);

      // asked to check everything: one plain read per page and language (the site never answers 304)
      cms.requests.clear();
      const all = await mirrored(call, site.id, { revalidateAll: true });
      expect(all).toMatchObject({ state: 'done', unchanged: 0, fetched: total - UNREADABLE });
      const asked = pageReads(readable);
      expect(asked).toHaveLength(total - UNREADABLE);
      expect(asked.every((q) => q.ifNoneMatch === null && q.status === 200)).toBe(true);
    });

    test('a German file changed alone is read (alone: the documents; with its other languages: the real service, whose rows carry the time of the newest file in the page folder); a new German translation is read too', async () => {
      const translatedDe = cms.content
        .tree()
        .pages.filter((n) => n.route.startsWith('/docs/') && Object.keys(cms.content.translated(n)).includes('de'))
        .map((n) => n.route);
      const changed = translatedDe[0]!;
      const untranslated = cms.content.tree().pages.find((n) => n.route.startsWith('/blog/') && !Object.keys(cms.content.translated(n)).includes('de'))!.route;
      // a new second: the copy was read before it, so the change shows in the German row's `modified`
      await new Promise((r) => setTimeout(r, 1100));
      cms.editPage({ route: changed, lang: 'de', content: 'Nur auf Deutsch geändert.' });
      await cmsPages.translate(server(), untranslated, { lang: 'de', title: 'Neu übersetzt', content: 'Neu.' });
      cms.requests.clear();
      const r = await mirrored(call, site.id);
      expect(r).toMatchObject({ state: 'done', total: expectedReads(), failed: 0, unreadable: UNREADABLE });
      const reads = pageReads(readable).map((q) => q.url);
      const path = (route: string, lang = '') => `/api/v1/pages${route.split('/').map(encodeURIComponent).join('/')}${lang ? `?lang=${lang}` : ''}`;
      // the German copy of the edited page, and the new translation; its default row changed (its translations), so it too
      const expected = [path(changed, 'de'), path(untranslated, 'de'), path(untranslated)];
      // the real service's `modified` is the newest file of the page's folder (Flex pages): every
      // language's row of the edited page changed with the German file
      const others = real ? ['', ...Object.keys(cms.content.translated(cms.content.find(changed)!)).filter((l) => l !== 'en' && l !== 'de')] : [];
      expected.push(...others.map((l) => path(changed, l)));
      expect(reads.sort()).toEqual(expected.sort());
      expect(r.fetched).toBe(expected.length);
      expect(cacheRows("SELECT content FROM pages WHERE site_id = ? AND route = ? AND lang = 'de'", site.id, changed)).toEqual([{ content: expect.stringContaining('Nur auf Deutsch') }]);
      expect(cacheRows("SELECT title FROM pages WHERE site_id = ? AND route = ? AND lang = 'de'", site.id, untranslated)).toEqual([{ title: 'Neu übersetzt' }]);
      // the documents: the English copy of the edited page was not asked for again
      if (!real) expect(reads).not.toContain(path(changed));
    });

    test('what changed on the site is read again; what the site deleted leaves the cache', async () => {
      const blogDe = cms.content.tree().pages.find((n) => n.route.startsWith('/blog/') && Object.keys(cms.content.translated(n)).includes('de'))!.route;
      await cmsPages.remove(server(), '/archive/note-03');
      await cmsPages.remove(server(), blogDe, { lang: 'de' });
      cms.editPage({ route: '/about/history', content: 'Changed behind the app’s back.' });
      await cmsPages.create(server(), { route: '/about/careers', title: 'Careers', content: 'We are hiring.' });
      const r = await mirrored(call, site.id);
      expect(r).toMatchObject({ state: 'done', total: expectedReads(), failed: 0, unreadable: UNREADABLE, removed: 2 });
      expect(r.fetched).toBeGreaterThanOrEqual(2); // the edited page and the new one
      expect(cacheRows("SELECT 1 FROM pages WHERE site_id = ? AND route = '/archive/note-03'", site.id)).toEqual([]);
      expect(cacheRows("SELECT 1 FROM pages WHERE site_id = ? AND route = ? AND lang = 'de'", site.id, blogDe)).toEqual([]);
      expect(cacheRows("SELECT 1 FROM pages WHERE site_id = ? AND route = ? AND lang = ''", site.id, blogDe)).toHaveLength(1);
      expect(cacheRows("SELECT content FROM pages WHERE site_id = ? AND route = '/about/history' AND lang = ''", site.id)).toEqual([{ content: expect.stringContaining('Changed behind') }]);
      expect(cacheRows("SELECT title FROM pages WHERE site_id = ? AND route = '/about/careers'", site.id)).toEqual([{ title: 'Careers' }]);
    });

    test('a removal that would empty most of the mirrored part waits for a confirmation; a prefix scope is the pages below it (the real service also lists the prefix and its namesakes)', async () => {
      await call('mirror.setSettings', { siteId: site.id, scope: { kind: 'prefix', route: '/archive' } });
      // a namesake beside /archive: the real service's parent filter (a bare prefix) lists it too
      await cmsPages.create(server(), { route: '/archive-extra', title: 'Not in the archive', content: 'x' });
      try {
        const notes = cms.content.tree().pages.filter((n) => n.route.startsWith('/archive/')).map((n) => n.route);
        const gone = notes.slice(0, 12);
        for (const route of gone) await cmsPages.remove(server(), route);
        const held = await mirrored(call, site.id);
        expect(held).toMatchObject({ state: 'done', removed: 0, held: 12 });
        expect(cacheRows("SELECT count(*) AS n FROM pages WHERE site_id = ? AND route LIKE '/archive/%'", site.id)).toEqual([{ n: notes.length }]);
        const confirmed = await mirrored(call, site.id, { confirmRemoval: true });
        expect(confirmed).toMatchObject({ state: 'done', removed: 12, held: 0 });
        expect(cacheRows("SELECT count(*) AS n FROM pages WHERE site_id = ? AND route LIKE '/archive/%'", site.id)).toEqual([{ n: notes.length - 12 }]);
        // the rest of the site was not touched by a mirror of /archive
        expect(cacheRows("SELECT count(*) AS n FROM pages WHERE site_id = ? AND route LIKE '/docs/%' AND lang = ''", site.id)).toEqual([{ n: 130 }]);
        // the run was about /archive and what is below it, not its namesake
        expect(cacheRows("SELECT DISTINCT route FROM mirror_items WHERE run_id = ? AND route NOT LIKE '/archive/%'", confirmed.runId)).toEqual([{ route: '/archive' }]);
        expect(cacheRows("SELECT 1 FROM pages WHERE site_id = ? AND route = '/archive-extra'", site.id)).toEqual([]);
      } finally {
        await cmsPages.remove(server(), '/archive-extra');
        await call('mirror.setSettings', { siteId: site.id, scope: { kind: 'site' } });
      }
    });

    test('only the tree levels read, in the default language and German', async () => {
      const levels = await call('sites.add', { name: 'Levels', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
      await call('pages.level', { siteId: levels.id, route: '/' }).then((l) => l.items);
      await call('pages.level', { siteId: levels.id, route: '/about' }).then((l) => l.items);
      await call('mirror.setSettings', { siteId: levels.id, scope: { kind: 'levels' }, languages: ['de'] });
      const content = cms.content;
      const wanted = content.tree().pages.filter((n) => n.parent?.route === '/' || n.parent?.route === '/about');
      const reads = wanted.reduce((n, node) => n + 1 + (Object.keys(content.translated(node)).includes('de') ? 1 : 0), 0);
      const r = await mirrored(call, levels.id);
      // /about holds the page the API cannot read (see TRAP)
      expect(r).toMatchObject({ state: 'done', total: reads, done: reads - UNREADABLE, failed: 0, unreadable: UNREADABLE });
      expect(cacheRows("SELECT DISTINCT lang FROM pages WHERE site_id = ? AND full_at IS NOT NULL ORDER BY lang", levels.id)).toEqual([{ lang: '' }, { lang: 'de' }]);
      expect(cacheRows("SELECT count(*) AS n FROM pages WHERE site_id = ? AND route LIKE '/blog/%'", levels.id)).toEqual([{ n: 0 }]);
      await call('sites.remove', { id: levels.id });
    });

    test('settings: defaults, a change, and bad values refused at the boundary', async () => {
      const other = await call('sites.add', { name: 'Settings only', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: 'k' });
      expect(await call('mirror.settings', { siteId: other.id })).toEqual({ scope: { kind: 'site' }, languages: 'all', autoSync: true });
      expect(await call('mirror.failures', { siteId: other.id })).toEqual({ runId: null, items: [], total: 0, unreadable: [] });
      expect(await call('mirror.setSettings', { siteId: other.id, languages: ['de'], autoSync: false })).toEqual({ scope: { kind: 'site' }, languages: ['de'], autoSync: false });
      expect(await fails('mirror.setSettings', { siteId: other.id, scope: { kind: 'prefix', route: 'no-slash' } } as never)).toMatchObject({ code: 'invalid_input' });
      expect(await fails('mirror.setSettings', { siteId: other.id, languages: ['Deutsch'] })).toMatchObject({ code: 'invalid_input' });
      await call('sites.remove', { id: other.id });
    });

    test('cancelled half-way, then resumed after the Host is created again on the same data folder', async () => {
      const second = await call('sites.add', { name: 'Demo again', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
      const total = expectedReads();
      cms.faults.set({ route: 'GET /pages/*', latencyMs: 25 });
      try {
        await call('mirror.start', { siteId: second.id });
        await until(() => mirrorStatus(call, second.id), (s) => s.done >= 60);
        const { run } = await call('mirror.cancel', { siteId: second.id });
        expect(run).toMatchObject({ state: 'cancelled', resumable: true });
        expect(run!.done).toBeLessThan(total);
      } finally {
        cms.faults.clear();
      }
      await host.close();
      await openHost();
      const before = await mirrorStatus(call, second.id);
      expect(before).toMatchObject({ state: 'cancelled', resumable: true });
      expect(before.done).toBeGreaterThanOrEqual(60);

      // reads the first Host had written to its sockets when it closed reach the sandbox (in this
      // process) only when the event loop next polls: let them land before counting
      await quiet(cms.requests);
      cms.requests.clear();
      try {
        const r = await mirrored(call, second.id);
        expect(r).toMatchObject({ runId: before.runId, state: 'done', total, done: total - UNREADABLE, fetched: total - UNREADABLE, failed: 0, unreadable: UNREADABLE });
        // only what was left is read (failed reads are tried again): nothing cached before the cancel is asked again
        const reads = pageReads();
        const twice = reads.filter((x, i) => reads.findIndex((y) => y.url === x.url) !== i).map((x) => `${x.url} ${x.status}`);
        expect(reads, `read more than once: ${twice.join(', ') || 'none'}; statuses: ${[...new Set(reads.map((x) => x.status))].join(', ')}`).toHaveLength(total - before.done);
      } finally {
        // even when a check fails, so the next case starts with this site gone
        await call('sites.remove', { id: second.id });
      }
    });

    test('a Host that quits in the middle goes on by itself at the next start', async () => {
      const total = expectedReads();
      cms.faults.set({ route: 'GET /pages/*', latencyMs: 25 });
      try {
        await call('mirror.start', { siteId: site.id, revalidateAll: true, fresh: true });
        await until(() => mirrorStatus(call, site.id), (s) => s.done >= 40);
        await host.close(); // no cancel: as at a quit or a crash
      } finally {
        cms.faults.clear();
      }
      const cut = (await (async () => {
        const db = new Database(join(dir.path, DB_FILE), { readonly: true });
        try {
          return db.prepare("SELECT state FROM mirror_runs WHERE site_id = ?").get(site.id) as { state: string };
        } finally {
          db.close();
        }
      })());
      expect(cut.state).toBe('running');
      await openHost();
      const r = await until(() => mirrorStatus(call, site.id), (s) => s.state !== 'running');
      // asked to check everything: every page read (no 304s), before and after the restart
      expect(r).toMatchObject({ state: 'done', total, done: total - UNREADABLE, fetched: total - UNREADABLE, unchanged: 0, failed: 0, unreadable: UNREADABLE });
    });

    test('a page that answers 500 is reported as failed after retries; a dropped connection is retried and succeeds', async () => {
      cms.faults.set({ route: 'GET /pages/about/press', status: 500 }, { route: 'GET /pages/contact', drop: true, times: 4 });
      cms.requests.clear();
      try {
        const r = await mirrored(call, site.id, { revalidateAll: true });
        const total = expectedReads();
        // /about/press is in English and French: both reads fail
        expect(r).toMatchObject({ state: 'done', total, failed: 2, unreadable: UNREADABLE, done: total - 2 - UNREADABLE });
        expect(cacheRows("SELECT lang, attempts, error FROM mirror_items WHERE route = '/about/press' ORDER BY lang")).toEqual([
          { lang: '', attempts: 3, error: expect.any(String) },
          { lang: 'fr', attempts: 3, error: expect.any(String) },
        ]);
        // /contact in en, de and fr shares the four dropped connections; each read ends answered
        const contact = pageReads((q) => q.url.startsWith('/api/v1/pages/contact'));
        expect(contact.filter((q) => q.status === 0)).toHaveLength(4);
        for (const variant of ['/api/v1/pages/contact', '/api/v1/pages/contact?lang=de', '/api/v1/pages/contact?lang=fr']) {
          expect(contact.filter((q) => q.url === variant).at(-1)!.status).toBe(200);
        }
        expect(pageReads((q) => q.url === '/api/v1/pages/about/press').length).toBeGreaterThan(3);
      } finally {
        cms.faults.clear();
      }
      const again = await mirrored(call, site.id);
      expect(again).toMatchObject({ state: 'done', failed: 0, unreadable: UNREADABLE });
    });

    test('a store site or an unknown site cannot be mirrored', async () => {
      const store = await call('sites.add', { name: 'Shop', kind: 'store', baseUrl: 'https://shop.example.com', environment: null, authMode: 'apikey', apiKey: 'k' });
      expect(await fails('mirror.start', { siteId: store.id })).toMatchObject({ code: 'invalid_input' });
      expect(await fails('mirror.start', { siteId: '7f0c6c1e-3d1b-4a8e-9a57-1f2d3c4b5a69' })).toMatchObject({ code: 'not_found' });
      expect(await fails('mirror.start', { siteId: 'nope' })).toMatchObject({ code: 'invalid_input' });
      await call('sites.remove', { id: store.id });
    });
  });

  describe("at the site's own rate limit", () => {
    test('a small site is mirrored within the default bucket (the real service: 120 a minute per account), no 429 on the wire', async () => {
      const small = await startCmsSandbox({ flavor, seed: 'demo', content: 'single', recordRequests: true });
      try {
        const smallSite = await call('sites.add', { name: 'Small', kind: 'cms', baseUrl: small.url, environment: null, authMode: 'apikey', apiKey: small.seeded!.adminApiKey! });
        const pages = small.content.tree().pages.length;
        const r = await mirrored(call, smallSite.id);
        expect(r).toMatchObject({ state: 'done', total: pages, done: pages, fetched: pages, failed: 0 });
        expect(small.requests.list((q) => q.status === 429)).toEqual([]);
        await call('sites.remove', { id: smallSite.id });
      } finally {
        await small.close();
      }
    });
  });

  describe('list rows neither flavour sends', () => {
    test('are failed reads with the reason, not a crash and not skipped in silence; the rest is read', async () => {
      const proxy = await startProxy(cms.origin);
      const children = cms.content.tree().pages.filter((n) => n.parent?.route === '/about');
      const withDe = children.find((n) => !['/about/history', '/about/press'].includes(n.route) && Object.keys(cms.content.translated(n)).includes('de'))!.route;
      proxy.bend = (call, answer) => {
        if (!/^GET \/api\/v1\/pages\?/.test(call) || typeof answer.json !== 'object' || answer.json === null) return null;
        const body = answer.json as { data: Record<string, unknown>[] };
        const de = call.includes('lang=de');
        for (const row of body.data) {
          const route = (row.raw_route ?? row.route) as string;
          if (!de && route === '/about/history') row.order = { wrong: true }; // a wrong type
          if (!de && route === '/about/press') {
            row.route = 42; // no address at all
            delete row.raw_route;
          }
          if (de && route === withDe) row.translated_languages = 'de';
        }
        return { status: answer.status, body: JSON.stringify(body) };
      };
      try {
        const about = await call('sites.add', { name: 'About through a proxy', kind: 'cms', baseUrl: `${proxy.origin}${cms.prefix}`, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
        await call('mirror.setSettings', { siteId: about.id, scope: { kind: 'prefix', route: '/about' }, languages: ['de'] });
        const r = await mirrored(call, about.id);
        // /about also holds the page the API cannot read (see TRAP): said so, not counted as failed
        expect(r).toMatchObject({ state: 'done', failed: 3, unreadable: UNREADABLE, error: expect.stringContaining('3 of') });
        expect(r.done + r.failed + r.unreadable).toBe(r.total);
        const failures = await call('mirror.failures', { siteId: about.id });
        expect(failures.items).toEqual(
          expect.arrayContaining([
            { route: '/about/history', lang: '', reason: expect.stringMatching(/page list cannot be read \(order: /) },
            { route: null, row: expect.any(Number), lang: '', reason: expect.stringMatching(/page list cannot be read \(route: /) },
            { route: withDe, lang: 'de', reason: expect.stringMatching(/page list cannot be read \(translated_languages: /) },
          ]),
        );
        // the other pages of the scope are in the cache
        const others = children.filter((n) => !['/about/history', '/about/press', TRAP].includes(n.route)).map((n) => n.route);
        for (const route of others) expect(cacheRows("SELECT 1 AS ok FROM pages WHERE site_id = ? AND route = ? AND lang = '' AND full_at IS NOT NULL", about.id, route)).toEqual([{ ok: 1 }]);
        await call('sites.remove', { id: about.id });
      } finally {
        await proxy.close();
      }
    });
  });

  describe('a long page list', () => {
    test('a list that does not say how long it is is followed page by page to its end', async () => {
      // the same site through a proxy that takes every count out of the list answers: what is left
      // is links.next (real) or only full pages (the documents' envelope without its meta)
      const proxy = await startProxy(cms.origin);
      proxy.bend = (call, answer) => {
        if (!/^GET \/api\/v1\/pages\?/.test(call) || typeof answer.json !== 'object' || answer.json === null) return null;
        const body = answer.json as { meta?: Record<string, unknown> & { pagination?: Record<string, unknown> } };
        if (body.meta) {
          delete body.meta.total;
          delete body.meta.pagination?.total;
          delete body.meta.pagination?.total_pages;
        }
        return { status: answer.status, body: JSON.stringify(body) };
      };
      try {
        const blog = await call('sites.add', { name: 'Blog through a proxy', kind: 'cms', baseUrl: `${proxy.origin}${cms.prefix}`, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
        await call('mirror.setSettings', { siteId: blog.id, scope: { kind: 'prefix', route: '/blog' }, languages: ['de'] });
        const posts = cms.content.tree().pages.filter((n) => n.route.startsWith('/blog/'));
        expect(posts.length).toBeGreaterThan(100);
        const reads = 1 + posts.reduce((n, node) => n + 1 + (Object.keys(cms.content.translated(node)).includes('de') ? 1 : 0), 0);
        const r = await mirrored(call, blog.id);
        expect(r).toMatchObject({ state: 'done', total: reads, done: reads, failed: 0 });
        expect(cacheRows("SELECT count(*) AS n FROM pages WHERE site_id = ? AND route LIKE '/blog/%' AND lang = '' AND full_at IS NOT NULL", blog.id)).toEqual([{ n: posts.length }]);
        await call('sites.remove', { id: blog.id });
      } finally {
        await proxy.close();
      }
    });

    test('cancelled while the list is read, resumed after a restart: every page listed and read once', async () => {
      const big = await startCmsSandbox({ flavor, seed: 'demo', content: { pages: 650 }, languages: [], recordRequests: true, ...UNHURRIED });
      try {
        const bigSite = await call('sites.add', { name: 'Big', kind: 'cms', baseUrl: big.url, environment: null, authMode: 'apikey', apiKey: big.seeded!.adminApiKey! });
        // list pages answer slowly; page reads are quick
        big.faults.set({ route: 'GET /pages', latencyMs: 150 });
        await call('mirror.start', { siteId: bigSite.id });
        await until(() => mirrorStatus(call, bigSite.id), (s) => s.total >= 100);
        const { run } = await call('mirror.cancel', { siteId: bigSite.id });
        expect(run).toMatchObject({ state: 'cancelled', phase: 'listing', listed: false });
        await host.close();
        await openHost();
        big.faults.clear();
        const r = await mirrored(call, bigSite.id);
        expect(r).toMatchObject({ state: 'done', total: 650, done: 650, fetched: 650, failed: 0 });
        // each page read exactly once over both Hosts
        const reads = big.requests.list((q) => q.method === 'GET' && /^\/api\/v1\/pages\/[^?]/.test(q.url) && q.status === 200);
        expect(new Set(reads.map((q) => q.url)).size).toBe(650);
        expect(reads).toHaveLength(650);
        expect(cacheRows('SELECT count(*) AS n FROM pages WHERE site_id = ? AND full_at IS NOT NULL', bigSite.id)).toEqual([{ n: 650 }]);
        await call('sites.remove', { id: bigSite.id });
      } finally {
        await big.close();
      }
    });
  });

  describe('offline, after mirroring (the sandbox stopped)', () => {
    test('tree, list, editor, translations and the matrix answer from the cache, marked with the time of the copy', async () => {
      const onlineTop = await call('pages.level', { siteId: site.id, route: '/' }).then((l) => l.items);
      const onlineMatrix = await call('translations.matrix', { siteId: site.id });
      const onlineDocs = await call('pages.get', { siteId: site.id, route: '/docs' });
      await cms.close();
      cmsOpen = false;

      const top = await call('pages.level', { siteId: site.id, route: '/' }).then((l) => l.items);
      expect(top.map((p) => p.route)).toEqual(onlineTop.map((p) => p.route));
      expect(top.every((p) => typeof p.cachedAt === 'string')).toBe(true);
      const blog = await call('pages.level', { siteId: site.id, route: '/blog' }).then((l) => l.items);
      expect(blog.length).toBeGreaterThan(100);
      expect(blog[0]!.cachedAt).toEqual(expect.any(String));
      expect(await call('pages.level', { siteId: site.id, route: '/legal/imprint' }).then((l) => l.items)).toEqual([]); // a leaf

      const list = await call('pages.list', { siteId: site.id, parent: '/docs', sort: 'title', order: 'desc', perPage: 10, page: 2 });
      expect(list).toMatchObject({ total: 130, page: 2, perPage: 10, cachedAt: expect.any(String) });
      expect(list.items).toHaveLength(10);
      const titles = list.items.map((p) => p.title.toLowerCase());
      expect(titles).toEqual([...titles].sort().reverse());
      const unpublished = await call('pages.list', { siteId: site.id, published: false, perPage: 100 });
      expect(unpublished.items.length).toBeGreaterThan(0);
      expect(unpublished.items.every((p) => !p.published)).toBe(true);

      const docs = await call('pages.get', { siteId: site.id, route: '/docs' });
      expect(docs).toMatchObject({ title: onlineDocs.title, content: onlineDocs.content, etag: onlineDocs.etag, cachedAt: expect.any(String) });
      const de = await call('pages.get', { siteId: site.id, route: '/home', lang: 'de' });
      expect(de).toMatchObject({ title: 'Startseite', cachedAt: expect.any(String) });

      const matrix = await call('translations.matrix', { siteId: site.id });
      expect(matrix).toMatchObject({ languages: ['en', 'de', 'fr'], defaultLanguage: 'en', names: onlineMatrix.names, cachedAt: expect.any(String) });
      expect(matrix.rows.map((r) => r.route)).toEqual(onlineMatrix.rows.map((r) => r.route));
      const homeRow = matrix.rows.find((r) => r.route === '/home')!;
      expect(homeRow).toEqual(onlineMatrix.rows.find((r) => r.route === '/home'));
      expect(await call('translations.siteLanguages', { siteId: site.id })).toMatchObject({ default: 'en', cachedAt: expect.any(String) });

      // and the site is shown offline; a mirror cannot start
      expect((await call('sync.status', {})).find((s) => s.siteId === site.id)).toMatchObject({ online: false });
      expect(await fails('mirror.start', { siteId: site.id })).toMatchObject({ code: 'network' });
    });
  });
});
