/**
 * The subject test over real HTTP, spec flavour (document 2's `subject_b`, `ab_sample_percent`,
 * `ab_window_minutes`; docs/mailer-campaigns.md, "The subject test"): on the sandbox's moved clock
 * the sample goes out first, split between subject A and B; nothing more during the window, paused
 * or not; at its end the winner is picked by the sample's open rate (ties to A) and the rest gets
 * the winner's subject; nobody is mailed twice. The record says where the test is and why it
 * picked as it did.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount } from '../support/mailer';

const TEST = { subject: 'Subject A', subject_b: 'Subject B', ab_sample_percent: 20, ab_window_minutes: 60 };

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.origin}/__sandbox/mailer${path}`, { method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return (await res.json()) as Json;
  };
  const go = (id: number, what: string, body: Json = {}) => api.post(`/mailer/campaigns/${id}/${what}`, body);
  const read = async (id: number) => data(await api.get(`/mailer/campaigns/${id}`));
  const outbox = async (id: number) => (await control('GET', `/messages?campaign_id=${id}&kind=campaign&limit=100000`)).data as Json[];
  const allSends = async (id: number) => {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const rows = data(await api.get(`/mailer/campaigns/${id}/sends?per_page=200&page=${page}`));
      out.push(...rows);
      if (rows.length < 200) return out;
    }
  };

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 2000 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('the sample, the window (paused through part of it), the winner by open rate, the rest with it; nobody twice', async () => {
    const audience = data(await api.get('/mailer/campaigns/audience?lists=1')).count;
    const c = data(await api.post('/mailer/campaigns', { name: 'Tested', body_md: 'Hello [shop](https://site.example/shop)', list_ids: [1], ...TEST }), 201);
    expect(c.subject_test).toMatchObject({ subject_b: 'Subject B', sample_percent: 20, window_minutes: 60, phase: null, winner: null, winner_picked_at: null });
    data(await go(c.id, 'start'));

    // 20 % of the audience at 50 a second: out within a minute
    sb.clock.advance(60_000);
    const sampled = await read(c.id);
    const size = Math.floor(audience * 0.2 + 0.5);
    const t = sampled.subject_test;
    expect(t).toMatchObject({ phase: 'window', sample_size: size, winner: null, decided_by: null });
    expect(sampled).toMatchObject({ status: 'sending', next_moves: ['pause', 'cancel'], counters: { sent: size } });
    expect(t.window_ends_at).toBe(t.sample_sent_at + 3600);
    expect(t.variants.a.sent + t.variants.b.sent).toBe(size);
    expect(Math.abs(t.variants.a.sent - t.variants.b.sent)).toBeLessThanOrEqual(1);
    expect(t.variants).toMatchObject({ a: { subject: 'Subject A' }, b: { subject: 'Subject B' } });
    const first = await outbox(c.id);
    const subjectOf = new Map(first.map((m) => [m.subscriber_id, m.subject]));
    // one message per sample send the provider took (a failed attempt leaves none), each its variant's subject
    expect(first).toHaveLength(size - sampled.counters.failed);
    expect(first.filter((m) => m.subject === 'Subject B').length).toBeLessThanOrEqual(t.variants.b.sent);
    expect(first.filter((m) => m.subject === 'Subject A').length).toBeLessThanOrEqual(t.variants.a.sent);
    expect(new Set(first.map((m) => m.subject))).toEqual(new Set(['Subject A', 'Subject B']));

    // the rest is still the run's, not catch-up's
    expect(data(await api.get(`/mailer/campaigns/${c.id}/catch-up`))).toMatchObject({ count: 0, can_send: false });

    // paused in the window: nothing goes; resumed still within it: nothing goes until its end
    data(await go(c.id, 'pause'));
    sb.clock.advance(30 * 60_000);
    expect((await read(c.id)).counters.sent).toBe(size);
    data(await go(c.id, 'resume'));
    sb.clock.advance(10 * 60_000);
    const waiting = await read(c.id);
    expect(waiting).toMatchObject({ status: 'sending', counters: { sent: size }, subject_test: { phase: 'window', winner: null } });

    // past the window's end: the pick, made at its end, then the rest with the winner
    sb.clock.advance(25 * 60_000);
    sb.clock.advance(3_600_000);
    const done = await read(c.id);
    const d = done.subject_test;
    expect(done).toMatchObject({ status: 'sent', counters: { sent: audience } });
    expect(d).toMatchObject({ phase: 'rest', winner_picked_at: t.window_ends_at });
    expect(['a', 'b']).toContain(d.winner);
    expect(['open_rate', 'tie']).toContain(d.decided_by);
    const rate = (v: 'a' | 'b') => d.decision[v].opened / d.decision[v].delivered;
    expect(d.winner).toBe(rate('b') > rate('a') ? 'b' : 'a');
    expect(d.decided_by).toBe(rate('a') === rate('b') ? 'tie' : 'open_rate');

    // the decision's figures are the sample's opens up to the window's end, read from the sends
    const sends = await allSends(c.id);
    expect(new Set(sends.map((s) => s.subscriber_id)).size).toBe(audience);
    // a failed sample send left no message to tell its subject by, and counts as delivered on neither side
    const by = (subject: string) => sends.filter((s) => subjectOf.get(s.subscriber_id) === subject);
    const opened = (rows: Json[]) => rows.filter((s) => s.opened_at !== null && s.opened_at <= t.window_ends_at).length;
    const delivered = (rows: Json[]) => rows.filter((s) => s.status !== 'bounced' && s.status !== 'failed').length;
    expect(d.decision.a).toMatchObject({ delivered: delivered(by('Subject A')), opened: opened(by('Subject A')) });
    expect(d.decision.b).toMatchObject({ delivered: delivered(by('Subject B')), opened: opened(by('Subject B')) });

    // each send says which subject it had: the sample's by turns, the rest the winner's
    expect(sends.filter((x) => subjectOf.get(x.subscriber_id) === 'Subject B').every((x) => x.variant === 'b')).toBe(true);
    expect(sends.filter((x) => subjectOf.get(x.subscriber_id) === 'Subject A').every((x) => x.variant === 'a')).toBe(true);
    expect(sends.filter((x) => x.sent_at >= t.window_ends_at).every((x) => x.variant === d.winner)).toBe(true);
    expect(sends.filter((x) => x.variant === 'b').length).toBe(t.variants.b.sent + (d.winner === 'b' ? audience - size : 0));
    const winner = d.winner === 'b' ? 'Subject B' : 'Subject A';
    const all = await outbox(c.id);
    const rest = all.filter((m) => !subjectOf.has(m.subscriber_id));
    expect(rest.length).toBeGreaterThan(audience / 2);
    expect(rest.every((m) => m.subject === winner && m.at >= t.window_ends_at)).toBe(true);
    expect(new Set(all.map((m) => m.subscriber_id)).size).toBe(all.length);
  });

  test('a campaign without subject_b has no test: every reader gets subject A', async () => {
    const c = data(await api.post('/mailer/campaigns', { name: 'Plain', subject: 'Only A', body_md: 'Hi', list_ids: [4], ab_sample_percent: 30 }), 201);
    expect(c.subject_test).toBeNull();
    data(await go(c.id, 'start'));
    sb.clock.advance(3_600_000);
    const done = await read(c.id);
    expect(done.status).toBe('sent');
    expect((await outbox(c.id)).every((m) => m.subject === 'Only A')).toBe(true);
  });

  test('a test copy of either subject: variant b reads subject B; b without a subject B refused', async () => {
    const c = data(await api.post('/mailer/campaigns', { name: 'Copies', body_md: 'Hi', list_ids: [1], ...TEST }), 201);
    expect(data(await go(c.id, 'test', { email: 'me@example.com' }))).toMatchObject({ subject: '[Test] Subject A', variant: 'a', test: true });
    expect(data(await go(c.id, 'test', { email: 'me@example.com', variant: 'b' }))).toMatchObject({ subject: '[Test] Subject B', variant: 'b', test: true });
    const copies = (await control('GET', `/messages?campaign_id=${c.id}&kind=campaign_test`)).data as Json[];
    expect(copies.map((m) => m.subject)).toEqual(['[Test] Subject B', '[Test] Subject A']);
    expect(copies[0]!.body_html).toContain('<title>Subject B</title>');
    expectCode(await go(c.id, 'test', { email: 'me@example.com', variant: 'c' }), 422, 'invalid_field');
    const plain = data(await api.post('/mailer/campaigns', { name: 'No B', subject: 'A', body_md: 'Hi', list_ids: [1] }), 201);
    const noB = expectCode(await go(plain.id, 'test', { email: 'me@example.com', variant: 'b' }), 422, 'invalid_field');
    expect(noB.detail).toMatch(/no subject B/);
  });

  test('the test’s fields checked; the sample percent 10 to 50', async () => {
    for (const bad of [{ ab_sample_percent: 9 }, { ab_sample_percent: 51 }, { ab_sample_percent: 20.5 }, { ab_window_minutes: 0 }, { subject_b: 7 }]) {
      expectCode(await api.post('/mailer/campaigns', { name: 'x', ...bad }), 422, 'invalid_field');
    }
    const defaults = data(await api.post('/mailer/campaigns', { name: 'Defaults', subject_b: 'B' }), 201);
    expect(defaults.subject_test).toMatchObject({ sample_percent: 20, window_minutes: 240, phase: null });
  });

  test('a viewer reads the test’s figures; starting one needs send', async () => {
    const viewer = await mailerAccount(api, 'ab-viewer', ['view']);
    const manager = await mailerAccount(api, 'ab-manager', ['view', 'manage']);
    const c = data(await manager.post('/mailer/campaigns', { name: 'Perm', body_md: 'Hi', list_ids: [2], ...TEST }), 201);
    expect(data(await viewer.get(`/mailer/campaigns/${c.id}`)).subject_test.subject_b).toBe('Subject B');
    expectCode(await manager.post(`/mailer/campaigns/${c.id}/start`, {}), 403);
  });
});
