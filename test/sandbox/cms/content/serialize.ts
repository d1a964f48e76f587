/**
 * The JSON a page and its media answer with, field for field as the real service serialises them
 * (spec section 2 "Page", "Page media item"; the OpenAPI `Page` / `PageSummary` / `MediaItem`
 * schemas fill in what the spec leaves out):
 *
 *   list row  route slug folder parent_route title template language header taxonomy published
 *             visible routable date modified order has_children
 *             (+ translated_languages untranslated_languages has_default_file explicit_language_files
 *             with translations=true)
 *   page      the row + content + media; render=true: `content` is the rendered HTML (spec) and
 *             `content_html` holds it too (OpenAPI name); summary=true: `summary`, no `content`;
 *             children=true: `children` (pages, `children_depth` levels)
 *
 * The ETag of a page is the hash of exactly the object `pageData` builds, so the plain read (no
 * options) is the only representation whose ETag PATCH accepts.
 *
 * This is the documents' page JSON (`specSerializer`); the real service's is serialize-real.ts,
 * behind the same `PageSerializer` interface.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { HttpProblem } from '../../http';
import type { YamlMap } from './frontmatter';
import { renderMarkdown, summarize } from './markdown';
import { parentRoute, type PageFiles, type MediaFile, type PageFileRef, type PageNode } from './page-files';

export interface LoadedPage {
  node: PageNode;
  file: PageFileRef;
  /** the language of the file read; null for the untyped base file or a single-language site */
  language: string | null;
  header: YamlMap;
  content: string;
  mtimeMs: number;
  /** set when the front matter could not be parsed (lists only; single reads answer 500) */
  broken?: string;
}

export interface ReadOptions {
  /** include `content` (default true) */
  content?: boolean;
  render?: boolean;
  summary?: boolean;
  summarySize?: number;
  /** levels of children to include (0: none) */
  childrenDepth?: number;
  translations?: boolean;
  /** include `media` (default true) */
  media?: boolean;
}

/** The page in `lang`, or a 404 (no file for that language) / 500 (invalid front matter) problem. */
export function loadPage(store: PageFiles, node: PageNode, lang?: string | null): LoadedPage {
  const loaded = tryLoad(store, node, lang);
  if (!loaded) throw new HttpProblem(404, 'Not Found', `Page not found at route: ${node.route}${lang ? ` (language ${lang})` : ''}`);
  if (loaded.broken !== undefined) {
    // The documented answer for a page the server cannot read: 500, with the file and the parser's
    // reason, so the app can say which page is broken instead of failing a whole listing.
    throw new HttpProblem(500, 'Internal Server Error', `Invalid front matter in ${store.relPath(node.dir)}/${loaded.file.name}: ${loaded.broken}`, {
      route: node.route,
      file: `${store.relPath(node.dir)}/${loaded.file.name}`,
    });
  }
  return loaded;
}

/**
 * Like loadPage, but null when the page has no file for `lang`, and a broken header reads as `{}`.
 * `fallback`: read it in the default language or from the base file when `lang` has no file (the
 * real service's content fallback).
 */
export function tryLoad(store: PageFiles, node: PageNode, lang?: string | null, fallback = false): LoadedPage | null {
  const r = store.resolve(node, lang, fallback);
  if (!r) return null;
  const parsed = store.read(node, r.file);
  if (!parsed.ok) return { node, file: r.file, language: r.language, header: {}, content: '', mtimeMs: parsed.mtimeMs, broken: parsed.error.message };
  return { node, file: r.file, language: r.language, header: parsed.header, content: parsed.content, mtimeMs: parsed.mtimeMs };
}

export function titleOf(p: Pick<LoadedPage, 'header' | 'node'>): string {
  const t = p.header.title;
  if (typeof t === 'string' && t.trim() !== '') return t.trim();
  if (typeof t === 'number') return String(t);
  const slug = p.node.slug;
  return slug.charAt(0).toUpperCase() + slug.slice(1);
}

/** ISO 8601 the way the real service prints it: `2026-03-20T12:00:00+00:00`. */
export function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19) + '+00:00';
}

/** A header `date` (string or epoch seconds) in epoch ms; null when absent or unreadable. */
export function headerDateMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const v = value.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/.exec(v);
  const ms = m ? Date.parse(`${m[1]}T${m[2] ?? '00:00'}${m[2]?.length === 5 ? ':00' : ''}Z`) : Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

export function dateMs(p: LoadedPage): number {
  return headerDateMs(p.header.date) ?? p.mtimeMs;
}

const flag = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : v === undefined || v === null ? fallback : Boolean(v));

export function published(p: LoadedPage): boolean {
  return flag(p.header.published, true);
}

export function visible(p: LoadedPage): boolean {
  // like the CMS: a page with an order prefix is visible unless its header says otherwise
  return flag(p.header.visible, p.node.order !== null);
}

export function routable(p: LoadedPage): boolean {
  return flag(p.header.routable, !p.node.slug.startsWith('_'));
}

/** `header.taxonomy` as `{type: [values]}` (a single value becomes a list). */
export function taxonomyOf(header: YamlMap): Record<string, string[]> {
  const t = header.taxonomy;
  if (!t || typeof t !== 'object' || Array.isArray(t)) return {};
  const out: Record<string, string[]> = {};
  for (const [type, values] of Object.entries(t)) {
    const list = Array.isArray(values) ? values : values === null || values === undefined ? [] : [values];
    out[type] = list.filter((v) => v !== null && typeof v !== 'object').map(String);
  }
  return out;
}

/** The list-row fields (the real service's lightweight serialisation). */
function summaryFields(store: PageFiles, p: LoadedPage, translations = false): Record<string, unknown> {
  const { node } = p;
  const row: Record<string, unknown> = {
    route: node.route,
    slug: node.slug,
    folder: node.folder,
    parent_route: node.parent ? parentRoute(node.route) : '/',
    title: titleOf(p),
    template: p.file.template,
    language: p.language,
    header: p.header,
    taxonomy: taxonomyOf(p.header),
    published: published(p),
    visible: visible(p),
    routable: routable(p),
    date: iso(dateMs(p)),
    modified: iso(p.mtimeMs),
    order: node.order,
    has_children: store.pageChildren(node).length > 0,
  };
  if (translations) Object.assign(row, translationFields(store, p));
  return row;
}

function translationFields(store: PageFiles, p: LoadedPage): Record<string, unknown> {
  const translated = Object.keys(store.translated(p.node));
  const template = p.file.template;
  return {
    translated_languages: translated,
    untranslated_languages: store.site.languages.filter((l) => !translated.includes(l)),
    has_default_file: p.node.files.some((f) => f.lang === null && f.template === template),
    explicit_language_files: store.site.languages.filter((l) => p.node.files.some((f) => f.lang === l && f.template === template)),
  };
}

/** The page as GET /pages/{route} answers it with these options. */
function pageData(store: PageFiles, p: LoadedPage, opts: ReadOptions = {}): Record<string, unknown> {
  const data = summaryFields(store, p, opts.translations ?? false);
  const withContent = (opts.content ?? true) && !opts.summary;
  if (withContent) data.content = opts.render ? renderMarkdown(p.content) : p.content;
  if (opts.render) data.content_html = renderMarkdown(p.content);
  if (opts.summary) data.summary = summarize(p.content, opts.summarySize && opts.summarySize > 0 ? opts.summarySize : 300);
  if (opts.media ?? true) data.media = store.media(p.node).map((m) => mediaItem(store, p.node, m));
  const depth = opts.childrenDepth ?? 0;
  if (depth > 0) {
    data.children = store
      .pageChildren(p.node)
      .map((child) => {
        const loaded = tryLoad(store, child, p.language);
        return loaded ? pageData(store, loaded, { ...opts, childrenDepth: depth - 1 }) : null;
      })
      .filter((c) => c !== null);
  }
  return data;
}

/** The plain read: what the ETag that PATCH accepts is computed from. */
export function plainData(store: PageFiles, p: LoadedPage): Record<string, unknown> {
  return pageData(store, p, {});
}

/** How a flavour turns a page into JSON, and reads a page in a language. */
export interface PageSerializer {
  /** a list row */
  row(store: PageFiles, p: LoadedPage, translations: boolean): Record<string, unknown>;
  /** the page as GET /pages/{route} answers it with these options (`{}`: the plain read) */
  page(store: PageFiles, p: LoadedPage, opts?: ReadOptions): Record<string, unknown>;
  /** the page in `lang`, null when it has no file for it */
  load(store: PageFiles, node: PageNode, lang?: string | null): LoadedPage | null;
}

/** The documents' page JSON (this file); the real service's is in serialize-real.ts. */
export const specSerializer: PageSerializer = {
  row: summaryFields,
  page: pageData,
  load: (store, node, lang) => tryLoad(store, node, lang),
};

/** How events name a page: `{route, lang, title, template}`. */
export function pageRef(p: LoadedPage | null, route?: string, lang?: string | null): Record<string, unknown> {
  if (!p) return { route: route ?? null, lang: lang ?? null };
  return { route: p.node.route, lang: p.language, title: titleOf(p), template: p.file.template };
}

// ----------------------------------------------------------------------------------------------
// Media

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  ico: 'image/x-icon',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function mimeOf(filename: string): string {
  const ext = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  return MIME[ext] ?? 'application/octet-stream';
}

/** Width and height from a PNG or GIF header; null for other formats or unreadable files. */
function imageSize(path: string, mime: string): { width: number; height: number } | null {
  if (mime !== 'image/png' && mime !== 'image/gif') return null;
  const buf = Buffer.alloc(24);
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const n = readSync(fd, buf, 0, 24, 0);
    if (mime === 'image/png' && n >= 24 && buf.toString('latin1', 12, 16) === 'IHDR') return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
    if (mime === 'image/gif' && n >= 10 && buf.toString('latin1', 0, 3) === 'GIF') return { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) };
    return null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The public URL of a page's media file: `/user/pages/<folders>/<file>`, each segment encoded. */
function mediaUrl(store: PageFiles, node: PageNode, name: string): string {
  const rel = store.relPath(node.dir).split('/').filter(Boolean);
  return '/user/pages/' + [...rel, name].map(encodeURIComponent).join('/');
}

/**
 * A page media item: filename, url, type, size, modified; `alt` and `title` from the sidecar when
 * set; `dimensions` for images whose size is known (sidecar width/height, else the file header).
 */
export function mediaItem(store: PageFiles, node: PageNode, m: MediaFile): Record<string, unknown> {
  const type = mimeOf(m.name);
  const item: Record<string, unknown> = { filename: m.name, url: mediaUrl(store, node, m.name), type, size: m.size };
  const alt = m.meta?.alt;
  if (typeof alt === 'string' && alt !== '') item.alt = alt;
  const title = m.meta?.title;
  if (typeof title === 'string' && title !== '') item.title = title;
  if (type.startsWith('image/')) {
    const w = m.meta?.width;
    const h = m.meta?.height;
    const dims = typeof w === 'number' && typeof h === 'number' ? { width: w, height: h } : imageSize(m.path, type);
    if (dims) item.dimensions = dims;
  }
  item.modified = iso(m.mtimeMs);
  return item;
}
