/** The `dashboard.*` channels (contract/dashboard.ts) on the dashboard service. */
import type { dashboardChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { DashboardService } from './service';

export function dashboardHandlers(dashboard: Lazy<DashboardService>): HandlersOf<typeof dashboardChannels> {
  return {
    'dashboard.view': ({ siteId }) => dashboard().view(siteId),
    'dashboard.hide': ({ siteId, id }) => dashboard().hide(siteId, id),
  };
}
