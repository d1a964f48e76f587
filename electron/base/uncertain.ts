/**
 * Writes whose answer was lost (the site may have done them all the same), remembered for the
 * same write asked again: a create looks its id up first, an upload looks for its file, a row
 * action asks the person to check, a key minted again revokes the one nobody saw. One memory for
 * every service that has such writes; past UNCERTAIN_MS the same write asked again is a new one.
 */
import { mayHaveArrived, UNCERTAIN_MS } from './app-error';

export class UncertainWrites<T> {
  readonly #writes = new Map<string, { value: T; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A write to `key` went out and its answer was lost (`mayHaveArrived`); `value` is what finding it out needs. */
  remember(key: string, value: T): void {
    const now = this.now();
    // the old ones go as new ones come, so the memory holds the last quarter hour's at most
    for (const [k, w] of this.#writes) if (now - w.at >= UNCERTAIN_MS) this.#writes.delete(k);
    this.#writes.set(key, { value, at: now });
  }

  /** The lost write to `key`, with when it went, while it is recent; undefined otherwise. */
  get(key: string): { value: T; at: number } | undefined {
    const w = this.#writes.get(key);
    if (w && this.now() - w.at >= UNCERTAIN_MS) {
      this.#writes.delete(key);
      return undefined;
    }
    return w;
  }

  /** Found out (or done again): nothing to remember. */
  forget(key: string): void {
    this.#writes.delete(key);
  }
}

/** When a lost write went, for a sentence ("its answer to the run at 10:02 was lost"). */
export const timeOfDay = (ms: number): string => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * A create made once though its answer may be lost: asked again after a lost answer, the record it
 * made (`find`, told apart from those there before by the snapshot taken then) is answered instead
 * of a second. `snapshot` answers null when it cannot be known: then there is nothing to remember.
 */
export async function createdOnce<R, S>(lost: UncertainWrites<S>, key: string, steps: { snapshot: () => Promise<S | null>; find: (before: S) => Promise<R | undefined>; make: () => Promise<R> }): Promise<R> {
  const earlier = lost.get(key);
  if (earlier) {
    const found = await steps.find(earlier.value);
    lost.forget(key);
    if (found !== undefined) return found;
  }
  const before = await steps.snapshot();
  try {
    return await steps.make();
  } catch (err) {
    if (mayHaveArrived(err) && before !== null) lost.remember(key, before);
    throw err;
  }
}
