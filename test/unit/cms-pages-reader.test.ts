/**
 * Pages as the real Grav API plugin sends them (recorded lists, reads, translations, taxonomy) and
 * as the documents do, through the API module: both read into the same pages, addressed by their
 * structural route; a row or an answer neither sends is named with its call and field.
 */
import { describe, expect, test } from 'vitest';
import { cmsPages } from '../../electron/api/cms/pages';
import { cmsBlueprints } from '../../electron/api/cms/blueprints';
import type { BlueprintField, Page } from '../../electron/contract';
import { recorded, recordedData, reply, transport } from './support/recorded-replies';

const BASE = 'https://cms.example.com/api/v1';
type Row = Record<string, unknown>;
const rowsOf = (name: string) => recordedData<Row[]>(name);
const envelope = (data: unknown, meta: unknown, links?: unknown) => ({ data, meta, ...(links ? { links } : {}) });

describe('page lists of the real service (recorded)', () => {
  test('GET /pages: order "01.", home addressed as /home, paging under meta.pagination', async () => {
    const { t } = transport(() => recorded('11-pages'));
    const list = await cmsPages.list(t, {});
    expect(list).toMatchObject({ total: 2, page: 1, perPage: 20, next: null });
    expect(list.unreadable).toBeUndefined();
    const [home, typography] = list.items;
    expect(home).toMatchObject({ route: '/home', publicRoute: '/', parentRoute: '/', slug: 'home', title: 'Home', order: 1, hasChildren: false });
    expect(typography).toMatchObject({ route: '/typography', parentRoute: '/', order: 2 });
    expect(typography).not.toHaveProperty('publicRoute');
  });

  test('with translations: translated_languages as a map of language → route, untranslated as a list', async () => {
    const { t } = transport(() => recorded('17-pages-translations'));
    const list = await cmsPages.list(t, { translations: true });
    const byRoute = Object.fromEntries(list.items.map((p) => [p.route, p]));
    expect(byRoute['/typography']).toMatchObject({ translatedLanguages: ['en', 'de'], untranslatedLanguages: [] });
    expect(byRoute['/home']).toMatchObject({ translatedLanguages: ['en'], untranslatedLanguages: ['de'] });
  });

  test('the matrix rows and the mirror rows read the same answer, with total and next', async () => {
    const { t, seen } = transport(() => recorded('17-pages-translations'));
    const matrix = await cmsPages.translationRows(t, 1);
    expect(matrix).toMatchObject({ total: 2, next: null, unreadable: [] });
    expect(matrix.rows.find((r) => r.route === '/typography')).toEqual({ route: '/typography', title: 'Typography', translated: ['en', 'de'], untranslated: [], hasDefaultFile: true, explicit: ['de'] });
    const mirror = await cmsPages.mirrorRows(t, { page: 1, perPage: 100 });
    expect(mirror.total).toBe(2);
    expect(mirror.rows.find((r) => r.route === '/home')).toMatchObject({ publicRoute: '/', order: 1, translated: ['en'], untranslated: ['de'], explicit: [], hasDefaultFile: true });
    expect(seen.every((r) => r.path.includes('sort=default'))).toBe(true);
    // each mirror row comes with the row as the site sent it (what the mirror's row hash covers)
    const sent = rowsOf('17-pages-translations');
    expect(mirror.rows.map((r) => r.sent)).toEqual(sent);
  });

  test('the mirror rows of one language: asked with lang', async () => {
    const { t, seen } = transport(() => recorded('18-pages-lang-de'));
    const de = await cmsPages.mirrorRows(t, { page: 2, perPage: 50, lang: 'de' });
    expect(seen[0]!.path).toContain('lang=de');
    expect(seen[0]!.path).toContain('page=2');
    expect(de.rows.length).toBeGreaterThan(0);
    expect(de.rows.every((r) => typeof r.sent === 'object' && r.sent !== null)).toBe(true);
  });

  test('a site with one language sends translated_languages as [] and untranslated as an object with gaps', async () => {
    const row = { ...rowsOf('17-pages-translations')[0]!, translated_languages: [], untranslated_languages: { '1': 'fr', '3': 'it' } };
    const { t } = transport(() => reply(envelope([row], { pagination: { page: 1, per_page: 20, total: 1, total_pages: 1 } })));
    const [p] = (await cmsPages.list(t, { translations: true })).items;
    expect(p).toMatchObject({ translatedLanguages: [], untranslatedLanguages: ['fr', 'it'] });
  });

  test('a language map with an empty-string key ("no language") leaves that key out', async () => {
    const row = { ...rowsOf('17-pages-translations')[0]!, translated_languages: { '': '/typography', en: '/typography' } };
    const { t } = transport(() => reply(envelope([row], { pagination: { page: 1, per_page: 20, total: 1, total_pages: 1 } })));
    expect((await cmsPages.translationRows(t, 1)).rows[0]!.translated).toEqual(['en']);
  });

  test('order false (a folder without a number) is null', async () => {
    const row = { ...rowsOf('11-pages')[1]!, order: false, folder: 'typography' };
    const { t } = transport(() => reply(envelope([row], { pagination: { page: 1, per_page: 20, total: 1, total_pages: 1 } })));
    expect((await cmsPages.list(t, {})).items[0]!.order).toBeNull();
  });

  test('GET /pages?lang=de: a translated title, the default language marked null', async () => {
    const { t } = transport(() => recorded('18-pages-lang-de'));
    const list = await cmsPages.list(t, {});
    expect(list.items.map((p) => [p.route, p.title])).toEqual([
      ['/typography', 'Typografie'],
      ['/home', 'Home'],
    ]);
  });
});

describe('paging: meta.pagination and links (real) or flat meta (spec)', () => {
  const real = (page: number, total: number, perPage = 100) => ({
    meta: { pagination: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) } },
    links: {
      self: `/api/v1/pages?page=${page}&per_page=${perPage}`,
      ...(page * perPage < total ? { next: `/api/v1/pages?page=${page + 1}&per_page=${perPage}`, last: `/api/v1/pages?page=${Math.ceil(total / perPage)}&per_page=${perPage}` } : {}),
    },
  });
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ ...rowsOf('11-pages')[1]!, route: `/p${from + i}`, raw_route: `/p${from + i}`, slug: `p${from + i}`, order: `${String(from + i).padStart(3, '0')}.` }));

  test('the real envelope: total from meta.pagination, the next page from links.next', async () => {
    const { t } = transport(() => reply({ data: rows(1, 100), ...real(1, 150) }));
    const list = await cmsPages.list(t, { childrenOf: '/', sort: 'default', page: 1, perPage: 100 });
    // with the flat keys only, total fell back to the 100 rows on the page
    expect(list).toMatchObject({ total: 150, page: 1, perPage: 100, next: 2 });
    const { t: last } = transport(() => reply({ data: rows(101, 50), ...real(2, 150) }));
    expect(await cmsPages.list(last, { page: 2, perPage: 100 })).toMatchObject({ total: 150, page: 2, next: null });
  });

  test('the spec envelope: flat meta, no links; the next page by the total', async () => {
    const { t } = transport(() => reply({ data: rows(1, 100), meta: { total: 150, page: 1, per_page: 100 } }));
    expect(await cmsPages.list(t, { page: 1, perPage: 100 })).toMatchObject({ total: 150, next: 2 });
  });

  test('links.next carries only page and per_page: the filters stay the caller’s', async () => {
    const { t, seen } = transport((r) => (r.path.includes('page=1&') ? reply({ data: rows(1, 100), ...real(1, 150) }) : reply({ data: rows(101, 50), ...real(2, 150) })));
    let page: number | null = 1;
    const routes: string[] = [];
    while (page !== null) {
      const r = await cmsPages.mirrorRows(t, { page, perPage: 100, childrenOf: '/blog' });
      routes.push(...r.rows.map((x) => x.route));
      page = r.next;
    }
    expect(routes).toHaveLength(150);
    expect(seen.map((r) => new URL(r.path, BASE).searchParams.get('children_of'))).toEqual(['/blog', '/blog']);
  });
});

describe('one page (recorded)', () => {
  test('GET /pages/home: the home page opens by its structural route and keeps its public one', async () => {
    const { t, seen } = transport(() => recorded('12-pages-home'));
    const page = (await cmsPages.get(t, '/home')) as Page;
    expect(seen[0]!.path).toBe('/pages/home');
    expect(page).toMatchObject({ route: '/home', publicRoute: '/', parentRoute: '/', order: 1, title: 'Home', language: null, etag: '"324b6cc76ee39cf1e04621e8ea19818f"' });
    expect(page.content).toContain('Say Hello to Grav 2.0!');
    expect(page.header).toEqual({ title: 'Home', body_classes: 'title-center title-h1h2' });
  });

  test('GET /pages/typography?lang=de reads; a PATCH answer is taken without handing on its ETag (that of the page before the write)', async () => {
    const de = (await cmsPages.get(transport(() => recorded('19-page-typography-de')).t, '/typography', { lang: 'de' })) as Page;
    expect(de).toMatchObject({ route: '/typography', title: 'Typografie', language: 'de', order: 2 });
    await expect(cmsPages.update(transport(() => recorded('14-page-patch-if-match')).t, '/typography', { title: 'x' }, { ifMatch: '"e"' })).resolves.toBeUndefined();
  });

  test('a stale If-Match is a conflict; a missing page is not_found with the site’s words', async () => {
    await expect(cmsPages.update(transport(() => recorded('15-page-patch-stale-if-match')).t, '/typography', { title: 'x' }, { ifMatch: '"old"' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(cmsPages.get(transport(() => recorded('24-page-not-found')).t, '/does-not-exist')).rejects.toMatchObject({ code: 'not_found', message: 'Page not found at route: /does-not-exist' });
  });

  test('the mirror’s read takes the real page too', async () => {
    const r = await cmsPages.read(transport(() => recorded('13-pages-typography')).t, '/typography');
    expect(r.page).toMatchObject({ route: '/typography', order: 2, etag: '"88d9ef0d36399166903a5230b63e44e1"' });
    expect(r.serverDate).toBe('2026-11-22T22:30:38.000Z');
  });

  test('the spec’s page (an integer order, no raw_route) reads as before', async () => {
    const spec = { route: '/blog/post', slug: 'post', title: 'Post', template: 'item', order: 3, header: { title: 'Post' }, content: 'Hi', media: [] };
    const page = (await cmsPages.get(transport(() => reply({ data: spec })).t, '/blog/post')) as Page;
    expect(page).toMatchObject({ route: '/blog/post', parentRoute: '/blog', order: 3, content: 'Hi' });
    expect(page).not.toHaveProperty('publicRoute');
  });

  test('a page read with a wrong field names the call and the field; HTML instead of JSON names the call', async () => {
    const body = { ...recordedData<Row>('13-pages-typography'), published: 'yes' };
    await expect(cmsPages.get(transport(() => reply({ data: body })).t, '/typography')).rejects.toMatchObject({
      code: 'bad_response',
      message: 'cms.example.com sent a page Sitedesk cannot read (GET /pages/typography, field data.published).',
    });
    await expect(cmsPages.get(transport(() => ({ status: 200, text: '<!doctype html><title>Login</title>' })).t, '/typography')).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringMatching(/web page instead of JSON.*this was the answer to GET \/pages\/typography\.$/),
    });
    await expect(cmsPages.list(transport(() => ({ status: 200, text: '<html>maintenance</html>' })).t, {})).rejects.toMatchObject({
      message: expect.stringContaining('this was the answer to GET /pages.'),
    });
  });
});

describe('one malformed row never fails the list', () => {
  test('the other rows are read; the bad one is reported at its place with the field that is wrong', async () => {
    const [home, typography] = rowsOf('11-pages');
    const broken = { ...typography!, route: '/broken', raw_route: '/broken', title: 'Broken', order: { nope: 1 } };
    const nameless = { title: 7 };
    const { t } = transport(() => reply(envelope([home, broken, typography, nameless], { pagination: { page: 2, per_page: 4, total: 8, total_pages: 2 } })));
    const list = await cmsPages.list(t, { page: 2, perPage: 4 });
    expect(list.items.map((p) => p.route)).toEqual(['/home', '/typography']);
    expect(list.total).toBe(8);
    expect(list.unreadable).toEqual([
      { position: 5, route: '/broken', title: 'Broken', problem: expect.stringMatching(/^order: /) },
      { position: 7, route: null, title: null, problem: expect.stringMatching(/^route: /) },
    ]);
  });

  test('the mirror and the matrix leave such a row out and say so', async () => {
    const rows = [...rowsOf('17-pages-translations'), { route: '/x', raw_route: '/x', translated_languages: 'de' }];
    const { t } = transport(() => reply(envelope(rows, { pagination: { page: 1, per_page: 20, total: 3, total_pages: 1 } })));
    const m = await cmsPages.mirrorRows(t, { page: 1, perPage: 20 });
    expect(m.rows).toHaveLength(2);
    expect(m.unreadable).toEqual([{ position: 2, route: '/x', title: null, problem: expect.stringMatching(/^translated_languages: /) }]);
    expect(m.total).toBe(3);
  });

  test('data that is not a list at all is one clear error naming the call', async () => {
    await expect(cmsPages.list(transport(() => reply({ data: { route: '/a' } })).t, {})).rejects.toMatchObject({
      code: 'bad_response',
      message: 'cms.example.com sent a page list Sitedesk cannot read (GET /pages, field data).',
    });
  });
});

describe('translations', () => {
  test('GET /pages/{route}/languages (recorded): the map as it is', async () => {
    const l = await cmsPages.languages(transport(() => recorded('20-page-languages')).t, '/typography');
    expect(l).toEqual({ route: '/typography', defaultLanguage: 'en', translated: { en: '/typography', de: '/typography' }, untranslated: [] });
  });

  test('a one-language site answers translated: [] ; untranslated may be an object', async () => {
    const l = await cmsPages.languages(transport(() => reply({ data: { route: '/', default_language: 'en', translated: [], untranslated: { '1': 'de' } } })).t, '/home');
    expect(l).toEqual({ route: '/home', defaultLanguage: 'en', translated: {}, untranslated: ['de'] });
  });

  test('translate and sync answer the whole page with `language` (real) or `{route, lang}` (spec): the same result', async () => {
    const real = recordedData<Row>('19-page-typography-de');
    const created = await cmsPages.translate(transport(() => reply({ data: real }, 201)).t, '/typography', { lang: 'de' });
    expect(created).toEqual({ route: '/typography', lang: 'de', title: 'Typografie', content: real.content });
    const synced = await cmsPages.sync(transport(() => reply({ data: real })).t, '/typography', 'en', 'de');
    expect(synced).toMatchObject({ route: '/typography', lang: 'de', title: 'Typografie' });
    const spec = await cmsPages.translate(transport(() => reply({ data: { route: '/typography', lang: 'de', title: 'Typografie' } }, 201)).t, '/typography', { lang: 'de' });
    expect(spec).toEqual({ route: '/typography', lang: 'de', title: 'Typografie' });
  });

  test('compare: a side the page does not exist in comes as null, and reads as a side that does not exist', async () => {
    const source = { lang: 'en', exists: true, title: 'Home', content: '# Hi', header: { title: 'Home' }, modified: '2026-07-02T16:35:52+00:00' };
    const c = await cmsPages.compare(transport(() => reply({ data: { route: '/home', source, target: null } })).t, '/home', 'en', 'fr');
    expect(c.source).toMatchObject({ lang: 'en', exists: true, title: 'Home' });
    expect(c.target).toEqual({ lang: 'fr', exists: false, title: null, content: null, header: null, modified: null });
  });

  test('the site languages (recorded)', async () => {
    const l = await cmsPages.siteLanguages(transport(() => recorded('21-languages')).t);
    expect(l).toMatchObject({ enabled: true, default: 'en', active: 'en' });
    expect(l.languages.map((x) => x.code)).toEqual(['en', 'de']);
  });
});

describe('taxonomy', () => {
  test('the recorded empty lists, numeric terms as text, and [] for no taxonomy at all', async () => {
    expect(await cmsPages.taxonomy(transport(() => recorded('41-taxonomy')).t)).toEqual({ category: [], tag: [] });
    expect(await cmsPages.taxonomy(transport(() => reply({ data: { tag: [2024, 'grav', 1], category: ['news'] } })).t)).toEqual({ tag: ['2024', 'grav', '1'], category: ['news'] });
    expect(await cmsPages.taxonomy(transport(() => reply({ data: [] })).t)).toEqual({});
  });
});

describe('writes answer structural routes', () => {
  test('create and copy answer the whole page (real): its raw_route is the page', async () => {
    const home = recordedData<Row>('12-pages-home');
    const created = await cmsPages.create(transport(() => reply({ data: { ...home, route: '/welcome', raw_route: '/home/welcome' } }, 201)).t, { route: '/home/welcome', title: 'Welcome' });
    expect(created.route).toBe('/home/welcome');
    const copied = await cmsPages.copy(transport(() => reply({ data: { route: '/blog-copy', slug: 'blog-copy' } }, 201)).t, '/blog', '/blog-copy');
    expect(copied).toEqual({ route: '/blog-copy', slug: 'blog-copy' });
  });

  test('reorganize: order "01." and home’s public "/" become the structural route under its parent', async () => {
    const rows = [
      { route: '/', slug: 'home', title: 'Home', order: '01.', parent: '/' },
      { route: '/typography', slug: 'typography', title: 'Typography', order: '02.', parent: '/' },
      { route: '/blog', slug: 'blog', title: 'Blog', order: false, parent: '/' },
    ];
    const r = await cmsPages.reorganize(transport(() => reply({ data: rows })).t, [{ route: '/typography', position: 2 }]);
    expect(r).toEqual([
      { route: '/home', slug: 'home', title: 'Home', order: 1, parent: '/' },
      { route: '/typography', slug: 'typography', title: 'Typography', order: 2, parent: '/' },
      { route: '/blog', slug: 'blog', title: 'Blog', order: null, parent: '/' },
    ]);
  });
});

describe('blueprints', () => {
  const find = (fields: BlueprintField[], name: string): BlueprintField | undefined => {
    for (const f of fields) {
      if (f.name === name) return f;
      const inner = f.fields ? find(f.fields, name) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };

  test('the recorded default blueprint: options [{value,label}] stay values and labels, in order', async () => {
    const bp = await cmsBlueprints.page(transport(() => recorded('22-blueprint-pages-default')).t, 'default');
    expect(find(bp.fields, 'name')!.options).toEqual([
      { value: 'blog', label: 'Blog' },
      { value: 'comments', label: 'Comments' },
      { value: 'default', label: 'Default' },
      { value: 'error', label: 'Error' },
      { value: 'external', label: 'External' },
      { value: 'item', label: 'Item' },
      { value: 'modular', label: 'Modular' },
      { value: 'root', label: 'Root' },
    ]);
    expect(find(bp.fields, 'header.dateformat')!.options![1]).toEqual({ value: 'Y-m-d H:i', label: 'Y-m-d H:i (e.g. 2026-11-22 22:30)' });
    expect(find(bp.fields, 'header.published')!.options).toEqual([
      { value: '1', label: 'Yes' },
      { value: '0', label: 'No' },
    ]);
  });

  test('the recorded default blueprint: tabs and sections are named by their title', async () => {
    const bp = await cmsBlueprints.page(transport(() => recorded('22-blueprint-pages-default')).t, 'default');
    const tabs = bp.fields.find((f) => f.type === 'tabs')!.fields!;
    expect(tabs.map((t) => t.label)).toEqual(['Content', 'Options', 'Advanced', 'Security']);
    const options = tabs[1]!.fields!.filter((f) => f.type === 'section').map((f) => f.label);
    expect(options).toEqual(['Publishing', 'Taxonomies']);
  });

  test('the spec’s {value: label} map reads into the same list; a label that is not text never fails the blueprint', async () => {
    const spec = {
      name: 'item',
      fields: {
        'header.theme': { type: 'select', label: false, options: { light: 'Light', dark: 'Dark' } },
        'header.size': { type: 'select', label: 'Size', options: [{ value: 1, label: 'Small' }, { value: 2, label: true }] },
      },
    };
    const bp = await cmsBlueprints.page(transport(() => reply({ data: spec })).t, 'item');
    expect(bp.fields[0]).toEqual({ name: 'header.theme', type: 'select', options: [{ value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }] });
    expect(bp.fields[1]!.options).toEqual([{ value: '1', label: 'Small' }, { value: '2', label: '2' }]);
  });

  test('a template with a slash is asked for with a literal slash (no %2F, which Apache refuses)', async () => {
    const { t, seen } = transport(() => reply({ data: { name: 'modular/hero', fields: [] } }));
    await cmsBlueprints.page(t, 'modular/hero');
    expect(seen[0]!.path).toBe('/blueprints/pages/modular/hero');
  });

  test('the recorded template list', async () => {
    const list = await cmsBlueprints.templates(transport(() => recorded('23-blueprints-pages')).t);
    expect(list[0]).toEqual({ type: 'blog', label: 'Blog' });
  });
});
