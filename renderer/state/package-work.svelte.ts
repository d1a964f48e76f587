/**
 * Package work (install, update, remove, upgrade … on any site), as the Host runs it: every job of
 * the Host's life, kept current by `packages.job` events. The work goes on in the Host whatever
 * the person opens, so any view (a site's Packages area, the updates across sites, the status bar)
 * reads it from here, and a finished job can be retried from anywhere.
 *
 *   packageWork.ofSite(siteId)      that site's jobs, newest first
 *   packageWork.active              jobs queued or running, anywhere
 *   packageWork.run(requests)       starts work; answers the queued jobs
 *   packageWork.retry(jobs)         the same requests again (those that can be retried)
 */
import type { PackageJob, PackageJobRequest } from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { HostMirror } from './host-mirror.svelte';

const ACTIVE = new Set(['queued', 'running']);
const RANK: Record<PackageJob['state'], number> = { queued: 0, running: 1, done: 2, failed: 2, skipped: 2 };

class PackageWork extends HostMirror<PackageJob> {
  protected fetch() {
    return invoke('packages.jobs', {});
  }

  protected keyOf(job: PackageJob) {
    return job.id;
  }

  protected follow() {
    return [on('packages.job', (job) => this.take(job))];
  }

  /**
   * A job only moves forward: the answer to `run` says "queued" after the events that it started
   * (the Host starts work before it answers), so an older state never replaces a newer one.
   */
  protected override isNewer(held: PackageJob, next: PackageJob): boolean {
    return RANK[next.state] >= RANK[held.state];
  }

  /** Every job, newest first. */
  get all(): PackageJob[] {
    return Object.values(this.bySite).sort((a, b) => (a.queuedAt < b.queuedAt ? 1 : a.queuedAt > b.queuedAt ? -1 : 0));
  }

  get active(): PackageJob[] {
    return this.all.filter((j) => ACTIVE.has(j.state));
  }

  ofSite(siteId: string): PackageJob[] {
    return this.all.filter((j) => j.siteId === siteId);
  }

  ofBatch(batchId: string): PackageJob[] {
    return this.all.filter((j) => j.batchId === batchId).reverse();
  }

  /** Whether this site has work queued or running (its package list is about to change). */
  busy(siteId: string): boolean {
    return this.all.some((j) => j.siteId === siteId && ACTIVE.has(j.state));
  }

  async run(requests: PackageJobRequest[]): Promise<PackageJob[]> {
    const jobs = await invoke('packages.run', { jobs: requests });
    for (const j of jobs) this.take(j);
    return jobs;
  }

  /** The failed (or given) jobs again, as new jobs. */
  retry(jobs: readonly PackageJob[]): Promise<PackageJob[]> {
    const requests = jobs.flatMap((j) => (j.retry ? [j.retry] : []));
    return requests.length ? this.run(requests) : Promise.resolve([]);
  }

  async clear(ids?: string[]): Promise<void> {
    await invoke('packages.clearJobs', ids ? { ids } : {});
    for (const j of Object.values(this.bySite)) if (!ACTIVE.has(j.state) && (!ids || ids.includes(j.id))) delete this.bySite[j.id];
  }
}

export const packageWork = new PackageWork();
