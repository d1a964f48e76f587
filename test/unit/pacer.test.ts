/**
 * The pacer (electron/api/pacer.ts) on a fake clock: turns, priorities, the reserve, cancelling,
 * Retry-After, a site without headers; and a simulated mirror (background workers) with a person
 * clicking meanwhile, against a model of Grav's limiter: no 429, the person's requests go at once
 * or within a refill step, and the mirror uses most of the budget.
 */
import { describe, expect, test } from 'vitest';
import { PaceCancelled, Pacer, type Ticket } from '../../electron/api/pacer';

const T0 = Date.UTC(2026, 10, 22, 22, 30, 0) + 417;

/** A clock and timers that move only when told. */
function fakeTime() {
  let now = T0;
  let id = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return {
    now: () => now,
    timers: {
      set: (fn: () => void, ms: number) => (timers.set(++id, { at: now + ms, fn }), id),
      clear: (h: unknown) => void timers.delete(h as number),
    },
    /** Runs every timer due up to `ms` from now, in order, letting promises settle after each. */
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        await settle();
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const e of timers) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
        if (!next) break;
        timers.delete(next[0]);
        now = Math.max(now, next[1].at);
        next[1].fn();
      }
      now = end;
      await settle();
    },
  };
}

const gravHeaders = (limit: number, remaining: number, resetS: number, serverMs: number) =>
  new Headers({ 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(resetS), Date: new Date(serverMs).toUTCString() });

/** Grav's RateLimitMiddleware: a bucket refilled per whole second of the server's clock. */
function gravLimiter(limit: number, window: number) {
  const rate = limit / window;
  let tokens = limit;
  let last: number | null = null;
  return (serverMs: number) => {
    const now = Math.floor(serverMs / 1000);
    tokens = Math.min(limit, tokens + (now - (last ?? now)) * rate);
    last = now;
    const limited = tokens < 1;
    if (!limited) tokens -= 1;
    return { status: limited ? 429 : 200, headers: gravHeaders(limit, Math.max(0, Math.floor(tokens)), now + Math.ceil((limit - tokens) / rate), serverMs) };
  };
}

describe('turns', () => {
  test('a site without rate-limit headers: nothing waits (after the first answer, background goes 8 at a time)', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    const first = await p.acquire('background');
    const queued = [p.acquire('background'), p.acquire('background')];
    await time.advance(0);
    expect(p.waiting().background).toBe(2); // one at a time until the site says what its budget is
    first.done({ status: 200, headers: new Headers() });
    await time.advance(0);
    const tickets = [...(await Promise.all(queued)), ...(await Promise.all(Array.from({ length: 6 }, () => p.acquire('background'))))];
    expect(tickets).toHaveLength(8);
    expect(p.waiting()).toEqual({ interactive: 0, background: 0 });
    for (let i = 0; i < 20; i++) (await p.acquire('interactive')).done({ status: 200, headers: new Headers() });
  });

  test('background leaves a reserve for people: with 3 of 30 left a person goes, background waits for the refill', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    (await p.acquire('interactive')).done({ status: 200, headers: gravHeaders(30, 3, Math.floor(time.now() / 1000) + 9, time.now()) });
    const order: string[] = [];
    const bg = p.acquire('background').then((x) => (order.push('background'), x));
    await time.advance(0);
    const person = p.acquire('interactive').then((x) => (order.push('interactive'), x));
    await time.advance(0);
    expect(order).toEqual(['interactive']); // a tenth of the bucket (3) is kept for a person
    await time.advance(1000);
    expect(order).toEqual(['interactive', 'background']); // a second of refill
    (await person).done(null);
    (await bg).done(null);
  });

  test('an empty bucket: the next request waits for the next second of refill', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    (await p.acquire('interactive')).done({ status: 429, headers: gravHeaders(30, 0, Math.floor(time.now() / 1000) + 10, time.now()) });
    let went = 0;
    void p.acquire('interactive').then((x) => ((went = time.now()), x));
    const asked = time.now();
    await time.advance(5000);
    expect(went - asked).toBeGreaterThan(0);
    expect(went - asked).toBeLessThanOrEqual(1000);
  });

  test('background waits while a person waits, even with tokens for both', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    (await p.acquire('interactive')).done({ status: 200, headers: gravHeaders(120, 0, Math.floor(time.now() / 1000) + 60, time.now()) });
    const got: string[] = [];
    void p.acquire('background').then((x) => (got.push('bg'), x.done(null)));
    void p.acquire('interactive').then((x) => (got.push('person'), x.done(null)));
    void p.acquire('background').then((x) => (got.push('bg'), x.done(null)));
    await time.advance(120_000);
    expect(got[0]).toBe('person');
    expect(got).toHaveLength(3);
  });

  test('a waiting request given up: PaceCancelled, and nothing was spent', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    (await p.acquire('interactive')).done({ status: 200, headers: gravHeaders(120, 0, Math.floor(time.now() / 1000) + 60, time.now()) });
    const ac = new AbortController();
    const waiting = p.acquire('background', { signal: ac.signal });
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(PaceCancelled);
    await expect(p.acquire('background', { signal: ac.signal })).rejects.toBeInstanceOf(PaceCancelled);
    expect(p.waiting()).toEqual({ interactive: 0, background: 0 });
  });

  test("a person's request that would wait longer than allowed fails at once with the real seconds", async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    (await p.acquire('interactive')).done({ status: 200, headers: gravHeaders(1, 0, Math.floor(time.now() / 1000) + 30, time.now()) });
    await expect(p.acquire('interactive', { maxWaitMs: 5000 })).rejects.toMatchObject({ code: 'rate_limited', info: { retryAfter: 30 } });
  });

  test('a 429 with Retry-After holds every request until then', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    (await p.acquire('interactive')).done({ status: 429, headers: new Headers({ 'Retry-After': '4' }) });
    let went = false;
    void p.acquire('interactive').then((x) => ((went = true), x.done(null)));
    await time.advance(3900);
    expect(went).toBe(false);
    await time.advance(200);
    expect(went).toBe(true);
  });

  test('the budget in people’s terms, for the time estimate', async () => {
    const time = fakeTime();
    const p = new Pacer({ now: time.now, timers: time.timers });
    expect(p.pace()).toBeNull();
    (await p.acquire('interactive')).done({ status: 429, headers: gravHeaders(120, 0, Math.floor(time.now() / 1000) + 60, time.now()) });
    expect(p.pace()).toMatchObject({ requests: 120, perSeconds: 60, reserve: 12, available: 0 });
  });
});

describe('a mirror and a person against the real limiter', () => {
  test('no 429, the person is answered within a refill step, the mirror uses most of the budget', async () => {
    const time = fakeTime();
    const server = gravLimiter(30, 10);
    const skewMs = 4_321;
    const p = new Pacer({ now: time.now, timers: time.timers });
    const statuses: number[] = [];
    /** One request: half the latency to the server, half back. */
    const request = async (priority: 'interactive' | 'background', latencyMs: number): Promise<number> => {
      const asked = time.now();
      const t: Ticket = await p.acquire(priority);
      const waited = time.now() - asked;
      const answer = await new Promise<{ status: number; headers: Headers }>((resolve) =>
        time.timers.set(() => {
          const a = server(time.now() + skewMs);
          time.timers.set(() => resolve(a), latencyMs / 2);
        }, latencyMs / 2),
      );
      statuses.push(answer.status);
      t.done(answer);
      return waited;
    };
    let stop = false;
    let mirrored = 0;
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        await request('background', 40 + ((w * 13 + i * 29) % 160));
        mirrored++;
      }
    });
    const personWaits: number[] = [];
    const person = (async () => {
      for (let click = 0; click < 20; click++) {
        await new Promise<void>((r) => time.timers.set(r, 2_900));
        // a click: a page and its children and languages
        personWaits.push(...(await Promise.all([request('interactive', 60), request('interactive', 80), request('interactive', 50)])));
      }
    })();
    await time.advance(120_000);
    stop = true;
    await time.advance(10_000);
    await Promise.all([...workers, person]);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(personWaits).toHaveLength(60);
    expect(Math.max(...personWaits)).toBeLessThanOrEqual(1000);
    // 30 at once, then 3 a second for 130 s, the person's 60 taken off
    expect(mirrored).toBeGreaterThan(0.85 * (30 + 3 * 130 - 60));
  });
});
