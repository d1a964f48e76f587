/** The `system.*` channels (contract/system.ts) on the system service. */
import type { systemChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SystemService } from './service';

export function systemHandlers(system: Lazy<SystemService>): HandlersOf<typeof systemChannels> {
  return {
    'system.info': ({ siteId }) => system().info(siteId),
    'system.clearCache': ({ siteId, scope }) => system().clearCache(siteId, scope),
    'system.reports': ({ siteId }) => system().reports(siteId),
  };
}
