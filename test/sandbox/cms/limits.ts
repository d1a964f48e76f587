/**
 * Fixed-window rate limiters, one per bucket, keyed per client (IP) or per account. Like the
 * login plugin's limiter: a window opens at a key's first hit and lasts `windowSec`.
 * Two ways to count: `attempt` registers then checks (every attempt counts; the call past the
 * limit is refused), and `check` + `fail` (only failures count; once `limit` failures are
 * recorded, the next attempt is refused until the window ends).
 */
import type { ServerResponse } from 'node:http';
import { HttpProblem } from '../http';
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

  /** Records a failure. */
  fail(key: string): LimitState {
    const w = this.window(key);
    w.count++;
    return this.state(w, false);
  }

  /** Forgets a key (a successful login clears its failures). */
  clear(key: string): void {
    this.windows.delete(key);
  }
}

/** The buckets the CMS applies (spec section 8): names → rule. `null` switches a bucket off. */
export interface LimitConfig {
  /** every API request, per client IP (the real service's general limiter) */
  api: LimitRule | null;
  /** POST /auth/setup, every attempt, per client IP */
  setup: LimitRule | null;
  /** POST /auth/token, failed passwords, per username */
  login: LimitRule | null;
  /** POST /auth/2fa/verify, wrong codes, per account */
  twofa: LimitRule | null;
  /** POST /auth/forgot-password, reset mails per account (the login plugin's `pw_resets` bucket) */
  forgot: LimitRule | null;
  /** POST /auth/reset-password, every attempt, per username */
  reset: LimitRule | null;
}

export const DEFAULT_LIMITS: LimitConfig = {
  api: { limit: 6000, windowSec: 60 },
  setup: { limit: 5, windowSec: 900 },
  login: { limit: 10, windowSec: 600 },
  twofa: { limit: 5, windowSec: 600 },
  forgot: { limit: 3, windowSec: 3600 },
  reset: { limit: 5, windowSec: 900 },
};

export type LimitName = keyof LimitConfig;

export class Limits {
  private readonly limiters = new Map<LimitName, RateLimiter>();

  constructor(config: Partial<LimitConfig>, clock: Clock) {
    const merged = { ...DEFAULT_LIMITS, ...config };
    for (const name of Object.keys(DEFAULT_LIMITS) as LimitName[]) {
      const rule = merged[name];
      if (rule) this.limiters.set(name, new RateLimiter({ ...rule }, clock));
    }
  }

  /** The limiter of a bucket, or null when that bucket is switched off. */
  get(name: LimitName): RateLimiter | null {
    return this.limiters.get(name) ?? null;
  }
}

/** Puts X-RateLimit-Limit/Remaining/Reset on the response (later calls overwrite earlier ones). */
export function rateLimitHeaders(res: ServerResponse, s: LimitState): void {
  res.setHeader('X-RateLimit-Limit', String(s.limit));
  res.setHeader('X-RateLimit-Remaining', String(s.remaining));
  res.setHeader('X-RateLimit-Reset', String(s.reset));
}

/** The 429 problem for a limited state, with Retry-After. */
export function tooMany(s: LimitState, detail: string): HttpProblem {
  return new HttpProblem(429, 'Too Many Requests', detail, {}, {
    'Retry-After': String(s.retryAfter),
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(s.reset),
  });
}
