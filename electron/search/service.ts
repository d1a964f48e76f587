/** Offline search over the cached pages of every site (the command palette, the pages views). */
import type { ChannelParsed, SearchHit } from '../contract';
import { AppError } from '../core/app-error';
import type { SearchRepo } from '../db/repos/search';
import { ftsQuery, snippetParts } from './fts-query';

export function searchService(repo: SearchRepo) {
  return {
    query(q: ChannelParsed<'search.query'>): SearchHit[] {
      const { match } = ftsQuery(q.text);
      if (match === null) {
        throw new AppError({ code: 'invalid_input', message: 'Type a word to search for (letters or digits).', fields: { text: 'Type a word to search for (letters or digits).' } });
      }
      let rows;
      try {
        rows = repo.search(match, q.limit, q.siteId);
      } catch (err) {
        // ftsQuery quotes every word, so this is not expected; still a clear answer, never a crash
        throw new AppError({ code: 'invalid_input', message: 'This search could not be understood. Try plain words.', fields: { text: 'This search could not be understood.' } }, { cause: err });
      }
      return rows.map((r) => ({ siteId: r.site_id, route: r.route, lang: r.lang, title: r.title, snippet: snippetParts(r.snippet ?? ''), cachedAt: r.cached_at }));
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
