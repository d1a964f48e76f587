/**
 * Auto-sync when back online (issue 5, on by default): a site that stops answering is shown
 * offline and probed; when it answers again its outbox is pushed without anyone pressing a button.
 * Also across a restart with changes queued while offline, and not at all when switched off.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import { cmsPages } from '../../electron/api/cms/pages';
import type { Site, SyncSiteStatus } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { withHost, type DemoHost } from '../support/demo-host';
import { until as untilAny } from '../support/until';
import { flavors } from '../support/flavors';
import { adminApi, hostCalls } from '../support/host-calls';

let cms: CmsSandbox;
let host: Host;
let site: Site;
let fx: DemoHost;

const { call } = hostCalls(() => host);
/** the sync statuses of the demo site the Host announced, in order */
const statuses = () => fx.events.filter((e) => e.name === 'sync.status').flatMap((e) => (e.payload as SyncSiteStatus[]).filter((s) => s.siteId === site.id));
const server = () => adminApi(cms);
const serverContent = async (route: string) => ((await cmsPages.get(server(), route)) as { content: string }).content;
const mine = async () => (await call('sync.status', {})).find((s) => s.siteId === site.id)!;

const until = <T>(what: () => Promise<T>, ok: (x: T) => boolean, ms = 15_000) => untilAny(what, ok, ms, 50);

/** An edit made while the site does not answer: saved locally, the push stops offline. */
async function editOffline(route: string, content: string) {
  const page = await call('pages.get', { siteId: site.id, route });
  cms.faults.set({ route: '*', drop: true });
  await call('drafts.save', { siteId: site.id, route, title: page.title, header: page.header, content });
  expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 0, stopped: { reason: 'offline' } });
  expect(await mine()).toMatchObject({ pending: 1, online: false });
}

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor } });
    ({ cms, host, site } = fx);
  });
  afterAll(() => fx.close());

  describe('auto-sync when back online', () => {
    test('the site answers again: its outbox goes out by itself, and the status says online again', async () => {
      fx.events.length = 0;
      await editOffline('/about/history', 'Written on a train.');
      cms.faults.clear();
      const back = await until(mine, (s) => s.pending === 0);
      expect(back).toMatchObject({ online: true, conflicted: 0 });
      expect(await serverContent('/about/history')).toBe('Written on a train.');
      // the renderer was told: offline first, then online, then nothing pending
      const told = statuses();
      const offlineAt = told.findIndex((s) => s.online === false);
      const onlineAt = told.findIndex((s, i) => i > offlineAt && s.online === true);
      expect(offlineAt).toBeGreaterThanOrEqual(0);
      expect(onlineAt).toBeGreaterThan(offlineAt);
      expect(told.at(-1)).toMatchObject({ pending: 0, online: true });
    });

    test('switched off: the site comes back, the change waits for a push', async () => {
      expect(await call('mirror.setSettings', { siteId: site.id, autoSync: false })).toMatchObject({ autoSync: false });
      try {
        await editOffline('/about/history', 'Kept until I press push.');
        cms.faults.clear();
        await until(mine, (s) => s.online === true);
        await new Promise((r) => setTimeout(r, 500));
        expect(await mine()).toMatchObject({ pending: 1 });
        expect(await serverContent('/about/history')).toBe('Written on a train.');
        expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 1, remaining: 0 });
      } finally {
        await call('mirror.setSettings', { siteId: site.id, autoSync: true });
      }
    });

    test('changes queued offline before a restart go out when the site answers after it', async () => {
      await editOffline('/about/history', 'Queued before the restart.');
      host = await fx.reopen(); // the site still drops every connection: the first probe fails
      await new Promise((r) => setTimeout(r, 300));
      expect(await mine()).toMatchObject({ pending: 1, online: false });
      cms.faults.clear();
      await until(mine, (s) => s.pending === 0);
      expect(await serverContent('/about/history')).toBe('Queued before the restart.');
    });
  });
});
