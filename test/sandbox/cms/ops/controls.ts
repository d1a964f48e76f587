/**
 * The operations' test controls under `/__sandbox` (see ../control-routes.ts):
 *
 *   GET|POST  /__sandbox/ops               the knobs {scheduler: {crontab, failingJobs}, demo: {writable,
 *                                          resetInterval, resetOnRequest, resetOnSchedule, writableRoot}}
 *                                          (POST changes the ones sent) with the scheduler's last run
 *                                          and demo mode's status
 *   POST      /__sandbox/ops/jobs          {id, expression, command?, enabled?}: adds a job or changes one
 *                                          (a bad cron expression is a 400 naming what is wrong)
 *   POST      /__sandbox/ops/views         {route, count?}: page views now, for the dashboard's popularity
 */
import { badControl } from '../../control';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { CronError, parseCron } from './cron';
import type { DemoKnobs } from './demo';
import type { CrontabStatus, SchedulerKnobs } from './scheduler';

const CRONTAB: readonly CrontabStatus[] = ['not_installed', 'installed', 'error', 'unknown'];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');

export function registerOpsControls(router: Router, ctx: CmsContext): void {
  const { scheduler, demo, dashboard } = ctx.ops;
  const view = () => ({ scheduler: { ...scheduler.knobs, lastRun: scheduler.lastRun }, demo: { ...demo.knobs, status: demo.status(), resets: demo.resets } });

  router.on('GET', '/ops', (_req, res) => json(res, 200, { data: view() }));
  router.on('POST', '/ops', async (req, res) => {
    const body = await readBody(req);
    const s = body.scheduler;
    const d = body.demo;
    if (s !== undefined && !isObj(s)) throw badControl('scheduler must be an object.');
    if (d !== undefined && !isObj(d)) throw badControl('demo must be an object.');
    const sk: Partial<SchedulerKnobs> = {};
    if (s?.crontab !== undefined) {
      if (!CRONTAB.includes(s.crontab as CrontabStatus)) throw badControl(`scheduler.crontab must be one of ${CRONTAB.join(', ')}.`);
      sk.crontab = s.crontab as CrontabStatus;
    }
    if (s?.failingJobs !== undefined) {
      if (!strings(s.failingJobs)) throw badControl('scheduler.failingJobs must be a list of job ids.');
      sk.failingJobs = s.failingJobs as string[];
    }
    const dk: Partial<DemoKnobs> = {};
    if (d?.writable !== undefined) {
      if (!strings(d.writable)) throw badControl('demo.writable must be a list of permissions.');
      dk.writable = d.writable as string[];
    }
    if (d?.resetInterval !== undefined) {
      if (typeof d.resetInterval !== 'number' || !Number.isInteger(d.resetInterval)) throw badControl('demo.resetInterval must be a whole number of minutes.');
      dk.resetInterval = d.resetInterval;
    }
    for (const k of ['resetOnRequest', 'resetOnSchedule', 'writableRoot'] as const) {
      if (d?.[k] === undefined) continue;
      if (typeof d[k] !== 'boolean') throw badControl(`demo.${k} must be a boolean.`);
      dk[k] = d[k];
    }
    Object.assign(scheduler.knobs, sk);
    Object.assign(demo.knobs, dk);
    json(res, 200, { data: view() });
  });

  router.on('POST', '/ops/jobs', async (req, res) => {
    const body = await readBody(req);
    if (typeof body.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(body.id)) throw badControl('id must be a job id (a-z, 0-9, -).');
    if (typeof body.expression !== 'string') throw badControl('expression must be a cron expression.');
    try {
      parseCron(body.expression);
    } catch (e) {
      if (e instanceof CronError) throw badControl(`expression: ${e.message}`);
      throw e;
    }
    if (body.enabled !== undefined && typeof body.enabled !== 'boolean') throw badControl('enabled must be a boolean.');
    const job = { id: body.id, command: typeof body.command === 'string' ? body.command : `Sandbox\\Jobs::${body.id}`, expression: body.expression, enabled: body.enabled !== false };
    const i = scheduler.jobs.findIndex((j) => j.id === job.id);
    if (i >= 0) scheduler.jobs[i] = job;
    else scheduler.jobs.push(job);
    json(res, 200, { data: job });
  });

  router.on('POST', '/ops/views', async (req, res) => {
    const body = await readBody(req);
    if (typeof body.route !== 'string' || !body.route.startsWith('/')) throw badControl('route must be a page route (/…).');
    const count = body.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) throw badControl('count must be a positive whole number.');
    dashboard.addViews(body.route, count);
    json(res, 200, { data: dashboard.popularity() });
  });
}
