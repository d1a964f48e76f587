/**
 * A stoppable, bounded pool of workers over a queue that may still grow: `workers` at a time take
 * the items in order; an idle worker waits while more may come (the producer is still at work) and
 * returns when none can. A stop is the owner's (`stopped`), and `wakeAll` makes every wait notice it
 * at once, the timed pauses too: a run that stops never sits out a retry delay or an empty queue.
 * Generic: the mirror's readers use it (run.ts); nothing here knows what an item is.
 */
export interface PoolControl {
  /** The owner stopped: workers take nothing more, waits end. */
  stopped: () => boolean;
  /** Items may still be added (a producer is running): an idle worker waits instead of returning. */
  more: () => boolean;
}

export class WorkPool<T> {
  private queue: T[] = [];
  private waiters: (() => void)[] = [];

  constructor(private readonly control: PoolControl) {}

  /** Replaces the items waiting (a new round of work). */
  reset(items: T[]): void {
    this.queue = items;
  }

  /** More items, woken workers take them. */
  add(items: T[]): void {
    if (!items.length) return;
    this.queue.push(...items);
    this.wakeAll();
  }

  /** Ends every wait now: idle workers look again, pauses return early. */
  wakeAll(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const wake of w) wake();
  }

  /** A wait that `wakeAll` (a stop) cuts short. */
  pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Runs `workers` workers until the queue is empty and no more can come, or the owner stops. */
  run(workers: number, work: (item: T) => Promise<void>): Promise<void> {
    return Promise.all(Array.from({ length: workers }, () => this.worker(work))).then(() => undefined);
  }

  private async worker(work: (item: T) => Promise<void>): Promise<void> {
    while (!this.control.stopped()) {
      const item = this.queue.shift();
      if (item === undefined) {
        if (!this.control.more()) return;
        await new Promise<void>((r) => this.waiters.push(r));
        continue;
      }
      await work(item);
    }
  }
}
