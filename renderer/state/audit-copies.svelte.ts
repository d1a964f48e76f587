/**
 * Audit trails kept on this computer, as the Host holds them: the copies (one per site kept, or per
 * imported file), kept current by `auditCopy.changed`, and the keeps, imports and exports of the
 * Host's life, kept current by `auditCopy.job`. The work runs in the Host whatever the person
 * opens, so the site's Audit area (Keep a copy) and the kept copies' view read it from here.
 *
 *   auditCopies.copies               every copy, as the Host last listed them
 *   auditCopies.ofSite(siteId)       the site's copy, or null
 *   auditCopies.keeping(siteId)      the site's keep while it runs, or null
 *   await auditCopies.keep(siteId)   starts a keep; answers its job
 */
import type { AuditCopy, AuditCopyJob, AuditRetention } from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { HostMirror } from './host-mirror.svelte';

const ENDED = new Set<AuditCopyJob['state']>(['done', 'cancelled', 'failed']);

class AuditCopies extends HostMirror<AuditCopyJob> {
  copies = $state.raw<AuditCopy[]>([]);

  protected async fetch() {
    const [jobs, copies] = await Promise.all([invoke('auditCopy.jobs', {}), invoke('auditCopy.copies', {})]);
    this.copies = copies;
    return jobs;
  }

  protected keyOf(job: AuditCopyJob) {
    return job.id;
  }

  protected follow() {
    return [on('auditCopy.job', (job) => this.take(job)), on('auditCopy.changed', (list) => (this.copies = list))];
  }

  /** A job only moves forward: an ended one is never taken back to running, a running one never back in its count. */
  protected override isNewer(held: AuditCopyJob, next: AuditCopyJob): boolean {
    if (ENDED.has(held.state)) return ENDED.has(next.state);
    return ENDED.has(next.state) || next.done >= held.done;
  }

  /** Every job of the Host's life, newest first. */
  get jobs(): AuditCopyJob[] {
    return Object.values(this.bySite).sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
  }

  ofSite(siteId: string): AuditCopy | null {
    return this.copies.find((c) => c.kind === 'site' && c.siteId === siteId) ?? null;
  }

  copy(copyId: number | null): AuditCopy | null {
    return copyId === null ? null : (this.copies.find((c) => c.id === copyId) ?? null);
  }

  /** The site's keep while it runs. */
  keeping(siteId: string): AuditCopyJob | null {
    return this.jobs.find((j) => j.kind === 'keep' && j.siteId === siteId && j.state === 'running') ?? null;
  }

  /** The site's last keep (running or ended), for what it said. */
  lastKeep(siteId: string): AuditCopyJob | null {
    return this.jobs.find((j) => j.kind === 'keep' && j.siteId === siteId) ?? null;
  }

  job(id: string | null): AuditCopyJob | null {
    return id ? (this.bySite[id] ?? null) : null;
  }

  async keep(siteId: string): Promise<AuditCopyJob> {
    const job = await invoke('auditCopy.keep', { siteId });
    this.take(job);
    return job;
  }

  async cancel(jobId: string): Promise<void> {
    const { job } = await invoke('auditCopy.cancel', { jobId });
    if (job) this.take(job);
  }

  async setRetention(copyId: number, retention: AuditRetention): Promise<AuditCopy> {
    const copy = await invoke('auditCopy.setRetention', { copyId, retention });
    this.copies = this.copies.map((c) => (c.id === copy.id ? copy : c));
    return copy;
  }

  async forget(copyId: number): Promise<void> {
    await invoke('auditCopy.forget', { copyId });
    this.copies = this.copies.filter((c) => c.id !== copyId);
  }
}

export const auditCopies = new AuditCopies();
