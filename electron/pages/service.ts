/**
 * Pages of a CMS site: every read goes through the cache (a plain read asks with If-None-Match, so
 * an unchanged page costs a 304), saves carry If-Match with the plain-read ETag, and writes that
 * move or remove pages drop what the cache knew about them.
 *
 * Offline: a site known to be away (its last request got no answer, no probe has reached it since)
 * is not asked again for a read the copy can answer: the copy answers at once and the site is
 * probed in the background (`nudge`). A read the copy could answer is sent once, without retries
 * when nothing answers. A read the copy cannot answer asks the site once, which is a probe too.
 */
import type { BatchRun, ChannelParsed, Page, PageLevel, PageList, PageMediaItem, PageSummary, SiteLanguages, TranslationMatrix, TranslationRow, UnreadablePage } from '../contract';
import { AppError, isAppError } from '../base/app-error';
import { cmsPages } from '../api/cms/pages';
import { cmsMedia } from '../api/cms/media';
import { cmsBlueprints } from '../api/cms/blueprints';
import type { CachedPage, PagesRepo } from '../db/repos/pages';
import type { StructuralOp } from '../db/repos/sync';
import { uploadStaging } from './upload-staging';
import { LANGUAGES_KEY, type SiteCacheRepo } from '../db/repos/site-cache';
import type { SessionManager } from '../sites/sessions';
import { siteOrder } from './level-order';
import { shadowed } from '../api/cms/addressing';
import { joinRoute, parentOf, slugOf, topmost } from '../common/route';

export interface PagesDeps {
  sessions: SessionManager;
  cache: PagesRepo;
  /** Upload progress, for the `media.progress` event. */
  progress?: (p: { uploadId: string; sent: number; total: number }) => void;
  /** The site's languages, kept for the offline matrix. */
  siteCache?: SiteCacheRepo;
  /** Puts a write the site could not take now into the site's outbox (replayed by the next push). */
  queue?: (siteId: string, op: StructuralOp) => void;
  /** Whether the site answers (sync/connectivity.ts): false once a request got no answer; null when not known. */
  online?: (siteId: string) => boolean | null;
  /** A read was answered from the copy because the site is away: probe it in the background. */
  nudge?: (siteId: string) => void;
}


/** Most pages the translation matrix reads (100 per request). */
const MAX_MATRIX_PAGES = 20_000;

/** Most routes one batch request carries (the documents' limit; a site may say it takes fewer). */
const MAX_BATCH = 50;

/** Most `-copy-N` names "keep mine as a copy" tries before it says they are all taken. */
const MAX_COPY_NAMES = 50;

/** Most children a folder may list in the tree before the list view is the better tool. */
const MAX_CHILDREN = 5000;

export function pagesService({ sessions, cache, progress, queue, siteCache, online, nudge }: PagesDeps) {
  const staging = uploadStaging();
  const t = (siteId: string) => sessions.get(siteId).transport();
  /** For a read the copy can answer: a connection that gets no answer is not tried again. */
  const once = (siteId: string) => t(siteId).derive({ networkRetries: false });
  /** For a read without a copy: tried once while the site is known away (it is a probe too), else as usual. */
  const read = (siteId: string) => (online?.(siteId) === false ? once(siteId) : t(siteId));
  const key = (lang?: string) => lang ?? '';

  /** The site is known to be away: the copy answers without asking it, and a probe goes in the background. */
  function away(siteId: string): boolean {
    if (online?.(siteId) !== false) return false;
    nudge?.(siteId);
    return true;
  }

  /** `fallback`: the caller gives the copy when nothing answers (`get`), so one try is enough. */
  async function readPlain(siteId: string, route: string, lang?: string, fallback?: { cached: CachedPage | undefined }): Promise<Page> {
    const cached = fallback ? fallback.cached : cache.getPage(siteId, route, key(lang));
    // with a copy to give, or the site known away (this read is a probe too), one try is enough
    const quick = fallback !== undefined && (cached !== undefined || online?.(siteId) === false);
    const r = await cmsPages.get(quick ? once(siteId) : t(siteId), route, { ...(lang ? { lang } : {}), ...(cached?.page.etag ? { ifNoneMatch: cached.page.etag } : {}) });
    if (r === 'not_modified') {
      if (!cached) throw new AppError({ code: 'bad_response', message: 'The site answered “not modified” for a page Sitedesk has no copy of.' });
      cache.putPage(siteId, key(lang), cached.page); // refreshes fetched_at
      return cached.page;
    }
    cache.putPage(siteId, key(lang), r);
    return r;
  }

  /** The site did not answer (offline, timeout): reads fall back to the cache. */
  const unreachable = (err: unknown): err is AppError => isAppError(err) && (err.code === 'network' || err.code === 'timeout');

  /**
   * Sends a structural write; when the site does not answer, the write goes to the outbox instead
   * and the cache is changed as the site will be, so the tree and the editor go on offline.
   */
  async function sendOrQueue<T>(siteId: string, op: StructuralOp, send: () => Promise<T>, offline: () => T): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (!queue || !unreachable(err)) throw err;
      queue(siteId, op);
      return offline();
    }
  }

  /** A level from the copy: the rows in the order the site last gave them, then those it never listed to us in the order it would. */
  function cachedLevel(siteId: string, route: string): PageSummary[] {
    const { placed, unplaced } = cache.cachedLevel(siteId, route);
    if (!unplaced.length) return placed;
    const parent = route === '/' ? null : cache.getPage(siteId, route, '')?.page.header;
    return [...placed, ...siteOrder(unplaced, parent)];
  }

  /** A read of a page whose address is also that of a sub-resource of its parent (api/cms/addressing.ts): said so. */
  function explained(route: string, err: unknown): unknown {
    const reason = isAppError(err) ? shadowed(route, err) : null;
    return reason && isAppError(err) ? new AppError({ ...err.info, message: reason, detail: err.message }, { cause: err }) : err;
  }

  /** No answer, and the folder's pages were never copied: said in those words, the site's reason kept. */
  const notCopied = (route: string, err: AppError) =>
    new AppError(
      { code: err.code, message: `Not in the offline copy: the site is not answering, and the pages in ${route === '/' ? 'this site' : route} were never copied.`, detail: err.message },
      { cause: err },
    );

  const conflict = (route: string) =>
    new AppError({
      code: 'conflict',
      status: 409,
      message: `${route} changed on the site since you opened it. Reload it, or keep your text as a copy.`,
    });

  return {
    async list(q: ChannelParsed<'pages.list'>): Promise<PageList> {
      const { siteId, ...query } = q;
      // offline: the same filters, sort and paging over the cached rows, marked with their time;
      // an empty answer is only an answer when the site was read before at all
      const fromCopy = () => {
        const cached = cache.list(siteId, query);
        return cached.total > 0 || cache.cachedChildren(siteId, '/').length ? cached : null;
      };
      const copied = away(siteId) ? fromCopy() : null;
      if (copied) return copied;
      let r: PageList;
      try {
        // with the site read before (a copy to give), one try is enough
        const { next: _next, ...answer } = await cmsPages.list(cache.cachedChildren(siteId, '/').length ? once(siteId) : read(siteId), query);
        r = answer;
      } catch (err) {
        const cached = unreachable(err) ? fromCopy() : null;
        if (cached) return cached;
        throw err;
      }
      cache.putSummaries(siteId, '', r.items);
      return r;
    },

    /**
     * Direct children in the site's own order (the tree's lazy level), with the rows the site sent
     * that could not be read. `sort=default` with `children_of` is the site's native order (folder
     * numbers, or the parent's collection order); without a sort the real service lists newest
     * first. The cache keeps each row's place, so the level reads the same offline.
     */
    async level(siteId: string, route: string): Promise<PageLevel> {
      const copied = () => {
        const cached = cachedLevel(siteId, route);
        if (cached.length) return { items: cached };
        // a page the cache knows as a leaf has no level to show, online or not
        if (route !== '/' && cache.summary(siteId, route)?.hasChildren === false) return { items: [] };
        return null;
      };
      const known = away(siteId) ? copied() : null;
      if (known) return known;
      const items: PageSummary[] = [];
      const unreadable: UnreadablePage[] = [];
      try {
        // with the level in the copy (or the site known away), a connection that gets no answer is not tried again
        const transport = online?.(siteId) === false || cache.cachedChildren(siteId, route).length ? once(siteId) : t(siteId);
        for (let page: number | null = 1; page !== null && items.length + unreadable.length < MAX_CHILDREN; ) {
          const r = await cmsPages.list(transport, { childrenOf: route, sort: 'default', page, perPage: 100 });
          items.push(...r.items);
          unreadable.push(...(r.unreadable ?? []));
          // a next page that is not further on would loop: the level ends there
          page = r.items.length + (r.unreadable?.length ?? 0) === 0 || r.next === null || r.next <= page ? null : r.next;
        }
      } catch (err) {
        if (unreachable(err)) {
          const cached = copied();
          if (cached) return cached;
          throw notCopied(route, err);
        }
        throw err;
      }
      cache.putLevel(siteId, route, items);
      return { items, ...(unreadable.length ? { unreadable } : {}) };
    },

    /** The readable children of a level (see `level`). */
    async children(siteId: string, route: string): Promise<PageSummary[]> {
      return (await this.level(siteId, route)).items;
    },

    async get(q: ChannelParsed<'pages.get'>): Promise<Page> {
      if (!q.render && !q.translations) {
        const cached = cache.getPage(q.siteId, q.route, key(q.lang));
        if (cached && away(q.siteId)) return { ...cached.page, cachedAt: cached.fetchedAt };
        try {
          return await readPlain(q.siteId, q.route, q.lang, { cached });
        } catch (err) {
          if (cached && unreachable(err)) return { ...cached.page, cachedAt: cached.fetchedAt };
          throw explained(q.route, err);
        }
      }
      // a render or translations read: its ETag is not the one If-Match accepts, so it is not kept
      const r = await cmsPages.get(read(q.siteId), q.route, { ...(q.lang ? { lang: q.lang } : {}), render: q.render ?? false, translations: q.translations ?? false });
      if (r === 'not_modified') throw new AppError({ code: 'bad_response', message: 'Unexpected “not modified” answer.' });
      return r;
    },

    async create(q: ChannelParsed<'pages.create'>): Promise<Page> {
      const { siteId, ...body } = q;
      return sendOrQueue(
        siteId,
        { op: 'create', route: q.route, payload: body },
        async () => {
          const created = await cmsPages.create(t(siteId), body);
          return readPlain(siteId, created.route.startsWith('/') ? created.route : `/${created.route}`, q.lang);
        },
        () => {
          const now = new Date().toISOString();
          const header = body.header ?? {};
          const page: Page = {
            route: q.route,
            slug: slugOf(q.route),
            title: q.title,
            template: q.template,
            published: header.published !== false,
            visible: header.visible !== false,
            routable: header.routable !== false,
            order: q.order ?? null,
            hasChildren: false,
            modified: now,
            date: null,
            header,
            content: q.content ?? '',
            media: [],
            language: q.lang ?? null,
            // no ETag yet: a save queued after it goes without If-Match, right behind the create
            etag: null,
          };
          cache.putPage(siteId, key(q.lang), page, now);
          return { ...page, cachedAt: now, queued: true };
        },
      );
    },

    /**
     * "Keep mine as a copy": my text as a new page beside this one, under the first slug of
     * `<slug>-copy`, `<slug>-copy-2`, … the site does not have yet (asked of the site, not guessed
     * from an error's words). The parent is the one the site gives the page.
     */
    async copyAsNew(q: ChannelParsed<'pages.copyAsNew'>): Promise<Page> {
      const { siteId, route, lang, ...mine } = q;
      const known = cache.getPage(siteId, route, key(lang))?.page.parentRoute;
      const parent = known && known !== '/' ? known : parentOf(route);
      const free = async (candidate: string) => {
        try {
          await cmsPages.get(t(siteId), candidate, lang ? { lang } : {});
          return false;
        } catch (err) {
          if (isAppError(err) && err.code === 'not_found') return true;
          throw err;
        }
      };
      for (let n = 1; n <= MAX_COPY_NAMES; n++) {
        const candidate = joinRoute(parent, `${slugOf(route)}-copy${n > 1 ? `-${n}` : ''}`);
        if (await free(candidate)) return this.create({ siteId, route: candidate, ...mine, ...(lang ? { lang } : {}) });
      }
      throw new AppError({ code: 'invalid_input', message: `Every “-copy” name up to ${MAX_COPY_NAMES} is taken; nothing was created.` });
    },

    async remove(q: ChannelParsed<'pages.delete'>): Promise<{ route: string; queued?: boolean }> {
      const o = { ...(q.lang ? { lang: q.lang } : {}), ...(q.children !== undefined ? { children: q.children } : {}) };
      const r = await sendOrQueue<{ route: string; queued?: boolean }>(
        q.siteId,
        { op: 'delete', route: q.route, payload: o },
        () => cmsPages.remove(t(q.siteId), q.route, o).then(() => ({ route: q.route })),
        () => ({ route: q.route, queued: true }),
      );
      if (q.lang) cache.removeLang(q.siteId, q.route, q.lang);
      else cache.removeTree(q.siteId, q.route);
      return r;
    },

    async move(q: ChannelParsed<'pages.move'>): Promise<{ route: string; queued?: boolean }> {
      const o = { parent: q.parent, ...(q.slug ? { slug: q.slug } : {}), ...(q.order !== undefined ? { order: q.order } : {}) };
      // the site names the moved folder after the page's slug (which a header may set apart from
      // its folder name): the new structural route is the new parent's plus that slug
      const slug = q.slug ?? cache.summary(q.siteId, q.route)?.slug ?? slugOf(q.route);
      const to = `${q.parent === '/' ? '' : q.parent}/${slug}`;
      const r = await sendOrQueue<{ route: string; queued?: boolean }>(
        q.siteId,
        { op: 'move', route: q.route, payload: o },
        () => cmsPages.move(t(q.siteId), q.route, o).then(() => ({ route: to })),
        () => ({ route: to, queued: true }),
      );
      if (r.queued) cache.moveTree(q.siteId, q.route, to);
      else cache.removeTree(q.siteId, q.route);
      return r;
    },

    async reorder(q: ChannelParsed<'pages.reorder'>): Promise<PageSummary[]> {
      await cmsPages.reorder(t(q.siteId), q.route, q.order);
      return this.children(q.siteId, q.route);
    },

    async copy(q: ChannelParsed<'pages.copy'>) {
      return cmsPages.copy(t(q.siteId), q.route, q.destination);
    },

    /**
     * A batch over any number of routes: the site takes at most 50 per request (or fewer, when its
     * refusal says so: then the routes are split again with its number), and the results are
     * merged. A request the site refuses as a whole (a missing route…) marks its routes as failed
     * with the site's reason, unless it is the only request: then the reason is the answer.
     */
    async batch(q: ChannelParsed<'pages.batch'>): Promise<BatchRun> {
      const all = q.operation === 'delete' ? topmost(q.routes) : [...new Set(q.routes)];
      let limit = MAX_BATCH;
      const results: BatchRun['results'] = [];
      let requests = 0;
      let rest = all;
      while (rest.length) {
        const part = rest.slice(0, limit);
        try {
          requests++;
          const r = await cmsPages.batch(t(q.siteId), q.operation, part, q.options);
          if (q.operation === 'delete') for (const x of r.results) if (x.status === 'success') cache.removeTree(q.siteId, x.route);
          results.push(...r.results);
          rest = rest.slice(part.length);
        } catch (err) {
          const smaller = cmsPages.batchLimit(err);
          if (smaller !== null && smaller < limit) {
            // the site's limit is lower than the documents': split again with its number
            limit = smaller;
            requests--;
            continue;
          }
          if (all.length <= limit && results.length === 0) throw err;
          const message = err instanceof Error ? err.message : String(err);
          results.push(...part.map((route) => ({ route, status: 'error' as const, message })));
          rest = rest.slice(part.length);
        }
      }
      const successful = results.filter((r) => r.status === 'success').length;
      return { operation: q.operation, results, total: results.length, successful, failed: results.length - successful, requests, limit };
    },

    async reorganize(q: ChannelParsed<'pages.reorganize'>) {
      const rows = await cmsPages.reorganize(t(q.siteId), q.operations);
      for (const op of q.operations) if (op.parent) cache.removeTree(q.siteId, op.route);
      return rows;
    },

    async siteLanguages(siteId: string): Promise<SiteLanguages> {
      const copy = siteCache?.get<SiteLanguages>(siteId, LANGUAGES_KEY);
      if (copy && away(siteId)) return { ...copy.value, cachedAt: copy.fetchedAt };
      try {
        const langs = await cmsPages.siteLanguages(copy ? once(siteId) : t(siteId));
        siteCache?.put(siteId, LANGUAGES_KEY, langs);
        return langs;
      } catch (err) {
        const cached = unreachable(err) ? siteCache?.get<SiteLanguages>(siteId, LANGUAGES_KEY) : undefined;
        if (cached) return { ...cached.value, cachedAt: cached.fetchedAt };
        throw err;
      }
    },
    taxonomy: (siteId: string) => cmsPages.taxonomy(read(siteId)),
    languages: (siteId: string, route: string) => cmsPages.languages(read(siteId), route),

    async translate(q: ChannelParsed<'translations.translate'>) {
      const { siteId, route, ...body } = q;
      return sendOrQueue(
        siteId,
        { op: 'translate', route, payload: body },
        () => cmsPages.translate(t(siteId), route, body),
        () => {
          // the new language is editable offline at once, from the copy it was made from
          const from = cache.getPage(siteId, route, '');
          if (from) {
            const now = new Date().toISOString();
            const header = body.header ?? from.page.header;
            cache.putPage(siteId, q.lang, { ...from.page, title: body.title ?? from.page.title, content: body.content ?? from.page.content, header, language: q.lang, etag: null }, now);
          }
          return { route, lang: q.lang, ...(q.title !== undefined ? { title: q.title } : {}), ...(q.content !== undefined ? { content: q.content } : {}), queued: true };
        },
      );
    },
    adopt: (q: ChannelParsed<'translations.adopt'>) => cmsPages.adoptLanguage(t(q.siteId), q.route, q.lang).then(() => ({ route: q.route, lang: q.lang })),
    async sync(q: ChannelParsed<'translations.sync'>) {
      const r = await cmsPages.sync(t(q.siteId), q.route, q.sourceLang, q.targetLang);
      cache.removeLang(q.siteId, q.route, q.targetLang);
      return r;
    },
    compare: (q: ChannelParsed<'translations.compare'>) => cmsPages.compare(t(q.siteId), q.route, q.source, q.target),

    /** Pages × languages for the whole site: which languages have a real file, which only the base. */
    async matrix(siteId: string): Promise<TranslationMatrix> {
      const transport = t(siteId);
      const rows: TranslationRow[] = [];
      let langs: SiteLanguages;
      try {
        langs = await this.siteLanguages(siteId);
        if (langs.cachedAt) throw new AppError({ code: 'network', message: 'offline' }); // answered from the cache: go offline whole
        // a row that could not be read is left out of the matrix (the tree and the list flag it)
        for (let page: number | null = 1, seen = 0; page !== null && seen < MAX_MATRIX_PAGES; ) {
          const r = await cmsPages.translationRows(transport, page);
          rows.push(...r.rows);
          seen += r.rows.length + r.unreadable.length;
          page = r.rows.length + r.unreadable.length === 0 || r.next === null || r.next <= page ? null : r.next;
        }
      } catch (err) {
        // offline: the rows the cache holds (from the mirror, the list, or an earlier matrix)
        const cachedLangs = unreachable(err) ? siteCache?.get<SiteLanguages>(siteId, LANGUAGES_KEY) : undefined;
        const cached = cachedLangs ? cache.matrixRows(siteId) : undefined;
        if (!cachedLangs || !cached?.rows.length) throw err;
        const oldest = cached.cachedAt && cached.cachedAt < cachedLangs.fetchedAt ? cached.cachedAt : cachedLangs.fetchedAt;
        return { languages: cachedLangs.value.languages.map((l) => l.code), defaultLanguage: cachedLangs.value.default, rows: cached.rows, cachedAt: oldest };
      }
      cache.putTranslations(siteId, rows);
      rows.sort((a, b) => a.route.localeCompare(b.route));
      return { languages: langs.languages.map((l) => l.code), defaultLanguage: langs.default, rows };
    },

    media: (q: ChannelParsed<'media.list'>): Promise<PageMediaItem[]> =>
      cmsMedia.list(read(q.siteId), q.route, { ...(q.filter ? { filter: q.filter } : {}), ...(q.sort ? { sort: q.sort } : {}), ...(q.order ? { order: q.order } : {}) }),

    /** A piece of a file for a later `upload` without `data`. */
    stageChunk(q: ChannelParsed<'media.uploadChunk'>): { received: number } {
      return { received: staging.add(q.uploadId, q.offset, Buffer.from(q.data, 'base64')) };
    },

    async upload(q: ChannelParsed<'media.upload'>): Promise<PageMediaItem[]> {
      const bytes = q.data !== undefined ? Buffer.from(q.data, 'base64') : staging.take(q.uploadId);
      let last = 0;
      return cmsMedia.upload(
        t(q.siteId),
        q.route,
        { name: q.filename, type: q.type, bytes },
        {
          ...(q.avoidOverwriting ? { avoidOverwriting: true } : {}),
          onProgress: (sent, total) => {
            // a few events per file are plenty; every chunk would flood the bridge
            if (sent === total || sent - last >= total / 20) {
              last = sent;
              progress?.({ uploadId: q.uploadId, sent, total });
            }
          },
        },
      );
    },

    removeMedia: (q: ChannelParsed<'media.delete'>) => cmsMedia.remove(t(q.siteId), q.route, q.filename).then(() => ({ filename: q.filename })),

    templates: (siteId: string) => cmsBlueprints.templates(read(siteId)),
    blueprint: (siteId: string, template: string) => cmsBlueprints.page(read(siteId), template),
  };
}

export type PagesService = ReturnType<typeof pagesService>;
