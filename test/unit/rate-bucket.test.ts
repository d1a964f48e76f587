/**
 * The rate-limit arithmetic of rate-bucket.ts with a fake clock: readings of the headers, the
 * refill rate learnt from them, waits, and — against a model of Grav's limiter (a token bucket
 * refilled per whole second of the server's clock, Reset the second it is full) — that sending
 * whenever the estimate has a token never meets a 429 and still uses most of the budget.
 */
import { describe, expect, test } from 'vitest';
import { allowance, available, learn, readingOf, retryWaitMs, spend, uncounted, waitFor, type BucketReading } from '../../electron/api/rate-bucket';

const T0 = Date.UTC(2026, 10, 22, 22, 30, 0);

function headers(limit: number, remaining: number, reset: number | null, dateMs: number | null): Headers {
  const h = new Headers({ 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining) });
  if (reset !== null) h.set('X-RateLimit-Reset', String(reset));
  if (dateMs !== null) h.set('Date', new Date(dateMs).toUTCString());
  return h;
}

/** Grav's RateLimitMiddleware, as the plugin implements it: whole seconds of the server's clock. */
function gravLimiter(limit: number, window: number, dated = true) {
  const rate = limit / window;
  let tokens = limit;
  let last: number | null = null;
  return (serverMs: number) => {
    const now = Math.floor(serverMs / 1000);
    tokens = Math.min(limit, tokens + (now - (last ?? now)) * rate);
    last = now;
    const limited = tokens < 1;
    if (!limited) tokens -= 1;
    return { limited, headers: headers(limit, Math.max(0, Math.floor(tokens)), now + Math.ceil((limit - tokens) / rate), dated ? serverMs : null) };
  };
}

describe('reading the headers', () => {
  test('Grav: limit, remaining, reset against the Date header (never our clock)', () => {
    const r = readingOf(headers(120, 117, Math.floor(T0 / 1000) + 2, T0), T0 + 3_600_000)!;
    expect(r).toMatchObject({ limit: 120, remaining: 117, fullInS: 2 });
    // without a Date the local clock stands in
    expect(readingOf(headers(120, 0, Math.floor(T0 / 1000) + 60, null), T0)!.fullInS).toBe(60);
    // a Reset in seconds from now, as some servers send it
    expect(readingOf(headers(30, 3, 7, T0), T0)!.fullInS).toBe(7);
  });

  test('no headers, or unreadable ones: no reading; a full bucket on an excluded path is not counted', () => {
    expect(readingOf(new Headers(), T0)).toBeNull();
    expect(readingOf(new Headers({ 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Remaining': '3' }), T0)).toBeNull();
    expect(uncounted(readingOf(headers(120, 120, Math.floor(T0 / 1000) + 60, T0), T0)!)).toBe(true);
    expect(uncounted(readingOf(headers(120, 119, Math.floor(T0 / 1000) + 1, T0), T0)!)).toBe(false);
  });
});

describe('the bucket', () => {
  const grav429: BucketReading = { limit: 120, remaining: 0, fullInS: 60, resetAt: null, serverNow: 940, dated: false };

  test('a 429 of the default limit: the rate is a lower bound of 2 a second; what a person reads is "120 a minute"', () => {
    const b = learn(null, grav429, T0, 0);
    expect(b.rate).toBeGreaterThan(1.9);
    expect(b.rate).toBeLessThanOrEqual(2);
    expect(allowance(b)).toMatchObject({ requests: 120, perSeconds: 60 });
    expect(allowance(learn(null, { limit: 30, remaining: 0, fullInS: 10, resetAt: 1000, serverNow: 990, dated: false }, T0, 0))).toMatchObject({ requests: 30, perSeconds: 10 });
  });

  test('the refill seen between readings ten seconds apart names the window (what the bucket gained plus what we took)', () => {
    const at = (s: number) => T0 + s * 1000;
    const r = (remaining: number): BucketReading => ({ limit: 30, remaining, fullInS: Math.ceil((30 - remaining) / 3), resetAt: null, serverNow: 0, dated: false });
    let b = learn(null, r(3), at(0), 0, at(0), 100);
    b = learn(b, r(4), at(5), 0, at(5), 115);
    expect(b.observed).toBeNull(); // too short to tell
    b = learn(b, r(2), at(12), 0, at(12), 137);
    expect(b.observed).toBeCloseTo((2 - 3 + 37) / 12);
    expect(allowance(b)).toMatchObject({ requests: 30, perSeconds: 10, ratePerS: 3 });
    // a 429 took nothing, and a full bucket wasted its refill: the observation starts again there
    expect(learn(b, r(0), at(13), 0, at(13), 140, true).anchor).toMatchObject({ seq: 140 });
    expect(learn(b, r(29), at(13), 0, at(13), 140).anchor).toMatchObject({ seq: 140 });
  });

  test('refill is credited per whole second, capped at the limit; requests sent since are taken off', () => {
    const b = learn(null, grav429, T0, 0);
    expect(available(b, T0 + 999)).toBe(0);
    expect(available(b, T0 + 1000)).toBeCloseTo(b.rate);
    expect(available(b, T0 + 10_000)).toBeCloseTo(b.rate * 10);
    expect(available(b, T0 + 59_000)).toBeLessThanOrEqual(120);
    expect(available(b, T0 + 60_000)).toBe(120); // the site said: full at its Reset
    expect(available(spend(spend(b)), T0 + 60_000)).toBe(118);
  });

  test('requests still in flight when the reading came are counted as not seen by it', () => {
    const b = learn(null, { limit: 120, remaining: 10, fullInS: 55, resetAt: null, serverNow: 0, dated: false }, T0, 3);
    expect(available(b, T0)).toBe(7);
  });

  test('waits: none with tokens; until the next whole second of refill; until Reset when the rate is unknown', () => {
    const b = learn(null, grav429, T0, 0);
    expect(waitFor(b, 1, T0)).toBe(1000);
    expect(waitFor(b, 1, T0 + 400)).toBe(600);
    expect(waitFor(b, 1, T0 + 1000)).toBe(0);
    expect(waitFor(b, 12, T0)).toBe(Math.ceil(12 / b.rate) * 1000);
    const young = learn(null, { limit: 120, remaining: 119, fullInS: 1, resetAt: null, serverNow: 0, dated: false }, T0, 0);
    expect(young.rate).toBe(0);
    expect(waitFor(spend(young), 119, T0)).toBe(1000); // the Reset a second away
    expect(retryWaitMs(grav429)).toBe(1000);
    expect(retryWaitMs({ limit: 1, remaining: 0, fullInS: 30, resetAt: null, serverNow: 0, dated: false })).toBe(30_000);
  });

  test('a fixed window (two 429s with the same Reset a second apart): nothing is credited before the reset', () => {
    let b = learn(null, { limit: 100, remaining: 0, fullInS: 40, resetAt: 2000, serverNow: 1960, dated: false }, T0, 0);
    expect(b.refill).toBe('bucket');
    b = learn(b, { limit: 100, remaining: 0, fullInS: 38, resetAt: 2000, serverNow: 1962, dated: false }, T0 + 2000, 0);
    expect(b.refill).toBe('window');
    expect(available(b, T0 + 30_000)).toBe(0);
    expect(waitFor(b, 1, T0 + 2000)).toBe(38_000);
    expect(available(b, T0 + 40_000)).toBe(100);
    expect(allowance(b)).toBeNull();
  });

  test('a new limit starts the learning over', () => {
    const b = learn(learn(null, grav429, T0, 0), { limit: 600, remaining: 590, fullInS: 2, resetAt: null, serverNow: 0, dated: false }, T0 + 1000, 0);
    expect(b).toMatchObject({ limit: 600, rate: (10 - 1) / 3 });
  });
});

describe('paced by the estimate against the real limiter', () => {
  for (const [name, limit, window, skewMs, dated] of [
    ['120 a minute, server clock 37.4 s ahead', 120, 60, 37_400, true],
    ['30 every 10 s, server clock 2.9 s behind', 30, 10, -2_900, true],
    ['5 a second', 5, 1, 0, true],
    ['120 a minute, answers without a Date header', 120, 60, 0, false],
  ] as const) {
    test(`${name}: never a 429, and at least 90% of the refill used`, () => {
      const server = gravLimiter(limit, window, dated);
      let b: ReturnType<typeof learn> | null = null;
      let t = T0 + 123;
      let sent = 0;
      let limited = 0;
      const end = T0 + 5 * 60_000;
      // one request at a time, 20–220 ms each; it goes as soon as the estimate has a token
      for (let i = 0; t < end; i++) {
        const wait = b ? waitFor(b, 1, t) : 0;
        t += wait;
        if (b) b = spend(b);
        const sentAt = t;
        const latency = 20 + ((i * 37) % 200);
        const answer = server(t + latency / 2 + skewMs);
        t += latency;
        sent++;
        if (answer.limited) limited++;
        b = learn(b, readingOf(answer.headers, t)!, t, 0, sentAt);
      }
      expect(limited).toBe(0);
      const allowed = limit + ((end - T0) / 1000) * (limit / window);
      expect(sent / allowed).toBeGreaterThan(0.9);
    });
  }
});
