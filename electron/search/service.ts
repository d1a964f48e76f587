/**
 * Offline search over the cached pages of every site and over the person's own drafts (the command
 * palette, the pages views). A draft's words are found before it is synced: its hits come first,
 * marked as the person's unsynced change, and stand for the page's copy when both match.
 * Snippets are text: the Markdown they are cut from is dropped (snippet.ts).
 */
import type { ChannelParsed, SearchHit } from '../contract';
import { AppError } from '../base/app-error';
import type { SearchRepo, SearchRow } from '../db/repos/search';
import { ftsQuery, snippetParts } from '../db/fts-query';
import { plainSnippet } from './snippet';

const keyOf = (r: { site_id: string; route: string; lang: string }) => `${r.site_id}\n${r.route}\n${r.lang}`;
const hitOf = (r: SearchRow): SearchHit => ({ siteId: r.site_id, route: r.route, lang: r.lang, title: r.title, snippet: snippetParts(plainSnippet(r.snippet ?? '')), cachedAt: r.cached_at });

export function searchService(repo: SearchRepo) {
  return {
    query(q: ChannelParsed<'search.query'>): SearchHit[] {
      const { match } = ftsQuery(q.text);
      if (match === null) {
        throw new AppError({ code: 'invalid_input', message: 'Type a word to search for (letters or digits).', fields: { text: 'Type a word to search for (letters or digits).' } });
      }
      let drafts;
      let rows;
      try {
        drafts = repo.searchDrafts(match, q.limit, q.siteId);
        rows = repo.search(match, q.limit, q.siteId);
      } catch (err) {
        // ftsQuery quotes every word, so this is not expected; still a clear answer, never a crash
        throw new AppError({ code: 'invalid_input', message: 'This search could not be understood. Try plain words.', fields: { text: 'This search could not be understood.' } }, { cause: err });
      }
      const drafted = new Set(drafts.map(keyOf));
      return [...drafts.map((r) => ({ ...hitOf(r), draft: true as const })), ...rows.filter((r) => !drafted.has(keyOf(r))).map(hitOf)].slice(0, q.limit);
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
