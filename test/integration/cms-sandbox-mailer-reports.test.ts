/**
 * The mailer's seven reports over real HTTP, spec flavour (document 2 "Reports";
 * docs/mailer-campaigns.md, "Reports"): each as JSON (columns, rows, totals over a period) and as
 * CSV with the same columns; the period checked; figures that agree with the store; no address in
 * any; view reads. The real flavour answers 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPORT_TYPES } from '../sandbox/cms/mailer/reports';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount } from '../support/mailer';

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 300 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('all seven, as JSON and as CSV with the same columns and rows; no address in any', async () => {
    for (const type of REPORT_TYPES) {
      const r = data(await api.get(`/mailer/reports/${type}`));
      expect(r.type).toBe(type);
      expect(r.to - r.from).toBe(30 * 86_400);
      expect(r.columns.length).toBeGreaterThan(1);
      for (const row of r.rows) expect(Object.keys(row)).toEqual(r.columns);
      expect(JSON.stringify(r)).not.toMatch(/[^\s@"]+@[^\s@"]+\.[a-z]/i);
      const csv = await api.get(`/mailer/reports/${type}.csv?from=${r.from}&to=${r.to}`);
      expect(csv.status).toBe(200);
      expect(csv.type).toMatch(/^text\/csv/);
      expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${type}-report.csv"`);
      const lines = csv.text.replace(/^\ufeff/, '').split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(r.columns.join(','));
      expect(lines).toHaveLength(r.rows.length + 1);
    }
    expectCode(await api.get('/mailer/reports/opens'), 404, 'unknown_report');
    expectCode(await api.get('/mailer/reports/opens.csv'), 404, 'unknown_report');
  });

  test('the period: from before to, at most 366 days, epoch seconds', async () => {
    const now = sb.mailer.nowSec();
    expectCode(await api.get(`/mailer/reports/growth?from=${now}&to=${now - 10}`), 422, 'filter_invalid');
    expectCode(await api.get(`/mailer/reports/growth?from=${now - 400 * 86_400}&to=${now}`), 422, 'filter_invalid');
    expectCode(await api.get('/mailer/reports/growth?from=yesterday'), 422, 'filter_invalid');
    const g = data(await api.get(`/mailer/reports/growth?from=${now - 7 * 86_400}&to=${now}`));
    expect(g.rows).toHaveLength(7);
    expect(g.rows[0].day).toBe(now - 7 * 86_400);
  });

  test('figures agree with the store: growth, sources, lists, campaigns, automations, engagement', async () => {
    const db = sb.mailer.store.db;
    const now = sb.mailer.nowSec();
    const from = now - 90 * 86_400;
    const n = (sql: string, ...a: unknown[]) => (db.prepare(sql).get(...a) as { n: number }).n;
    const g = data(await api.get(`/mailer/reports/growth?from=${from}&to=${now + 1}`));
    expect(g.totals.joined).toBe(n('SELECT count(*) AS n FROM subscribers WHERE created_at >= ? AND created_at < ?', from, now + 1));
    expect(g.totals.net).toBe(g.totals.joined - g.totals.left);
    const s = data(await api.get(`/mailer/reports/sources?from=${from}&to=${now + 1}`));
    expect(s.totals.joined).toBe(g.totals.joined);
    const l = data(await api.get('/mailer/reports/lists'));
    expect(l.rows.map((r: Json) => r.list_id)).toEqual([1, 2, 3, 4]);
    expect(l.rows[0].subscribed).toBe(n("SELECT count(*) AS n FROM memberships WHERE list_id = 1 AND status = 'subscribed'"));
    const c = data(await api.get(`/mailer/reports/campaigns?from=${now - 365 * 86_400}&to=${now + 1}`));
    expect(c.totals.sent).toBe(n('SELECT count(*) AS n FROM sends WHERE campaign_id IN (SELECT campaign_id FROM sends GROUP BY campaign_id HAVING min(sent_at) >= ?)', now - 365 * 86_400));
    for (const r of c.rows) if (r.delivered > 0) expect(r.open_rate).toBe(Math.round((r.opened / r.delivered) * 10_000) / 100);
    const a = data(await api.get(`/mailer/reports/automations?from=${now - 60 * 86_400}&to=${now + 1}`));
    expect(a.rows[0]).toMatchObject({ flow_id: 1, name: 'Welcome series', status: 'paused', in_flow: n("SELECT count(*) AS n FROM enrolments WHERE flow_id = 1 AND status IN ('active', 'waiting')") });
    expect(a.rows[0].entered).toBe(n('SELECT count(*) AS n FROM enrolments WHERE flow_id = 1'));
    const e = data(await api.get('/mailer/reports/engagement'));
    expect(e.rows.map((r: Json) => r.band)).toEqual(['opened_in_period', 'opened_before', 'never_opened', 'not_mailed']);
    expect(e.totals.people).toBe(n("SELECT count(*) AS n FROM subscribers WHERE status = 'subscribed'"));
  });

  test('view reads; without the plugin permission 403', async () => {
    const viewer = await mailerAccount(api, 'rep-viewer', ['view']);
    const nobody = await mailerAccount(api, 'rep-nobody', []);
    expect((await viewer.get('/mailer/reports/lists')).status).toBe(200);
    expectCode(await nobody.get('/mailer/reports/lists'), 403);
    expectCode(await nobody.get('/mailer/reports/lists.csv'), 403);
  });
});

describe('real flavour', () => {
  test('no report routes: 404', async () => {
    const sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 50 } });
    try {
      expect((await new SandboxClient(sb).get('/mailroom/reports/lists')).status).toBe(404);
    } finally {
      sb.close();
    }
  });
});
