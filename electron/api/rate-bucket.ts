/**
 * A site's request budget as its X-RateLimit-* headers describe it: pure arithmetic over readings
 * and times (epoch ms passed in), so the pacer's rules are tested with a fake clock.
 *
 * The model is Grav's API limiter: one token bucket per account of `limit` tokens, refilled at
 * limit/window tokens a second, `X-RateLimit-Reset` the epoch second at which it is full again.
 * Everything is read on the safe side, so that pacing to the estimate never runs into a 429:
 *  - the refill rate is a lower bound (learnt from the deficit and the seconds until full);
 *  - refill is credited per whole second of the server's clock (Grav adds tokens per whole second
 *    of its clock): the seconds passed since the reading, or, when answers carry a Date header,
 *    the server's second boundaries passed, placed on our clock by a lower bound of the offset
 *    between the clocks (each answer bounds it: its Date second began before it arrived);
 *  - the server's clock is its Date header, never ours (Reset is the server's epoch);
 *  - our requests still in flight when a reading arrives are counted as not yet seen by it.
 * A server that refills all at once at the reset (a fixed window) is recognised by two 429s with
 * the same Reset a second or more apart, and then credited nothing until that reset.
 */

export interface BucketReading {
  limit: number;
  remaining: number;
  /** Seconds from the server's now until the bucket is full again. */
  fullInS: number;
  /** The server's Reset (epoch s) and its clock (Date, epoch s; ours when it sent no Date). */
  resetAt: number | null;
  serverNow: number;
  dated: boolean;
}

export interface Bucket {
  limit: number;
  /** Tokens per second, a lower bound; 0 = not known yet. */
  rate: number;
  /** Tokens per second, an upper bound (Infinity = not known): only to name the window to a person. */
  rateHigh: number;
  /**
   * Tokens per second as seen refilling between two readings ten or more seconds apart (what the
   * bucket gained plus what our requests took in between): only to name the window to a person.
   */
  observed: number | null;
  /** The reading such an observation starts from (restarted when the bucket may have been full). */
  anchor: { at: number; remaining: number; seq: number } | null;
  /** 'bucket': a little every second (Grav); 'window': everything at once at the reset. */
  refill: 'bucket' | 'window';
  /** Tokens the site had at `at` (local epoch ms) by the newest reading, less requests it had not seen. */
  tokens: number;
  at: number;
  /** Local epoch ms from which the site is full again (its Reset). */
  fullAt: number;
  /** Requests sent since `at`. */
  spent: number;
  /** The server's second of the reading (its Date), when it sent one. */
  serverSec: number | null;
  /** A lower bound of (server clock − our clock) in ms, from the Date headers seen; null without. */
  offLo: number | null;
  /** The last 429's Reset and Date (fixed-window detection). */
  last429: { resetAt: number; serverNow: number } | null;
}

const int = (v: string | null): number | null => {
  if (v === null || !/^\s*\d+(\.\d+)?\s*$/.test(v)) return null;
  return Number(v);
};

/**
 * The rate-limit headers of one answer, or null when it carries none (or unreadable ones). Reset
 * may be an epoch (Grav, GitHub) or, from some servers, seconds from now.
 */
export function readingOf(headers: Headers, localNowMs: number): BucketReading | null {
  const limit = int(headers.get('x-ratelimit-limit'));
  const remaining = int(headers.get('x-ratelimit-remaining'));
  const reset = int(headers.get('x-ratelimit-reset'));
  if (limit === null || remaining === null || limit < 1) return null;
  const date = Date.parse(headers.get('date') ?? '');
  const serverNow = Math.floor((Number.isNaN(date) ? localNowMs : date) / 1000);
  let fullInS = 0;
  let resetAt: number | null = null;
  if (reset !== null) {
    if (reset > 1e9) {
      resetAt = Math.ceil(reset);
      fullInS = Math.max(0, resetAt - serverNow);
    } else fullInS = Math.ceil(reset);
  }
  return { limit: Math.floor(limit), remaining: Math.min(Math.floor(remaining), Math.floor(limit)), fullInS, resetAt, serverNow, dated: !Number.isNaN(date) };
}

/**
 * True when the answer was not counted against the bucket: Grav answers excluded paths (and a
 * switched-off limiter) with a full bucket, which says nothing about the account's real one.
 */
export const uncounted = (r: BucketReading): boolean => r.remaining >= r.limit;

/**
 * The bucket after a reading taken at `atMs` (when its answer arrived; its request left at
 * `sentMs`), with `unseen` of our requests still in flight (the reading may not count them yet).
 * `seq` numbers our requests in the order they left, `limited` says the answer was a 429: both
 * only for the observed refill that names the window to a person.
 */
export function learn(prev: Bucket | null, r: BucketReading, atMs: number, unseen: number, sentMs = atMs, seq?: number, limited = false): Bucket {
  const same = prev !== null && prev.limit === r.limit;
  let rate = same ? prev.rate : 0;
  let rateHigh = same ? prev.rateHigh : Infinity;
  let observed = same ? prev.observed : null;
  let anchor = same ? prev.anchor : null;
  if (seq !== undefined) {
    // a bucket that may have been full wasted refill, and a 429 took nothing: start again from here
    if (!anchor || limited || r.remaining >= r.limit - 1 || seq <= anchor.seq) anchor = { at: atMs, remaining: r.remaining, seq };
    else if (atMs - anchor.at >= 10_000) {
      observed = (r.remaining - anchor.remaining + (seq - anchor.seq)) / ((atMs - anchor.at) / 1000);
      if (atMs - anchor.at >= 60_000) anchor = { at: atMs, remaining: r.remaining, seq };
    }
  }
  // the answer was written within its Date second, after the request left and before it arrived:
  // server − ours ≥ Date − arrival, and < Date + 1 s − departure (a clock set since starts over)
  let offLo = prev?.offLo ?? null;
  if (r.dated) {
    const lo = r.serverNow * 1000 - atMs;
    const hi = r.serverNow * 1000 + 1000 - sentMs;
    offLo = offLo === null || offLo >= hi ? lo : Math.max(offLo, lo);
  }
  // the deficit (more than remaining − 1 tokens) refills in at most Reset − the limiter's second:
  // that second is at least the server's time when the request left (by the offset's lower bound);
  // without a Date, Reset − Date may be a second short (Date is taken after the limiter ran)
  const deficit = r.limit - r.remaining;
  const span = offLo !== null && r.dated && r.resetAt !== null ? r.resetAt - Math.floor((sentMs + offLo) / 1000) : r.fullInS + 1;
  if (deficit >= 2 && span >= 1) rate = Math.max(rate, (deficit - 1) / span);
  if (deficit >= 1 && r.fullInS >= 2) rateHigh = Math.min(rateHigh, deficit / (r.fullInS - 1));
  let refill = same ? prev.refill : 'bucket';
  let last429 = same ? prev.last429 : null;
  if (r.remaining === 0 && r.resetAt !== null) {
    if (last429 && last429.resetAt === r.resetAt && r.serverNow >= last429.serverNow + 1) refill = 'window';
    last429 = { resetAt: r.resetAt, serverNow: r.serverNow };
  }
  let fullAt = atMs + r.fullInS * 1000;
  if (offLo !== null && r.resetAt !== null) fullAt = Math.min(fullAt, r.resetAt * 1000 - offLo);
  return {
    limit: r.limit,
    rate,
    rateHigh: Math.max(rate, rateHigh),
    observed,
    anchor,
    refill,
    tokens: r.remaining - unseen,
    at: atMs,
    fullAt,
    spent: 0,
    serverSec: r.dated ? r.serverNow : null,
    offLo,
    last429,
  };
}

/** Whole seconds of refill the server has surely added between the reading and `nowMs`. */
function secondsPassed(b: Bucket, nowMs: number): number {
  if (b.serverSec !== null && b.offLo !== null) return Math.max(0, Math.floor((nowMs + b.offLo) / 1000) - b.serverSec);
  return Math.floor(Math.max(0, nowMs - b.at) / 1000);
}

/** Our time by which `seconds` whole seconds of refill have surely passed since the reading. */
function timeOfSeconds(b: Bucket, seconds: number): number {
  if (b.serverSec !== null && b.offLo !== null) return (b.serverSec + seconds) * 1000 - b.offLo;
  return b.at + seconds * 1000;
}

/** One more request sent. */
export function spend(b: Bucket): Bucket {
  return { ...b, spent: b.spent + 1 };
}

/** Tokens the site has for us at `nowMs`, by the estimate (may be below zero). */
export function available(b: Bucket, nowMs: number): number {
  if (nowMs >= b.fullAt) return b.limit - b.spent;
  if (b.refill === 'window') return b.tokens - b.spent;
  return Math.min(b.limit, b.tokens + b.rate * secondsPassed(b, nowMs)) - b.spent;
}

/**
 * Milliseconds from `nowMs` until `need` tokens are there by the estimate: 0 when they are now.
 * Never Infinity: with nothing known about the refill, the site's Reset (or a second, when even a
 * full bucket would not do because of what was sent since) is when a new reading says more.
 */
export function waitFor(b: Bucket, need: number, nowMs: number): number {
  if (available(b, nowMs) >= need) return 0;
  // even a full bucket is short by what was sent since the reading: the answers to those tell more
  if (b.limit - b.spent < need) return 1000;
  const untilFull = b.fullAt - nowMs;
  if (b.refill === 'bucket' && b.rate > 0) {
    const seconds = Math.ceil((need + b.spent - b.tokens) / b.rate);
    return Math.max(1, Math.min(timeOfSeconds(b, seconds) - nowMs, untilFull));
  }
  return Math.max(1, untilFull);
}

/** How long a 429 with these headers (and no Retry-After) says to wait for one token. */
export function retryWaitMs(r: BucketReading): number {
  return waitFor(learn(null, r, 0, 0), 1, 0);
}

/** A round window length for people: 59.6 → 60, 9.8 → 10. */
function roundWindow(s: number): number {
  for (const nice of [1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 300, 600, 900, 1800, 3600, 86400]) {
    if (Math.abs(s - nice) <= nice * 0.06) return nice;
  }
  return Math.max(1, Math.round(s));
}

/**
 * What the site allows, for a person ("120 requests a minute"), and the refill rate by the best
 * estimate (the time a mirror has left): the refill observed between readings, else the middle of
 * the bounds. Null until the rate is known.
 */
export function allowance(b: Bucket): { requests: number; perSeconds: number; ratePerS: number } | null {
  if (b.refill !== 'bucket' || b.rate <= 0) return null;
  const rate = b.observed !== null ? Math.max(b.rate, b.observed) : Number.isFinite(b.rateHigh) ? (b.rate + b.rateHigh) / 2 : b.rate;
  return { requests: b.limit, perSeconds: roundWindow(b.limit / rate), ratePerS: rate };
}
