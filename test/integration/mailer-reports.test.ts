/**
 * A site's mailer deliverability, providers, reports and the A/B subject test through the Host
 * against the CMS sandbox (docs/mailer-campaigns.md, "Deliverability", "Providers", "The seven
 * reports", "The subject test"): every From domain's checks with what to fix (the last answer kept
 * for reading while the site is away), Check again; a provider's secret minted (never answered),
 * its webhook set up, SES refused in the site's words, a view-only account refused by the Host
 * before anything is sent; each report's table against the site's own figures, its CSV written to a
 * file; a subject test's sample, window and winner as the record says them. The real flavour's
 * Mailroom answers none of these routes: said as such.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAILER_REPORT_TYPES } from '../../electron/contract';
import { fixOf } from '../../electron/api/cms/mailer-reports';
import { withHost, type DemoHost } from '../support/demo-host';
import { UNHURRIED } from '../support/limits';

const ADDRESS = /[^\s@"]+@[^\s@"]+\.[a-z]{2,}/i;

describe('spec flavour', () => {
  let fx: DemoHost;
  let dir: string;
  const siteId = () => fx.site.id;
  const store = () => fx.cms.mailer.store;

  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'spec', ...UNHURRIED, mailer: { subscribers: 400 } } });
    dir = await mkdtemp(join(tmpdir(), 'sitedesk-mailer-reports-'));
  });
  afterAll(async () => {
    await fx?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('deliverability: each From domain’s SPF, DKIM and DMARC with what to fix and the record to add; kept while the site is away; checked again', async () => {
    const d = await fx.call('mailer.deliverability', { siteId: siteId() });
    expect(d.copiedAt).toBeNull();
    expect(d.checkedAt).toMatch(/^\d{4}-/);
    const site = d.domains.find((x) => x.domain === 'site.example')!;
    expect(site.usedBy.site).toBe(true);
    expect(site.checks.map((c) => [c.check, c.status])).toEqual([['spf', 'pass'], ['dkim', 'pass'], ['dmarc', 'warn']]);
    const dmarc = site.checks[2]!;
    expect(dmarc.name).toBe('_dmarc.site.example');
    // the fix: the record found with the policy the site's words say to move to
    expect(dmarc.fix).toBe('v=DMARC1; p=quarantine; rua=mailto:dmarc@site.example');
    expect(site.checks[0]!.fix).toBeNull();
    expect(d.status).toBe('warn');
    expect(d.summary).toEqual({ pass: 2, warn: 1, fail: 0 });

    // a list mailing from a domain with no records: every check fails, each with what to add
    const list = (await fx.call('mailer.lists', { siteId: siteId() })).lists[0]!;
    await fx.call('mailer.updateList', { siteId: siteId(), id: list.id, changes: { fromEmail: 'news@partner.example' } });
    // the site keeps its answer ten minutes: the new domain shows only once checked again
    expect((await fx.call('mailer.deliverability', { siteId: siteId() })).domains.some((x) => x.domain === 'partner.example')).toBe(false);
    fx.cms.clock.advance(5_000);
    const again = await fx.call('mailer.recheckDeliverability', { siteId: siteId() });
    expect(Date.parse(again.checkedAt!)).toBeGreaterThan(Date.parse(d.checkedAt!));
    const partner = again.domains.find((x) => x.domain === 'partner.example')!;
    expect(partner.usedBy.lists).toEqual([list.id]);
    expect(partner.status).toBe('fail');
    const [spf, dkim, dmarc2] = partner.checks;
    expect(spf).toMatchObject({ status: 'fail', record: 'v=spf1 include:other-relay.example ~all', fix: 'v=spf1 include:mail.example include:other-relay.example ~all' });
    expect(dkim).toMatchObject({ status: 'fail', name: 'sitedesk._domainkey.partner.example', fix: null });
    expect(dkim!.detail).toMatch(/publish the key/);
    expect(dmarc2).toMatchObject({ status: 'fail', record: null, fix: 'v=DMARC1; p=none' });
    expect(again.status).toBe('fail');

    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const kept = await fx.call('mailer.deliverability', { siteId: siteId() });
      expect(kept.copiedAt).toMatch(/^\d{4}-/);
      expect(kept.checkedAt).toBe(again.checkedAt);
      expect(kept.domains.map((x) => x.domain)).toEqual(again.domains.map((x) => x.domain));
      // a recheck is never kept for later
      expect((await fx.fails('mailer.recheckDeliverability', { siteId: siteId() })).message).toMatch(/The domains were not checked again.*never sent later/);
    } finally {
      fx.cms.faults.clear();
    }
    await fx.call('mailer.updateList', { siteId: siteId(), id: list.id, changes: { fromEmail: '' } });
  });

  test('the record to add, from the site’s words', () => {
    expect(fixOf('No SPF record: add a TXT record "v=spf1 include:mail.example ~all" to x.example.', null)).toBe('v=spf1 include:mail.example ~all');
    expect(fixOf('The SPF record does not name the mail relay: add include:mail.example to it.', 'v=spf1 a mx -all')).toBe('v=spf1 include:mail.example a mx -all');
    expect(fixOf('DMARC only watches (p=none): once the reports look clean, move to p=quarantine.', 'v=DMARC1; p=none')).toBe('v=DMARC1; p=quarantine');
    expect(fixOf('No DKIM key at s._domainkey.x.example: publish the key the mail provider gives you there.', null)).toBeNull();
  });

  test('providers: the webhook URL once a secret is minted (never answered), set up through the provider’s API, SES by hand; a view-only account refused by the Host', async () => {
    const before = await fx.call('mailer.providers', { siteId: siteId() });
    expect(before.providers.map((p) => p.name)).toEqual(['mailgun', 'postmark', 'sendgrid', 'ses']);
    expect(before.providers.every((p) => !p.secretSet && p.webhookUrl === null)).toBe(true);
    expect(before.providers.find((p) => p.name === 'ses')!.setupByApi).toBe(false);

    // setup before a secret: refused in the site's words
    const early = await fx.fails('mailer.providerSetup', { siteId: siteId(), provider: 'mailgun' });
    expect(early.reason).toBe('secret_missing');
    const minted = await fx.call('mailer.providerSecret', { siteId: siteId(), provider: 'mailgun' });
    expect(minted.rotated).toBe(false);
    expect(minted.provider).toMatchObject({ name: 'mailgun', secretSet: true, setupNeeded: true, webhookUrl: expect.stringMatching(/\/mailer\/webhooks\/mailgun$/) });
    const hash = (store().prep("SELECT secret_hash FROM providers WHERE name = 'mailgun'").get() as { secret_hash: string }).secret_hash;
    expect(JSON.stringify(minted)).not.toContain(hash);
    // the kept settings follow the answer
    const kept = (await fx.call('mailer.providers', { siteId: siteId() })).providers.find((p) => p.name === 'mailgun')!;
    expect(kept).toMatchObject({ secretSet: true, webhookUrl: minted.provider.webhookUrl });

    const setup = await fx.call('mailer.providerSetup', { siteId: siteId(), provider: 'mailgun' });
    expect(setup).toMatchObject({ created: true, provider: { webhookId: expect.any(String), setupNeeded: false } });
    // asked again with the same secret: the same webhook
    const same = await fx.call('mailer.providerSetup', { siteId: siteId(), provider: 'mailgun' });
    expect(same).toMatchObject({ created: false, provider: { webhookId: setup.provider.webhookId } });
    // a new secret: the provider must be set up again
    const rotated = await fx.call('mailer.providerSecret', { siteId: siteId(), provider: 'mailgun' });
    expect(rotated).toMatchObject({ rotated: true, provider: { setupNeeded: true } });

    await fx.call('mailer.providerSecret', { siteId: siteId(), provider: 'ses' });
    const ses = await fx.fails('mailer.providerSetup', { siteId: siteId(), provider: 'ses' });
    expect(ses.reason).toBe('setup_not_allowed');
    expect(ses.message).toMatch(/by hand/);

    // a view-only account reads, and its writes are refused before anything is sent
    await fx.cms.accounts.create({ username: 'reports-viewer', password: 'a-long-password-1', email: 'reports-viewer@example.test', access: { api: { access: true }, mailer: { view: true } } });
    const key = fx.cms.apiKeys.create({ username: 'reports-viewer', name: 'test', scopes: [] }).api_key;
    const viewer = await fx.call('sites.add', { name: 'Viewer', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey: key });
    await fx.call('auth.refreshMe', { siteId: viewer.id }).catch(() => undefined);
    expect((await fx.call('mailer.deliverability', { siteId: viewer.id })).domains.length).toBeGreaterThan(0);
    const setAt = (store().prep("SELECT secret_set_at FROM providers WHERE name = 'postmark'").get() as { secret_set_at: number } | undefined)?.secret_set_at;
    for (const [channel, input] of [
      ['mailer.providerSecret', { siteId: viewer.id, provider: 'postmark' }],
      ['mailer.recheckDeliverability', { siteId: viewer.id }],
    ] as const) {
      const refused = await fx.fails(channel, input as never);
      expect(refused.code).toBe('forbidden');
      expect(refused.message).toMatch(/mailer\.manage/);
    }
    expect((store().prep("SELECT secret_set_at FROM providers WHERE name = 'postmark'").get() as { secret_set_at: number } | undefined)?.secret_set_at).toBe(setAt);
    await fx.call('sites.remove', { id: viewer.id });
  });

  test('the seven reports: columns typed, rows the site’s figures, totals; a period; the default kept for reading while the site is away', async () => {
    for (const type of MAILER_REPORT_TYPES) {
      const r = await fx.call('mailer.report', { siteId: siteId(), type });
      expect(r.type).toBe(type);
      expect(r.columns.length).toBeGreaterThan(0);
      expect(r.rows.every((row) => row.length === r.columns.length)).toBe(true);
      expect(JSON.stringify(r)).not.toMatch(ADDRESS);
    }
    const growth = await fx.call('mailer.report', { siteId: siteId(), type: 'growth' });
    expect(growth.rows).toHaveLength(30);
    expect(growth.columns.map((c) => [c.key, c.kind])).toEqual([['day', 'day'], ['joined', 'count'], ['left', 'count'], ['net', 'count']]);
    expect(growth.rows[0]![0]).toBe(growth.from);
    // the site's own count of who joined in the period
    const joined = store().prep('SELECT count(*) AS n FROM subscribers WHERE created_at >= ? AND created_at < ?').get(Date.parse(growth.from!) / 1000, Date.parse(growth.to!) / 1000) as { n: number };
    expect(growth.totals?.joined).toBe(joined.n);
    expect(growth.rows.reduce((a, row) => a + (row[1] as number), 0)).toBe(joined.n);

    const campaigns = await fx.call('mailer.report', { siteId: siteId(), type: 'campaigns', from: new Date(fx.cms.clock.now() - 365 * 86_400_000).toISOString() });
    const rate = campaigns.columns.findIndex((c) => c.key === 'open_rate');
    expect(campaigns.columns[rate]!.kind).toBe('percent');
    expect(campaigns.columns.find((c) => c.key === 'sent_at')!.kind).toBe('time');
    expect(campaigns.rows.length).toBeGreaterThan(0);
    const row = campaigns.rows[0]!;
    const delivered = row[campaigns.columns.findIndex((c) => c.key === 'delivered')] as number;
    const opened = row[campaigns.columns.findIndex((c) => c.key === 'opened')] as number;
    expect(row[rate]).toBeCloseTo((opened / delivered) * 100, 1);

    // a period the site refuses: its words, under the input's field
    const wide = await fx.fails('mailer.report', { siteId: siteId(), type: 'growth', from: new Date(fx.cms.clock.now() - 400 * 86_400_000).toISOString() });
    expect(wide.status).toBe(422);
    expect(wide.message).toMatch(/366 days/);
    expect((await fx.fails('mailer.report', { siteId: siteId(), type: 'growth', from: growth.to!, to: growth.from! })).fields).toHaveProperty('from');

    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const kept = await fx.call('mailer.report', { siteId: siteId(), type: 'growth' });
      expect(kept.copiedAt).toMatch(/^\d{4}-/);
      expect(kept.rows).toEqual(growth.rows);
      // another period was never kept: the site's absence said
      expect((await fx.fails('mailer.report', { siteId: siteId(), type: 'growth', from: campaigns.from! })).code).toMatch(/network|unreachable|offline/);
    } finally {
      fx.cms.faults.clear();
    }
    // an answer cut short: a clear error, not a broken table
    fx.cms.faults.set({ route: 'GET /mailer/reports/sources', truncate: true });
    try {
      const cut = await fx.fails('mailer.report', { siteId: siteId(), type: 'sources', from: campaigns.from! });
      expect(cut.code).toBe('bad_response');
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('a report’s CSV into a file the person named: whole, its header the report’s columns; browser mode asks for the path', async () => {
    expect(await fx.call('mailer.chooseReportFile', { type: 'growth' })).toEqual({ unsupported: true });
    const file = join(dir, 'growth.csv');
    const out = await fx.call('mailer.exportReport', { siteId: siteId(), type: 'growth', exportId: 'report-growth-1', file });
    expect(out).toMatchObject({ outcome: 'written', file, rows: 30 });
    const text = await readFile(file, 'utf8');
    expect(text.split('\r\n')[0]).toBe('\ufeffday,joined,left,net');
    // a file there already is replaced only when asked
    const taken = await fx.fails('mailer.exportReport', { siteId: siteId(), type: 'growth', exportId: 'report-growth-2', file });
    expect(taken).toMatchObject({ code: 'conflict' });
    expect(taken.fields).toHaveProperty('file');
    expect((await fx.call('mailer.exportReport', { siteId: siteId(), type: 'growth', exportId: 'report-growth-3', file, overwrite: true })).outcome).toBe('written');
    expect((await fx.fails('mailer.exportReport', { siteId: siteId(), type: 'growth', exportId: 'report-growth-4', file: 'relative.csv' })).fields).toHaveProperty('file');
  });

  test('the subject test: both subjects with their sample and window, each side’s figures as the site gives them, the winner picked at the window’s end', async () => {
    const lists = (await fx.call('mailer.lists', { siteId: siteId() })).lists;
    const made = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'Which subject', subject: 'Subject A', bodyMd: '# Hi', listIds: [lists[0]!.id] });
    const edited = await fx.call('mailer.updateCampaign', { siteId: siteId(), id: made.campaign.id, changes: { subjectB: 'Subject B', abSamplePercent: 30, abWindowMinutes: 60 } });
    expect(edited.campaign.subjectTest).toMatchObject({ subjectB: 'Subject B', samplePercent: 30, windowMinutes: 60, phase: null, winner: null, variants: { a: { subject: 'Subject A', sent: 0 }, b: { subject: 'Subject B', sent: 0 } } });
    await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start' });
    let c = (await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id })).campaign;
    for (let i = 0; i < 30 && c.subjectTest?.phase !== 'window'; i++) {
      fx.cms.clock.advance(1_000);
      c = (await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id })).campaign;
    }
    const waiting = c.subjectTest!;
    expect(waiting.phase).toBe('window');
    expect(waiting.winner).toBeNull();
    expect(waiting.sampleSize).toBeGreaterThan(1);
    expect(waiting.variants.a.sent + waiting.variants.b.sent).toBe(waiting.sampleSize);
    expect(Date.parse(waiting.windowEndsAt!) - Date.parse(waiting.sampleSentAt!)).toBe(60 * 60_000);

    fx.cms.clock.advance(61 * 60_000);
    c = (await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id })).campaign;
    const picked = c.subjectTest!;
    expect(picked.winner).toMatch(/^[ab]$/);
    expect(picked.winnerPickedAt).toBe(waiting.windowEndsAt);
    expect(['open_rate', 'tie']).toContain(picked.decidedBy);
    expect(picked.decision).not.toBeNull();
    // the rule: the higher open rate wins, a tie goes to A
    const { a, b } = picked.decision!;
    const bWins = b.opened * a.delivered > a.opened * b.delivered;
    expect(picked.winner).toBe(bWins ? 'b' : 'a');
    // the site's record of the pick, read past the Host
    const raw = store().prep('SELECT ab_winner AS w FROM campaigns WHERE id = ?').get(made.campaign.id) as { w: string };
    expect(raw.w).toBe(picked.winner);
  });
});

describe('real flavour', () => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'real', ...UNHURRIED, mailer: { subscribers: 200 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('Mailroom answers no deliverability, provider or report route: said as such, not as a missing plugin', async () => {
    for (const [channel, input] of [
      ['mailer.deliverability', { siteId: fx.site.id }],
      ['mailer.providers', { siteId: fx.site.id }],
      ['mailer.report', { siteId: fx.site.id, type: 'growth' }],
    ] as const) {
      const err = await fx.fails(channel, input as never);
      expect(err.reason).toBe('no_reports');
      expect(err.message).toMatch(/has no/);
    }
    expect((await fx.call('mailer.lists', { siteId: fx.site.id })).lists.length).toBeGreaterThan(0);
  });
});
