/**
 * The CMS's rate-limit buckets, one fixed-window limiter each (../rate-limiter.ts), keyed per
 * client (IP) or per account; and, in the `real` flavour, the general limiter as the Grav API
 * plugin runs it (RateLimitMiddleware): a token bucket per account (`user:<name>` once the request
 * is authenticated by a token or an API key, the client IP before), refilled continuously, some
 * paths kept out of it, and a 429 without Retry-After.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header, HttpProblem } from '../http';
import type { Clock } from '../clock';
import type { Flavor } from '../flavor';
import { RateLimiter, type LimitRule, type LimitState } from '../rate-limiter';
import type { CmsContext } from './context';

export type { LimitRule, LimitState };

/** The buckets the CMS applies (spec section 8): names → rule. `null` switches a bucket off. */
export interface LimitConfig {
  /**
   * every API request: `spec`, a fixed window per client IP (default 6000 a minute, with
   * Retry-After); `real`, Grav's token bucket per account (default 120 per 60 s, refilled
   * continuously, `limit` tokens refilled over `windowSec`)
   */
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

const DEFAULT_LIMITS: LimitConfig = {
  api: { limit: 6000, windowSec: 60 },
  setup: { limit: 5, windowSec: 900 },
  login: { limit: 10, windowSec: 600 },
  twofa: { limit: 5, windowSec: 600 },
  forgot: { limit: 3, windowSec: 3600 },
  reset: { limit: 5, windowSec: 900 },
};

/** The real service's default: `plugins.api.rate_limit` requests 120, window 60. */
const REAL_API_LIMIT: LimitRule = { limit: 120, windowSec: 60 };

/**
 * Path fragments the real service keeps out of the bucket (`rate_limit.excluded_paths`' defaults:
 * collaboration polling and the admin's static component scripts), matched anywhere in the path.
 */
const REAL_EXCLUDED_PATHS: readonly string[] = ['/sync/', '/field/', '/fields', '/widget-script', '/panel-script', '/page-script', '/report-script/', '/modal-script/', '/custom-fields'];

export type LimitName = keyof LimitConfig;

export class Limits {
  private readonly limiters = new Map<LimitName, RateLimiter>();
  private buckets: TokenBuckets | null = null;
  /** The real flavour's excluded path fragments; change at run time if a test needs other ones. */
  excludedPaths: string[] = [...REAL_EXCLUDED_PATHS];

  constructor(
    config: Partial<LimitConfig>,
    private readonly clock: Clock,
    private readonly flavor: Flavor = 'spec',
  ) {
    const merged = { ...DEFAULT_LIMITS, ...(flavor === 'real' ? { api: REAL_API_LIMIT } : {}), ...config };
    for (const name of Object.keys(DEFAULT_LIMITS) as LimitName[]) this.set(name, merged[name]);
  }

  /** Changes a bucket at run time (a test or a benchmark raises the general limit); null switches it off. Starts it afresh. */
  set(name: LimitName, rule: LimitRule | null): void {
    if (name === 'api' && this.flavor === 'real') {
      this.buckets = rule ? new TokenBuckets({ ...rule }) : null;
      return;
    }
    if (rule) this.limiters.set(name, new RateLimiter({ ...rule }, this.clock));
    else this.limiters.delete(name);
  }

  /** The limiter of a bucket, or null when that bucket is switched off (or, for `api` in the real flavour, see `bucket`). */
  get(name: LimitName): RateLimiter | null {
    return this.limiters.get(name) ?? null;
  }

  /** The real flavour's general limiter, or null (the spec flavour, or switched off). */
  bucket(): TokenBuckets | null {
    return this.buckets;
  }
}

/**
 * Grav's general limiter: per identifier a bucket of `limit` tokens refilled at limit/windowSec a
 * second, one token per request. On the wall clock, not the sandbox's `Clock`: the app paces by
 * the Reset epoch against the Date header, and a test moving token expiry forward must not move
 * the budget. X-RateLimit-Reset is the epoch second at which the bucket is full again.
 */
export class TokenBuckets {
  private readonly state = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  private get rate(): number {
    return this.rule.limit / this.rule.windowSec;
  }

  /** Takes a token for `key` if there is one. */
  take(key: string): LimitState {
    const now = this.now();
    const { limit } = this.rule;
    const b = this.state.get(key) ?? { tokens: limit, at: now };
    b.tokens = Math.min(limit, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    const limited = b.tokens < 1;
    if (!limited) b.tokens -= 1;
    this.state.set(key, b);
    const reset = Math.ceil(now / 1000 + (limit - b.tokens) / this.rate);
    return { limit, remaining: Math.max(0, Math.floor(b.tokens)), reset, limited, retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / this.rate)) };
  }

  /** What an excluded path reports: the bucket untouched and full, as the real service says. */
  untouched(): LimitState {
    const { limit, windowSec } = this.rule;
    return { limit, remaining: limit, reset: Math.floor(this.now() / 1000) + windowSec, limited: false, retryAfter: 0 };
  }
}

/** Routes the real service serves without authentication (the rest answer 401 before the limiter runs). */
const isPublic = (apiPath: string) => apiPath === '/ping' || ['/auth/', '/translations/', '/thumbnails/'].some((p) => apiPath.startsWith(p));


/**
 * Whose bucket a request draws on, as the real service decides after authenticating it: the
 * account of a valid API key or access token (`user:<name>`), else the client IP; null when a
 * protected route will refuse it (the 401 comes before the limiter: no token taken, no headers).
 * Looks the credential up without marking the key used (the route does that).
 */
export function bucketKey(ctx: CmsContext, req: IncomingMessage, url: URL, apiPath: string): string | null {
  let user: string | null = null;
  const apiKey = header(req, 'x-api-key') || url.searchParams.get('api_key')?.trim() || '';
  if (apiKey) {
    const hash = createHash('sha256').update(apiKey).digest('hex');
    const k = ctx.apiKeys.list().find((r) => r.hash === hash);
    if (k && k.active && (k.expires === null || k.expires > ctx.clock.nowSec())) user = k.username;
  } else {
    const authz = header(req, 'authorization');
    const bearer = (v: string) => v.replace(/^Bearer\s+/i, '').trim();
    const jwt = bearer(header(req, 'x-api-token')) || (/^Bearer\s+/i.test(authz) ? bearer(authz) : '');
    if (jwt) user = ctx.tokens.verify(jwt, 'access')?.sub ?? null;
  }
  if (user !== null) return `user:${user}`;
  return isPublic(apiPath) ? `ip:${req.socket.remoteAddress ?? 'unknown'}` : null;
}

/** Puts X-RateLimit-Limit/Remaining/Reset on the response (later calls overwrite earlier ones). */
export function rateLimitHeaders(res: ServerResponse, s: LimitState): void {
  res.setHeader('X-RateLimit-Limit', String(s.limit));
  res.setHeader('X-RateLimit-Remaining', String(s.remaining));
  res.setHeader('X-RateLimit-Reset', String(s.reset));
}

/** The 429 problem for a limited state, with Retry-After (the spec flavour's login buckets). */
export function tooMany(s: LimitState, detail: string): HttpProblem {
  return new HttpProblem(429, 'Too Many Requests', detail, {}, {
    'Retry-After': String(s.retryAfter),
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(s.reset),
  });
}
