/**
 * The mailer's campaigns over real HTTP, spec flavour (document 2 "Campaigns"; docs/mailer-campaigns.md):
 * the table newest first with status counts and paging; create (a draft), the audience before it,
 * one record with its next moves; PATCH and DELETE only where the state table allows; start now
 * or at a time, pause, resume, cancel, with the refusals' bodies; `mailer.send` needed to start
 * and resume; a scheduled campaign starting when the sandbox's clock passes its time. The real
 * flavour has no campaign routes yet and still answers 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount, pageOf } from '../support/mailer';

const READY = { subject: 'Hello', body_md: '# Hi\n\nNews.', list_ids: [1] };

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  const now = () => Math.floor(sb.clock.now() / 1000);
  // the clock runs on between the answer and the check: a second's boundary may fall between
  const near = (v: number) => expect(Math.abs(v - now())).toBeLessThanOrEqual(1);
  const make = async (body: Json = {}) => data(await api.post('/mailer/campaigns', { name: 'Test', ...READY, ...body }), 201);
  const go = (id: number, what: string, body: Json = {}) => api.post(`/mailer/campaigns/${id}/${what}`, body);

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 2000 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('the table: newest first, status counts over the whole table, paging at most 200, a status filter', async () => {
    const r = await api.get('/mailer/campaigns');
    const rows = data(r);
    expect(rows.map((c: Json) => c.name)).toEqual(['Winter preview', 'VIP evening', 'Autumn news', 'Summer events', 'Product update 3.2', 'Spring news']);
    expect(r.body.meta.status_counts).toEqual({ draft: 1, scheduled: 1, sending: 0, paused: 0, stopped: 0, canceled: 0, sent: 4 });
    expect(pageOf(r)).toMatchObject({ page: 1, total: 6 });
    expect(pageOf(await api.get('/mailer/campaigns?per_page=500')).per_page).toBe(200);
    const two = await api.get('/mailer/campaigns?per_page=2&page=2');
    expect(data(two).map((c: Json) => c.name)).toEqual(['Autumn news', 'Summer events']);
    const sent = await api.get('/mailer/campaigns?status=sent');
    expect(data(sent)).toHaveLength(4);
    expect(sent.body.meta.status_counts.draft).toBe(1);
    expectCode(await api.get('/mailer/campaigns?status=lost'), 422, 'filter_invalid');
  });

  test('a sent campaign: counters and rates from its sends, no next moves', async () => {
    const c = data(await api.get('/mailer/campaigns/1'));
    const db = sb.mailer.store.db;
    const n = (db.prepare('SELECT count(*) AS n FROM sends WHERE campaign_id = 1').get() as { n: number }).n;
    expect(c).toMatchObject({ id: 1, status: 'sent', next_moves: [], counters: { sent: n } });
    expect(c.counters.opened).toBeGreaterThan(0);
    expect(c.rates.open).toBeGreaterThan(0);
    expect(c.rates.open).toBeLessThanOrEqual(1);
    expectCode(await api.get('/mailer/campaigns/999'), 404, 'not_found');
    expectCode(await api.get('/mailer/campaigns/abc'), 404, 'not_found');
  });

  test('create: a draft with its fields and defaults (201, Location); the fields checked', async () => {
    const r = await api.post('/mailer/campaigns', { name: ' June ', subject: 'Hi', list_id: 2, utm: { source: 'news' }, ab_sample_percent: 20, subject_b: 'Hey' });
    const c = data(r, 201);
    expect(r.headers.get('location')).toMatch(new RegExp(`/mailer/campaigns/${c.id}$`));
    expect(c).toMatchObject({ name: 'June', status: 'draft', subject: 'Hi', list_ids: [2], segment_id: null, layout: 'store', track_opens: true, utm: { source: 'news' }, missing: ['body_md'], next_moves: ['edit', 'delete', 'start', 'schedule'], scheduled_at: null });
    expect(c.subject_test).toMatchObject({ subject_b: 'Hey', sample_percent: 20 });
    near(c.created_at);
    expectCode(await api.post('/mailer/campaigns', {}), 422, 'invalid_field');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', list_ids: [99] }), 422, 'unknown_list');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', segment_id: 99 }), 422, 'unknown_segment');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', ab_sample_percent: 60 }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', layout: 'fancy' }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', from_email: 'nope' }), 422, 'invalid_email');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', status: 'sent' }), 422, 'field_read_only');
    // an id that names no template (templates.ts; the seed's are 1–4)
    expectCode(await api.post('/mailer/campaigns', { name: 'x', template_id: 999 }), 422, 'unknown_template');
  });

  test('the audience before creation: subscribed and not suppressed on the lists, matching the segment', async () => {
    const db = sb.mailer.store.db;
    const on1 = (db.prepare("SELECT count(*) AS n FROM subscribers s WHERE s.status = 'subscribed' AND s.suppressed = 0 AND EXISTS (SELECT 1 FROM memberships m WHERE m.subscriber_id = s.id AND m.list_id IN (1, 2) AND m.status = 'subscribed')").get() as { n: number }).n;
    expect(data(await api.get('/mailer/campaigns/audience?lists=1,2'))).toMatchObject({ lists: [1, 2], segment_id: null, count: on1 });
    const all = data(await api.get('/mailer/campaigns/audience')).count;
    expect(all).toBeGreaterThanOrEqual(on1);
    const seg = data(await api.get('/mailer/campaigns/audience?lists=1&segment=1'));
    expect(seg.count).toBeLessThanOrEqual(on1);
    expectCode(await api.get('/mailer/campaigns/audience?lists=1,x'), 422, 'filter_invalid');
    expectCode(await api.get('/mailer/campaigns/audience?lists=77'), 422, 'unknown_list');
    expectCode(await api.get('/mailer/campaigns/audience?segment=77'), 422, 'unknown_segment');
  });

  test('PATCH: a draft and a scheduled campaign; any other state refused with why and what it can do', async () => {
    const c = await make();
    expect(data(await api.patch(`/mailer/campaigns/${c.id}`, { subject: 'Changed', track_clicks: false }))).toMatchObject({ subject: 'Changed', track_clicks: false, body_md: READY.body_md });
    expectCode(await api.patch(`/mailer/campaigns/${c.id}`, { template_id: 1 }), 422, 'field_read_only');
    expectCode(await api.patch(`/mailer/campaigns/${c.id}`, { scheduled_at: now() + 60 }), 422, 'field_read_only');
    data(await go(c.id, 'start', { scheduled_at: now() + 3600 }));
    expect(data(await api.patch(`/mailer/campaigns/${c.id}`, { name: 'Still editable' }))).toMatchObject({ name: 'Still editable', status: 'scheduled' });
    const sent = expectCode(await api.patch('/mailer/campaigns/1', { subject: 'x' }), 409, 'campaign_state');
    expect(sent).toMatchObject({ campaign_status: 'sent', next_moves: [], detail: 'The campaign cannot be edited: it has been sent.' });
    data(await go(c.id, 'start'));
    expect(expectCode(await api.patch(`/mailer/campaigns/${c.id}`, { subject: 'x' }), 409, 'campaign_state')).toMatchObject({ campaign_status: 'sending', next_moves: ['pause', 'cancel'] });
    // a bad field is a 422 whatever the state
    expectCode(await api.patch(`/mailer/campaigns/${c.id}`, { layout: 'x' }), 422);
    expectCode(await api.patch('/mailer/campaigns/999', { subject: 'x' }), 404);
  });

  test('DELETE: a draft or a canceled campaign (204); a scheduled, sending or sent one refused', async () => {
    const d = await make();
    expect((await api.delete(`/mailer/campaigns/${d.id}`)).status).toBe(204);
    expectCode(await api.get(`/mailer/campaigns/${d.id}`), 404);
    const s = await make();
    data(await go(s.id, 'start', { scheduled_at: now() + 3600 }));
    expectCode(await api.delete(`/mailer/campaigns/${s.id}`), 409, 'campaign_state');
    data(await go(s.id, 'start'));
    expectCode(await api.delete(`/mailer/campaigns/${s.id}`), 409, 'campaign_state');
    const canceled = data(await go(s.id, 'cancel'));
    expect(canceled).toMatchObject({ status: 'canceled', next_moves: ['delete'] });
    near(canceled.canceled_at);
    expect((await api.delete(`/mailer/campaigns/${s.id}`)).status).toBe(204);
    expectCode(await api.delete('/mailer/campaigns/1'), 409, 'campaign_state');
  });

  test('start now → sending; start at a time → scheduled; not ready and past times refused', async () => {
    const c = await make();
    const started = data(await go(c.id, 'start'));
    expect(started).toMatchObject({ status: 'sending', next_moves: ['pause', 'cancel'] });
    near(started.started_at);
    expectCode(await go(c.id, 'start'), 409, 'campaign_state');
    const t = await make();
    const at = now() + 600;
    expect(data(await go(t.id, 'start', { scheduled_at: at }))).toMatchObject({ status: 'scheduled', scheduled_at: at, started_at: null });
    // scheduled: another time, or now
    expect(data(await go(t.id, 'start', { scheduled_at: at + 60 })).scheduled_at).toBe(at + 60);
    expect(data(await go(t.id, 'start'))).toMatchObject({ status: 'sending', scheduled_at: null });
    const p = await make();
    expectCode(await go(p.id, 'start', { scheduled_at: now() - 1 }), 422, 'scheduled_at_past');
    expectCode(await go(p.id, 'start', { scheduled_at: 'tomorrow' }), 422, 'invalid_field');
    const bare = data(await api.post('/mailer/campaigns', { name: 'Bare' }), 201);
    expect(expectCode(await go(bare.id, 'start'), 409, 'campaign_not_ready')).toMatchObject({ missing: ['subject', 'body_md', 'list_ids'], campaign_status: 'draft' });
    // a segment alone is an audience (everybody on any list who matches)
    expect(data(await go((await make({ list_ids: [], segment_id: 2 })).id, 'start')).status).toBe('sending');
    expectCode(await go(1, 'start'), 409, 'campaign_state');
    expectCode(await go(999, 'start'), 404);
  });

  test('pause, resume, cancel: sending and scheduled pause; resume sends, or schedules while the time is ahead; cancel is final', async () => {
    const c = await make();
    data(await go(c.id, 'start'));
    const paused = data(await go(c.id, 'pause'));
    expect(paused).toMatchObject({ status: 'paused', next_moves: ['resume', 'cancel'] });
    near(paused.paused_at);
    expectCode(await go(c.id, 'pause'), 409, 'campaign_state');
    expect(data(await go(c.id, 'resume')).status).toBe('sending');
    expectCode(await go(c.id, 'resume'), 409, 'campaign_state');
    const s = await make();
    const later = now() + 3600;
    data(await go(s.id, 'start', { scheduled_at: later }));
    expect(data(await go(s.id, 'pause')).status).toBe('paused');
    expect(data(await go(s.id, 'resume'))).toMatchObject({ status: 'scheduled', scheduled_at: later });
    // stopped (by the sender) resumes too
    sb.mailer.store.prep("UPDATE campaigns SET status = 'stopped' WHERE id = ?").run(c.id);
    expect(data(await go(c.id, 'resume')).status).toBe('sending');
    expect(data(await go(c.id, 'cancel')).status).toBe('canceled');
    for (const what of ['pause', 'resume', 'cancel', 'start']) expectCode(await go(c.id, what), 409, 'campaign_state');
    const d = await make();
    for (const what of ['pause', 'resume', 'cancel']) expect(expectCode(await go(d.id, what), 409, 'campaign_state').detail).toMatch(/it is a draft/);
    for (const what of ['pause', 'resume', 'cancel']) expectCode(await go(1, what), 409, 'campaign_state');
  });

  test('the clock: a scheduled campaign starts sending once the sandbox’s clock passes its time', async () => {
    const c = await make();
    const at = now() + 120;
    data(await go(c.id, 'start', { scheduled_at: at }));
    sb.clock.advance(60_000);
    expect(data(await api.get(`/mailer/campaigns/${c.id}`)).status).toBe('scheduled');
    sb.clock.advance(61_000);
    const due = data(await api.get(`/mailer/campaigns/${c.id}`));
    expect(due.status).toBe('sending');
    near(due.started_at);
    // a paused one does not start on its time; resumed after it, it sends
    const p = await make();
    data(await go(p.id, 'start', { scheduled_at: now() + 60 }));
    data(await go(p.id, 'pause'));
    sb.clock.advance(120_000);
    expect(data(await api.get(`/mailer/campaigns/${p.id}`)).status).toBe('paused');
    expect(data(await go(p.id, 'resume')).status).toBe('sending');
  });

  test('a segment a draft or scheduled campaign uses cannot be deleted; once it is canceled, it can', async () => {
    const seg = data(await api.post('/mailer/segments', { name: 'For a campaign', definition: { all: [{ field: 'status', op: 'is', value: 'subscribed' }] } }), 201);
    const c = await make({ segment_id: seg.id });
    expectCode(await api.delete(`/mailer/segments/${seg.id}`), 409, 'segment_in_use');
    data(await go(c.id, 'start', { scheduled_at: now() + 3600 }));
    expectCode(await api.delete(`/mailer/segments/${seg.id}`), 409, 'segment_in_use');
    data(await go(c.id, 'cancel'));
    expect((await api.delete(`/mailer/segments/${seg.id}`)).status).toBe(204);
  });

  test('permissions: view reads, manage writes, send as well to start and resume', async () => {
    const viewer = await mailerAccount(api, 'camp-viewer', ['view']);
    const manager = await mailerAccount(api, 'camp-manager', ['view', 'manage']);
    const sender = await mailerAccount(api, 'camp-sender', ['view', 'send']);
    const both = await mailerAccount(api, 'camp-both', ['view', 'manage', 'send']);
    data(await viewer.get('/mailer/campaigns'));
    data(await viewer.get('/mailer/campaigns/1'));
    data(await viewer.get('/mailer/campaigns/audience?lists=1'));
    expectCode(await viewer.post('/mailer/campaigns', { name: 'x' }), 403);
    const c = data(await manager.post('/mailer/campaigns', { name: 'M', ...READY }), 201);
    data(await manager.patch(`/mailer/campaigns/${c.id}`, { subject: 'M2' }));
    expectCode(await viewer.patch(`/mailer/campaigns/${c.id}`, { subject: 'x' }), 403);
    expectCode(await manager.post(`/mailer/campaigns/${c.id}/start`), 403);
    expectCode(await sender.post(`/mailer/campaigns/${c.id}/start`), 403);
    data(await both.post(`/mailer/campaigns/${c.id}/start`));
    data(await manager.post(`/mailer/campaigns/${c.id}/pause`));
    expectCode(await manager.post(`/mailer/campaigns/${c.id}/resume`), 403);
    data(await both.post(`/mailer/campaigns/${c.id}/resume`));
    expectCode(await viewer.post(`/mailer/campaigns/${c.id}/cancel`), 403);
    data(await manager.post(`/mailer/campaigns/${c.id}/cancel`));
    expectCode(await viewer.delete(`/mailer/campaigns/${c.id}`), 403);
    expect((await manager.delete(`/mailer/campaigns/${c.id}`)).status).toBe(204);
    expect((await api.as({ none: true }).get('/mailer/campaigns')).status).toBe(401);
  });
});

describe('real flavour', () => {
  let sb: CmsSandbox;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 200 } });
  });
  afterAll(() => sb?.close());

  test('no campaign routes yet: 404 as before', async () => {
    const api = new SandboxClient(sb);
    expect((await api.get('/mailroom/campaigns')).status).toBe(404);
    expect((await api.post('/mailroom/campaigns', { name: 'x' })).status).toBe(404);
  });
});
