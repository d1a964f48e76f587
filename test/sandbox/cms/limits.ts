/**
 * The CMS's rate-limit buckets, one fixed-window limiter each (../rate-limiter.ts), keyed per
 * client (IP) or per account.
 */
import type { ServerResponse } from 'node:http';
import { HttpProblem } from '../http';
import type { Clock } from '../clock';
import { RateLimiter, type LimitRule, type LimitState } from '../rate-limiter';

export type { LimitRule, LimitState };

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
