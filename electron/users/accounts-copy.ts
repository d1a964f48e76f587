/**
 * The copy of a site's accounts kept for offline reading — only where the person chose it for that
 * site (accounts are personal data), in site_cache beside the choice: every account as the list
 * last read them, refreshed in the background when the list is read online, changed with every
 * write the site confirms (an account deleted is gone from it at once), and removed whole when the
 * person turns it off (and with the site). Nothing of it is written to a log.
 */
import type { CmsUser, UserPage } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';

export const KEEP_KEY = 'users:keep';
export const COPY_KEY = 'users:copy';
/** The account form (blueprint, permission tree, groups): not personal data, kept like the settings forms. */
export const FORM_KEY = 'users:form';
/** How old a copy may get before a list read online refreshes it in the background. */
export const REFRESH_AFTER_MS = 5 * 60_000;
/** At most this many accounts are kept (the People view reads as many). */
export const COPY_MAX = 5000;

export function accountsCopy(cache: SiteCacheRepo, now: () => number = Date.now) {
  const copy = (siteId: string) => cache.get<CmsUser[]>(siteId, COPY_KEY);
  return {
    keeps: (siteId: string): boolean => cache.get<boolean>(siteId, KEEP_KEY)?.value === true,

    /** The choice; turning it off removes the copy. */
    setKeep(siteId: string, keep: boolean): void {
      if (keep) cache.put(siteId, KEEP_KEY, true);
      else {
        cache.remove(siteId, KEEP_KEY);
        cache.remove(siteId, COPY_KEY);
      }
    },

    state(siteId: string): { keep: boolean; copiedAt: string | null; count: number } {
      const c = copy(siteId);
      return { keep: this.keeps(siteId), copiedAt: c?.fetchedAt ?? null, count: c?.value.length ?? 0 };
    },

    /** Whether the copy is missing or older than REFRESH_AFTER_MS (and so worth reading again). */
    stale(siteId: string): boolean {
      const c = copy(siteId);
      return !c || now() - Date.parse(c.fetchedAt) > REFRESH_AFTER_MS;
    },

    replace(siteId: string, users: readonly CmsUser[]): void {
      if (this.keeps(siteId)) cache.put(siteId, COPY_KEY, users.slice(0, COPY_MAX).map(withoutExtra), new Date(now()).toISOString());
    },

    /** An account the site confirmed (made or changed): in the copy as the site answered it. */
    put(siteId: string, user: CmsUser): void {
      const c = copy(siteId);
      if (!c || !this.keeps(siteId)) return;
      const list = c.value.filter((u) => u.username !== user.username);
      list.push(withoutExtra(user));
      list.sort((a, b) => a.username.localeCompare(b.username));
      cache.put(siteId, COPY_KEY, list, c.fetchedAt);
    },

    remove(siteId: string, username: string): void {
      const c = copy(siteId);
      if (c) cache.put(siteId, COPY_KEY, c.value.filter((u) => u.username !== username), c.fetchedAt);
    },

    get(siteId: string, username: string): { user: CmsUser; copiedAt: string } | null {
      const c = copy(siteId);
      const user = c?.value.find((u) => u.username === username);
      return c && user ? { user, copiedAt: c.fetchedAt } : null;
    },

    /**
     * A page of the copy for a list query: its search applies (username, email, full name); a
     * plugin's tab cannot (its rule lives on the site), so the whole list is shown and the page says so.
     */
    page(siteId: string, q: { page?: number; perPage?: number; search?: string; filter?: string; access?: string; group?: string }): UserPage | null {
      const c = copy(siteId);
      if (!c) return null;
      const needle = q.search?.trim().toLowerCase() ?? '';
      let rows = needle ? c.value.filter((u) => [u.username, u.email, u.fullname].some((x) => x.toLowerCase().includes(needle))) : c.value;
      if (q.group) rows = rows.filter((u) => u.groups.includes(q.group!));
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 50;
      const items = rows.slice((page - 1) * perPage, page * perPage);
      const ignored = (q.filter !== undefined && q.filter !== 'all') || Boolean(q.access);
      return { items, total: rows.length, page, perPage, more: page * perPage < rows.length, copiedAt: c.fetchedAt, ...(ignored ? { filterIgnored: true } : {}) };
    },
  };
}

/** Plugin column values are for the page the site served: not kept. */
const withoutExtra = (u: CmsUser): CmsUser => ({ ...u, extra: {} });

export type AccountsCopy = ReturnType<typeof accountsCopy>;
