/**
 * The CMS sandbox's translations over real HTTP: translate, adopt-language, sync, compare, page
 * languages, on the multilanguage demo site and on a single-language site. Every test runs against
 * both flavours; where the real Grav API plugin answers otherwise (the full page without `lang`,
 * 422s, languages mapped to routes, the content fallback, a header title winning over `title`),
 * each flavour's own answer is asserted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, pagination, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const filesOf = (sb: CmsSandbox, route: string) =>
  readdirSync(sb.content.find(route)!.dir)
    .filter((f) => f.endsWith('.md'))
    .sort();

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  /** the documents' 400 is the real service's 422 */
  const BAD = real ? 422 : 400;
  const invalidated = (r: Reply, route: string) => expect(r.headers.get('x-invalidates')).toBe(real ? `pages:update:${route}, pages:list` : null);

  describe('multilanguage demo site', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor });
      api = new SandboxClient(sb);
    });
    afterAll(() => sb?.close());

    test('translate: 201 with Location; title, content and header default to the source; events', async () => {
      sb.events.clear();
      const r = await api.post('/pages/blog/bright-market-1/translate', { lang: 'de', title: 'Heller Markt (1)' });
      expect(r.status, r.text).toBe(201);
      const source = (await api.get('/pages/blog/bright-market-1')).body.data as Json;
      // the documents merge `title` over the source header; the real service lays the copied source
      // header over it, so the source's title wins (and answers the new page in full, with no `lang`)
      const title = real ? 'Bright market (1)' : 'Heller Markt (1)';
      expect(r.body.data).toMatchObject({ route: '/blog/bright-market-1', language: 'de', title, content: source.content });
      expect(r.body.data.header).toEqual({ ...source.header, title });
      if (real) {
        expect(r.headers.get('location')).toBe('/api/v1/pages/blog/bright-market-1');
        expect(r.body.data).not.toHaveProperty('lang');
        expect(r.body.data).toMatchObject({ raw_route: '/blog/bright-market-1', media: [] });
        invalidated(r, '/blog/bright-market-1');
      } else {
        expect(r.headers.get('location')).toBe('/api/v1/pages/blog/bright-market-1?lang=de');
        expect(r.body.data.lang).toBe('de');
      }
      expect(filesOf(sb, '/blog/bright-market-1')).toEqual(['item.de.md', 'item.en.md']);
      expect(sb.events.names()).toEqual(['onApiBeforePageTranslate', 'onAdminSave', 'onAdminAfterSave', 'onApiPageTranslated']);
      expect(sb.events.list('onApiPageTranslated')[0]!.data).toEqual({
        page: { route: '/blog/bright-market-1', lang: 'de', title, template: 'item' },
        route: '/blog/bright-market-1',
        lang: 'de',
      });
      const route = '/blog/bright-market-1';
      expect((await api.get('/pages/blog/bright-market-1/languages')).body.data).toMatchObject({
        translated: real ? { en: route, de: route } : { en: 'item.en.md', de: 'item.de.md' },
        untranslated: ['fr'],
      });

      // own content and header: the documents keep the source title, the real service the header's
      const fr = await api.post('/pages/blog/bright-market-1/translate', { lang: 'fr', content: 'Bonjour', header: { title: 'ignored', subtitle: 'Sous-titre' } });
      const frTitle = real ? 'ignored' : 'Bright market (1)';
      expect(fr.body.data).toMatchObject({ content: 'Bonjour', title: frTitle, header: { title: frTitle, subtitle: 'Sous-titre' } });
    });

    test('translate: 400 (real: 422) when the translation exists, the language is invalid or missing; 404', async () => {
      const exists = expectProblem(await api.post('/pages/blog/old-river-3/translate', { lang: 'de' }), BAD);
      expect(exists.detail).toBe("A translation already exists for language 'de'. Use PATCH to update it.");
      // the default language counts as translated by an untyped base file
      expectProblem(await api.post('/pages/legal/terms/translate', { lang: 'en' }), BAD);
      const invalid = expectProblem(await api.post('/pages/blog/old-river-3/translate', { lang: 'xx' }), BAD);
      expect(invalid.detail).toBe("Invalid language code 'xx'. Supported languages: en, de, fr");
      expect(expectProblem(await api.post('/pages/blog/old-river-3/translate', {}), BAD).detail).toBe('Missing required fields: lang');
      expectProblem(await api.post('/pages/blog/nothing-here/translate', { lang: 'fr' }), 404);
    });

    test('adopt-language: renames the untyped base file to {template}.{lang}.md; events; 400s', async () => {
      expect(filesOf(sb, '/legal/privacy')).toEqual(['default.md']);
      const before = (await api.get('/pages/legal/privacy?translations=true')).body.data as Json;
      expect(before).toMatchObject({ has_default_file: true, explicit_language_files: [], translated_languages: real ? { en: '/legal/privacy' } : ['en'] });
      sb.events.clear();
      const r = await api.post('/pages/legal/privacy/adopt-language', { lang: 'en' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ route: '/legal/privacy', language: 'en', title: 'Privacy' });
      if (real) {
        expect(r.body.data).not.toHaveProperty('lang');
        invalidated(r, '/legal/privacy');
      } else expect(r.body.data.lang).toBe('en');
      expect(filesOf(sb, '/legal/privacy')).toEqual(['default.en.md']);
      expect((await api.get('/pages/legal/privacy?translations=true')).body.data).toMatchObject({ has_default_file: false, explicit_language_files: ['en'] });
      expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
        ['onApiBeforePageAdoptLanguage', { page: { route: '/legal/privacy', lang: null, title: 'Privacy', template: 'default' }, route: '/legal/privacy', lang: 'en', from_file: 'default.md', to_file: 'default.en.md' }],
        ['onApiPageLanguageAdopted', { page: { route: '/legal/privacy', lang: 'en', title: 'Privacy', template: 'default' }, route: '/legal/privacy', lang: 'en' }],
      ]);
      // only renamed: the text is untouched
      expect(readFileSync(join(sb.content.find('/legal/privacy')!.dir, 'default.en.md'), 'utf8')).toMatch(/^---\ntitle: Privacy\n---\n/);

      expect(expectProblem(await api.post('/pages/legal/privacy/adopt-language', { lang: 'de' }), BAD).detail).toMatch(/^No untyped base file/);
      // a base file and a German file beside it: German cannot be adopted again
      expect(filesOf(sb, '/blog/bright-journey-51')).toEqual(['item.de.md', 'item.md']);
      expect(expectProblem(await api.post('/pages/blog/bright-journey-51/adopt-language', { lang: 'de' }), BAD).detail).toBe("A translation file already exists for language 'de'.");
      expectProblem(await api.post('/pages/blog/bright-journey-51/adopt-language', { lang: 'xx' }), BAD);
      expectProblem(await api.post('/pages/blog/bright-journey-51/adopt-language', {}), BAD);
      expectProblem(await api.post('/pages/nope/adopt-language', { lang: 'en' }), 404);
    });

    test('sync: the target language file is overwritten from the source; events; 400s; 404', async () => {
      sb.events.clear();
      const r = await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'de' });
      expect(r.status, r.text).toBe(200);
      const en = (await api.get('/pages/blog/old-river-63')).body.data as Json;
      expect(r.body.data).toMatchObject({ route: '/blog/old-river-63', language: 'de', title: en.title, content: en.content, header: en.header });
      if (real) {
        expect(r.body.data).not.toHaveProperty('lang');
        invalidated(r, '/blog/old-river-63');
      } else expect(r.body.data.lang).toBe('de');
      expect((await api.get('/pages/blog/old-river-63?lang=de')).body.data.title).toBe(en.title);
      expect(sb.events.names()).toEqual(['onApiBeforePageSync', 'onAdminSave', 'onAdminAfterSave', 'onApiPageSynced']);
      expect(sb.events.list('onApiPageSynced')[0]!.data).toMatchObject({ route: '/blog/old-river-63', source_lang: 'en', target_lang: 'de' });

      expect(expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'fr' }), BAD).detail).toMatch(/No translation file exists for language 'fr'/);
      expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'en' }), BAD);
      expect(expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en' }), BAD).detail).toBe('Missing required fields: target_lang');
      expectProblem(await api.post('/pages/blog/old-river-63/sync', { source_lang: 'en', target_lang: 'xx' }), BAD);
      expectProblem(await api.post('/pages/blog/nope/sync', { source_lang: 'en', target_lang: 'de' }), 404);
      // a source language the page has no file for: the documents' 404; the real service reads the
      // source through its content fallback (English here) and syncs from that
      const fromFr = await api.post('/pages/blog/old-river-63/sync', { source_lang: 'fr', target_lang: 'de' });
      if (real) expect(fromFr.body.data).toMatchObject({ language: 'de', title: en.title });
      else expectProblem(fromFr, 404);
    });

    test('compare: both sides; a missing translation is exists:false, not an error; 400s', async () => {
      const r = await api.get('/pages/blog/little-workshop-5/compare?source=en&target=de');
      expect(r.status).toBe(200);
      expect(r.body.data.route).toBe('/blog/little-workshop-5');
      expect(r.body.data.source).toMatchObject({ lang: 'en', exists: true, title: 'Little workshop (5)', header: { title: 'Little workshop (5)' }, modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) });
      expect(r.body.data.source.content).toContain('# Little workshop (5)');
      // a missing translation: the documents send empty text; the real service the fallback page's
      if (real) expect(r.body.data.target).toEqual({ ...r.body.data.source, lang: 'de', exists: false });
      else expect(r.body.data.target).toEqual({ lang: 'de', exists: false, title: '', content: '', header: {}, modified: null });
      const both = await api.get('/pages/blog/little-workshop-5/compare?source=fr&target=en');
      expect(both.body.data.source).toMatchObject({ lang: 'fr', exists: true, title: 'Atelier petit (5)' });
      expect(both.body.data.target).toMatchObject({ lang: 'en', exists: true });

      expectProblem(await api.get('/pages/blog/little-workshop-5/compare?source=en'), BAD);
      expectProblem(await api.get('/pages/blog/little-workshop-5/compare?source=en&target=xx'), BAD);
      // the spec lists no 404 here: an unknown route answers both sides null
      expect((await api.get('/pages/blog/nope/compare?source=en&target=de')).body.data).toEqual({ route: '/blog/nope', source: null, target: null });

      // a page with only a German file: the real service has no English page to show (null), the
      // documents an empty side
      expect((await api.post('/pages', { route: '/nur-deutsch', title: 'Nur Deutsch', lang: 'de' })).status).toBe(201);
      const onlyDe = (await api.get('/pages/nur-deutsch/compare?source=en&target=de')).body.data;
      expect(onlyDe.target).toMatchObject({ lang: 'de', exists: true, title: 'Nur Deutsch' });
      if (real) expect(onlyDe.source).toBeNull();
      else expect(onlyDe.source).toEqual({ lang: 'en', exists: false, title: '', content: '', header: {}, modified: null });
    });
  });

  describe('single-language site', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor, content: 'single' });
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
      expect(pagination(await api.get('/pages?lang=zz')).total).toBe(7);
      // no translations: an empty map in the documents, PHP's empty array `[]` in the real service
      expect((await api.get('/pages/about/languages')).body.data).toEqual({ route: '/about', default_language: null, translated: real ? [] : {}, untranslated: [] });
    });

    test('translate, adopt-language, sync and compare answer 400 (real: 422): multilanguage is not enabled', async () => {
      const t = expectProblem(await api.post('/pages/about/translate', { lang: 'de' }), BAD);
      expect(t.detail).toBe('Multi-language is not enabled on this site.');
      expectProblem(await api.post('/pages/about/adopt-language', { lang: 'en' }), BAD);
      expectProblem(await api.post('/pages/about/sync', { source_lang: 'en', target_lang: 'de' }), BAD);
      expectProblem(await api.get('/pages/about/compare?source=en&target=de'), BAD);
    });
  });

  describe('a site that turned multilanguage on later (untyped files only)', () => {
    test('every page reads in every language from its base file, until a language adopts it', async () => {
      const sb = await startCmsSandbox({ flavor, content: 'single', languages: ['en', 'de'] });
      try {
        const api = new SandboxClient(sb);
        expect(pagination(await api.get('/pages?lang=de')).total).toBe(7);
        expect((await api.get('/pages/about?lang=de')).body.data).toMatchObject({ language: null, title: 'About' });
        expect((await api.get('/pages/about/languages')).body.data).toEqual({ route: '/about', default_language: 'en', translated: real ? { en: '/about' } : { en: 'default.md' }, untranslated: ['de'] });
        // adopting English, then translating to German, gives two real files
        await api.post('/pages/about/adopt-language', { lang: 'en' });
        await api.post('/pages/about/translate', { lang: 'de', title: 'Über' });
        expect(filesOf(sb, '/about')).toEqual(['default.de.md', 'default.en.md']);
        // (the real service's translate keeps the copied header's title; a header sets it)
        expect((await api.get('/pages/about?lang=de')).body.data.title).toBe(real ? 'About' : 'Über');
        await api.patch('/pages/about?lang=de', { title: 'Über' });
        expect((await api.get('/pages/about?lang=de')).body.data.title).toBe('Über');
      } finally {
        await sb.close();
      }
    });
  });
});
