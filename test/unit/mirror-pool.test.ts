// The mirror's worker pool (electron/mirror/pool.ts): bounded, in order, waits while more may
// come, and a stop ends every wait at once (the idle workers' and the timed pauses).
import { describe, expect, test } from 'vitest';
import { WorkPool } from '../../electron/mirror/pool';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('WorkPool', () => {
  test('never runs more than its workers at a time, and takes every item in order', async () => {
    const pool = new WorkPool<number>({ stopped: () => false, more: () => false });
    pool.reset([1, 2, 3, 4, 5, 6, 7]);
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    await pool.run(3, async (n) => {
      started.push(n);
      most = Math.max(most, ++inFlight);
      await tick();
      inFlight--;
    });
    expect(most).toBe(3);
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test('idle workers wait while more may come, take what is added, and return when no more can', async () => {
    let producing = true;
    const pool = new WorkPool<string>({ stopped: () => false, more: () => producing });
    const done: string[] = [];
    const run = pool.run(2, async (s) => {
      done.push(s);
    });
    let finished = false;
    void run.then(() => (finished = true));
    await tick();
    expect(finished).toBe(false); // nothing yet, but the producer is still at work
    pool.add(['a', 'b', 'c']);
    await tick();
    expect(done).toEqual(['a', 'b', 'c']);
    expect(finished).toBe(false);
    producing = false;
    pool.wakeAll();
    await run;
    expect(done).toEqual(['a', 'b', 'c']);
  });

  test('a stop ends the run: items left are not taken, waits end at once', async () => {
    let stopped = false;
    const pool = new WorkPool<number>({ stopped: () => stopped, more: () => true });
    pool.reset([1, 2, 3, 4]);
    const taken: number[] = [];
    const run = pool.run(1, async (n) => {
      taken.push(n);
      if (n === 2) stopped = true;
    });
    await run; // the worker looks at `stopped` before each item
    expect(taken).toEqual([1, 2]);
  });

  test('an idle worker waiting for more returns when stopped and woken', async () => {
    let stopped = false;
    const pool = new WorkPool<number>({ stopped: () => stopped, more: () => true });
    const run = pool.run(4, async () => {});
    await tick();
    stopped = true;
    pool.wakeAll();
    await run;
  });

  test('a pause runs its time unless woken, and a wake cuts it short', async () => {
    const pool = new WorkPool<number>({ stopped: () => false, more: () => false });
    const t0 = Date.now();
    await pool.pause(30);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    const t1 = Date.now();
    const paused = pool.pause(10_000);
    pool.wakeAll();
    await paused;
    expect(Date.now() - t1).toBeLessThan(1000);
  });

  test('adding nothing wakes nobody; adding after a reset keeps the order', async () => {
    const pool = new WorkPool<number>({ stopped: () => false, more: () => false });
    pool.reset([1]);
    pool.add([]);
    pool.add([2, 3]);
    const seen: number[] = [];
    await pool.run(1, async (n) => {
      seen.push(n);
    });
    expect(seen).toEqual([1, 2, 3]);
  });
});
