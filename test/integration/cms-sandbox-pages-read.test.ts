/**
 * The CMS sandbox's page reads over real HTTP (spec document 1, sections 2, 4, 7, 8): the list with
 * paging meta, sort orders and every filter, single reads with their options, ETag / If-None-Match,
 * percent-encoded routes, languages, taxonomy, blueprints, permissions. One demo site (300 pages in
 * en, de, fr), read only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { pagePath, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';

let sb: CmsSandbox;
let api: SandboxClient;

beforeAll(async () => {
  sb = await startCmsSandbox();
  api = new SandboxClient(sb);
});
afterAll(() => sb?.close());

function expectProblem(r: Reply, status: number): Json {
  expect(r.status, r.text).toBe(status);
  expect(r.type).toBe('application/problem+json');
  expect(r.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return r.body;
}

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
    if (page >= r.body.meta.total_pages) return out;
  }
}

const routes = (rows: Json[]) => rows.map((r) => r.route as string);

describe('GET /pages', () => {
  test('the demo site: 300 pages, paged 20 at a time by default, with meta and links', async () => {
    expect(sb.contentSeeded).toEqual({ seed: 'demo', pages: 300, languages: ['en', 'de', 'fr'] });
    const r = await api.get('/pages');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.meta).toEqual({
      total: 300,
      page: 1,
      per_page: 20,
      total_pages: 15,
      pagination: { page: 1, per_page: 20, total: 300, total_pages: 15 },
    });
    expect(r.body.links).toEqual({ self: '/api/v1/pages?page=1&per_page=20', next: '/api/v1/pages?page=2&per_page=20', last: '/api/v1/pages?page=15&per_page=20' });
  });

  test('list rows: the summary fields, has_children, no content or media', async () => {
    const [blog] = await list('children_of=/&template=blog');
    expect(blog).toEqual({
      route: '/blog',
      slug: 'blog',
      folder: '02.blog',
      parent_route: '/',
      title: 'Blog',
      template: 'blog',
      language: 'en',
      header: expect.objectContaining({ title: 'Blog', content: { items: '@self.children', order: { by: 'date', dir: 'desc' }, limit: 10 } }),
      taxonomy: {},
      published: true,
      visible: true,
      routable: true,
      date: '2024-01-01T09:00:00+00:00',
      modified: '2024-01-01T09:00:00+00:00',
      order: 2,
      has_children: true,
    });
    const leaf = (await list('search=bright-market-1&parent=/blog')).find((r) => r.route === '/blog/bright-market-1');
    expect(leaf).toMatchObject({ route: '/blog/bright-market-1', has_children: false, order: null, visible: false });
  });

  test('paging: page and per_page, per_page capped at 100, bad values clamped, past the end empty', async () => {
    const r = await api.get('/pages?page=3&per_page=7');
    expect(r.body.data).toHaveLength(7);
    expect(r.body.meta).toMatchObject({ page: 3, per_page: 7, total: 300, total_pages: 43 });
    expect(r.body.links).toMatchObject({ first: '/api/v1/pages?page=1&per_page=7', prev: '/api/v1/pages?page=2&per_page=7', next: '/api/v1/pages?page=4&per_page=7' });
    const all = await api.get('/pages?page=1&per_page=7');
    const page3 = await api.get('/pages?page=3&per_page=7');
    expect(routes(page3.body.data as Json[])).not.toContain((all.body.data as Json[])[0]!.route);

    expect((await api.get('/pages?per_page=500')).body.meta.per_page).toBe(100);
    expect((await api.get('/pages?per_page=0')).body.meta.per_page).toBe(1);
    expect((await api.get('/pages?per_page=abc')).body.meta.per_page).toBe(20);
    expect((await api.get('/pages?page=-4')).body.meta.page).toBe(1);
    const past = await api.get('/pages?page=99');
    expect(past.body.data).toEqual([]);
    expect(past.body.links).toMatchObject({ prev: '/api/v1/pages?page=98&per_page=20' });
  });

  test('locate: the chunk holding a route', async () => {
    const located = await api.get('/pages?per_page=10&sort=title&locate=/docs/themes');
    const idx = located.body.meta.pagination.located_at_index as number;
    expect(located.body.meta.page).toBe(Math.floor(idx / 10) + 1);
    expect(routes(located.body.data as Json[])).toContain('/docs/themes');
  });

  test('sort orders: date (default, newest first), title, slug, modified, order; asc and desc', async () => {
    const byDefault = await listAll('parent=/blog');
    expect(byDefault).toHaveLength(140);
    const dates = byDefault.map((r) => r.date as string);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(byDefault[0]!.route).toBe('/blog/quiet-garden-140');

    const asc = await listAll('parent=/blog&sort=date&order=asc');
    expect(asc[0]!.route).toBe('/blog/bright-market-1');

    const titles = (await listAll('parent=/docs&sort=title')).map((r) => (r.title as string).toLowerCase());
    expect(titles).toEqual([...titles].sort());
    const titlesDesc = (await listAll('parent=/docs&sort=title&order=desc')).map((r) => (r.title as string).toLowerCase());
    expect(titlesDesc).toEqual([...titles].reverse());

    const slugs = (await list('children_of=/&sort=slug')).map((r) => r.slug);
    expect(slugs).toEqual(['about', 'archive', 'blog', 'contact', 'docs', 'home', 'legal']);

    const modified = (await listAll('parent=/archive&sort=modified&order=desc')).map((r) => r.modified as string);
    expect(modified).toEqual([...modified].sort().reverse());

    // order: prefixes ascending, unordered pages last (desc: first)
    const ordered = await list('children_of=/&sort=order');
    expect(routes(ordered)).toEqual(['/home', '/blog', '/docs', '/about', '/contact', '/archive', '/legal']);
    expect(routes(await list('children_of=/&sort=order&order=desc')).slice(0, 2)).toEqual(['/archive', '/legal']);
  });

  test('sort=default with children_of: native order, or the parent\'s collection order', async () => {
    const chapters = await list('children_of=/docs&sort=default');
    expect(chapters.map((r) => r.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // the blog's header orders its collection by date, newest first
    const posts = await list('children_of=/blog&sort=default&per_page=3');
    expect(routes(posts)).toEqual(['/blog/quiet-garden-140', '/blog/wild-orchard-139', '/blog/early-forest-138']);
    // sort=default without children_of: order ascending
    expect((await list('children_of=/&sort=default'))[0]!.route).toBe('/home');
  });

  test('an unknown sort field is a 422', async () => {
    expectProblem(await api.get('/pages?sort=colour'), 422);
  });

  test('filters: published, visible, routable, template', async () => {
    const drafts = await list('published=false');
    // every 23rd post is a draft
    expect(routes(drafts).map((r) => Number(/-(\d+)$/.exec(r)![1])).sort((a, b) => a - b)).toEqual([23, 46, 69, 92, 115, 138]);
    expect(drafts.every((r) => r.published === false)).toBe(true);
    expect((await api.get('/pages?published=true')).body.meta.total).toBe(294);

    expect(routes(await list('routable=false'))).toEqual(['/about/press']);
    const hidden = await listAll('visible=false');
    expect(hidden.every((r) => r.visible === false)).toBe(true);
    expect(routes(hidden)).toEqual(expect.arrayContaining(['/about/press', '/archive', '/legal', '/blog/bright-market-1']));

    expect(await list('template=chapter')).toHaveLength(10);
    expect(routes(await list('template=form'))).toEqual(['/contact']);
  });

  test('filters: parent (descendants), children_of (direct children), root (top level, or a subtree)', async () => {
    const docs = await listAll('parent=/docs');
    expect(docs).toHaveLength(130);
    expect(routes(docs)).not.toContain('/docs');
    expect((await list('children_of=/docs')).map((r) => r.route)).toHaveLength(10);
    expect(routes(await list('children_of=/about&sort=default'))).toEqual(['/about/über-uns', '/about/our team', '/about/history', '/about/press']);
    expect(routes(await list('children_of=/&sort=default'))).toEqual(['/home', '/blog', '/docs', '/about', '/contact', '/archive', '/legal']);
    expect((await list('root=true')).map((r) => r.route).sort()).toEqual(['/about', '/archive', '/blog', '/contact', '/docs', '/home', '/legal']);
    expect(routes(await list('root=/about&sort=slug'))).toEqual(['/about', '/about/history', '/about/our team', '/about/press', '/about/über-uns']);
    expect(await list('children_of=/nowhere')).toEqual([]);
  });

  test('search: over title, slug, route and content', async () => {
    expect(routes(await list('search=Our team'))).toEqual(['/about/our team']);
    expect(routes(await list('search=wild-orchard-139'))).toEqual(['/blog/wild-orchard-139']);
    expect((await api.get('/pages?search=zzzz-nothing')).body.meta.total).toBe(0);
  });

  test('lang: the pages that exist in that language (own file or untyped base file), titles in it', async () => {
    const de = await listAll('lang=de');
    expect(de).toHaveLength(133);
    const post = de.find((r) => r.route === '/blog/old-river-3')!;
    expect(post).toMatchObject({ title: 'Alter Fluss (3)', language: 'de' });
    expect(routes(de)).not.toContain('/blog/bright-market-1'); // English only
    // an untyped base file stands in for every language; its language is null
    expect(de.find((r) => r.route === '/legal/imprint')).toMatchObject({ language: null, template: 'default' });
    expectProblem(await api.get('/pages?lang=xx'), 400);
  });

  test('translations=true: translated and untranslated languages, base file and explicit files', async () => {
    const [post] = await list('translations=true&search=little-harbour-15');
    expect(post).toMatchObject({ translated_languages: ['en', 'de', 'fr'], untranslated_languages: [], has_default_file: false, explicit_language_files: ['en', 'de', 'fr'] });
    const [imprint] = await list('translations=true&search=imprint&parent=/legal');
    expect(imprint).toMatchObject({ translated_languages: ['en'], untranslated_languages: ['de', 'fr'], has_default_file: true, explicit_language_files: [] });
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
      route: '/home',
      slug: 'home',
      title: 'Home',
      template: 'default',
      language: 'en',
      header: { title: 'Home', menu: 'Home', taxonomy: { category: ['news'], tag: ['grav'] } },
      taxonomy: { category: ['news'], tag: ['grav'] },
      order: 1,
      content: expect.stringContaining('# Home'),
    });
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

  test('If-None-Match with the current ETag: 304 without a body; a stale one: 200', async () => {
    const first = await api.get('/pages/docs');
    const etag = first.headers.get('etag')!;
    const again = await api.get('/pages/docs', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // weak form, a list, a proxy suffix: still a match
    expect((await api.get('/pages/docs', { 'If-None-Match': `W/${etag}` })).status).toBe(304);
    expect((await api.get('/pages/docs', { 'If-None-Match': `"nope", ${etag.replace(/"$/, '-gzip"')}` })).status).toBe(304);
    expect((await api.get('/pages/docs', { 'If-None-Match': '"0000"' })).status).toBe(200);
  });

  test('render, summary, children and translations reads answer other representations (other ETags)', async () => {
    const plain = await api.get('/pages/blog/quiet-meadow-30');
    const rendered = await api.get('/pages/blog/quiet-meadow-30?render=true');
    expect(rendered.body.data.content).toMatch(/^<h1>Quiet meadow \(30\)<\/h1>/);
    expect(rendered.body.data.content_html).toBe(rendered.body.data.content);
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
    expect(tr.body.data).toMatchObject({ translated_languages: ['en', 'de'], untranslated_languages: ['fr'], has_default_file: false, explicit_language_files: ['en', 'de'] });
    expect(new Set([plain, rendered, summary, withChildren].map((r) => r.headers.get('etag'))).size).toBe(4);
    // a conditional render read revalidates against the render read's own ETag
    expect((await api.get('/pages/blog/quiet-meadow-30?render=true', { 'If-None-Match': rendered.headers.get('etag')! })).status).toBe(304);
    expect((await api.get('/pages/blog/quiet-meadow-30?render=true', { 'If-None-Match': plain.headers.get('etag')! })).status).toBe(200);
  });

  test('lang: the translation; a language the page lacks is a 404; the base file serves every language', async () => {
    expect((await api.get('/pages/blog/old-river-3?lang=de')).body.data).toMatchObject({ title: 'Alter Fluss (3)', language: 'de' });
    expect((await api.get('/pages/blog/old-river-3?lang=fr')).status).toBe(404);
    const base = await api.get('/pages/legal/imprint?lang=fr');
    expect(base.status).toBe(200);
    expect(base.body.data).toMatchObject({ title: 'Imprint', language: null, template: 'default' });
    expectProblem(await api.get('/pages/home?lang=klingon'), 400);
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
    expectProblem(await api.get('/pages/about/%E0%A4%A'), 400);
  });

  test('an unknown route is a 404 problem', async () => {
    const p = expectProblem(await api.get('/pages/blog/no-such-post'), 404);
    expect(p.detail).toBe('Page not found at route: /blog/no-such-post');
    expectProblem(await api.get('/pages/docs/getting-started/nope/deeper'), 404);
  });
});

describe('permissions', () => {
  test('no credential 401, api.access only 403, a password login token 200', async () => {
    expectProblem(await api.as({ none: true }).get('/pages'), 401);
    expectProblem(await api.as({ apiKey: 'grav_nope' }).get('/pages/home'), 401);
    const login = await api.as({ none: true }).post('/auth/token', { username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
    const viewer = api.as({ token: login.body.data.access_token as string });
    const denied = expectProblem(await viewer.get('/pages'), 403);
    expect(denied.detail).toBe('Missing required permission: api.pages.read');
    expectProblem(await viewer.get('/pages/home'), 403);
    expectProblem(await viewer.get('/taxonomy'), 403);
    expectProblem(await viewer.get('/languages'), 403);
    // blueprints only need an authenticated caller
    expect((await viewer.get('/blueprints/pages')).status).toBe(200);

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
    expect((await api.get('/languages?lang=fr')).body.data.active).toBe('fr');
  });

  test('GET /pages/{route}/languages: translated language → file, untranslated codes', async () => {
    expect((await api.get('/pages/blog/little-workshop-5/languages')).body.data).toEqual({
      route: '/blog/little-workshop-5',
      default_language: 'en',
      translated: { en: 'item.en.md', fr: 'item.fr.md' },
      untranslated: ['de'],
    });
    // only an untyped base file: reported as the default language's translation
    expect((await api.get('/pages/blog/northern-season-17/languages')).body.data).toEqual({
      route: '/blog/northern-season-17',
      default_language: 'en',
      translated: { en: 'item.md' },
      untranslated: ['de', 'fr'],
    });
    expectProblem(await api.get('/pages/nope/languages'), 404);
  });

  test('GET /taxonomy: every type with its terms, file paths stripped', async () => {
    const r = await api.get('/taxonomy');
    expect(r.body.data).toEqual({
      category: ['docs', 'news', 'opinion', 'releases', 'tutorials'],
      tag: ['archive', 'community', 'design', 'food', 'grav', 'howto', 'markdown', 'photography', 'travel'],
    });
  });

  test('GET /blueprints/pages and /blueprints/pages/{template}', async () => {
    const types = await api.get('/blueprints/pages');
    expect(types.body.data).toEqual([
      { type: 'default', label: 'Default' },
      { type: 'blog', label: 'Blog' },
      { type: 'item', label: 'Item' },
      { type: 'docs', label: 'Docs' },
      { type: 'chapter', label: 'Chapter' },
      { type: 'form', label: 'Form' },
    ]);
    sb.events.clear();
    const blog = await api.get('/blueprints/pages/blog');
    expect(blog.body.data).toMatchObject({ name: 'blog', title: 'Blog', type: null, child_type: 'item', validation: 'loose' });
    const [tabs] = blog.body.data.fields as Json[];
    expect(tabs).toMatchObject({ name: 'tabs', type: 'tabs' });
    const tabNames = (tabs!.fields as Json[]).map((t) => t.name);
    expect(tabNames).toEqual(['content', 'options', 'advanced', 'blog']); // inherited from default, plus its own
    const content = (tabs!.fields as Json[])[0]!.fields as Json[];
    expect(content[0]).toEqual({ name: 'header.title', type: 'text', label: 'Title', validate: { required: true } });
    expect(sb.events.names()).toEqual(['onApiBlueprintResolved']);
    expect(sb.events.list()[0]!.data).toMatchObject({ context: 'page', template: 'blog', user: 'admin' });

    expectProblem(await api.get('/blueprints/pages/nope'), 404);
    expectProblem(await api.as({ none: true }).get('/blueprints/pages'), 401);
    expectProblem(await api.as({ none: true }).get('/blueprints/pages/default'), 401);
  });
});
