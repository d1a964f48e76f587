/**
 * Rate-limit plans (document 3, section 8): per-minute and per-day budgets counted per API key (or
 * per account for logged-in sessions, per client address for anonymous calls). A call over either
 * budget is refused with 429 and `Retry-After`, and the refusal itself is not counted.
 *
 * The document shows no budget headers; the sandbox sends the common ones so a client can show what
 * is left (chosen here, written down for the app):
 *   X-RateLimit-Plan                                         free | pro | enterprise
 *   X-RateLimit-Limit / -Remaining / -Reset                  the minute window (Reset: epoch seconds)
 *   X-RateLimit-Limit-Day / -Remaining-Day / -Reset-Day      the day window
 * Enterprise is unlimited: only X-RateLimit-Plan is sent.
 */
import type { ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import { RateLimiter, type LimitState } from '../rate-limiter';

export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const PLAN_LABELS: Record<PlanName, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

/** null = no limit for that window */
export interface PlanLimits {
  perMinute: number | null;
  perDay: number | null;
}

export type Plans = Record<PlanName, PlanLimits>;

export const DEFAULT_PLANS: Plans = {
  free: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 600, perDay: 50_000 },
  enterprise: { perMinute: null, perDay: null },
};

/** The login answer's X-Rate-Limit: "calls per hour allowed by the user" (reference). -1 = no limit. */
export function callsPerHour(p: PlanLimits): number {
  const hourly = [p.perMinute === null ? null : p.perMinute * 60, p.perDay].filter((n): n is number => n !== null);
  return hourly.length ? Math.min(...hourly) : -1;
}

export interface PlanVerdict {
  limited: boolean;
  /** seconds, when limited */
  retryAfter: number;
  /** which budget ran out, when limited */
  window?: 'minute' | 'day';
  headers: Record<string, string>;
}

export class PlanLimiter {
  private readonly limiters = new Map<string, RateLimiter>();

  /** `plans` is read at every call, so changing it (tests, control route) applies at once. */
  constructor(
    readonly plans: Plans,
    private readonly clock: Clock,
  ) {}

  private limiter(plan: PlanName, window: 'minute' | 'day', limit: number): RateLimiter {
    const id = `${plan}:${window}`;
    let l = this.limiters.get(id);
    if (!l) {
      l = new RateLimiter({ limit, windowSec: window === 'minute' ? 60 : 86_400 }, this.clock);
      this.limiters.set(id, l);
    }
    l.rule.limit = limit;
    return l;
  }

  /** Counts one call of `key` on `plan`, unless a budget is spent (then nothing is counted). */
  take(plan: PlanName, key: string): PlanVerdict {
    const p = this.plans[plan];
    const windows = (
      [
        ['minute', p.perMinute],
        ['day', p.perDay],
      ] as const
    ).flatMap(([w, limit]) => (limit === null ? [] : [{ window: w, limiter: this.limiter(plan, w, limit) }]));
    const checked = windows.map((w) => ({ ...w, state: w.limiter.check(key) }));
    const spent = checked.filter((c) => c.state.limited);
    if (spent.length) {
      // wait for the window that frees up last: before then the call would be refused again
      const worst = spent.reduce((a, b) => (b.state.retryAfter > a.state.retryAfter ? b : a));
      const states = Object.fromEntries(checked.map((c) => [c.window, c.state]));
      return { limited: true, retryAfter: worst.state.retryAfter, window: worst.window, headers: headersFor(plan, states) };
    }
    const states = Object.fromEntries(windows.map((w) => [w.window, w.limiter.record(key)]));
    return { limited: false, retryAfter: 0, headers: headersFor(plan, states) };
  }
}

function headersFor(plan: PlanName, s: { minute?: LimitState; day?: LimitState }): Record<string, string> {
  const h: Record<string, string> = { 'X-RateLimit-Plan': plan };
  if (s.minute) {
    h['X-RateLimit-Limit'] = String(s.minute.limit);
    h['X-RateLimit-Remaining'] = String(s.minute.remaining);
    h['X-RateLimit-Reset'] = String(s.minute.reset);
  }
  if (s.day) {
    h['X-RateLimit-Limit-Day'] = String(s.day.limit);
    h['X-RateLimit-Remaining-Day'] = String(s.day.remaining);
    h['X-RateLimit-Reset-Day'] = String(s.day.reset);
  }
  return h;
}

export function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
}
