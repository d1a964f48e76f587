import type { Db } from '../open';
import { MARK_CLOSE, MARK_OPEN } from '../fts-query';

export interface SearchRow {
  site_id: string;
  route: string;
  lang: string;
  title: string;
  snippet: string;
  cached_at: string;
}

/** A hit in a draft: the person's own unsynced change, as of its last save. */
export interface DraftSearchRow extends SearchRow {
  draft_id: number;
}

/**
 * Full-text search over the page cache (pages_fts, kept in step by triggers; see migration 5) and
 * over the drafts (drafts_fts, migration 9: a draft's "mine"). Ranked by bm25 with titles weighted
 * over header values over text (the tables' `rank`), and FTS5 sorts by rank itself, so snippets are
 * made only for the rows returned.
 */
export function searchRepo(db: Db) {
  const cols = `p.site_id, p.route, p.lang, p.title, coalesce(p.full_at, p.fetched_at) AS cached_at,
    snippet(pages_fts, -1, '${MARK_OPEN}', '${MARK_CLOSE}', '…', 16) AS snippet`;
  const all = db.prepare<{ match: string; limit: number }, SearchRow>(
    `SELECT ${cols} FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid WHERE pages_fts MATCH @match ORDER BY rank LIMIT @limit`,
  );
  const site = db.prepare<{ match: string; limit: number; site: string }, SearchRow>(
    `SELECT ${cols} FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid WHERE pages_fts MATCH @match AND p.site_id = @site ORDER BY rank LIMIT @limit`,
  );
  const draftCols = `d.id AS draft_id, d.site_id, d.route, d.lang, coalesce(json_extract(d.mine, '$.title'), '') AS title, d.updated_at AS cached_at,
    snippet(drafts_fts, -1, '${MARK_OPEN}', '${MARK_CLOSE}', '…', 16) AS snippet`;
  const drafts = db.prepare<{ match: string; limit: number; site: string | null }, DraftSearchRow>(
    `SELECT ${draftCols} FROM drafts_fts JOIN drafts d ON d.id = drafts_fts.rowid
     WHERE drafts_fts MATCH @match AND (@site IS NULL OR d.site_id = @site) ORDER BY rank LIMIT @limit`,
  );
  return {
    /** `match` must come from ftsQuery(): a raw FTS5 expression from a person may not parse. */
    search(match: string, limit: number, siteId?: string): SearchRow[] {
      return siteId ? site.all({ match, limit, site: siteId }) : all.all({ match, limit });
    },
    /** The drafts whose words match (same `match` rules as `search`). */
    searchDrafts(match: string, limit: number, siteId?: string): DraftSearchRow[] {
      return drafts.all({ match, limit, site: siteId ?? null });
    },
  };
}

export type SearchRepo = ReturnType<typeof searchRepo>;
