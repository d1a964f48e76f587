/**
 * A CMS site's demo mode: its status, kept as a copy for offline reading with its time (the
 * countdown runs from when the site gave it), and the baseline capture and reset, sent now or
 * refused with the reason (never queued: a reset hours later would throw away what was written
 * meanwhile). A write's answer brings the status, which becomes the copy.
 */
import { cmsDemo } from '../api/cms/demo';
import type { DemoActionResult } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, type SiteCallDeps } from '../sites/calls';

const STATUS_KEY = 'demo:status';

export function demoService(deps: SiteCallDeps & { siteCache: SiteCacheRepo; now?: () => number }) {
  const { t, withCopy, sendNow } = siteCalls(deps);
  const now = () => new Date((deps.now ?? Date.now)());
  const act = async (siteId: string, action: 'baseline' | 'reset'): Promise<DemoActionResult> => {
    const refused = action === 'baseline' ? 'The demo baseline was not captured' : 'The demo content was not reset';
    const result = await sendNow(refused, () => cmsDemo.act(t(siteId), action, now));
    deps.siteCache.put(siteId, STATUS_KEY, result.status);
    return result;
  };
  return {
    async status(siteId: string) {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, STATUS_KEY, (transport) => cmsDemo.status(transport, now));
      return { ...value, copiedAt };
    },
    baseline: (siteId: string) => act(siteId, 'baseline'),
    reset: (siteId: string) => act(siteId, 'reset'),
  };
}

export type DemoService = ReturnType<typeof demoService>;
