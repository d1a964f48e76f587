/**
 * Pages, translations and media through the Host, against the CMS sandbox's demo site
 * (301 pages in en/de/fr). The cache is checked on disk (SQLite) where it matters.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import type { ErrorInfo, Site } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { withHost, withPlainHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { hostCalls } from '../support/host-calls';
import { startProxy } from '../support/proxy';
import { tempDir } from '../support/tmp';

let cms: CmsSandbox;
let host: Host;
let dir: ReturnType<typeof tempDir>;
let site: Site;
const requests: string[] = [];
/** The status of each answer, in order. */
const statuses: number[] = [];
const events: { name: string; payload: unknown }[] = [];

const { call, fails } = hostCalls(() => host);

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let fx: DemoHost;

  beforeAll(async () => {
    requests.length = 0;
    events.length = 0;
    const counting: typeof fetch = async (input, init) => {
      const u = new URL(String(input));
      requests.push(`${init?.method ?? 'GET'} ${u.pathname}`);
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    };
    fx = await withHost({ sandbox: { flavor }, host: { fetch: counting } });
    ({ cms, host, dir, site } = fx);
    host.onEvent((name, payload) => events.push({ name, payload }));
  });
  afterAll(() => fx.close());

  describe('browsing', () => {
    test('the top level and a lazy child level, in the site order', async () => {
      const top = await call('pages.level', { siteId: site.id, route: '/' }).then((l) => l.items);
      expect(top.map((p) => p.route).slice(0, 4)).toEqual(['/home', '/blog', '/docs', '/about']);
      expect(top.find((p) => p.route === '/blog')!.hasChildren).toBe(true);
      const about = await call('pages.level', { siteId: site.id, route: '/about' }).then((l) => l.items);
      expect(about.map((p) => p.slug)).toEqual(['über-uns', 'our team', 'history', 'press']);
    });

    test('a search the site refuses: the Host lists the same query without it and says so', async () => {
      cms.faults.set({ route: 'GET /pages', status: 400, times: 1 });
      const r = await call('pages.list', { siteId: site.id, search: 'meadow', template: 'form', perPage: 10 });
      expect(r.searchUnavailable).toBe(true);
      expect(r.items.length).toBeGreaterThan(0);
      expect(r.items.every((p) => p.template === 'form')).toBe(true);
      // a search the site answers carries no flag
      expect((await call('pages.list', { siteId: site.id, search: 'river', perPage: 5 })).searchUnavailable).toBeUndefined();
    });

    test('the list view filters, sorts and pages', async () => {
      const r = await call('pages.list', { siteId: site.id, parent: '/blog', published: false, perPage: 5 });
      expect(r.total).toBeGreaterThan(0);
      expect(r.items.every((p) => !p.published && p.route.startsWith('/blog/'))).toBe(true);
      const sorted = await call('pages.list', { siteId: site.id, childrenOf: '/docs', sort: 'title', order: 'desc', perPage: 100 });
      const titles = sorted.items.map((p) => p.title);
      expect(titles).toEqual([...titles].sort((a, b) => b.localeCompare(a)));
    });

    test('a second read of an unchanged page answers the same copy with one request (the documents: a 304; the real service never answers 304)', async () => {
      const first = await call('pages.get', { siteId: site.id, route: '/about/our team' });
      expect(first.etag).toBeTruthy();
      expect(first.title).toBe('Our team');
      requests.length = 0;
      statuses.length = 0;
      const again = await call('pages.get', { siteId: site.id, route: '/about/our team' });
      expect(again).toEqual(first);
      expect(requests).toEqual(['GET /api/v1/pages/about/our%20team']);
      expect(statuses).toEqual([real ? 200 : 304]);
    });
  });

  describe('offline', () => {
    test('the site unreachable: pages read before come from the cache, marked with the time of the copy', async () => {
      const page = await call('pages.get', { siteId: site.id, route: '/about/über-uns' });
      await call('pages.level', { siteId: site.id, route: '/about' }).then((l) => l.items);
      cms.faults.set({ route: '*', drop: true });
      try {
        const offline = await call('pages.get', { siteId: site.id, route: '/about/über-uns' });
        expect(offline).toMatchObject({ title: page.title, content: page.content, cachedAt: expect.any(String) });
        expect((await call('pages.level', { siteId: site.id, route: '/about' }).then((l) => l.items)).map((p) => p.slug)).toContain('über-uns');
        expect(await fails('pages.get', { siteId: site.id, route: '/docs' })).toMatchObject({ code: 'network' });
      } finally {
        cms.faults.clear();
      }
    });
  });

  describe('editing', () => {
    /** The editor's Save: the text as the page's draft, pushed at once (drafts.submit). */
    const submit = (route: string, page: { title: string; header: Record<string, unknown> }, change: { title?: string; content: string }) =>
      // the editor's title field is the header's `title` (as the site keeps it)
      call('drafts.submit', { siteId: site.id, route, title: change.title ?? page.title, header: change.title ? { ...page.header, title: change.title } : page.header, content: change.content });

    test('save with If-Match; a page changed on the site meanwhile is a conflict and nothing is overwritten', async () => {
      const page = await call('pages.get', { siteId: site.id, route: '/about/history' });
      const saved = await submit('/about/history', page, { content: 'Mine, first.' });
      if (saved.outcome !== 'pushed') throw new Error(`expected pushed, got ${saved.outcome}`);
      expect(saved.page.content).toBe('Mine, first.');
      expect(saved.page.etag).not.toBe(page.etag);

      cms.editPage({ route: '/about/history', content: 'Theirs, edited on the site.' });
      const second = await submit('/about/history', saved.page, { content: 'Mine, second.' });
      expect(second).toMatchObject({ outcome: 'conflicted', draft: { route: '/about/history', state: 'conflicted' } });
      const now = await call('pages.get', { siteId: site.id, route: '/about/history' });
      expect(now.content).toContain('Theirs, edited on the site.');
      if (second.outcome === 'conflicted') await call('drafts.discard', { draftId: second.draft.id });
    });

    test('two saves in a row, each on the copy the last answered: both go through (the real PATCH answer carries an ETag of the page before the write; the Host reads the page again)', async () => {
      const page = await call('pages.get', { siteId: site.id, route: '/about/press' });
      const one = await submit('/about/press', page, { content: 'First save.' });
      if (one.outcome !== 'pushed') throw new Error(`expected pushed, got ${one.outcome}`);
      const two = await submit('/about/press', one.page, { content: 'Second save.' });
      if (two.outcome !== 'pushed') throw new Error(`expected pushed, got ${two.outcome}`);
      expect(two.page.content).toBe('Second save.');
      const three = await submit('/about/press', two.page, { title: 'Press room', content: 'Second save.' });
      expect(three).toMatchObject({ outcome: 'pushed', page: { title: 'Press room', content: 'Second save.' } });
      expect(cms.content.find('/about/press')).toBeTruthy();
    });

    test('create, move, delete; field errors come back by name', async () => {
      const created = await call('pages.create', { siteId: site.id, route: '/about/careers', title: 'Careers', content: 'We are hiring.' });
      expect(created).toMatchObject({ route: '/about/careers', title: 'Careers' });
      const moved = await call('pages.move', { siteId: site.id, route: '/about/careers', parent: '/blog' });
      expect(moved.route).toBe('/blog/careers');
      expect((await fails('pages.get', { siteId: site.id, route: '/about/careers' })).code).toBe('not_found');
      await call('pages.delete', { siteId: site.id, route: '/blog/careers' });
      expect((await fails('pages.get', { siteId: site.id, route: '/blog/careers' })).code).toBe('not_found');
      const bad = await fails('pages.create', { siteId: site.id, route: '/about', title: '' });
      expect(bad.fields?.title).toBeTruthy();
      // a missing parent is the parent's field (the documents name the route field, the real service only says it)
      const orphan = await fails('pages.create', { siteId: site.id, route: '/nowhere/careers', title: 'Careers' });
      expect(orphan).toMatchObject({ code: 'invalid_input', fields: { parent: expect.stringMatching(/parent page not found/i) } });
    });

    test('reorganize: a page moved under another parent, each row of the answer addressed by its structural route', async () => {
      await call('pages.create', { siteId: site.id, route: '/about/moving', title: 'Moving', content: 'x' });
      const rows = await call('pages.reorganize', { siteId: site.id, operations: [{ route: '/about/moving', parent: '/docs', position: 0 }] });
      expect(rows).toContainEqual(expect.objectContaining({ route: '/docs/moving', slug: 'moving', parent: '/docs' }));
      expect(rows.every((r) => r.route.startsWith(`${r.parent === '/' ? '' : r.parent}/`))).toBe(true);
      expect((await call('pages.get', { siteId: site.id, route: '/docs/moving' })).title).toBe('Moving');
      await call('pages.delete', { siteId: site.id, route: '/docs/moving' });
    });

    test('moving a page into its own subtree is refused with the reason', async () => {
      const err = await fails('pages.reorganize', { siteId: site.id, operations: [{ route: '/docs', parent: '/docs/getting-started' }] });
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(/subtree|itself|own/i);
    });

    test('batch unpublish reports per route; a missing route refuses the whole batch with the reason', async () => {
      const r = await call('pages.batch', { siteId: site.id, operation: 'unpublish', routes: ['/about/press', '/about/history'] });
      expect(r).toMatchObject({ operation: 'unpublish', total: 2, successful: 2, failed: 0 });
      expect(r.results.map((x) => x.status)).toEqual(['success', 'success']);
      const err = await fails('pages.batch', { siteId: site.id, operation: 'publish', routes: ['/about/press', '/about/nowhere'] });
      expect(err).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('/about/nowhere') });
      expect((await call('pages.get', { siteId: site.id, route: '/about/press' })).published).toBe(false);
    });
  });

  describe('translations', () => {
    test('the matrix tells real files from the base file', async () => {
      const m = await call('translations.matrix', { siteId: site.id });
      expect(m.languages).toEqual(['en', 'de', 'fr']);
      // the languages' names come with it: the area needs no second read of the site's languages
      expect(Object.keys(m.names)).toEqual(['en', 'de', 'fr']);
      expect(m.names.de).toMatch(/German|Deutsch/);
      expect(m.rows.length).toBeGreaterThan(250);
      const history = m.rows.find((r) => r.route === '/about/history')!;
      expect(history.explicit).toEqual(['en']);
    });

    test('translate (prefilled from the source), compare, and a second translate is refused', async () => {
      const source = await call('pages.get', { siteId: site.id, route: '/about/history' });
      const setUp = await call('drafts.submit', { siteId: site.id, route: '/about/history', title: source.title, content: source.content, header: { ...source.header, subtitle: 'Since 1850', menu: 'History' } });
      expect(setUp.outcome).toBe('pushed');
      const done = await call('translations.translate', { siteId: site.id, route: '/about/history', lang: 'fr', title: 'Histoire' });
      expect(done).toMatchObject({ lang: 'fr' });
      const cmp = await call('translations.compare', { siteId: site.id, route: '/about/history', source: 'en', target: 'fr' });
      expect(cmp.target).toMatchObject({ exists: true, title: 'Histoire' });
      expect(cmp.target.content).toBe(cmp.source.content);
      // the rest of the source's header comes along (the real service takes a header whole)
      const { title: _title, ...sourceHeader } = cmp.source.header!;
      expect(sourceHeader).toMatchObject({ subtitle: 'Since 1850', menu: 'History' });
      expect(cmp.target.header).toMatchObject(sourceHeader);
      const again = await fails('translations.translate', { siteId: site.id, route: '/about/history', lang: 'fr' });
      expect(again.code).toBe('invalid_input');
      const missing = await call('translations.compare', { siteId: site.id, route: '/about/history', source: 'en', target: 'de' });
      expect(missing.target.exists).toBe(false);
    });
  });

  describe('translations, continued', () => {
    test("a page's languages, a sync of a translation from its source, and taxonomy terms as text", async () => {
      const about = await call('translations.languages', { siteId: site.id, route: '/about/history' });
      expect(Object.keys(about.translated).sort()).toEqual(['en', 'fr']); // fr made by the translate test above
      expect(about.untranslated).toContain('de');
      const source = await call('pages.get', { siteId: site.id, route: '/about/history' });
      const synced = await call('translations.sync', { siteId: site.id, route: '/about/history', sourceLang: 'en', targetLang: 'fr' });
      expect(synced).toMatchObject({ route: '/about/history', lang: 'fr' });
      expect((await call('pages.get', { siteId: site.id, route: '/about/history', lang: 'fr' })).content).toBe(source.content);
      // the real service sends a numeric term (2024) as a number: read as text either way
      const terms = await call('pages.taxonomy', { siteId: site.id });
      expect(Object.values(terms).flat().every((t) => typeof t === 'string')).toBe(true);
      expect(Object.values(terms).flat()).toContain('2024');
    });
  });

  describe('a language a page lacks', () => {
    test('is not found: the real service answers its default-language page instead, which is not kept as the translation', async () => {
      const m = await call('translations.matrix', { siteId: site.id });
      const row = m.rows.find((r) => r.route.startsWith('/docs/') && !r.translated.includes('de') && r.explicit.includes('en'))!;
      expect(row).toBeTruthy();
      const err = await fails('pages.get', { siteId: site.id, route: row.route, lang: 'de' });
      expect(err).toMatchObject({ code: 'not_found', message: expect.stringContaining('de') });
      // the default-language copy is not cached under de: offline, de is not found either
      cms.faults.set({ route: '*', drop: true });
      try {
        expect(await fails('pages.get', { siteId: site.id, route: row.route, lang: 'de' })).toMatchObject({ code: 'network' });
      } finally {
        cms.faults.clear();
      }
      // the page itself reads as ever
      expect((await call('pages.get', { siteId: site.id, route: row.route })).title).toBe(row.title);
    });
  });

  describe('media', () => {
    test('upload with progress, list with a filter, delete', async () => {
      const bytes = Buffer.alloc(300_000, 7);
      events.length = 0;
      const after = await call('media.upload', { siteId: site.id, route: '/about/history', uploadId: 'u1', filename: 'big.bin.txt', type: 'text/plain', data: bytes.toString('base64') });
      expect(after.find((m) => m.filename === 'big.bin.txt')).toMatchObject({ size: 300_000 });
      const progress = events.filter((e) => e.name === 'media.progress').map((e) => e.payload as { sent: number; total: number });
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.at(-1)!.sent).toBe(progress.at(-1)!.total);
      const tagged = await call('media.list', { siteId: site.id, route: '/home', filter: ['tags:contains:team'] });
      expect(tagged.map((m) => m.filename)).toEqual(['banner.png']);
      await call('media.delete', { siteId: site.id, route: '/about/history', filename: 'big.bin.txt' });
      expect((await call('media.list', { siteId: site.id, route: '/about/history' })).some((m) => m.filename === 'big.bin.txt')).toBe(false);
      const refused = await fails('media.upload', { siteId: site.id, route: '/about/history', uploadId: 'u2', filename: 'evil.php', type: 'text/plain', data: 'PD9waHA=' });
      expect(refused.code).toBe('invalid_input');
    });

    test('a 50 MB file goes in 4 MB pieces, then to the site in one upload; more than 64 MB is refused before it is sent', async () => {
      const { MEDIA_CHUNK_BYTES } = await import('../../electron/contract');
      const size = 50 * 1024 * 1024;
      const file = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4096) file[i] = i % 251;
      let received = 0;
      for (let offset = 0; offset < size; offset += MEDIA_CHUNK_BYTES) {
        ({ received } = await call('media.uploadChunk', { uploadId: 'big', offset, data: file.subarray(offset, offset + MEDIA_CHUNK_BYTES).toString('base64') }));
      }
      expect(received).toBe(size);
      const list = await call('media.upload', { siteId: site.id, route: '/about/history', uploadId: 'big', filename: 'film.mp4', type: 'video/mp4' });
      const item = list.find((m) => m.filename === 'film.mp4')!;
      expect(item).toMatchObject({ size });
      // the site has the very bytes, in order
      const served = Buffer.from(await (await fetch(new URL(item.url!, cms.url))).arrayBuffer());
      expect(served.length).toBe(size);
      expect(Buffer.compare(served, file)).toBe(0);
      // the staged bytes were handed over once
      expect((await fails('media.upload', { siteId: site.id, route: '/about/history', uploadId: 'big', filename: 'again.mp4', type: 'video/mp4' })).message).toMatch(/not here/);
      await call('media.delete', { siteId: site.id, route: '/about/history', filename: 'film.mp4' });

      // out of order, and over the site's limit per file
      await call('media.uploadChunk', { uploadId: 'gap', offset: 0, data: Buffer.alloc(10).toString('base64') });
      expect((await fails('media.uploadChunk', { uploadId: 'gap', offset: 20, data: Buffer.alloc(10).toString('base64') })).message).toMatch(/out of order/);
      const piece = Buffer.alloc(MEDIA_CHUNK_BYTES).toString('base64');
      let err: ErrorInfo | undefined;
      for (let offset = 0; offset <= 64 * 1024 * 1024 && !err; offset += MEDIA_CHUNK_BYTES) {
        const r = await host.invoke('media.uploadChunk', { uploadId: 'huge', offset, data: piece });
        if (!r.ok) err = r.error;
      }
      expect(err).toMatchObject({ code: 'invalid_input', fields: { file: expect.stringContaining('64 MB') } });
    });

    test('an upload with progress reaches the site with a Content-Length, not chunked (a PHP front end may see no file otherwise)', async () => {
      const proxy = await startProxy(cms.origin);
      try {
        const via = await call('sites.add', { name: 'Through a proxy', kind: 'cms', baseUrl: `${proxy.origin}${cms.prefix}`, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
        const bytes = Buffer.alloc(1_000_000, 3);
        events.length = 0;
        const after = await call('media.upload', { siteId: via.id, route: '/about/history', uploadId: 'cl', filename: 'sized.txt', type: 'text/plain', data: bytes.toString('base64') });
        expect(after.find((m) => m.filename === 'sized.txt')).toMatchObject({ size: 1_000_000 });
        const post = proxy.seen.find((r) => r.method === 'POST' && r.url.endsWith('/media'))!;
        expect(post.headers['transfer-encoding']).toBeUndefined();
        expect(Number(post.headers['content-length'])).toBe(post.bytes);
        expect(post.bytes).toBeGreaterThan(1_000_000);
        // and the progress was told along the way
        const progress = events.filter((e) => e.name === 'media.progress' && (e.payload as { uploadId: string }).uploadId === 'cl').map((e) => e.payload as { sent: number; total: number });
        expect(progress.length).toBeGreaterThan(2);
        expect(progress.at(-1)!.sent).toBe(progress.at(-1)!.total);
        await call('media.delete', { siteId: via.id, route: '/about/history', filename: 'sized.txt' });
        await call('sites.remove', { id: via.id });
      } finally {
        await proxy.close();
      }
    });

    test('eleven filter clauses are refused before any request', async () => {
      const err = await fails('media.list', { siteId: site.id, route: '/home', filter: Array.from({ length: 11 }, (_, i) => `title:x${i}`) });
      expect(err.fields?.filter).toContain('At most 10');
    });
  });

  describe('blueprints', () => {
    test('templates and the fields of one', async () => {
      const templates = await call('blueprints.templates', { siteId: site.id });
      expect(templates.map((t) => t.type)).toContain('default');
      const bp = await call('blueprints.page', { siteId: site.id, template: 'default' });
      const names = JSON.stringify(bp.fields);
      expect(names).toContain('header.title');
      // select options as value and label, whichever way the site sent them (the real service: [{value, label}])
      const flat = (fs: typeof bp.fields): typeof bp.fields => fs.flatMap((f) => [f, ...flat(f.fields ?? [])]);
      const withOptions = flat(bp.fields).filter((f) => f.options?.length);
      expect(withOptions.length).toBeGreaterThan(0);
      for (const f of withOptions) for (const o of f.options!) expect(o).toEqual({ value: expect.any(String), label: expect.not.stringContaining('[object') });
    });
  });

  describe('removing the site', () => {
    test('drops its cached pages', async () => {
      const other = await withPlainHost();
      await other.close();
      await call('sites.remove', { id: site.id });
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(`${dir.path}/sitedesk.db`, { readonly: true });
      expect(db.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 0 });
      db.close();
    });
  });
});
