/**
 * Auto-sync ("auto-sync when back online", on by default): when a site that was offline
 * answers again, its outbox is pushed. At start, sites with changes still queued are probed, so a
 * restart while offline syncs as soon as the site is back.
 */
import type { OfflineSettings } from '../contract';
import { connectivity, type Connectivity } from './connectivity';

export interface AutoSyncDeps {
  /** CMS sites (ids). */
  sites: () => string[];
  settings: (siteId: string) => OfflineSettings;
  /** Changes waiting in the site's outbox. */
  pending: (siteId: string) => number;
  /** The waits of a site that was offline are over once it answers. */
  clearBackoff: (siteId: string) => void;
  push: (siteId: string) => Promise<unknown>;
  ping: (siteId: string) => Promise<unknown>;
  /** sync.status: a site went online or offline. */
  statusChanged: () => void;
  log?: (message: string, extra?: Record<string, unknown>) => void;
  probeDelayMs?: (attempt: number) => number;
}

export function autoSync(deps: AutoSyncDeps): { connectivity: Connectivity; start(): void; close(): void } {
  const conn = connectivity({
    probe: deps.ping,
    ...(deps.probeDelayMs ? { delayMs: deps.probeDelayMs } : {}),
    changed(siteId, online, back) {
      deps.statusChanged();
      if (!online || !back || !deps.settings(siteId).autoSync || deps.pending(siteId) === 0) return;
      deps.clearBackoff(siteId);
      // a push that fails offline marks the site offline again: the probe goes on and tries later
      void deps.push(siteId).catch((err: unknown) => deps.log?.('auto-sync push failed', { siteId, error: err instanceof Error ? err.message : String(err) }));
    },
  });
  return {
    connectivity: conn,
    start() {
      for (const id of deps.sites()) if (deps.pending(id) > 0 && deps.settings(id).autoSync) conn.watch(id);
    },
    close: () => conn.close(),
  };
}
