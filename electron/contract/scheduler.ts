/**
 * The `scheduler.*` channels: a CMS site's scheduled jobs (document 2, "Scheduler"; the real
 * SchedulerController's shapes, recordings 47–49 and 79): each job with its cron expression put in
 * words and its next run times (worked out by the Host), the scheduler's status and the crontab's
 * health with what to do when it is not installed, the history paged, and a run of the due jobs or
 * of all of them, answering each job's state.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

export type JobStatus = 'success' | 'failure' | 'pending' | 'unknown';

export interface SchedulerJob {
  id: string;
  command: string | null;
  expression: string;
  /** The expression in words, or why it cannot be read. */
  words: string;
  /** The next run times (ISO, UTC), none for a job that is off or an expression that cannot be read. */
  nextRuns: string[];
  enabled: boolean;
  status: JobStatus;
  lastRun: string | null;
  error: string | null;
}

export interface SchedulerStatus {
  crontab: 'not_installed' | 'installed' | 'error' | 'unknown';
  /** The line to add to the server's crontab, as the site gives it. */
  cronCommand: string | null;
  schedulerCommand: string | null;
  whoami: string | null;
  health: { status: string | null; message: string | null; lastRun: string | null; lastRunAgeS: number | null; failedJobs24h: number | null; jobsDue: number | null } | null;
  webhookInstalled: boolean;
  webhookEnabled: boolean;
}

export interface JobRun {
  jobId: string;
  status: JobStatus;
  lastRun: string | null;
  error: string | null;
}

export interface SchedulerHistoryPage {
  items: JobRun[];
  total: number | null;
  page: number;
  perPage: number;
  next: number | null;
}

export interface SchedulerRunResult {
  message: string | null;
  forced: boolean;
  states: JobRun[];
}

export const schedulerChannels = {
  'scheduler.jobs': channel<{ jobs: SchedulerJob[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  'scheduler.status': channel<SchedulerStatus & { copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  'scheduler.history': channel<SchedulerHistoryPage>()(
    v.strictObject({
      siteId: SiteId,
      page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1),
      perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100, 'At most 100 a page.')), 50),
    }),
  ),
  /** Runs the due jobs now, or every job (`force`); never queued. */
  'scheduler.run': channel<SchedulerRunResult>()(v.strictObject({ siteId: SiteId, force: v.optional(v.boolean()), /** run although an earlier run's answer was lost */ again: v.optional(v.boolean()) })),
};

export const schedulerEvents = {};
