/**
 * Every site at a glance through the Host against the sandbox (both flavours): a signed-in admin's
 * site answers, its version, pending updates and the scheduler's health; a viewer's glance skips
 * what the account may not read and says why; a signed-out site skips every part; the site away is
 * not reachable and the parts read before come from the copy with its time.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Site } from '../../electron/contract';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { startReceiver } from '../support/webhook-receiver';

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  let viewer: Site;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, webhookPrivateTargets: true, ...UNHURRIED } });
    viewer = await fx.call('sites.add', { name: 'As viewer', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'password' });
    await fx.call('auth.signIn', { siteId: viewer.id, username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('the admin: reachable, the version, the updates and the scheduler, each from the site', async () => {
    const g = await fx.call('overview.site', { siteId: fx.site.id });
    expect(g.reachable).toBe(true);
    expect(Date.parse(g.readAt)).not.toBeNaN();
    expect(g.version).toEqual(expect.stringMatching(/^\d+\.\d+/));
    expect(g.updates).toMatchObject({ copiedAt: null, value: { total: expect.any(Number) } });
    const updates = await fx.call('packages.updates', { siteId: fx.site.id });
    expect('value' in g.updates && g.updates.value.total).toBe(updates.total);
    expect(g.scheduler).toMatchObject({ copiedAt: null, value: { crontab: flavor === 'real' ? 'error' : 'installed' } });
    const status = await fx.call('scheduler.status', { siteId: fx.site.id });
    expect('value' in g.scheduler && g.scheduler.value.failedJobs24h).toBe(status.health?.failedJobs24h ?? null);
    const demo = await fx.call('demo.status', { siteId: fx.site.id });
    expect(g.demo).toEqual({ copiedAt: null, value: { baseline: demo.baselineExists, secondsUntilReset: demo.secondsUntilReset, intervalMinutes: demo.resetInterval } });
    // the mailer's figures: document 2's from its overview; Mailroom answers no overview route here
    if (flavor === 'real') expect(g.mailer).toEqual({ skipped: 'The site does not offer this.' });
    else {
      const o = await fx.call('mailer.overview', { siteId: fx.site.id });
      const pressing = o.alerts.filter((a) => a.severity !== 'info');
      expect(g.mailer).toEqual({
        copiedAt: null,
        value: { subscribed: o.subscribers.subscribed, net: o.growth.net, days: 30, errors: o.alerts.filter((a) => a.severity === 'error').length, warnings: o.alerts.filter((a) => a.severity === 'warning').length, first: pressing[0] ? `${pressing[0].title}: ${pressing[0].detail}` : null },
      });
      expect('value' in g.mailer && g.mailer.value.errors).toBeGreaterThan(0); // the seed's scheduled campaign that is not ready
    }
  });

  test('webhooks: none, then a failed test delivery counted in the last day', async () => {
    const before = await fx.call('overview.site', { siteId: fx.site.id });
    expect(before.webhooks).toEqual({ copiedAt: null, value: { hooks: 0, enabled: 0, failedLastDay: 0, partial: false, unread: 0 } });
    const rx = await startReceiver();
    try {
      rx.status = 500;
      const made = await fx.call('webhooks.create', { siteId: fx.site.id, url: rx.url, events: ['*'] });
      const sent = await fx.call('webhooks.test', { siteId: fx.site.id, id: made.hook.id });
      expect(sent.delivery).toMatchObject({ success: false });
      const after = await fx.call('overview.site', { siteId: fx.site.id });
      expect(after.webhooks).toEqual({ copiedAt: null, value: { hooks: 1, enabled: 1, failedLastDay: 1, partial: false, unread: 0 } });
      await fx.call('webhooks.delete', { siteId: fx.site.id, id: made.hook.id });
    } finally {
      await rx.close();
    }
  });

  test('a viewer: what the account may not read is skipped with the permission named', async () => {
    const g = await fx.call('overview.site', { siteId: viewer.id });
    expect(g.reachable).toBe(true);
    expect(g.version).toEqual(expect.any(String));
    expect(g.scheduler).toEqual({ skipped: 'This account may not read it (api.scheduler.read).' });
    expect(g.updates).toEqual({ skipped: 'This account may not read it (api.gpm.read).' });
    expect(g.webhooks).toEqual({ skipped: 'This account may not read it (api.webhooks.read).' });
    // document 2's /me names the mailer's permissions; the real one lists only api.* (the site decides, and Mailroom here has no overview)
    expect(g.mailer).toEqual({ skipped: flavor === 'real' ? 'The site does not offer this.' : expect.stringMatching(/lacks the mailer\.view or mailroom\.view permission/) });
  });

  test('signed out: every part skipped; the site is still asked whether it answers', async () => {
    const out = await fx.call('sites.add', { name: 'Signed out', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'password' });
    const g = await fx.call('overview.site', { siteId: out.id });
    expect(g.reachable).toBe(true);
    for (const part of [g.updates, g.scheduler, g.webhooks, g.demo, g.mailer]) expect(part).toEqual({ skipped: expect.stringMatching(/Not signed in|does not read this yet/) });
    await fx.call('sites.remove', { id: out.id });
  });

  test('the site away: not reachable, the parts from the copy with its time', async () => {
    await fx.call('overview.site', { siteId: fx.site.id });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const g = await fx.call('overview.site', { siteId: fx.site.id });
      expect(g.reachable).toBe(false);
      expect(g.updates).toMatchObject({ copiedAt: expect.any(String) });
      expect(g.scheduler).toMatchObject({ copiedAt: expect.any(String) });
      expect(g.demo).toMatchObject({ copiedAt: expect.any(String) });
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('a site that is not there is refused', async () => {
    const err = await fx.fails('overview.site', { siteId: '00000000-0000-4000-8000-000000000000' });
    expect(err.code).toBe('not_found');
  });
});
