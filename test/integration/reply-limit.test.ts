/**
 * A site whose answer never ends (the CMS sandbox's `oversized` fault: a JSON start streamed on
 * far past every cap): the Host's call ends with the clear "larger than Sitedesk reads" error
 * naming the host and the cap, its memory grows by far less than what the site would send, the
 * connection is let go, and the Host keeps answering (the same call once the site is sane again).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withHost, type DemoHost } from '../support/demo-host';

const MiB = 1024 * 1024;
/** What the site would send if the Host read on: far past the largest cap (64 MiB). */
const SENT = 384 * MiB;

let fx: DemoHost;
beforeAll(async () => {
  fx = await withHost();
});
afterAll(async () => {
  await fx.close();
});

describe('an answer larger than Sitedesk reads', () => {
  test.each([
    ['a page', 'GET /pages/*', 'pages.get' as const, { route: '/about' }, 'a page (32 MiB)'],
    ['a list', 'GET /pages', 'pages.list' as const, { parent: '/about', perPage: 10 }, 'an answer (16 MiB)'],
  ])('%s: refused at its cap with a clear error, memory bounded, the Host answers on', async (_what, route, channel, input, words) => {
    const { cms, site, fails, call } = fx;
    const host = new URL(cms.origin).host;
    const before = process.memoryUsage().rss;
    cms.faults.set({ route, oversized: { bytes: SENT } });
    const started = performance.now();
    const err = await fails(channel, { siteId: site.id, ...input } as never);
    const grew = process.memoryUsage().rss - before;
    expect(err.code).toBe('bad_response');
    expect(err.message).toContain(`${host} sent an answer larger than Sitedesk reads for ${words}; it was not read`);
    // the read stopped at the cap: far less than the site was sending, and no 15 s timeout
    expect(grew).toBeLessThan(SENT / 3);
    expect(performance.now() - started).toBeLessThan(10_000);
    cms.faults.clear();
    if (channel === 'pages.get') expect((await call('pages.get', { siteId: site.id, route: '/about' })).title).toBeTruthy();
    else expect((await call('pages.list', { siteId: site.id, parent: '/about', perPage: 10 })).items.length).toBeGreaterThan(0);
  });
});
