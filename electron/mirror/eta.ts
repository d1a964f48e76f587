/**
 * The time a mirror run has left, for the Offline copy card: pure, from the requests still to make,
 * the recent throughput and the site's budget as the pacer knows it. When the budget runs out
 * before the work does, the site's rate limit is what bounds the run, and the estimate says so.
 */
import type { MirrorEta } from '../contract';
import type { Pace } from '../api/pacer';

export function etaOf(i: { requestsLeft: number; perSecond: number | null; pace: Pace | null }): MirrorEta | null {
  if (i.requestsLeft <= 0) return { seconds: 0, siteLimit: null };
  let byBudget = 0;
  if (i.pace && i.pace.ratePerS > 0) {
    // what the bucket holds beyond the reserve goes at once; the rest at the refill rate
    const short = i.requestsLeft - Math.max(0, Math.floor(i.pace.available - i.pace.reserve));
    if (short > 0) byBudget = short / i.pace.ratePerS;
  }
  const byThroughput = i.perSecond ? i.requestsLeft / i.perSecond : null;
  if (byThroughput === null && byBudget === 0) return null;
  const seconds = Math.ceil(Math.max(byBudget, byThroughput ?? 0));
  const bound = i.pace !== null && byBudget > 0 && byBudget >= 0.8 * (byThroughput ?? 0);
  return { seconds, siteLimit: bound && i.pace ? { requests: i.pace.requests, perSeconds: i.pace.perSeconds } : null };
}
