/**
 * An export imported through the worker thread that reads it (electron/audit-copy/import-source.ts,
 * import-worker.ts as the build carries it) into a real SQLite file: the worker's batches are the
 * ones the Host's thread would read; a file that is no export and a file that cannot be read are
 * said as the Host says them; the worker never runs more than CREDITS batches ahead and memory
 * stays flat over a long file; a cancel during the worker's reading leaves only whole batches
 * (and importing again adds the rest, nothing twice); the full-text index agrees with the events
 * whether a batch is indexed as a key range or key by key; more actors than the packer remembers;
 * an import's words added after its rows (newest first, in steps, going on after a restart, with
 * removals, keeps and other copies writing inside the range still to index).
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { closeDatabase, openDatabase, type Db } from '../../electron/db';
import { auditCopyRepo, packRefs, type AuditCopyRepo, type EventInput } from '../../electron/db/repos/audit-copy';
import { ACTOR_WIDTH, KIND_WIDTH, PACKED_WIDTH, type PackedBatch } from '../../electron/db/repos/audit-pack';
import { CREDITS, importSteps, importWorkerCode } from '../../electron/audit-copy/import-source';
import type { ImportStep } from '../../electron/audit-copy/import-reader';
import { FileJobCancelled, importFile, type ImportTally } from '../../electron/audit-copy/files';
import { csvLine } from '../../electron/audit-copy/csv';
import { CSV_COLUMNS } from '../../electron/audit-copy/event-row';
import { isAppError } from '../../electron/base/app-error';
import { tempDir } from '../support/tmp';
import { until } from '../support/until';

const T = Date.UTC(2026, 10, 24, 12);

/** An export newest first: `n` events from `first` on, a millisecond apart by `step`. */
function exportText(format: 'csv' | 'json', n: number, opts: { first?: number; step?: number; actor?: (i: number) => string } = {}): string {
  const first = opts.first ?? 1;
  const step = opts.step ?? 1000;
  const rows: Record<string, unknown>[] = [];
  for (let i = first + n - 1; i >= first; i--) {
    rows.push({
      id: i,
      ts: T + i * step,
      event: ['page.update', 'page.move', 'user.login.failed'][i % 3],
      severity: i % 3 === 2 ? 'warning' : 'info',
      actor_id: `user${i % 4}`,
      actor_name: opts.actor ? opts.actor(i) : `Wren Writer ${i % 4}`,
      actor_roles: ['editors'],
      auth_method: 'jwt',
      ip: `203.0.113.${i % 9}`,
      user_agent: i % 2 ? 'curl/8.5.0' : 'Mozilla/5.0 (X11; Linux x86_64)',
      target_type: 'page',
      target_id: `/blog/post-${i}`,
      status: null,
      context: i % 3 === 1 ? { old_route: `/drafts/post-${i}`, new_route: `/blog/post-${i}` } : null,
    });
  }
  if (format === 'json') return `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
  return csvLine([...CSV_COLUMNS]) + rows.map((r) => csvLine(CSV_COLUMNS.map((c) => (r[c] === null ? '' : typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c]))))).join('');
}

let dir: ReturnType<typeof tempDir>;
let db: Db;
let repo: AuditCopyRepo;
beforeEach(() => {
  dir = tempDir();
  db = openDatabase(join(dir.path, 'sitedesk.db'));
  repo = auditCopyRepo(db);
});
afterEach(() => {
  closeDatabase(db);
  dir.remove();
});

const file = (name: string, text: string) => {
  const path = join(dir.path, name);
  writeFileSync(path, text);
  return path;
};

async function collect(steps: AsyncIterable<ImportStep>): Promise<ImportStep[]> {
  const out: ImportStep[] = [];
  for await (const s of steps) out.push(s);
  return out;
}

/** The events of the batches, their kinds and actors resolved (refs are the packer's own). */
function events(steps: ImportStep[]) {
  const kinds = new Map<number, unknown[]>();
  const actors = new Map<number, unknown[]>();
  const out: unknown[][] = [];
  for (const b of steps.map((s) => s.batch).filter((x): x is PackedBatch => x !== null)) {
    for (let i = 0; i < b.kinds.length; i += KIND_WIDTH) kinds.set(b.kinds[i] as number, b.kinds.slice(i + 1, i + KIND_WIDTH));
    for (let i = 0; i < b.actors.length; i += ACTOR_WIDTH) actors.set(b.actors[i] as number, b.actors.slice(i + 1, i + ACTOR_WIDTH));
    for (let o = 0; o < b.rows.length; o += PACKED_WIDTH) {
      const r = b.rows.slice(o, o + PACKED_WIDTH);
      out.push([r[0], r[1], ...kinds.get(r[2] as number)!, ...actors.get(r[3] as number)!, r[4], r[5], r[6], r[7]]);
    }
  }
  return out;
}

const ftsAgrees = () => {
  // FTS5 checks its index against the view of the events
  db.exec(`INSERT INTO audit_fts (audit_fts) VALUES ('integrity-check')`);
  return true;
};
const count = (copyId: number) => (db.prepare('SELECT count(*) AS n FROM audit_events WHERE copy_id = ?').get(copyId) as { n: number }).n;

async function run(copyId: number, path: string, format: 'csv' | 'json', over: { batchSize?: number; signal?: AbortSignal; progress?: (t: ImportTally) => void; workerCode?: string | null } = {}) {
  return repo.bulk(() =>
    importFile({ repo, copyId, file: path, size: existsSync(path) ? statSync(path).size : 0, format, signal: over.signal ?? new AbortController().signal, progress: over.progress ?? (() => {}), ...(over.batchSize ? { batchSize: over.batchSize } : {}), ...(over.workerCode !== undefined ? { workerCode: over.workerCode } : {}) }),
  );
}

describe('reading in a worker thread', () => {
  test('the build carries the worker; its batches are the ones this thread reads, for CSV and JSON', async () => {
    expect(importWorkerCode()).toEqual(expect.stringContaining('runImportWorker'));
    for (const format of ['csv', 'json'] as const) {
      const path = file(`e.${format}`, exportText(format, 1_234));
      const inWorker = importSteps({ file: path, format, batchSize: 100 });
      const here = importSteps({ file: path, format, batchSize: 100, workerCode: null });
      expect([inWorker.inWorker, here.inWorker]).toEqual([true, false]);
      const [a, b] = await Promise.all([collect(inWorker), collect(here)]);
      expect(a.map((s) => s.batch?.rows.length ?? null)).toEqual([...Array(12).fill(100 * PACKED_WIDTH), 34 * PACKED_WIDTH, null]);
      expect(events(a)).toEqual(events(b));
      expect(events(a)).toHaveLength(1_234);
      expect(a.at(-1)).toMatchObject({ read: 1_234, unreadable: 0, problems: [] });
    }
  });

  test('a file that is no export, and a file that cannot be read, are said in words as the Host says them', async () => {
    const copyId = repo.createCopy('file', null, 'X');
    const people = file('people.csv', 'name,email\nA,a@example.com\n');
    const refused = await run(copyId, people, 'csv').catch((e: unknown) => e);
    expect(isAppError(refused) && refused.info).toMatchObject({ message: expect.stringMatching(/^That file cannot be imported: the first line names no id, ts, event column/) });
    const gone = await run(copyId, join(dir.path, 'gone.csv'), 'csv').catch((e: unknown) => e);
    expect(isAppError(gone) && gone.message).toBe('The file could not be read: it is no longer there. What was imported before stays.');
    const notJson = await run(copyId, file('x.json', '{"data": []}'), 'json').catch((e: unknown) => e);
    expect(isAppError(notJson) && notJson.message).toMatch(/^That file cannot be imported: The file is not a JSON list of events/);
    expect(count(copyId)).toBe(0);
  });

  test('the worker never runs more than CREDITS batches ahead of what is taken; ending early ends it', async () => {
    const path = file('long.csv', exportText('csv', 20_000));
    const steps = importSteps({ file: path, format: 'csv', batchSize: 200 });
    const first = await steps.next();
    expect(first.done).toBe(false);
    await new Promise((r) => setTimeout(r, 400)); // the worker reads as far as it may
    expect(steps.buffered).toBe(CREDITS);
    await steps.next();
    await new Promise((r) => setTimeout(r, 200));
    expect(steps.buffered).toBe(CREDITS);
    await steps.return!();
    expect(await steps.next()).toEqual({ done: true, value: undefined });
  });

  test('memory stays flat over a long file: what is read is written and let go, batch by batch', async () => {
    // a full garbage collection on demand (V8 otherwise lets its heap grow lazily, whatever is kept)
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const path = file('long.csv', exportText('csv', 80_000, { step: 17 }));
    /** The heap kept once a copy of the file is imported, and the resident set's peak meanwhile. */
    const importOnce = async (name: string) => {
      const copyId = repo.createCopy('file', null, name);
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const tally = await run(copyId, path, 'csv');
      clearInterval(timer);
      expect(tally).toMatchObject({ read: 80_000, added: 80_000, unreadable: 0 });
      expect(count(copyId)).toBe(80_000);
      await new Promise((r) => setTimeout(r, 50)); // the workers' ends
      gc();
      return { kept: process.memoryUsage().heapUsed, grew: peak - before };
    };
    // the first import warms up (code, SQLite's caches); each further one reads as many events
    // again and keeps nothing of them: holding the file or what was read would keep some 40 MB
    const first = await importOnce('One');
    const later = [await importOnce('Two'), await importOnce('Three'), await importOnce('Four')];
    for (const l of later) expect(l.kept - first.kept).toBeLessThan(4 * 1024 * 1024);
    // and while reading, the resident set grows by the two worker threads' heaps (the reader's, the
    // WAL's write-back) and a few batches, the same for each import
    const grown = later.map((l) => l.grew);
    for (const g of grown) expect(g).toBeLessThan(128 * 1024 * 1024);
    expect(Math.max(...grown) - Math.min(...grown)).toBeLessThan(32 * 1024 * 1024);
  }, 60_000);
});

describe('the WAL written back beside the import', () => {
  test('a worker thread writes it back while a long job writes; SQLite’s own write-back is off meanwhile and on again after', async () => {
    repo = auditCopyRepo(db, { walLimit: 300 }); // 1.2 MB
    const copyId = repo.createCopy('file', null, 'Wal');
    const path = file('wal.csv', exportText('csv', 100_000, { step: 13 }));
    const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
    const walBytes = () => (existsSync(`${join(dir.path, 'sitedesk.db')}-wal`) ? statSync(`${join(dir.path, 'sitedesk.db')}-wal`).size : 0);
    const seen: number[] = [];
    let walPeak = 0;
    await repo.bulk(async () => {
      seen.push(await until(async () => autocheckpoint() as number, (v) => v === 0)); // once the worker's connection is open
      await importFile({ repo, copyId, file: path, size: statSync(path).size, format: 'csv', signal: new AbortController().signal, batchSize: 1_000, progress: () => (walPeak = Math.max(walPeak, walBytes())) });
      seen.push(autocheckpoint() as number);
    });
    expect(seen).toEqual([0, 0]);
    expect(autocheckpoint()).toBe(1000);
    // the WAL file is cut back at each restart only while the job writes (its size is the measure)
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(-1);
    expect(count(copyId)).toBe(100_000);
    // written back as it went: the WAL started again from its beginning instead of holding the
    // import (it would hold some 20 MB: more than the database file itself)
    const { n: size } = db.prepare('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()').get() as { n: number };
    expect(size).toBeGreaterThan(12 * 1024 * 1024);
    expect(walPeak).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('a cancel during the worker’s reading', () => {
  test('leaves whole batches only; importing again adds the rest and nothing twice', async () => {
    const copyId = repo.createCopy('file', null, 'Cut');
    const path = file('cut.json', exportText('json', 5_000));
    const controller = new AbortController();
    let progressed = 0;
    const cut = await run(copyId, path, 'json', {
      batchSize: 300,
      signal: controller.signal,
      progress: () => {
        if (++progressed === 3) controller.abort('cancel');
      },
    }).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(FileJobCancelled);
    const kept = count(copyId);
    expect(kept).toBe(3 * 300);
    expect(repo.countFrom(copyId, 0)).toBe(kept); // the tally agrees
    // the stored batches' words are added in the background after a cancel too
    expect(repo.unindexed([copyId])).toBeLessThanOrEqual(kept);
    await repo.indexText();
    expect(repo.unindexed(null)).toBe(0);
    expect(ftsAgrees()).toBe(true);

    const again = await run(copyId, path, 'json', { batchSize: 300 });
    expect(again).toMatchObject({ added: 5_000 - kept, duplicates: kept, unreadable: 0 });
    expect(count(copyId)).toBe(5_000);
    expect(db.prepare('SELECT count(DISTINCT event_id) AS n FROM audit_events WHERE copy_id = ?').get(copyId)).toEqual({ n: 5_000 });
    expect(ftsAgrees()).toBe(true);
  });
});

describe('the full-text index of an import', () => {
  test('agrees with the events whether a batch is its own key range or shares it with other events', async () => {
    const a = repo.createCopy('file', null, 'A');
    const b = repo.createCopy('file', null, 'B');
    // A: every other second; B: the same seconds and those between (its batches share A's key range)
    await run(a, file('a.csv', exportText('csv', 2_000, { step: 2_000 })), 'csv', { batchSize: 250 });
    await run(b, file('b.json', exportText('json', 4_000, { step: 1_000, first: 1 })), 'json', { batchSize: 250 });
    // and A again with its range partly taken (the duplicates left alone)
    const again = await run(a, file('a2.csv', exportText('csv', 3_000, { step: 2_000 })), 'csv', { batchSize: 250 });
    expect(again).toMatchObject({ added: 1_000, duplicates: 2_000 });
    expect(ftsAgrees()).toBe(true);
    const words = db.prepare(`SELECT count(*) AS n FROM audit_fts WHERE audit_fts MATCH ?`).pluck();
    // every event's target is in the index once per copy holding it
    expect(words.get('"post 2999"')).toBe(2); // A and B
    expect(words.get('"post 3999"')).toBe(1); // B only
    const read = new Database(join(dir.path, 'sitedesk.db'), { readonly: true });
    try {
      expect(read.prepare('SELECT count(*) AS n FROM audit_events').get()).toEqual({ n: 7_000 });
    } finally {
      read.close();
    }
  });

  test('more different actors than the packer remembers: each event keeps its own', async () => {
    const copyId = repo.createCopy('file', null, 'Many');
    await run(copyId, file('many.csv', exportText('csv', 24_000, { actor: (i) => `Person ${i}` })), 'csv', { batchSize: 4_000 });
    const names = db.prepare('SELECT e.event_id AS id, a.actor_name AS name FROM audit_events e JOIN audit_actors a ON a.id = e.actor WHERE e.copy_id = ?').all(copyId) as { id: number; name: string }[];
    expect(names).toHaveLength(24_000);
    expect(names.every((r) => r.name === `Person ${r.id}`)).toBe(true);
  }, 60_000);
});

describe('a batch written many rows to a statement', () => {
  const event = (id: number, ts: number): EventInput => ({
    id, ts, event: 'page.update', severity: 'info', actorId: 'admin', actorName: 'Ada', actorRoles: ['administrators'], authMethod: 'token',
    ip: '203.0.113.7', userAgent: 'curl/8.5.0', targetType: 'page', targetId: `/blog/post-${id}`, status: 200, context: id % 2 ? { lang: 'en' } : null,
  });
  const rowsOf = (copyId: number) => db.prepare('SELECT id, event_id, target_id, context, ts FROM audit_events WHERE copy_id = ? ORDER BY id').all(copyId) as { id: number; event_id: number; target_id: string; context: string | null; ts: number | null }[];
  const tallied = (copyId: number) => db.prepare('SELECT coalesce(sum(n), 0) AS n FROM audit_tally WHERE copy_id = ?').pluck().get(copyId);

  test('a new time range: every event at its key with its values, the tally and the index agreeing', () => {
    const copyId = repo.createCopy('file', null, 'Fresh');
    // 100 events (three statements of 32 and four one by one), two to a second
    const added = repo.transaction(() => repo.insertBatch(copyId, Array.from({ length: 100 }, (_, i) => event(i + 1, T + Math.floor(i / 2) * 1000))));
    expect(added).toEqual({ added: 100, duplicates: 0 });
    const rows = rowsOf(copyId);
    expect(rows.map((r) => r.event_id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(rows[0]).toEqual({ id: T * 1000, event_id: 1, target_id: '/blog/post-1', context: '{"lang":"en"}', ts: null });
    expect(rows[1]).toEqual({ id: T * 1000 + 1, event_id: 2, target_id: '/blog/post-2', context: null, ts: null });
    expect(rows[99]!.id).toBe((T + 49_000) * 1000 + 1);
    expect(tallied(copyId)).toBe(100);
    expect(ftsAgrees()).toBe(true);
  });

  test('an id twice in one batch: the batch goes in one by one and the second is a duplicate', () => {
    const copyId = repo.createCopy('file', null, 'Twice');
    const batch = Array.from({ length: 70 }, (_, i) => event(i + 1, T + i * 1000));
    batch.push(event(40, T + 39_000)); // the same event read twice
    expect(repo.transaction(() => repo.insertBatch(copyId, batch))).toEqual({ added: 70, duplicates: 1 });
    expect(count(copyId)).toBe(70);
    expect(tallied(copyId)).toBe(70);
    expect(ftsAgrees()).toBe(true);
  });

  test('more events in one millisecond than it has keys: the rest after it, their time kept', () => {
    const copyId = repo.createCopy('file', null, 'Crowded');
    expect(repo.transaction(() => repo.insertBatch(copyId, Array.from({ length: 1_200 }, (_, i) => event(i + 1, T))))).toEqual({ added: 1_200, duplicates: 0 });
    const rows = rowsOf(copyId);
    expect(rows[999]).toMatchObject({ id: T * 1000 + 999, ts: null });
    expect(rows[1_000]).toMatchObject({ id: T * 1000 + 1000, ts: T });
    expect(rows[1_199]).toMatchObject({ id: T * 1000 + 1199, ts: T });
    // read again: each one found, those kept past the millisecond's keys too
    expect(repo.transaction(() => repo.insertBatch(copyId, Array.from({ length: 1_200 }, (_, i) => event(i + 1, T))))).toEqual({ added: 0, duplicates: 1_200 });
    // a batch of the millisecond after: its keys free, but events of the one before are kept past their keys
    expect(repo.transaction(() => repo.insertBatch(copyId, [event(1_000, T), event(5_000, T + 1)]))).toEqual({ added: 1, duplicates: 1 });
    expect(count(copyId)).toBe(1_201);
  });

  test('a batch whose ids the copy partly holds, or whose keys another copy holds, goes in one by one', () => {
    const a = repo.createCopy('file', null, 'A');
    const b = repo.createCopy('file', null, 'B');
    repo.transaction(() => repo.insertBatch(a, Array.from({ length: 40 }, (_, i) => event(i + 1, T + i * 1000))));
    // A again, half of it events it has (the same ids at the same times) and half new ones
    expect(repo.transaction(() => repo.insertBatch(a, Array.from({ length: 40 }, (_, i) => event(i + 21, T + (i + 20) * 1000))))).toEqual({ added: 20, duplicates: 20 });
    // an id A has at another time is another event (a trail the site started again)
    expect(repo.transaction(() => repo.insertBatch(a, [event(1, T + 500_000)]))).toEqual({ added: 1, duplicates: 0 });
    // B at A's times: its events after A's in each millisecond
    expect(repo.transaction(() => repo.insertBatch(b, Array.from({ length: 40 }, (_, i) => event(i + 1, T + i * 1000))))).toEqual({ added: 40, duplicates: 0 });
    expect(rowsOf(b)[0]).toMatchObject({ id: T * 1000 + 1, event_id: 1, ts: null });
    expect(count(a)).toBe(61);
    expect(tallied(a)).toBe(61);
    expect(tallied(b)).toBe(40);
    expect(ftsAgrees()).toBe(true);
  });
});

describe('the full-text index added after an import’s rows', () => {
  /** Stores the file's events without their words, as an import's storing does (its indexing not run: a quit right after). */
  async function storeOnly(copyId: number, path: string, format: 'csv' | 'json', batchSize = 500): Promise<number> {
    const refs = packRefs();
    let added = 0;
    await repo.storing(async () => {
      for await (const step of importSteps({ file: path, format, batchSize, workerCode: null })) {
        if (step.batch) added += repo.transaction(() => repo.insertPacked(copyId, step.batch!, refs, { deferText: true })).added;
      }
    });
    return added;
  }
  const words = () => db.prepare(`SELECT count(*) AS n FROM audit_fts WHERE audit_fts MATCH ?`).pluck();
  const ranges = () => db.prepare('SELECT copy_id AS copyId, lo, hi, n FROM audit_unindexed ORDER BY copy_id, lo').all() as { copyId: number; lo: number; hi: number; n: number }[];
  const event = (id: number, ts: number, target: string): EventInput => ({
    id, ts, event: 'page.update', severity: 'info', actorId: 'kept', actorName: 'Kept Later', actorRoles: [], authMethod: 'jwt', ip: '198.51.100.4', userAgent: null, targetType: 'page', targetId: target, status: null, context: null,
  });

  test('rows first, one range to index; then newest first in steps, each its own transaction; the index agrees at the end', async () => {
    const copyId = repo.createCopy('file', null, 'Later');
    expect(await storeOnly(copyId, file('later.csv', exportText('csv', 6_000)), 'csv')).toBe(6_000);
    // twelve batches made one range, and none of their words is in the index yet
    expect(ranges()).toEqual([{ copyId, lo: expect.any(Number), hi: expect.any(Number), n: 6_000 }]);
    expect(repo.unindexed([copyId])).toBe(6_000);
    expect(repo.unindexed(null)).toBe(6_000);
    expect(words().get('"post 6000"')).toBe(0);
    const seen: { left: number; newest: number; oldest: number }[] = [];
    await repo.indexText({ progress: (left) => seen.push({ left, newest: words().get('"post 6000"') as number, oldest: words().get('"post 1"') as number }) });
    // the newest event searchable after the first step, the oldest only after the last
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]).toMatchObject({ newest: 1, oldest: 0 });
    expect(seen.at(-1)).toEqual({ left: 0, newest: 1, oldest: 1 });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.left).toBeLessThan(seen[i - 1]!.left);
    expect(ranges()).toEqual([]);
    expect(repo.unindexed(null)).toBe(0);
    expect(ftsAgrees()).toBe(true);
    expect(words().get('"post 3000"')).toBe(1);
  });

  test('removals, a keep and another copy writing inside a range still to index: the index agrees once it is done', async () => {
    const a = repo.createCopy('file', null, 'A');
    const b = repo.createCopy('file', null, 'B');
    const gone = repo.createCopy('file', null, 'Gone');
    // a second apart: T + 1 s … T + 4000 s
    await storeOnly(a, file('a.json', exportText('json', 4_000)), 'json');
    // (a time of its own: a batch among other events' keys is indexed at once, key by key)
    await storeOnly(gone, file('gone.csv', exportText('csv', 1_000, { first: 5_001 })), 'csv');
    expect(repo.unindexed(null)).toBe(5_000);
    // retention removes A's oldest 500, still to index: their words were never in the index
    const cut = (T + 501 * 1000) * 1000;
    expect(repo.transaction(() => repo.removeOlder(a, cut, 10_000))).toBe(500);
    expect(repo.unindexed([a])).toBe(3_500);
    // a keep adds A events between those of the range (half a second later): left to the indexing
    const kept = Array.from({ length: 200 }, (_, i) => event(100_000 + i, T + (1_000 + i) * 1000 + 500, `/kept/${i}`));
    expect(repo.transaction(() => repo.insertBatch(a, kept)).added).toBe(200);
    expect(repo.unindexed([a])).toBe(3_700);
    // and B's events in the same time: indexed at once (B has nothing to index)
    const other = Array.from({ length: 300 }, (_, i) => event(i + 1, T + (2_000 + i) * 1000 + 250, `/other/${i}`));
    expect(repo.transaction(() => repo.insertBatch(b, other)).added).toBe(300);
    expect(repo.unindexed([b])).toBe(0);
    expect(words().get('"other 7"')).toBe(1);
    // a copy forgotten while its words wait: its range goes with its last events
    repo.markForgotten(gone);
    while (repo.transaction(() => repo.forgetChunk(gone, 300)) > 0);
    expect(repo.unindexed([gone])).toBe(0);
    expect(repo.unindexed(null)).toBe(3_700);
    await repo.indexText();
    expect(ranges()).toEqual([]);
    expect(ftsAgrees()).toBe(true);
    expect(words().get('"kept 199"')).toBe(1);
    expect(words().get('"post 3999"')).toBe(1);
    expect(words().get('"post 5999"')).toBe(0); // Gone's went with it
    expect(words().get('"post 2500"')).toBe(1);
    expect(words().get('"post 499"')).toBe(0); // removed before it was indexed
  });

  test('a quit while words wait: the next start goes on from the range left', async () => {
    const copyId = repo.createCopy('file', null, 'Quit');
    await storeOnly(copyId, file('quit.csv', exportText('csv', 3_000)), 'csv');
    // the Host closes after the first step: the next finds the database closed and stops
    await repo.indexText({ progress: () => db.open && closeDatabase(db) });
    db = openDatabase(join(dir.path, 'sitedesk.db'));
    repo = auditCopyRepo(db);
    const left = repo.unindexed(null);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(3_000);
    await repo.indexText();
    expect(repo.unindexed(null)).toBe(0);
    expect(ftsAgrees()).toBe(true);
    expect(count(copyId)).toBe(3_000);
  });
});
