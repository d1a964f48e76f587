/**
 * The CMS sandbox's general rate limiter, over real HTTP: in the `real` flavour Grav's token
 * bucket (RateLimitMiddleware after authentication): per account across its tokens and keys, per IP
 * before sign-in, refilled continuously, X-RateLimit-* on every counted answer (the 429 too), a
 * 429 problem without Retry-After, excluded paths untouched, a protected route's 401 before the
 * limiter; changeable at start and while running. The `spec` flavour keeps its fixed window.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox, type CmsSandboxOptions } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';

const running: CmsSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(opts: CmsSandboxOptions = {}): Promise<CmsSandbox> {
  const s = await startCmsSandbox({ flavor: 'real', content: 'empty', ...opts });
  running.push(s);
  return s;
}

const get = (sb: CmsSandbox, path: string, headers: Record<string, string> = {}) => fetch(sb.url + path, { headers });
const limits = (r: Response) => ({
  limit: Number(r.headers.get('x-ratelimit-limit')),
  remaining: Number(r.headers.get('x-ratelimit-remaining')),
  reset: Number(r.headers.get('x-ratelimit-reset')),
});

async function token(sb: CmsSandbox, username: 'admin' | 'viewer'): Promise<string> {
  const r = await fetch(sb.url + '/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_ACCOUNTS[username].password }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { access_token: string } }).data.access_token;
}

describe('real flavour: the general limiter is a token bucket per account', () => {
  test('120 per 60 s by default; Reset is the epoch second the bucket is full again, against the Date header', async () => {
    const sb = await sandbox();
    const key = { 'X-API-Key': sb.seeded!.adminApiKey! };
    const first = await get(sb, '/me', key);
    expect(first.status).toBe(200);
    const a = limits(first);
    expect(a).toMatchObject({ limit: 120, remaining: 119 });
    const date = Math.floor(Date.parse(first.headers.get('date')!) / 1000);
    expect(a.reset - date).toBeGreaterThanOrEqual(1);
    expect(a.reset - date).toBeLessThanOrEqual(2);
    for (let i = 0; i < 9; i++) await get(sb, '/me', key);
    const tenth = limits(await get(sb, '/me', key));
    expect(tenth.remaining).toBeGreaterThanOrEqual(109);
    expect(tenth.remaining).toBeLessThanOrEqual(110);
    expect(tenth.reset - date).toBeGreaterThanOrEqual(5); // 10 tokens at 2 a second
    expect(tenth.reset - date).toBeLessThanOrEqual(7);
  });

  test('a token and an API key of one account share its bucket; another account and the anonymous IP have their own', async () => {
    const sb = await sandbox({ limits: { api: { limit: 4, windowSec: 600 } } });
    const adminToken = await token(sb, 'admin'); // a public route: the IP's bucket
    const key = { 'X-API-Key': sb.seeded!.adminApiKey! };
    expect(limits(await get(sb, '/me', key)).remaining).toBe(3);
    expect(limits(await get(sb, '/me', { 'X-API-Token': adminToken })).remaining).toBe(2);
    expect(limits(await get(sb, '/me', { Authorization: `Bearer ${adminToken}` })).remaining).toBe(1);
    expect(limits(await get(sb, '/me', key)).remaining).toBe(0);
    const refused = await get(sb, '/me', { 'X-API-Token': adminToken });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(limits(refused)).toMatchObject({ limit: 4, remaining: 0 });
    expect(await refused.json()).toEqual({ status: 429, title: 'Too Many Requests', detail: 'Rate limit exceeded. Try again later.' });
    // the viewer's bucket is untouched; the IP's has had the two sign-ins
    expect(limits(await get(sb, '/me', { 'X-API-Token': await token(sb, 'viewer') })).remaining).toBe(3);
    expect(limits(await get(sb, '/ping')).remaining).toBe(1);
  });

  test('refilled continuously: a token is back after limit/window of a second', async () => {
    const sb = await sandbox({ limits: { api: { limit: 5, windowSec: 1 } } });
    const key = { 'X-API-Key': sb.seeded!.adminApiKey! };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(sb, '/me', key)).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    await new Promise((r) => setTimeout(r, 250));
    expect((await get(sb, '/me', key)).status).toBe(200);
  });

  test('a protected route refused for its credentials answers 401 before the limiter: no headers, no token', async () => {
    const sb = await sandbox({ limits: { api: { limit: 3, windowSec: 600 } } });
    for (let i = 0; i < 5; i++) {
      const r = await get(sb, '/me', { 'X-API-Key': 'grav_wrong' });
      expect(r.status).toBe(401);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    }
    expect(limits(await get(sb, '/ping')).remaining).toBe(2);
  });

  test('excluded paths report a full bucket and take nothing, even from an empty one', async () => {
    const sb = await sandbox({ limits: { api: { limit: 2, windowSec: 600 } } });
    const key = { 'X-API-Key': sb.seeded!.adminApiKey! };
    await get(sb, '/me', key);
    await get(sb, '/me', key);
    expect((await get(sb, '/me', key)).status).toBe(429);
    const excluded = await get(sb, '/blueprints/pages/default/fields', key);
    expect(excluded.status).not.toBe(429);
    expect(limits(excluded)).toMatchObject({ limit: 2, remaining: 2 });
    expect((await get(sb, '/me', key)).status).toBe(429);
  });

  test('raised (or switched off) while running, starting afresh', async () => {
    const sb = await sandbox({ limits: { api: { limit: 1, windowSec: 600 } } });
    const key = { 'X-API-Key': sb.seeded!.adminApiKey! };
    await get(sb, '/me', key);
    expect((await get(sb, '/me', key)).status).toBe(429);
    sb.limits.set('api', { limit: 100_000, windowSec: 60 });
    expect(limits(await get(sb, '/me', key))).toMatchObject({ limit: 100_000, remaining: 99_999 });
    sb.limits.set('api', null);
    const off = await get(sb, '/me', key);
    expect(off.status).toBe(200);
    expect(off.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('spec flavour: the fixed window per IP stays', () => {
  test('6000 a minute by default, Retry-After on the 429', async () => {
    const sb = await sandbox({ flavor: 'spec' });
    expect(limits(await get(sb, '/ping'))).toMatchObject({ limit: 6000, remaining: 5999 });
    sb.limits.set('api', { limit: 1, windowSec: 60 });
    await get(sb, '/ping');
    const refused = await get(sb, '/ping');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
  });
});
