/**
 * Reads while the site is away (issue 20): once a request to the site got no answer, the copy
 * answers at once and the site is not asked again for every read, only probed in the background;
 * the first read after the site stops is tried once, not retried. A level copied by "Make available
 * offline" but never opened online comes in the site's own order. When the site is back, the next
 * step of the person notices it. Against the CMS sandbox in both flavours, stopped for real
 * (connection refused) and started again on the same port.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import { cmsPages } from '../../electron/api/cms/pages';
import type { Site } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { Transport } from '../../electron/api/transport';
import { mirrored, withHost, type DemoHost } from '../support/demo-host';
import { adminApi, hostCalls } from '../support/host-calls';
import { UNHURRIED } from '../support/limits';
import { until as untilAny } from '../support/until';
import { flavors } from '../support/flavors';
import { tempDir } from '../support/tmp';

const until = <T>(what: () => Promise<T>, ok: (x: T) => boolean, ms = 60_000) => untilAny(what, ok, ms);

describe.each(flavors)('%s flavour', (flavor) => {
  let cms: CmsSandbox | undefined;
  let siteDir: ReturnType<typeof tempDir>;
  let fx: DemoHost;
  let host: Host;
  let site: Site;
  let port: number;
  let apiKey: string;
  /** Requests the Host sent to the site (answered or not). */
  const sent: string[] = [];
  const { call } = hostCalls(() => host);
  const counting: typeof fetch = (input, init) => {
    sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  // a copy of the whole demo site is 500-odd reads: the real flavour's bucket is raised so it takes seconds
  const startSite = (p?: number) =>
    startCmsSandbox({ flavor, seed: 'demo', content: 'demo', dataDir: siteDir.path, ...UNHURRIED, ...(p ? { port: p } : {}) });

  beforeAll(async () => {
    siteDir = tempDir('sitedesk-offline-reads-site-');
    cms = await startSite();
    port = Number(new URL(cms.url).port);
    apiKey = cms.seeded!.adminApiKey!;
    // the test stops and restarts the site itself, so it starts it and the fixture leaves it alone
    fx = await withHost({ cms, host: { fetch: counting } });
    ({ host, site } = fx);
  }, 60_000);
  afterAll(async () => {
    await fx.close();
    await cms?.close();
    siteDir.remove();
  });

  test('the site stopped: the copy answers at once, the site is asked once and then only probed', async () => {
    // online: the top level (read by the tree), then the whole site copied
    await call('pages.level', { siteId: site.id, route: '/' });
    expect(await mirrored(call, site.id, {}, { ms: 60_000 })).toMatchObject({ state: 'done' });
    // the blog as the tree shows it online, asked of the site past the Host (its own order: by date, newest first)
    const online = await cmsPages.list(adminApi(cms!), { childrenOf: '/blog', sort: 'default', perPage: 100, page: 1 });
    await cms!.close();
    cms = undefined;

    // the first read after the site stopped: one try (no retries), then the copy
    sent.length = 0;
    let t0 = performance.now();
    const first = await call('pages.get', { siteId: site.id, route: '/about/history' });
    const firstMs = performance.now() - t0;
    expect(first).toMatchObject({ title: 'History', cachedAt: expect.any(String) });
    expect(sent).toEqual(['GET /api/v1/pages/about/history']);
    expect(firstMs).toBeLessThan(200); // the retries alone waited 1.25 s

    // known away now: every read comes from the copy without a request to the site
    sent.length = 0;
    t0 = performance.now();
    const reads = [
      await call('pages.get', { siteId: site.id, route: '/about/history' }),
      await call('pages.get', { siteId: site.id, route: '/about/our team' }),
      await call('pages.get', { siteId: site.id, route: '/blog', lang: 'de' }),
    ];
    const blog = await call('pages.level', { siteId: site.id, route: '/blog' });
    const docs = await call('pages.level', { siteId: site.id, route: '/docs' });
    const list = await call('pages.list', { siteId: site.id, parent: '/docs', perPage: 10 });
    const langs = await call('translations.siteLanguages', { siteId: site.id });
    const readsMs = performance.now() - t0;
    expect(reads.every((p) => typeof p.cachedAt === 'string')).toBe(true);
    expect(list.cachedAt).toEqual(expect.any(String));
    expect(langs.cachedAt).toEqual(expect.any(String));
    expect(docs.items.map((p) => p.slug).slice(0, 2)).toEqual(['getting-started', 'installation']);
    // at most the background probe (GET /ping), never the reads themselves
    expect(sent.filter((r) => !r.endsWith('/ping'))).toEqual([]);
    expect(readsMs).toBeLessThan(500);

    // the blog's children were copied, never listed to the tree: the same order as online
    expect(blog.items.map((p) => p.route)).toEqual(online.items.map((p) => p.route).concat(blog.items.slice(100).map((p) => p.route)));
    expect(blog.items.slice(0, 3).map((p) => p.title)).toEqual(['Quiet garden (140)', 'Wild orchard (139)', 'Early forest (138)']);
    expect(blog.items.every((p) => typeof p.cachedAt === 'string')).toBe(true);
  }, 120_000);

  test('a folder whose pages were never copied says so; the site back on its address is noticed at the next read', async () => {
    // the site is still away: a folder below the copy's leaves was never listed, nor copied
    const err = await host.invoke('pages.level', { siteId: site.id, route: '/nowhere' });
    expect(err).toMatchObject({ ok: false, error: { code: 'network', message: expect.stringMatching(/^Not in the offline copy: the site is not answering/) } });

    cms = await startSite(port);
    // the same data folder: the same accounts and keys (a restarted sandbox seeds nothing)
    const again = new Transport({ baseUrl: cms.url, fetch, credentials: { headers: async () => ({ 'X-API-Key': apiKey }), unauthorized: async () => false } });
    await cmsPages.update(again, '/about/history', { content: '# History\n\nChanged while Sitedesk was away.\n' });
    // the next read still comes from the copy (the site is known away) and probes it; the one after reads the site
    await call('pages.get', { siteId: site.id, route: '/about/history' });
    const fresh = await until(
      () => call('pages.get', { siteId: site.id, route: '/about/history' }),
      (p) => p.cachedAt === undefined,
      10_000,
    );
    expect(fresh.content).toContain('Changed while Sitedesk was away.');
    expect((await call('sync.status', {})).find((s) => s.siteId === site.id)).toMatchObject({ online: true });
  }, 60_000);
});
