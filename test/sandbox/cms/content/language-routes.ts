/**
 * Languages and translations (spec section 4 "Pages": languages, translate, adopt-language, sync,
 * compare; GET /languages). A multilanguage site keeps one `{template}.{lang}.md` per language; an
 * untyped `{template}.md` stands in for every language that has no file of its own and is reported
 * as the default language's translation.
 */
import { HttpProblem, json, readBody, requireFields, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { checkLanguage, invalid, isObject, langParam, pageLocation, requirePage } from './common';
import { iso, loadPage, pageRef, plainData, titleOf, tryLoad, type LoadedPage } from './serialize';

/** English and native names, and writing direction, of the languages a site is likely to have. */
const LANGUAGE_NAMES: Record<string, [string, string, boolean?]> = {
  en: ['English', 'English'],
  de: ['German', 'Deutsch'],
  fr: ['French', 'Français'],
  es: ['Spanish', 'Español'],
  it: ['Italian', 'Italiano'],
  nl: ['Dutch', 'Nederlands'],
  pt: ['Portuguese', 'Português'],
  pl: ['Polish', 'Polski'],
  sv: ['Swedish', 'Svenska'],
  da: ['Danish', 'Dansk'],
  fi: ['Finnish', 'Suomi'],
  cs: ['Czech', 'Čeština'],
  ru: ['Russian', 'Русский'],
  uk: ['Ukrainian', 'Українська'],
  tr: ['Turkish', 'Türkçe'],
  el: ['Greek', 'Ελληνικά'],
  ja: ['Japanese', '日本語'],
  zh: ['Chinese', '中文'],
  ko: ['Korean', '한국어'],
  ar: ['Arabic', 'العربية', true],
  he: ['Hebrew', 'עברית', true],
  fa: ['Persian', 'فارسی', true],
};

export function languageInfo(code: string, defaultCode: string | null) {
  const [name, native, rtl] = LANGUAGE_NAMES[code] ?? [code, code];
  return { code, name, native_name: native, rtl: rtl ?? false, is_default: code === defaultCode };
}

export function registerLanguageRoutes(router: Router, ctx: CmsContext): void {
  const store = ctx.content;
  const READ = 'api.pages.read';
  const WRITE = 'api.pages.write';

  router.on('GET', '/languages', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    if (!store.multilang) {
      // the real service: multilanguage off → no languages, no default, no active language
      json(res, 200, { data: { enabled: false, languages: [], default: null, active: null } });
      return;
    }
    const def = store.site.defaultLanguage;
    // "active" is the request's language: `?lang=` when it names a site language, else the default
    const asked = url.searchParams.get('lang');
    const active = asked && store.isLanguage(asked) ? asked : def;
    json(res, 200, { data: { enabled: true, languages: store.site.languages.map((c) => languageInfo(c, def)), default: def, active } });
  });

  router.on('GET', '/pages/{route+}/languages', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const node = requirePage(ctx, params.route!);
    const translated = store.translated(node);
    json(res, 200, {
      data: {
        route: node.route,
        default_language: store.site.defaultLanguage,
        translated,
        untranslated: store.site.languages.filter((l) => !(l in translated)),
      },
    });
  });

  router.on('POST', '/pages/{route+}/translate', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const body = await readBody(req);
    requireFields(body, ['lang'], 400);
    checkLanguage(ctx, body.lang, 400);
    const lang = body.lang;
    if (store.translated(node)[lang]) throw invalid(400, 'lang', `A translation already exists for language '${lang}'. Use PATCH to update it.`);
    if (body.title !== undefined && typeof body.title !== 'string') throw invalid(400, 'title', "The 'title' field must be a string.");
    if (body.content !== undefined && typeof body.content !== 'string') throw invalid(400, 'content', "The 'content' field must be a string.");
    if (body.header !== undefined && !isObject(body.header)) throw invalid(400, 'header', "The 'header' field must be an object.");

    // The source is the page in the default language; a page without one is translated from the
    // first language it has (the real service would answer 404 there).
    const source = sourcePage(ctx, node);
    const title = typeof body.title === 'string' ? body.title : titleOf(source);
    const content = typeof body.content === 'string' ? body.content : source.content;
    // spec: the header defaults to a copy of the source header with the title merged in
    const head: Record<string, unknown> = { ...(isObject(body.header) ? body.header : source.header), title };

    ctx.events.record('onApiBeforePageTranslate', { page: pageRef(source), lang, header: head, content });
    ctx.events.record('onAdminSave', { page: pageRef(source), lang });
    store.writePage(node.dir, store.fileNameFor(source.file.template, lang), head, content);
    const created = loadPage(store, requirePage(ctx, node.route), lang);
    ctx.events.record('onAdminAfterSave', { page: pageRef(created) });
    ctx.events.record('onApiPageTranslated', { page: pageRef(created), route: node.route, lang });
    json(res, 201, { data: { ...plainData(store, created), lang } }, { Location: pageLocation(ctx.prefix, node.route, `?lang=${encodeURIComponent(lang)}`) });
  });

  router.on('POST', '/pages/{route+}/adopt-language', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const body = await readBody(req);
    requireFields(body, ['lang'], 400);
    checkLanguage(ctx, body.lang, 400); // also "multilanguage off" → 400
    const lang = body.lang;
    const base = node.files.find((f) => f.lang === null);
    if (!base) {
      throw invalid(400, 'lang', `No untyped base file found for route ${node.route}. Page already uses language-suffixed files — use POST /pages/{route}/translate for new languages.`);
    }
    const target = store.fileNameFor(base.template, lang);
    if (target === base.name) {
      throw invalid(400, 'lang', 'Target filename resolves to the same path as the base file — check include_default_lang_file_extension.');
    }
    if (node.files.some((f) => f.name === target)) throw invalid(400, 'lang', `A translation file already exists for language '${lang}'.`);
    const before = tryLoad(store, node);
    ctx.events.record('onApiBeforePageAdoptLanguage', { page: pageRef(before), route: node.route, lang, from_file: base.name, to_file: target });
    try {
      store.renameFile(`${node.dir}/${base.name}`, `${node.dir}/${target}`);
    } catch (err) {
      throw new HttpProblem(500, 'Rename Failed', `Failed to rename '${base.name}' to '${target}': ${err instanceof Error ? err.message : String(err)}`);
    }
    const adopted = loadPage(store, requirePage(ctx, node.route), lang);
    ctx.events.record('onApiPageLanguageAdopted', { page: pageRef(adopted), route: node.route, lang });
    json(res, 200, { data: { ...plainData(store, adopted), lang } });
  });

  router.on('POST', '/pages/{route+}/sync', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const body = await readBody(req);
    requireFields(body, ['source_lang', 'target_lang'], 400);
    checkLanguage(ctx, body.source_lang, 400);
    checkLanguage(ctx, body.target_lang, 400);
    const { source_lang: sourceLang, target_lang: targetLang } = body as { source_lang: string; target_lang: string };
    if (sourceLang === targetLang) throw invalid(400, 'target_lang', 'Source and target languages must be different.');
    const node = requirePage(ctx, params.route!);
    const source = tryLoad(store, node, sourceLang);
    if (!source) throw new HttpProblem(404, 'Not Found', `Page not found at route '${node.route}' for source language '${sourceLang}'.`);
    if (source.broken !== undefined) loadPage(store, node, sourceLang); // throws the 500
    const targetFile = store.translated(node)[targetLang];
    if (!targetFile) {
      throw invalid(400, 'target_lang', `No translation file exists for language '${targetLang}'. Use POST /pages/{route}/translate to create one first.`);
    }
    const target = tryLoad(store, node, targetLang);
    const head = { ...source.header };
    const content = source.content;
    ctx.events.record('onApiBeforePageSync', { page: pageRef(target), source_lang: sourceLang, target_lang: targetLang, header: head, content });
    ctx.events.record('onAdminSave', { page: pageRef(target) });
    store.writePage(node.dir, targetFile, head, content);
    const synced = loadPage(store, requirePage(ctx, node.route), targetLang);
    ctx.events.record('onAdminAfterSave', { page: pageRef(synced) });
    ctx.events.record('onApiPageSynced', { page: pageRef(synced), route: node.route, source_lang: sourceLang, target_lang: targetLang });
    json(res, 200, { data: { ...plainData(store, synced), lang: targetLang } });
  });

  router.on('GET', '/pages/{route+}/compare', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const source = url.searchParams.get('source');
    const target = url.searchParams.get('target');
    if (!source || !target) throw invalid(400, !source ? 'source' : 'target', "Both 'source' and 'target' query parameters are required.");
    langParam(ctx, url, 400, source);
    langParam(ctx, url, 400, target);
    if (!store.multilang) checkLanguage(ctx, source, 400);
    const route = '/' + params.route!.replace(/^\/+|\/+$/g, '');
    const node = store.find(route);
    // The spec lists no 404 here: like the real service, an unknown route answers both sides null.
    if (!node) {
      json(res, 200, { data: { route, source: null, target: null } });
      return;
    }
    const side = (lang: string) => {
      const translated = store.translated(node);
      if (!translated[lang]) {
        // A missing translation is `exists: false`, not an error. Its text is empty and `modified`
        // null (not the fallback file's), so a diff shows plainly that nothing is there yet.
        return { lang, exists: false, title: '', content: '', header: {}, modified: null };
      }
      const p: LoadedPage = loadPage(store, node, lang);
      return { lang, exists: true, title: titleOf(p), content: p.content, header: p.header, modified: iso(p.mtimeMs) };
    };
    json(res, 200, { data: { route: node.route, source: side(source), target: side(target) } });
  });
}

/** The page in the default language, else in the first language it has a file for. */
function sourcePage(ctx: CmsContext, node: Parameters<typeof tryLoad>[1]): LoadedPage {
  const store = ctx.content;
  const first = store.resolve(node) ? null : Object.keys(store.translated(node))[0] ?? node.files.find((f) => f.lang)?.lang ?? null;
  return loadPage(store, node, first);
}
