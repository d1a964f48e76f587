/**
 * The mailer's deliverability and provider routes over real HTTP, spec flavour (document 2
 * "Deliverability and providers"; docs/mailer-campaigns.md, "Deliverability", "Providers"): the
 * From domains' checks kept ten minutes and looked up again by the recheck; a provider's webhook
 * secret minted and never answered (settings say it is set and give the URL), the setup through
 * the provider's API where it has one; view reads, manage writes. The real flavour answers 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount } from '../support/mailer';

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 200 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('the From domains checked; kept ten minutes; a recheck looks again', async () => {
    const first = data(await api.get('/mailer/deliverability'));
    expect(first.cached).toBe(false);
    expect(first.fresh_until).toBe(first.checked_at + 600);
    expect(first.domains).toHaveLength(1);
    expect(first.domains[0]).toMatchObject({ domain: 'site.example', status: 'warn', used_by: { site: true } });
    expect(first.domains[0].used_by.lists.length).toBe(2);
    expect(first.domains[0].checks.map((c: Json) => [c.check, c.status])).toEqual([['spf', 'pass'], ['dkim', 'pass'], ['dmarc', 'warn']]);
    expect(first).toMatchObject({ status: 'warn', summary: { pass: 2, warn: 1, fail: 0 } });
    // a list mailing from another domain: not seen while the answer is kept
    data(await api.patch('/mailer/lists/2', { from_email: 'news@partner.example', from_name: 'Partner' }));
    const again = data(await api.get('/mailer/deliverability'));
    expect(again).toMatchObject({ cached: true, checked_at: first.checked_at });
    expect(again.domains).toHaveLength(1);
    const fresh = data(await api.post('/mailer/deliverability/recheck'));
    expect(fresh.cached).toBe(false);
    expect(fresh.domains.map((d: Json) => [d.domain, d.status, d.used_by])).toEqual([
      ['site.example', 'warn', { site: true, lists: [3, 4] }],
      ['partner.example', 'fail', { site: false, lists: [2] }],
    ]);
    expect(fresh).toMatchObject({ status: 'fail', summary: { pass: 2, warn: 1, fail: 3 } });
    // after ten minutes of the clock the GET looks again by itself
    data(await api.patch('/mailer/lists/2', { from_email: 'news@shop.example' }));
    expect(data(await api.get('/mailer/deliverability')).domains.map((d: Json) => d.domain)).toEqual(['site.example', 'partner.example']);
    sb.clock.advance(601_000);
    const later = data(await api.get('/mailer/deliverability'));
    expect(later.cached).toBe(false);
    expect(later.domains.map((d: Json) => [d.domain, d.status])).toEqual([['site.example', 'warn'], ['shop.example', 'pass']]);
  });

  test('a provider’s secret: minted, kept, never answered; settings say it is set and give the webhook URL', async () => {
    const r = data(await api.post('/mailer/providers/mailgun/secret'));
    expect(r).toMatchObject({ provider: 'mailgun', secret_set: true, rotated: false, setup_by_api: true, webhook_id: null, setup_needed: true, events: ['bounce', 'complaint'] });
    expect(r.webhook_url).toBe(`${sb.origin}/api/v1/mailer/webhooks/mailgun`);
    expect(Object.keys(r)).not.toContain('secret');
    const kept = sb.mailer.store.prep("SELECT secret_hash FROM providers WHERE name = 'mailgun'").get() as { secret_hash: string };
    expect(kept.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(r)).not.toContain(kept.secret_hash);
    const s = data(await api.get('/mailer/settings'));
    expect(s.providers[0]).toEqual({ name: 'mailgun', label: 'Mailgun', secret_set: true, webhook_url: r.webhook_url, reports: ['bounce', 'complaint'] });
    expect(s.providers[1]).toMatchObject({ name: 'postmark', secret_set: false, webhook_url: null });
    expect(JSON.stringify(s)).not.toMatch(/secret"\s*:/);
    const again = data(await api.post('/mailer/providers/mailgun/secret'));
    expect(again.rotated).toBe(true);
    expect((sb.mailer.store.prep("SELECT secret_hash FROM providers WHERE name = 'mailgun'").get() as { secret_hash: string }).secret_hash).not.toBe(kept.secret_hash);
    expectCode(await api.post('/mailer/providers/mailchimp/secret'), 404, 'unknown_provider');
  });

  test('setup: needs a secret; made once per secret; a new secret asks for it again; SES by hand', async () => {
    expectCode(await api.post('/mailer/providers/postmark/setup'), 409, 'secret_missing');
    data(await api.post('/mailer/providers/postmark/secret'));
    const made = data(await api.post('/mailer/providers/postmark/setup'), 201);
    expect(made).toMatchObject({ provider: 'postmark', created: true, setup_needed: false, secret_set: true });
    expect(made.webhook_id).toMatch(/^postmark_wh_\d+$/);
    expect(typeof made.setup_at).toBe('number');
    const same = data(await api.post('/mailer/providers/postmark/setup'));
    expect(same).toMatchObject({ created: false, webhook_id: made.webhook_id });
    expect(data(await api.post('/mailer/providers/postmark/secret'))).toMatchObject({ rotated: true, setup_needed: true });
    const remade = data(await api.post('/mailer/providers/postmark/setup'), 201);
    expect(remade.webhook_id).not.toBe(made.webhook_id);
    data(await api.post('/mailer/providers/ses/secret'));
    expect(expectCode(await api.post('/mailer/providers/ses/setup'), 409, 'setup_not_allowed').detail).toMatch(/by hand/);
    expectCode(await api.post('/mailer/providers/nope/setup'), 404, 'unknown_provider');
  });

  test('view reads, manage writes; without the plugin permission 403', async () => {
    const viewer = await mailerAccount(api, 'dlv-viewer', ['view']);
    const nobody = await mailerAccount(api, 'dlv-nobody', []);
    expect((await viewer.get('/mailer/deliverability')).status).toBe(200);
    expectCode(await nobody.get('/mailer/deliverability'), 403);
    expectCode(await viewer.post('/mailer/deliverability/recheck'), 403);
    expectCode(await viewer.post('/mailer/providers/sendgrid/secret'), 403);
    expectCode(await viewer.post('/mailer/providers/sendgrid/setup'), 403);
    expect(data(await api.get('/mailer/settings')).providers[2]).toMatchObject({ name: 'sendgrid', secret_set: false });
  });
});

describe('real flavour', () => {
  test('no deliverability or provider routes: 404', async () => {
    const sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 50 } });
    try {
      const api = new SandboxClient(sb);
      expect((await api.get('/mailroom/deliverability')).status).toBe(404);
      expect((await api.post('/mailroom/providers/mailgun/secret')).status).toBe(404);
    } finally {
      sb.close();
    }
  });
});
