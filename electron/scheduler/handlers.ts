/** The `scheduler.*` channels (contract/scheduler.ts) on the scheduler service. */
import type { schedulerChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SchedulerService } from './service';

export function schedulerHandlers(scheduler: Lazy<SchedulerService>): HandlersOf<typeof schedulerChannels> {
  return {
    'scheduler.jobs': ({ siteId }) => scheduler().jobs(siteId),
    'scheduler.status': ({ siteId }) => scheduler().status(siteId),
    'scheduler.history': ({ siteId, page, perPage }) => scheduler().history(siteId, page, perPage),
    'scheduler.run': ({ siteId, force, again }) => scheduler().run(siteId, force ?? false, again),
  };
}
