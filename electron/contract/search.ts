/**
 * Offline search: full-text search over the copies of the sites' pages (and the person's own
 * unsynced drafts), best first. The copies are the mirror's (mirror.ts).
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

/** One part of a search snippet: the renderer shows `match` parts highlighted, as plain text. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

export interface SearchHit {
  siteId: string;
  route: string;
  /** '' = the site's default language */
  lang: string;
  title: string;
  /** A few words around the best match (title, header values or content). */
  snippet: SnippetPart[];
  /** When this copy was taken (ISO); for a draft, when it was last saved. */
  cachedAt: string;
  /**
   * The words are in the person's own unsynced change (a local draft), not in the copy of the
   * site's page: opening the hit opens the page with that draft.
   */
  draft?: true;
}

export const SearchQuery = v.strictObject({
  text: v.pipe(v.string(), v.trim(), v.minLength(1, 'Type something to search for.'), v.maxLength(200, 'At most 200 characters.')),
  siteId: v.optional(SiteId),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
});

export const searchChannels = {
  /** Full-text search over the cached pages of every site (or one), best first. */
  'search.query': channel<SearchHit[]>()(SearchQuery),
};

export const searchEvents = {};
