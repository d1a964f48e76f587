/**
 * Fixed-window rate limiters keyed per client, per account or per API key, shared by the sandboxes.
 * A window opens at a key's first hit and lasts `windowSec` (like the CMS login plugin's limiter).
 * Two ways to count: `attempt` registers then checks (every attempt counts; the call past the
 * limit is refused), and `check` + `record` (only what the caller records counts: failures for a
 * login limiter, accepted calls for a plan that must refuse without counting the refusal).
 */
import type { Clock } from './clock';

export interface LimitRule {
  limit: number;
  windowSec: number;
}

export interface LimitState {
  limit: number;
  remaining: number;
  /** epoch seconds when the window ends */
  reset: number;
  limited: boolean;
  /** seconds until the window ends */
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    public rule: LimitRule,
    private readonly clock: Clock,
  ) {}

  private window(key: string) {
    const now = this.clock.now();
    let w = this.windows.get(key);
    if (!w || now >= w.resetAt) {
      w = { count: 0, resetAt: now + this.rule.windowSec * 1000 };
      this.windows.set(key, w);
    }
    return w;
  }

  private state(w: { count: number; resetAt: number }, limited: boolean): LimitState {
    const now = this.clock.now();
    return {
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - w.count),
      reset: Math.ceil(w.resetAt / 1000),
      limited,
      retryAfter: Math.max(1, Math.ceil((w.resetAt - now) / 1000)),
    };
  }

  /** Registers an attempt; limited when this attempt is past the limit. */
  attempt(key: string): LimitState {
    const w = this.window(key);
    w.count++;
    return this.state(w, w.count > this.rule.limit);
  }

  /** Without counting: limited when `limit` attempts/failures are already recorded. */
  check(key: string): LimitState {
    const w = this.window(key);
    return this.state(w, w.count >= this.rule.limit);
  }

  /** Counts one hit without judging it. */
  record(key: string): LimitState {
    const w = this.window(key);
    w.count++;
    return this.state(w, false);
  }

  /** Records a failure (the login limiters' word for `record`). */
  fail(key: string): LimitState {
    return this.record(key);
  }

  /** Forgets a key (a successful login clears its failures). */
  clear(key: string): void {
    this.windows.delete(key);
  }
}
