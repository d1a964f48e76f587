/**
 * A site's dashboard through the Host against the sandbox (both flavours): the four parts at once,
 * a notification hidden for the account and back after its `reappear_after` on the sandbox's
 * clock, the copy while the site is away (a hide refused then, nothing queued).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED } });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const siteId = () => fx.site.id;

  test('stats, 14 days of views with the top pages, notifications by location, the feed', async () => {
    fx.cms.ops.dashboard.addViews('/blog', 50_000); // more than any seeded page
    const view = await fx.call('dashboard.view', { siteId: siteId() });
    expect(view.problems).toEqual([]);
    expect(view.copiedAt).toBeNull();
    expect(view.stats?.pages).toBeGreaterThan(0);
    expect(view.stats?.cmsVersion).toEqual(expect.any(String));
    expect(view.popularity?.days).toHaveLength(14);
    expect(view.popularity?.top[0]).toMatchObject({ route: '/blog' });
    expect(view.popularity?.today).toBeGreaterThanOrEqual(50_000);
    expect(view.notifications.map((n) => n.id)).toEqual(expect.arrayContaining(['login-untrusted-host', 'grav-2-1-beta']));
    expect(view.notifications.find((n) => n.id === 'grav-2-1-beta')).toMatchObject({ location: 'dashboard', action: { label: 'Read the notes', url: expect.stringMatching(/^https:/) }, reappearAfter: '+1 day' });
    expect(view.feed.length).toBeGreaterThan(0);
    expect(view.feed.length).toBeLessThanOrEqual(10);
  });

  test('a notification hidden for the account comes back after its reappear_after', async () => {
    expect(await fx.call('dashboard.hide', { siteId: siteId(), id: 'grav-2-1-beta' })).toEqual({ id: 'grav-2-1-beta' });
    expect((await fx.call('dashboard.view', { siteId: siteId() })).notifications.map((n) => n.id)).not.toContain('grav-2-1-beta');
    fx.cms.clock.advance(25 * 3600_000);
    expect((await fx.call('dashboard.view', { siteId: siteId() })).notifications.map((n) => n.id)).toContain('grav-2-1-beta');
  });

  test('the site away: the copy with its time; a hide refused with the reason', async () => {
    await fx.call('dashboard.view', { siteId: siteId() });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('dashboard.view', { siteId: siteId() });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.stats).not.toBeNull();
      const err = await fx.fails('dashboard.hide', { siteId: siteId(), id: 'premium-sale' });
      expect(err.message).toMatch(/The notification was not hidden; it is never sent later/);
    } finally {
      fx.cms.faults.clear();
    }
  });
});
