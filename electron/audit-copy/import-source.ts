/**
 * Where an import's batches come from: a worker thread reading and parsing the file
 * (import-reader.ts) while the Host's thread inserts what it posted, or, without the worker's
 * code, the same reading in the Host's thread.
 *
 * The worker's code is the bundle of import-worker.ts, made by the build (scripts/build.mjs, and
 * the benchmarks' and tests' configurations: scripts/audit-import-worker.mjs) and put into the
 * Host's bundle as text, started with `eval` as the integrity check's worker is (db/integrity.ts):
 * no file to find beside the bundle, inside app.asar or out. It posts a batch at a time, each a
 * structured clone of a packed batch (numbers and the strings an event has once; its kind's and
 * actor's strings once per file), and never runs more than CREDITS batches ahead of what the Host
 * has taken: memory stays flat whatever the file's size. A cancel ends the worker where it is:
 * nothing it read and the Host did not take is written (each batch is one transaction).
 */
import { Worker, type MessagePort } from 'node:worker_threads';
import { P_ACTOR, P_CONTEXT, P_ID, P_IP, P_KIND, P_STATUS, P_TARGET, P_TS, PACKED_WIDTH, type PackedBatch } from '../db/repos/audit-pack';
import { IMPORT_BATCH, ImportRefused, readImportFile, type ImportStep } from './import-reader';

/** Batches the worker may post before the Host has taken the first (it reads the next while the Host inserts). */
export const CREDITS = 3;

export interface ImportWorkerData {
  file: string;
  format: 'csv' | 'json';
  batchSize: number;
  credits: number;
}

/**
 * A packed batch as it crosses between the threads: its numbers in one typed array (moved, not
 * copied) and its strings as one text with where each ends. A structured clone of the batch's
 * own array (a value at a time, eight per event) cost the reader more than reading the event, and
 * the Host's thread as much again to take apart; one text and two buffers cost a copy.
 */
export interface WireBatch {
  /** Per event: site id, time, kind ref, actor ref, status (NaN: none). */
  nums: Float64Array;
  /** Per event: where its address, target and context end in `text` (-1: none). */
  ends: Int32Array;
  text: string;
  kinds: PackedBatch['kinds'];
  actors: PackedBatch['actors'];
  reset: boolean;
}
const NUMS = [P_ID, P_TS, P_KIND, P_ACTOR, P_STATUS] as const;
const TEXTS = [P_IP, P_TARGET, P_CONTEXT] as const;

export function toWire(b: PackedBatch): WireBatch {
  const n = b.rows.length / PACKED_WIDTH;
  const nums = new Float64Array(n * NUMS.length);
  const ends = new Int32Array(n * TEXTS.length);
  const parts: string[] = [];
  let at = 0;
  for (let i = 0, o = 0; i < n; i++, o += PACKED_WIDTH) {
    for (let k = 0; k < NUMS.length; k++) {
      const v = b.rows[o + NUMS[k]!];
      nums[i * NUMS.length + k] = typeof v === 'number' ? v : NaN;
    }
    for (let k = 0; k < TEXTS.length; k++) {
      const v = b.rows[o + TEXTS[k]!];
      if (typeof v === 'string') {
        parts.push(v);
        at += v.length;
        ends[i * TEXTS.length + k] = at;
      } else ends[i * TEXTS.length + k] = -1;
    }
  }
  return { nums, ends, text: parts.join(''), kinds: b.kinds, actors: b.actors, reset: b.reset };
}

export function fromWire(w: WireBatch): PackedBatch {
  const n = w.nums.length / NUMS.length;
  const rows: (string | number | null)[] = new Array(n * PACKED_WIDTH);
  let from = 0;
  for (let i = 0, o = 0; i < n; i++, o += PACKED_WIDTH) {
    for (let k = 0; k < NUMS.length; k++) {
      const v = w.nums[i * NUMS.length + k]!;
      rows[o + NUMS[k]!] = Number.isNaN(v) ? null : v;
    }
    for (let k = 0; k < TEXTS.length; k++) {
      const end = w.ends[i * TEXTS.length + k]!;
      if (end < 0) rows[o + TEXTS[k]!] = null;
      else {
        rows[o + TEXTS[k]!] = w.text.slice(from, end);
        from = end;
      }
    }
  }
  return { rows, kinds: w.kinds, actors: w.actors, reset: w.reset };
}

type WireStep = Omit<ImportStep, 'batch'> & { batch: WireBatch | null };

/** The worker's messages: a step of the reading, the file refused (no audit export), or a failure (a file system error's code). */
export type FromImportWorker = { type: 'step'; step: WireStep } | { type: 'refused'; message: string } | { type: 'failed'; code: string | null; message: string };
/** The Host's one message: it took a batch, one more may come. */
export type ToImportWorker = { type: 'more' };

/** The worker's side (import-worker.ts): reads the file, posting each step when the Host has room for it. */
export function runImportWorker(port: MessagePort, data: ImportWorkerData): void {
  let credits = data.credits;
  let wake: (() => void) | null = null;
  port.on('message', (m: ToImportWorker) => {
    if (m?.type !== 'more') return;
    credits++;
    const w = wake;
    wake = null;
    w?.();
  });
  const post = (m: FromImportWorker) => port.postMessage(m);
  void (async () => {
    try {
      for await (const step of readImportFile(data.file, data.format, data.batchSize)) {
        while (credits <= 0) await new Promise<void>((resolve) => (wake = resolve));
        credits--;
        if (step.batch) {
          const batch = toWire(step.batch);
          port.postMessage({ type: 'step', step: { ...step, batch } } satisfies FromImportWorker, [batch.nums.buffer as ArrayBuffer, batch.ends.buffer as ArrayBuffer]);
        } else post({ type: 'step', step: { ...step, batch: null } });
      }
    } catch (err) {
      if (err instanceof ImportRefused) post({ type: 'refused', message: err.message });
      else {
        const code = (err as NodeJS.ErrnoException)?.code;
        post({ type: 'failed', code: typeof code === 'string' ? code : null, message: String((err as Error)?.message ?? err) });
      }
    }
  })();
}

declare const __AUDIT_IMPORT_WORKER__: string | undefined;

/** The worker's code the build put into this bundle, or null (then the reading runs in this thread). */
export function importWorkerCode(): string | null {
  return typeof __AUDIT_IMPORT_WORKER__ === 'string' && __AUDIT_IMPORT_WORKER__ !== '' ? __AUDIT_IMPORT_WORKER__ : null;
}

export interface ImportSourceOptions {
  file: string;
  format: 'csv' | 'json';
  batchSize?: number;
  /** The worker's code; null: read in this thread. Default: what the build put in (importWorkerCode). */
  workerCode?: string | null;
}

/** The steps of reading the file: from a worker thread when there is its code, else from this thread. Ending the iteration early ends the worker. */
export function importSteps(opts: ImportSourceOptions): AsyncIterableIterator<ImportStep> & { inWorker: boolean; buffered?: number } {
  const batchSize = opts.batchSize ?? IMPORT_BATCH;
  const code = opts.workerCode === undefined ? importWorkerCode() : opts.workerCode;
  if (code === null) return Object.assign(readImportFile(opts.file, opts.format, batchSize), { inWorker: false });
  return new WorkerSteps(code, { file: opts.file, format: opts.format, batchSize, credits: CREDITS });
}

class WorkerSteps implements AsyncIterableIterator<ImportStep> {
  readonly inWorker = true;
  private readonly worker: Worker;
  private readonly queue: ImportStep[] = [];
  private failure: unknown = null;
  /** The last step was taken (or the worker ended): no more come. */
  private finished = false;
  private wake: (() => void) | null = null;

  constructor(code: string, data: ImportWorkerData) {
    // a young generation of 16 MB, not V8's 32: a fifth less of the Host's memory, the same speed
    this.worker = new Worker(code, { eval: true, workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    this.worker.on('message', (m: FromImportWorker) => {
      if (m.type === 'step') {
        this.queue.push({ ...m.step, batch: m.step.batch && fromWire(m.step.batch) });
        this.poke();
      } else if (m.type === 'refused') this.fail(new ImportRefused(m.message));
      else this.fail(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => {
      if (!this.finished) this.fail(new Error('The file’s reader stopped before the end of the file.'));
    });
  }

  private fail(err: unknown): void {
    this.failure ??= err;
    this.poke();
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Steps the worker posted that were not taken yet (never more than CREDITS). */
  get buffered(): number {
    return this.queue.length;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ImportStep> {
    return this;
  }

  async next(): Promise<IteratorResult<ImportStep>> {
    for (;;) {
      if (this.finished) return { done: true, value: undefined };
      const step = this.queue.shift();
      if (step) {
        if (step.batch) this.worker.postMessage({ type: 'more' } satisfies ToImportWorker);
        else this.end();
        return { done: false, value: step };
      }
      if (this.failure !== null) {
        this.end();
        throw this.failure;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        // a message that came meanwhile
        if (this.queue.length || this.failure !== null) this.poke();
      });
    }
  }

  private end(): void {
    this.finished = true;
    void this.worker.terminate();
  }

  async return(): Promise<IteratorResult<ImportStep>> {
    this.finished = true;
    await this.worker.terminate();
    return { done: true, value: undefined };
  }
}
