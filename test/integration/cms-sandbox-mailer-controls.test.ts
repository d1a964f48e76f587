/**
 * The mailer's test controls under /__sandbox/mailer over real HTTP (test/sandbox/cms/mailer/
 * controls.ts), both flavours, so a sandbox in another process (Playwright's, `npm run sandbox`)
 * can be steered: nothing is made before the first mailer request; the knobs; a fresh seed of any
 * size; the worker run now; the campaign references; what people and the mail provider do; the
 * message log.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { data, mailerPaths, pageOf, uploadCsv, type MailerPaths } from '../support/mailer';

describe.each(flavors)('%s flavour', (flavor) => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.origin}/__sandbox/mailer${path}`, { method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  };

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty', mailer: { subscribers: 400 } });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
  });
  afterAll(() => sb?.close());

  test('nothing is made before the first mailer request; then the seed of the size asked for', async () => {
    const before = await control('GET', '');
    expect(before.body.data).toMatchObject({ opened: false, subscribers: null, seeded: null, importRate: 2000, worker: true, workerEverySeconds: 60, segmentRecountMinutes: 15 });
    expect(pageOf(await api.get(m.p('/subscribers?per_page=1'))).total).toBe(400);
    expect((await control('GET', '')).body.data).toMatchObject({ opened: true, subscribers: 400, seeded: { subscribers: 400, ms: expect.any(Number) } });
  });

  test('knobs: changed as sent, refused when not what they take', async () => {
    expect((await control('POST', '', { importRate: 50, worker: false })).body.data).toMatchObject({ importRate: 50, worker: false });
    expect(sb.mailer.knobs).toMatchObject({ importRate: 50, worker: false });
    expect((await control('POST', '', { importRate: -1 })).status).toBe(400);
    expect((await control('POST', '', { worker: 'yes' })).status).toBe(400);
    await control('POST', '', { importRate: 0, worker: true });
  });

  test('a fresh seed of any size replaces the audience', async () => {
    const r = await control('POST', '/seed', { subscribers: 1200 });
    expect(r.body.data).toEqual({ subscribers: 1200, ms: expect.any(Number) });
    expect(pageOf(await api.get(m.p('/subscribers?per_page=1'))).total).toBe(1200);
    expect(data(await api.get(m.p('/segments'))).every((s: Json) => s.count !== null)).toBe(true);
    expect((await control('POST', '/seed', { subscribers: -3 })).status).toBe(400);
  });

  test('the worker run now: a queued import to the end', async () => {
    await control('POST', '', { importRate: 1 });
    const q = data(await uploadCsv(api, m.p('/imports'), 'now.csv', 'email\nnow.1@example.com\nnow.2@example.com\n', { mapping: '{"email":"email"}' }), 202);
    expect((await control('POST', '/worker')).status).toBe(200);
    expect(data(await api.get(m.p(`/imports/${q.id}`)))).toMatchObject({ status: 'finished', rows_done: 2, counts: { new: 2 } });
    await control('POST', '', { importRate: 0 });
  });

  test('campaign references: made, moved and removed; a segment in use follows them', async () => {
    const c = await control('POST', '/campaigns', { name: 'Control draft', status: 'draft', segment_id: 2 });
    expect(c.status).toBe(201);
    expect(data(await api.get(m.p('/segments/2'))).campaigns).toBe(1);
    expect((await control('PATCH', `/campaigns/${c.body.data.id}`, { status: 'canceled' })).body.data.status).toBe('canceled');
    expect(data(await api.get(m.p('/segments/2'))).campaigns).toBe(0);
    expect((await control('POST', '/campaigns', { name: 'Bad', status: 'lost' })).status).toBe(400);
    expect((await control('POST', '/campaigns', { name: 'Bad', segment_id: 999 })).status).toBe(400);
    expect((await control('DELETE', `/campaigns/${c.body.data.id}`)).status).toBe(204);
    expect((await control('GET', '/campaigns')).body.data.some((x: Json) => x.id === c.body.data.id)).toBe(false);
  });

  test('what people and the provider do: sign up (waiting, a confirmation in the log), confirm, leave, bounce', async () => {
    const up = (await control('POST', '/act', { action: 'signup', email: 'signs.up@example.com', list_id: 1, ip: '198.51.100.9' })).body.data;
    expect(up.status).toBe('pending');
    const messages = (await control('GET', '/messages')).body.data as Json[];
    expect(messages[0]).toMatchObject({ subscriber_id: up.subscriber_id, kind: 'confirmation', subject: expect.stringContaining('Please confirm') });
    expect((await control('POST', '/act', { action: 'confirm', subscriber_id: up.subscriber_id })).body.data.status).toBe('subscribed');
    const person = data(await api.get(m.p(`/subscribers/${up.subscriber_id}`)));
    expect(person).toMatchObject({ source: 'form', consent: { ip: '198.51.100.9' } });
    expect(person.consent_log.map((e: Json) => [e.action, e.by])).toEqual([
      ['confirmed', 'self'],
      ['signed_up', 'self'],
    ]);
    expect((await control('POST', '/act', { action: 'leave', subscriber_id: up.subscriber_id, list_id: 1 })).body.data.status).toBe('unsubscribed');
    expect(data(await api.get(m.p(`/subscribers/${up.subscriber_id}`)))).toMatchObject({ status: 'unsubscribed', consent: { left_by: 'self', left_via: 'link' } });
    expect((await control('POST', '/act', { action: 'bounce', subscriber_id: up.subscriber_id })).body.data.status).toBe('bounced');
    expect(data(await api.get(m.p(`/subscribers/${up.subscriber_id}`)))).toMatchObject({ status: 'bounced', suppressed: true, suppression: { reason: 'hard_bounce' } });
    expect((await control('POST', '/act', { action: 'dance', subscriber_id: up.subscriber_id })).status).toBe(422);
  });
});
