/**
 * The entry of an import's worker thread (import-source.ts): bundled on its own by the build
 * (scripts/audit-import-worker.mjs) and carried in the Host's bundle as text, started with eval.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runImportWorker, type ImportWorkerData } from './import-source';

if (parentPort) runImportWorker(parentPort, workerData as ImportWorkerData);
