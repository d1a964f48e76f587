/**
 * A CMS site's scheduler: its jobs with their expressions in words and next runs (cron.ts), its
 * status, its history, and a run (never queued). Jobs and status are kept as copies for offline
 * reading with their time.
 */
import { AppError, mayHaveArrived } from '../base/app-error';
import { timeOfDay, UncertainWrites } from '../base/uncertain';
import { cmsScheduler, type RawJob } from '../api/cms/scheduler';
import type { SchedulerJob } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import { describeCron, nextRuns, parseCron } from './cron';

const JOBS_KEY = 'scheduler:jobs';
const STATUS_KEY = 'scheduler:status';

/** A job with its expression put in words and its next runs after `now`. */
export function explainJob(job: RawJob, now: Date): SchedulerJob {
  const c = parseCron(job.expression);
  if ('error' in c) return { ...job, words: `Sitedesk cannot read this expression: ${c.error}`, nextRuns: [] };
  return { ...job, words: describeCron(c), nextRuns: job.enabled ? nextRuns(c, now).map((d) => d.toISOString()) : [] };
}

export function schedulerService(deps: SiteCallDeps & { siteCache: SiteCacheRepo; now?: () => number }) {
  const { t, read, withCopy, sendNow } = siteCalls(deps);
  const now = () => new Date((deps.now ?? Date.now)());
  /** A run whose answer was lost: the same run asked again must first be checked (jobs would run twice). */
  const uncertain = new UncertainWrites<Record<string, never>>(deps.now);
  return {
    async jobs(siteId: string) {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, JOBS_KEY, (transport) => cmsScheduler.jobs(transport));
      return { jobs: value.map((j) => explainJob(j, now())), copiedAt };
    },
    async status(siteId: string) {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, STATUS_KEY, (transport) => cmsScheduler.status(transport));
      return { ...value, copiedAt };
    },
    history: (siteId: string, page: number, perPage: number) => cmsScheduler.history(read(siteId), { page, perPage }),
    async run(siteId: string, force: boolean, again = false) {
      const key = `${siteId}\n${force ? 'all' : 'due'}`;
      const earlier = uncertain.get(key);
      if (earlier && !again) {
        throw new AppError({ code: 'conflict', message: `The site may already have run its jobs: the answer to the run at ${timeOfDay(earlier.at)} was lost. Look at the history first; run again only if they did not run.` });
      }
      try {
        const result = await sendNow('The scheduler was not run', () => cmsScheduler.run(t(siteId), force));
        uncertain.forget(key);
        return result;
      } catch (err) {
        if (mayHaveArrived(err)) uncertain.remember(key, {});
        throw err;
      }
    },
  };
}

export type SchedulerService = ReturnType<typeof schedulerService>;
