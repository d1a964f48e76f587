/**
 * The mailer's overview, settings and labels over real HTTP, spec flavour (document 2 "Overview
 * and settings"; docs/mailer-campaigns.md, "Overview", "Settings", "Labels"): counts by status
 * matching the tables, the growth series over `days`, the recent campaigns, alerts that follow
 * what happens (a stopped campaign, failed sends, the queue switched off); the settings without
 * secrets; the labels for every word the records use. `mailer.view` for all three; the real
 * flavour has none of them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAMPAIGN_STATES } from '../sandbox/cms/mailer/campaign-states';
import { SEND_STATUSES } from '../sandbox/cms/mailer/campaign-reports';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount } from '../support/mailer';

const DAY = 86_400;

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.origin}/__sandbox/mailer${path}`, { method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return (await res.json()) as Json;
  };

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 2000 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('counts by status as the tables count them; recent campaigns by their latest activity; the seed’s one alert', async () => {
    const o = data(await api.get('/mailer/overview'));
    const subs = await api.get('/mailer/subscribers?per_page=1');
    expect(o.counts.subscribers).toEqual({ ...subs.body.meta.status_counts, total: 2000 });
    const camps = await api.get('/mailer/campaigns?per_page=1');
    expect(o.counts.campaigns).toEqual({ ...camps.body.meta.status_counts, total: 6 });
    expect(Object.keys(o.counts.campaigns)).toEqual([...CAMPAIGN_STATES, 'total']);
    expect(o.recent_campaigns.map((c: Json) => c.name)).toEqual(['Winter preview', 'VIP evening', 'Autumn news', 'Summer events', 'Product update 3.2']);
    expect(Object.keys(o.recent_campaigns[2]).sort()).toEqual(['counters', 'id', 'last_activity_at', 'name', 'rates', 'scheduled_at', 'sent_at', 'started_at', 'status']);
    expect(o.recent_campaigns[2].counters.sent).toBeGreaterThan(0);
    // the seed's scheduled campaign is a reference without content: due in five days and not ready
    expect(o.alerts).toEqual([{ code: 'campaign_not_ready', severity: 'error', title: 'Scheduled campaign not ready', campaign_id: 6, detail: '“VIP evening” is scheduled but needs subject, body_md: write them before its time, or pause it.' }]);
  });

  test('growth: one row a UTC day ending today, joined and left as the table has them, subscribed carried on', async () => {
    const g = data(await api.get('/mailer/overview?days=14')).growth;
    const now = Math.floor(sb.clock.now() / 1000);
    expect(g.series).toHaveLength(14);
    expect(g.from % DAY).toBe(0);
    expect(g.to).toBe(g.from + 14 * DAY);
    expect(g.to).toBeGreaterThan(now);
    expect(g.to - DAY).toBeLessThanOrEqual(now);
    const db = sb.mailer.store.db;
    const joined = (db.prepare('SELECT count(*) AS n FROM subscribers WHERE created_at >= ? AND created_at < ?').get(g.from, g.to) as { n: number }).n;
    const left = (db.prepare('SELECT count(*) AS n FROM subscribers WHERE unsubscribed_at >= ? AND unsubscribed_at < ?').get(g.from, g.to) as { n: number }).n;
    expect(joined).toBeGreaterThan(0);
    expect({ joined: g.joined, left: g.left, net: g.net }).toEqual({ joined, left, net: joined - left });
    for (const [k, d] of g.series.entries()) {
      expect(d.day).toBe(g.from + k * DAY);
      expect(d.net).toBe(d.joined - d.left);
    }
    const atEnd = (db.prepare("SELECT count(*) AS n FROM subscribers WHERE created_at < ? AND status <> 'pending' AND (unsubscribed_at IS NULL OR unsubscribed_at >= ?)").get(g.to, g.to) as { n: number }).n;
    expect(g.series.at(-1).subscribed).toBe(atEnd);
    expect(data(await api.get('/mailer/overview')).growth.series).toHaveLength(30);
    for (const bad of ['6', '91', 'x', '-1']) expectCode(await api.get(`/mailer/overview?days=${bad}`), 422, 'filter_invalid');
  });

  test('alerts follow what happens: a campaign the sender stopped, failed sends, the queue off; each says what to do', async () => {
    await control('POST', '', { bouncePercent: 40 });
    try {
      const stopped = data(await api.post('/mailer/campaigns', { name: 'Bouncing', subject: 'Hi', body_md: 'Hi', list_ids: [1] }), 201);
      data(await api.post(`/mailer/campaigns/${stopped.id}/start`, {}));
      sb.clock.advance(600_000);
      const a = data(await api.get('/mailer/overview')).alerts;
      expect(a.map((x: Json) => x.severity).slice(0, 2)).toEqual(['error', 'error']);
      expect(a.find((x: Json) => x.code === 'campaign_stopped')).toMatchObject({ code: 'campaign_stopped', severity: 'error', campaign_id: stopped.id, title: expect.any(String), detail: expect.stringMatching(/resume or cancel/) });
      data(await api.post(`/mailer/campaigns/${stopped.id}/cancel`, {}));
    } finally {
      await control('POST', '', { bouncePercent: 2 });
    }
    const sent = data(await api.post('/mailer/campaigns', { name: 'With failures', subject: 'Hi', body_md: 'Hi', list_ids: [3] }), 201);
    data(await api.post(`/mailer/campaigns/${sent.id}/start`, {}));
    sb.clock.advance(3_600_000);
    const done = data(await api.get(`/mailer/campaigns/${sent.id}`));
    expect(done.counters.failed).toBeGreaterThan(0);
    const failed = data(await api.get('/mailer/overview')).alerts.find((x: Json) => x.code === 'failed_sends');
    expect(failed).toMatchObject({ severity: 'warning', campaign_id: sent.id, detail: expect.stringContaining(`${done.counters.failed} failed`) });
    data(await api.post(`/mailer/campaigns/${sent.id}/retry-failed`, {}));
    const after = data(await api.get(`/mailer/campaigns/${sent.id}`)).counters.failed;
    const still = data(await api.get('/mailer/overview')).alerts.filter((x: Json) => x.code === 'failed_sends');
    expect(still).toHaveLength(after > 0 ? 1 : 0);

    await control('POST', '', { worker: false });
    try {
      const off = data(await api.get('/mailer/overview')).alerts;
      expect(off[0]).toMatchObject({ code: 'worker_stopped', severity: 'error' });
    } finally {
      await control('POST', '', { worker: true });
    }
    expect(JSON.stringify(data(await api.get('/mailer/overview')).alerts)).not.toMatch(/@/);
  });

  test('settings: transport without its secret, the worker as it runs, the From address, the providers', async () => {
    const s = data(await api.get('/mailer/settings'));
    expect(s.transport).toMatchObject({ driver: 'smtp', port: 587, password_set: true, send_rate_per_second: 50 });
    expect(JSON.stringify(s)).not.toMatch(/password"\s*:|secret"\s*:/);
    expect(s.worker).toMatchObject({ running: true, every_seconds: 60, imports_queued: 0, campaigns_scheduled: 1 });
    expect(typeof s.worker.last_run_at).toBe('number');
    expect(s.from).toEqual({ name: 'Sitedesk Sandbox', email: 'newsletter@site.example', reply_to: null });
    expect(s.providers.map((p: Json) => p.name)).toEqual(['mailgun', 'postmark', 'sendgrid', 'ses']);
    expect(s.providers[0]).toEqual({ name: 'mailgun', label: 'Mailgun', secret_set: false, webhook_url: null, reports: ['bounce', 'complaint'] });
    await control('POST', '', { sendRate: 10, worker: false });
    try {
      expect(data(await api.get('/mailer/settings'))).toMatchObject({ transport: { send_rate_per_second: 10 }, worker: { running: false } });
    } finally {
      await control('POST', '', { sendRate: 50, worker: true });
    }
  });

  test('labels: a name for every word the records answer with; another language answered in English, saying so', async () => {
    const l = data(await api.get('/mailer/labels'));
    expect(l.language).toBe('en');
    expect(l.languages).toEqual(['en']);
    expect(Object.keys(l.labels.campaign_status)).toEqual([...CAMPAIGN_STATES]);
    expect(Object.keys(l.labels.send_status)).toEqual([...SEND_STATUSES]);
    expect(Object.keys(l.labels.subscriber_status).sort()).toEqual(['bounced', 'complained', 'pending', 'subscribed', 'unsubscribed']);
    expect(Object.keys(l.labels.campaign_move)).toEqual(['edit', 'delete', 'start', 'schedule', 'pause', 'resume', 'cancel']);
    expect(Object.keys(l.labels.subject_test_phase)).toEqual(['sample', 'window', 'rest']);
    expect(Object.keys(l.labels.alert)).toEqual(expect.arrayContaining(['worker_stopped', 'campaign_stopped', 'failed_sends', 'bounce_rate_high']));
    expect(data(await api.get('/mailer/labels?lang=de')).language).toBe('en');
  });

  test('permissions: view for all three; none without it', async () => {
    const viewer = await mailerAccount(api, 'ov-viewer', ['view']);
    const nobody = await mailerAccount(api, 'ov-nobody', []);
    const scoped = await mailerAccount(api, 'ov-scoped', ['view', 'manage'], { scopes: ['mailer.manage'] });
    for (const path of ['/mailer/overview', '/mailer/settings', '/mailer/labels']) {
      expect((await viewer.get(path)).status).toBe(200);
      expectCode(await nobody.get(path), 403);
      expectCode(await scoped.get(path), 403);
      expect((await api.as({ none: true }).get(path)).status).toBe(401);
    }
  });
});

describe('real flavour', () => {
  let sb: CmsSandbox;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 50 } });
  });
  afterAll(() => sb?.close());

  test('no overview, settings or labels routes: 404', async () => {
    const api = new SandboxClient(sb);
    for (const path of ['overview', 'settings', 'labels']) expect((await api.get(`/mailroom/${path}`)).status).toBe(404);
  });
});
