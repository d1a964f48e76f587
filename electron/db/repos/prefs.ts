import type { Db } from '../open';

/** Small JSON values the app keeps about itself (workspace layout, settings). */
export function prefsRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM prefs WHERE key = ?');
  const put = db.prepare<[string, string]>(
    'INSERT INTO prefs (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    get<T>(key: string): T | undefined {
      const row = get.get(key);
      if (!row) return undefined;
      try {
        return JSON.parse(row.value) as T;
      } catch {
        return undefined; // a value we cannot read is as good as none; the caller falls back to defaults
      }
    },
    set(key: string, value: unknown): void {
      put.run(key, JSON.stringify(value));
    },
  };
}

export type PrefsRepo = ReturnType<typeof prefsRepo>;
