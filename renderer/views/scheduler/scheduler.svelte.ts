/**
 * The Scheduler area's state: a site's jobs (each with its expression in words and next runs, as
 * the Host works them out) and status (the crontab's health, the line to install), both the copy
 * with its time while the site is away; the history read from the site page by page; a run of the
 * due jobs or of all (forced) with each job's resulting state. A run whose answer was lost comes
 * back as `conflict`: the state holds the question ("run again?") and sends `again` only when the
 * person says so.
 */
import { writeBlockedReason, type JobRun, type Me, type SchedulerJob, type SchedulerRunResult, type SchedulerStatus } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';

/** What the site writes instead of a command line for a demo account. */
export const HIDDEN_IN_DEMO = '(hidden in demo mode)';
const HISTORY_PAGE = 50;

export type RunKind = 'due' | 'all';

export class SchedulerState {
  readonly siteId: string;

  jobs = $state.raw<SchedulerJob[] | null>(null);
  status = $state.raw<SchedulerStatus | null>(null);
  /** When the copy shown was read (null: the site's own answer). */
  copiedAt = $state<string | null>(null);
  jobsError = $state<string | null>(null);
  statusError = $state<string | null>(null);
  loading = $state(false);

  history = $state.raw<JobRun[]>([]);
  historyTotal = $state<number | null>(null);
  historyNext = $state<number | null>(null);
  historyLoading = $state(false);
  historyError = $state<string | null>(null);
  /** The history was read at least once (its empty state means "none"). */
  historyRead = $state(false);

  running = $state<RunKind | null>(null);
  /** The last run's answer: each job's resulting state. */
  lastRun = $state.raw<SchedulerRunResult | null>(null);
  runError = $state<string | null>(null);
  /** A run whose answer was lost: the question to ask before running the jobs again. */
  lost = $state.raw<{ kind: RunKind; message: string } | null>(null);

  #historyToken = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  /** The site is away: what shows is the copy, and the history (never kept) needs the site. */
  get away(): boolean {
    return this.copiedAt !== null;
  }

  /** Why Run cannot be used now, or null. */
  runBlocked(me: Me | null): string | null {
    if (this.away) return 'The site is not answering: the jobs can be run once it answers.';
    if (!me) return 'Sign in to run the scheduler.';
    return writeBlockedReason(me, 'api.scheduler.write', 'This account may look at the scheduler but not run it (it lacks api.scheduler.write).');
  }

  /** The crontab line the site gives, unless it hides it (a demo account) or gives none. */
  get cronLine(): string | null {
    const line = this.status?.cronCommand ?? null;
    return line && line !== HIDDEN_IN_DEMO ? line : null;
  }

  /** The job's state after the last run, when the run named it. */
  stateAfterRun(jobId: string): JobRun | null {
    return this.lastRun?.states.find((s) => s.jobId === jobId) ?? null;
  }

  async load(): Promise<void> {
    this.loading = true;
    const [jobs, status] = await Promise.allSettled([invoke('scheduler.jobs', { siteId: this.siteId }), invoke('scheduler.status', { siteId: this.siteId })]);
    if (jobs.status === 'fulfilled') {
      this.jobs = jobs.value.jobs;
      this.jobsError = null;
    } else this.jobsError = AppError.from(jobs.reason).message;
    if (status.status === 'fulfilled') {
      const { copiedAt: _c, ...rest } = status.value;
      this.status = rest;
      this.statusError = null;
    } else this.statusError = AppError.from(status.reason).message;
    const copies = [jobs, status].flatMap((r) => (r.status === 'fulfilled' && r.value.copiedAt ? [r.value.copiedAt] : []));
    this.copiedAt = copies.sort()[0] ?? null;
    this.loading = false;
    if (this.away) {
      this.#historyToken++;
      this.history = [];
      this.historyNext = null;
      this.historyRead = false;
      this.historyError = null;
    } else await this.readHistory(1);
  }

  /** The history's next page, while there is one. */
  async loadMoreHistory(): Promise<void> {
    if (this.historyNext === null || this.historyLoading || this.historyError || this.away) return;
    await this.readHistory(this.historyNext);
  }

  private async readHistory(page: number): Promise<void> {
    const token = ++this.#historyToken;
    this.historyLoading = true;
    try {
      const r = await invoke('scheduler.history', { siteId: this.siteId, page, perPage: HISTORY_PAGE });
      if (token !== this.#historyToken) return;
      this.history = page === 1 ? r.items : [...this.history, ...r.items];
      this.historyTotal = r.total;
      this.historyNext = r.next;
      this.historyError = null;
      this.historyRead = true;
    } catch (err) {
      if (token === this.#historyToken) this.historyError = AppError.from(err).message;
    } finally {
      if (token === this.#historyToken) this.historyLoading = false;
    }
  }

  /** Tries the history again after it failed. */
  async retryHistory(): Promise<void> {
    this.historyError = null;
    await this.readHistory(this.history.length ? (this.historyNext ?? 1) : 1);
  }

  /**
   * Runs the due jobs (`due`) or every job (`all`). A lost earlier answer comes back as a question
   * (`lost`), answered by `runAgain`; the jobs then show their resulting states. Answers whether it ran.
   */
  async run(kind: RunKind, again = false): Promise<boolean> {
    if (this.running) return false;
    this.running = kind;
    this.runError = null;
    this.lost = null;
    try {
      const result = await invoke('scheduler.run', { siteId: this.siteId, force: kind === 'all', ...(again ? { again: true } : {}) });
      this.lastRun = result;
      // the jobs show what the run left them in
      if (this.jobs) {
        this.jobs = this.jobs.map((j) => {
          const s = result.states.find((x) => x.jobId === j.id);
          return s ? { ...j, status: s.status, lastRun: s.lastRun ?? j.lastRun, error: s.error } : j;
        });
      }
      void this.readHistory(1);
      return true;
    } catch (err) {
      const e = AppError.from(err);
      if (e.code === 'conflict' && !again) this.lost = { kind, message: e.message };
      else this.runError = e.message;
      return false;
    } finally {
      this.running = null;
    }
  }

  /** The person said the jobs did not run: run them again. */
  runAgain(): Promise<boolean> {
    const kind = this.lost?.kind ?? 'due';
    return this.run(kind, true);
  }

  /** The person chose not to run them again. */
  dismissLost(): void {
    this.lost = null;
  }
}
