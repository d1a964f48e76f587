/**
 * The CMS pages routes (document 1, "Pages") over the transport. Answers are checked here: the
 * spec's shapes and the real service's (Grav + API plugin: `raw_route`, `order: "01."`, paging under
 * `meta.pagination`, translated languages as a map, `language` instead of `lang`…) are both
 * accepted and read the same; anything else is a bad_response naming the call and the field, never
 * a half-read page. Lists are read row by row: a row neither sends is reported on its own.
 *
 * Addressing: a page's `route` in the app is its structural route (`raw_route` when the site sends
 * one: the home page is `/home`, its public address `/`); every call below goes by it.
 */
import * as v from 'valibot';
import type {
  BatchResult,
  Header,
  Page,
  PageLanguages,
  PageList,
  PageListQuery,
  PageMediaItem,
  PageSummary,
  ReorganizedPage,
  SiteLanguages,
  TranslationComparison,
  TranslationRow,
  TranslationSide,
  UnreadablePage,
} from '../../contract';
import { HeaderValue, setField } from '../../contract';
import { AppError, isAppError } from '../../base/app-error';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer, parseRows, type RowProblem } from '../parse';
import { callName, listCall, nextPage, request } from './envelope';
import { joinRoute, parentOf, slugOf, withSlash } from '../../common/route';
import { routePath } from '../url-path';
import { LangKeys, LangValues, Order, Text } from './fields';

export { routePath };

const bool = (d: boolean) => v.optional(v.nullable(v.boolean()), d);
const str = v.optional(v.nullable(v.string()), null);
// every key the site sent is kept (valibot's record drops `__proto__`, `constructor`, `prototype`)
const HeaderSchema = HeaderValue;

const SummarySchema = v.object({
  route: v.string(),
  /** Real service: the structural route (home: `/home` while `route` is `/`). */
  raw_route: v.optional(v.nullable(v.string())),
  /** Real service: the parent's structural route (`/` at the top level). */
  parent_route: v.optional(v.nullable(v.string())),
  slug: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(Text), ''),
  template: v.optional(v.nullable(v.string()), 'default'),
  published: bool(true),
  visible: bool(true),
  routable: bool(true),
  order: Order,
  has_children: bool(false),
  modified: str,
  date: str,
  translated_languages: v.optional(v.nullable(LangKeys)),
  untranslated_languages: v.optional(v.nullable(LangValues)),
});

const MediaSchema = v.object({
  filename: v.string(),
  url: str,
  type: v.optional(v.string(), 'application/octet-stream'),
  size: v.optional(v.number(), 0),
  meta: v.optional(v.record(v.string(), v.unknown())),
});

const PageSchema = v.object({
  ...SummarySchema.entries,
  header: v.optional(v.nullable(HeaderSchema), {}),
  content: v.optional(v.nullable(v.string()), ''),
  content_html: v.optional(v.string()),
  media: v.optional(v.array(MediaSchema), []),
  language: str,
  has_default_file: v.optional(v.boolean()),
  explicit_language_files: v.optional(v.array(v.string())),
});

const nonEmpty = (x: string | null | undefined): x is string => typeof x === 'string' && x !== '';

/** The structural route, the public one when it differs, and the parent, as the site gave them. */
function addressOf(s: { route: string; raw_route?: string | null | undefined; parent_route?: string | null | undefined }) {
  const publicRoute = withSlash(s.route);
  const route = nonEmpty(s.raw_route) ? withSlash(s.raw_route) : publicRoute;
  const parentRoute = nonEmpty(s.parent_route) ? withSlash(s.parent_route) : parentOf(route);
  return { route, ...(publicRoute !== route ? { publicRoute } : {}), parentRoute };
}

function toSummary(s: v.InferOutput<typeof SummarySchema>): PageSummary {
  const address = addressOf(s);
  return {
    ...address,
    slug: s.slug ?? slugOf(address.route),
    title: s.title ?? '',
    template: s.template ?? 'default',
    published: s.published ?? true,
    visible: s.visible ?? true,
    routable: s.routable ?? true,
    order: s.order,
    hasChildren: s.has_children ?? false,
    modified: s.modified ?? null,
    date: s.date ?? null,
    ...(s.translated_languages ? { translatedLanguages: s.translated_languages } : {}),
    ...(s.untranslated_languages ? { untranslatedLanguages: s.untranslated_languages } : {}),
  };
}

/** A row that could not be read, with what can be told about it (its route and title, when readable). */
export function unreadableRow(p: RowProblem, offset: number): UnreadablePage {
  const raw = (typeof p.raw === 'object' && p.raw !== null ? p.raw : {}) as Record<string, unknown>;
  const route = nonEmpty(raw.raw_route as string) ? (raw.raw_route as string) : nonEmpty(raw.route as string) ? (raw.route as string) : null;
  return {
    position: offset + p.index,
    route: route === null ? null : withSlash(route),
    title: typeof raw.title === 'string' && raw.title !== '' ? raw.title : null,
    problem: p.problem,
  };
}

const toMedia = (m: v.InferOutput<typeof MediaSchema>): PageMediaItem => ({
  filename: m.filename,
  url: m.url ?? null,
  type: m.type,
  size: m.size,
  ...(m.meta ? { meta: m.meta } : {}),
});

function toPage(p: v.InferOutput<typeof PageSchema>, etag: string | null): Page {
  return {
    ...toSummary(p),
    header: (p.header ?? {}) as Header,
    content: p.content ?? '',
    ...(p.content_html !== undefined ? { contentHtml: p.content_html } : {}),
    media: p.media.map(toMedia),
    language: p.language ?? null,
    ...(p.has_default_file !== undefined ? { hasDefaultFile: p.has_default_file } : {}),
    ...(p.explicit_language_files ? { explicitLanguageFiles: p.explicit_language_files } : {}),
    etag,
  };
}

/**
 * A page read in `lang` that came back in another language: the real service answers a language a
 * page lacks with its content fallback (the default language's file, `language: "en"`) where the
 * documents answer 404. Either way there is no such translation: not_found. A page without a
 * language of its own (an untyped base file, which serves every language) is the page in any.
 */
function inLanguage(page: Page, route: string, lang: string | undefined): Page {
  if (!lang || !nonEmpty(page.language) || page.language === lang) return page;
  throw new AppError({ code: 'not_found', status: 404, message: `${route} has no ${lang} translation on the site (it answered with its ${page.language} page).` });
}

/** An answer naming a written page: the structural route when the site sends one (`raw_route`). */
const WrittenSchema = v.object({
  route: v.string(),
  raw_route: v.optional(v.nullable(v.string())),
  slug: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(Text)),
});
const writtenRoute = (w: v.InferOutput<typeof WrittenSchema>) => (nonEmpty(w.raw_route) ? withSlash(w.raw_route) : withSlash(w.route));

/** A translate or sync answer: the spec's `{route, lang, …}` or the real service's whole page (with `language`). */
const TranslatedSchema = v.object({
  title: v.optional(v.nullable(Text)),
  content: v.optional(v.nullable(v.string())),
});

/** The compare answer's side; the real service sends null for a language the page does not exist in. */
const SideSchema = v.nullable(
  v.object({ lang: v.optional(v.nullable(v.string())), exists: v.optional(v.boolean(), true), title: v.optional(v.nullable(Text), null), content: str, header: v.optional(v.nullable(HeaderSchema), null), modified: str }),
);

function toSide(s: v.InferOutput<typeof SideSchema>, lang: string): TranslationSide {
  if (!s) return { lang, exists: false, title: null, content: null, header: null, modified: null };
  return { lang: s.lang ?? lang, exists: s.exists, title: s.title ?? null, content: s.content ?? null, header: (s.header ?? null) as Header | null, modified: s.modified ?? null };
}

type ListQuery = Omit<PageListQuery, 'siteId'>;

/** One page of a list, with the number of the page after it (null: this was the last). */
export type ListAnswer = PageList & { next: number | null };

/** A list row with the translation metadata the matrix and the mirror need. */
export interface MirrorRow extends PageSummary {
  translated: string[];
  untranslated: string[];
  explicit: string[];
  hasDefaultFile: boolean;
  /**
   * The row as the site sent it: what the mirror's row hash covers (the parsed row leaves out the
   * header, the language and whatever else a site adds).
   */
  sent: unknown;
}

/**
 * One page of list rows as the mirror and the matrix read them. `total` is the site's count (or,
 * when it sends none, what has been seen so far); `next` is the page to ask next, null after the last.
 */
export interface RowsPage<R> {
  rows: R[];
  total: number;
  next: number | null;
  /** Rows that could not be read (they are left out of `rows`; `total` still counts them). */
  unreadable: UnreadablePage[];
}

/** Reads a paged list answer row by row (`to` is also handed the row as sent). */
async function pagedRows<S extends v.GenericSchema, R>(
  t: Transport,
  o: CallOptions,
  asked: { page: number; perPage: number },
  row: S,
  to: (x: v.InferOutput<S>, sent: unknown) => R,
): Promise<{ items: R[]; unreadable: UnreadablePage[]; total: number; page: number; perPage: number; next: number | null }> {
  const { data, paging } = await listCall(t, o, 'a page list');
  const { rows, problems } = parseRows(row, data, t, 'a page list', callName(o));
  const page = paging.page ?? asked.page;
  const perPage = paging.perPage ?? asked.perPage;
  const offset = (page - 1) * perPage;
  const sent = (data as unknown[]).length;
  return {
    items: rows.map((r) => to(r.value, (data as unknown[])[r.index])),
    unreadable: problems.map((p) => unreadableRow(p, offset)),
    total: paging.total ?? offset + sent,
    page,
    perPage,
    next: nextPage(paging, { page, perPage }, sent),
  };
}

const TranslationRowSchema = v.object({
  route: v.string(),
  raw_route: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(Text), ''),
  translated_languages: v.optional(v.nullable(LangKeys), []),
  untranslated_languages: v.optional(v.nullable(LangValues), []),
  has_default_file: v.optional(v.nullable(v.boolean()), false),
  explicit_language_files: v.optional(v.nullable(v.array(v.string())), []),
});

const MirrorRowSchema = v.object({
  ...SummarySchema.entries,
  has_default_file: v.optional(v.nullable(v.boolean()), false),
  explicit_language_files: v.optional(v.nullable(v.array(v.string())), []),
});

export const cmsPages = {
  async list(t: Transport, q: ListQuery): Promise<ListAnswer> {
    const o: CallOptions = {
      path: '/pages',
      query: {
        page: q.page,
        per_page: q.perPage,
        sort: q.sort,
        order: q.order,
        search: q.search || undefined,
        published: q.published,
        visible: q.visible,
        routable: q.routable,
        template: q.template || undefined,
        parent: q.parent,
        children_of: q.childrenOf,
        root: q.root,
        translations: q.translations,
      },
    };
    const r = await pagedRows(t, o, { page: q.page ?? 1, perPage: q.perPage ?? 20 }, SummarySchema, toSummary);
    return { items: r.items, total: r.total, page: r.page, perPage: r.perPage, next: r.next, ...(r.unreadable.length ? { unreadable: r.unreadable } : {}) };
  },

  /** A read; a plain one (no render, no translations) gives the ETag that If-Match accepts. */
  async get(t: Transport, route: string, o: { lang?: string; render?: boolean; translations?: boolean } = {}): Promise<Page> {
    const plain = !o.render && !o.translations;
    const call: CallOptions = { path: `/pages/${routePath(route)}`, query: { lang: o.lang, render: o.render || undefined, translations: o.translations || undefined }, reply: 'page' };
    const r = await request(t, call);
    return inLanguage(toPage(parseAnswer(PageSchema, r.data, t, 'a page', callName(call)), plain ? (r.etag ?? null) : null), route, o.lang);
  },

  /**
   * Creates a page; answers its structural route (the real service answers the whole page). A
   * missing parent ("Parent page not found at route: …") comes back on the `route` field (the
   * documents) or as the refusal's sentence alone (the real service): it is the parent's field, so
   * it is answered there.
   */
  async create(t: Transport, body: { route: string; title: string; template?: string; content?: string; header?: Header; order?: number; lang?: string }) {
    const call: CallOptions = { method: 'POST', path: '/pages', body, reply: 'page' };
    const r = await request(t, call).catch((err: unknown) => {
      if (!isAppError(err) || err.code !== 'invalid_input') throw err;
      const said = err.info.fields?.route ?? (err.info.fields ? undefined : err.message);
      if (!said || !/parent page not found/i.test(said)) throw err;
      const { route: _route, ...rest } = err.info.fields ?? {};
      throw new AppError({ ...err.info, fields: { ...rest, parent: said } }, { cause: err });
    });
    const w = parseAnswer(WrittenSchema, r.data, t, 'an answer', callName(call));
    return { route: writtenRoute(w), ...(w.title != null ? { title: w.title } : {}) };
  },

  /**
   * A PATCH with If-Match. Its answer's ETag is not handed on: the real service answers with the
   * page as loaded before the write (its earlier `date`/`modified`), so that ETag is stale and a
   * second PATCH with it gets 409. The next If-Match comes from a plain read after the write.
   */
  async update(
    t: Transport,
    route: string,
    patch: { title?: string; content?: string; header?: Header; template?: string; published?: boolean; visible?: boolean },
    o: { ifMatch?: string | null; lang?: string } = {},
  ): Promise<void> {
    await request(t, {
      method: 'PATCH',
      path: `/pages/${routePath(route)}`,
      query: { lang: o.lang },
      body: patch,
      reply: 'page', // the real service answers the whole page
      ...(o.ifMatch ? { ifMatch: o.ifMatch } : {}),
    });
  },

  async remove(t: Transport, route: string, o: { lang?: string; children?: boolean } = {}): Promise<void> {
    await request(t, { method: 'DELETE', path: `/pages/${routePath(route)}`, query: { lang: o.lang, children: o.children } });
  },

  /** `parent` is the structural route of the new parent (`/` for the top level). */
  async move(t: Transport, route: string, body: { parent: string; slug?: string; order?: number }): Promise<void> {
    await request(t, { method: 'POST', path: `/pages/${routePath(route)}/move`, body });
  },

  async reorder(t: Transport, route: string, order: string[]): Promise<void> {
    await request(t, { method: 'POST', path: `/pages/${routePath(route)}/reorder`, body: { order } });
  },

  async copy(t: Transport, route: string, destination: string) {
    const call: CallOptions = { method: 'POST', path: `/pages/${routePath(route)}/copy`, body: { route: destination }, reply: 'page' };
    const r = await request(t, call);
    const w = parseAnswer(WrittenSchema, r.data, t, 'an answer', callName(call));
    return { route: writtenRoute(w), ...(w.slug != null ? { slug: w.slug } : {}), ...(w.title != null ? { title: w.title } : {}) };
  },

  /**
   * The batch limit a refusal names ("Batch operations are limited to 25 items."), when the site's
   * own limit is lower than the one asked for; null for any other refusal.
   */
  batchLimit(err: unknown): number | null {
    if (!isAppError(err)) return null;
    const n = /limited to (\d+)/i.exec(err.message);
    return n && Number(n[1]) > 0 ? Number(n[1]) : null;
  },

  async batch(t: Transport, operation: string, routes: string[], options?: Record<string, unknown>): Promise<BatchResult> {
    const call: CallOptions = { method: 'POST', path: '/pages/batch', body: { operation, routes, ...(options ? { options } : {}) } };
    const r = await request(t, call);
    return parseAnswer(
      v.object({
        operation: v.string(),
        results: v.array(v.object({ route: v.string(), status: v.picklist(['success', 'error']), message: v.optional(v.string()) })),
        total: v.number(),
        successful: v.number(),
        failed: v.number(),
      }),
      r.data,
      t,
      'a batch result',
      callName(call),
    );
  },

  /**
   * The real service answers every child of the affected parents with its PUBLIC route (home: `/`)
   * and the parent's structural one; the structural route of a child is its parent's plus its slug.
   */
  async reorganize(t: Transport, operations: { route: string; parent?: string; position?: number }[]): Promise<ReorganizedPage[]> {
    const call: CallOptions = { method: 'POST', path: '/pages/reorganize', body: { operations } };
    const r = await request(t, call);
    const rows = parseAnswer(
      v.array(v.object({ route: v.string(), slug: v.optional(v.nullable(v.string())), title: v.optional(v.nullable(Text), ''), order: Order, parent: v.optional(v.nullable(v.string()), '/') })),
      r.data,
      t,
      'a reorganize result',
      callName(call),
    );
    return rows.map((x) => {
      const parent = withSlash(x.parent ?? '/');
      const slug = x.slug ?? slugOf(x.route);
      return { route: x.slug ? joinRoute(parent, x.slug) : withSlash(x.route), slug, title: x.title ?? '', order: x.order, parent };
    });
  },

  /** `translated`: language → route (a list of codes, or the real service's `[]`, is read too). */
  async languages(t: Transport, route: string): Promise<PageLanguages> {
    const call: CallOptions = { path: `/pages/${routePath(route)}/languages` };
    const r = await request(t, call);
    const d = parseAnswer(
      v.object({
        route: v.optional(v.string()),
        default_language: str,
        translated: v.optional(v.nullable(v.union([v.record(v.string(), v.nullable(v.string())), v.array(v.string())])), {}),
        untranslated: v.optional(v.nullable(LangValues), []),
      }),
      r.data,
      t,
      'page languages',
      callName(call),
    );
    const translated: Record<string, string> = {};
    const map = d.translated ?? {};
    if (Array.isArray(map)) for (const code of map) setField(translated, code, route);
    else for (const [code, at] of Object.entries(map)) if (code !== '') setField(translated, code, at ?? route);
    return { route, defaultLanguage: d.default_language ?? null, translated, untranslated: d.untranslated ?? [] };
  },

  /**
   * The answer's language is the one asked for (the spec says `lang`, the real service `language`).
   * A title goes inside the header too: the real service lays the header over the title it is sent
   * (the source's header, title included, when none is sent), and takes a header whole rather than
   * over the source's, so without one the source's header is read first and sent with the title.
   */
  async translate(t: Transport, route: string, body: { lang: string; title?: string; content?: string; header?: Header }) {
    let send = body;
    if (body.title !== undefined) {
      let header = body.header;
      if (header === undefined) {
        header = (await cmsPages.get(t, route)).header;
      }
      send = { ...body, header: { ...header, title: body.title } };
    }
    const call: CallOptions = { method: 'POST', path: `/pages/${routePath(route)}/translate`, body: send, reply: 'page' };
    const r = await request(t, call);
    const d = parseAnswer(TranslatedSchema, r.data ?? {}, t, 'a translation', callName(call));
    return { route, lang: body.lang, ...(d.title != null ? { title: d.title } : {}), ...(d.content != null ? { content: d.content } : {}) };
  },

  async adoptLanguage(t: Transport, route: string, lang: string): Promise<void> {
    await request(t, { method: 'POST', path: `/pages/${routePath(route)}/adopt-language`, body: { lang } });
  },

  async sync(t: Transport, route: string, sourceLang: string, targetLang: string) {
    const call: CallOptions = { method: 'POST', path: `/pages/${routePath(route)}/sync`, body: { source_lang: sourceLang, target_lang: targetLang }, reply: 'page' };
    const r = await request(t, call);
    const d = parseAnswer(TranslatedSchema, r.data ?? {}, t, 'a sync result', callName(call));
    return { route, lang: targetLang, ...(d.title != null ? { title: d.title } : {}), ...(d.content != null ? { content: d.content } : {}) };
  },

  /** A side the site answers null (the page does not exist in that language) is one that does not exist. */
  async compare(t: Transport, route: string, source: string, target: string): Promise<TranslationComparison> {
    const call: CallOptions = { path: `/pages/${routePath(route)}/compare`, query: { source, target } };
    const r = await request(t, call);
    const d = parseAnswer(v.object({ route: v.optional(v.string()), source: SideSchema, target: SideSchema }), r.data, t, 'a comparison', callName(call));
    return { route, source: toSide(d.source, source), target: toSide(d.target, target) };
  },

  async siteLanguages(t: Transport): Promise<SiteLanguages> {
    const call: CallOptions = { path: '/languages' };
    const r = await request(t, call);
    const L = v.object({ code: v.string(), name: v.optional(v.nullable(v.string())), native_name: v.optional(v.nullable(v.string())), rtl: v.optional(v.boolean(), false), is_default: v.optional(v.boolean(), false) });
    const d = parseAnswer(v.object({ enabled: v.boolean(), languages: v.optional(v.array(L), []), default: str, active: str }), r.data, t, 'the site languages', callName(call));
    return {
      enabled: d.enabled,
      languages: d.languages.map((l) => ({ code: l.code, name: l.name ?? l.code, nativeName: l.native_name ?? l.name ?? l.code, rtl: l.rtl, isDefault: l.is_default })),
      default: d.default ?? null,
      active: d.active ?? null,
    };
  },

  /** One page of list rows with their translation metadata (the matrix reads all pages this way). */
  async translationRows(t: Transport, page: number, perPage = 100): Promise<RowsPage<TranslationRow>> {
    const o: CallOptions = { path: '/pages', query: { translations: true, page, per_page: perPage, sort: 'default' } };
    const r = await pagedRows(t, o, { page, perPage }, TranslationRowSchema, (x) => ({
      route: addressOf(x).route,
      title: x.title ?? '',
      translated: x.translated_languages ?? [],
      untranslated: x.untranslated_languages ?? [],
      hasDefaultFile: x.has_default_file ?? false,
      explicit: x.explicit_language_files ?? [],
    }));
    return { rows: r.items, total: r.total, next: r.next, unreadable: r.unreadable };
  },

  /**
   * One page of list rows for the mirror: the summary and the translation metadata together
   * (translations=true), in the site's own order so paging is stable; each row with what the site
   * sent (`sent`). `lang`: the rows of that language (the real service answers each page from that
   * language's file, with its own `modified`, or from its fallback).
   */
  async mirrorRows(t: Transport, q: { page: number; perPage: number; parent?: string; childrenOf?: string; lang?: string }): Promise<RowsPage<MirrorRow>> {
    const o: CallOptions = {
      path: '/pages',
      query: { page: q.page, per_page: q.perPage, sort: 'default', translations: true, parent: q.parent, children_of: q.childrenOf, lang: q.lang },
    };
    const r = await pagedRows(t, o, q, MirrorRowSchema, (x, sent) => ({
      ...toSummary(x),
      translated: x.translated_languages ?? [],
      untranslated: x.untranslated_languages ?? [],
      explicit: x.explicit_language_files ?? [],
      hasDefaultFile: x.has_default_file ?? false,
      sent,
    }));
    return { rows: r.items, total: r.total, next: r.next, unreadable: r.unreadable };
  },

  /**
   * A plain read with what the copy needs: the server's own time of the answer (its Date header,
   * which the mirror's quick check compares with the page's `modified`), and, given the copy's
   * ETag, `page: null` when the site answers 304 (unchanged).
   */
  async read(t: Transport, route: string, o: { lang?: string; ifNoneMatch?: string | null } = {}): Promise<{ page: Page | null; serverDate: string | null }> {
    const call: CallOptions = {
      path: `/pages/${routePath(route)}`,
      query: { lang: o.lang },
      reply: 'page',
      ...(o.ifNoneMatch ? { ifNoneMatch: o.ifNoneMatch } : {}),
    };
    const r = await request(t, call);
    const date = Date.parse(r.headers.get('date') ?? '');
    const serverDate = Number.isNaN(date) ? null : new Date(date).toISOString();
    if (r.notModified) return { page: null, serverDate };
    return { page: inLanguage(toPage(parseAnswer(PageSchema, r.data, t, 'a page', callName(call)), r.etag ?? null), route, o.lang), serverDate };
  },

  /** Type → terms, as text (the real service sends numeric terms such as 2024 as numbers; `[]` when there are none). */
  async taxonomy(t: Transport): Promise<Record<string, string[]>> {
    const call: CallOptions = { path: '/taxonomy' };
    const r = await request(t, call);
    return parseAnswer(
      v.union([v.record(v.string(), v.pipe(v.nullable(v.array(Text)), v.transform((x) => x ?? []))), v.pipe(v.array(v.never()), v.transform(() => ({})))]),
      r.data,
      t,
      'the taxonomy',
      callName(call),
    );
  },
};
