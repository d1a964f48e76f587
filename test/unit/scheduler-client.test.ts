/** The scheduler client over the real service's recorded replies, and a job put in words. */
import { describe, expect, test } from 'vitest';
import { cmsScheduler } from '../../electron/api/cms/scheduler';
import { explainJob } from '../../electron/scheduler/service';
import { recorded, reply, transport } from './support/recorded-replies';

describe('the scheduler client', () => {
  test('the recorded jobs, each in words with its next runs (none for a job that is off)', async () => {
    const { t } = transport(() => recorded('47-scheduler-jobs'));
    const jobs = await cmsScheduler.jobs(t);
    expect(jobs.map((j) => j.id)).toEqual(['cache-purge', 'cache-clear', 'default-site-backup']);
    const now = new Date('2026-11-23T20:09:44Z');
    expect(explainJob(jobs[0]!, now)).toMatchObject({ expression: '0 4 * * *', words: 'At 04:00, every day (UTC)', nextRuns: ['2026-11-24T04:00:00.000Z', '2026-11-25T04:00:00.000Z', '2026-11-26T04:00:00.000Z'], status: 'pending' });
    expect(explainJob(jobs[2]!, now)).toMatchObject({ enabled: false, nextRuns: [] });
    expect(explainJob({ ...jobs[0]!, expression: 'every day' }, now).words).toMatch(/^Sitedesk cannot read this expression: A cron expression has five fields/);
  });

  test('the recorded status: the crontab in error, its command, the health', async () => {
    const { t } = transport(() => recorded('48-scheduler-status'));
    expect(await cmsScheduler.status(t)).toMatchObject({ crontab: 'error', cronCommand: expect.stringMatching(/bin\/grav scheduler/), whoami: 'root', health: { status: 'healthy', lastRunAgeS: 131, failedJobs24h: 0, jobsDue: 0 }, webhookInstalled: false });
  });

  test('the recorded empty history; a run answering each job’s state from epoch seconds', async () => {
    const empty = transport(() => recorded('49-scheduler-history'));
    expect(await cmsScheduler.history(empty.t, { page: 1, perPage: 20 })).toEqual({ items: [], total: 0, page: 1, perPage: 20, next: null });
    const run = transport(() => reply({ data: { message: 'Scheduler run completed.', forced: true, job_states: { 'cache-clear': { state: 'success', 'last-run': 1795464584 }, broken: { state: 'failure', 'last-run': 1795464584, error: 'boom' } } } }));
    expect(await cmsScheduler.run(run.t, true)).toEqual({
      message: 'Scheduler run completed.',
      forced: true,
      states: [
        { jobId: 'cache-clear', status: 'success', lastRun: '2026-11-23T20:09:44.000Z', error: null },
        { jobId: 'broken', status: 'failure', lastRun: '2026-11-23T20:09:44.000Z', error: 'boom' },
      ],
    });
    expect(run.seen[0]).toMatchObject({ method: 'POST', path: '/scheduler/run', body: { force: true } });
    const recordedRun = transport(() => recorded('79-scheduler-run'));
    expect(await cmsScheduler.run(recordedRun.t, false)).toEqual({ message: 'Scheduler run completed.', forced: false, states: [] });
  });
});
