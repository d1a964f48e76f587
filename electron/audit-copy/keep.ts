/**
 * "Keep a copy": a site's audit trail into its kept copy, incrementally after the first time.
 *
 * The site pages its trail newest first (time, then id) and filters only by time (`from`, `to`,
 * epoch ms), while its ids only grow (AUTOINCREMENT: a pruned trail never reuses one). So:
 * - A run reads from the newest event down to its lower bound, each next page asked with `to` =
 *   the oldest millisecond of the page before (keyset by time: the site never skips a row and a
 *   million-event trail costs no growing OFFSET; the few rows of that millisecond come again and
 *   are not kept twice). A millisecond holding a whole page is paged through by number.
 * - Each page is written with the run's state in one transaction, so a run cut short (cancelled,
 *   the site away, a crash) leaves a state the next keep continues from (as Joplin's synchroniser
 *   does): it finishes that run, then looks for what came since.
 * - A finished keep remembers the newest id and time kept and how many events the site had from
 *   that time minus a window (WINDOW_MS) on. The next keep first asks the site for that count with
 *   a page past those events (`page = count + 1`, one per page): an unchanged trail answers the same
 *   count and no event at all, so a second keep moves nothing. Otherwise it reads down to that
 *   time minus the window: an event the site dated a little earlier than one kept before it (its
 *   time is taken before its row is written, so two requests at once can cross) still comes in,
 *   and what the copy has (by the site's id) is not added again.
 * A trail whose retention pruned old rows is fine: a run simply ends where the site's rows do.
 */
import type { Transport } from '../api/transport';
import type { AuditRowProblem } from '../contract';
import { keyOf, type AuditCopyRepo } from '../db/repos/audit-copy';
import { readEventsPage } from './site-reader';

/** How far back from the newest kept time a keep looks again (events whose time and id cross). */
export const WINDOW_MS = 60_000;
/** Events asked per page (the real service's default cap; a site with a lower one says so in its answer). */
export const PAGE_SIZE = 1000;
const MAX_PROBLEMS = 50;

export interface KeepRun {
  /** 'running' while it runs or when a quit or crash cut it ('running' runs go on at the next start); 'stopped': cut short by a cancel or a failure (resumed by the next keep only). */
  state: 'running' | 'stopped';
  /** The run's lower bound (inclusive epoch ms); null: the whole trail. */
  lower: number | null;
  /** The next page's upper bound (inclusive); null: from the newest. */
  to: number | null;
  page: number;
  /** Paging through the one millisecond `to` (more events in it than a page holds). */
  pinned: boolean;
  /** The ids of the millisecond `to` already read: the next page sends them again, and they are not counted twice. */
  edge: number[];
  /** The site's ids up to this one were kept before the run (the window read again brings them: not added, not counted). */
  known: number;
  /** The newest id and time the run has seen. */
  topId: number;
  topTs: number | null;
  /** Events received, added, and unreadable so far in this run. */
  read: number;
  added: number;
  unreadable: number;
  /** The site's count for the run when it began. */
  total: number | null;
}

export interface KeepTally {
  /** Events the site sent (the probe's included). */
  transferred: number;
  added: number;
  duplicates: number;
  unreadable: number;
  problems: AuditRowProblem[];
  /** Progress of the run now going: events read and the site's count. */
  done: number;
  total: number | null;
}

export interface KeepDeps {
  t: Transport;
  repo: AuditCopyRepo;
  copyId: number;
  signal: AbortSignal;
  progress: (tally: KeepTally) => void;
  now: () => string;
  perPage?: number;
}

export class KeepCancelled extends Error {}

const isRun = (x: unknown): x is KeepRun => typeof x === 'object' && x !== null && typeof (x as KeepRun).page === 'number' && typeof (x as KeepRun).read === 'number';

/** Keeps what is new on the site's trail; answers what moved. Throws KeepCancelled when stopped (the run stays resumable). */
export async function keepTrail(deps: KeepDeps): Promise<KeepTally> {
  const { t, repo, copyId, signal } = deps;
  const perPage = deps.perPage ?? PAGE_SIZE;
  const tally: KeepTally = { transferred: 0, added: 0, duplicates: 0, unreadable: 0, problems: [], done: 0, total: null };

  /** A quit stops a run that goes on at the next start; a cancel or a failure one that waits for the next keep. */
  const stopped = (): KeepRun['state'] => (signal.aborted && signal.reason === 'close' ? 'running' : 'stopped');

  const saved = repo.copy(copyId)?.run;
  if (isRun(saved)) await runPages({ ...saved, state: 'running' });

  const copy = repo.copy(copyId);
  if (!copy) return tally;
  if (copy.throughId === null) {
    await runPages(fresh(null, 0));
    return tally;
  }
  // kept before: has anything come since?
  const lower = copy.throughTs === null ? null : copy.throughTs - WINDOW_MS;
  const known = copy.windowCount ?? 0;
  check();
  const probe = await readEventsPage(t, { ...(lower !== null ? { from: lower } : {}), page: known + 1, perPage: 1 });
  tally.transferred += probe.rows;
  if (probe.total === known) return tally;
  await runPages(fresh(lower, copy.throughId));
  return tally;

  function fresh(lowerBound: number | null, known: number): KeepRun {
    return { state: 'running', lower: lowerBound, to: null, page: 1, pinned: false, edge: [], known, topId: 0, topTs: null, read: 0, added: 0, unreadable: 0, total: null };
  }

  function check(run?: KeepRun): void {
    if (!signal.aborted) return;
    if (run) repo.setRun(copyId, { ...run, state: stopped() });
    throw new KeepCancelled('stopped');
  }

  async function runPages(run: KeepRun): Promise<void> {
    tally.done = run.read;
    tally.total = run.total;
    for (;;) {
      check(run);
      let page: Awaited<ReturnType<typeof readEventsPage>>;
      try {
        const from = run.pinned ? (run.to ?? undefined) : (run.lower ?? undefined);
        page = await readEventsPage(t, { ...(from !== undefined ? { from } : {}), ...(run.to !== null ? { to: run.to } : {}), page: run.page, perPage });
      } catch (err) {
        repo.setRun(copyId, { ...run, state: stopped() });
        if (signal.aborted) throw new KeepCancelled('stopped');
        throw err;
      }
      run.total ??= page.total;
      run.read += page.rows;
      tally.transferred += page.rows;
      for (const p of page.problems) {
        run.unreadable++;
        tally.unreadable++;
        if (tally.problems.length < MAX_PROBLEMS) tally.problems.push({ line: run.read - page.rows + p.index + 1, problem: `the site sent an event Sitedesk cannot read: ${p.problem}` });
      }
      // the rows of the boundary millisecond read with the page before come again: not new, not duplicates
      const edge = run.pinned || run.to === null ? null : new Set(run.edge ?? []);
      const known = run.known ?? 0;
      const events = page.events.filter((e) => e.id > known && (run.lower === null || e.ts >= run.lower) && !(edge && e.ts === run.to && edge.has(e.id)));
      let minTs = Infinity;
      let maxTs = -Infinity;
      for (const e of page.events) {
        if (e.ts < minTs) minTs = e.ts;
        if (e.ts > maxTs) maxTs = e.ts;
        if (e.id > run.topId) run.topId = e.id;
      }
      if (maxTs > (run.topTs ?? -Infinity)) run.topTs = maxTs;

      // where the next page starts
      const full = page.rows > 0 && page.rows >= page.perPage;
      let finished = false;
      if (run.pinned) {
        if (full) run.page++;
        else {
          run.pinned = false;
          run.edge = [];
          run.page = 1;
          run.to = run.to! - 1;
          finished = run.lower !== null && run.to < run.lower;
        }
      } else if (!full) finished = true;
      else if (!page.events.length) run.page++; // a whole page the reader could not use: on by number
      else if (minTs === maxTs) {
        run.pinned = true; // one millisecond fills the page
        run.edge = [];
        run.to = minTs;
        run.page = 2;
      } else {
        run.edge = page.events.filter((e) => e.ts === minTs).map((e) => e.id);
        run.to = minTs;
        run.page = 1;
      }

      repo.transaction(() => {
        const r = repo.insertBatch(copyId, events);
        run.added += r.added;
        tally.added += r.added;
        tally.duplicates += r.duplicates;
        if (!finished) {
          repo.setRun(copyId, run);
          return;
        }
        const before = repo.copy(copyId)!;
        const throughId = Math.max(before.throughId ?? 0, run.topId);
        const throughTs = run.topTs === null ? before.throughTs : Math.max(before.throughTs ?? run.topTs, run.topTs);
        const windowCount = throughTs === null ? 0 : repo.countFrom(copyId, keyOf(throughTs - WINDOW_MS));
        repo.setThrough(copyId, throughId, throughTs, windowCount);
        repo.setKept(copyId, deps.now());
      });
      tally.done = run.read;
      tally.total = run.total;
      deps.progress(tally);
      if (finished) return;
    }
  }
}
