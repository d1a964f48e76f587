/**
 * The offline copy of a site's subscribers — only where the person turned it on for that site
 * (subscribers are personal data; by default only counts, lists, tags and segments are kept). The
 * choice is kept in site_cache (`mailer:keep`), the people in `mailer_people` (db/repos/mailer.ts),
 * the copy's time and size in site_cache (`mailer:copy`). Turned on, it is filled in the background
 * (the table read newest first, 200 a page, at most MAILER_COPY_MAX people), read again the same
 * way when the table is read online and the copy is older than REFRESH_AFTER_MS, and changed by
 * every write the site confirms (a person deleted or erased leaves it at once, found by the SHA-256
 * of the address). Turned off, or the site removed, the rows go at once and the WAL is written back
 * (the database runs with secure_delete, so removed people are overwritten in the file). Nothing
 * of it is written to a log.
 */
import { isAppError } from '../base/app-error';
import type { MailerOfflineState, Subscriber, SubscriberRow } from '../contract';
import { MAILER_COPY_MAX } from '../contract';
import { suppressionHash } from '../common/email-hash';
import type { MailerRepo } from '../db/repos/mailer';
import type { SiteCacheRepo } from '../db/repos/site-cache';

export const KEEP_KEY = 'mailer:keep';
export const COPY_KEY = 'mailer:copy';
/** How old the copy may get before a table read online fills it again in the background. */
export const REFRESH_AFTER_MS = 15 * 60_000;
const FILL_PAGE = 200;
/** Progress is announced at most this often during a fill. */
const ANNOUNCE_MS = 250;

interface CopyInfo {
  total: number | null;
  complete: boolean;
  problem: string | null;
}

export interface CopyDeps {
  repo: MailerRepo;
  siteCache: SiteCacheRepo;
  emit: (state: MailerOfflineState) => void;
  /** A page of the site's table, newest first, read as background work. */
  readPage: (siteId: string, page: number, perPage: number, signal: AbortSignal) => Promise<{ items: SubscriberRow[]; total: number; next: number | null }>;
  now?: () => number;
  /** Copy bound (tests lower it). */
  max?: number;
}

const withHash = (rows: readonly SubscriberRow[]) => rows.map((row) => ({ row, hash: suppressionHash(row.email) }));

export function mailerCopy(deps: CopyDeps) {
  const now = () => (deps.now ?? Date.now)();
  const max = deps.max ?? MAILER_COPY_MAX;
  const fills = new Map<string, { stop: AbortController; done: number; total: number | null; finished: Promise<void> }>();

  const keeps = (siteId: string): boolean => deps.siteCache.get<boolean>(siteId, KEEP_KEY)?.value === true;
  const info = (siteId: string) => deps.siteCache.get<CopyInfo>(siteId, COPY_KEY);

  function state(siteId: string): MailerOfflineState {
    const keep = keeps(siteId);
    const i = info(siteId);
    const f = fills.get(siteId);
    return {
      siteId,
      keep,
      copiedAt: keep ? (i?.fetchedAt ?? null) : null,
      count: keep ? deps.repo.count(siteId) : 0,
      total: keep ? (i?.value.total ?? null) : null,
      complete: keep && i !== undefined && i.value.complete,
      keeping: f ? { done: f.done, total: f.total } : null,
      problem: keep ? (i?.value.problem ?? null) : null,
    };
  }

  const announce = (siteId: string) => deps.emit(state(siteId));

  /** Reads the site's table newest first into the copy; the people it did not see leave the copy once it read to the end (or the bound). */
  function fill(siteId: string): void {
    if (fills.has(siteId) || !keeps(siteId)) return;
    const stop = new AbortController();
    const job = { stop, done: 0, total: null as number | null, finished: Promise.resolve() };
    fills.set(siteId, job);
    job.finished = (async () => {
      const gen = deps.repo.nextGen(siteId);
      let last = 0;
      let problem: string | null = null;
      let whole = false;
      try {
        for (let page = 1; ; ) {
          const r = await deps.readPage(siteId, page, FILL_PAGE, stop.signal);
          if (stop.signal.aborted || !keeps(siteId)) return;
          const room = Math.max(0, max - job.done);
          deps.repo.put(siteId, withHash(r.items.slice(0, room)), gen);
          job.done += Math.min(room, r.items.length);
          job.total = r.total;
          if (now() - last >= ANNOUNCE_MS) {
            last = now();
            announce(siteId);
          }
          if (r.next === null || job.done >= max || r.items.length === 0) {
            whole = true;
            break;
          }
          page = r.next;
        }
      } catch (err) {
        if (stop.signal.aborted) return;
        // what was read stays; the next fill goes over it again
        problem = isAppError(err) ? err.message : 'The copy could not be filled.';
      } finally {
        fills.delete(siteId);
      }
      if (!keeps(siteId)) return;
      if (whole) deps.repo.sweep(siteId, gen);
      deps.siteCache.put(siteId, COPY_KEY, { total: job.total, complete: whole && job.total !== null && deps.repo.count(siteId) >= job.total, problem } satisfies CopyInfo, new Date(now()).toISOString());
      announce(siteId);
    })();
  }

  return {
    keeps,
    state,

    /** The person's choice: on fills the copy in the background; off removes it from this computer at once. */
    async setKeep(siteId: string, keep: boolean): Promise<MailerOfflineState> {
      if (keep) {
        deps.siteCache.put(siteId, KEEP_KEY, true);
        fill(siteId);
      } else {
        const f = fills.get(siteId);
        f?.stop.abort();
        deps.siteCache.remove(siteId, KEEP_KEY);
        deps.siteCache.remove(siteId, COPY_KEY);
        deps.repo.clear(siteId);
        deps.repo.checkpoint();
        await f?.finished;
      }
      const s = state(siteId);
      deps.emit(s);
      return s;
    },

    /** Fills the copy again in the background when it is kept and older than REFRESH_AFTER_MS (a table read online). */
    refreshIfStale(siteId: string): void {
      if (!keeps(siteId) || fills.has(siteId)) return;
      const i = info(siteId);
      if (!i || now() - Date.parse(i.fetchedAt) > REFRESH_AFTER_MS) fill(siteId);
    },

    /** Fills it again now (after a bulk action changed people the Host cannot name). */
    refresh(siteId: string): void {
      if (keeps(siteId)) fill(siteId);
    },

    /** Rows the site just answered (a page of the table, a write it confirmed). */
    put(siteId: string, rows: readonly SubscriberRow[]): void {
      if (keeps(siteId) && rows.length) deps.repo.put(siteId, withHash(rows));
    },

    putDetail(siteId: string, s: Subscriber): void {
      if (keeps(siteId)) deps.repo.putDetail(siteId, s, suppressionHash(s.email));
    },

    /** A person deleted on the site. */
    remove(siteId: string, id: number): number {
      const n = deps.repo.remove(siteId, id);
      if (n) deps.repo.checkpoint();
      return n;
    },

    /** An address erased on the site: whoever holds it leaves the copy. */
    removeAddress(siteId: string, email: string): number {
      const n = deps.repo.removeByHash(siteId, suppressionHash(email));
      if (n) deps.repo.checkpoint();
      return n;
    },

    /** Whether there is a copy to read (kept, with people in it). */
    has(siteId: string): boolean {
      return keeps(siteId) && deps.repo.count(siteId) > 0;
    },

    /** When the copy was last filled (or, before a fill ended, when it was turned on). */
    copiedAt: (siteId: string): string => info(siteId)?.fetchedAt ?? deps.siteCache.get<boolean>(siteId, KEEP_KEY)?.fetchedAt ?? new Date(now()).toISOString(),

    /** The site is gone (its rows went with it): any fill stops. */
    dropped(siteId: string): void {
      fills.get(siteId)?.stop.abort();
    },

    /** Stops every fill (the Host closes). */
    async close(): Promise<void> {
      const all = [...fills.values()];
      for (const f of all) f.stop.abort();
      await Promise.all(all.map((f) => f.finished));
    },
  };
}

export type MailerCopy = ReturnType<typeof mailerCopy>;
