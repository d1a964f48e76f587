/**
 * The CMS pages routes (document 1, "Pages") over the transport. Answers are checked here: the
 * spec's shapes and the real service's (has_children, header and dates in list rows, content_html)
 * are both accepted; anything else is a bad_response, never a half-read page.
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
} from '../../contract';
import type { Transport } from '../transport';
import { parseAnswer } from '../parse';

/** `/blog/my post` → `blog/my%20post`: no leading slash, each segment percent-encoded. */
export function routePath(route: string): string {
  return route
    .split('/')
    .filter((s) => s !== '')
    .map(encodeURIComponent)
    .join('/');
}

const bool = (d: boolean) => v.optional(v.nullable(v.boolean()), d);
const str = v.optional(v.nullable(v.string()), null);
const HeaderSchema = v.record(v.string(), v.unknown());

const SummarySchema = v.object({
  route: v.string(),
  slug: v.optional(v.string()),
  title: v.optional(v.nullable(v.string()), ''),
  template: v.optional(v.nullable(v.string()), 'default'),
  published: bool(true),
  visible: bool(true),
  routable: bool(true),
  order: v.optional(v.nullable(v.number()), null),
  has_children: bool(false),
  modified: str,
  date: str,
  translated_languages: v.optional(v.array(v.string())),
  untranslated_languages: v.optional(v.array(v.string())),
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


const slugOf = (route: string) => route.split('/').filter(Boolean).at(-1) ?? '';

function toSummary(s: v.InferOutput<typeof SummarySchema>): PageSummary {
  return {
    route: s.route.startsWith('/') ? s.route : `/${s.route}`,
    slug: s.slug ?? slugOf(s.route),
    title: s.title ?? '',
    template: s.template ?? 'default',
    published: s.published ?? true,
    visible: s.visible ?? true,
    routable: s.routable ?? true,
    order: s.order ?? null,
    hasChildren: s.has_children ?? false,
    modified: s.modified ?? null,
    date: s.date ?? null,
    ...(s.translated_languages ? { translatedLanguages: s.translated_languages } : {}),
    ...(s.untranslated_languages ? { untranslatedLanguages: s.untranslated_languages } : {}),
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

type ListQuery = Omit<PageListQuery, 'siteId'>;

/** A list row with the translation metadata the matrix and the mirror need. */
export interface MirrorRow extends PageSummary {
  translated: string[];
  untranslated: string[];
  explicit: string[];
  hasDefaultFile: boolean;
}

export const cmsPages = {
  async list(t: Transport, q: ListQuery): Promise<PageList> {
    const r = await t.call({
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
    });
    const items = parseAnswer(v.array(SummarySchema), r.data, t, 'a page list').map(toSummary);
    const meta = r.meta ?? {};
    const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
    return { items, total: num(meta.total, items.length), page: num(meta.page, q.page ?? 1), perPage: num(meta.per_page, q.perPage ?? 20) };
  },

  /** A plain read (no render) gives the ETag that If-Match accepts; `etag` asks for a 304. */
  async get(
    t: Transport,
    route: string,
    o: { lang?: string; render?: boolean; translations?: boolean; ifNoneMatch?: string } = {},
  ): Promise<Page | 'not_modified'> {
    const plain = !o.render && !o.translations;
    const r = await t.call({
      path: `/pages/${routePath(route)}`,
      query: { lang: o.lang, render: o.render || undefined, translations: o.translations || undefined },
      ...(o.ifNoneMatch ? { ifNoneMatch: o.ifNoneMatch } : {}),
    });
    if (r.notModified) return 'not_modified';
    return toPage(parseAnswer(PageSchema, r.data, t, 'a page'), plain ? (r.etag ?? null) : null);
  },

  async create(t: Transport, body: { route: string; title: string; template?: string; content?: string; header?: Header; order?: number; lang?: string }) {
    const r = await t.call({ method: 'POST', path: '/pages', body });
    return parseAnswer(v.object({ route: v.string(), title: v.optional(v.string()) }), r.data, t, 'an answer');
  },

  async update(
    t: Transport,
    route: string,
    patch: { title?: string; content?: string; header?: Header; template?: string; published?: boolean; visible?: boolean },
    o: { ifMatch?: string | null; lang?: string } = {},
  ): Promise<{ etag: string | null }> {
    const r = await t.call({
      method: 'PATCH',
      path: `/pages/${routePath(route)}`,
      query: { lang: o.lang },
      body: patch,
      ...(o.ifMatch ? { ifMatch: o.ifMatch } : {}),
    });
    return { etag: r.etag ?? null };
  },

  async remove(t: Transport, route: string, o: { lang?: string; children?: boolean } = {}): Promise<void> {
    await t.call({ method: 'DELETE', path: `/pages/${routePath(route)}`, query: { lang: o.lang, children: o.children } });
  },

  async move(t: Transport, route: string, body: { parent: string; slug?: string; order?: number }): Promise<void> {
    await t.call({ method: 'POST', path: `/pages/${routePath(route)}/move`, body });
  },

  async reorder(t: Transport, route: string, order: string[]): Promise<void> {
    await t.call({ method: 'POST', path: `/pages/${routePath(route)}/reorder`, body: { order } });
  },

  async copy(t: Transport, route: string, destination: string) {
    const r = await t.call({ method: 'POST', path: `/pages/${routePath(route)}/copy`, body: { route: destination } });
    return parseAnswer(v.object({ route: v.string(), slug: v.optional(v.string()), title: v.optional(v.string()) }), r.data, t, 'an answer');
  },

  async batch(t: Transport, operation: string, routes: string[], options?: Record<string, unknown>): Promise<BatchResult> {
    const r = await t.call({ method: 'POST', path: '/pages/batch', body: { operation, routes, ...(options ? { options } : {}) } });
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
    );
  },

  async reorganize(t: Transport, operations: { route: string; parent?: string; position?: number }[]): Promise<ReorganizedPage[]> {
    const r = await t.call({ method: 'POST', path: '/pages/reorganize', body: { operations } });
    const rows = parseAnswer(
      v.array(v.object({ route: v.string(), slug: v.optional(v.string()), title: v.optional(v.string(), ''), order: v.optional(v.nullable(v.number()), null), parent: v.optional(v.string(), '/') })),
      r.data,
      t,
      'a reorganize result',
    );
    return rows.map((x) => ({ route: x.route, slug: x.slug ?? slugOf(x.route), title: x.title, order: x.order, parent: x.parent }));
  },

  async languages(t: Transport, route: string): Promise<PageLanguages> {
    const r = await t.call({ path: `/pages/${routePath(route)}/languages` });
    const d = parseAnswer(
      v.object({ route: v.string(), default_language: str, translated: v.optional(v.record(v.string(), v.string()), {}), untranslated: v.optional(v.array(v.string()), []) }),
      r.data,
      t,
      'page languages',
    );
    return { route: d.route, defaultLanguage: d.default_language ?? null, translated: d.translated, untranslated: d.untranslated };
  },

  async translate(t: Transport, route: string, body: { lang: string; title?: string; content?: string; header?: Header }) {
    const r = await t.call({ method: 'POST', path: `/pages/${routePath(route)}/translate`, body });
    return parseAnswer(v.object({ route: v.string(), lang: v.string(), title: v.optional(v.string()), content: v.optional(v.string()) }), r.data, t, 'a translation');
  },

  async adoptLanguage(t: Transport, route: string, lang: string): Promise<void> {
    await t.call({ method: 'POST', path: `/pages/${routePath(route)}/adopt-language`, body: { lang } });
  },

  async sync(t: Transport, route: string, sourceLang: string, targetLang: string) {
    const r = await t.call({ method: 'POST', path: `/pages/${routePath(route)}/sync`, body: { source_lang: sourceLang, target_lang: targetLang } });
    return parseAnswer(v.object({ route: v.string(), lang: v.string(), title: v.optional(v.string()), content: v.optional(v.string()) }), r.data, t, 'a sync result');
  },

  async compare(t: Transport, route: string, source: string, target: string): Promise<TranslationComparison> {
    const r = await t.call({ path: `/pages/${routePath(route)}/compare`, query: { source, target } });
    const Side = v.object({ lang: v.string(), exists: v.boolean(), title: str, content: str, header: v.optional(v.nullable(HeaderSchema), null), modified: str });
    const d = parseAnswer(v.object({ route: v.string(), source: Side, target: Side }), r.data, t, 'a comparison');
    const side = (s: v.InferOutput<typeof Side>) => ({ lang: s.lang, exists: s.exists, title: s.title ?? null, content: s.content ?? null, header: (s.header ?? null) as Header | null, modified: s.modified ?? null });
    return { route: d.route, source: side(d.source), target: side(d.target) };
  },

  async siteLanguages(t: Transport): Promise<SiteLanguages> {
    const r = await t.call({ path: '/languages' });
    const L = v.object({ code: v.string(), name: v.optional(v.string()), native_name: v.optional(v.string()), rtl: v.optional(v.boolean(), false), is_default: v.optional(v.boolean(), false) });
    const d = parseAnswer(v.object({ enabled: v.boolean(), languages: v.optional(v.array(L), []), default: str, active: str }), r.data, t, 'the site languages');
    return {
      enabled: d.enabled,
      languages: d.languages.map((l) => ({ code: l.code, name: l.name ?? l.code, nativeName: l.native_name ?? l.name ?? l.code, rtl: l.rtl, isDefault: l.is_default })),
      default: d.default ?? null,
      active: d.active ?? null,
    };
  },

  /** One page of list rows with their translation metadata (the matrix reads all pages this way). */
  async translationRows(t: Transport, page: number, perPage = 100): Promise<{ rows: TranslationRow[]; total: number }> {
    const r = await t.call({ path: '/pages', query: { translations: true, page, per_page: perPage, sort: 'default' } });
    const Row = v.object({
      route: v.string(),
      title: v.optional(v.nullable(v.string()), ''),
      translated_languages: v.optional(v.array(v.string()), []),
      untranslated_languages: v.optional(v.array(v.string()), []),
      has_default_file: v.optional(v.boolean(), false),
      explicit_language_files: v.optional(v.array(v.string()), []),
    });
    const rows = parseAnswer(v.array(Row), r.data, t, 'a page list').map((x) => ({
      route: x.route.startsWith('/') ? x.route : `/${x.route}`,
      title: x.title ?? '',
      translated: x.translated_languages,
      untranslated: x.untranslated_languages,
      hasDefaultFile: x.has_default_file,
      explicit: x.explicit_language_files,
    }));
    const total = typeof r.meta?.total === 'number' ? r.meta.total : rows.length;
    return { rows, total };
  },

  /**
   * One page of list rows for the mirror: the summary and the translation metadata together
   * (translations=true), in the site's own order so paging is stable.
   */
  async mirrorRows(t: Transport, q: { page: number; perPage: number; parent?: string; childrenOf?: string }): Promise<{ rows: MirrorRow[]; total: number }> {
    const r = await t.call({
      path: '/pages',
      query: { page: q.page, per_page: q.perPage, sort: 'default', translations: true, parent: q.parent, children_of: q.childrenOf },
    });
    const Row = v.object({
      ...SummarySchema.entries,
      has_default_file: v.optional(v.boolean(), false),
      explicit_language_files: v.optional(v.array(v.string()), []),
    });
    const rows = parseAnswer(v.array(Row), r.data, t, 'a page list').map((x) => ({
      ...toSummary(x),
      translated: x.translated_languages ?? [],
      untranslated: x.untranslated_languages ?? [],
      explicit: x.explicit_language_files,
      hasDefaultFile: x.has_default_file,
    }));
    const total = typeof r.meta?.total === 'number' ? r.meta.total : rows.length;
    return { rows, total };
  },

  /**
   * A plain read for the mirror: like `get`, plus the server's own time of the answer (its Date
   * header), which the quick check compares with the page's `modified`.
   */
  async read(t: Transport, route: string, o: { lang?: string; ifNoneMatch?: string | null } = {}): Promise<{ page: Page | null; serverDate: string | null }> {
    const r = await t.call({
      path: `/pages/${routePath(route)}`,
      query: { lang: o.lang },
      ...(o.ifNoneMatch ? { ifNoneMatch: o.ifNoneMatch } : {}),
    });
    const date = Date.parse(r.headers.get('date') ?? '');
    const serverDate = Number.isNaN(date) ? null : new Date(date).toISOString();
    if (r.notModified) return { page: null, serverDate };
    return { page: toPage(parseAnswer(PageSchema, r.data, t, 'a page'), r.etag ?? null), serverDate };
  },

  async taxonomy(t: Transport): Promise<Record<string, string[]>> {
    const r = await t.call({ path: '/taxonomy' });
    return parseAnswer(v.record(v.string(), v.array(v.string())), r.data, t, 'the taxonomy');
  },
};
