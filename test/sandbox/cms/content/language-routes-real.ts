/**
 * Languages and translations as the real Grav API plugin answers them (the `real` flavour; the
 * documents' version is language-routes.ts). It follows
 * getgrav/grav-plugin-api:classes/Api/Controllers/PagesController.php siteLanguages(), languages(),
 * translate(), adoptLanguage(), sync() and compare(), and recordings 20–21:
 *
 *   GET /languages            `active` is the site's default (the plugin applies no `?lang` here)
 *   GET /pages/{r}/languages  `translated` maps language → route (not → file), `[]` when empty;
 *                             `untranslated` leaves out only published translations
 *   translate                 the source is the page in the default language (with the content
 *                             fallback); its header is copied whole and laid over the title, so a
 *                             header title wins over `title`; 201 with the new page in full
 *                             (`language`, no `lang`), Location `/pages/{route}` (no `?lang`)
 *   adopt-language            200 with the page in the adopted language
 *   sync                      the source is read with the content fallback; the target must
 *                             have its own file (422 otherwise); 200 with the synced page
 *   compare                   a side is null when the page has no file for that language nor a
 *                             fallback; a missing translation is `exists: false` with the
 *                             fallback page's title, text, header and time
 *
 * Every failure is a 422 (the plugin's ValidationException) except a missing page (404). Writes
 * carry `X-Invalidates: pages:update:/{route}, pages:list`.
 */
import { HttpProblem, json, readBody, requireFields, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { rawHeader } from '../real-wire';
import { checkLanguage, invalid, isObject, requirePage } from './common';
import { languageInfo } from './language-routes';
import { pageWire } from './page-wire';
import { iso, pageRef, titleOf } from './serialize';
import { realLoad, realModifiedMs, realRequireLoad, realSerializer, realTranslated, realUntranslated } from './serialize-real';

const READ = 'api.pages.read';
const WRITE = 'api.pages.write';

/** `array_replace_recursive`: maps merge key by key (lists too, by index), later values win. */
function replaceRecursive(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = (isObject(v) || Array.isArray(v)) && (isObject(b) || Array.isArray(b)) && Array.isArray(v) === Array.isArray(b) ? mergeLike(b, v) : v;
  }
  return out;
}

function mergeLike(b: unknown, v: unknown): unknown {
  if (Array.isArray(b) && Array.isArray(v)) {
    const out = [...b];
    v.forEach((x, i) => (out[i] = x));
    return out;
  }
  return replaceRecursive(b as Record<string, unknown>, v as Record<string, unknown>);
}

export function registerRealLanguageRoutes(router: Router, ctx: CmsContext): void {
  const store = ctx.content;
  const wire = pageWire('real');
  const update = (route: string) => wire.writeHeaders([['update', `/${route}`]]);

  router.on('GET', '/languages', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    if (!store.multilang) {
      json(res, 200, { data: { enabled: false, languages: [], default: null, active: null } });
      return;
    }
    const def = store.site.defaultLanguage;
    json(res, 200, { data: { enabled: true, languages: store.site.languages.map((c) => languageInfo(c, def)), default: def, active: def } });
  });

  router.on('GET', '/pages/{route+}/languages', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const node = requirePage(ctx, params.route!);
    const p = realRequireLoad(store, node);
    const translated = realTranslated(store, p);
    json(res, 200, {
      data: {
        route: store.publicRoute(node),
        default_language: store.site.defaultLanguage,
        translated: Object.keys(translated).length ? translated : [],
        untranslated: realUntranslated(store, p),
      },
    });
  });

  router.on('POST', '/pages/{route+}/translate', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const source = realRequireLoad(store, node);
    const body = await readBody(req);
    requireFields(body, ['lang'], 422);
    checkLanguage(ctx, body.lang, 422);
    const lang = body.lang;
    if (lang in realTranslated(store, source)) throw invalid(422, 'lang', `A translation already exists for language '${lang}'. Use PATCH to update it.`);
    if (body.title !== undefined && body.title !== null && typeof body.title !== 'string') throw invalid(422, 'title', "The 'title' field must be a string.");
    if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') throw invalid(422, 'content', "The 'content' field must be a string.");
    if (body.header !== undefined && body.header !== null && !isObject(body.header)) throw invalid(422, 'header', "The 'header' field must be an object.");

    const title = typeof body.title === 'string' ? body.title : titleOf(source);
    const content = typeof body.content === 'string' ? body.content : source.content;
    // the title goes under the header (the source's, or the one sent), so a header title wins
    const head = replaceRecursive({ title }, isObject(body.header) ? body.header : source.header);

    ctx.events.record('onApiBeforePageTranslate', { page: pageRef(source), lang, header: head, content });
    ctx.events.record('onAdminSave', { page: pageRef(source), lang });
    store.writePage(node.dir, store.fileNameFor(source.file.template, lang), head, content);
    const created = realRequireLoad(store, requirePage(ctx, node.route), lang);
    ctx.events.record('onAdminAfterSave', { page: pageRef(created) });
    ctx.events.record('onApiPageTranslated', { page: pageRef(created), route: node.route, lang });
    json(res, 201, { data: realSerializer.page(store, created) }, { Location: rawHeader(`${ctx.prefix}/pages/${params.route}`), ...update(params.route!) });
  });

  router.on('POST', '/pages/{route+}/adopt-language', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const body = await readBody(req);
    requireFields(body, ['lang'], 422);
    checkLanguage(ctx, String(body.lang), 422);
    const lang = String(body.lang);
    const page = realRequireLoad(store, node);
    const template = page.file.template;
    const base = node.files.find((f) => f.lang === null && f.template === template);
    if (!base) {
      throw invalid(422, 'lang', `No untyped base file (${template}.md) found for route /${params.route}. Page already uses language-suffixed files — use POST /pages/{route}/translate for new languages.`);
    }
    const target = store.fileNameFor(template, lang);
    if (node.files.some((f) => f.name === target)) throw invalid(422, 'lang', `A translation file already exists for language '${lang}'.`);
    if (target === base.name) throw invalid(422, 'lang', 'Target filename resolves to the same path as the base file — check system.languages.include_default_lang_file_extension.');
    ctx.events.record('onApiBeforePageAdoptLanguage', { page: pageRef(page), route: node.route, lang, from_file: base.name, to_file: target });
    try {
      store.renameFile(`${node.dir}/${base.name}`, `${node.dir}/${target}`);
    } catch {
      throw new HttpProblem(500, 'Rename Failed', `Failed to rename '${base.name}' to '${target}'.`);
    }
    const adopted = realRequireLoad(store, requirePage(ctx, node.route), lang);
    ctx.events.record('onApiPageLanguageAdopted', { page: pageRef(adopted), route: node.route, lang });
    json(res, 200, { data: realSerializer.page(store, adopted) }, update(params.route!));
  });

  router.on('POST', '/pages/{route+}/sync', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const body = await readBody(req);
    requireFields(body, ['source_lang', 'target_lang'], 422);
    checkLanguage(ctx, body.source_lang, 422);
    checkLanguage(ctx, body.target_lang, 422);
    const { source_lang: sourceLang, target_lang: targetLang } = body as { source_lang: string; target_lang: string };
    if (sourceLang === targetLang) throw invalid(422, 'target_lang', 'Source and target languages must be different.');
    const node = ctx.content.find(params.route!);
    const source = node && realLoad(store, node, sourceLang);
    if (!node || !source) throw new HttpProblem(404, 'Not Found', `Page not found at route '/${params.route}' for source language '${sourceLang}'.`);
    if (source.broken !== undefined) realRequireLoad(store, node, sourceLang); // throws the 500
    const target = realLoad(store, node, targetLang);
    if (!target) throw new HttpProblem(404, 'Not Found', `Page not found at route '/${params.route}' for target language '${targetLang}'.`);
    if (!(targetLang in realTranslated(store, target))) {
      throw invalid(422, 'target_lang', `No translation file exists for language '${targetLang}'. Use POST /pages/{route}/translate to create one first.`);
    }
    const head = { ...source.header };
    const content = source.content;
    ctx.events.record('onApiBeforePageSync', { page: pageRef(target), source_lang: sourceLang, target_lang: targetLang, header: head, content });
    ctx.events.record('onAdminSave', { page: pageRef(target) });
    store.writePage(node.dir, target.file.name, head, content);
    const synced = realRequireLoad(store, requirePage(ctx, node.route), targetLang);
    ctx.events.record('onAdminAfterSave', { page: pageRef(synced) });
    ctx.events.record('onApiPageSynced', { page: pageRef(synced), route: node.route, source_lang: sourceLang, target_lang: targetLang });
    json(res, 200, { data: realSerializer.page(store, synced) }, update(params.route!));
  });

  router.on('GET', '/pages/{route+}/compare', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const source = url.searchParams.get('source');
    const target = url.searchParams.get('target');
    if (!source || !target) throw new HttpProblem(422, 'Unprocessable Entity', "Both 'source' and 'target' query parameters are required.");
    checkLanguage(ctx, source, 422);
    checkLanguage(ctx, target, 422);
    const node = store.find(params.route!);
    const side = (lang: string) => {
      const p = node && realLoad(store, node, lang);
      if (!p) return null;
      return {
        lang,
        exists: lang in realTranslated(store, p),
        title: titleOf(p),
        content: p.content,
        header: Object.keys(p.header).length ? p.header : [],
        modified: iso(realModifiedMs(store, p)),
      };
    };
    json(res, 200, { data: { route: `/${params.route}`, source: side(source), target: side(target) } });
  });
}
