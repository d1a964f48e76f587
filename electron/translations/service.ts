/**
 * Translations of a CMS site's pages: the site's languages (kept for offline use), a page's
 * languages, translating, adopting and syncing a language file, comparing two languages, and the
 * pages × languages matrix (from the copy when the site does not answer). A translation the site
 * does not answer is queued, and its page is editable offline at once.
 */
import type { ChannelParsed, SiteLanguages, TranslationMatrix, TranslationRow } from '../contract';
import { AppError } from '../base/app-error';
import { cmsPages } from '../api/cms/pages';
import type { PagesRepo } from '../db/repos/pages';
import { LANGUAGES_KEY, type SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';

export interface TranslationsDeps extends SiteCallDeps {
  cache: PagesRepo;
  /** The site's languages, kept for the offline matrix. */
  siteCache: SiteCacheRepo;
}

/** Most pages the translation matrix reads (100 per request). */
const MAX_MATRIX_PAGES = 20_000;

const matrixOf = (langs: SiteLanguages, rows: TranslationRow[]): TranslationMatrix => ({
  languages: langs.languages.map((l) => l.code),
  defaultLanguage: langs.default,
  names: Object.fromEntries(langs.languages.map((l) => [l.code, l.name])),
  rows,
});

export function translationsService(deps: TranslationsDeps) {
  const { cache, siteCache } = deps;
  const { t, read, sendOrQueue, withCopy } = siteCalls(deps);

  async function siteLanguages(siteId: string): Promise<SiteLanguages> {
    const { value, copiedAt } = await withCopy(siteId, siteCache, LANGUAGES_KEY, (transport) => cmsPages.siteLanguages(transport));
    return copiedAt ? { ...value, cachedAt: copiedAt } : value;
  }

  /** Every page's translation row, read from the site (a row it cannot read is left out: the tree and the list flag it). */
  async function liveMatrix(siteId: string, langs: SiteLanguages): Promise<TranslationMatrix> {
    const transport = t(siteId);
    const rows: TranslationRow[] = [];
    for (let page: number | null = 1, seen = 0; page !== null && seen < MAX_MATRIX_PAGES; ) {
      const r = await cmsPages.translationRows(transport, page);
      rows.push(...r.rows);
      seen += r.rows.length + r.unreadable.length;
      page = r.rows.length + r.unreadable.length === 0 || r.next === null || r.next <= page ? null : r.next;
    }
    cache.putTranslations(siteId, rows);
    rows.sort((a, b) => a.route.localeCompare(b.route));
    return matrixOf(langs, rows);
  }

  return {
    siteLanguages,
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

    /**
     * Pages × languages for the whole site: which languages have a real file, which only the base,
     * with the languages' names. From the copy when the site does not answer.
     */
    async matrix(siteId: string): Promise<TranslationMatrix> {
      let failure: unknown;
      try {
        const langs = await siteLanguages(siteId);
        if (!langs.cachedAt) return await liveMatrix(siteId, langs);
      } catch (err) {
        if (!unreachable(err)) throw err;
        failure = err;
      }
      // the rows the cache holds (from the mirror, the list, or an earlier matrix)
      const cachedLangs = siteCache.get<SiteLanguages>(siteId, LANGUAGES_KEY);
      const cached = cachedLangs ? cache.matrixRows(siteId) : undefined;
      if (!cachedLangs || !cached?.rows.length) {
        throw failure ?? new AppError({ code: 'network', message: 'The site is not answering, and Sitedesk has no copy of its translations yet.' });
      }
      const oldest = cached.cachedAt && cached.cachedAt < cachedLangs.fetchedAt ? cached.cachedAt : cachedLangs.fetchedAt;
      return { ...matrixOf(cachedLangs.value, cached.rows), cachedAt: oldest };
    },
  };
}

export type TranslationsService = ReturnType<typeof translationsService>;
