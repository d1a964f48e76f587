/**
 * Mirror runs and their items (what "Make available offline" has read so far, for a resume), and
 * the list rows the mirror saw before its reads (what decides, next time, that a page is unchanged).
 */
import type { MirrorPhase, MirrorState } from '../../contract';
import type { Db } from '../open';

/** `unreadable`: listed, but the API cannot read the page by its route (api/cms/addressing.ts); not a failure. */
export type ItemState = 'todo' | 'fetched' | 'unchanged' | 'gone' | 'failed' | 'unreadable';

export interface RunRow {
  id: number;
  siteId: string;
  state: MirrorState;
  phase: MirrorPhase;
  plan: unknown;
  cursor: unknown;
  listed: number;
  removed: number;
  held: number;
  error: string | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface ItemCounts {
  total: number;
  todo: number;
  fetched: number;
  unchanged: number;
  gone: number;
  failed: number;
  unreadable: number;
}

interface DbRun {
  id: number;
  site_id: string;
  state: MirrorState;
  phase: MirrorPhase;
  plan: string;
  list_cursor: string | null;
  listed: number;
  removed: number;
  held: number;
  error: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

const toRun = (r: DbRun): RunRow => ({
  id: r.id,
  siteId: r.site_id,
  state: r.state,
  phase: r.phase,
  plan: JSON.parse(r.plan),
  cursor: r.list_cursor === null ? null : JSON.parse(r.list_cursor),
  listed: r.listed,
  removed: r.removed,
  held: r.held,
  error: r.error,
  startedAt: r.started_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

/** A page's list row as seen before the mirror's last read of it: its hash, and the server's time of that read (null: not read since). */
export interface SeenRow {
  hash: string;
  readAt: string | null;
}

/** Where a cleanup looks: the whole site, one subtree, or the listed tree levels. */
export type CleanupScope = { kind: 'site' } | { kind: 'prefix'; route: string } | { kind: 'levels'; parents: string[] };

export function mirrorRepo(db: Db) {
  const q = {
    latest: db.prepare<[string], DbRun>('SELECT * FROM mirror_runs WHERE site_id = ? ORDER BY id DESC LIMIT 1'),
    all: db.prepare<[], DbRun>('SELECT r.* FROM mirror_runs r WHERE r.id = (SELECT max(id) FROM mirror_runs WHERE site_id = r.site_id) ORDER BY r.site_id'),
    run: db.prepare<[number], DbRun>('SELECT * FROM mirror_runs WHERE id = ?'),
    interrupted: db.prepare<[], DbRun>("SELECT * FROM mirror_runs WHERE state = 'running' ORDER BY id"),
    dropOld: db.prepare<[string]>('DELETE FROM mirror_runs WHERE site_id = ?'),
    insert: db.prepare(
      `INSERT INTO mirror_runs (site_id, state, phase, plan, list_cursor, started_at, updated_at) VALUES (@site_id, 'running', 'listing', @plan, @cursor, @now, @now)`,
    ),
    update: db.prepare(
      `UPDATE mirror_runs SET state = @state, phase = @phase, list_cursor = @cursor, listed = @listed, removed = @removed, held = @held,
         error = @error, updated_at = @now, finished_at = @finished_at,
         total = @total, done = @done, unchanged = @unchanged, failed = @failed
       WHERE id = @id`,
    ),
    addItem: db.prepare<[number, string, string, ItemState]>('INSERT OR IGNORE INTO mirror_items (run_id, route, lang, state) VALUES (?, ?, ?, ?)'),
    setItem: db.prepare<[ItemState, number, string | null, number, number, string, string]>(
      'UPDATE mirror_items SET state = ?, attempts = attempts + ?, error = ?, transient = ? WHERE run_id = ? AND route = ? AND lang = ?',
    ),
    items: db.prepare<[number, ItemState], { route: string; lang: string; attempts: number }>(
      'SELECT route, lang, attempts FROM mirror_items WHERE run_id = ? AND state = ? ORDER BY id',
    ),
    retryFailed: db.prepare<[number, number]>("UPDATE mirror_items SET state = 'todo', error = NULL WHERE run_id = ? AND state = 'failed' AND (transient = 1 OR ? = 0)"),
    counts: db.prepare<[number], { state: ItemState; n: number }>('SELECT state, count(*) AS n FROM mirror_items WHERE run_id = ? GROUP BY state'),
    failures: db.prepare<[number], { route: string; lang: string; error: string | null }>(
      "SELECT route, lang, error FROM mirror_items WHERE run_id = ? AND state = 'failed' ORDER BY route, lang LIMIT 50",
    ),
    unreadable: db.prepare<[number], { route: string; lang: string; error: string | null }>(
      "SELECT route, lang, error FROM mirror_items WHERE run_id = ? AND state = 'unreadable' ORDER BY route, lang LIMIT 50",
    ),
    seen: db.prepare<[string, string, string], { row_hash: string; read_at: string | null }>('SELECT row_hash, read_at FROM mirror_seen WHERE site_id = ? AND route = ? AND lang = ?'),
    // the same row again keeps the time of the read that followed it; a new one waits for its read
    saw: db.prepare<[string, string, string, string]>(
      `INSERT INTO mirror_seen (site_id, route, lang, row_hash) VALUES (?, ?, ?, ?)
       ON CONFLICT (site_id, route, lang) DO UPDATE SET read_at = CASE WHEN row_hash = excluded.row_hash THEN read_at END, row_hash = excluded.row_hash`,
    ),
    read: db.prepare<[string, string, string, string]>('UPDATE mirror_seen SET read_at = ? WHERE site_id = ? AND route = ? AND lang = ?'),
    translated: db.prepare<[string, string], { translated: string | null }>("SELECT translated FROM pages WHERE site_id = ? AND route = ? AND lang = ''"),
    missingTranslations: db.prepare<{ run: number; site: string; langs: string }, { route: string; lang: string }>(
      `SELECT i.route AS route, j.value AS lang
       FROM mirror_items i
       JOIN pages p ON p.site_id = @site AND p.route = i.route AND p.lang = ''
       JOIN json_each(CASE WHEN json_valid(p.translated) THEN p.translated ELSE '[]' END) j
       WHERE i.run_id = @run AND i.lang = '' AND j.value IN (SELECT value FROM json_each(@langs))
         AND NOT EXISTS (SELECT 1 FROM mirror_items k WHERE k.run_id = @run AND k.route = i.route AND k.lang = j.value)
       ORDER BY i.id`,
    ),
  };

  return {
    latest(siteId: string): RunRow | undefined {
      const r = q.latest.get(siteId);
      return r && toRun(r);
    },
    /** The latest run of every site that has one. */
    latestAll: (): RunRow[] => q.all.all().map(toRun),
    run(id: number): RunRow | undefined {
      const r = q.run.get(id);
      return r && toRun(r);
    },
    /** Runs a quit or a crash cut short: they go on at the next start. */
    interrupted: (): RunRow[] => q.interrupted.all().map(toRun),

    /** A new run; the site's earlier runs (and their items) go, so one site holds one run. */
    create(siteId: string, plan: unknown, cursor: unknown): RunRow {
      return db.transaction(() => {
        q.dropOld.run(siteId);
        const now = new Date().toISOString();
        const { lastInsertRowid } = q.insert.run({ site_id: siteId, plan: JSON.stringify(plan), cursor: JSON.stringify(cursor), now });
        return toRun(q.run.get(Number(lastInsertRowid))!);
      }).immediate();
    },

    save(run: RunRow, counts: ItemCounts): void {
      const now = new Date().toISOString();
      q.update.run({
        id: run.id,
        state: run.state,
        phase: run.phase,
        cursor: run.cursor === null ? null : JSON.stringify(run.cursor),
        listed: run.listed,
        removed: run.removed,
        held: run.held,
        error: run.error,
        now,
        finished_at: run.finishedAt,
        total: counts.total,
        done: counts.fetched + counts.unchanged + counts.gone,
        unchanged: counts.unchanged,
        failed: counts.failed,
      });
      run.updatedAt = now;
    },

    /** New items (already listed ones are kept as they are); answers how many were new, by state. */
    /**
     * Adds the items the run does not hold yet; answers how many of each state were added and the
     * reads to make among them (`fresh`: new 'todo' items only — one the run holds already is
     * queued already, and queuing it again would read it twice).
     */
    addItems(runId: number, items: { route: string; lang: string; state: ItemState }[]): { todo: number; unchanged: number; fresh: { route: string; lang: string }[] } {
      const added = { todo: 0, unchanged: 0, fresh: [] as { route: string; lang: string }[] };
      for (const it of items) {
        if (q.addItem.run(runId, it.route, it.lang, it.state).changes > 0) {
          if (it.state === 'todo') {
            added.todo++;
            added.fresh.push({ route: it.route, lang: it.lang });
          } else if (it.state === 'unchanged') added.unchanged++;
        }
      }
      return added;
    },
    /** `transient`: a failure worth another try within the run (no answer, 5xx). */
    setItem(runId: number, route: string, lang: string, state: ItemState, error: string | null = null, transient = false): void {
      q.setItem.run(state, state === 'failed' ? 1 : 0, error, transient ? 1 : 0, runId, route, lang);
    },
    items: (runId: number, state: ItemState) => q.items.all(runId, state),
    /** Failed reads back to 'todo': all of them (a resumed run), or only the transient ones (a retry pass). */
    retryFailed: (runId: number, transientOnly: boolean) => q.retryFailed.run(runId, transientOnly ? 1 : 0).changes,
    counts(runId: number): ItemCounts {
      const c: ItemCounts = { total: 0, todo: 0, fetched: 0, unchanged: 0, gone: 0, failed: 0, unreadable: 0 };
      for (const r of q.counts.all(runId)) {
        c[r.state] = r.n;
        c.total += r.n;
      }
      return c;
    },
    failures: (runId: number) => q.failures.all(runId),
    /** The pages the run found listed but not readable through the API, with the reason. */
    unreadable: (runId: number) => q.unreadable.all(runId),
    transientFailures: (runId: number): number =>
      (db.prepare("SELECT count(*) AS n FROM mirror_items WHERE run_id = ? AND state = 'failed' AND transient = 1").get(runId) as { n: number }).n,
    /** Distinct pages the run has listed or read. */
    routes: (runId: number): number => (db.prepare('SELECT count(DISTINCT route) AS n FROM mirror_items WHERE run_id = ?').get(runId) as { n: number }).n,

    /**
     * Cached rows of the site, in the scope, that the run's listing did not see: the site deleted
     * them. Rows with changes waiting in the outbox are kept (a page created offline is not on the
     * site yet), and languages the plan does not copy are left alone unless their page is gone.
     */
    stale(runId: number, siteId: string, scope: CleanupScope, langs: 'all' | string[], defaultLang: string | null): { id: number; route: string; lang: string }[] {
      const inScope =
        scope.kind === 'site'
          ? '1'
          : scope.kind === 'prefix'
            ? "(p.route = @prefix OR substr(p.route, 1, length(@prefix) + 1) = @prefix || '/')"
            : 'p.parent IN (SELECT value FROM json_each(@parents))';
      const langOk = langs === 'all' ? '1' : "(p.lang = '' OR p.lang IN (SELECT value FROM json_each(@langs)))";
      const sql = `
        SELECT p.id, p.route, p.lang FROM pages p
        WHERE p.site_id = @site AND ${inScope}
          AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.site_id = p.site_id AND (o.route = p.route OR substr(p.route, 1, length(o.route) + 1) = o.route || '/'))
          AND (
            NOT EXISTS (SELECT 1 FROM mirror_items i WHERE i.run_id = @run AND i.route = p.route)
            OR (p.lang <> '' AND p.lang <> @defaultLang AND ${langOk} AND NOT EXISTS (SELECT 1 FROM mirror_items i WHERE i.run_id = @run AND i.route = p.route AND i.lang = p.lang))
          )`;
      return db.prepare(sql).all({
        site: siteId,
        run: runId,
        prefix: scope.kind === 'prefix' ? scope.route : null,
        parents: scope.kind === 'levels' ? JSON.stringify(scope.parents) : null,
        langs: langs === 'all' ? null : JSON.stringify(langs),
        defaultLang: defaultLang ?? '',
      }) as { id: number; route: string; lang: string }[];
    },
    /** Cached rows in a scope (the base of the "would this empty the site?" check). */
    cachedInScope(siteId: string, scope: CleanupScope): number {
      const where =
        scope.kind === 'site'
          ? '1'
          : scope.kind === 'prefix'
            ? "(route = @prefix OR substr(route, 1, length(@prefix) + 1) = @prefix || '/')"
            : 'parent IN (SELECT value FROM json_each(@parents))';
      const r = db.prepare(`SELECT count(*) AS n FROM pages WHERE site_id = @site AND ${where}`).get({
        site: siteId,
        prefix: scope.kind === 'prefix' ? scope.route : null,
        parents: scope.kind === 'levels' ? JSON.stringify(scope.parents) : null,
      }) as { n: number };
      return r.n;
    },
    /** The tree levels read before: parents of the cached default-language rows. */
    cachedLevels(siteId: string): string[] {
      return (db.prepare("SELECT DISTINCT parent FROM pages WHERE site_id = ? AND lang = '' ORDER BY parent").all(siteId) as { parent: string }[]).map((r) => r.parent);
    },
    /** The list row seen before the last read of a page in a language. */
    seenOf(siteId: string, route: string, lang: string): SeenRow | undefined {
      const r = q.seen.get(siteId, route, lang);
      return r && { hash: r.row_hash, readAt: r.read_at };
    },
    /** A list row that did not vouch for the copy: its hash, waiting for the read that follows. */
    saw(siteId: string, route: string, lang: string, hash: string): void {
      q.saw.run(siteId, route, lang, hash);
    },
    /** The page was read after its row was seen, at the server's `readAt` (its Date header; null: unknown, nothing is vouched). */
    readAfterRow(siteId: string, route: string, lang: string, readAt: string | null): void {
      if (readAt !== null) q.read.run(readAt, siteId, route, lang);
    },
    /** The languages the cached default-language row of a page says it is translated into. */
    translatedOf(siteId: string, route: string): string[] {
      const r = q.translated.get(siteId, route);
      if (!r?.translated) return [];
      try {
        const v = JSON.parse(r.translated) as unknown;
        return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
      } catch {
        return [];
      }
    },
    /**
     * Translations in `langs` that the run's default-language rows name but no item of the run
     * reads (their language's listing missed them: a page moved between its pages, say).
     */
    missingTranslations: (runId: number, siteId: string, langs: string[]): { route: string; lang: string }[] =>
      langs.length ? q.missingTranslations.all({ run: runId, site: siteId, langs: JSON.stringify(langs) }) : [],

    /** Queued creates, moves, deletes or translations: the cache shows a tree the site has not seen yet. */
    hasStructuralChanges: (siteId: string): boolean =>
      db.prepare("SELECT 1 FROM outbox WHERE site_id = ? AND op <> 'save' LIMIT 1").get(siteId) !== undefined,
    /**
     * A transaction of cache data (the site has it all; a mirror reads it again): committed without
     * waiting for the disk — synchronous=NORMAL under WAL, so a power cut may undo the last batches
     * (page rows and their run items together) but never corrupts, and the next FULL commit (any
     * draft) makes them durable too. An fsync per batch held the event loop up to 400 ms on a busy
     * disk. Drafts and the outbox keep synchronous=FULL.
     */
    transaction<T>(fn: () => T): T {
      if (db.inTransaction) return fn();
      db.pragma('synchronous = NORMAL');
      try {
        return db.transaction(fn)();
      } finally {
        db.pragma('synchronous = FULL');
      }
    },
  };
}

export type MirrorRepo = ReturnType<typeof mirrorRepo>;
