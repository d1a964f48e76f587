/**
 * When a Host that died is started again, and when to stop trying: one rule for Electron's main
 * (electron/utility.ts) and browser mode's server (electron/web/supervisor.ts). Backoff from
 * 250 ms doubling to 8 s; more than five exits within a minute is "the background service keeps
 * stopping", and the person decides (try again, or quit).
 */
export const MAX_RESTARTS_PER_MINUTE = 5;

export type RestartDecision = { restart: true; delayMs: number } | { restart: false };

export class RestartLog {
  #exits: number[] = [];

  /** Records an exit at `now` and says what to do about it. */
  exited(now: number = Date.now()): RestartDecision {
    this.#exits.push(now);
    this.#exits = this.#exits.filter((t) => now - t <= 60_000);
    if (this.#exits.length > MAX_RESTARTS_PER_MINUTE) return { restart: false };
    return { restart: true, delayMs: Math.min(250 * 2 ** (this.#exits.length - 1), 8000) };
  }

  /** The person asked to try again: the count starts over. */
  reset(): void {
    this.#exits = [];
  }
}
