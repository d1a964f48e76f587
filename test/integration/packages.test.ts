/**
 * A site's packages through the Host against the sandbox's package world (both flavours): the
 * installed lists and the update summary (the copy while the site is away), readmes, the
 * repository, and the package work as jobs — an install with its dependency, a symlinked package
 * skipped, an update that fails said in words, update all per package, a symlinked core skipped, a
 * site that stops answering, one site at a time and its events; the updates across sites.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PackageJob } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { packageZip } from '../sandbox/cms/packages/controls';
import { baseRepository } from '../sandbox/cms/packages/catalog';

const ENDED = new Set(['done', 'failed', 'skipped']);

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED, packageWorkMs: 150 } });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const siteId = () => fx.site.id;
  /** Waits until every job given has ended; answers them as they ended. */
  async function ended(jobs: PackageJob[], ms = 20_000): Promise<PackageJob[]> {
    const ids = new Set(jobs.map((j) => j.id));
    const until = Date.now() + ms;
    for (;;) {
      const now = (await fx.call('packages.jobs', {})).filter((j) => ids.has(j.id));
      if (now.length === ids.size && now.every((j) => ENDED.has(j.state))) return jobs.map((j) => now.find((n) => n.id === j.id)!);
      if (Date.now() > until) throw new Error(`jobs still running: ${JSON.stringify(now.map((j) => [j.label, j.state]))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test('installed lists, the update summary, a readme (none for a package without), the repository', async () => {
    const installed = await fx.call('packages.installed', { siteId: siteId() });
    expect(installed.copiedAt).toBeNull();
    expect(installed.problems).toEqual([]);
    expect(installed.plugins.find((p) => p.slug === 'devtools')).toMatchObject({ symlink: true, updatable: false });
    expect(installed.plugins.find((p) => p.slug === 'email')).toMatchObject({ version: '5.0.3', updatable: true, availableVersion: '5.1.0' });
    expect(installed.themes.find((p) => p.slug === 'quark2')).toMatchObject({ type: 'theme', enabled: true });

    const summary = await fx.call('packages.updates', { siteId: siteId(), flush: true });
    expect(summary.core).toMatchObject({ installed: flavor === 'real' ? '2.0.7' : '1.8.0', available: flavor === 'real' ? '2.0.9' : '1.8.2', updatable: true, symlink: false });
    expect(summary.plugins.map((p) => p.slug)).toEqual(expect.arrayContaining(['email', 'sitemap']));
    expect(summary.plugins.map((p) => p.slug)).not.toContain('devtools');
    expect(summary.total).toBe(summary.plugins.length + summary.themes.length + 1);

    expect((await fx.call('packages.document', { siteId: siteId(), type: 'plugin', slug: 'email', which: 'readme' })).content).toMatch(/Email/);
    expect((await fx.call('packages.document', { siteId: siteId(), type: 'plugin', slug: 'problems', which: 'changelog' })).content).toBeNull();

    const page = await fx.call('packages.repository', { siteId: siteId(), type: 'plugin', perPage: 50 });
    expect(page.items).toHaveLength(50);
    expect(page.total).toBeGreaterThan(300);
    expect(page.next).toBe(2);
    const found = await fx.call('packages.repository', { siteId: siteId(), type: 'plugin', q: 'gallery-plus' });
    expect(found.items.map((p) => p.slug)).toContain('gallery-plus');
    expect(found.items.find((p) => p.slug === 'email')).toBeUndefined();
    const premium = await fx.call('packages.repositoryPackage', { siteId: siteId(), type: 'plugin', slug: 'seo-suite' });
    expect(premium).toMatchObject({ premium: true, installed: false });
  });

  test('work as jobs: an install with its dependency; a symlinked package skipped; a failing update said; one site at a time', async () => {
    const seq = fx.cms.events.list().at(-1)?.seq ?? 0;
    const jobs = await fx.call('packages.run', {
      jobs: [
        { kind: 'install', siteId: siteId(), slug: 'gallery-plus', type: 'plugin' },
        { kind: 'update', siteId: siteId(), slug: 'devtools' },
        { kind: 'update', siteId: siteId(), slug: 'sitemap' },
        { kind: 'update', siteId: siteId(), slug: 'email' },
      ],
    });
    expect(jobs.map((j) => j.state)).toEqual(['queued', 'queued', 'queued', 'queued']);
    const [install, dev, sitemap, email] = await ended(jobs);
    expect(install).toMatchObject({ state: 'done', label: 'Install gallery-plus on Demo' });
    expect(dev).toMatchObject({ state: 'skipped', message: expect.stringMatching(/symlink/) });
    expect(sitemap!.state).toBe('failed');
    expect(sitemap!.message).toMatch(new RegExp(new URL(fx.cms.url).host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(sitemap!.retry).toEqual({ kind: 'update', siteId: siteId(), slug: 'sitemap' });
    expect(email).toMatchObject({ state: 'done', fromVersion: '5.0.3', toVersion: '5.1.0' });
    // one at a time on a site: each started after the one before ended
    for (let i = 1; i < 4; i++) expect(Date.parse([install, dev, sitemap, email][i]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse([install, dev, sitemap, email][i - 1]!.endedAt!));
    const plugins = (await fx.call('packages.installed', { siteId: siteId() })).plugins.map((p) => p.slug);
    expect(plugins).toEqual(expect.arrayContaining(['gallery-plus', 'lightbox-core']));
    expect(fx.cms.events.list('onApiPackageInstalled').filter((e) => e.seq > seq).map((e) => e.data.package)).toContain('gallery-plus');
    // the job was reported as it went
    expect(fx.events.filter((e) => e.name === 'packages.job' && (e.payload as PackageJob).id === email!.id).map((e) => (e.payload as PackageJob).state)).toEqual(['queued', 'running', 'done']);

    // the cause gone, the retry works
    fx.cms.packages.knobs.failingUpdates = [];
    const [again] = await ended(await fx.call('packages.run', { jobs: [sitemap!.retry!] }));
    expect(again).toMatchObject({ state: 'done', toVersion: expect.any(String) });
  });

  test('update all answers per package; a symlinked core is skipped; a removal; a premium install without a licence is refused in words', async () => {
    fx.cms.packages.knobs.failingUpdates = ['login'];
    fx.cms.packages.knobs.coreSymlinked = true;
    try {
      const [all, upgrade, remove, premium] = await ended(
        await fx.call('packages.run', {
          jobs: [
            { kind: 'updateAll', siteId: siteId() },
            { kind: 'upgrade', siteId: siteId() },
            { kind: 'remove', siteId: siteId(), slug: 'markdown-notices' },
            { kind: 'install', siteId: siteId(), slug: 'seo-suite', type: 'plugin' },
          ],
        }),
      );
      expect(all!.state).toBe('done');
      expect(all!.results!.find((r) => r.package === 'login')).toMatchObject({ ok: false });
      expect(all!.results!.filter((r) => r.ok).length).toBeGreaterThan(0);
      expect(all!.message).toMatch(/failed/);
      expect(upgrade).toMatchObject({ state: 'skipped', message: expect.stringMatching(/symlink/) });
      expect(remove!.state).toBe('done');
      expect((await fx.call('packages.installed', { siteId: siteId() })).plugins.map((p) => p.slug)).not.toContain('markdown-notices');
      expect(premium).toMatchObject({ state: 'failed', message: expect.stringMatching(/licen[cs]e/i) });
    } finally {
      fx.cms.packages.knobs.failingUpdates = ['sitemap'];
      fx.cms.packages.knobs.coreSymlinked = false;
    }
  });

  test('install from a zip sent in pieces and from an address; the core upgraded with its versions', async () => {
    const zip = packageZip({ slug: 'zip-made', type: 'plugin', name: 'Zip Made', version: '0.3.0', description: 'Made in a test.', author: { name: 'Test', email: 't@example.test', url: 'https://example.test' } });
    const uploadId = 'zip-1';
    const half = Math.ceil(zip.length / 2);
    await fx.call('packages.uploadChunk', { uploadId, offset: 0, data: zip.subarray(0, half).toString('base64') });
    expect(await fx.call('packages.uploadChunk', { uploadId, offset: half, data: zip.subarray(half).toString('base64') })).toEqual({ received: zip.length });
    // the real service downloads only from the official repository unless told otherwise
    fx.cms.packages.knobs.officialGpmOnly = false;
    const installedNow = new Set((await fx.call('packages.installed', { siteId: siteId() })).plugins.map((p) => p.slug));
    const fromRepo = baseRepository().find((p) => p.type === 'plugin' && !p.premium && !installedNow.has(p.slug) && p.dependencies.every((d) => d.name === 'grav'))!.slug;
    const [fromZip, fromUrl, notZip, upgrade] = await ended(
      await fx.call('packages.run', {
        jobs: [
          { kind: 'directZip', siteId: siteId(), uploadId, filename: 'zip-made.zip' },
          { kind: 'directUrl', siteId: siteId(), url: `${fx.cms.origin}/__sandbox/packages/${fromRepo}.zip` },
          { kind: 'directZip', siteId: siteId(), uploadId: 'never-sent', filename: 'x.zip' },
          { kind: 'upgrade', siteId: siteId() },
        ],
      }),
    );
    expect(fromZip).toMatchObject({ state: 'done', label: 'Install zip-made.zip on Demo', retry: null });
    expect((await fx.call('packages.installed', { siteId: siteId() })).plugins.map((p) => p.slug)).toContain('zip-made');
    expect(fromUrl).toMatchObject({ state: 'done', label: `Install from ${fx.cms.origin}/__sandbox/packages/${fromRepo}.zip on Demo` });
    expect((await fx.call('packages.installed', { siteId: siteId() })).plugins.map((p) => p.slug)).toContain(fromRepo);
    expect(notZip).toMatchObject({ state: 'failed', message: expect.stringMatching(/bytes are not here/) });
    expect(upgrade).toMatchObject({ state: 'done', fromVersion: flavor === 'real' ? '2.0.7' : '1.8.0', toVersion: flavor === 'real' ? '2.0.9' : '1.8.2' });
    expect((await fx.call('packages.updates', { siteId: siteId(), flush: true })).core).toMatchObject({ installed: flavor === 'real' ? '2.0.9' : '1.8.2', updatable: false });
  });

  test('the site away: the lists from the copy with their time; work said to perhaps have happened, never queued; the updates across sites say it', async () => {
    await fx.call('packages.installed', { siteId: siteId() });
    await fx.call('packages.updates', { siteId: siteId() });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('packages.installed', { siteId: siteId() });
      expect(copy.copiedAt).toEqual(expect.any(String));
      const [job] = await ended(await fx.call('packages.run', { jobs: [{ kind: 'install', siteId: siteId(), slug: 'breadcrumbs-lite', type: 'plugin' }] }), 60_000);
      expect(['failed', 'skipped']).toContain(job!.state);
      expect(job!.message).toMatch(/may have installed it|not answering/);
      expect(await fx.call('sync.outbox', { siteId: siteId() })).toEqual([]);
      const across = await fx.call('packages.updatesAcross', { siteIds: [siteId()] });
      expect(across[0]!.skipped).toMatch(/not answering/);
    } finally {
      fx.cms.faults.clear();
    }
  });
});
