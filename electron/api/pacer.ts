/**
 * The pacer of one site and account: every request to that site waits here for a token of the
 * site's rate-limit bucket, as rate-bucket.ts estimates it from the answers' X-RateLimit-* headers,
 * so the app spends the site's budget instead of running into 429s. A person's requests come
 * first: background work (the mirror, sync) keeps a reserve of tokens for them, waits while any of
 * theirs wait, and keeps only as many requests in flight as the refill can feed. A site that sends
 * no rate-limit headers is not slowed down at all.
 */
import { AppError } from '../base/app-error';
import { retryAfterSeconds } from './errors';
import { allowance, available, learn, readingOf, spend, uncounted, waitFor, type Bucket } from './rate-bucket';

/** 'interactive': a person waits for the answer; 'background': the mirror, sync, auto-sync. */
export type Priority = 'interactive' | 'background';

/** A request given up (its run was cancelled) while it waited for its turn; nothing was sent. */
export class PaceCancelled extends Error {
  constructor() {
    super('Cancelled before it was sent.');
    this.name = 'PaceCancelled';
  }
}

/** One request's permission to go; tell it how the request ended, once. */
export interface Ticket {
  /** The answer's status and headers, or null when none came (network failure, timeout). */
  done(answer: { status: number; headers: Headers } | null): void;
}

export interface PacerOptions {
  now?: () => number;
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
  /** Background requests in flight at most, when the budget is ample (default 8). */
  maxBackground?: number;
}

/** What the pacer knows of the site's budget (the mirror's time estimate). */
export interface Pace {
  /** What the site allows, in a person's terms. */
  requests: number;
  perSeconds: number;
  /** Tokens a second the site refills, by the best estimate (the pacer itself counts on a lower bound). */
  ratePerS: number;
  /** Tokens there now, by the estimate, and how many of them background work leaves alone. */
  available: number;
  reserve: number;
}

interface Waiter {
  priority: Priority;
  resolve(t: Ticket): void;
  reject(e: unknown): void;
  detach(): void;
}

const realTimers = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clear: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class Pacer {
  private bucket: Bucket | null = null;
  /** Whether the site sends rate-limit headers: until the first answer nobody knows. */
  private headers: 'unknown' | 'none' | 'seen' = 'unknown';
  private blockedUntil = 0;
  private seq = 0;
  /** The newest request whose reading the bucket is based on (older answers arriving late are stale). */
  private accepted = 0;
  private readonly inFlight = new Map<number, Priority>();
  private backgroundInFlight = 0;
  private readonly queue: Waiter[] = [];
  private timer: unknown = null;
  /** Round trip of a request (moving average), for how many background requests to keep in flight. */
  private latencyMs = 100;
  private readonly now: () => number;
  private readonly timers: NonNullable<PacerOptions['timers']>;
  private readonly maxBackground: number;

  constructor(opts: PacerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.timers = opts.timers ?? realTimers;
    this.maxBackground = opts.maxBackground ?? 8;
  }

  /**
   * Waits for this request's turn. An interactive request whose wait would pass `maxWaitMs` fails
   * at once with `rate_limited` and the real seconds; `signal` gives a waiting request up.
   */
  acquire(priority: Priority, o: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<Ticket> {
    if (o.signal?.aborted) return Promise.reject(new PaceCancelled());
    if (priority === 'interactive' && o.maxWaitMs !== undefined) {
      const wait = this.waitOf('interactive', this.now());
      if (Number.isFinite(wait) && wait > o.maxWaitMs) {
        const s = Math.max(1, Math.ceil(wait / 1000));
        return Promise.reject(new AppError({ code: 'rate_limited', retryAfter: s, message: `The site is rate-limiting requests. Try again in ${s} s.` }));
      }
    }
    return new Promise<Ticket>((resolve, reject) => {
      const w: Waiter = { priority, resolve, reject, detach: () => {} };
      if (o.signal) {
        const signal = o.signal;
        const onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new PaceCancelled());
          this.pump();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        w.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(w);
      this.pump();
    });
  }

  /** The site's budget as far as known; null while nothing is (or the site sends no headers). */
  pace(): Pace | null {
    if (!this.bucket) return null;
    const a = allowance(this.bucket);
    if (!a) return null;
    return { ...a, available: available(this.bucket, this.now()), reserve: this.reserve() };
  }

  /** Requests waiting for their turn (tests). */
  waiting(): { interactive: number; background: number } {
    const interactive = this.queue.filter((w) => w.priority === 'interactive').length;
    return { interactive, background: this.queue.length - interactive };
  }

  /** Tokens background work leaves for a person's requests: a tenth of the bucket, at least 2. */
  private reserve(): number {
    if (!this.bucket) return 0;
    return Math.max(0, Math.min(Math.max(2, Math.ceil(this.bucket.limit / 10)), this.bucket.limit - 1));
  }

  /**
   * Background requests in flight at most: all of `maxBackground` while the budget is ample; once
   * the bucket is what bounds the work, as many as its refill keeps busy over one round trip.
   */
  private backgroundCap(now: number): number {
    const b = this.bucket;
    if (!b || b.rate <= 0 || b.refill !== 'bucket') return this.maxBackground;
    if (available(b, now) - this.reserve() >= this.maxBackground) return this.maxBackground;
    return Math.max(1, Math.min(this.maxBackground, Math.ceil((b.rate * this.latencyMs) / 1000) + 1));
  }

  /** Milliseconds until a request of this priority may go: 0 now, Infinity until something ends. */
  private waitOf(priority: Priority, now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (priority === 'background') {
      if (this.queue.some((w) => w.priority === 'interactive')) return Infinity;
      if (this.backgroundInFlight >= this.backgroundCap(now)) return Infinity;
      // nothing known yet: one request at a time until an answer says what the budget is
      if (this.headers === 'unknown' && this.inFlight.size > 0) return Infinity;
    }
    if (!this.bucket) return 0;
    return waitFor(this.bucket, 1 + (priority === 'background' ? this.reserve() : 0), now);
  }

  private pump(): void {
    if (this.timer !== null) {
      this.timers.clear(this.timer);
      this.timer = null;
    }
    for (;;) {
      const w = this.queue.find((x) => x.priority === 'interactive') ?? this.queue[0];
      if (!w) return;
      const now = this.now();
      const wait = this.waitOf(w.priority, now);
      if (wait > 0) {
        if (Number.isFinite(wait)) this.timer = this.timers.set(() => ((this.timer = null), this.pump()), wait);
        return;
      }
      this.queue.splice(this.queue.indexOf(w), 1);
      w.detach();
      w.resolve(this.grant(w.priority, now));
    }
  }

  private grant(priority: Priority, sentAt: number): Ticket {
    const id = ++this.seq;
    this.inFlight.set(id, priority);
    if (priority === 'background') this.backgroundInFlight++;
    if (this.bucket) this.bucket = spend(this.bucket);
    let open = true;
    return {
      done: (answer) => {
        if (!open) return;
        open = false;
        this.finish(id, sentAt, answer);
      },
    };
  }

  private finish(id: number, sentAt: number, answer: { status: number; headers: Headers } | null): void {
    const priority = this.inFlight.get(id);
    this.inFlight.delete(id);
    if (priority === 'background') this.backgroundInFlight--;
    const now = this.now();
    if (answer) {
      this.latencyMs = this.latencyMs * 0.8 + Math.max(1, now - sentAt) * 0.2;
      const reading = readingOf(answer.headers, now);
      if (reading) {
        this.headers = 'seen';
        // an older request's answer arriving after a newer one's would put back tokens already spent;
        // a 429 is believed whatever its age (it can only make the estimate more careful)
        if (!uncounted(reading) && (id > this.accepted || answer.status === 429)) {
          this.accepted = Math.max(this.accepted, id);
          this.bucket = learn(this.bucket, reading, now, this.inFlight.size, sentAt, id, answer.status === 429);
        }
      } else if (answer.status >= 200 && answer.status < 300 && this.headers === 'unknown') {
        this.headers = 'none';
      }
      if (answer.status === 429) {
        const s = retryAfterSeconds(answer.headers.get('retry-after'), now);
        if (s !== undefined) this.blockedUntil = Math.max(this.blockedUntil, now + s * 1000);
      }
    }
    this.pump();
  }
}
