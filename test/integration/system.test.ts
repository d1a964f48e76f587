/**
 * A site's system panel through the Host against the CMS sandbox (both flavours): the information
 * and reports with the copy while the site is away, a cache clear per kind with the site's lines,
 * and a clear refused while the site is away (never queued) or to an account without the permission.
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

  test('information and reports, then the copy with its time while the site is away', async () => {
    const info = await fx.call('system.info', { siteId: fx.site.id });
    expect(info.copiedAt).toBeNull();
    expect(info.cmsVersion).toEqual(expect.any(String));
    expect(info.plugins.map((p) => p.name)).toEqual(expect.arrayContaining(['Team Notes']));
    expect(info.phpConfig.length).toBeGreaterThan(0);
    const { reports } = await fx.call('system.reports', { siteId: fx.site.id });
    expect(reports.map((r) => r.id)).toEqual(expect.arrayContaining(['security-check', 'twig-content', 'yaml-linter']));
    expect(reports.every((r) => ['success', 'warning', 'error', 'info'].includes(r.status))).toBe(true);

    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('system.info', { siteId: fx.site.id });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.cmsVersion).toBe(info.cmsVersion);
      expect((await fx.call('system.reports', { siteId: fx.site.id })).copiedAt).toEqual(expect.any(String));
      const err = await fx.fails('system.clearCache', { siteId: fx.site.id, scope: 'standard' });
      expect(err.message).toMatch(/The cache was not cleared; it is never sent later/);
      expect(await fx.call('sync.outbox', { siteId: fx.site.id })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('the cache cleared per kind, with what the site emptied; a clear fires its events', async () => {
    const seq = fx.cms.events.list().at(-1)?.seq ?? 0;
    const all = await fx.call('system.clearCache', { siteId: fx.site.id, scope: 'all' });
    expect(all).toMatchObject({ scope: 'all', message: expect.stringMatching(/all/) });
    expect(all.details.some((d) => d.startsWith('Cleared:'))).toBe(true);
    expect(all.details.join('\n')).not.toMatch(/<\/?red>/);
    // emptied already: a second clear finds nothing more to empty
    const again = await fx.call('system.clearCache', { siteId: fx.site.id, scope: 'standard' });
    expect(again.details.filter((d) => d.startsWith('Cleared:'))).toEqual([]);
    expect(fx.cms.events.list('onAfterCacheClear').filter((e) => e.seq > seq)).toHaveLength(2);
  });
});
