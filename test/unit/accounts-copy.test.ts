/**
 * The offline copy of a site's accounts over a stand-in site_cache: nothing kept without the
 * choice, a page of it for a list query (search and group apply, a tab's rule cannot and is said),
 * confirmed writes reflected in order, plugin values never kept, age against the clock.
 */
import { describe, expect, test } from 'vitest';
import type { CmsUser } from '../../electron/contract';
import type { SiteCacheRepo } from '../../electron/db/repos/site-cache';
import { accountsCopy, COPY_KEY, REFRESH_AFTER_MS } from '../../electron/users/accounts-copy';

function memoryCache(): SiteCacheRepo & { keys(): string[] } {
  const rows = new Map<string, { value: string; fetchedAt: string }>();
  return {
    get: <T>(siteId: string, key: string) => {
      const r = rows.get(`${siteId}|${key}`);
      return r ? { value: JSON.parse(r.value) as T, fetchedAt: r.fetchedAt } : undefined;
    },
    put: (siteId, key, value, now = new Date().toISOString()) => void rows.set(`${siteId}|${key}`, { value: JSON.stringify(value), fetchedAt: now }),
    remove: (siteId, key) => void rows.delete(`${siteId}|${key}`),
    keys: () => [...rows.keys()],
  } as SiteCacheRepo & { keys(): string[] };
}

const user = (username: string, o: Partial<CmsUser> = {}): CmsUser =>
  ({ username, email: `${username}@example.test`, fullname: username.toUpperCase(), state: 'enabled', groups: [], access: {}, twofaEnabled: false, avatarUrl: null, extra: { plan: 'pro' }, ...o }) as CmsUser;

describe('accountsCopy', () => {
  const T0 = Date.parse('2026-11-24T10:00:00Z');

  test('without the choice nothing is kept, whatever is offered', () => {
    const cache = memoryCache();
    const copy = accountsCopy(cache, () => T0);
    copy.replace('s', [user('ada')]);
    copy.put('s', user('bob'));
    expect(cache.keys()).toEqual([]);
    expect(copy.page('s', {})).toBeNull();
    expect(copy.state('s')).toEqual({ keep: false, copiedAt: null, count: 0 });
  });

  test('kept: a page answers the search and group, says a tab cannot apply, and holds no plugin values', () => {
    const cache = memoryCache();
    const copy = accountsCopy(cache, () => T0);
    copy.setKeep('s', true);
    copy.replace('s', [user('ada', { groups: ['editors'] }), user('bob', { email: 'Robert@Example.test' }), user('cyd', { groups: ['editors'] })]);
    expect(copy.state('s')).toEqual({ keep: true, copiedAt: new Date(T0).toISOString(), count: 3 });
    expect(copy.page('s', { search: 'robert' })!.items.map((u) => u.username)).toEqual(['bob']);
    expect(copy.page('s', { group: 'editors' })!.items.map((u) => u.username)).toEqual(['ada', 'cyd']);
    const paged = copy.page('s', { perPage: 2, page: 2 })!;
    expect(paged).toMatchObject({ total: 3, page: 2, perPage: 2, more: false });
    expect(paged.items.map((u) => u.username)).toEqual(['cyd']);
    expect(copy.page('s', { perPage: 2 })!.more).toBe(true);
    expect(copy.page('s', {})!.filterIgnored).toBeUndefined();
    expect(copy.page('s', { filter: 'all' })!.filterIgnored).toBeUndefined();
    expect(copy.page('s', { filter: 'members' })!.filterIgnored).toBe(true);
    expect(copy.page('s', { access: 'api.pages.write' })!.filterIgnored).toBe(true);
    expect(copy.get('s', 'ada')!.user.extra).toEqual({});
  });

  test('confirmed writes: put in name order keeping the copy’s time, removed, and turned off it is gone', () => {
    const cache = memoryCache();
    let now = T0;
    const copy = accountsCopy(cache, () => now);
    copy.setKeep('s', true);
    copy.replace('s', [user('ada'), user('cyd')]);
    now += 60_000;
    copy.put('s', user('bob'));
    copy.put('s', user('ada', { fullname: 'Ada L.' }));
    expect(copy.page('s', {})!.items.map((u) => [u.username, u.fullname])).toEqual([
      ['ada', 'Ada L.'],
      ['bob', 'BOB'],
      ['cyd', 'CYD'],
    ]);
    expect(copy.state('s').copiedAt).toBe(new Date(T0).toISOString()); // a write is not a fresh read of the whole list
    copy.remove('s', 'bob');
    expect(copy.get('s', 'bob')).toBeNull();
    copy.setKeep('s', false);
    expect(cache.keys()).toEqual([]);
    expect(cache.get('s', COPY_KEY)).toBeUndefined();
  });

  test('stale when missing or older than the refresh age', () => {
    const cache = memoryCache();
    let now = T0;
    const copy = accountsCopy(cache, () => now);
    copy.setKeep('s', true);
    expect(copy.stale('s')).toBe(true);
    copy.replace('s', []);
    expect(copy.stale('s')).toBe(false);
    now += REFRESH_AFTER_MS + 1;
    expect(copy.stale('s')).toBe(true);
  });
});
