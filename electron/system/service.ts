/**
 * A CMS site's system panel: its information and reports (kept as copies, readable while the site
 * is away with their time) and the cache cleared per kind (never queued: done now or refused with
 * the reason).
 */
import { cmsSystem } from '../api/cms/system';
import type { CacheScope, SiteReport, SystemInfo } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, type SiteCallDeps } from '../sites/calls';

const INFO_KEY = 'system:info';
const REPORTS_KEY = 'system:reports';

export function systemService(deps: SiteCallDeps & { siteCache: SiteCacheRepo }) {
  const { t, withCopy, sendNow } = siteCalls(deps);
  return {
    async info(siteId: string): Promise<SystemInfo> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, INFO_KEY, (transport) => cmsSystem.info(transport));
      return { ...value, copiedAt };
    },
    async reports(siteId: string): Promise<{ reports: SiteReport[]; copiedAt: string | null }> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, REPORTS_KEY, (transport) => cmsSystem.reports(transport));
      return { reports: value, copiedAt };
    },
    clearCache: (siteId: string, scope: CacheScope) => sendNow('The cache was not cleared', () => cmsSystem.clearCache(t(siteId), scope)),
  };
}

export type SystemService = ReturnType<typeof systemService>;
