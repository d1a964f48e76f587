/**
 * Writing the WAL back into the database file from a worker thread while a long job writes (an
 * audit import or keep: db/repos/audit-copy.ts `bulk`). A checkpoint copies the WAL's pages into
 * the file and waits for the disk; run by the connection that commits (SQLite's automatic
 * checkpoint) it held the Host's event loop for up to 200 ms at a time and took a sixth of an
 * import. Here its own connection, in its own thread, checkpoints PASSIVE every CHECKPOINT_MS:
 * it never waits for the Host's writer or readers. The WAL starts again from its beginning only
 * when a write begins with all of it written back, which a writer committing every few
 * milliseconds never sees; so once the WAL holds more than the writer allows, the writer asks for
 * one more write-back and waits for it (`catchUp`, asynchronously: the Host's loop goes on) before
 * its next batch. How much the WAL holds is the writer's to measure (bulk's walPause), not this
 * thread's to report: a report is up to a period old, and several batches commit in a period.
 * Started as the integrity check's worker is (db/integrity.ts): code as text, the Host's own
 * better-sqlite3 (one SQLite library per process: two would break each other's locks).
 */
import { Worker } from 'node:worker_threads';
import { sqliteModule } from './integrity';

/** How often the worker writes the WAL back. */
export const CHECKPOINT_MS = 150;

// CommonJS on purpose: an eval'd worker has require(), and the module path comes from the Host.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
let timer;
const once = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const stop = () => {
  clearInterval(timer);
  try { db && db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  try { db && db.close(); } catch {}
  parentPort.close();
};
try {
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 0');
  timer = setInterval(once, workerData.everyMs);
  parentPort.on('message', (m) => {
    if (m === 'stop') stop();
    else if (m === 'now') { once(); parentPort.postMessage('written'); }
  });
  parentPort.postMessage('started');
} catch (err) {
  parentPort.postMessage('failed');
  try { db && db.close(); } catch {}
  parentPort.close();
}
`;

export interface Checkpointer {
  /** Resolves true once its connection is open (false: it could not start; the caller keeps SQLite's own checkpoints). */
  started: Promise<boolean>;
  /**
   * Writes back now and resolves once it has (with no commit meanwhile, all of the WAL), after
   * `waitMs` without an answer (a thread starved of CPU, a checkpoint stuck on a dying disk) or
   * once the worker ended.
   */
  catchUp(waitMs?: number): Promise<void>;
  /** Resolves when the worker has ended (stopped, or on its own: then the caller's own checkpoints take over). */
  ended: Promise<void>;
  /** Writes back once more, closes its connection and ends; resolves when it has. */
  stop(): Promise<void>;
}

/** Starts writing the WAL of `file` back every CHECKPOINT_MS. */
export function startCheckpointer(file: string, everyMs = CHECKPOINT_MS): Checkpointer {
  let worker: Worker | undefined;
  let ended: Promise<void> = Promise.resolve();
  let gone = false;
  // answers come in the order the requests went: each wakes the oldest request waiting
  const waiting: (() => void)[] = [];
  const started = new Promise<boolean>((resolve) => {
    try {
      // a few statements and no data: the least heap V8 gives a thread (its memory is the Host's too)
      worker = new Worker(WORKER, { eval: true, workerData: { file, module: sqliteModule(), everyMs }, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 24 } });
    } catch {
      resolve(false);
      return;
    }
    const w = worker;
    ended = new Promise<void>((done) =>
      w.once('exit', () => {
        gone = true;
        for (const wake of waiting.splice(0)) wake();
        done();
      }),
    );
    w.on('message', (m: string) => {
      if (m === 'written') waiting.shift()?.();
      else resolve(m === 'started');
    });
    w.once('error', () => resolve(false));
    w.once('exit', () => resolve(false));
  });
  return {
    started,
    get ended() {
      return ended;
    },
    catchUp(waitMs = 10_000) {
      if (!worker || gone) return Promise.resolve();
      const w = worker;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        // one given up on stays in the queue, to take its own late answer (resolving twice is nothing)
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
        w.postMessage('now');
      });
    },
    async stop() {
      if (!worker) return;
      worker.postMessage('stop');
      // a worker that does not end on its own (a checkpoint stuck on a dying disk) is ended
      const timer = setTimeout(() => void worker?.terminate(), 2_000);
      await ended;
      clearTimeout(timer);
    },
  };
}
