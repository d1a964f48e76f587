/**
 * The site's scheduler: its jobs with real cron expressions evaluated on the sandbox's clock, the
 * state each job was left in, a run log, and the crontab's health (after Grav core's
 * Scheduler::run() and getHealthStatus(), and getgrav/grav-plugin-api:SchedulerController).
 *
 * Because the sandbox's clock jumps instead of ticking, a job is due when one of its fire times
 * passed since the scheduler last ran (what a crontab calling the scheduler every minute would
 * have run), not only when the current minute matches. Jobs never run stay `pending`; a job named
 * in the `failingJobs` knob fails with an error every time it runs; a disabled job never runs,
 * forced or not (Grav queues only enabled jobs).
 */
import { parseCron, nextRun } from './cron';

export type CrontabStatus = 'not_installed' | 'installed' | 'error' | 'unknown';

export interface JobDef {
  id: string;
  command: string;
  expression: string;
  enabled: boolean;
}

export interface JobState {
  state: 'success' | 'failure';
  'last-run': number;
  error?: string;
}

export interface HistoryEntry {
  job_id: string;
  status: 'success' | 'failure';
  last_run: number;
  error: string | null;
}

export interface SchedulerKnobs {
  /** what `crontab -l` says (spec default `installed`; real default `error`, as recorded) */
  crontab: CrontabStatus;
  /** jobs that fail whenever they run (default ['feed-import']) */
  failingJobs: string[];
}

/** The jobs a site registers: the core's three (recording 47) and a plugin's two. */
export const DEFAULT_JOBS: readonly JobDef[] = [
  { id: 'cache-purge', command: 'Grav\\Common\\Cache::purgeJob', expression: '0 4 * * *', enabled: true },
  { id: 'cache-clear', command: 'Grav\\Common\\Cache::clearJob', expression: '0 3 * * *', enabled: true },
  { id: 'default-site-backup', command: 'Grav\\Common\\Backup\\Backups::backup', expression: '0 3 * * *', enabled: false },
  { id: 'sitemap-refresh', command: 'Grav\\Plugin\\SitemapPlugin::refresh', expression: '*/15 * * * *', enabled: true },
  { id: 'feed-import', command: 'Grav\\Plugin\\FeedImportPlugin::import', expression: '30 */6 * * mon-fri', enabled: true },
];

export const DEMO_RESET_JOB = 'api-demo-reset';
const DEMO_RESET_COMMAND = 'Grav\\Plugin\\Api\\Demo\\DemoManager::runScheduledReset';

/** `2026-11-23 20:07:33`, as the scheduler's last_run.txt holds it (UTC here). */
export function phpDateTime(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** PHP's date('c') in UTC: `2026-11-23T20:09:44+00:00`. */
export function isoC(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19) + '+00:00';
}

export class Scheduler {
  readonly jobs: JobDef[] = DEFAULT_JOBS.map((j) => ({ ...j }));
  readonly states = new Map<string, JobState>();
  /** every job run, oldest first */
  readonly log: HistoryEntry[] = [];
  /** epoch seconds of the last scheduler run (null: never ran) */
  lastRun: number | null = null;
  readonly knobs: SchedulerKnobs;
  /** when the scheduler first looked (epoch seconds); due times count from here before a first run */
  private since: number | null = null;
  /** jobs added at run time by other parts (demo mode's reset job), with what they do */
  private readonly extra = new Map<string, { def: () => JobDef | null; action: () => void }>();

  constructor(
    private readonly now: () => number,
    knobs: Partial<SchedulerKnobs>,
    flavor: 'spec' | 'real',
  ) {
    this.knobs = { crontab: flavor === 'real' ? 'error' : 'installed', failingJobs: ['feed-import'], ...knobs };
  }

  /** A job registered by another part; `def` answers null while it is not registered (Grav's onSchedulerInitialized listeners). */
  register(id: string, def: () => JobDef | null, action: () => void): void {
    this.extra.set(id, { def, action });
  }

  /** Every registered job, in registration order. */
  all(): JobDef[] {
    const extra = [...this.extra.values()].map((e) => e.def()).filter((d): d is JobDef => d !== null);
    return [...this.jobs, ...extra];
  }

  /** Whether a job's fire time passed since the scheduler last ran (or since the start). */
  isDue(job: JobDef, nowMs = this.now()): boolean {
    // looked at first on the first request, so a test can set the clock before
    this.since ??= Math.floor(nowMs / 1000);
    const from = (this.lastRun ?? this.since) * 1000;
    const next = nextRun(parseCron(job.expression), from);
    return next !== null && next <= nowMs;
  }

  /** The next time a job fires after now (epoch seconds), for status. */
  nextRunOf(job: JobDef): number | null {
    const next = nextRun(parseCron(job.expression), this.now());
    return next === null ? null : Math.floor(next / 1000);
  }

  /** Runs the due enabled jobs (every enabled job when forced); returns the states of all jobs run so far. */
  run(force: boolean): Map<string, JobState> {
    const nowMs = this.now();
    const sec = Math.floor(nowMs / 1000);
    for (const job of this.all()) {
      if (!job.enabled || !(force || this.isDue(job, nowMs))) continue;
      let error: string | null = null;
      if (this.knobs.failingJobs.includes(job.id)) error = `Job ${job.id} failed: the remote feed answered 503 Service Unavailable`;
      else {
        try {
          this.extra.get(job.id)?.action();
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
      }
      const state: JobState = error === null ? { state: 'success', 'last-run': sec } : { state: 'failure', 'last-run': sec, error };
      this.states.set(job.id, state);
      this.log.push({ job_id: job.id, status: state.state, last_run: sec, error });
    }
    this.lastRun = sec;
    return this.states;
  }

  /** The health block of /scheduler/status (Grav core's getHealthStatus()). */
  health(): Record<string, unknown> {
    const nowMs = this.now();
    const sec = Math.floor(nowMs / 1000);
    const enabled = this.all().filter((j) => j.enabled);
    const due = enabled.filter((j) => this.isDue(j, nowMs)).length;
    const age = this.lastRun === null ? null : sec - this.lastRun;
    const failed = this.log.filter((h) => h.status === 'failure' && h.last_run > sec - 86400).length;
    const out: Record<string, unknown> = {
      status: 'healthy',
      last_run: this.lastRun === null ? null : phpDateTime(this.lastRun),
      last_run_age: age,
      queue_size: 0,
      failed_jobs_24h: failed,
      scheduled_jobs: enabled.length,
      jobs_due: due,
      webhook_enabled: false,
      health_check_enabled: true,
      timestamp: isoC(sec),
    };
    if (due === 0) out.message = 'No jobs currently due';
    else if (age === null || age > 300) {
      out.status = 'warning';
      out.message = `${due} job(s) are due to run`;
    }
    return out;
  }

  static demoResetJob(intervalMinutes: number): JobDef {
    // sub-hourly intervals map to a step; an hour or more falls back to hourly (the lazy path keeps exact timing)
    return { id: DEMO_RESET_JOB, command: DEMO_RESET_COMMAND, expression: intervalMinutes >= 60 ? '0 * * * *' : `*/${intervalMinutes} * * * *`, enabled: true };
  }
}
