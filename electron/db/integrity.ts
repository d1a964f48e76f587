/**
 * The integrity check of the database file, run after start in a worker thread on a read-only
 * connection of its own. PRAGMA quick_check reads every page: on a 1 GB file it took 14–26 s here
 * (docs/architecture.md, Data), far too long to hold the start or the Host's event loop, so the
 * app opens at once and the answer arrives when it is ready. better-sqlite3 is loaded once per
 * process, so the worker shares the Host's SQLite library (two copies in one process would break
 * each other's file locks).
 */
import { Worker } from 'node:worker_threads';

export type IntegrityResult = { ok: true } | { ok: false; problems: string[] } | { ok: null; error: string };

// CommonJS on purpose: an eval'd worker has require(), and the module path comes from the Host.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  const rows = db.pragma('quick_check(20)', { simple: false }).map((r) => String(Object.values(r)[0]));
  parentPort.postMessage(rows.length === 1 && rows[0] === 'ok' ? { ok: true } : { ok: false, problems: rows });
} catch (err) {
  const code = err && err.code;
  if (typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')) parentPort.postMessage({ ok: false, problems: [String(err.message)] });
  else parentPort.postMessage({ ok: null, error: String(err && err.message) });
} finally {
  try { db && db.close(); } catch {}
}
`;

/** Where this process loads better-sqlite3 from (the bundles and the tests all have a require); its workers load the same. */
export function sqliteModule(): string {
  return require.resolve('better-sqlite3');
}

/** How long a closing Host waits for a check still running before it leaves the thread to finish alone. */
export const STOP_WAIT_MS = 5_000;

/**
 * Runs the check; answers `{ok: true}`, the problems SQLite lists, or `{ok: null}` when the check
 * itself could not run (the file gone, the worker refused). `cancel` (the Host closing) drops the
 * answer and resolves once the thread has ended, which on any file but a huge one is at once; after
 * STOP_WAIT_MS it is left to finish alone (unref'd: it no longer keeps the process alive). It is
 * never terminated: better-sqlite3 13 aborts the whole process when a thread is terminated inside
 * it (loading the addon, or during a statement: WiseLibs/better-sqlite3#1507; a Host closed at once
 * after it opened met it in CI), and waiting lets the caller remove the folder the file is in.
 */
export function checkIntegrity(file: string): { result: Promise<IntegrityResult>; cancel(): Promise<void> } {
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  const result = new Promise<IntegrityResult>((resolve) => {
    try {
      worker = new Worker(WORKER, { eval: true, workerData: { file, module: sqliteModule() } });
    } catch (err) {
      resolve({ ok: null, error: String((err as Error).message) });
      return;
    }
    const w = worker;
    exited = new Promise<void>((done) => w.once('exit', () => done()));
    worker.once('message', (m: IntegrityResult) => resolve(m));
    worker.once('error', (err) => resolve({ ok: null, error: err.message }));
    worker.once('exit', () => resolve({ ok: null, error: 'the check was stopped' }));
  });
  let canceled = false;
  return {
    result: result.then((r) => (canceled ? { ok: null, error: 'the check was stopped' } : r)),
    async cancel() {
      canceled = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_WAIT_MS)));
      const how = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (how === 'late') worker?.unref();
    },
  };
}
