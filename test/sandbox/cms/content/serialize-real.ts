/**
 * Pages as the real Grav API plugin answers them (the `real` flavour). It follows
 * getgrav/grav-plugin-api:classes/Api/Serializers/PageSerializer.php (fields, their order, the header
 * read over the page's own values) and the Grav page object behind it
 * (getgrav/grav:system/src/Grav/Framework/Flex/Pages/Traits/PageContentTrait.php and
 * PageRoutableTrait.php; system/src/Grav/Common/Page/Page.php for translatedLanguages()), checked
 * against the recorded replies 11–19 of a real Grav 2.0.7 with the plugin 1.0.12:
 *
 *   route          the public route: `/` for the home page (`home.alias`), else the structural one
 *   raw_route      the structural route (`/home` for the home page)
 *   parent_route   the parent's structural route, `/` at the top level
 *   title, menu    the header's when it is a non-empty string, else the page's own (slug-derived)
 *   header         an empty header is `[]` (PHP's empty array), not `{}`
 *   taxonomy       `{type: [strings]}`, or `[]` when the page has none
 *   published      the header's value cast as PHP casts to bool, else true
 *   visible        the header's value, else: ordered folder, not a module, and published
 *   routable       the header's value (default true), and published, and not a module (`_` folder)
 *   date           the header date, else the page file's own modification time
 *   modified       the newest file of the page folder (language files and media alike)
 *   order          the folder prefix with its dot as written (`"01."`), or false when unordered
 *   translations   `translated_languages` maps language → route (an empty `[]` on a single-language
 *                  site), `untranslated_languages` are the site languages without a *published*
 *                  file of the page's template
 *   content        always the raw markdown; `render=true` adds `content_html`; `summary=true`
 *                  sends `summary` instead of `content`
 *   list rows      the same without content and media
 *
 * A page is read in a language with Grav's content fallback: the asked language, the default
 * language, then the untyped base file (getgrav/grav:system/src/Grav/Common/Language/Language.php
 * getFallbackLanguages()).
 */
import { HttpProblem } from '../../http';
import type { YamlMap } from './frontmatter';
import { renderMarkdown, summarize } from './markdown';
import { headerDateMs, iso, mediaItem, tryLoad, type LoadedPage, type PageSerializer, type ReadOptions } from './serialize';
import type { PageFiles, PageNode } from './page-files';

/** PHP's `(bool)` cast: false for false, 0, '', '0', null and an empty array; true otherwise. */
function phpBool(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '' || v === '0') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** The page in `lang` with Grav's content fallback (asked language, default language, base file). */
export function realLoad(store: PageFiles, node: PageNode, lang?: string | null): LoadedPage | null {
  return tryLoad(store, node, lang, true);
}

/** Like realLoad, but the real service's 404 (and the 500 of an unreadable page file). */
export function realRequireLoad(store: PageFiles, node: PageNode, lang?: string | null): LoadedPage {
  const p = realLoad(store, node, lang);
  if (!p) throw new HttpProblem(404, 'Not Found', `Page not found at route: ${node.route}`);
  if (p.broken !== undefined) {
    throw new HttpProblem(500, 'Internal Server Error', `Invalid front matter in ${store.relPath(node.dir)}/${p.file.name}: ${p.broken}`);
  }
  return p;
}

const isModule = (node: PageNode) => node.slug.startsWith('_');

/** Flex `published()`: the header value (missing = true). */
export function realPublished(p: LoadedPage): boolean {
  return 'published' in p.header ? phpBool(p.header.published) : true;
}

/** Flex `visible()`: the header value (blank = unset), else an ordered folder; never a module; only when published. */
export function realVisible(p: LoadedPage): boolean {
  const v = p.header.visible;
  const value = v === undefined || v === null || v === '' ? p.node.order !== null : phpBool(v);
  return value && !isModule(p.node) && realPublished(p);
}

/** Flex `routable()`: the header value (blank = true), and published, and not a module. */
export function realRoutable(p: LoadedPage): boolean {
  const v = p.header.routable;
  const value = v === undefined || v === null || v === '' ? true : phpBool(v);
  return value && realPublished(p) && !isModule(p.node);
}

/** Flex `order()`: the folder prefix with its dot, as wide as written (`"01."`, `"001."`), or false. */
export function realOrder(node: PageNode): string | false {
  if (node.order === null) return false;
  return `${String(node.order).padStart(node.orderDigits, '0')}.`;
}

/** The header date, else the page file's own modification time (epoch ms). */
export function realDateMs(p: LoadedPage): number {
  return headerDateMs(p.header.date) ?? p.mtimeMs;
}

/** The newest file of the page's folder (epoch ms). */
export function realModifiedMs(store: PageFiles, p: LoadedPage): number {
  return store.folderModifiedMs(p.node) || p.mtimeMs;
}

/** Flex `taxonomy()`: every type a list of strings; `[]` when there is none. */
export function realTaxonomy(header: YamlMap): unknown {
  const t = header.taxonomy;
  if (t === undefined || t === null) return [];
  if (typeof t !== 'object') return t;
  // each type becomes a list (`(array)`), every value in it a string
  const str = (v: unknown): unknown => (Array.isArray(v) ? v.map(str) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, str(x)])) : v === null ? '' : String(v));
  const asList = (values: unknown): unknown => (values === null ? [] : typeof values === 'object' ? str(values) : [String(values)]);
  if (Array.isArray(t)) return t.map(asList);
  const entries = Object.entries(t);
  return entries.length ? Object.fromEntries(entries.map(([type, values]) => [type, asList(values)])) : [];
}

/** A header the way PHP's json_encode sends it: an empty one is `[]`. */
const headerJson = (h: YamlMap): unknown => (Object.keys(h).length ? h : []);

/** An object, or `[]` when empty (a PHP array with no keys). */
const mapJson = (m: Record<string, unknown>): unknown => (Object.keys(m).length ? m : []);

/**
 * Grav's `translatedLanguages()`: every site language backed by a file of the page's template
 * (`{template}.{lang}.md`, or `{template}.md` for the default language), mapped to the page's
 * route in it (a `routes.default` header wins). Empty on a single-language site.
 */
export function realTranslated(store: PageFiles, p: LoadedPage, onlyPublished = false): Record<string, string> {
  const out: Record<string, string> = {};
  if (!store.multilang) return out;
  const template = p.file.template;
  const { node } = p;
  for (const code of store.site.languages) {
    let file = node.files.find((f) => f.template === template && f.lang === code);
    if (!file && code === store.site.defaultLanguage) file = node.files.find((f) => f.template === template && f.lang === null);
    if (!file) continue;
    const parsed = store.read(node, file);
    const header = parsed.ok ? parsed.header : {};
    if (onlyPublished && 'published' in header && !phpBool(header.published)) continue;
    const routes = header.routes;
    const custom = routes && typeof routes === 'object' && !Array.isArray(routes) ? routes.default : undefined;
    out[code] = typeof custom === 'string' && custom !== '' ? custom : store.publicRoute(node);
  }
  return out;
}

/** Grav's `untranslatedLanguages()`: the site languages without a published translation. */
export function realUntranslated(store: PageFiles, p: LoadedPage): string[] {
  const published = realTranslated(store, p, true);
  return store.site.languages.filter((l) => !(l in published));
}

function titleAndMenu(p: LoadedPage): { title: string; menu: string } {
  const { header } = p;
  const own = header.title === undefined || header.title === null ? p.node.slug.charAt(0).toUpperCase() + p.node.slug.slice(1) : String(header.title).trim();
  const title = typeof header.title === 'string' && header.title !== '' ? header.title : own;
  const menu = typeof header.menu === 'string' && header.menu !== '' ? header.menu : typeof header.title === 'string' && header.title !== '' ? header.title : header.menu !== undefined && header.menu !== null ? String(header.menu) : own;
  return { title, menu };
}

/** The fields every page carries, list rows and full reads alike, in the real service's order. */
function fields(store: PageFiles, p: LoadedPage, translations: boolean, times?: PageTimes): Record<string, unknown> {
  const { node } = p;
  const parent = node.parent && node.parent.route !== '/' ? node.parent.route : '/';
  const { title, menu } = titleAndMenu(p);
  const data: Record<string, unknown> = {
    route: store.publicRoute(node),
    raw_route: node.route,
    parent_route: parent,
    slug: node.slug,
    folder: node.folder,
    title,
    menu,
    template: p.file.template,
    language: p.language,
    header: headerJson(p.header),
    taxonomy: realTaxonomy(p.header),
    published: 'published' in p.header ? phpBool(p.header.published) : true,
    visible: 'visible' in p.header ? phpBool(p.header.visible) : realVisible(p),
    routable: realRoutable(p),
    date: iso(headerDateMs(p.header.date) ?? times?.fileMs ?? p.mtimeMs),
    modified: iso(times?.modifiedMs ?? realModifiedMs(store, p)),
    order: realOrder(node),
    has_children: store.pageChildren(node).length > 0,
  };
  if (translations) {
    const template = p.file.template;
    data.translated_languages = mapJson(realTranslated(store, p));
    data.untranslated_languages = realUntranslated(store, p);
    data.has_default_file = node.files.some((f) => f.lang === null && f.template === template);
    data.explicit_language_files = store.site.languages.filter((l) => node.files.some((f) => f.lang === l && f.template === template));
  }
  return data;
}

/** The page as the real GET /pages/{route} answers it with these options. */
function page(store: PageFiles, p: LoadedPage, opts: ReadOptions = {}, times?: PageTimes): Record<string, unknown> {
  const data = fields(store, p, opts.translations ?? false, times);
  if ((opts.content ?? true) && !opts.summary) data.content = p.content;
  if (opts.render) data.content_html = renderMarkdown(p.content);
  if (opts.summary) data.summary = summarize(p.content, opts.summarySize && opts.summarySize > 0 ? opts.summarySize : 300);
  if (opts.media ?? true) data.media = store.media(p.node).map((m) => mediaItem(store, p.node, m));
  const depth = opts.childrenDepth ?? 0;
  if (depth > 0) {
    data.children = store
      .pageChildren(p.node)
      .map((child) => {
        const loaded = realLoad(store, child, p.language);
        return loaded ? page(store, loaded, { ...opts, childrenDepth: depth - 1 }) : null;
      })
      .filter((c) => c !== null);
  }
  return data;
}

/**
 * The file and folder times a page object holds from the moment it was loaded: a PATCH answers
 * with the page it loaded before writing, so its `date` (without a header date) and `modified`
 * are those of before the write (recording 14).
 */
export interface PageTimes {
  /** the page file's own modification time, epoch ms */
  fileMs: number;
  /** the newest file of the folder, epoch ms */
  modifiedMs: number;
}

export function realTimes(store: PageFiles, p: LoadedPage): PageTimes {
  return { fileMs: p.mtimeMs, modifiedMs: realModifiedMs(store, p) };
}

export const realSerializer: PageSerializer & {
  /** a plain read whose file and folder times are given (those of a page object loaded earlier) */
  pageWithTimes(store: PageFiles, p: LoadedPage, times: PageTimes): Record<string, unknown>;
} = {
  row: (store, p, translations) => fields(store, p, translations),
  page: (store, p, opts) => page(store, p, opts),
  pageWithTimes: (store, p, times) => page(store, p, {}, times),
  load: realLoad,
};
