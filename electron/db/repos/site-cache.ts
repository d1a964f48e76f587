import type { Db } from '../open';

/** The key of a site's languages (GET /languages), which the offline translation matrix needs. */
export const LANGUAGES_KEY = 'languages';

/** Small answers of a site kept for offline use (its languages…), JSON per site and key. */
export function siteCacheRepo(db: Db) {
  const get = db.prepare<[string, string], { value: string; fetched_at: string }>('SELECT value, fetched_at FROM site_cache WHERE site_id = ? AND key = ?');
  const put = db.prepare<[string, string, string, string]>(
    'INSERT INTO site_cache (site_id, key, value, fetched_at) VALUES (?, ?, ?, ?) ON CONFLICT (site_id, key) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at',
  );
  const remove = db.prepare<[string, string]>('DELETE FROM site_cache WHERE site_id = ? AND key = ?');
  return {
    get<T>(siteId: string, key: string): { value: T; fetchedAt: string } | undefined {
      const row = get.get(siteId, key);
      if (!row) return undefined;
      try {
        return { value: JSON.parse(row.value) as T, fetchedAt: row.fetched_at };
      } catch {
        return undefined;
      }
    },
    put(siteId: string, key: string, value: unknown, now = new Date().toISOString()): void {
      put.run(siteId, key, JSON.stringify(value), now);
    },
    remove(siteId: string, key: string): void {
      remove.run(siteId, key);
    },
  };
}

export type SiteCacheRepo = ReturnType<typeof siteCacheRepo>;
