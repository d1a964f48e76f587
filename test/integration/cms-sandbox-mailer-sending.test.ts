/**
 * The mailer's campaign sending over real HTTP, spec flavour (document 2 "Campaigns";
 * docs/mailer-campaigns.md, "Sending" and the routes after it): a started campaign mails its
 * audience on the sandbox's clock into the outbox, pause halts it and resume goes on without
 * anyone mailed twice, it finishes (→ sent) or the sender stops it at the bounce limit (→
 * stopped); its sends page by page, links, timeline, preview, a test copy, catch-up and retry,
 * with their refusals and permissions. The real flavour still has no campaign routes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount, pageOf } from '../support/mailer';

const BODY = '# Events\n\nSee [the programme](https://site.example/events) and [tickets](https://site.example/tickets).';
const READY = { subject: 'This season', body_md: BODY, list_ids: [3] };

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.origin}/__sandbox/mailer${path}`, { method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return (await res.json()) as Json;
  };
  const make = async (body: Json = {}) => data(await api.post('/mailer/campaigns', { name: 'Sending', ...READY, ...body }), 201);
  const go = (id: number, what: string, body: Json = {}) => api.post(`/mailer/campaigns/${id}/${what}`, body);
  const read = async (id: number) => data(await api.get(`/mailer/campaigns/${id}`));
  const outbox = async (id: number, kind = 'campaign') => (await control('GET', `/messages?campaign_id=${id}&kind=${kind}&limit=100000`)).data as Json[];
  const allSends = async (id: number) => {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const rows = data(await api.get(`/mailer/campaigns/${id}/sends?per_page=200&page=${page}`));
      out.push(...rows);
      if (rows.length < 200) return out;
    }
  };
  const sendNow = async (body: Json = {}) => {
    const c = await make(body);
    data(await go(c.id, 'start'));
    sb.clock.advance(3_600_000);
    const done = await read(c.id);
    expect(done.status).toBe('sent');
    return done;
  };

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 2000 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('sending on the clock: the rate, pause halts, resume goes on from where it was, finish → sent; nobody mailed twice', async () => {
    const audience = data(await api.get('/mailer/campaigns/audience?lists=3')).count;
    expect(audience).toBeGreaterThan(200);
    const c = await make();
    const t0 = performance.now();
    const started = data(await go(c.id, 'start'));
    expect(started.counters.sent).toBe(0);
    sb.clock.advance(2000);
    const two = await read(c.id);
    // 50 a second of the clock: the 2 s moved, plus what real time ran between the start and the
    // read (the clock runs on; a loaded machine makes that long), plus up to a second the start's
    // mark is floored to
    const ranMs = performance.now() - t0;
    expect(two.counters.sent).toBeGreaterThanOrEqual(100);
    expect(two.counters.sent).toBeLessThanOrEqual(Math.floor((50 * (2000 + ranMs + 1000)) / 1000));
    const paused = data(await go(c.id, 'pause'));
    sb.clock.advance(600_000);
    const still = await read(c.id);
    expect(still).toMatchObject({ status: 'paused', counters: { sent: paused.counters.sent } });
    data(await go(c.id, 'resume'));
    sb.clock.advance(3_600_000);
    const done = await read(c.id);
    expect(done).toMatchObject({ status: 'sent', next_moves: [], counters: { sent: audience } });
    expect(done.sent_at).toBeGreaterThan(done.started_at);
    const c2 = done.counters;
    expect(c2.delivered + c2.bounced + c2.failed).toBe(audience);
    expect(c2.bounced).toBeGreaterThan(0);
    expect(c2.failed).toBeGreaterThan(0);
    expect(done.rates.bounce).toBeCloseTo(c2.bounced / c2.sent, 4);
    // the outbox: one message per send that the provider took, nobody twice
    const messages = await outbox(c.id);
    expect(messages).toHaveLength(audience - c2.failed);
    expect(new Set(messages.map((m) => m.subscriber_id)).size).toBe(messages.length);
    expect(messages[0]).toMatchObject({ kind: 'campaign', subject: 'This season', campaign_id: c.id });
    const sends = await allSends(c.id);
    expect(new Set(sends.map((s) => s.subscriber_id)).size).toBe(audience);
  });

  test('the bounce limit: the sender stops the campaign (→ stopped) and says why; resume and cancel are left', async () => {
    await control('POST', '', { bouncePercent: 40, stopBouncePercent: 10 });
    try {
      const c = await make();
      data(await go(c.id, 'start'));
      sb.clock.advance(600_000);
      const stopped = await read(c.id);
      expect(stopped).toMatchObject({ status: 'stopped', next_moves: ['resume', 'cancel'], stopped: { reason: 'bounce_limit', detail: expect.stringMatching(/bounced.*resume or cancel/) } });
      expect(stopped.counters.sent).toBe(50);
      expect(stopped.rates.bounce).toBeGreaterThan(0.1);
      expect(stopped.stopped.at).toBeGreaterThanOrEqual(stopped.started_at);
      sb.clock.advance(600_000);
      expect((await read(c.id)).counters.sent).toBe(50);
      expect(data(await go(c.id, 'cancel')).status).toBe('canceled');
    } finally {
      await control('POST', '', { bouncePercent: 2, stopBouncePercent: 10 });
    }
  });

  test('sends: in the order mailed, ≤ 200 a page, filtered by outcome, with status counts; addresses as the subscribers table shows them', async () => {
    const done = await sendNow();
    const r = await api.get(`/mailer/campaigns/${done.id}/sends?per_page=500`);
    expect(pageOf(r)).toMatchObject({ per_page: 200, total: done.counters.sent });
    const rows = data(r);
    expect(rows).toHaveLength(Math.min(200, done.counters.sent));
    expect(rows.map((s: Json) => s.id)).toEqual([...rows.map((s: Json) => s.id)].sort((a, b) => a - b));
    const first = rows[0];
    expect(Object.keys(first).sort()).toEqual(['attempts', 'clicked_at', 'email', 'error', 'id', 'name', 'opened_at', 'sent_at', 'status', 'subscriber_id', 'variant']);
    // no subject test: no variant
    expect(rows.every((s: Json) => s.variant === null)).toBe(true);
    const person = data(await api.get(`/mailer/subscribers/${first.subscriber_id}`));
    expect(first.email).toBe(person.email);
    const counts = r.body.meta.status_counts;
    expect(Object.keys(counts)).toEqual(['delivered', 'opened', 'clicked', 'bounced', 'failed']);
    const failed = await api.get(`/mailer/campaigns/${done.id}/sends?status=failed`);
    expect(pageOf(failed).total).toBe(counts.failed);
    expect(data(failed).every((s: Json) => s.status === 'failed' && s.error && s.attempts === 1)).toBe(true);
    expectCode(await api.get(`/mailer/campaigns/${done.id}/sends?status=lost`), 422, 'filter_invalid');
    expectCode(await api.get('/mailer/campaigns/999/sends'), 404, 'not_found');
    // a seeded sent campaign's sends have ids too
    expect(data(await api.get('/mailer/campaigns/1/sends?per_page=1'))[0].id).toEqual(expect.any(Number));
  });

  test('links and timeline: the body’s links with clicks as readers click; 48 hours by hour from the start', async () => {
    const done = await sendNow();
    const before = await api.get(`/mailer/campaigns/${done.id}/links`);
    expect(data(before).map((l: Json) => l.url).sort()).toEqual(['https://site.example/events', 'https://site.example/tickets']);
    expect(data(before).every((l: Json) => l.in_body)).toBe(true);
    sb.clock.advance(2 * 86_400_000);
    const after = await api.get(`/mailer/campaigns/${done.id}/links`);
    const links = data(after);
    const total = links.reduce((n: number, l: Json) => n + l.clicks, 0);
    expect(total).toBeGreaterThan(0);
    expect(after.body.meta.total_clicks).toBe(total);
    expect(links[0].clicks).toBeGreaterThanOrEqual(links[1].clicks);
    const record = await read(done.id);
    expect(after.body.meta.unique_clickers).toBe(record.counters.clicked);
    const t = data(await api.get(`/mailer/campaigns/${done.id}/timeline`));
    expect(t.started_at).toBe(record.started_at);
    expect(t.hours).toHaveLength(48);
    expect(t.hours[0]).toMatchObject({ hour: 0, from: t.started_at });
    expect(t.hours[1].from - t.hours[0].from).toBe(3600);
    const sum = (k: string) => t.hours.reduce((n: number, h: Json) => n + h[k], 0);
    expect(sum('sent')).toBe(record.counters.sent);
    expect(sum('opened')).toBe(record.counters.opened);
    expect(sum('clicked')).toBe(record.counters.clicked);
    // the seed's sent campaign: clicked addresses, its first send's time as the start
    expect(data(await api.get('/mailer/campaigns/1/links')).length).toBe(3);
    expect(data(await api.get('/mailer/campaigns/1/timeline')).hours).toHaveLength(48);
    // a draft: nothing yet
    expect(data(await api.get(`/mailer/campaigns/${(await make()).id}/timeline`))).toEqual({ started_at: null, hours: [] });
  });

  test('preview: the saved content rendered (GET), unsaved content (POST) in the store or plain layout; the fields checked', async () => {
    const c = await make({ preheader: 'Dates inside' });
    const saved = data(await api.get(`/mailer/campaigns/${c.id}/preview`));
    expect(saved).toMatchObject({ subject: 'This season', preheader: 'Dates inside', layout: 'store', missing: [], links: ['https://site.example/events', 'https://site.example/tickets'] });
    expect(saved.html).toContain('<h1>Events</h1>');
    expect(saved.html).toContain('<a href="https://site.example/events">the programme</a>');
    expect(saved.html).toContain('Sitedesk Sandbox');
    expect(saved.text).toContain('# Events');
    const plain = data(await api.post(`/mailer/campaigns/${c.id}/preview`, { body_md: '**Unsaved**', layout: 'plain', name: 'ignored' }));
    expect(plain).toMatchObject({ subject: 'This season', layout: 'plain', links: [] });
    expect(plain.html).toContain('<strong>Unsaved</strong>');
    expect(plain.html).not.toContain('Sitedesk Sandbox');
    // nothing was saved
    expect((await read(c.id)).body_md).toBe(BODY);
    expect(data(await api.post(`/mailer/campaigns/${c.id}/preview`, { subject: null, body_md: null })).missing).toEqual(['subject', 'body_md']);
    expectCode(await api.post(`/mailer/campaigns/${c.id}/preview`, { layout: 'fancy' }), 422, 'invalid_field');
    expectCode(await api.get('/mailer/campaigns/999/preview'), 404, 'not_found');
  });

  test('a test copy: into the outbox marked as a test, not counted; the address and the content checked', async () => {
    const c = await make();
    const r = data(await go(c.id, 'test', { email: 'Me@Example.com' }));
    expect(r).toMatchObject({ test: true, subject: '[Test] This season', message_id: expect.any(Number) });
    expect(JSON.stringify(r)).not.toContain('@');
    const copies = await outbox(c.id, 'campaign_test');
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ id: r.message_id, email: 'me@example.com', subject: '[Test] This season' });
    expect(copies[0]!.body_html).toContain('<h1>Events</h1>');
    expect(await read(c.id)).toMatchObject({ status: 'draft', counters: { sent: 0 } });
    expectCode(await go(c.id, 'test', {}), 422, 'invalid_email');
    expectCode(await go(c.id, 'test', { email: 'nope' }), 422, 'invalid_email');
    const bare = data(await api.post('/mailer/campaigns', { name: 'Bare' }), 201);
    expect(expectCode(await go(bare.id, 'test', { email: 'me@example.com' }), 409, 'campaign_not_ready')).toMatchObject({ missing: ['subject', 'body_md'] });
    const suppressed = data(await api.post('/mailer/suppressions', { email: 'gone@example.com', reason: 'manual' }), 201);
    expect(suppressed.hash).toEqual(expect.any(String));
    expect(expectCode(await go(c.id, 'test', { email: 'gone@example.com' }), 409, 'suppressed').detail).toMatch(/another address/);
  });

  test('catch-up: who joined since it was sent and was not mailed — counted, then mailed once; refused before it is sent', async () => {
    // the seed's Autumn news went to the newsletter 20 days ago: newer members never had it
    const seeded = data(await api.get('/mailer/campaigns/4/catch-up'));
    expect(seeded).toMatchObject({ list_ids: [1], segment_id: null, can_send: true });
    expect(seeded.count).toBeGreaterThan(0);
    const done = await sendNow({ list_ids: [2] });
    expect(data(await api.get(`/mailer/campaigns/${done.id}/catch-up`)).count).toBe(0);
    for (const email of ['late1@example.com', 'late2@example.com']) await control('POST', '/act', { action: 'signup', email, list_id: 2 });
    expect(data(await api.get(`/mailer/campaigns/${done.id}/catch-up`)).count).toBe(2);
    const sent = data(await go(done.id, 'catch-up'));
    expect(sent).toMatchObject({ sent: 2, campaign: { status: 'sent', counters: { sent: done.counters.sent + 2 } } });
    expect(sent.delivered + sent.bounced + sent.failed).toBe(2);
    expect(data(await api.get(`/mailer/campaigns/${done.id}/catch-up`)).count).toBe(0);
    expect(data(await go(done.id, 'catch-up')).sent).toBe(0);
    const messages = await outbox(done.id);
    expect(new Set(messages.map((m) => m.subscriber_id)).size).toBe(messages.length);
    // before it is sent
    const sending = await make();
    data(await go(sending.id, 'start'));
    expect(data(await api.get(`/mailer/campaigns/${sending.id}/catch-up`))).toMatchObject({ count: 0, can_send: false });
    expect(expectCode(await go(sending.id, 'catch-up'), 409, 'campaign_state')).toMatchObject({ campaign_status: 'sending', detail: expect.stringMatching(/still sending/) });
    data(await go(sending.id, 'cancel'));
    expectCode(await api.get(`/mailer/campaigns/${sending.id}/catch-up`), 409, 'campaign_state');
    expect(expectCode(await api.get(`/mailer/campaigns/${(await make()).id}/catch-up`), 409, 'campaign_state').detail).toMatch(/not gone out yet/);
  });

  test('retry-failed: one by send_id or all; what cannot be retried refused with what to do', async () => {
    const done = await sendNow();
    const failed = data(await api.get(`/mailer/campaigns/${done.id}/sends?status=failed&per_page=200`));
    expect(failed.length).toBeGreaterThan(1);
    const one = data(await go(done.id, 'retry-failed', { send_id: failed[0].id }));
    expect(one).toMatchObject({ retried: 1, sent: 1, skipped: 0 });
    const again = (await allSends(done.id)).find((s) => s.id === failed[0].id)!;
    expect(again.attempts).toBe(2);
    if (again.status !== 'failed') {
      expect(expectCode(await go(done.id, 'retry-failed', { send_id: again.id }), 409, 'send_not_failed')).toMatchObject({ send_status: again.status });
    }
    const delivered = data(await api.get(`/mailer/campaigns/${done.id}/sends?status=delivered&per_page=1`))[0];
    expectCode(await go(done.id, 'retry-failed', { send_id: delivered.id }), 409, 'send_not_failed');
    expectCode(await go(done.id, 'retry-failed', { send_id: 99_999_999 }), 404, 'not_found');
    expectCode(await go(done.id, 'retry-failed', { send_id: 'x' }), 422, 'invalid_field');
    const all = data(await go(done.id, 'retry-failed'));
    expect(all.retried).toBe(failed.length - (again.status === 'failed' ? 0 : 1));
    expect(all.campaign.counters.failed).toBeLessThan(done.counters.failed);
    expect(all.campaign.counters.sent).toBe(done.counters.sent);
    // nobody mailed twice: a failed attempt left no message
    const messages = await outbox(done.id);
    expect(new Set(messages.map((m) => m.subscriber_id)).size).toBe(messages.length);
    expect(messages).toHaveLength(done.counters.sent - all.campaign.counters.failed);
    // paused: resume first
    const p = await make();
    data(await go(p.id, 'start'));
    data(await go(p.id, 'pause'));
    expect(expectCode(await go(p.id, 'retry-failed'), 409, 'campaign_state').detail).toMatch(/paused: resume it first/);
    expectCode(await go(999, 'retry-failed'), 404);
  });

  test('permissions: view reads the reports and previews, manage previews unsaved content, send as well to mail', async () => {
    const viewer = await mailerAccount(api, 'send-viewer', ['view']);
    const manager = await mailerAccount(api, 'send-manager', ['view', 'manage']);
    const sender = await mailerAccount(api, 'send-sender', ['view', 'send']);
    const both = await mailerAccount(api, 'send-both', ['view', 'manage', 'send']);
    const c = await make();
    for (const path of ['sends', 'links', 'timeline', 'preview']) data(await viewer.get(`/mailer/campaigns/${c.id}/${path}`));
    data(await viewer.get('/mailer/campaigns/4/catch-up'));
    expectCode(await viewer.post(`/mailer/campaigns/${c.id}/preview`, { body_md: 'x' }), 403);
    data(await manager.post(`/mailer/campaigns/${c.id}/preview`, { body_md: 'x' }));
    for (const who of [viewer, manager, sender]) {
      expectCode(await who.post(`/mailer/campaigns/${c.id}/test`, { email: 'me@example.com' }), 403);
      expectCode(await who.post('/mailer/campaigns/4/catch-up'), 403);
      expectCode(await who.post('/mailer/campaigns/4/retry-failed'), 403);
    }
    data(await both.post(`/mailer/campaigns/${c.id}/test`, { email: 'me@example.com' }));
    data(await both.post('/mailer/campaigns/4/retry-failed'));
    expect((await api.as({ none: true }).get(`/mailer/campaigns/${c.id}/sends`)).status).toBe(401);
  });
});

describe('real flavour', () => {
  let sb: CmsSandbox;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 200 } });
  });
  afterAll(() => sb?.close());

  test('no campaign sending routes: 404 as before', async () => {
    const api = new SandboxClient(sb);
    for (const path of ['sends', 'links', 'timeline', 'preview', 'catch-up']) expect((await api.get(`/mailroom/campaigns/1/${path}`)).status).toBe(404);
    for (const path of ['test', 'catch-up', 'retry-failed', 'preview']) expect((await api.post(`/mailroom/campaigns/1/${path}`, {})).status).toBe(404);
  });
});
