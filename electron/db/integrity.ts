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

/**
 * Runs the check; answers `{ok: true}`, the problems SQLite lists, or `{ok: null}` when the check
 * itself could not run (the file gone, the worker refused). `cancel` (the Host closing) stops
 * waiting for it: the answer is dropped and the thread no longer keeps the process alive, but it is
 * not terminated. better-sqlite3 13 aborts the whole process when a thread is terminated inside it
 * (loading the addon, or during a statement: WiseLibs/better-sqlite3#1507; a Host closed at once
 * after it opened met it in CI), and a read-only check left to finish harms nothing.
 */
export function checkIntegrity(file: string): { result: Promise<IntegrityResult>; cancel(): void } {
  let worker: Worker | undefined;
  const result = new Promise<IntegrityResult>((resolve) => {
    try {
      worker = new Worker(WORKER, { eval: true, workerData: { file, module: sqliteModule() } });
    } catch (err) {
      resolve({ ok: null, error: String((err as Error).message) });
      return;
    }
    worker.once('message', (m: IntegrityResult) => resolve(m));
    worker.once('error', (err) => resolve({ ok: null, error: err.message }));
    worker.once('exit', () => resolve({ ok: null, error: 'the check was stopped' }));
  });
  let canceled = false;
  return {
    result: result.then((r) => (canceled ? { ok: null, error: 'the check was stopped' } : r)),
    cancel: () => {
      canceled = true;
      worker?.unref();
    },
  };
}
