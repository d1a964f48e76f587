/**
 * The CMS sandbox's translations over real HTTP: translate, adopt-language, sync, compare, page
 * languages, on the multilanguage demo site and on a single-language site.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';

function expectProblem(r: Reply, status: number): Json {
  expect(r.status, r.text).toBe(status);
  expect(r.type).toBe('application/problem+json');
  expect(r.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return r.body;
}

const filesOf = (sb: CmsSandbox, route: string) =>
  readdirSync(sb.content.find(route)!.dir)
    .filter((f) => f.endsWith('.md'))
    .sort();

describe('multilanguage demo site', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  beforeAll(async () => {
    sb = await startCmsSandbox();
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('translate: 201 with Location; title, content and header default to the source; events', async () => {
    sb.events.clear();
    const r = await api.post('/pages/blog/bright-market-1/translate', { lang: 'de', title: 'Heller Markt (1)' });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get('location')).toBe('/api/v1/pages/blog/bright-market-1?lang=de');
    const source = (await api.get('/pages/blog/bright-market-1')).body.data as Json;
    expect(r.body.data).toMatchObject({ route: '/blog/bright-market-1', lang: 'de', language: 'de', title: 'Heller Markt (1)', content: source.content });
    expect(r.body.data.header).toEqual({ ...source.header, title: 'Heller Markt (1)' });
    expect(filesOf(sb, '/blog/bright-market-1')).toEqual(['item.de.md', 'item.en.md']);
    expect(sb.events.names()).toEqual(['onApiBeforePageTranslate', 'onAdminSave', 'onAdminAfterSave', 'onApiPageTranslated']);
    expect(sb.events.list('onApiPageTranslated')[0]!.data).toEqual({
      page: { route: '/blog/bright-market-1', lang: 'de', title: 'Heller Markt (1)', template: 'item' },
      route: '/blog/bright-market-1',
      lang: 'de',
    });
    expect((await api.get('/pages/blog/bright-market-1/languages')).body.data).toMatchObject({ translated: { en: 'item.en.md', de: 'item.de.md' }, untranslated: ['fr'] });

    // own content and header
    const fr = await api.post('/pages/blog/bright-market-1/translate', { lang: 'fr', content: 'Bonjour', header: { title: 'ignored', subtitle: 'Sous-titre' } });
    expect(fr.body.data).toMatchObject({ content: 'Bonjour', title: 'Bright market (1)', header: { title: 'Bright market (1)', subtitle: 'Sous-titre' } });
  });

  test('translate: 400 when the translation exists, the language is invalid or missing; 404', async () => {
    const exists = expectProblem(await api.post('/pages/blog/old-river-3/translate', { lang: 'de' }), 400);
    expect(exists.detail).toBe("A translation already exists for language 'de'. Use PATCH to update it.");
    // the default language counts as translated by an untyped base file
    expectProblem(await api.post('/pages/legal/terms/translate', { lang: 'en' }), 400);
    const invalid = expectProblem(await api.post('/pages/blog/old-river-3/translate', { lang: 'xx' }), 400);
    expect(invalid.detail).toBe("Invalid language code 'xx'. Supported languages: en, de, fr");
    expect(expectProblem(await api.post('/pages/blog/old-river-3/translate', {}), 400).detail).toBe('Missing required fields: lang');
    expectProblem(await api.post('/pages/blog/nothing-here/translate', { lang: 'fr' }), 404);
  });

  test('adopt-language: renames the untyped base file to {template}.{lang}.md; events; 400s', async () => {
    expect(filesOf(sb, '/legal/privacy')).toEqual(['default.md']);
    const before = (await api.get('/pages/legal/privacy?translations=true')).body.data as Json;
    expect(before).toMatchObject({ has_default_file: true, explicit_language_files: [], translated_languages: ['en'] });
    sb.events.clear();
    const r = await api.post('/pages/legal/privacy/adopt-language', { lang: 'en' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ route: '/legal/privacy', lang: 'en', language: 'en', title: 'Privacy' });
    expect(filesOf(sb, '/legal/privacy')).toEqual(['default.en.md']);
    expect((await api.get('/pages/legal/privacy?translations=true')).body.data).toMatchObject({ has_default_file: false, explicit_language_files: ['en'] });
    expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
      ['onApiBeforePageAdoptLanguage', { page: { route: '/legal/privacy', lang: null, title: 'Privacy', template: 'default' }, route: '/legal/privacy', lang: 'en', from_file: 'default.md', to_file: 'default.en.md' }],
      ['onApiPageLanguageAdopted', { page: { route: '/legal/privacy', lang: 'en', title: 'Privacy', template: 'default' }, route: '/legal/privacy', lang: 'en' }],
    ]);
    // only renamed: the text is untouched
    expect(readFileSync(join(sb.content.find('/legal/privacy')!.dir, 'default.en.md'), 'utf8')).toMatch(/^---\ntitle: Privacy\n---\n/);

    expect(expectProblem(await api.post('/pages/legal/privacy/adopt-language', { lang: 'de' }), 400).detail).toMatch(/^No untyped base file/);
    // a base file and a German file beside it: German cannot be adopted again
    expect(filesOf(sb, '/blog/bright-journey-51')).toEqual(['item.de.md', 'item.md']);
    expect(expectProblem(await api.post('/pages/blog/bright-journey-51/adopt-language', { lang: 'de' }), 400).detail).toBe("A translation file already exists for language 'de'.");
    expectProblem(await api.post('/pages/blog/bright-journey-51/adopt-language', { lang: 'xx' }), 400);
    expectProblem(await api.post('/pages/blog/bright-journey-51/adopt-language', {}), 400);
    expectProblem(await api.post('/pages/nope/adopt-language', { lang: 'en' }), 404);
  });

  test('sync: the target language file is overwritten from the source; events; 400s; 404', async () => {
    sb.events.clear();
    const r = await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'de' });
    expect(r.status, r.text).toBe(200);
    const en = (await api.get('/pages/blog/old-river-63')).body.data as Json;
    expect(r.body.data).toMatchObject({ route: '/blog/old-river-63', lang: 'de', language: 'de', title: en.title, content: en.content, header: en.header });
    expect((await api.get('/pages/blog/old-river-63?lang=de')).body.data.title).toBe(en.title);
    expect(sb.events.names()).toEqual(['onApiBeforePageSync', 'onAdminSave', 'onAdminAfterSave', 'onApiPageSynced']);
    expect(sb.events.list('onApiPageSynced')[0]!.data).toMatchObject({ route: '/blog/old-river-63', source_lang: 'en', target_lang: 'de' });

    expect(expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'fr' }), 400).detail).toMatch(/No translation file exists for language 'fr'/);
    expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'en' }), 400);
    expect(expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en' }), 400).detail).toBe('Missing required fields: target_lang');
    expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'xx' }), 400);
    expectProblem(await api.post('/pages/blog/nope/sync', { source_lang: 'en', target_lang: 'de' }), 404);
    // the source language must exist too
    expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'fr', target_lang: 'de' }), 404);
  });

  test('compare: both sides; a missing translation is exists:false, not an error; 400s', async () => {
    const r = await api.get('/pages/blog/little-workshop-5/compare?source=en&target=de');
    expect(r.status).toBe(200);
    expect(r.body.data.route).toBe('/blog/little-workshop-5');
    expect(r.body.data.source).toMatchObject({ lang: 'en', exists: true, title: 'Little workshop (5)', header: { title: 'Little workshop (5)' }, modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) });
    expect(r.body.data.source.content).toContain('# Little workshop (5)');
    expect(r.body.data.target).toEqual({ lang: 'de', exists: false, title: '', content: '', header: {}, modified: null });
    const both = await api.get('/pages/blog/little-workshop-5/compare?source=fr&target=en');
    expect(both.body.data.source).toMatchObject({ lang: 'fr', exists: true, title: 'Atelier petit (5)' });
    expect(both.body.data.target).toMatchObject({ lang: 'en', exists: true });

    expectProblem(await api.get('/pages/blog/little-workshop-5/compare?source=en'), 400);
    expectProblem(await api.get('/pages/blog/little-workshop-5/compare?source=en&target=xx'), 400);
    // the spec lists no 404 here: an unknown route answers both sides null
    expect((await api.get('/pages/blog/nope/compare?source=en&target=de')).body.data).toEqual({ route: '/blog/nope', source: null, target: null });
  });
});

describe('single-language site', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  beforeAll(async () => {
    sb = await startCmsSandbox({ content: 'single' });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('GET /languages: multilanguage off', async () => {
    expect((await api.get('/languages')).body.data).toEqual({ enabled: false, languages: [], default: null, active: null });
  });

  test('pages have no language; the lang parameter is ignored on reads', async () => {
    const r = await api.get('/pages/about?lang=de&translations=true');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ language: null, translated_languages: [], untranslated_languages: [], has_default_file: true, explicit_language_files: [] });
    expect((await api.get('/pages?lang=zz')).body.meta.total).toBe(7);
    expect((await api.get('/pages/about/languages')).body.data).toEqual({ route: '/about', default_language: null, translated: {}, untranslated: [] });
  });

  test('translate, adopt-language, sync and compare answer 400: multilanguage is not enabled', async () => {
    const t = expectProblem(await api.post('/pages/about/translate', { lang: 'de' }), 400);
    expect(t.detail).toBe('Multi-language is not enabled on this site.');
    expectProblem(await api.post('/pages/about/adopt-language', { lang: 'en' }), 400);
    expectProblem(await api.post('/pages/about/sync', { source_lang: 'en', target_lang: 'de' }), 400);
    expectProblem(await api.get('/pages/about/compare?source=en&target=de'), 400);
  });
});

describe('a site that turned multilanguage on later (untyped files only)', () => {
  test('every page reads in every language from its base file, until a language adopts it', async () => {
    const sb = await startCmsSandbox({ content: 'single', languages: ['en', 'de'] });
    try {
      const api = new SandboxClient(sb);
      expect((await api.get('/pages?lang=de')).body.meta.total).toBe(7);
      expect((await api.get('/pages/about?lang=de')).body.data).toMatchObject({ language: null, title: 'About' });
      expect((await api.get('/pages/about/languages')).body.data).toEqual({ route: '/about', default_language: 'en', translated: { en: 'default.md' }, untranslated: ['de'] });
      // adopting English, then translating to German, gives two real files
      await api.post('/pages/about/adopt-language', { lang: 'en' });
      await api.post('/pages/about/translate', { lang: 'de', title: 'Über' });
      expect(filesOf(sb, '/about')).toEqual(['default.de.md', 'default.en.md']);
      expect((await api.get('/pages/about?lang=de')).body.data.title).toBe('Über');
    } finally {
      await sb.close();
    }
  });
});
