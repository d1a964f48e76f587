/**
 * Rate-limit headers of a store answer → what is left of the budget. Document 3 shows only
 * `Retry-After` on a 429; the budget headers are the common ones the store sandbox sends:
 * X-RateLimit-Plan, X-RateLimit-Limit/-Remaining/-Reset (the minute window) and the same with a
 * `-Day` suffix. A Reset is epoch seconds, or seconds from now when it is small.
 */
import type { RateWindow } from '../../contract/store';

export interface ReportedBudget {
  plan: string | null;
  minute: RateWindow | null;
  day: RateWindow | null;
}

const int = (x: string | null): number | null => {
  if (x === null || !/^\s*\d+\s*$/.test(x)) return null;
  return Number(x);
};

function resetAt(raw: string | null, now: number): string | null {
  const n = int(raw);
  if (n === null) return null;
  // epoch seconds are past 2001; anything smaller is a delay
  return new Date(n > 1e9 ? n * 1000 : now + n * 1000).toISOString();
}

function window(h: Headers, suffix: '' | '-Day', now: number): RateWindow | null {
  const limit = int(h.get(`x-ratelimit-limit${suffix}`));
  const remaining = int(h.get(`x-ratelimit-remaining${suffix}`));
  if (limit === null || remaining === null) return null;
  return { limit, remaining, resetAt: resetAt(h.get(`x-ratelimit-reset${suffix}`), now) };
}

/** Null when the answer says nothing about limits. */
export function budgetFromHeaders(h: Headers, now: number): ReportedBudget | null {
  const plan = h.get('x-ratelimit-plan')?.trim() || null;
  const minute = window(h, '', now);
  const day = window(h, '-Day', now);
  if (!plan && !minute && !day) return null;
  return { plan, minute, day };
}
