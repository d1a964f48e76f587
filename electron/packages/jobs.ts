/**
 * The package work queue: jobs start at once (queued), a site does one at a time (its package
 * manager is not made for two installs at once), and a few sites work side by side, so an update
 * across twenty sites neither waits for each in turn nor floods the machine. Each change of a job
 * is reported (`emit`), and jobs are kept for the Host's life (the newest 500 finished ones), so
 * the person can leave the work running, look at it from anywhere and retry what failed. What a job
 * does is the executor's; this module only orders, times and records.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../base/app-error';
import type { PackageJob, PackageJobRequest } from '../contract';

/** What an executor answers for a job that worked. */
export type JobOutcome = Partial<Pick<PackageJob, 'message' | 'fromVersion' | 'toVersion' | 'results'>> & {
  /** The job was not done on purpose (a symlinked package, a site away): said, not a failure. */
  skipped?: boolean;
};

export interface JobRunnerDeps {
  execute(job: PackageJob, request: PackageJobRequest): Promise<JobOutcome>;
  emit(job: PackageJob): void;
  label(request: PackageJobRequest): string;
  /** Sites worked on at once (default 3). */
  concurrency?: number;
  now?: () => number;
}

const KEEP_FINISHED = 500;

/** The request kept for a retry: a licence is a secret the person typed, not kept past the run. */
function retryOf(request: PackageJobRequest): PackageJobRequest | null {
  if (request.kind === 'directZip') return null; // its staged bytes are handed over once
  if (request.kind === 'install') {
    const { licence: _licence, ...rest } = request;
    return rest;
  }
  return request;
}

export function packageJobs(deps: JobRunnerDeps) {
  const now = deps.now ?? Date.now;
  const concurrency = deps.concurrency ?? 3;
  const jobs = new Map<string, { job: PackageJob; request: PackageJobRequest }>();
  const busySites = new Set<string>();
  let running = 0;
  let closed = false;

  const iso = () => new Date(now()).toISOString();

  function update(id: string, patch: Partial<PackageJob>): PackageJob {
    const entry = jobs.get(id)!;
    entry.job = { ...entry.job, ...patch };
    deps.emit(entry.job);
    return entry.job;
  }

  function trim(): void {
    const finished = [...jobs.values()].filter((e) => e.job.state !== 'queued' && e.job.state !== 'running');
    for (const e of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) jobs.delete(e.job.id);
  }

  function pump(): void {
    if (closed) return;
    for (const entry of jobs.values()) {
      if (running >= concurrency) return;
      if (entry.job.state !== 'queued' || busySites.has(entry.job.siteId)) continue;
      void start(entry.job.id);
    }
  }

  async function start(id: string): Promise<void> {
    const { job, request } = jobs.get(id)!;
    running++;
    busySites.add(job.siteId);
    const started = update(id, { state: 'running', startedAt: iso() });
    try {
      const out = await deps.execute(started, request);
      const { skipped, ...rest } = out;
      update(id, { ...rest, state: skipped ? 'skipped' : 'done', endedAt: iso() });
    } catch (err) {
      const known = err instanceof AppError;
      const message = known ? err.message : 'Something went wrong in Sitedesk while doing this; nothing more is known.';
      update(id, { state: 'failed', message, code: known ? err.code : 'internal', endedAt: iso() });
    } finally {
      running--;
      busySites.delete(job.siteId);
      trim();
      pump();
    }
  }

  return {
    /** Queues the requests as one batch; answers the jobs as queued. */
    run(requests: readonly PackageJobRequest[]): PackageJob[] {
      if (closed) throw new AppError({ code: 'host_unavailable', message: 'Sitedesk is closing; no package work is started now.' });
      const batchId = randomUUID();
      const queued = requests.map((request) => {
        const job: PackageJob = {
          id: randomUUID(),
          batchId,
          siteId: request.siteId,
          kind: request.kind,
          slug: 'slug' in request ? request.slug : null,
          label: deps.label(request),
          state: 'queued',
          queuedAt: iso(),
          startedAt: null,
          endedAt: null,
          message: null,
          code: null,
          fromVersion: null,
          toVersion: null,
          results: null,
          retry: retryOf(request),
        };
        jobs.set(job.id, { job, request });
        deps.emit(job);
        return job;
      });
      pump();
      return queued;
    },

    /** Newest first. */
    list(): PackageJob[] {
      return [...jobs.values()].map((e) => e.job).reverse();
    },

    /** Forgets finished jobs (these, or all); answers how many. */
    clear(ids?: readonly string[]): number {
      let n = 0;
      for (const e of [...jobs.values()]) {
        if (e.job.state === 'queued' || e.job.state === 'running') continue;
        if (ids && !ids.includes(e.job.id)) continue;
        jobs.delete(e.job.id);
        n++;
      }
      return n;
    },

    /** A site removed: its queued jobs are skipped. */
    dropSite(siteId: string): void {
      for (const e of jobs.values()) if (e.job.siteId === siteId && e.job.state === 'queued') update(e.job.id, { state: 'skipped', message: 'The site was removed from Sitedesk.', endedAt: iso() });
    },

    /** Sitedesk closing: queued jobs are skipped (nothing was sent for them); running ones end on their own. */
    close(): void {
      closed = true;
      for (const e of jobs.values()) if (e.job.state === 'queued') update(e.job.id, { state: 'skipped', message: 'Sitedesk was closed before this started; nothing was sent.', endedAt: iso() });
    },
  };
}

export type PackageJobs = ReturnType<typeof packageJobs>;
