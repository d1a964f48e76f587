/**
 * A ticking countdown for anything that must wait: a 429's Retry-After, a sign-in step that runs
 * out. Reactive (`seconds`, `active`), driven by the wall clock so a busy tab does not drift.
 *
 *   const wait = useCountdown();          // in a component: stops itself when the component goes
 *   wait.start(err.retryAfter ?? 60);     // or wait.until(Date.parse(expiresAt))
 *   <button disabled={wait.active}>…</button> Try again in {wait.seconds} s
 */

const TICK_MS = 250;

export class Countdown {
  #end = $state(0);
  #now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | null = null;
  readonly #onDone: (() => void) | undefined;

  constructor(options: { onDone?: () => void } = {}) {
    this.#onDone = options.onDone;
  }

  /** Milliseconds left (0 when not running). */
  readonly remainingMs: number = $derived(Math.max(0, this.#end - this.#now));
  /** Whole seconds left, rounded up: 3, 2, 1, then 0. */
  readonly seconds: number = $derived(Math.ceil(this.remainingMs / 1000));
  readonly active: boolean = $derived(this.remainingMs > 0);

  /** Counts down from `seconds` (restarts when already running). */
  start(seconds: number): void {
    this.until(Date.now() + Math.max(0, seconds) * 1000);
  }

  /** Counts down to an instant (epoch ms). */
  until(at: number): void {
    this.#clear();
    this.#end = at;
    this.#now = Date.now();
    if (this.#end <= this.#now) return;
    this.#timer = setInterval(() => {
      this.#now = Date.now();
      if (this.#now >= this.#end) {
        this.#clear();
        this.#onDone?.();
      }
    }, TICK_MS);
  }

  /** Stops without calling `onDone`; `active` becomes false. */
  stop(): void {
    this.#clear();
    this.#end = 0;
  }

  #clear() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/** A countdown that stops when the component that made it is destroyed. Call during component init. */
export function useCountdown(options: { onDone?: () => void } = {}): Countdown {
  const countdown = new Countdown(options);
  $effect(() => () => countdown.stop());
  return countdown;
}

/** 45 → "45 s", 299 → "4:59". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
