/**
 * Pages of a CMS site: every read goes through the cache (a plain read asks with the copy's ETag in
 * If-None-Match: the documents answer 304 for an unchanged page, the real service ignores it and
 * sends the page), and writes that move or remove pages drop what the cache knew about them. Saves
 * are not here: a page's text goes out as a draft through the outbox (sync/). How a site is called while it is away,
 * and how a write it does not answer is queued, is sites/calls.ts (shared with translations, media
 * and blueprints).
 */
import type { BatchRun, ChannelParsed, Page, PageLevel, PageList, PageSummary, ReorganizedPage, UnreadablePage } from '../contract';
import { AppError, isAppError } from '../base/app-error';
import { cmsPages } from '../api/cms/pages';
import type { CachedPage, PagesRepo } from '../db/repos/pages';
import { langKey as key, siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';
import { siteOrder } from './level-order';
import { shadowed } from '../api/cms/addressing';
import { joinRoute, parentOf, slugOf, topmost } from '../common/route';

export interface PagesDeps extends SiteCallDeps {
  cache: PagesRepo;
}


/** Most routes (or operations) one batch or reorganize request carries (the documents' limit; a site may say it takes fewer). */
const MAX_BATCH = 50;

/** Most `-copy-N` names "keep mine as a copy" tries before it says they are all taken. */
const MAX_COPY_NAMES = 50;

/** Most children a folder may list in the tree before the list view is the better tool. */
const MAX_CHILDREN = 5000;

/**
 * Sends `items` in requests of at most the site's limit, in order: the documents' 50, or the lower
 * number a refusal names ("… limited to 25 items", then the same part goes again, split with it).
 * Any other refusal of a part is `refused`'s to answer (`only`: it was the one request), or thrown.
 */
async function inParts<I, R>(
  items: readonly I[],
  send: (part: I[]) => Promise<R>,
  refused: (part: I[], err: unknown, only: boolean) => R = (_part, err) => {
    throw err;
  },
): Promise<{ answers: R[]; requests: number; limit: number }> {
  let limit = MAX_BATCH;
  const answers: R[] = [];
  let requests = 0;
  let rest = [...items];
  while (rest.length) {
    const part = rest.slice(0, limit);
    try {
      answers.push(await send(part));
      requests++;
    } catch (err) {
      const smaller = cmsPages.batchLimit(err);
      if (smaller !== null && smaller < limit) {
        limit = smaller;
        continue;
      }
      requests++;
      answers.push(refused(part, err, items.length <= limit && answers.length === 0));
    }
    rest = rest.slice(part.length);
  }
  return { answers, requests, limit };
}

/**
 * A refusal of a search that may mean "this site has no search backend" (the real service answers
 * 500 without its index), not "the site is away" or "you may not".
 */
function searchMayBeUnsupported(err: unknown): boolean {
  return isAppError(err) && !['network', 'timeout', 'tls', 'unauthorized', 'forbidden', 'rate_limited', 'host_unavailable'].includes(err.code);
}

export function pagesService(deps: PagesDeps) {
  const { cache } = deps;
  const { t, once, read, isAway, away, sendOrQueue } = siteCalls(deps);

  /** `fallback`: the caller gives the copy when nothing answers (`get`), so one try is enough. */
  async function readPlain(siteId: string, route: string, lang?: string, fallback?: { cached: CachedPage | undefined }): Promise<Page> {
    const cached = fallback ? fallback.cached : cache.getPage(siteId, route, key(lang));
    // with a copy to give, or the site known away (this read is a probe too), one try is enough
    const quick = fallback !== undefined && (cached !== undefined || isAway(siteId));
    const { page } = await cmsPages.read(quick ? once(siteId) : t(siteId), route, { ...(lang ? { lang } : {}), ifNoneMatch: cached?.page.etag ?? null });
    if (!page) {
      if (!cached) throw new AppError({ code: 'bad_response', message: 'The site answered “not modified” for a page Sitedesk has no copy of.' });
      cache.putPage(siteId, key(lang), cached.page); // refreshes fetched_at
      return cached.page;
    }
    cache.putPage(siteId, key(lang), page);
    return page;
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
        const transport = cache.cachedChildren(siteId, '/').length ? once(siteId) : read(siteId);
        try {
          const { next: _next, ...answer } = await cmsPages.list(transport, query);
          r = answer;
        } catch (err) {
          if (!query.search || !searchMayBeUnsupported(err)) throw err;
          // the same query without the search: when that works, the site cannot search
          const { search: _search, ...plain } = query;
          const { next: _next, ...answer } = await cmsPages.list(transport, plain);
          r = { ...answer, searchUnavailable: true };
        }
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
        const transport = isAway(siteId) || cache.cachedChildren(siteId, route).length ? once(siteId) : t(siteId);
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
      return cmsPages.get(read(q.siteId), q.route, { ...(q.lang ? { lang: q.lang } : {}), render: q.render ?? false, translations: q.translations ?? false });
    },

    async create(q: ChannelParsed<'pages.create'>): Promise<Page> {
      const { siteId, ...body } = q;
      return sendOrQueue(
        siteId,
        { op: 'create', route: q.route, payload: body },
        async () => {
          const created = await cmsPages.create(t(siteId), body);
          return readPlain(siteId, created.route, q.lang);
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
      /** The page at a candidate name; null when the name is free. */
      const at = async (candidate: string): Promise<Page | null> => {
        try {
          return await cmsPages.get(t(siteId), candidate, lang ? { lang } : {});
        } catch (err) {
          if (isAppError(err) && err.code === 'not_found') return null;
          throw err;
        }
      };
      for (let n = 1; n <= MAX_COPY_NAMES; n++) {
        const candidate = joinRoute(parent, `${slugOf(route)}-copy${n > 1 ? `-${n}` : ''}`);
        const there = await at(candidate);
        if (!there) return this.create({ siteId, route: candidate, ...mine, ...(lang ? { lang } : {}) });
        // my copy made by an earlier try whose answer was lost: it is the copy, not a reason for another
        if (there.title === mine.title && there.content.trim() === mine.content.trim()) return there;
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
      const to = joinRoute(q.parent, slug);
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

    /** The parent's level as the site now orders it (the tree shows it as it is, no second read). */
    async reorder(q: ChannelParsed<'pages.reorder'>): Promise<PageLevel> {
      await cmsPages.reorder(t(q.siteId), q.route, q.order);
      return this.level(q.siteId, q.route);
    },

    async copy(q: ChannelParsed<'pages.copy'>) {
      return cmsPages.copy(t(q.siteId), q.route, q.destination);
    },

    /**
     * A batch over any number of routes, split to the site's limit (see `inParts`) and the results
     * merged. A request the site refuses as a whole (a missing route…) marks its routes as failed
     * with the site's reason, unless it is the only request: then the reason is the answer.
     */
    async batch(q: ChannelParsed<'pages.batch'>): Promise<BatchRun> {
      const all = q.operation === 'delete' ? topmost(q.routes) : [...new Set(q.routes)];
      const run = await inParts(
        all,
        async (part) => {
          const r = await cmsPages.batch(t(q.siteId), q.operation, part, q.options);
          if (q.operation === 'delete') for (const x of r.results) if (x.status === 'success') cache.removeTree(q.siteId, x.route);
          return r.results;
        },
        (part, err, only) => {
          if (only) throw err;
          const message = err instanceof Error ? err.message : String(err);
          return part.map((route) => ({ route, status: 'error' as const, message }));
        },
      );
      const results = run.answers.flat();
      const successful = results.filter((r) => r.status === 'success').length;
      return { operation: q.operation, results, total: results.length, successful, failed: results.length - successful, requests: run.requests, limit: run.limit };
    },

    /**
     * Any number of operations, split to the site's limit like a batch and sent in their order; a
     * refused request stops there (the ones before it are done, and the cache forgets what they
     * moved). The answer is every row the site gave, the last answer's row where two name one route.
     */
    async reorganize(q: ChannelParsed<'pages.reorganize'>): Promise<ReorganizedPage[]> {
      const run = await inParts(q.operations, async (part) => {
        const rows = await cmsPages.reorganize(t(q.siteId), part);
        for (const op of part) if (op.parent) cache.removeTree(q.siteId, op.route);
        return rows;
      });
      return [...new Map(run.answers.flat().map((row) => [row.route, row])).values()];
    },

    taxonomy: (siteId: string) => cmsPages.taxonomy(read(siteId)),
  };
}

export type PagesService = ReturnType<typeof pagesService>;
