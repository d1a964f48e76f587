/**
 * One mirror run of one site: list the pages (paged; then again in each wanted language besides
 * the default), read each page × language whose list row does not vouch for the cached copy (see
 * plan.ts: the real service never answers 304, so an unchanged page costs nothing but its share of
 * a list page), then remove what the site no longer has. Every request is background work through
 * the site's pacer (api/pacer.ts): the pool of readers sends only as fast as the site's rate limit
 * allows, leaves room for the person's own requests, and the progress tells the time left.
 *
 * Crash safety: the run, its items and the cache are written together in transactions of a batch
 * of answers, so a restart goes on from the last batch (an answer not yet written is simply asked
 * again). The event loop is never held long: each list page and each batch of answers is written
 * in a turn of the loop of its own, without waiting for an fsync (see MirrorRepo.transaction), and
 * the cleanup removes rows in chunks with a yield between them.
 *
 * This file keeps the phases (list, read, retry, clean, end) and the answers' writes; the lister is
 * list.ts, the bounded stoppable pool of readers pool.ts.
 */
import type { MirrorEta, MirrorProgress, Page } from '../contract';
import { isAppError, isUnreachable } from '../base/app-error';
import { cmsPages } from '../api/cms/pages';
import { shadowed } from '../api/cms/addressing';
import { PaceCancelled } from '../api/pacer';
import type { Transport } from '../api/transport';
import type { PagesRepo } from '../db/repos/pages';
import type { ItemCounts, MirrorRepo, RunRow } from '../db/repos/mirror';
import { etaOf } from './eta';
import { isUnreadableRow, list, type ListerRun, type ReadItem } from './list';
import { cleanupScope, holdRemoval, listingConsistent, type ListCursor, type MirrorPlan } from './plan';
import { WorkPool } from './pool';

/** A run as the renderer sees it, from its row and its items' counts (live or stored); `eta` only for a live run. */
export function progressOf(r: RunRow, c: ItemCounts, eta: MirrorEta | null = null): MirrorProgress {
  return {
    siteId: r.siteId,
    runId: r.id,
    state: r.state,
    phase: r.phase,
    total: c.total,
    listed: r.phase !== 'listing',
    done: c.fetched + c.unchanged + c.gone,
    fetched: c.fetched,
    unchanged: c.unchanged,
    failed: c.failed,
    unreadable: c.unreadable,
    // pages found deleted while reading count as removed too
    removed: r.removed + c.gone,
    held: r.held,
    error: r.error,
    startedAt: r.startedAt,
    updatedAt: r.updatedAt,
    finishedAt: r.finishedAt,
    resumable: r.state !== 'done',
    eta: r.state === 'running' ? eta : null,
  };
}

export interface RunDeps {
  /** The site's transport, for background work (its pacer decides when each request goes). */
  transport: Transport;
  pages: PagesRepo;
  repo: MirrorRepo;
  emit: (p: MirrorProgress) => void;
}

/** Readers at most; the pacer keeps fewer in flight when the site's rate limit is what bounds the run. */
const READERS = 8;
/** Rows per list request (the API's maximum). */
const PER_PAGE = 100;
/** Failed reads are tried again this many times, after these waits. */
const RETRY_DELAYS_MS = [500, 2000];

type Answer =
  | { kind: 'fetched'; item: ReadItem; page: Page; serverDate: string | null }
  | { kind: 'gone'; item: ReadItem }
  /** `transient`: worth another try in this run (no answer, 5xx, 429); others wait for the next run. */
  | { kind: 'failed'; item: ReadItem; error: string; transient: boolean }
  /** Listed, but the API cannot read the page by its route: the copy keeps the list row (api/cms/addressing.ts). */
  | { kind: 'unreadable'; item: ReadItem; reason: string }
  /** Given up before it was sent (the run stopped): it stays to do. */
  | { kind: 'dropped'; item: ReadItem };

/**
 * Answers written per transaction: ~2 ms of work, short enough that the requests in flight keep
 * the site busy meanwhile (commits wait for no fsync, so small batches cost little).
 */
const BATCH = 32;
/** Longest an answer waits to be written when answers come slowly. */
const FLUSH_MS = 200;
/** Progress events at most this often (and at every phase or state change). */
const EMIT_MS = 150;
const CLEANUP_CHUNK = 500;
/** This many network failures in a row: the site stopped answering, the run stops (resumable). */
const OFFLINE_AFTER = 12;

/** Requests finished within this window make the throughput the time estimate counts on. */
const RATE_WINDOW_MS = 15_000;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class MirrorRun {
  readonly finished: Promise<void>;
  private counts: ItemCounts;
  private readonly plan: MirrorPlan;
  private readonly readers: WorkPool<ReadItem>;
  private answers: Exclude<Answer, { kind: 'dropped' }>[] = [];
  private lastFlush = Date.now();
  private lastEmit = 0;
  private listing = false;
  private stopping: 'cancel' | 'quit' | 'drop' | null = null;
  /** After a quit or a drop nothing more is written: the database may be closed already. */
  private abandoned = false;
  /** Stopped by a full disk or a damaged file (haltOnStorage), not by a person or a quit: it may go on in this session. */
  halted = false;
  private flushing = false;
  private fatal: string | null = null;
  private networkStreak = 0;
  /** Gives up the requests still waiting for their turn in the pacer when the run stops. */
  private readonly abort = new AbortController();
  private readonly t: Transport;
  private readonly siteId: string;
  /** When recent requests finished (the time estimate's throughput). */
  private finishedAt: number[] = [];

  constructor(
    readonly run: RunRow,
    private readonly deps: RunDeps,
  ) {
    this.siteId = run.siteId;
    this.plan = run.plan as MirrorPlan;
    this.counts = deps.repo.counts(run.id);
    this.t = deps.transport.derive({ priority: 'background', signal: this.abort.signal });
    this.readers = new WorkPool<ReadItem>({ stopped: () => this.stopped, more: () => this.listing });
    this.finished = this.main();
  }

  /**
   * Stops taking new reads. 'cancel' waits for the reads in flight, writes them and leaves the run
   * cancelled. 'quit' (the Host closes) writes what has arrived and returns at once: the run stays
   * 'running' and goes on at the next start, where reads still in flight now are simply made again.
   * 'drop' (the site is being removed) writes nothing more.
   */
  stop(how: 'cancel' | 'quit' | 'drop'): Promise<void> {
    this.stopping ??= how;
    this.abort.abort();
    this.readers.wakeAll();
    if (this.stopping === 'cancel') return this.finished;
    if (!this.abandoned && this.stopping === 'quit') {
      this.flush();
      this.save();
    }
    this.abandoned = true;
    return Promise.resolve();
  }

  progress(): MirrorProgress {
    return progressOf(this.run, this.counts, this.eta());
  }

  /** Time left, once the listing is done (the reads left are known): by the recent throughput and the site's budget. */
  private eta(): MirrorEta | null {
    if (this.run.phase !== 'reading') return null;
    const now = Date.now();
    this.finishedAt = this.finishedAt.filter((t) => now - t <= RATE_WINDOW_MS);
    const span = this.finishedAt.length >= 2 ? Math.max(1000, now - this.finishedAt[0]!) : 0;
    return etaOf({
      requestsLeft: Math.max(0, this.counts.todo),
      perSecond: span ? this.finishedAt.length / (span / 1000) : null,
      pace: this.pace(),
    });
  }

  /** The site's request budget; null once the site is gone (its removal races a last progress report). */
  private pace() {
    try {
      return this.t.pacer?.pace() ?? null;
    } catch (err) {
      if (isAppError(err) && err.code === 'not_found') return null;
      throw err;
    }
  }

  /** A request came back (the throughput of the time estimate). */
  private answered(): void {
    this.finishedAt.push(Date.now());
    if (this.finishedAt.length > 4096) this.finishedAt = this.finishedAt.slice(-2048);
  }

  private emit(force = false): void {
    if (this.stopping === 'drop') return; // the site is being removed: nobody waits for its progress
    const now = Date.now();
    if (!force && now - this.lastEmit < EMIT_MS) return;
    this.lastEmit = now;
    this.deps.emit(this.progress());
  }

  private save(): void {
    if (this.abandoned) return;
    this.deps.repo.save(this.run, this.counts);
  }

  private get stopped(): boolean {
    return this.stopping !== null || this.fatal !== null;
  }

  private async main(): Promise<void> {
    const { repo } = this.deps;
    try {
      this.emit(true);
      if (this.run.phase === 'listing' || this.run.phase === 'reading') {
        // a resumed run tries all its failed reads again
        if (repo.retryFailed(this.run.id, false) > 0) this.counts = repo.counts(this.run.id);
        this.readers.reset(repo.items(this.run.id, 'todo').map(({ route, lang }) => ({ route, lang })));
        this.listing = this.run.phase === 'listing';
        await Promise.all([this.listing ? this.list() : Promise.resolve(), this.pool()]);
        this.flush();
        const delays = RETRY_DELAYS_MS;
        for (const delay of delays) {
          if (this.stopped || repo.transientFailures(this.run.id) === 0) break;
          await this.readers.pause(delay);
          repo.retryFailed(this.run.id, true);
          this.counts = repo.counts(this.run.id);
          this.readers.reset(repo.items(this.run.id, 'todo').map(({ route, lang }) => ({ route, lang })));
          await this.pool();
          this.flush();
        }
        if (this.stopped) return this.end();
        this.run.phase = 'cleaning';
        this.save();
        this.emit(true);
      }
      if (this.run.phase === 'cleaning') await this.cleanup();
      if (this.stopped) return this.end();
      this.run.phase = 'done';
      this.run.state = 'done';
      this.run.error = this.counts.failed ? `${this.counts.failed} of ${this.counts.total} reads failed; start again to retry them.` : null;
      this.run.finishedAt = new Date().toISOString();
      this.save();
      this.emit(true);
    } catch (err) {
      if (this.haltOnStorage(err)) return;
      this.fatal ??= message(err);
      try {
        this.end();
      } catch (e) {
        this.haltOnStorage(e);
      }
    }
  }

  /**
   * The disk filled up or the file is damaged (db/guard.ts answered disk_full or database): the run
   * stops where the file last agreed and writes nothing more. It stays 'running', so it goes on
   * when the disk has room again (the Host resumes interrupted runs then) or at the next start; the
   * answers not yet written are simply read again.
   */
  private haltOnStorage(err: unknown): boolean {
    if (!isAppError(err) || (err.code !== 'disk_full' && err.code !== 'database')) return false;
    this.stopping ??= 'quit';
    this.halted = true;
    this.abort.abort();
    this.readers.wakeAll();
    this.abandoned = true;
    this.answers = [];
    return true;
  }

  /** A stopped run: cancelled, failed (the site stopped answering or refused), or left running for the next start. */
  private end(): void {
    if (this.abandoned) return;
    this.flush();
    if (this.fatal !== null) {
      this.run.state = 'failed';
      this.run.error = this.fatal;
    } else if (this.stopping === 'cancel') {
      this.run.state = 'cancelled';
      this.run.error = null;
    }
    if (this.run.state !== 'running') this.run.finishedAt = new Date().toISOString();
    this.save();
    this.emit(true);
  }

  // ── listing (list.ts) ──────────────────────────────────────────────────────────────────────

  private list(): Promise<void> {
    const lister: ListerRun = {
      run: this.run,
      siteId: this.siteId,
      plan: this.plan,
      counts: () => this.counts,
      transport: this.t,
      repo: this.deps.repo,
      pages: this.deps.pages,
      perPage: PER_PAGE,
      stopped: () => this.stopped,
      answered: () => {
        this.networkStreak = 0;
        this.answered();
      },
      save: () => this.save(),
      emit: (force) => this.emit(force),
      enqueue: (items) => this.readers.add(items),
      fail: (reason, cause) => {
        if (!this.haltOnStorage(cause)) this.fatal ??= reason;
      },
    };
    return list(lister).finally(() => {
      this.listing = false;
      this.readers.wakeAll();
    });
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────────

  private pool(): Promise<void> {
    return this.readers.run(READERS, (item) => this.readOne(item));
  }

  private async readOne(item: ReadItem): Promise<void> {
    // read first, then push: `this.answers` may be a new array by the time the answer arrives
    const answer = await this.read(item);
    if (answer.kind === 'dropped') return;
    this.answered();
    this.answers.push(answer);
    if (this.answers.length >= BATCH || Date.now() - this.lastFlush >= FLUSH_MS) this.flushSoon();
  }

  private async read(item: ReadItem): Promise<Answer> {
    if (isUnreadableRow(item)) {
      // a list row without an address (see failUnreadable), tried again: there is nothing to read by
      return { kind: 'failed', item, error: `The site's page list has a row Sitedesk cannot read and that names no page (${item.route}).`, transient: false };
    }
    try {
      // a plain read, never conditional: the real service ignores If-None-Match
      const r = await cmsPages.read(this.t, item.route, item.lang ? { lang: item.lang } : {});
      this.networkStreak = 0;
      if (r.page) return { kind: 'fetched', item, page: r.page, serverDate: r.serverDate };
      return { kind: 'failed', item, error: 'The site answered “not modified” to a read that asked for the page.', transient: false };
    } catch (err) {
      if (err instanceof PaceCancelled) return { kind: 'dropped', item };
      if (!isAppError(err)) return { kind: 'failed', item, error: message(err), transient: false };
      // a page whose address is also that of a sub-resource of its parent: said so, not failed nor gone
      const reason = shadowed(item.route, err);
      if (reason) return { kind: 'unreadable', item, reason };
      if (err.code === 'not_found') return { kind: 'gone', item };
      if (err.code === 'unauthorized' || err.code === 'forbidden') {
        // never retried blindly: the run stops until the user signs in again
        this.fatal ??= err.message;
        this.readers.wakeAll();
      } else if (isUnreachable(err)) {
        if (++this.networkStreak >= OFFLINE_AFTER) {
          this.fatal ??= `The site stopped answering: ${err.message}`;
          this.readers.wakeAll();
        }
      }
      const transient = isUnreachable(err) || err.code === 'rate_limited' || (err.info.status ?? 0) >= 500;
      return { kind: 'failed', item, error: err.message, transient };
    }
  }

  /** A write in a turn of the event loop of its own (see `takePage` in list.ts); answers arriving meanwhile join it. */
  private flushSoon(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      try {
        this.flush();
      } catch (err) {
        // a timer has no caller to throw to: a write that failed here stops the run, never the Host
        if (!this.haltOnStorage(err)) this.fatal ??= message(err);
        this.readers.wakeAll();
        return;
      }
      this.emit();
    });
  }

  /** Writes the answers that arrived, with the run's counts, in one transaction. */
  private flush(): void {
    this.lastFlush = Date.now();
    if (!this.answers.length || this.abandoned) return;
    const batch = this.answers;
    this.answers = [];
    const { repo, pages } = this.deps;
    const now = new Date().toISOString();
    repo.transaction(() => {
      for (const a of batch) {
        const { route, lang } = a.item;
        switch (a.kind) {
          case 'fetched':
            pages.putPage(this.siteId, lang, a.page, now, a.serverDate);
            repo.readAfterRow(this.siteId, route, lang, a.serverDate);
            break;
          case 'gone':
            // deleted since it was listed: a page takes its subtree with it, a language only itself
            if (lang) pages.removeLang(this.siteId, route, lang);
            else pages.removeTree(this.siteId, route);
            break;
        }
        repo.setItem(this.run.id, route, lang, a.kind, a.kind === 'failed' ? a.error : a.kind === 'unreadable' ? a.reason : null, a.kind === 'failed' && a.transient);
        this.counts.todo--;
        this.counts[a.kind]++;
      }
      this.save();
    });
  }

  // ── cleaning ───────────────────────────────────────────────────────────────────────────────

  private async cleanup(): Promise<void> {
    const { repo, pages } = this.deps;
    const cursor = this.run.cursor as ListCursor | null;
    // removals only from a listing that is whole and consistent, and never under changes the site has not seen
    const trusted = cursor !== null && listingConsistent(repo.routes(this.run.id) - this.plan.extra.length, cursor, this.plan.queries);
    if (trusted && !repo.hasStructuralChanges(this.siteId)) {
      const scope = cleanupScope(this.plan);
      const stale = repo.stale(this.run.id, this.siteId, scope, this.plan.languages, this.plan.defaultLanguage);
      if (holdRemoval(stale.length, repo.cachedInScope(this.siteId, scope), this.plan.confirmRemoval)) {
        this.run.held = stale.length;
      } else {
        this.run.held = 0;
        for (let i = 0; i < stale.length && !this.stopped; i += CLEANUP_CHUNK) {
          const chunk = stale.slice(i, i + CLEANUP_CHUNK);
          repo.transaction(() => {
            pages.removeIds(chunk.map((r) => r.id));
            this.run.removed += chunk.length;
            this.save();
          });
          this.emit();
          await yieldToLoop();
        }
      }
    }
    if (this.stopped) return;
    this.save();
  }
}
