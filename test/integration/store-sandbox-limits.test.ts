/**
 * The store sandbox's rate-limit plans (document 3, section 8; the spec flavour) with the
 * documented budgets, moved through their windows with the sandbox clock instead of waiting, and
 * their absence in the real flavour (the Swagger Petstore v3 has no plans: no budget headers, no
 * 429); the test knobs (faults, clock, plans, settings, keys) in-process and over the control
 * routes in both flavours; and `npm run sandbox` printing the store beside the CMS.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startStoreSandbox, type StoreSandbox, type StoreSandboxOptions } from '../sandbox/store/server';
import { DEMO_USERS } from '../sandbox/store/seed';
import { StoreClient, type Reply } from '../sandbox/store/test-client';
import { flavors } from '../support/flavors';
import { closedPort } from '../support/servers';

const running: StoreSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(opts: StoreSandboxOptions = {}): Promise<{ sb: StoreSandbox; api: StoreClient }> {
  const sb: StoreSandbox = await startStoreSandbox(opts);
  running.push(sb);
  return { sb, api: new StoreClient(sb) };
}

/** `n` calls in sequence; the statuses seen, in order. */
async function hammer(client: StoreClient, n: number, path = '/pet/1'): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await client.get(path)).status);
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

function expect429(r: Reply): number {
  expect(r.status, r.text).toBe(429);
  expect(r.body).toMatchObject({ code: 429, type: 'too_many_requests', message: expect.stringContaining('Rate limit exceeded') });
  const after = Number(r.headers.get('retry-after'));
  expect(Number.isInteger(after) && after > 0).toBe(true);
  return after;
}

describe('plans (spec flavour)', () => {
  test('Free: 60 a minute; the 61st is a 429 with Retry-After; refusals are not counted; the next minute is fresh', async () => {
    const { sb, api } = await sandbox();
    const free = api.as({ apiKey: sb.seeded!.keys.free });
    const first = await free.get('/pet/1');
    expect(Object.fromEntries([...first.headers].filter(([k]) => k.startsWith('x-ratelimit')))).toEqual({
      'x-ratelimit-plan': 'free',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': expect.stringMatching(/^\d+$/),
      'x-ratelimit-limit-day': '1000',
      'x-ratelimit-remaining-day': '999',
      'x-ratelimit-reset-day': expect.stringMatching(/^\d+$/),
    });
    expect(count(await hammer(free, 59), 200)).toBe(59);
    const refused = await free.get('/pet/1');
    const after = expect429(refused);
    expect(after).toBeLessThanOrEqual(60);
    expect(refused.body.message).toContain('60 requests per minute');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(count(await hammer(free, 5), 429)).toBe(5);

    sb.clock.advance(after * 1000);
    const fresh = await free.get('/pet/1');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(fresh.headers.get('x-ratelimit-remaining-day')).toBe(String(1000 - 61)); // the 429s did not count
  });

  test('Free: 1,000 a day, whatever the minutes; Retry-After says when the day ends', async () => {
    const { sb, api } = await sandbox();
    const free = api.as({ apiKey: sb.seeded!.keys.free });
    let ok = 0;
    while (ok < 1000) {
      const batch = await hammer(free, Math.min(60, 1000 - ok));
      expect(count(batch, 429)).toBe(0);
      ok += batch.length;
      sb.clock.advance(60_000); // a new minute each time
    }
    const refused = await free.get('/pet/1');
    const after = expect429(refused);
    expect(refused.body.message).toContain('1000 requests per day');
    expect(refused.headers.get('x-ratelimit-remaining-day')).toBe('0');
    expect(after).toBeGreaterThan(86_400 - 20 * 60);
    expect(after).toBeLessThanOrEqual(86_400);
    sb.clock.advance(after * 1000);
    expect((await free.get('/pet/1')).status).toBe(200);
  });

  test('Pro: 600 a minute', async () => {
    const { sb, api } = await sandbox();
    const pro = api.as({ apiKey: sb.seeded!.keys.pro });
    expect(count(await hammer(pro, 600), 200)).toBe(600);
    const refused = await pro.get('/pet/1');
    expect429(refused);
    expect(refused.body.message).toContain('Pro plan allows 600 requests per minute');
    expect(refused.headers.get('x-ratelimit-limit-day')).toBe('50000');
    sb.clock.advance(60_000);
    expect((await pro.get('/pet/1')).headers.get('x-ratelimit-remaining-day')).toBe(String(50_000 - 601));
  });

  test('Pro: 50,000 a day (budgets lowered through the control route to keep the test short)', async () => {
    const { sb, api } = await sandbox();
    const res = await fetch(`${sb.origin}/__sandbox/plans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pro: { perDay: 3 } }) });
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ pro: { perMinute: 600, perDay: 3 }, free: { perMinute: 60, perDay: 1000 } });
    const pro = api.as({ apiKey: sb.seeded!.keys.pro });
    expect(await hammer(pro, 4)).toEqual([200, 200, 200, 429]);
    expect(sb.plans.pro.perDay).toBe(3);
    expect((await fetch(`${sb.origin}/__sandbox/plans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"gold":{}}' })).status).toBe(400);
    expect((await fetch(`${sb.origin}/__sandbox/plans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"free":{"perMinute":0}}' })).status).toBe(400);
  });

  test('Enterprise: unlimited, and says only its plan', async () => {
    const { sb, api } = await sandbox();
    const ent = api.as({ apiKey: sb.seeded!.keys.enterprise });
    expect(count(await hammer(ent, 601), 200)).toBe(601); // past every other plan's minute
    const r = await ent.get('/pet/1');
    expect(r.headers.get('x-ratelimit-plan')).toBe('enterprise');
    expect(r.headers.get('x-ratelimit-remaining')).toBeNull();
  });

  test('budgets are per key; a session counts against its account; anonymous calls per address', async () => {
    const { sb, api } = await sandbox({ plans: { free: { perMinute: 3 } } });
    const a = api.as({ apiKey: sb.seeded!.keys.free });
    const b = api.as({ apiKey: sb.createKey('free') });
    expect(await hammer(a, 4)).toEqual([200, 200, 200, 429]);
    expect(await hammer(b, 1)).toEqual([200]);

    // user1's account is on Free: two sessions share one budget. The logins themselves are anonymous calls.
    const { token: t1 } = await api.login('user1', DEMO_USERS.user1.password);
    const { token: t2 } = await api.login('user1', DEMO_USERS.user1.password);
    expect(await hammer(api.as({ bearer: t1 }), 2)).toEqual([200, 200]);
    expect(await hammer(api.as({ bearer: t2 }), 2)).toEqual([200, 429]);

    const anon = api.as({ none: true });
    expect((await anon.get('/store/inventory')).status).toBe(200); // the third anonymous call (after two logins)
    const refused = await anon.get('/store/inventory');
    expect429(refused);
    expect(refused.body.message).toContain('anonymous');
  });
});

describe('no plans (real flavour: Petstore limits nothing)', () => {
  test('no budget headers on any answer; no 429 however low the (unused) plans are set; no Retry-After', async () => {
    const { sb, api } = await sandbox({ flavor: 'real', plans: { free: { perMinute: 1, perDay: 1 } } });
    const anon = api.as({ none: true });
    const replies = [await anon.get('/pet/1'), await anon.get('/store/inventory'), await api.get('/pet/findByStatus?status=sold'), (await api.login('admin', 'x')).reply];
    for (let i = 0; i < 70; i++) replies.push(await api.as({ apiKey: sb.seeded!.keys.free }).get('/pet/1'));
    expect(replies.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    for (const r of replies) {
      expect([...r.headers.keys()].filter((k) => k.startsWith('x-ratelimit') || k === 'retry-after')).toEqual([]);
    }
  });
});

describe.each(flavors)('%s flavour', (flavor) => {
  describe('faults', () => {
    test('each kind: latency, 500 in the flavour\'s error shape, dropped connection, 429, HTML; limited by times', async () => {
      const { sb, api } = await sandbox({ flavor });
      sb.faults.set({ route: 'GET /pet/1', latencyMs: 200, times: 1 });
      const started = Date.now();
      expect((await api.get('/pet/1')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(180);

      sb.faults.set({ route: 'GET /pet/*', status: 500, times: 1 });
      const failed = await api.get('/pet/2');
      expect(failed.status).toBe(500);
      // spec: its ApiResponse; real: inflector's answer to anything that goes wrong inside
      if (flavor === 'spec') expect(failed.body).toMatchObject({ code: 500, message: 'Injected fault.' });
      else expect(failed.body).toEqual({ code: 500, message: expect.stringMatching(/^There was an error processing your request\. It has been logged/) });
      expect((await api.get('/pet/2')).status).toBe(200);

      sb.faults.set({ route: '*', drop: true, times: 1 });
      await expect(fetch(`${sb.url}/store/inventory`)).rejects.toThrow();

      sb.faults.set({ route: 'GET /store/inventory', rateLimit: { retryAfter: 7 } });
      const limited = await api.get('/store/inventory');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('7');
      expect(limited.body).toMatchObject({ code: 429 });

      sb.faults.set({ route: '* /store/*', html: true, status: 502 });
      const page = await api.get('/store/inventory');
      expect(page.status).toBe(502);
      expect(page.type).toContain('text/html');
      sb.faults.clear();
      expect((await api.get('/store/inventory')).status).toBe(200);
    });

    test('over the control routes, which faults never touch', async () => {
      const { sb, api } = await sandbox({ flavor });
      const control = (path: string, method = 'GET', body?: unknown) =>
        fetch(`${sb.origin}/__sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      expect((await control('/faults', 'POST', { route: '*', drop: true })).status).toBe(200);
      await expect(fetch(`${sb.url}/store/inventory`)).rejects.toThrow();
      expect((await control('/faults')).status).toBe(200);
      expect((await control('/faults', 'DELETE')).status).toBe(204);
      expect((await api.get('/store/inventory')).status).toBe(200);
      expect((await control('/faults', 'POST', { route: 'nonsense', status: 500 })).status).toBe(400);
    });
  });

  describe('control routes', () => {
    const control = (sb: StoreSandbox, path: string, method = 'GET', body?: unknown) =>
      fetch(`${sb.origin}/__sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

    if (flavor === 'spec') {
      test('clock: a session expires when the clock is moved over HTTP', async () => {
        const { sb, api } = await sandbox({ flavor });
        const { token } = await api.login('admin', DEMO_USERS.admin.password);
        const moved = (await (await control(sb, '/clock', 'POST', { advanceMs: 3_601_000 })).json()) as { data: { offsetMs: number } };
        expect(moved.data.offsetMs).toBe(3_601_000);
        expect((await api.as({ bearer: token }).get('/pet/1')).status).toBe(401);
        await control(sb, '/clock', 'POST', { offsetMs: 0 });
        expect((await api.as({ bearer: token }).get('/pet/1')).status).toBe(200);
        expect((await control(sb, '/clock', 'POST', {})).status).toBe(400);
      });
    } else {
      test('clock: moved over HTTP, it moves the login\'s expiry (Petstore never ends a session: it keeps none)', async () => {
        const { sb, api } = await sandbox({ flavor });
        const { token, reply } = await api.login('admin', 'x');
        const moved = (await (await control(sb, '/clock', 'POST', { advanceMs: 86_400_000 })).json()) as { data: { offsetMs: number } };
        expect(moved.data.offsetMs).toBe(86_400_000);
        expect((await api.as({ bearer: token }).get('/pet/1')).status).toBe(200);
        const later = (await api.login('admin', 'x')).reply.headers.get('x-expires-after')!;
        expect(later).not.toBe(reply.headers.get('x-expires-after'));
        expect(later.slice(0, 10)).not.toBe(reply.headers.get('x-expires-after')!.slice(0, 10)); // a day later
        expect((await control(sb, '/clock', 'POST', {})).status).toBe(400);
      });
    }

    if (flavor === 'spec') {
      test('settings and keys', async () => {
        const { sb, api } = await sandbox({ flavor });
        const settings = (await (await control(sb, '/settings', 'POST', { sessionTtl: 60 })).json()) as { data: Record<string, number> };
        expect(settings.data).toMatchObject({ sessionTtl: 60, uploadMax: 10 * 1024 * 1024 });
        const { reply } = await api.login('admin', DEMO_USERS.admin.password);
        expect(Date.parse(reply.headers.get('x-expires-after')!) - sb.clock.now()).toBeLessThanOrEqual(60_000);
        expect((await control(sb, '/settings', 'POST', { sessionTtl: -1 })).status).toBe(400);

        const made = (await (await control(sb, '/keys', 'POST', { username: 'user1', plan: 'pro' })).json()) as { data: { key: string; plan: string; username: string } };
        expect(made.data).toMatchObject({ plan: 'pro', username: 'user1', key: expect.stringMatching(/^sk_pro_/) });
        const asUser1 = api.as({ apiKey: made.data.key });
        expect((await asUser1.get('/pet/1')).headers.get('x-ratelimit-limit')).toBe('600');
        expect((await asUser1.post('/user', { username: 'zed', email: 'z@example.test', password: 'x' })).status).toBe(403);
        expect((await control(sb, '/keys', 'POST', { username: 'nobody' })).status).toBe(400);
        expect((await control(sb, '/keys', 'POST', { plan: 'gold' })).status).toBe(400);
      });
    } else {
      test('settings (the server\'s time zone among them) and keys: a made-up key, as good as any', async () => {
        const { sb, api } = await sandbox({ flavor });
        const settings = (await (await control(sb, '/settings', 'POST', { timeZone: 'America/Los_Angeles' })).json()) as { data: Record<string, unknown> };
        expect(settings.data).toMatchObject({ timeZone: 'America/Los_Angeles', uploadMax: 10 * 1024 * 1024 });
        expect((await api.login('admin', 'x')).reply.headers.get('x-expires-after')).toMatch(/ P[SD]T \d{4}$/);
        expect((await control(sb, '/settings', 'POST', { timeZone: 'Mars/Olympus' })).status).toBe(400);

        const made = (await (await control(sb, '/keys', 'POST', { username: 'user1', plan: 'pro' })).json()) as { data: { key: string; plan: string; username: string } };
        expect(made.data).toMatchObject({ plan: 'pro', username: 'user1', key: expect.stringMatching(/^sk_pro_/) });
        const asUser1 = api.as({ apiKey: made.data.key });
        expect((await asUser1.get('/pet/1')).headers.get('x-ratelimit-limit')).toBeNull();
        expect((await asUser1.post('/user', { username: 'zed' })).status).toBe(200); // nobody is an administrator: nothing is checked
        expect((await control(sb, '/keys', 'POST', { username: 'nobody' })).status).toBe(400);
      });
    }

    test('a fresh data folder per instance; one that is reused keeps its store', async () => {
      const { sb: one, api } = await sandbox({ flavor });
      const { sb: two } = await sandbox({ flavor });
      expect(one.dataDir).not.toBe(two.dataDir);
      expect(one.seeded!.keys.free).not.toBe(two.seeded!.keys.free);
      await api.post('/pet', { id: 900001, name: 'Kept', photoUrls: [] });
      const dir = one.dataDir;
      const again = await startStoreSandbox({ flavor, dataDir: dir });
      running.push(again);
      expect(again.seeded).toBeNull();
      expect(again.data.pet(900001)?.name).toBe('Kept');
      expect((await new StoreClient(again, { apiKey: one.seeded!.keys.enterprise }).get('/pet/900001')).body).toMatchObject({ name: 'Kept' });
      const { sb: empty } = await sandbox({ flavor, seed: 'empty' });
      // spec counts pets per pet status (none); real counts orders (none: an empty map)
      expect((await new StoreClient(empty).get('/store/inventory')).body).toEqual(flavor === 'spec' ? { available: 0, pending: 0, sold: 0 } : {});
      expect((await new StoreClient(empty).get('/store/order/1')).status).toBe(404);
    });
  });
});

describe('npm run sandbox', () => {
  /** Runs `npm run sandbox` with `args` until it prints its last line; answers the output and a stop function. */
  async function runSandbox(args: string[]): Promise<{ lines: string[]; stop(): Promise<void> }> {
    const root = join(import.meta.dirname, '..', '..');
    const child = spawn(join(root, 'node_modules', '.bin', 'node'), ['scripts/sandbox.mjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const stop = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no store line:\n${out}`)), 30_000);
        child.stdout.on('data', () => /Stop with Ctrl\+C/.test(out) && (clearTimeout(timer), resolve()));
        child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}:\n${out}`))));
      });
    } catch (err) {
      await stop();
      throw err;
    }
    return { lines: out.split('\n'), stop };
  }

  test('starts the store beside the CMS, prints its address on a line of its own and a key per plan; --store-port fixes the port', async () => {
    const port = await closedPort();
    const { lines, stop } = await runSandbox(['--store-port', String(port)]);
    try {
      expect(lines).toContain(`Store sandbox: http://127.0.0.1:${port}/api/v3`);
      expect(lines.some((l) => /^CMS sandbox: http:\/\/127\.0\.0\.1:\d+\/api\/v1$/.test(l))).toBe(true);
      const keys: Record<string, string> = {};
      for (const l of lines) {
        const m = /^\s+(Free|Pro|Enterprise)\s.*\s(sk_\w+)$/.exec(l);
        if (m) keys[m[1]!] = m[2]!;
      }
      expect(Object.keys(keys)).toEqual(['Free', 'Pro', 'Enterprise']);
      const r = await fetch(`http://127.0.0.1:${port}/api/v3/pet/1`, { headers: { api_key: keys.Free! } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-plan')).toBe('free');
    } finally {
      await stop();
    }
  }, 60_000);

  test('--flavor real: the store behaves as Petstore (one status per call) and says keys are not checked', async () => {
    const port = await closedPort();
    const { lines, stop } = await runSandbox(['--flavor', 'real', '--store-port', String(port)]);
    try {
      expect(lines).toContain(`Store sandbox: http://127.0.0.1:${port}/api/v3`);
      expect(lines.some((l) => l.includes('none are checked'))).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/api/v3/pet/findByStatus?status=available,sold`)).status).toBe(400);
      expect((await fetch(`http://127.0.0.1:${port}/api/v3/pet/findByStatus?status=sold`)).status).toBe(200);
    } finally {
      await stop();
    }
  }, 60_000);
});
