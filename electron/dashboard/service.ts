/**
 * A CMS site's dashboard: its four parts read at once, each on its own (a part the site refuses
 * is said and the others shown), kept as a copy for offline reading with its time; hiding a
 * notification is sent now or refused with the reason (never queued).
 */
import { isAppError } from '../base/app-error';
import { cmsDashboard } from '../api/cms/dashboard';
import type { DashboardView } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import type { Transport } from '../api/transport';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';

const VIEW_KEY = 'dashboard:view';

async function viewOf(transport: Transport): Promise<Omit<DashboardView, 'copiedAt'>> {
  const problems: DashboardView['problems'] = [];
  const part = async <T>(name: DashboardView['problems'][number]['part'], read: () => Promise<T>, none: T): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      // nothing answered at all: the whole read fails, so the copy answers instead
      if (unreachable(err) || !isAppError(err)) throw err;
      problems.push({ part: name, reason: err.message });
      return none;
    }
  };
  const [stats, popularity, notifications, feed] = await Promise.all([
    part('stats', () => cmsDashboard.stats(transport), null),
    part('popularity', () => cmsDashboard.popularity(transport), null),
    part('notifications', () => cmsDashboard.notifications(transport), []),
    part('feed', () => cmsDashboard.feed(transport), []),
  ]);
  return { stats, popularity, notifications, feed, problems };
}

export function dashboardService(deps: SiteCallDeps & { siteCache: SiteCacheRepo }) {
  const { t, withCopy, sendNow } = siteCalls(deps);
  return {
    async view(siteId: string): Promise<DashboardView> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, VIEW_KEY, viewOf);
      return { ...value, copiedAt };
    },
    async hide(siteId: string, id: string): Promise<{ id: string }> {
      await sendNow('The notification was not hidden', () => cmsDashboard.hide(t(siteId), id));
      // the copy follows: the hidden notice is gone from it too
      const kept = deps.siteCache.get<Omit<DashboardView, 'copiedAt'>>(siteId, VIEW_KEY);
      if (kept) deps.siteCache.put(siteId, VIEW_KEY, { ...kept.value, notifications: kept.value.notifications.filter((n) => n.id !== id) }, kept.fetchedAt);
      return { id };
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
