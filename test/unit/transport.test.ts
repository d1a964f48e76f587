import { describe, expect, test, vi } from 'vitest';
import { Transport, type CredentialSource } from '../../electron/api/transport';
import { retryAfterSeconds } from '../../electron/api/errors';
import { PaceCancelled, Pacer } from '../../electron/api/pacer';

type Reply = { status: number; body?: string; headers?: Record<string, string> } | Error;

/** A scripted server: each call takes the next reply; the requests are kept for assertions. */
function scripted(replies: Reply[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), init: init ?? {} });
    const r = replies.shift();
    if (!r) throw new Error('no more scripted replies');
    if (r instanceof Error) throw r;
    return new Response(r.status === 204 || r.status === 304 ? null : (r.body ?? ''), { status: r.status, headers: r.headers });
  }) as unknown as typeof fetch;
  return { fetchImpl, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });

function transport(replies: Reply[], extra: Partial<ConstructorParameters<typeof Transport>[0]> = {}) {
  const s = scripted(replies);
  const sleeps: number[] = [];
  const t = new Transport({
    baseUrl: 'https://cms.example.com/api/v1',
    fetch: s.fetchImpl,
    sleep: async (ms) => void sleeps.push(ms),
    ...extra,
  });
  return { t, sleeps, ...s };
}

describe('Transport', () => {
  test('unwraps {data, meta}, keeps the ETag, sends the environment header and the query', async () => {
    const { t, seen } = transport([json(200, { data: [1, 2], meta: { total: 2, page: 1, per_page: 20 } }, { etag: '"abc"' })], {
      environment: 'staging.example.com',
    });
    const r = await t.call<number[]>({ path: '/pages', query: { page: 1, q: 'a b', skip: undefined } });
    expect(r).toMatchObject({ data: [1, 2], meta: { total: 2 }, etag: '"abc"', notModified: false });
    expect(seen[0]!.url).toBe('https://cms.example.com/api/v1/pages?page=1&q=a+b');
    // under both names: the real service reads X-Grav-Environment, the documents name X-Cms-Environment
    expect((seen[0]!.init.headers as Record<string, string>)['X-Grav-Environment']).toBe('staging.example.com');
    expect((seen[0]!.init.headers as Record<string, string>)['X-Cms-Environment']).toBe('staging.example.com');
  });

  test('304 answers a conditional read; If-Match is sent on writes', async () => {
    const { t, seen } = transport([{ status: 304 }, json(200, { data: {} })]);
    expect((await t.call({ path: '/pages/blog', ifNoneMatch: '"e1"' })).notModified).toBe(true);
    await t.call({ method: 'PATCH', path: '/pages/blog', body: { title: 'x' }, ifMatch: '"e1"' });
    expect((seen[0]!.init.headers as Record<string, string>)['If-None-Match']).toBe('"e1"');
    expect((seen[1]!.init.headers as Record<string, string>)['If-Match']).toBe('"e1"');
  });

  test('problem+json becomes an AppError with the detail and the fields', async () => {
    const { t } = transport([
      json(422, { status: 422, title: 'Unprocessable', detail: 'Validation failed', errors: [{ field: 'title', message: 'Required.' }] }, { 'content-type': 'application/problem+json' }),
    ]);
    await expect(t.call({ method: 'POST', path: '/pages', body: {} })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'Validation failed',
      info: { status: 422, fields: { title: 'Required.' } },
    });
  });

  test('a 2xx HTML page or garbage is a bad_response, never data', async () => {
    const html = transport([{ status: 200, body: '<!doctype html><h1>Hi', headers: { 'content-type': 'text/html' } }]);
    await expect(html.t.call({ path: '/me' })).rejects.toMatchObject({ code: 'bad_response', message: expect.stringContaining('web page') });
    const junk = transport([{ status: 200, body: '\u0000\u0001garbage', headers: { 'content-type': 'application/json' } }]);
    await expect(junk.t.call({ path: '/me' })).rejects.toMatchObject({ code: 'bad_response' });
    const unwrapped = transport([json(200, { username: 'x' })]);
    await expect(unwrapped.t.call({ path: '/me' })).rejects.toMatchObject({ code: 'bad_response', message: expect.stringContaining('{"data": …}') });
  });

  test('idempotent calls retry network failures and 5xx with backoff; POST never repeats', async () => {
    const get = transport([refused(), json(503, { title: 'down' }), json(200, { data: 'ok' })]);
    expect((await get.t.call({ path: '/ping' })).data).toBe('ok');
    expect(get.sleeps).toEqual([250, 1000]);

    const post = transport([refused()]);
    await expect(post.t.call({ method: 'POST', path: '/pages', body: {} })).rejects.toMatchObject({ code: 'network' });
    expect(post.fetchImpl).toHaveBeenCalledTimes(1);
  });

  test('a short Retry-After is waited out, on a POST too (a 429 is refused before anything is done) but not on a sign-in; a long one reaches the caller with its seconds', async () => {
    const short = transport([json(429, { title: 'slow down' }, { 'retry-after': '2' }), json(200, { data: 1 })]);
    expect((await short.t.call({ path: '/pages' })).data).toBe(1);
    expect(short.sleeps).toEqual([2000]);

    const long = transport([json(429, { title: 'slow down' }, { 'retry-after': '120' })]);
    await expect(long.t.call({ path: '/pages' })).rejects.toMatchObject({ code: 'rate_limited', info: { retryAfter: 120 } });

    const post = transport([json(429, { title: 'slow down' }, { 'retry-after': '1' }), json(200, { data: 2 })]);
    expect((await post.t.call({ method: 'POST', path: '/pages', body: {} })).data).toBe(2);
    expect(post.sleeps).toEqual([1000]);
    // a sign-in's 429 is the guard against guessing: the person sees it, nothing goes again on its own
    const signIn = transport([json(429, { title: 'slow down' }, { 'retry-after': '1' })]);
    await expect(signIn.t.call({ method: 'POST', path: '/auth/token', body: {}, auth: false })).rejects.toMatchObject({ code: 'rate_limited', info: { retryAfter: 1 } });
    expect(signIn.sleeps).toEqual([]);
    const longPost = transport([json(429, { title: 'slow down' }, { 'retry-after': '120' })]);
    await expect(longPost.t.call({ method: 'POST', path: '/auth/token', body: {}, auth: false })).rejects.toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^cms\.example\.com is rate-limiting requests \(it says: slow down\)\. Try again in 120 s\.$/),
      info: { retryAfter: 120 },
    });
  });

  test('a 429 without Retry-After (Grav): the wait comes from X-RateLimit-*, never a made-up minute', async () => {
    const now = Date.now();
    const grav = (limit: number, resetIn: number) => ({
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor(now / 1000) + resetIn),
      date: new Date(now).toUTCString(),
    });
    // 120 a minute: a token is back within a second; waited out, then answered
    const short = transport([json(429, { title: 'Too Many Requests' }, grav(120, 60)), json(200, { data: 1 })]);
    expect((await short.t.call({ path: '/pages' })).data).toBe(1);
    expect(short.sleeps).toEqual([1000]);
    // 1 every 30 s: too long for a person; the caller hears the real 30 s
    const long = transport([json(429, { title: 'Too Many Requests', detail: 'Rate limit exceeded. Try again later.' }, grav(1, 30))]);
    await expect(long.t.call({ path: '/pages' })).rejects.toMatchObject({ code: 'rate_limited', info: { retryAfter: 30 }, message: expect.stringContaining('30 s') });
    // nothing said at all: a second between tries, then the 429 without a number of seconds
    const blind = transport([json(429, {}), json(429, {}), json(429, {}), json(429, {})]);
    const err = await blind.t.call({ path: '/pages' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'rate_limited' });
    expect((err as { info: { retryAfter?: number } }).info.retryAfter).toBeUndefined();
    expect((err as Error).message).not.toMatch(/\d+ s/);
    expect(blind.sleeps).toEqual([1000, 1000, 1000]);
  });

  test('with a pacer: background calls ride out a 429 by the headers; a waiting call can be given up', async () => {
    const now = Date.now();
    const limited = { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(now / 1000) + 1), date: new Date(now).toUTCString() };
    const pacer = new Pacer();
    const { t, sleeps, fetchImpl } = transport([json(429, {}, limited), json(200, { data: 'ok' }, { ...limited, 'x-ratelimit-remaining': '0' })], { pacer, priority: 'background' });
    const started = Date.now();
    expect((await t.call({ path: '/pages' })).data).toBe('ok');
    expect(sleeps).toEqual([]); // the pacer held the retry, by the Reset
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    // the bucket is empty again: a cancelled run's call gives up while it waits, nothing is sent
    const ac = new AbortController();
    const waiting = t.derive({ signal: ac.signal }).call({ path: '/pages/x' });
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(PaceCancelled);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  test('a 401 asks the credentials to refresh once, then retries with the new header', async () => {
    let token = 'old';
    const creds: CredentialSource = {
      headers: async () => ({ 'X-API-Token': token }),
      unauthorized: vi.fn(async () => ((token = 'new'), true)),
    };
    const { t, seen } = transport([json(401, { title: 'expired' }), json(200, { data: 'me' })], { credentials: creds });
    expect((await t.call({ path: '/me' })).data).toBe('me');
    expect(creds.unauthorized).toHaveBeenCalledWith({ 'X-API-Token': 'old' });
    expect((seen[1]!.init.headers as Record<string, string>)['X-API-Token']).toBe('new');

    const again = transport([json(401, {}), json(401, { detail: 'Token revoked' })], { credentials: creds });
    await expect(again.t.call({ path: '/me' })).rejects.toMatchObject({ code: 'unauthorized', message: 'Token revoked' });
  });

  test('public calls carry no credentials', async () => {
    const creds: CredentialSource = { headers: vi.fn(async () => ({ 'X-API-Token': 't' })), unauthorized: async () => false };
    const { t, seen } = transport([json(200, { data: { setup_required: false } })], { credentials: creds });
    await t.call({ path: '/auth/setup', auth: false });
    expect(creds.headers).not.toHaveBeenCalled();
    expect((seen[0]!.init.headers as Record<string, string>)['X-API-Token']).toBeUndefined();
  });
});

describe('Retry-After', () => {
  test('seconds or an HTTP date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});
