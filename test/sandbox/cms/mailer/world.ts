/**
 * The mailing plugin of one sandbox (docs/mailer-audience.md): its store, opened and seeded on
 * first use (the first mailer request, or `sandbox.mailer.store`), so a sandbox that never serves
 * the mailer starts as fast as before; its knobs; and its worker, which works through queued
 * imports at `importRate` rows per second of the sandbox's clock, recounts segments every
 * `workerEverySeconds` of it, as the real plugin's worker does on cron, and sends campaigns at
 * `sendRate` messages per second of it (sending.ts; docs/mailer-campaigns.md, "Sending").
 *
 * Knobs: options at start (`mailer` of startCmsSandbox), `sandbox.mailer.knobs` while running, or
 * `POST /__sandbox/mailer` (controls.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Clock } from '../../clock';
import type { Flavor } from '../../flavor';
import { Audience } from './audience';
import { ImportRun } from './imports';
import { openMailerDb } from './schema';
import { checkDefinition, groupSql, type Group } from './segments';
import { startDue } from './campaigns';
import { DEFAULT_SEND_KNOBS } from './send-rules';
import { stepSending, type SendContext } from './sending';
import { stepFlows } from './flows';
import { seedMailer } from './seed-mailer';
import { MailerStore, type RawImport } from './store';

export interface MailerKnobs {
  /** rows an import works through per second of the sandbox's clock; 0 = as fast as it can (default 2000) */
  importRate: number;
  /** the site's job queue runs (false: an import cannot be started, 503) */
  worker: boolean;
  /** how often the worker runs, in seconds of the sandbox's clock (default 60) */
  workerEverySeconds: number;
  /** a segment's count older than this is taken again by the worker (default 15) */
  segmentRecountMinutes: number;
  /** campaign messages per second of the sandbox's clock; 0 = as fast as it can (default 50) */
  sendRate: number;
  /** recipients whose address bounces, in percent (default 2) */
  bouncePercent: number;
  /** sending attempts the provider refuses for now, in percent (default 3) */
  failPercent: number;
  /** a run's bounce share above which the sender stops a campaign, in percent; 0 = never (default 10) */
  stopBouncePercent: number;
}

export interface MailerOptions extends Partial<MailerKnobs> {
  /** how many people the seed makes (default 20,000; the benchmarks' 500,000) */
  subscribers?: number;
}

export const DEFAULT_SUBSCRIBERS = 20_000;
const TICK_MS = 200;
/** rows one synchronous slice of an import works through before the server answers anything else */
const SLICE = 2000;

export class MailerWorld {
  readonly knobs: MailerKnobs;
  private db: Database.Database | null = null;
  private _store: MailerStore | null = null;
  private _audience: Audience | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastTickMs = 0;
  private lastWorkerRunMs = 0;
  private allowance = 0;
  private run: ImportRun | null = null;
  private busy: Promise<void> | null = null;
  /** what seeding took, the last time it ran (ms), and for how many */
  seeded: { subscribers: number; ms: number } | null = null;
  /** the most bytes an upload's reader held at once (spool.ts), for the memory check */
  peakUploadBuffered = 0;
  private readonly seedCount: number;

  constructor(
    readonly flavor: Flavor,
    private readonly clock: Clock,
    readonly dataDir: string,
    opts: MailerOptions = {},
    readonly siteName = 'Sitedesk Sandbox',
  ) {
    this.knobs = {
      importRate: opts.importRate ?? 2000,
      worker: opts.worker ?? true,
      workerEverySeconds: opts.workerEverySeconds ?? 60,
      segmentRecountMinutes: opts.segmentRecountMinutes ?? 15,
      sendRate: opts.sendRate ?? DEFAULT_SEND_KNOBS.sendRate,
      bouncePercent: opts.bouncePercent ?? DEFAULT_SEND_KNOBS.bouncePercent,
      failPercent: opts.failPercent ?? DEFAULT_SEND_KNOBS.failPercent,
      stopBouncePercent: opts.stopBouncePercent ?? DEFAULT_SEND_KNOBS.stopBouncePercent,
    };
    this.seedCount = opts.subscribers ?? DEFAULT_SUBSCRIBERS;
  }

  nowSec = (): number => this.clock.nowSec();

  /** When the worker's periodic jobs last ran (epoch seconds of the sandbox's clock), or null before the store opened. */
  get workerLastRunAt(): number | null {
    return this.db ? Math.floor(this.lastWorkerRunMs / 1000) : null;
  }

  /** True once the store is open (nothing is made before the first mailer request). */
  get opened(): boolean {
    return this.db !== null;
  }

  get store(): MailerStore {
    if (!this._store) this.open();
    return this._store!;
  }

  get audience(): Audience {
    if (!this._audience) this._audience = new Audience(this.store, this.nowSec, this.siteName);
    return this._audience;
  }

  get uploadDir(): string {
    return join(this.dataDir, 'mailer-uploads');
  }

  private open(): void {
    this.db = openMailerDb(this.dataDir);
    this._store = new MailerStore(this.db);
    const seeded = this.db.prepare("SELECT value FROM meta WHERE key = 'seeded'").get();
    if (!seeded) {
      this.seeded = seedMailer(this.db, this.seedCount, this.nowSec(), this.siteName);
      // the seed's segments carry counts, as the worker would have left them
      for (const seg of this._store.segments()) this.recount(seg.id);
    }
    this.lastTickMs = this.clock.now();
    this.lastWorkerRunMs = this.clock.now();
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Throws everything away and seeds `count` people afresh (imports under way are dropped). */
  reseed(count: number): { subscribers: number; ms: number } {
    this.store; // open
    this.run = null;
    const db = this.db!;
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((t) => t.name);
    db.exec('BEGIN');
    for (const t of tables) db.exec(`DELETE FROM ${t}`);
    db.exec("DELETE FROM sqlite_sequence");
    db.exec('COMMIT');
    rmSync(this.uploadDir, { recursive: true, force: true });
    this.seeded = seedMailer(db, count, this.nowSec(), this.siteName);
    this.store.forgetStatements();
    for (const seg of this.store.segments()) this.recount(seg.id);
    db.exec('VACUUM');
    return this.seeded;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.db?.close();
    this.db = null;
    this._store = null;
    this._audience = null;
  }

  // ---- segments

  /** Count, left out and sample of a checked definition (the audience: subscribed, not suppressed, on the list or any list). */
  countDefinition(group: Group, listId: number | null, sample = 10) {
    const params: Record<string, unknown> = {};
    const cond = groupSql(group, this.nowSec(), params);
    const audience = listId
      ? "s.status = 'subscribed' AND s.suppressed = 0 AND EXISTS (SELECT 1 FROM memberships am WHERE am.subscriber_id = s.id AND am.list_id = @audience_list AND am.status = 'subscribed')"
      : "s.status = 'subscribed' AND s.suppressed = 0 AND EXISTS (SELECT 1 FROM memberships am WHERE am.subscriber_id = s.id AND am.status = 'subscribed')";
    if (listId) params.audience_list = listId;
    const db = this.store.db;
    const matching = (db.prepare(`SELECT count(*) AS n FROM subscribers s WHERE ${cond}`).get(params) as { n: number }).n;
    const count = (db.prepare(`SELECT count(*) AS n FROM subscribers s WHERE (${cond}) AND ${audience}`).get(params) as { n: number }).n;
    const rows = db.prepare(`SELECT s.id, s.email, s.name FROM subscribers s WHERE (${cond}) AND ${audience} ORDER BY s.id DESC LIMIT ${sample}`).all(params) as { id: number; email: string; name: string }[];
    return { count, left_out: matching - count, sample: rows };
  }

  knownIds() {
    const s = this.store;
    return { lists: new Set(s.lists().map((l) => l.id)), tags: new Set(s.tags().map((t) => t.id)), campaigns: new Set(s.campaigns().map((c) => c.id)) };
  }

  /** Counts a saved segment now and keeps the count with its time. */
  recount(id: number): void {
    const seg = this.store.segment(id);
    if (!seg) return;
    let result: { count: number; left_out: number };
    try {
      const checked = checkDefinition(JSON.parse(seg.definition), { flavor: this.flavor, lenient: true, known: this.knownIds() });
      result = this.countDefinition(checked.group, seg.list_id, 0);
    } catch {
      // a field or id no longer there: the segment cannot be counted (its count stays unknown)
      this.store.prep('UPDATE segments SET count = NULL, left_out = NULL, counted_at = NULL WHERE id = ?').run(id);
      return;
    }
    this.store.prep('UPDATE segments SET count = ?, left_out = ?, counted_at = ? WHERE id = ?').run(result.count, result.left_out, this.nowSec(), id);
  }

  // ---- the worker

  /** What the sending worker and the routes that mail need (sending.ts). */
  sendContext(): SendContext {
    const world = this;
    return {
      store: this.store,
      knobs: this.knobs,
      // read when a campaign's audience is, not on every tick (the tags' counts are a scan each)
      get known() {
        return world.knownIds();
      },
      bounce: (id) => void this.audience.act({ action: 'bounce', subscriber_id: id }),
    };
  }

  /**
   * The campaigns' worker, caught up to the sandbox's clock (when the site's queue runs): scheduled
   * campaigns whose time has passed start sending, sending ones mail what the clock allows since
   * they last did (sending.ts), readers open and click. Before every campaign route answers too.
   */
  campaignsDue(): void {
    if (!this.knobs.worker || this.flavor === 'real') return;
    this.store.tx(() => {
      startDue(this.store, this.nowSec());
      stepSending(this.sendContext(), this.clock.now());
    });
  }

  /**
   * The automations' worker, caught up to the sandbox's clock (when the site's queue runs): running
   * flows enrol what their triggers found and move everybody due (flows.ts). Before every flow
   * route answers too.
   */
  flowsDue(): void {
    if (!this.knobs.worker || this.flavor === 'real') return;
    // most ticks find no flow running: the known ids (a scan of the tags) only when one is
    if (!this.store.prep("SELECT 1 FROM flows WHERE status = 'active' LIMIT 1").get()) return;
    this.store.tx(() => stepFlows({ store: this.store, known: this.knownIds(), siteName: this.siteName }, this.nowSec()));
  }

  /** One run of the worker's periodic jobs: recount segments never counted or counted too long ago. */
  runWorkerJobs(): void {
    const stale = this.nowSec() - this.knobs.segmentRecountMinutes * 60;
    for (const s of this.store.segments()) if (s.counted_at === null || s.counted_at < stale) this.recount(s.id);
    this.lastWorkerRunMs = this.clock.now();
  }

  private nextImport(): RawImport | null {
    return (this.store.prep("SELECT * FROM imports WHERE status IN ('running', 'queued') AND spool IS NOT NULL ORDER BY (status = 'running') DESC, id LIMIT 1").get() as RawImport | undefined) ?? null;
  }

  private async importRows(max: number): Promise<number> {
    let done = 0;
    while (done < max) {
      if (!this.run || this.run.done) {
        const next = this.nextImport();
        if (!next) break;
        this.run = new ImportRun({ store: this.store, audience: this.audience, flavor: this.flavor, nowSec: this.nowSec, siteName: this.siteName }, next);
      }
      const run = this.run;
      try {
        done += await run.step(Math.min(SLICE, max - done));
      } catch (e) {
        run.fail(e instanceof Error && !/@/.test(e.message) ? e.message : 'The file could not be read to the end.');
      }
      // let the server answer between slices
      await new Promise((r) => setImmediate(r));
    }
    return done;
  }

  /** The timer: the worker's jobs when due, and import rows as the clock allows. */
  private async tick(): Promise<void> {
    if (this.busy || !this.db) return;
    this.busy = (async () => {
      const now = this.clock.now();
      const elapsed = Math.max(0, now - this.lastTickMs);
      this.lastTickMs = now;
      if (!this.knobs.worker) return;
      if (now - this.lastWorkerRunMs >= this.knobs.workerEverySeconds * 1000) this.runWorkerJobs();
      this.campaignsDue();
      this.flowsDue();
      if (!this.nextImport() && (!this.run || this.run.done)) {
        this.allowance = 0;
        return;
      }
      this.allowance = this.knobs.importRate === 0 ? Infinity : (Number.isFinite(this.allowance) ? this.allowance : 0) + (elapsed * this.knobs.importRate) / 1000;
      const can = this.allowance === Infinity ? 50_000 : Math.floor(this.allowance);
      if (can >= 1) {
        const did = await this.importRows(can);
        if (this.allowance !== Infinity) this.allowance -= did;
      }
    })().finally(() => {
      this.busy = null;
    });
    await this.busy;
  }

  /** Runs the worker now: its jobs, and every queued import to the end (tests, `POST /__sandbox/mailer/worker`). */
  async drain(): Promise<void> {
    while (this.busy) await this.busy;
    this.busy = (async () => {
      this.runWorkerJobs();
      while ((await this.importRows(50_000)) > 0);
    })().finally(() => {
      this.busy = null;
    });
    await this.busy;
  }

  /** Waits for whatever the timer is doing. */
  async settled(): Promise<void> {
    while (this.busy) await this.busy;
  }
}
