/**
 * The Demo mode card's state: the site's demo status (the copy with its time while the site is
 * away), a live countdown to the next reset worked out from `secondsUntilReset` as of when the
 * site gave it (`readAt`), so it ticks each second without asking the site; at 0 it says "due now"
 * and reads the status again (the read itself lets a site that resets on request reset), then at
 * most every half minute while the site still says it is due. Capture and reset are for super admins and never for demo
 * accounts; their `done: false` answers keep the site's words.
 */
import { isDemoAccount, isSuper, type DemoActionResult, type DemoStatus, type Me } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';

/** Whole seconds left until the next reset at `nowMs`, from a status read at `readAt`; null without a countdown. */
export function secondsLeft(status: Pick<DemoStatus, 'secondsUntilReset' | 'readAt'> | null, nowMs: number): number | null {
  if (!status || status.secondsUntilReset === null) return null;
  const read = Date.parse(status.readAt);
  if (Number.isNaN(read)) return status.secondsUntilReset;
  const elapsed = Math.max(0, nowMs - read) / 1000;
  return Math.max(0, Math.ceil(status.secondsUntilReset - elapsed));
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export interface DemoClock {
  now(): number;
  /** Calls `tick` every `ms`; answers the way to stop it. */
  every(ms: number, tick: () => void): () => void;
}

const REAL_CLOCK: DemoClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/** While the reset stays due, the status is read again at most this often. */
const DUE_REREAD_MS = 30_000;

export class DemoState {
  readonly siteId: string;
  readonly #clock: DemoClock;
  #stop: (() => void) | null = null;
  #lastRead = 0;

  status = $state.raw<DemoStatus | null>(null);
  copiedAt = $state<string | null>(null);
  error = $state<string | null>(null);
  loading = $state(false);
  acting = $state<'baseline' | 'reset' | null>(null);
  /** The last capture's or reset's answer, said in the card. */
  result = $state.raw<{ action: 'baseline' | 'reset'; done: boolean; message: string | null } | null>(null);
  now = $state(0);

  constructor(siteId: string, clock: DemoClock = REAL_CLOCK) {
    this.siteId = siteId;
    this.#clock = clock;
    this.now = clock.now();
  }

  /** Seconds to the next reset as of now (ticking); null without a baseline. */
  get left(): number | null {
    return secondsLeft(this.status, this.now);
  }

  /** The countdown in words: "12:34", "due now", or null. */
  get countdown(): string | null {
    const left = this.left;
    if (left === null) return null;
    return left === 0 ? 'due now' : formatCountdown(left);
  }

  /** When the next reset is due (epoch ms), for its absolute time. */
  get dueAt(): number | null {
    const left = this.left;
    return left === null ? null : this.now + left * 1000;
  }

  /** Whether this account may capture and reset: a super admin that is not a demo account, the site answering. */
  mayManage(me: Me | null): boolean {
    return Boolean(me) && isSuper(me) && !isDemoAccount(me) && this.copiedAt === null;
  }

  /** Starts the second hand (and the first read). */
  start(): void {
    this.#stop?.();
    this.#stop = this.#clock.every(1000, () => this.tick());
    void this.load();
  }

  stop(): void {
    this.#stop?.();
    this.#stop = null;
  }

  /** One second on: at 0 the status is read again (a reset on request happens then). */
  tick(): void {
    this.now = this.#clock.now();
    if (this.left !== 0 || this.loading || this.copiedAt !== null) return;
    // read at once when the reading was from before the reset was due; while the site still says due, every half minute
    const readBeforeDue = (this.status?.secondsUntilReset ?? 0) > 0;
    if (readBeforeDue || this.now - this.#lastRead >= DUE_REREAD_MS) void this.load();
  }

  async load(): Promise<void> {
    this.loading = true;
    this.#lastRead = this.#clock.now();
    try {
      const { copiedAt, ...status } = await invoke('demo.status', { siteId: this.siteId });
      this.status = status;
      this.copiedAt = copiedAt;
      this.error = null;
    } catch (err) {
      this.error = AppError.from(err).message;
    } finally {
      this.loading = false;
      this.now = this.#clock.now();
    }
  }

  /** Captures the baseline or resets to it; the answer's status becomes the one shown. Throws the Host's refusal. */
  async act(action: 'baseline' | 'reset'): Promise<DemoActionResult> {
    this.acting = action;
    try {
      const r = await invoke(action === 'baseline' ? 'demo.baseline' : 'demo.reset', { siteId: this.siteId });
      this.status = r.status;
      this.copiedAt = null;
      this.#lastRead = this.#clock.now();
      this.now = this.#lastRead;
      this.result = { action, done: r.done, message: r.message };
      return r;
    } finally {
      this.acting = null;
    }
  }
}
