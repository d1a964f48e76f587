/** The `overview.*` channels (contract/overview.ts) on the overview service. */
import type { overviewChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { OverviewService } from './service';

export function overviewHandlers(overview: Lazy<OverviewService>): HandlersOf<typeof overviewChannels> {
  return {
    'overview.site': ({ siteId }) => overview().site(siteId),
  };
}
