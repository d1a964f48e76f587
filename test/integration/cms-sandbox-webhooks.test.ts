/**
 * The CMS sandbox's outgoing webhooks over real HTTP, both flavours: registering, reading (secrets
 * redacted, the ETag; spec: 304 and 412 on a stale If-Match), changing, removing; deliveries that
 * really reach a loopback receiver for mapped API events (a page update), signed with HMAC-SHA256
 * (spec `X-Hub-Signature-256: sha256=…`, real `X-Grav-Signature`), with their records; the test
 * call answering 200, or 502 with the delivery when the receiver fails; the permission gates.
 * The real flavour refuses loopback targets as the real service does (recording 77) unless
 * `webhookPrivateTargets` lets the tests reach their receiver.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, pagePath, pagination, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A receiver on loopback that records what arrives and answers `status`. */
async function receiver(): Promise<{ url: string; got: Received[]; status: number; server: Server }> {
  const state = { url: '', got: [] as Received[], status: 200, server: null as unknown as Server };
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(state.status, { 'Content-Type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((r) => state.server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/hook`;
  return state;
}

const data = (r: Reply, status = 200): Json => {
  expect(r.status, r.text).toBe(status);
  return r.body.data as Json;
};

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  const invalid = real ? 422 : 400;
  let sb: CmsSandbox;
  let api: SandboxClient;
  let reader: SandboxClient;
  let viewer: SandboxClient;
  let anon: SandboxClient;
  let rx: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'single', webhookPrivateTargets: true });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    reader = await api.keyFor('hook-reader', { access: { api: { access: true, webhooks: { read: true } } } });
    anon = api.as({ none: true });
    rx = await receiver();
  });
  afterAll(async () => {
    await sb?.close();
    rx?.server.close();
  });
  beforeEach(() => {
    rx.got.length = 0;
    rx.status = 200;
  });

  test('POST /webhooks: 201 with Location and the full secret once; GET lists it redacted (6 + 4 visible)', async () => {
    const r = await api.post('/webhooks', { url: rx.url, events: ['page.updated'], ...(real ? {} : { secret: 'mysecret-0123456789-abcd' }) });
    const hook = data(r, 201);
    expect(r.headers.get('location')).toBe(`${sb.prefix}/webhooks/${hook.id}`);
    expect(hook).toMatchObject({ id: expect.stringMatching(/^wh_[0-9a-f]{24}$/), url: rx.url, events: ['page.updated'], enabled: true });
    const secret = hook.secret as string;
    if (real) {
      // the real service always makes its own secret
      expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
      expect(hook).toMatchObject({ headers: {}, failure_count: 0, created: expect.any(Number) });
    } else expect(secret).toBe('mysecret-0123456789-abcd');
    const list = data(await api.get('/webhooks')) as Json[];
    const listed = list.find((h) => h.id === hook.id)!;
    expect(listed.secret).toBe(secret.slice(0, 6) + '*'.repeat(secret.length - 10) + secret.slice(-4));
    // default events: all
    const all = data(await api.post('/webhooks', { url: rx.url }), 201);
    expect(all.events).toEqual(['*']);
    expect((await api.delete(`/webhooks/${all.id}`)).status).toBe(204);
    expect((await api.delete(`/webhooks/${hook.id}`)).status).toBe(204);
  });

  test('POST /webhooks refuses no url, a bad url or scheme, an unknown event; real: a loopback target without the knob', async () => {
    expectProblem(await api.post('/webhooks', { events: ['page.updated'] }), invalid);
    expectProblem(await api.post('/webhooks', { url: 'not a url' }), invalid);
    expectProblem(await api.post('/webhooks', { url: 'ftp://example.com/x' }), invalid);
    const bad = expectProblem(await api.post('/webhooks', { url: rx.url, events: ['page.exploded'] }), invalid);
    expect(bad.detail).toContain("Invalid event 'page.exploded'");
    // the core upgrade's name differs
    expect((await api.post('/webhooks', { url: rx.url, events: [real ? 'cms.upgraded' : 'grav.upgraded'] })).status).toBe(invalid);
    const upgrade = data(await api.post('/webhooks', { url: rx.url, events: [real ? 'grav.upgraded' : 'cms.upgraded'] }), 201);
    await api.delete(`/webhooks/${upgrade.id}`);
    sb.webhooks.allowPrivate = false;
    try {
      const r = await api.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['page.updated'] });
      if (real) expect(expectProblem(r, 422).detail).toBe('Webhook URL must not target a private or reserved address: http://127.0.0.1:9/hook');
      else expect(r.status).toBe(201);
      // a name the sandbox cannot resolve counts as unresolvable, as on the recorded site (78)
      const named = await api.post('/webhooks', { url: 'https://hooks.example.com/grav', events: ['page.updated'] });
      expect(named.status).toBe(real ? 422 : 201);
      for (const h of data(await api.get('/webhooks')) as Json[]) if (h.url !== rx.url) await api.delete(`/webhooks/${h.id}`);
    } finally {
      sb.webhooks.allowPrivate = true;
    }
  });

  test('GET /webhooks/{id}: ETag (spec: 304 on If-None-Match); 404', async () => {
    const hook = data(await api.post('/webhooks', { url: rx.url }), 201);
    const r = await api.get(`/webhooks/${hook.id}`);
    expect(data(r).secret).toMatch(/^\w{6}\*+\w{4}$/);
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await api.get(`/webhooks/${hook.id}`, { 'If-None-Match': etag });
    expect(again.status).toBe(real ? 200 : 304);
    expectProblem(await api.get('/webhooks/wh_nope'), 404);
    await api.delete(`/webhooks/${hook.id}`);
  });

  test('PATCH /webhooks/{id}: changes url, events, enabled (revalidated); spec: If-Match 412 when stale, secret changeable; 404', async () => {
    const hook = data(await api.post('/webhooks', { url: rx.url, events: ['page.created'] }), 201);
    const etag = (await api.get(`/webhooks/${hook.id}`)).headers.get('etag')!;
    const patched = data(await api.patch(`/webhooks/${hook.id}`, { events: ['page.updated', 'page.deleted'], enabled: false }, { 'If-Match': etag }));
    expect(patched).toMatchObject({ events: ['page.updated', 'page.deleted'], enabled: false });
    expect(patched.secret).toMatch(/\*/);
    const stale = await api.patch(`/webhooks/${hook.id}`, { enabled: true }, { 'If-Match': etag });
    if (real) expect(stale.status).toBe(200);
    else expectProblem(stale, 412);
    expect(data(await api.patch(`/webhooks/${hook.id}`, { enabled: true })).enabled).toBe(true);
    expectProblem(await api.patch(`/webhooks/${hook.id}`, { events: ['nope'] }), invalid);
    expectProblem(await api.patch(`/webhooks/${hook.id}`, { url: 'mailto:x@example.com' }), invalid);
    const withSecret = await api.patch(`/webhooks/${hook.id}`, { secret: 'another-secret-value-xyz' });
    expect(sb.webhooks.get(hook.id as string)!.secret === 'another-secret-value-xyz').toBe(!real);
    expect(withSecret.status).toBe(200);
    expectProblem(await api.patch('/webhooks/wh_nope', { enabled: false }), 404);
    await api.delete(`/webhooks/${hook.id}`);
  });

  test('a page update delivers a signed POST to the receiver and records the delivery; a disabled hook gets nothing', async () => {
    const hook = data(await api.post('/webhooks', { url: rx.url, events: ['page.updated'] }), 201);
    const secret = hook.secret as string;
    const route = '/about';
    expect((await api.patch(pagePath(route), { title: 'Hooked title' })).status).toBe(200);
    // a page creation is not in this hook's filter
    await sb.webhooks.settled();
    expect(rx.got).toHaveLength(1);
    const got = rx.got[0]!;
    const payload = JSON.parse(got.body) as Json;
    expect(payload).toMatchObject({ event: 'page.updated', webhook_id: hook.id, data: { page: { route } } });
    expect(payload.data.page.title).toBe('Hooked title');
    const sig = createHmac('sha256', secret).update(got.body).digest('hex');
    if (real) {
      expect(got.headers['x-grav-signature']).toBe(sig);
      expect(got.headers['x-grav-event']).toBe('page.updated');
      expect(got.headers['user-agent']).toBe('Grav-Webhook/1.0');
    } else expect(got.headers['x-hub-signature-256']).toBe(`sha256=${sig}`);

    const r = await api.get(`/webhooks/${hook.id}/deliveries`);
    const [d] = data(r) as Json[];
    expect(pagination(r)).toMatchObject({ page: 1, total: 1 });
    expect(d).toMatchObject({ event: 'page.updated', url: rx.url, status_code: 200, success: true, duration_ms: expect.any(Number) });
    if (real) expect(d).toMatchObject({ created: expect.any(Number), request_body: payload, response_body: 'thanks' });
    else expect(new Date(d!.delivered_at as string).toISOString()).toBe(d!.delivered_at);

    await api.patch(`/webhooks/${hook.id}`, { enabled: false });
    await api.patch(pagePath(route), { title: 'Unhooked' });
    await sb.webhooks.settled();
    expect(rx.got).toHaveLength(1);
    await api.delete(`/webhooks/${hook.id}`);
  });

  test('every mapped event reaches a `*` hook (a user created, the configuration changed); a hook for other events gets none of them', async () => {
    const all = data(await api.post('/webhooks', { url: rx.url, events: ['*'] }), 201);
    const other = data(await api.post('/webhooks', { url: rx.url.replace('/hook', '/other'), events: ['media.deleted'] }), 201);
    expect((await api.post('/users', { username: 'hooked', password: 'New-user-pass1', email: 'hooked@example.test' })).status).toBe(201);
    expect((await api.patch('/config/site', { title: 'Hooked site' })).status).toBe(200);
    await sb.webhooks.settled();
    const events = rx.got.map((g) => JSON.parse(g.body) as Json);
    expect(events.map((e) => e.event)).toEqual(['user.created', 'config.updated']);
    expect(events.every((e) => e.webhook_id === all.id)).toBe(true);
    expect(events[1]!.data).toMatchObject({ scope: 'site' });
    expect(sb.webhooks.deliveriesOf(other.id as string)).toEqual([]);
    await api.delete(`/webhooks/${all.id}`);
    await api.delete(`/webhooks/${other.id}`);
  });

  test('POST /webhooks/{id}/test: 200 with the delivery; 502 with it when the receiver fails or is unreachable; 404', async () => {
    const hook = data(await api.post('/webhooks', { url: rx.url }), 201);
    const okd = data(await api.post(`/webhooks/${hook.id}/test`));
    expect(okd).toMatchObject({ event: real ? 'test' : 'webhook.test', success: true, status_code: 200 });
    expect(JSON.parse(rx.got[0]!.body)).toMatchObject({ event: real ? 'test' : 'webhook.test', data: { message: 'This is a test webhook delivery.' } });
    rx.status = 500;
    const failed = await api.post(`/webhooks/${hook.id}/test`);
    expect(data(failed, 502)).toMatchObject({ success: false, status_code: 500 });
    const gone = data(await api.post('/webhooks', { url: 'http://127.0.0.1:9/nothing-listens' }), 201);
    const unreachable = data(await api.post(`/webhooks/${gone.id}/test`), 502);
    expect(unreachable).toMatchObject({ success: false, status_code: 0 });
    if (real) expect(unreachable.error).toMatch(/^Webhook request failed/);
    const log = await api.get(`/webhooks/${hook.id}/deliveries?per_page=1`);
    expect(pagination(log)).toMatchObject({ total: 2, per_page: 1, total_pages: 2 });
    expect((data(log) as Json[])[0]).toMatchObject({ success: false });
    expectProblem(await api.post('/webhooks/wh_nope/test'), 404);
    expectProblem(await api.get('/webhooks/wh_nope/deliveries'), 404);
    await api.delete(`/webhooks/${gone.id}`);
    await api.delete(`/webhooks/${hook.id}`);
  });

  test('DELETE /webhooks/{id}: 204 and its history gone; 404 after', async () => {
    const hook = data(await api.post('/webhooks', { url: rx.url }), 201);
    await api.post(`/webhooks/${hook.id}/test`);
    expect((await api.delete(`/webhooks/${hook.id}`)).status).toBe(204);
    expect(sb.webhooks.deliveriesOf(hook.id as string)).toEqual([]);
    expectProblem(await api.delete(`/webhooks/${hook.id}`), 404);
    expectProblem(await api.get(`/webhooks/${hook.id}/deliveries`), 404);
  });

  test('permissions: reads need api.webhooks.read, writes and test api.webhooks.write; 401 without a credential', async () => {
    const hook = data(await api.post('/webhooks', { url: rx.url }), 201);
    expect((await reader.get('/webhooks')).status).toBe(200);
    expect((await reader.get(`/webhooks/${hook.id}`)).status).toBe(200);
    expect((await reader.get(`/webhooks/${hook.id}/deliveries`)).status).toBe(200);
    expectProblem(await reader.post('/webhooks', { url: rx.url }), 403);
    expectProblem(await reader.patch(`/webhooks/${hook.id}`, { enabled: false }), 403);
    expectProblem(await reader.post(`/webhooks/${hook.id}/test`), 403);
    expectProblem(await reader.delete(`/webhooks/${hook.id}`), 403);
    expectProblem(await viewer.get('/webhooks'), 403);
    expectProblem(await anon.get('/webhooks'), 401);
    expectProblem(await anon.post('/webhooks', { url: rx.url }), 401);
    await api.delete(`/webhooks/${hook.id}`);
  });

  test('hooks and their deliveries are kept in the data folder: a sandbox started on it again has them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-hooks-'));
    try {
      const first = await startCmsSandbox({ flavor, dataDir: dir, content: 'empty', webhookPrivateTargets: true });
      const c1 = new SandboxClient(first);
      const hook = data(await c1.post('/webhooks', { url: rx.url }), 201);
      await c1.post(`/webhooks/${hook.id}/test`);
      await first.close();
      const again = await startCmsSandbox({ flavor, dataDir: dir, webhookPrivateTargets: true });
      try {
        // the folder's accounts are kept, so the admin gets a fresh key
        const c2 = new SandboxClient(again).as({ apiKey: again.apiKeys.create({ username: 'admin', name: 'again' }).api_key });
        expect((data(await c2.get('/webhooks')) as Json[]).map((h) => h.id)).toEqual([hook.id]);
        expect(data(await c2.get(`/webhooks/${hook.id}/deliveries`))).toHaveLength(1);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  if (real) {
    test('real: a hook is disabled after 5 failed deliveries in a row', async () => {
      rx.status = 503;
      const hook = data(await api.post('/webhooks', { url: rx.url }), 201);
      for (let i = 0; i < 5; i++) await api.post(`/webhooks/${hook.id}/test`);
      expect(data(await api.get(`/webhooks/${hook.id}`))).toMatchObject({ enabled: false, failure_count: 5, disabled_reason: 'Auto-disabled after 5 consecutive failures' });
      await api.delete(`/webhooks/${hook.id}`);
    });
  }
});
