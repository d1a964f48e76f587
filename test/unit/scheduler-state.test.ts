/**
 * The Scheduler area's state without a browser: jobs and status read together (the copy's time
 * while the site is away, the history then not asked for), the history page by page, a forced run
 * leaving each job in its resulting state, a lost answer turned into the question and `again` sent
 * only when the person says so, and Run disabled with the reason (the copy, a reader, a demo account).
 */
import { describe, expect, test } from 'vitest';
import type { JobRun, Me, SchedulerJob, SchedulerStatus } from '../../electron/contract/index';
import { HIDDEN_IN_DEMO, SchedulerState } from '../../renderer/views/scheduler/scheduler.svelte';
import { FakeHost, settle, type Handler } from './support/fake-host';

const job = (id: string, over: Partial<SchedulerJob> = {}): SchedulerJob => ({ id, command: `Jobs::${id}`, expression: '*/15 * * * *', words: 'Every 15 minutes (UTC)', nextRuns: ['2026-11-24T10:15:00.000Z'], enabled: true, status: 'pending', lastRun: null, error: null, ...over });
const STATUS: SchedulerStatus = { crontab: 'not_installed', cronCommand: '(crontab -l; echo "* * * * * cd /var/www;/usr/bin/php bin/grav scheduler 1>> /dev/null 2>&1") | crontab -', schedulerCommand: 'cd /var/www;/usr/bin/php bin/grav scheduler', whoami: 'www-data', health: null, webhookInstalled: false, webhookEnabled: false };

class SchedulerHost extends FakeHost {
  copiedAt: string | null = null;
  runs: { force: boolean; again: boolean }[] = [];
  loseNext = false;
  history: JobRun[] = Array.from({ length: 120 }, (_, i) => ({ jobId: `job-${i}`, status: i % 3 ? 'success' : 'failure', lastRun: new Date(Date.UTC(2026, 10, 24, 10, 0, 0) - i * 60_000).toISOString(), error: i % 3 ? null : 'boom' }));
  handlers: Record<string, Handler> = {
    'scheduler.jobs': () => ({ jobs: [job('sitemap-refresh'), job('feed-import'), job('backup', { enabled: false, nextRuns: [] })], copiedAt: this.copiedAt }),
    'scheduler.status': () => ({ ...STATUS, copiedAt: this.copiedAt }),
    'scheduler.history': (i) => {
      if (this.copiedAt) throw { code: 'network', message: 'The site did not answer.' };
      const page = Number(i.page);
      const per = Number(i.perPage);
      const items = this.history.slice((page - 1) * per, page * per);
      return { items, total: this.history.length, page, perPage: per, next: page * per < this.history.length ? page + 1 : null };
    },
    'scheduler.run': (i) => {
      if (this.loseNext && !i.again) {
        this.loseNext = false;
        throw { code: 'conflict', message: 'The site may already have run its jobs: the answer to the run at 10:07 was lost. Look at the history first; run again only if they did not run.' };
      }
      this.runs.push({ force: Boolean(i.force), again: Boolean(i.again) });
      const at = '2026-11-24T10:07:00.000Z';
      return { message: 'Scheduler run completed.', forced: Boolean(i.force), states: [{ jobId: 'sitemap-refresh', status: 'success', lastRun: at, error: null }, { jobId: 'feed-import', status: 'failure', lastRun: at, error: 'The feed did not answer.' }] };
    },
  };
}

const me = (over: Partial<Me> = {}): Me => ({ username: 'a', fullname: '', email: '', avatarUrl: null, superAdmin: false, access: { 'api.access': true, 'api.scheduler.read': true, 'api.scheduler.write': true }, contentEditor: '', cmsVersion: null, adminVersion: null, ...over });

describe('the scheduler area’s state', () => {
  test('jobs and status at once, the crontab line; the history page by page', async () => {
    const host = new SchedulerHost();
    const s = new SchedulerState('s1');
    await s.load();
    expect(s.jobs?.map((j) => j.id)).toEqual(['sitemap-refresh', 'feed-import', 'backup']);
    expect(s.status?.crontab).toBe('not_installed');
    expect(s.cronLine).toContain('bin/grav scheduler');
    expect(s.copiedAt).toBeNull();
    expect(s.history).toHaveLength(50);
    expect(s.historyTotal).toBe(120);
    await s.loadMoreHistory();
    await s.loadMoreHistory();
    expect(s.history).toHaveLength(120);
    expect(s.historyNext).toBeNull();
    await s.loadMoreHistory();
    expect(host.calls.filter((c) => c.channel === 'scheduler.history').map((c) => c.input.page)).toEqual([1, 2, 3]);
  });

  test('a forced run leaves each job in its resulting state', async () => {
    const host = new SchedulerHost();
    const s = new SchedulerState('s1');
    await s.load();
    expect(await s.run('all')).toBe(true);
    expect(host.runs).toEqual([{ force: true, again: false }]);
    expect(s.lastRun?.forced).toBe(true);
    expect(s.jobs?.find((j) => j.id === 'feed-import')).toMatchObject({ status: 'failure', error: 'The feed did not answer.', lastRun: '2026-11-24T10:07:00.000Z' });
    expect(s.jobs?.find((j) => j.id === 'sitemap-refresh')?.status).toBe('success');
    expect(s.stateAfterRun('backup')).toBeNull();
  });

  test('a lost answer asks; again is sent only when the person says so', async () => {
    const host = new SchedulerHost();
    const s = new SchedulerState('s1');
    await s.load();
    host.loseNext = true;
    expect(await s.run('all')).toBe(false);
    expect(s.lost).toMatchObject({ kind: 'all', message: expect.stringMatching(/may already have run/) });
    expect(s.runError).toBeNull();
    expect(host.runs).toEqual([]);
    s.dismissLost();
    expect(s.lost).toBeNull();
    expect(host.calls.filter((c) => c.channel === 'scheduler.run').every((c) => c.input.again === undefined)).toBe(true);

    host.loseNext = true;
    await s.run('due');
    expect(await s.runAgain()).toBe(true);
    expect(host.runs).toEqual([{ force: false, again: true }]);
  });

  test('the site away: the copy’s time, no history asked for, Run disabled with the reason', async () => {
    const host = new SchedulerHost();
    host.copiedAt = '2026-11-24T09:00:00.000Z';
    const s = new SchedulerState('s1');
    await s.load();
    await settle();
    expect(s.away).toBe(true);
    expect(s.copiedAt).toBe('2026-11-24T09:00:00.000Z');
    expect(host.calls.some((c) => c.channel === 'scheduler.history')).toBe(false);
    expect(s.runBlocked(me())).toMatch(/not answering/);
  });

  test('Run: a reader and a demo account are told why; the command line hidden from a demo account is not offered', async () => {
    new SchedulerHost();
    const s = new SchedulerState('s1');
    await s.load();
    expect(s.runBlocked(me())).toBeNull();
    expect(s.runBlocked(me({ access: { 'api.access': true, 'api.scheduler.read': true } }))).toBe('This account may look at the scheduler but not run it (it lacks api.scheduler.write).');
    const demo = me({ superAdmin: true, access: { 'api.super': true, 'api.demo': true }, demoMode: { enabled: true, writable: ['api.pages.write', 'api.media.write'], resetInterval: 30, secondsUntilReset: 600 } });
    expect(s.runBlocked(demo)).toBe('Demo accounts cannot run the scheduler on this site (demo mode).');
    s.status = { ...STATUS, cronCommand: HIDDEN_IN_DEMO, whoami: HIDDEN_IN_DEMO };
    expect(s.cronLine).toBeNull();
  });
});
