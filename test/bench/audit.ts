/**
 * The audit trail kept offline at a million events (issue 16, "Performance"):
 * 1. a 1,000,000-event export written to disk by the sandbox's own export writer (CSV: its
 *    columns, quoting and formula apostrophe; JSON: a bare list, one event a line);
 * 2. a plain INSERT loop of the same rows into the same SQLite file (prepared statement, one
 *    transaction per 10,000, no index): the machine's yardstick, run before and after the
 *    ingest (the mean is the unit every figure is given against, as load changes in a run);
 * 3. the file imported through the real path (`auditCopy.import` on a Host: streamed, parsed,
 *    stored with their tally, then their words added to the full-text index in the background)
 *    into a real SQLite file: events stored per second (goal ≥ 200,000; the moment the job says
 *    its rows are stored and indexing begins), and the time until the million is searchable by
 *    its words (the job's end), the resident set sampled every 50 ms (goal: peak under 300 MB,
 *    flat), the event loop's delay while storing and while indexing;
 * 4. filtered and full-text searches over the million through the Host (`auditCopy.search`, the
 *    contract call: total and a page of 100), once the full-text index holds every event: p50/p95
 *    per query and per kind (goal p95 < 50 ms);
 * 5. "Keep a copy" from a sandbox whose trail is seeded, twice: the second moves no event.
 * Each figure is printed with its ratio to the plain INSERT loop: a rate to its rate, a time to
 * the time it takes to insert 1,000 rows, a peak RSS to its peak RSS.
 * Usage: npm run bench -- audit [EVENTS] [csv|json|both] [KEEP_EVENTS] [ROUNDS]
 */
import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createHost, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { AuditCopyJob, ChannelInput } from '../../electron/contract';
import { hostCalls } from '../support/host-calls';
import { tempDir } from '../support/tmp';
import { CSV_COLUMNS, csvCell, csvLine } from '../sandbox/cms/trail/audit-routes';
import { percentile, withSandbox } from './support/figures';
import { wiredFetch, type Wire } from './support/mirror-host';

const EVENTS = Number(process.argv[2] ?? 1_000_000);
const FORMATS = (process.argv[3] ?? 'both') === 'both' ? (['csv', 'json'] as const) : ([process.argv[3]] as ('csv' | 'json')[]);
const KEEP_EVENTS = Number(process.argv[4] ?? 100_000);
const ROUNDS = Number(process.argv[5] ?? 40);
const BATCH = 10_000;
const NOW = Date.UTC(2026, 10, 24, 12);
const DAYS = 30;

const mb = (bytes: number) => bytes / 1024 / 1024;
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const int = (x: number) => Math.round(x).toLocaleString('en');
const gc = () => (globalThis as { gc?: () => void }).gc?.();

// ── the events (as the sandbox's seed makes them: test/sandbox/cms/trail/seed-trail.ts) ────────

const EVENT_KINDS: [string, string, string][] = [
  ['page.update', 'info', 'page'],
  ['page.create', 'info', 'page'],
  ['page.delete', 'notice', 'page'],
  ['page.move', 'info', 'page'],
  ['media.upload', 'info', 'media'],
  ['media.delete', 'notice', 'media'],
  ['user.update', 'notice', 'user'],
  ['config.update', 'notice', 'config'],
  ['gpm.install', 'notice', 'package'],
  ['user.login.failed', 'warning', 'user'],
];
const ACTORS: [string, string, string[]][] = [
  ['admin', 'Ada Admin', ['administrators']],
  ['editor', 'Eddie Editor', ['editors']],
  ['writer', 'Wren Writer', ['editors']],
  ['publisher', 'Pat Publisher', []],
];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64)', 'Sitedesk/1.0', 'curl/8.5.0'];
const SPAN = DAYS * 86_400_000;

/** Event i of n (id i + 1), oldest first by i. Every 1,000th page update carries a detailed change with quotes and a line break. */
function eventAt(i: number, n: number): Record<(typeof CSV_COLUMNS)[number], unknown> {
  const [event, severity, targetType] = EVENT_KINDS[i % 10]!;
  const [actorId, actorName, roles] = ACTORS[(i * 7) % 4]!;
  const k = i % 10;
  const target = k <= 3 ? `/blog/post-${i % 5000}` : k <= 5 ? `image-${i % 800}.jpg` : k === 7 ? 'site' : k === 8 ? 'sitemap' : actorId;
  const context =
    k === 3 ? { old_route: `/drafts/post-${i % 5000}`, new_route: `/blog/post-${i % 5000}` } : k === 0 ? (i % 1000 === 0 ? { lang: 'en', changes: { title: { old: `Post "${i}"`, new: `Post ${i}\nrevised` } } } : { lang: 'en' }) : null;
  return {
    id: i + 1,
    ts: Math.trunc(NOW - SPAN + (i * SPAN) / n),
    event,
    severity,
    actor_id: actorId,
    actor_name: actorName,
    actor_roles: roles,
    auth_method: i % 3 === 0 ? 'apikey' : 'jwt',
    ip: `203.0.113.${(i % 50) + 1}`,
    user_agent: AGENTS[i % 3],
    target_type: targetType,
    target_id: target,
    status: null,
    context,
  };
}

/** The export file, newest first, written as the sandbox's /audit/export writes it. */
async function writeExport(file: string, format: 'csv' | 'json', n: number): Promise<number> {
  const out = createWriteStream(file);
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'csv') await put(csvLine([...CSV_COLUMNS]));
  else await put('[');
  let chunk = '';
  for (let i = n - 1; i >= 0; i--) {
    const row = eventAt(i, n);
    chunk += format === 'csv' ? csvLine(CSV_COLUMNS.map((c) => csvCell(row[c]))) : `${i === n - 1 ? '\n' : ',\n'}${JSON.stringify(row)}`;
    if (chunk.length > 1 << 20) {
      await put(chunk);
      chunk = '';
    }
  }
  await put(chunk + (format === 'json' ? '\n]' : ''));
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

// ── CPU time per thread (Linux: /proc; elsewhere none) ─────────────────────────────────────────
// This machine is shared: wall-clock rates follow its load, a thread's CPU time per event does not.

const CLOCK_MS = 10; // USER_HZ = 100 on Linux
/** A thread's user + system CPU time (ms) from its /proc stat line. */
function statCpu(path: string): number | null {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_MS;
  } catch {
    return null;
  }
}
/** This thread's CPU time (ms), or null. */
const threadCpu = () => statCpu('/proc/thread-self/stat');
/** Every thread of the process: id → CPU time (ms); a thread that ended keeps its last reading in `seen`. */
function threadsCpu(seen: Map<string, number>): Map<string, number> {
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return seen;
  }
  for (const tid of tids) {
    const ms = statCpu(`/proc/self/task/${tid}/stat`);
    if (ms !== null) seen.set(tid, ms);
  }
  return seen;
}

// ── the yardstick ───────────────────────────────────────────────────────────────────────────

/** A plain INSERT loop of the same rows into the same database file: rows/s (only the transactions timed), their CPU time, and the peak RSS meanwhile. */
function plainLoop(dbFile: string, n: number): { rate: number; peak: number; cpuMs: number | null } {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('secure_delete = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(`DROP TABLE IF EXISTS bench_plain; CREATE TABLE bench_plain (id, ts, event, severity, actor_id, actor_name, actor_roles, auth_method, ip, user_agent, target_type, target_id, status, context)`);
  const insert = db.prepare('INSERT INTO bench_plain VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const tx = db.transaction((rows: unknown[][]) => {
    for (const r of rows) insert.run(r);
  });
  let ms = 0;
  let cpu: number | null = 0;
  let peak = process.memoryUsage().rss;
  for (let start = n - 1; start >= 0; start -= BATCH) {
    const rows: unknown[][] = [];
    for (let i = start; i > start - BATCH && i >= 0; i--) {
      const e = eventAt(i, n);
      rows.push(CSV_COLUMNS.map((c) => (c === 'actor_roles' || c === 'context' ? (e[c] === null ? null : JSON.stringify(e[c])) : e[c])));
    }
    const c = threadCpu();
    const t = performance.now();
    tx(rows);
    ms += performance.now() - t;
    const c2 = threadCpu();
    cpu = cpu === null || c === null || c2 === null ? null : cpu + (c2 - c);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  db.exec('DROP TABLE bench_plain');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { rate: (n / ms) * 1000, peak, cpuMs: cpu };
}

// ── a Host ──────────────────────────────────────────────────────────────────────────────────

interface BenchAuditHost {
  host: Host;
  dir: ReturnType<typeof tempDir>;
  wire: Wire;
  call: ReturnType<typeof hostCalls>['call'];
  /** Starts a job and resolves with its end. */
  job(start: () => Promise<AuditCopyJob>): Promise<{ job: AuditCopyJob; ms: number }>;
  close(): Promise<void>;
}

async function auditHost(): Promise<BenchAuditHost> {
  const dir = tempDir('sitedesk-bench-audit-');
  const { fetch: fetchImpl, wire } = wiredFetch();
  const host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'bench', secrets: new MemorySecretStore(), fetch: fetchImpl, log: () => {} });
  const ends = new Map<string, (j: AuditCopyJob) => void>();
  const early = new Map<string, AuditCopyJob>();
  host.onEvent((name, payload) => {
    if (name !== 'auditCopy.job') return;
    const j = payload as AuditCopyJob;
    if (j.state === 'running') return;
    const end = ends.get(j.id);
    if (end) end(j);
    else early.set(j.id, j);
  });
  const { call } = hostCalls(() => host);
  return {
    host,
    dir,
    wire,
    call,
    async job(start) {
      const t = performance.now();
      const started = await start();
      const job = await new Promise<AuditCopyJob>((resolve) => {
        const done = early.get(started.id);
        if (done) resolve(done);
        else ends.set(started.id, resolve);
      });
      if (job.state !== 'done') throw new Error(`the ${job.kind} ended ${job.state}: ${job.error}`);
      return { job, ms: performance.now() - t };
    },
    async close() {
      await host.close();
      dir.remove();
    },
  };
}

// ── the run ─────────────────────────────────────────────────────────────────────────────────

const files = tempDir('sitedesk-bench-audit-files-');
const report: Record<string, unknown> = { bench: 'audit', events: EVENTS };
try {
  console.log(`the audit trail kept offline: ${int(EVENTS)} events (${FORMATS.join(' and ')}), keep from a sandbox of ${int(KEEP_EVENTS)}, ${ROUNDS} rounds of searches`);
  const exports: Partial<Record<'csv' | 'json', string>> = {};
  for (const format of FORMATS) {
    const file = join(files.path, `audit-log.${format}`);
    const t = performance.now();
    const bytes = await writeExport(file, format, EVENTS);
    exports[format] = file;
    console.log(`export file written by the sandbox's writer: ${format.toUpperCase()} ${f1(mb(bytes))} MB in ${f1((performance.now() - t) / 1000)} s`);
  }
  gc();

  let queried = false;
  for (const format of FORMATS) {
    const bench = await auditHost();
    const dbFile = join(bench.dir.path, 'sitedesk.db');
    try {
      gc();
      const before = plainLoop(dbFile, EVENTS);
      gc();
      const rssBefore = process.memoryUsage().rss;
      const samples: { at: number; rss: number; done: number }[] = [];
      let done = 0;
      const loop = monitorEventLoopDelay({ resolution: 5 });
      const indexLoop = monitorEventLoopDelay({ resolution: 5 });
      // the rows are stored when the job says indexing begins (said at once: a change of stage)
      let storedAt: number | null = null;
      let storedAdded = 0;
      const off = bench.host.onEvent((name, payload) => {
        if (name !== 'auditCopy.job') return;
        const j = payload as AuditCopyJob;
        done = j.done;
        if (storedAt === null && j.indexing !== null) {
          storedAt = performance.now() - started;
          cpuStored = new Map(threadsCpu(cpuSeen));
          storedAdded = j.added;
          loop.disable();
          indexLoop.enable();
        }
      });
      const mainTid = String(process.pid);
      const cpuBefore = new Map(threadsCpu(new Map()));
      const cpuSeen = new Map(cpuBefore);
      let cpuStored: Map<string, number> | null = null;
      const started = performance.now();
      const sampler = setInterval(() => {
        samples.push({ at: performance.now() - started, rss: process.memoryUsage().rss, done });
        threadsCpu(cpuSeen);
      }, 50);
      loop.enable();
      const { job, ms } = await bench.job(() => bench.call('auditCopy.import', { file: exports[format]!, into: { kind: 'file', name: `Bench ${format}` } }));
      loop.disable();
      indexLoop.disable();
      clearInterval(sampler);
      off();
      threadsCpu(cpuSeen);
      const storedMs = storedAt ?? ms;
      if (storedAt !== null && storedAdded !== job.added) throw new Error(`${storedAdded} events stored when indexing began, ${job.added} at the end`);
      const searchable = await bench.call('auditCopy.search', { q: 'zz-nothing', limit: 1 });
      if (searchable.indexing !== null) throw new Error(`the import ended with ${searchable.indexing.total - searchable.indexing.indexed} events not indexed`);
      samples.push({ at: performance.now() - started, rss: process.memoryUsage().rss, done: job.done });
      gc();
      const after = plainLoop(dbFile, EVENTS);
      const plain = (before.rate + after.rate) / 2;
      const plainPeak = Math.max(before.peak, after.peak);
      const rate = (job.added / storedMs) * 1000;
      const searchableRate = (job.added / ms) * 1000;
      const peak = Math.max(...samples.map((s) => s.rss));
      const [copy] = await bench.call('auditCopy.copies', {});
      if (copy?.events !== EVENTS || job.added !== EVENTS || job.unreadable !== 0) throw new Error(`imported ${job.added} of ${EVENTS} (${job.unreadable} unreadable), the copy holds ${copy?.events}`);

      console.log(`\n${format.toUpperCase()} import through auditCopy.import (streamed, parsed, stored with the tally; then full text indexed in the background):`);
      console.log(`  plain INSERT loop, same rows, same file: ${int(before.rate)} rows/s before, ${int(after.rate)} rows/s after (mean ${int(plain)}; 1,000 rows = ${f2((1000 / plain) * 1000)} ms)`);
      console.log(`  ingest (rows stored): ${int(job.added)} events in ${f2(storedMs / 1000)} s = ${int(rate)} events/s  ratio to plain ${f2(rate / plain)}  (goal ≥ 200,000/s) ${rate >= 200_000 ? 'met' : 'MISSED'}`);
      console.log(
        `  searchable by full text: ${f2(ms / 1000)} s from the start (indexing ${f2((ms - storedMs) / 1000)} s after the rows) = ${int(searchableRate)} events/s overall  ratio to plain ${f2(searchableRate / plain)}`,
      );
      // CPU time per event: the Host's thread, and the threads the import started (the file's reader, the WAL's write-back)
      const cpuOf = (at: Map<string, number>, main: boolean) => [...at].filter(([tid]) => (tid === mainTid) === main).reduce((sum, [tid, ms]) => sum + ms - (cpuBefore.get(tid) ?? 0), 0);
      const plainCpu = before.cpuMs !== null && after.cpuMs !== null ? ((before.cpuMs + after.cpuMs) / 2 / EVENTS) * 1000 : null;
      const stored = cpuStored ?? cpuSeen;
      const perEvent = (ms: number) => (ms / job.added) * 1000;
      const cpu = cpuBefore.size && plainCpu !== null ? { main: perEvent(cpuOf(stored, true)), others: perEvent(cpuOf(stored, false)), indexing: perEvent(cpuOf(cpuSeen, true) - cpuOf(stored, true)) } : null;
      if (cpu) {
        console.log(
          `  CPU time per event while storing (this machine's load aside): the Host's thread ${f1(cpu.main)} µs (ratio to the plain loop's ${f1(plainCpu!)} µs per row: ${f2(cpu.main / plainCpu!)}), the import's other threads (file reader, WAL write-back) ${f1(cpu.others)} µs; indexing afterwards ${f1(cpu.indexing)} µs on the Host's thread`,
        );
      }
      const step = Math.max(1, Math.floor(samples.length / 12));
      console.log(`  RSS during the import (MB, every ${f1((step * 50) / 1000)} s): ${samples.filter((_, i) => i % step === 0 || i === samples.length - 1).map((s) => `${f1(s.at / 1000)}s:${mb(s.rss).toFixed(0)}`).join(' ')}`);
      const half = samples.slice(Math.floor(samples.length / 2));
      const firstHalfPeak = Math.max(...samples.slice(0, Math.max(1, Math.floor(samples.length / 2))).map((s) => s.rss));
      console.log(
        `  RSS: before ${f1(mb(rssBefore))} MB, peak ${f1(mb(peak))} MB (ratio to the plain loop's peak ${f1(mb(plainPeak))} MB: ${f2(peak / plainPeak)}), peak of the first half ${f1(mb(firstHalfPeak))} MB, of the second half ${f1(mb(Math.max(...half.map((s) => s.rss))))} MB  (goal < 300 MB, flat) ${mb(peak) < 300 ? 'met' : 'MISSED'}`,
      );
      console.log(`  event loop delay while storing: p50 ${f1(loop.percentile(50) / 1e6)} ms, p99 ${f1(loop.percentile(99) / 1e6)} ms, max ${f1(loop.max / 1e6)} ms`);
      if (storedAt !== null) console.log(`  event loop delay while indexing: p50 ${f1(indexLoop.percentile(50) / 1e6)} ms, p99 ${f1(indexLoop.percentile(99) / 1e6)} ms, max ${f1(indexLoop.max / 1e6)} ms`);
      report[format] = {
        plain_rows_per_s: Math.round(plain),
        ingest_events_per_s: Math.round(rate),
        ingest_ratio: +f2(rate / plain),
        ingest_s: +f2(storedMs / 1000),
        searchable_s: +f2(ms / 1000),
        searchable_events_per_s: Math.round(searchableRate),
        searchable_ratio: +f2(searchableRate / plain),
        peak_rss_mb: +f1(mb(peak)),
        peak_rss_ratio: +f2(peak / plainPeak),
        rss_first_half_mb: +f1(mb(firstHalfPeak)),
        rss_second_half_mb: +f1(mb(Math.max(...half.map((s) => s.rss)))),
        loop_delay_p99_ms: +f1(loop.percentile(99) / 1e6),
        ...(storedAt !== null ? { indexing_loop_delay_p99_ms: +f1(indexLoop.percentile(99) / 1e6) } : {}),
        ...(cpu ? { cpu_us_per_event: { host_thread: +f1(cpu.main), other_threads: +f1(cpu.others), indexing: +f1(cpu.indexing), plain_per_row: +f1(plainCpu!) } } : {}),
      };

      if (!queried) {
        queried = true;
        await searches(bench, plain);
        await keeps(bench, plain);
      }
    } finally {
      await bench.close();
    }
  }
  console.log(JSON.stringify(report));
} finally {
  files.remove();
}

async function searches(bench: BenchAuditHost, plain: number): Promise<void> {
  const newest = NOW;
  const day = 86_400_000;
  const [copy] = await bench.call('auditCopy.copies', {});
  const mid = (await bench.call('auditCopy.search', { limit: 1, from: newest - 15 * day })).events[0]!.key;
  const queries: { kind: 'filtered' | 'full text'; label: string; input: ChannelInput<'auditCopy.search'> }[] = [
    { kind: 'filtered', label: 'everything, newest 100', input: {} },
    { kind: 'filtered', label: 'event page.delete', input: { event: 'page.delete' } },
    { kind: 'filtered', label: 'actor "Eddie Editor" + severity notice', input: { actor: 'Eddie Editor', severity: 'notice' } },
    { kind: 'filtered', label: 'target type media, last 7 days', input: { targetType: 'media', from: newest - 7 * day } },
    { kind: 'filtered', label: 'failed logins in 3 days (hours cut)', input: { event: 'user.login.failed', from: newest - 10 * day + 1234, to: newest - 7 * day - 4321 } },
    { kind: 'filtered', label: 'event + actor + copy, page 2 (keyset)', input: { event: 'page.update', actor: 'admin', copies: [copy!.id], before: mid } },
    { kind: 'full text', label: 'an address: 203.0.113.7', input: { q: '203.0.113.7' } },
    { kind: 'full text', label: 'a page: post-1234', input: { q: 'post-1234' } },
    { kind: 'full text', label: 'a name: Eddie', input: { q: 'Eddie' } },
    { kind: 'full text', label: 'user agent word + event: curl', input: { q: 'curl', event: 'page.update' } },
    { kind: 'full text', label: 'context words: drafts post-42', input: { q: 'drafts post-42' } },
    { kind: 'full text', label: 'prefix + last 3 days: revis*', input: { q: 'revis*', from: newest - 3 * day } },
  ];
  const times = new Map<string, number[]>(queries.map((q) => [q.label, []]));
  const totals = new Map<string, number>();
  for (let round = 0; round < ROUNDS + 3; round++) {
    for (const q of queries) {
      const t = performance.now();
      const r = await bench.host.invoke('auditCopy.search', { limit: 100, ...q.input });
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`${q.label}: ${r.error.message}`);
      totals.set(q.label, (r.value as { total: number }).total);
      if (round >= 3) times.get(q.label)!.push(ms);
    }
  }
  const unit = (1000 / plain) * 1000; // ms to insert 1,000 rows plainly
  console.log(`\nsearches over the ${int(EVENTS)} events through auditCopy.search (total + a page of 100), ${ROUNDS} rounds; ratio = the time ÷ a plain INSERT of 1,000 rows (${f2(unit)} ms):`);
  const out: Record<string, unknown> = {};
  for (const kind of ['filtered', 'full text'] as const) {
    const all: number[] = [];
    for (const q of queries.filter((x) => x.kind === kind)) {
      const xs = times.get(q.label)!;
      all.push(...xs);
      console.log(`  ${kind.padEnd(9)} ${q.label.padEnd(40)} p50 ${f2(percentile(xs, 50)).padStart(6)} ms  p95 ${f2(percentile(xs, 95)).padStart(6)} ms  (${int(totals.get(q.label)!)} matches)`);
    }
    const p95 = percentile(all, 95);
    console.log(`  ${kind}: p50 ${f2(percentile(all, 50))} ms, p95 ${f2(p95)} ms, ratio ${f2(p95 / unit)}  (goal p95 < 50 ms) ${p95 < 50 ? 'met' : 'MISSED'}`);
    out[kind === 'filtered' ? 'filtered' : 'full_text'] = { p50_ms: +f2(percentile(all, 50)), p95_ms: +f2(p95), p95_ratio: +f2(p95 / unit) };
  }
  report.search = out;
}

async function keeps(bench: BenchAuditHost, plain: number): Promise<void> {
  await withSandbox(
    1,
    async (sandbox) => {
      const site = await bench.call('sites.add', { name: 'Bench site', kind: 'cms', baseUrl: sandbox.url, environment: null, authMode: 'apikey', apiKey: sandbox.apiKey });
      const runs: { job: AuditCopyJob; ms: number; requests: number }[] = [];
      for (let i = 0; i < 2; i++) {
        bench.wire.clear();
        const r = await bench.job(() => bench.call('auditCopy.keep', { siteId: site.id }));
        runs.push({ ...r, requests: bench.wire.sentAt.length });
      }
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      const rate = (first.job.added / first.ms) * 1000;
      const unit = (1000 / plain) * 1000;
      console.log(`\nkeep a copy from a sandbox whose trail holds ${int(KEEP_EVENTS)} events (pages of 1,000 over loopback, rate limit off):`);
      console.log(`  first keep: ${int(first.job.transferred)} events transferred, ${int(first.job.added)} added, in ${f2(first.ms / 1000)} s (${first.requests} requests) = ${int(rate)} events/s  ratio to plain ${f2(rate / plain)}`);
      console.log(`  second keep of the unchanged trail: ${second.job.transferred} events transferred, ${second.job.added} added, ${second.requests} request(s), in ${f2(second.ms)} ms  ratio ${f2(second.ms / unit)}  (goal: 0 events) ${second.job.transferred === 0 ? 'met' : 'MISSED'}`);
      report.keep = {
        seeded: KEEP_EVENTS,
        first_transferred: first.job.transferred,
        first_events_per_s: Math.round(rate),
        first_ratio: +f2(rate / plain),
        second_transferred: second.job.transferred,
        second_requests: second.requests,
        second_ms: +f2(second.ms),
        second_ratio: +f2(second.ms / unit),
      };
    },
    { auditSeed: KEEP_EVENTS },
  );
}
