/**
 * The CMS sandbox's page reads over real HTTP (spec document 1, sections 2, 4, 7, 8): the list with
 * paging meta, sort orders and every filter, single reads with their options, ETag / If-None-Match,
 * percent-encoded routes, languages, taxonomy, blueprints, permissions. One demo site (301 pages in
 * en, de, fr), read only. Every test runs against both flavours: where the real Grav API plugin
 * answers otherwise than the documents, each flavour's own answer is asserted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { expectProblem, pagePath, pagination, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const routes = (rows: Json[]) => rows.map((r) => r.route as string);
const DRAFTS = [23, 46, 69, 92, 115, 138];

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  /** the status of a bad request: the documents' 400, the real service's 422 */
  const BAD = real ? 422 : 400;
  /** the home page's route: `/` in the real service, its folder's route in the documents */
  const HOME = real ? '/' : '/home';
  let sb: CmsSandbox;
  let api: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  async function list(query: string): Promise<Json[]> {
    const r = await api.get(`/pages?${query.includes('per_page=') ? '' : 'per_page=100&'}${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body.data as Json[];
  }

  /** Every row of a listing, following the pages. */
  async function listAll(query: string): Promise<Json[]> {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const r = await api.get(`/pages?per_page=100&page=${page}&${query}`);
      expect(r.status, r.text).toBe(200);
      out.push(...(r.body.data as Json[]));
      if (page >= pagination(r).total_pages) return out;
    }
  }

  describe('GET /pages', () => {
    test('the demo site: 301 pages, paged 20 at a time by default, with meta and links', async () => {
      expect(sb.contentSeeded).toEqual({ seed: 'demo', pages: 301, languages: ['en', 'de', 'fr'] });
      const r = await api.get('/pages');
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(20);
      const paging = { page: 1, per_page: 20, total: 301, total_pages: 16 };
      // the documents' flat keys besides meta.pagination; the real service sends only the latter
      expect(r.body.meta).toEqual(real ? { pagination: paging } : { ...paging, pagination: paging });
      expect(r.body.links).toEqual({ self: '/api/v1/pages?page=1&per_page=20', next: '/api/v1/pages?page=2&per_page=20', last: '/api/v1/pages?page=16&per_page=20' });
    });

    test('list rows: the summary fields, has_children, no content or media', async () => {
      const [blog] = await list('children_of=/&template=blog');
      const header = expect.objectContaining({ title: 'Blog', content: { items: '@self.children', order: { by: 'date', dir: 'desc' }, limit: 10 } });
      if (real) {
        expect(blog).toEqual({
          route: '/blog',
          raw_route: '/blog',
          parent_route: '/',
          slug: 'blog',
          folder: '02.blog',
          title: 'Blog',
          menu: 'Blog',
          template: 'blog',
          language: 'en',
          header,
          taxonomy: [],
          published: true,
          visible: true,
          routable: true,
          date: '2024-01-01T09:00:00+00:00',
          modified: '2024-01-01T09:00:00+00:00',
          order: '02.',
          has_children: true,
        });
        expect(Object.keys(blog!)).toEqual(['route', 'raw_route', 'parent_route', 'slug', 'folder', 'title', 'menu', 'template', 'language', 'header', 'taxonomy', 'published', 'visible', 'routable', 'date', 'modified', 'order', 'has_children']);
      } else {
        expect(blog).toEqual({
          route: '/blog',
          slug: 'blog',
          folder: '02.blog',
          parent_route: '/',
          title: 'Blog',
          template: 'blog',
          language: 'en',
          header,
          taxonomy: {},
          published: true,
          visible: true,
          routable: true,
          date: '2024-01-01T09:00:00+00:00',
          modified: '2024-01-01T09:00:00+00:00',
          order: 2,
          has_children: true,
        });
      }
      const leaf = (await list('search=bright-market-1&parent=/blog')).find((r) => r.route === '/blog/bright-market-1');
      expect(leaf).toMatchObject({ route: '/blog/bright-market-1', has_children: false, order: real ? false : null, visible: false });
    });

    test('paging: page and per_page, per_page capped, bad values clamped, past the end empty', async () => {
      const r = await api.get('/pages?page=3&per_page=7');
      expect(r.body.data).toHaveLength(7);
      expect(pagination(r)).toMatchObject({ page: 3, per_page: 7, total: 301, total_pages: 43 });
      expect(r.body.links).toMatchObject({ first: '/api/v1/pages?page=1&per_page=7', prev: '/api/v1/pages?page=2&per_page=7', next: '/api/v1/pages?page=4&per_page=7' });
      const all = await api.get('/pages?page=1&per_page=7');
      const page3 = await api.get('/pages?page=3&per_page=7');
      expect(routes(page3.body.data as Json[])).not.toContain((all.body.data as Json[])[0]!.route);

      // the documents cap per_page at 100; the real service at 1000, and it reads numbers as PHP
      // does ("abc" is 0, so one row a page)
      expect(pagination(await api.get('/pages?per_page=500')).per_page).toBe(real ? 500 : 100);
      expect(pagination(await api.get('/pages?per_page=5000')).per_page).toBe(real ? 1000 : 100);
      expect(pagination(await api.get('/pages?per_page=0')).per_page).toBe(1);
      expect(pagination(await api.get('/pages?per_page=abc')).per_page).toBe(real ? 1 : 20);
      expect(pagination(await api.get('/pages?per_page=12abc')).per_page).toBe(real ? 12 : 20);
      expect(pagination(await api.get('/pages?page=-4')).page).toBe(1);
      const past = await api.get('/pages?page=99');
      expect(past.body.data).toEqual([]);
      expect(past.body.links).toMatchObject({ prev: '/api/v1/pages?page=98&per_page=20' });
    });

    test('locate: the chunk holding a route (the real service also finds the home page by its raw route)', async () => {
      const located = await api.get('/pages?per_page=10&sort=title&locate=/docs/themes');
      const idx = pagination(located).located_at_index!;
      expect(pagination(located).page).toBe(Math.floor(idx / 10) + 1);
      expect(routes(located.body.data as Json[])).toContain('/docs/themes');
      const home = await api.get('/pages?per_page=10&sort=title&locate=/home');
      expect(routes(home.body.data as Json[])).toContain(HOME);
    });

    test('sort orders: date (default, newest first), title, slug, modified, order; asc and desc', async () => {
      // the real `parent` filter is a bare prefix: it lists /blog itself too
      const byDefault = await listAll('parent=/blog');
      expect(byDefault).toHaveLength(real ? 141 : 140);
      const dates = byDefault.map((r) => r.date as string);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(byDefault[0]!.route).toBe('/blog/quiet-garden-140');

      const asc = await listAll('parent=/blog&sort=date&order=asc');
      expect(asc[0]!.route).toBe(real ? '/blog' : '/blog/bright-market-1');

      const titles = (await listAll('parent=/docs&sort=title')).map((r) => (r.title as string).toLowerCase());
      expect(titles).toEqual([...titles].sort());
      const titlesDesc = (await listAll('parent=/docs&sort=title&order=desc')).map((r) => (r.title as string).toLowerCase());
      expect(titlesDesc).toEqual([...titles].reverse());

      const slugs = (await list('children_of=/&sort=slug')).map((r) => r.slug);
      expect(slugs).toEqual(['about', 'archive', 'blog', 'contact', 'docs', 'home', 'legal']);

      const modified = (await listAll('parent=/archive&sort=modified&order=desc')).map((r) => r.modified as string);
      expect(modified).toEqual([...modified].sort().reverse());

      // order: the documents put unordered pages last (desc: first); the real service compares as
      // PHP does, where false (unordered) is below "01."
      const ordered = await list('children_of=/&sort=order');
      expect(routes(ordered)).toEqual(real ? ['/archive', '/legal', '/', '/blog', '/docs', '/about', '/contact'] : ['/home', '/blog', '/docs', '/about', '/contact', '/archive', '/legal']);
      expect(routes(await list('children_of=/&sort=order&order=desc')).slice(0, 2)).toEqual(real ? ['/contact', '/about'] : ['/archive', '/legal']);
    });

    test("sort=default with children_of: native order, or the parent's collection order", async () => {
      const chapters = await list('children_of=/docs&sort=default');
      expect(chapters.map((r) => r.order)).toEqual(real ? ['01.', '02.', '03.', '04.', '05.', '06.', '07.', '08.', '09.', '10.'] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // the blog's header orders its collection by date, newest first
      const posts = await list('children_of=/blog&sort=default&per_page=3');
      expect(routes(posts)).toEqual(['/blog/quiet-garden-140', '/blog/wild-orchard-139', '/blog/early-forest-138']);
      // sort=default without children_of: order ascending (unordered first in the real service)
      const [first] = await list('sort=default&per_page=1');
      if (real) expect(first!.order).toBe(false);
      else expect(first!.route).toBe(HOME);
      expect((await list('children_of=/&sort=default'))[0]!.route).toBe(HOME);
    });

    test('an unknown sort field is a 422', async () => {
      expect(expectProblem(await api.get('/pages?sort=colour'), 422).detail).toBe("Invalid sort field 'colour'. Allowed: date, title, slug, modified, order, default");
    });

    test('filters: published, visible, routable, template', async () => {
      const drafts = await list('published=false');
      // every 23rd post is a draft
      expect(routes(drafts).map((r) => Number(/-(\d+)$/.exec(r)![1])).sort((a, b) => a - b)).toEqual(DRAFTS);
      expect(drafts.every((r) => r.published === false)).toBe(true);
      expect(pagination(await api.get('/pages?published=true')).total).toBe(295);

      // the real service's routable() is false for an unpublished page too
      const unroutable = routes(await list('routable=false'));
      if (real) expect(unroutable.sort()).toEqual(['/about/press', ...drafts.map((r) => r.route as string)].sort());
      else expect(unroutable).toEqual(['/about/press']);
      const hidden = await listAll('visible=false');
      expect(hidden.every((r) => r.visible === false)).toBe(true);
      expect(routes(hidden)).toEqual(expect.arrayContaining(['/about/press', '/archive', '/legal', '/blog/bright-market-1']));

      expect(await list('template=chapter')).toHaveLength(10);
      expect(routes(await list('template=form'))).toEqual(['/contact']);
    });

    test('filters: parent, children_of (direct children), root', async () => {
      const docs = await listAll('parent=/docs');
      // the documents: descendants; the real service: a prefix of the route, the parent included
      expect(docs).toHaveLength(real ? 131 : 130);
      if (real) expect(routes(docs)).toContain('/docs');
      else expect(routes(docs)).not.toContain('/docs');
      expect((await list('children_of=/docs')).map((r) => r.route)).toHaveLength(10);
      expect(routes(await list('children_of=/about&sort=default'))).toEqual(['/about/über-uns', '/about/our team', '/about/history', '/about/press']);
      expect(routes(await list('children_of=/&sort=default'))).toEqual([HOME, '/blog', '/docs', '/about', '/contact', '/archive', '/legal']);
      // home's children by its folder route, in both flavours
      expect(routes(await list('children_of=/home'))).toEqual(['/home/highlights']);
      expect((await list('root=true')).map((r) => r.route).sort()).toEqual([HOME, '/about', '/archive', '/blog', '/contact', '/docs', '/legal'].sort());
      // the documents: a route names a subtree; the real service reads `root` as a boolean only
      expect(routes(await list('root=/about&sort=slug'))).toEqual(real ? [] : ['/about', '/about/history', '/about/our team', '/about/press', '/about/über-uns']);
      // root=false: the documents filter nothing out; the real service lists nothing
      expect(await list('root=false')).toHaveLength(real ? 0 : 100);
      expect(await list('children_of=/nowhere')).toEqual([]);
    });

    test('search: over title, slug, route and content', async () => {
      expect(routes(await list('search=Our team'))).toEqual(['/about/our team']);
      expect(routes(await list('search=wild-orchard-139'))).toEqual(['/blog/wild-orchard-139']);
      expect(pagination(await api.get('/pages?search=zzzz-nothing')).total).toBe(0);
    });

    test('lang: the pages in that language, titles in it (the real service falls back to the default language)', async () => {
      const de = await listAll('lang=de');
      expect(de).toHaveLength(real ? 301 : 134);
      const post = de.find((r) => r.route === '/blog/old-river-3')!;
      expect(post).toMatchObject({ title: 'Alter Fluss (3)', language: 'de' });
      const english = de.find((r) => r.route === '/blog/bright-market-1'); // English only
      if (real) expect(english).toMatchObject({ title: 'Bright market (1)', language: 'en' });
      else expect(english).toBeUndefined();
      // an untyped base file stands in for every language; its language is null
      expect(de.find((r) => r.route === '/legal/imprint')).toMatchObject({ language: null, template: 'default' });
      expectProblem(await api.get('/pages?lang=xx'), BAD);
    });

    test('translations=true: translated and untranslated languages, base file and explicit files', async () => {
      const [post] = await list('translations=true&search=little-harbour-15');
      const [imprint] = await list('translations=true&search=imprint&parent=/legal');
      if (real) {
        // language → route, as Grav's translatedLanguages() answers
        const r = '/blog/little-harbour-15';
        expect(post).toMatchObject({ translated_languages: { en: r, de: r, fr: r }, untranslated_languages: [], has_default_file: false, explicit_language_files: ['en', 'de', 'fr'] });
        expect(imprint).toMatchObject({ translated_languages: { en: '/legal/imprint' }, untranslated_languages: ['de', 'fr'], has_default_file: true, explicit_language_files: [] });
        const [home] = await list('translations=true&children_of=/&template=default&search=home');
        expect(home).toMatchObject({ route: '/', translated_languages: { en: '/', de: '/', fr: '/' } });
      } else {
        expect(post).toMatchObject({ translated_languages: ['en', 'de', 'fr'], untranslated_languages: [], has_default_file: false, explicit_language_files: ['en', 'de', 'fr'] });
        expect(imprint).toMatchObject({ translated_languages: ['en'], untranslated_languages: ['de', 'fr'], has_default_file: true, explicit_language_files: [] });
      }
      const [plain] = await list('search=imprint&parent=/legal');
      expect(plain).not.toHaveProperty('translated_languages');
    });
  });

  describe('GET /pages/{route}', () => {
    test('the full page: content, header, media; a strong ETag', async () => {
      const r = await api.get('/pages/home');
      expect(r.status).toBe(200);
      expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(r.body.data).toMatchObject({
        route: HOME,
        slug: 'home',
        title: 'Home',
        template: 'default',
        language: 'en',
        header: { title: 'Home', menu: 'Home', taxonomy: { category: ['news'], tag: ['grav'] } },
        taxonomy: { category: ['news'], tag: ['grav'] },
        order: real ? '01.' : 1,
        has_children: true,
        content: expect.stringContaining('# Home'),
      });
      // the real service names home `/` and sends its folder route as raw_route
      if (real) expect(r.body.data).toMatchObject({ raw_route: '/home', parent_route: '/', menu: 'Home', folder: '01.home' });
      else expect(r.body.data).not.toHaveProperty('raw_route');
      const media = r.body.data.media as Json[];
      expect(media.map((m) => m.filename)).toEqual(['banner.png', 'brochure.pdf', 'hero.png', 'logo.png', 'notes.txt']);
      expect(media.find((m) => m.filename === 'hero.png')).toEqual({
        filename: 'hero.png',
        url: '/user/pages/01.home/hero.png',
        type: 'image/png',
        size: expect.any(Number),
        alt: 'Sunset over the harbour',
        title: 'Harbour',
        dimensions: { width: 64, height: 32 },
        modified: '2024-01-01T09:00:00+00:00',
      });
      // the media url is served by the site
      const file = await fetch(sb.origin + '/user/pages/01.home/hero.png');
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await file.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
      expect((await fetch(sb.origin + '/user/pages/01.home/default.en.md')).status).toBe(404);
    });

    test("home's child is addressed under /home, and expanding home lists it", async () => {
      const child = await api.get('/pages/home/highlights');
      expect(child.status).toBe(200);
      expect(child.body.data).toMatchObject({ route: '/home/highlights', slug: 'highlights', title: 'Highlights', parent_route: '/home', has_children: false });
      if (real) expect(child.body.data).toMatchObject({ raw_route: '/home/highlights', order: '01.' });
      const withChildren = await api.get('/pages/home?children=true');
      expect(routes(withChildren.body.data.children as Json[])).toEqual(['/home/highlights']);
    });

    test('If-None-Match: the documents answer 304 for the current ETag; the real service never does', async () => {
      const first = await api.get('/pages/docs');
      const etag = first.headers.get('etag')!;
      const again = await api.get('/pages/docs', { 'If-None-Match': etag });
      expect(again.headers.get('etag')).toBe(etag);
      if (real) {
        expect(again.status).toBe(200);
        expect(again.body).toEqual(first.body);
      } else {
        expect(again.status).toBe(304);
        expect(again.text).toBe('');
        // weak form, a list, a proxy suffix: still a match
        expect((await api.get('/pages/docs', { 'If-None-Match': `W/${etag}` })).status).toBe(304);
        expect((await api.get('/pages/docs', { 'If-None-Match': `"nope", ${etag.replace(/"$/, '-gzip"')}` })).status).toBe(304);
      }
      expect((await api.get('/pages/docs', { 'If-None-Match': '"0000"' })).status).toBe(200);
    });

    test('render, summary, children and translations reads answer other representations (other ETags)', async () => {
      const plain = await api.get('/pages/blog/quiet-meadow-30');
      const rendered = await api.get('/pages/blog/quiet-meadow-30?render=true');
      expect(rendered.body.data.content_html).toMatch(/^<h1>Quiet meadow \(30\)<\/h1>/);
      // the documents put the HTML in `content` too; the real service keeps the markdown there
      expect(rendered.body.data.content).toBe(real ? plain.body.data.content : rendered.body.data.content_html);
      expect(rendered.headers.get('etag')).not.toBe(plain.headers.get('etag'));

      const summary = await api.get('/pages/blog/quiet-meadow-30?summary=true&summary_size=40');
      expect(summary.body.data).not.toHaveProperty('content');
      expect(summary.body.data.summary).toMatch(/^Quiet meadow \(30\) .*…$/);
      expect((summary.body.data.summary as string).length).toBeLessThanOrEqual(41);

      const withChildren = await api.get('/pages/docs?children=true');
      const children = withChildren.body.data.children as Json[];
      expect(routes(children)).toHaveLength(10);
      expect(children[0]).toMatchObject({ route: '/docs/getting-started', has_children: true });
      expect(children[0]).not.toHaveProperty('children');
      const deep = await api.get('/pages/docs?children=true&children_depth=2');
      expect((deep.body.data.children as Json[])[0]!.children).toHaveLength(12);

      const tr = await api.get('/pages/blog/old-river-3?translations=true');
      const route = '/blog/old-river-3';
      expect(tr.body.data).toMatchObject({
        translated_languages: real ? { en: route, de: route } : ['en', 'de'],
        untranslated_languages: ['fr'],
        has_default_file: false,
        explicit_language_files: ['en', 'de'],
      });
      expect(new Set([plain, rendered, summary, withChildren].map((r) => r.headers.get('etag'))).size).toBe(4);
      // a conditional render read revalidates against the render read's own ETag (documents only)
      expect((await api.get('/pages/blog/quiet-meadow-30?render=true', { 'If-None-Match': rendered.headers.get('etag')! })).status).toBe(real ? 200 : 304);
      expect((await api.get('/pages/blog/quiet-meadow-30?render=true', { 'If-None-Match': plain.headers.get('etag')! })).status).toBe(200);
    });

    test('lang: the translation; a language the page lacks (404, or the real fallback); the base file serves every language', async () => {
      expect((await api.get('/pages/blog/old-river-3?lang=de')).body.data).toMatchObject({ title: 'Alter Fluss (3)', language: 'de' });
      const fr = await api.get('/pages/blog/old-river-3?lang=fr');
      if (real) expect(fr.body.data).toMatchObject({ title: 'Old river (3)', language: 'en' });
      else expect(fr.status).toBe(404);
      const base = await api.get('/pages/legal/imprint?lang=fr');
      expect(base.status).toBe(200);
      expect(base.body.data).toMatchObject({ title: 'Imprint', language: null, template: 'default' });
      expectProblem(await api.get('/pages/home?lang=klingon'), BAD);
    });

    test('percent-encoded route segments: a unicode slug and a slug with a space', async () => {
      const uber = await api.get('/pages/about/%C3%BCber-uns');
      expect(uber.status).toBe(200);
      expect(uber.body.data).toMatchObject({ route: '/about/über-uns', slug: 'über-uns', folder: '01.über-uns', title: 'About us' });
      expect((await api.get(pagePath('/about/über-uns', '?lang=de'))).body.data.title).toBe('Über uns');
      const team = await api.get('/pages/about/our%20team');
      expect(team.body.data).toMatchObject({ route: '/about/our team', title: 'Our team' });
      expect(team.body.data.media[0].url).toBe('/user/pages/04.about/02.our%20team/team.png');
      expect((await fetch(sb.origin + team.body.data.media[0].url)).status).toBe(200);
      expectProblem(await api.get('/pages/about/%E0%A4%A'), BAD);
    });

    test('an unknown route is a 404 problem', async () => {
      const p = expectProblem(await api.get('/pages/blog/no-such-post'), 404);
      expect(p).toEqual({ status: 404, title: 'Not Found', detail: 'Page not found at route: /blog/no-such-post' });
      expectProblem(await api.get('/pages/docs/getting-started/nope/deeper'), 404);
    });
  });

  describe('permissions', () => {
    test('no credential 401, api.access only 403, a password login token 200', async () => {
      const none = expectProblem(await api.as({ none: true }).get('/pages'), 401);
      expect(none.detail).toBe(real ? 'No valid authentication credentials provided. Use an API key, JWT token, or active session.' : 'Authentication required.');
      expectProblem(await api.as({ apiKey: 'grav_nope' }).get('/pages/home'), 401);
      const login = await api.as({ none: true }).post('/auth/token', { username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
      const viewer = api.as({ token: login.body.data.access_token as string });
      const denied = expectProblem(await viewer.get('/pages'), 403);
      expect(denied.detail).toBe('Missing required permission: api.pages.read');
      expectProblem(await viewer.get('/pages/home'), 403);
      expectProblem(await viewer.get('/taxonomy'), 403);
      expectProblem(await viewer.get('/languages'), 403);
      // blueprints: the documents ask only for a caller; the real service for api.pages.read
      expect((await viewer.get('/blueprints/pages')).status).toBe(real ? 403 : 200);

      const admin = await api.as({ none: true }).post('/auth/token', { username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      expect((await api.as({ token: admin.body.data.access_token as string }).get('/pages/home')).status).toBe(200);
    });

    test('a key scoped to api.pages.read reads but may not write', async () => {
      const key = await fetch(`${sb.origin}/__sandbox/api-keys`, { method: 'POST', body: JSON.stringify({ username: 'admin', scopes: ['api.pages.read'] }) });
      const reader = api.as({ apiKey: ((await key.json()) as Json).data.api_key as string });
      expect((await reader.get('/pages/home')).status).toBe(200);
      expectProblem(await reader.patch('/pages/home', { title: 'x' }), 403);
      expectProblem(await reader.get('/pages/home/media'), 403);
    });
  });

  describe('languages, page languages, taxonomy, blueprints', () => {
    test('GET /languages on a multilanguage site', async () => {
      const r = await api.get('/languages');
      expect(r.body.data).toEqual({
        enabled: true,
        languages: [
          { code: 'en', name: 'English', native_name: 'English', rtl: false, is_default: true },
          { code: 'de', name: 'German', native_name: 'Deutsch', rtl: false, is_default: false },
          { code: 'fr', name: 'French', native_name: 'Français', rtl: false, is_default: false },
        ],
        default: 'en',
        active: 'en',
      });
      // the real service applies no ?lang here: the active language stays the default
      expect((await api.get('/languages?lang=fr')).body.data.active).toBe(real ? 'en' : 'fr');
    });

    test('GET /pages/{route}/languages: translated languages, untranslated codes', async () => {
      const r = '/blog/little-workshop-5';
      expect((await api.get('/pages/blog/little-workshop-5/languages')).body.data).toEqual({
        route: r,
        default_language: 'en',
        // the documents map a language to its file; the real service to the page's route
        translated: real ? { en: r, fr: r } : { en: 'item.en.md', fr: 'item.fr.md' },
        untranslated: ['de'],
      });
      // only an untyped base file: reported as the default language's translation
      const base = '/blog/northern-season-17';
      expect((await api.get('/pages/blog/northern-season-17/languages')).body.data).toEqual({
        route: base,
        default_language: 'en',
        translated: real ? { en: base } : { en: 'item.md' },
        untranslated: ['de', 'fr'],
      });
      if (real) expect((await api.get('/pages/home/languages')).body.data).toMatchObject({ route: '/', translated: { en: '/', de: '/', fr: '/' } });
      expectProblem(await api.get('/pages/nope/languages'), 404);
    });

    test('GET /taxonomy: every type with its terms (a numeric term is a JSON number in the real service)', async () => {
      const r = await api.get('/taxonomy');
      if (real) {
        // PHP array keys, in the order the pages first use them
        expect(r.body.data).toEqual({
          category: ['news', 'opinion', 'releases', 'tutorials', 'docs'],
          tag: ['grav', 2024, 'food', 'travel', 'community', 'howto', 'markdown', 'photography', 'design', 'archive'],
        });
      } else {
        expect(r.body.data).toEqual({
          category: ['docs', 'news', 'opinion', 'releases', 'tutorials'],
          tag: ['2024', 'archive', 'community', 'design', 'food', 'grav', 'howto', 'markdown', 'photography', 'travel'],
        });
      }
      // the page itself carries its terms as strings in both
      expect((await api.get('/pages/home/highlights')).body.data.taxonomy).toEqual({ category: ['news'], tag: ['2024'] });
    });

    test('GET /blueprints/pages and /blueprints/pages/{template}', async () => {
      const types = await api.get('/blueprints/pages');
      const all = [
        { type: 'default', label: 'Default' },
        { type: 'blog', label: 'Blog' },
        { type: 'item', label: 'Item' },
        { type: 'docs', label: 'Docs' },
        { type: 'chapter', label: 'Chapter' },
        { type: 'form', label: 'Form' },
      ];
      // the real service lists them sorted by type
      expect(types.body.data).toEqual(real ? [...all].sort((a, b) => a.type.localeCompare(b.type)) : all);
      sb.events.clear();
      const blog = await api.get('/blueprints/pages/blog');
      expect(blog.body.data).toMatchObject({ name: 'blog', title: real ? 'blog' : 'Blog', type: null, child_type: 'item', validation: 'loose' });
      const [tabs] = blog.body.data.fields as Json[];
      expect(tabs).toMatchObject({ name: 'tabs', type: 'tabs' });
      const tabNames = (tabs!.fields as Json[]).map((t) => t.name);
      // inherited from default, plus its own
      expect(tabNames).toEqual(real ? ['content', 'options', 'advanced', 'security', 'blog'] : ['content', 'options', 'advanced', 'blog']);
      const content = (tabs!.fields as Json[])[0]!;
      if (real) {
        expect(content).toMatchObject({ name: 'content', type: 'tab', title: 'Content' });
        expect(content.fields[1]).toEqual({ name: 'header.title', type: 'text', label: 'Title', style: 'vertical' });
        // options: an ordered list of {value, label}
        const published = (tabs!.fields as Json[])[1]!.fields[0].fields[0];
        expect(published).toMatchObject({ name: 'header.published', type: 'toggle', options: [{ value: '1', label: 'Yes' }, { value: '0', label: 'No' }], validate: { type: 'bool' } });
        const order = ((tabs!.fields as Json[])[4]!.fields as Json[]).find((f) => f.name === 'header.content.order.dir');
        expect(order).toMatchObject({ options: [{ value: 'asc', label: 'Ascending' }, { value: 'desc', label: 'Descending' }] });
      } else {
        expect(content.fields[0]).toEqual({ name: 'header.title', type: 'text', label: 'Title', validate: { required: true } });
        const order = ((tabs!.fields as Json[])[3]!.fields as Json[]).find((f) => f.name === 'header.content.order.dir');
        expect(order).toMatchObject({ options: { asc: 'Ascending', desc: 'Descending' } });
      }
      expect(sb.events.names()).toEqual(['onApiBlueprintResolved']);
      expect(sb.events.list()[0]!.data).toMatchObject({ context: 'page', template: 'blog', user: 'admin' });

      // an unknown template: the documents' 404; the real service falls back to the default form
      const nope = await api.get('/blueprints/pages/nope');
      if (real) expect(nope.body.data).toMatchObject({ name: 'nope', child_type: null, fields: [{ name: 'tabs' }] });
      else expectProblem(nope, 404);
      expectProblem(await api.as({ none: true }).get('/blueprints/pages'), 401);
      expectProblem(await api.as({ none: true }).get('/blueprints/pages/default'), 401);
    });
  });
});
