/**
 * A site's scheduler through the Host against the sandbox (both flavours): the jobs with their
 * expressions in words and next runs (on the sandbox's clock), the status and the crontab's health,
 * a run of the due jobs and of all (forced) with each job's state, the history, the copy while
 * the site is away and a run refused then, never queued.
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

  test('jobs in words with their next runs; the status; a forced run answers each job; the history', async () => {
    const { jobs, copiedAt } = await fx.call('scheduler.jobs', { siteId: siteId() });
    expect(copiedAt).toBeNull();
    const purge = jobs.find((j) => j.id === 'cache-purge')!;
    expect(purge).toMatchObject({ expression: '0 4 * * *', words: 'At 04:00, every day (UTC)', enabled: true });
    expect(purge.nextRuns).toHaveLength(3);
    expect(purge.nextRuns.every((t) => t.endsWith('T04:00:00.000Z'))).toBe(true);
    expect(jobs.find((j) => j.id === 'default-site-backup')).toMatchObject({ enabled: false, nextRuns: [] });
    expect(jobs.find((j) => j.id === 'sitemap-refresh')?.words).toBe('Every 15 minutes (UTC)');

    const status = await fx.call('scheduler.status', { siteId: siteId() });
    expect(status.crontab).toBe(flavor === 'real' ? 'error' : 'installed');
    expect(status.cronCommand).toEqual(expect.stringMatching(/scheduler/));

    const run = await fx.call('scheduler.run', { siteId: siteId(), force: true });
    expect(run.forced).toBe(true);
    const byId = Object.fromEntries(run.states.map((s) => [s.jobId, s]));
    expect(byId['feed-import']).toMatchObject({ status: 'failure' });
    expect(byId['sitemap-refresh']).toMatchObject({ status: 'success', lastRun: expect.any(String) });
    expect(byId['default-site-backup']?.status ?? 'pending').not.toBe('success'); // a job that is off never runs

    const history = await fx.call('scheduler.history', { siteId: siteId(), perPage: 50 });
    expect(history.items.map((h) => h.jobId)).toEqual(expect.arrayContaining(['feed-import', 'sitemap-refresh']));
    expect(history.items.find((h) => h.jobId === 'feed-import')).toMatchObject({ status: 'failure', error: expect.any(String) });
  });

  test('the site away: the jobs and status from the copy; a run refused with the reason, nothing queued', async () => {
    await fx.call('scheduler.status', { siteId: siteId() });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      expect((await fx.call('scheduler.jobs', { siteId: siteId() })).copiedAt).toEqual(expect.any(String));
      expect((await fx.call('scheduler.status', { siteId: siteId() })).copiedAt).toEqual(expect.any(String));
      const err = await fx.fails('scheduler.run', { siteId: siteId() });
      expect(err.message).toMatch(/The scheduler was not run; it is never sent later/);
      expect(await fx.call('sync.outbox', { siteId: siteId() })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
  });
});
