/**
 * Sync state per CMS site, kept in step with the Host: loaded with `sync.status`, then replaced by
 * every `sync.status` event. Also runs pushes started from the renderer ("Sync now" in the status
 * bar, "Push now" in the Changes area) so both show the same progress and the same last result.
 *
 *   sync.unsynced(siteId)    changes not on the site yet (conflicts included)
 *   sync.offline(siteId)     the site did not answer the last time it was asked
 *   await sync.push(siteId)  → PushResult (also kept in sync.lastResult(siteId))
 *   sync.revision(siteId)    bumped by every status update of that site (views reload on it)
 */
import type { PushResult, SyncSiteStatus } from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { AppError } from '../lib/errors';
import { HostMirror } from './host-mirror.svelte';

export interface PushRun {
  /** The push this renderer started is under way. */
  running: boolean;
  result: PushResult | null;
  error: AppError | null;
  /** When it ended (ms), for "2 minutes ago". */
  at: number | null;
}

class SyncState extends HostMirror<SyncSiteStatus> {
  /** Per site: the last push started here. */
  runs = $state<Record<string, PushRun>>({});
  #revisions = $state<Record<string, number>>({});

  protected fetch() {
    return invoke('sync.status');
  }

  protected keyOf(s: SyncSiteStatus) {
    return s.siteId;
  }

  /** `sync.status` events carry every site's status. */
  protected follow() {
    return [on('sync.status', (list) => this.takeAll(list))];
  }

  protected override changed(siteId: string, before: SyncSiteStatus | undefined, after: SyncSiteStatus): void {
    if (!before || !sameStatus(before, after)) this.#revisions[siteId] = (this.#revisions[siteId] ?? 0) + 1;
  }

  protected override replaced(siteIds: ReadonlySet<string>): void {
    for (const id of Object.keys(this.runs)) if (!siteIds.has(id)) delete this.runs[id];
  }

  status(siteId: string | null | undefined): SyncSiteStatus | null {
    return siteId ? (this.bySite[siteId] ?? null) : null;
  }

  unsynced(siteId: string): number {
    return this.bySite[siteId]?.pending ?? 0;
  }

  conflicted(siteId: string): number {
    return this.bySite[siteId]?.conflicted ?? 0;
  }

  /** The Host found the site not answering (a push or any other request); unknown counts as online. */
  offline(siteId: string): boolean {
    return this.bySite[siteId]?.online === false;
  }

  syncing(siteId: string): boolean {
    return (this.bySite[siteId]?.syncing ?? false) || (this.runs[siteId]?.running ?? false);
  }

  lastError(siteId: string): string | null {
    return this.bySite[siteId]?.lastError ?? null;
  }

  run(siteId: string): PushRun | null {
    return this.runs[siteId] ?? null;
  }

  revision(siteId: string): number {
    return this.#revisions[siteId] ?? 0;
  }

  /**
   * Replays the site's outbox now. A push already running (from here or elsewhere) is joined by
   * the Host. Never throws: the result or the error is kept in `run(siteId)` and returned.
   */
  async push(siteId: string): Promise<PushRun> {
    this.runs[siteId] = { running: true, result: this.runs[siteId]?.result ?? null, error: null, at: this.runs[siteId]?.at ?? null };
    let run: PushRun;
    try {
      const result = await invoke('sync.push', { siteId });
      run = { running: false, result, error: null, at: Date.now() };
    } catch (err) {
      run = { running: false, result: null, error: AppError.from(err), at: Date.now() };
    }
    // the counts come with the status event the Host sends as the push ends
    this.runs[siteId] = run;
    return run;
  }
}

const sameStatus = (a: SyncSiteStatus, b: SyncSiteStatus) =>
  a.pending === b.pending &&
  a.conflicted === b.conflicted &&
  a.syncing === b.syncing &&
  a.online === b.online &&
  a.lastPushAt === b.lastPushAt &&
  a.lastError === b.lastError;

export const sync = new SyncState();

/** "3 unsynced changes", "1 unsynced change". */
export const changesText = (n: number) => `${n} unsynced change${n === 1 ? '' : 's'}`;
export const conflictsText = (n: number) => `${n} conflict${n === 1 ? '' : 's'}`;

/** One line for a push's outcome: "Pushed 2 · 1 conflict · 1 still waiting (site unreachable)". */
export function pushSummary(r: PushResult): string {
  const parts: string[] = [];
  if (r.pushed || (!r.conflicted && !r.rejected && !r.remaining)) parts.push(r.pushed ? `Pushed ${r.pushed}` : 'Nothing to push');
  if (r.conflicted) parts.push(conflictsText(r.conflicted));
  if (r.rejected) parts.push(`${r.rejected} rejected by the site`);
  if (r.remaining) parts.push(`${r.remaining} still waiting`);
  let text = parts.join(' · ');
  if (r.stopped) text += r.stopped.reason === 'offline' ? ' — the site could not be reached' : ' — sign in again to go on';
  return text;
}
