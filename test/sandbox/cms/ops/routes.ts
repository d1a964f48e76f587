/**
 * The operations routes of document 2 (scheduler, dashboard, demo mode), both flavours. Where the
 * document shows no shape they follow getgrav/grav-plugin-api (SchedulerController,
 * DashboardController, DemoController; recordings 47–53, 58, 79):
 *
 *   GET  /scheduler/jobs          api.scheduler.read; [{id, command, expression, enabled, status, last_run, error}];
 *                                 records onSchedulerInitialized
 *   GET  /scheduler/status        api.scheduler.read; {crontab_status, cron_command, scheduler_command, whoami,
 *                                 health, triggers, webhook_installed, webhook_enabled}; the command lines
 *                                 and whoami read `(hidden in demo mode)` for a demo account
 *   GET  /scheduler/history       api.scheduler.read; paged (default 20). Spec: every job run, newest
 *                                 first. Real: one record per job, its last state (the plugin reads the
 *                                 job-state file, not a log)
 *   POST /scheduler/run           api.scheduler.write; {force}; {message, forced, job_states: {id: {state,
 *                                 last-run[, error]}}}. Spec: `force` must be a boolean (400); real: read
 *                                 as PHP's FILTER_VALIDATE_BOOLEAN, and no state at all is `[]`
 *   GET  /dashboard/stats, /dashboard/popularity, /dashboard/feed
 *                                 spec: authenticated; real: api.system.read
 *   GET  /dashboard/notifications spec: authenticated; real: api.system.read. ?location=, ?force=; records
 *                                 onApiDashboardNotifications. Spec: all three groups always present;
 *                                 real: only groups with notices (none: `[]`)
 *   POST /dashboard/notifications/{id}/hide
 *                                 api.system.write; 204
 *   GET  /demo/status             any authenticated caller
 *   POST /demo/baseline, /demo/reset
 *                                 a super admin (scoped keys need `admin.super`); demo accounts get the
 *                                 plugin's 403 `Demo Mode` body. Spec: `api.super`; real: the plugin's
 *                                 requirePermission('admin.super'), which also lets an account with
 *                                 `admin.super` and `api.access` through. A reset with no baseline:
 *                                 spec changes nothing (no event, no header); real still fires
 *                                 onApiDemoReset and sends `X-Invalidates: demo:status`
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem, json, readBody, type Router } from '../../http';
import { isSuper, resolveExact, scopesAllow } from '../access';
import type { CmsContext } from '../context';
import { authorize, demoRefusal, identify, requirePermission, type Principal } from '../credentials';
import { paged, pagingOf } from '../content/paging';
import { LOCATIONS } from './dashboard';
import { isoC, type JobState } from './scheduler';

const REDACTED = '(hidden in demo mode)';
const isDemo = (p: Principal) => resolveExact(p.account.access, 'api.demo') === true;

/** PHP's FILTER_VALIDATE_BOOLEAN: true for 1/true/on/yes, false for anything else. */
function phpBool(v: unknown): boolean {
  if (v === true) return true;
  if (typeof v === 'number') return v === 1;
  return typeof v === 'string' && ['1', 'true', 'on', 'yes'].includes(v.trim().toLowerCase());
}

export function registerOpsRoutes(router: Router, ctx: CmsContext): void {
  const real = ctx.flavor === 'real';
  const { scheduler, dashboard, demo } = ctx.ops;
  const dashboardRead = real ? 'api.system.read' : 'api.access';

  // ---- scheduler

  router.on('GET', '/scheduler/jobs', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.scheduler.read');
    ctx.events.record('onSchedulerInitialized', {});
    const data = scheduler.all().map((j) => {
      const s = scheduler.states.get(j.id);
      return { id: j.id, command: j.command, expression: j.expression, enabled: j.enabled, status: s?.state ?? 'pending', last_run: s ? isoC(s['last-run']) : null, error: s?.error ?? null };
    });
    json(res, 200, { data });
  });

  router.on('GET', '/scheduler/status', (req, res, _p, url) => {
    const caller = authorize(ctx, req, url, 'api.scheduler.read');
    const hide = isDemo(caller);
    const root = '/srv/site';
    json(res, 200, {
      data: {
        crontab_status: scheduler.knobs.crontab,
        cron_command: hide ? REDACTED : `(crontab -l; echo "* * * * * cd ${root};/usr/bin/php bin/grav scheduler 1>> /dev/null 2>&1") | crontab -`,
        scheduler_command: hide ? REDACTED : `cd ${root};/usr/bin/php bin/grav scheduler`,
        whoami: hide ? REDACTED : 'www-data',
        health: scheduler.health(),
        triggers: [],
        webhook_installed: false,
        webhook_enabled: false,
      },
    });
  });

  router.on('GET', '/scheduler/history', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.scheduler.read');
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const rows = real
      ? [...scheduler.states].map(([job_id, s]) => ({ job_id, status: s.state, at: s['last-run'], error: s.error ?? null })).sort((a, b) => b.at - a.at)
      : scheduler.log.map((h, i) => ({ job_id: h.job_id, status: h.status, at: h.last_run, error: h.error, i })).sort((a, b) => b.at - a.at || (b.i ?? 0) - (a.i ?? 0));
    const slice = rows.slice((page - 1) * perPage, page * perPage).map((r) => ({ job_id: r.job_id, status: r.status, last_run: isoC(r.at), error: r.error }));
    json(res, 200, paged(ctx.flavor, ctx.prefix, '/scheduler/history', slice, rows.length, page, perPage));
  });

  router.on('POST', '/scheduler/run', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.scheduler.write');
    const body = await readBody(req);
    let force: boolean;
    if (real) force = phpBool(body.force ?? false);
    else {
      if (body.force !== undefined && typeof body.force !== 'boolean') throw new HttpProblem(400, 'Bad Request', 'force must be a boolean.');
      force = body.force === true;
    }
    const states = scheduler.run(force);
    const jobStates: Record<string, JobState> = Object.fromEntries(states);
    json(res, 200, { data: { message: 'Scheduler run completed.', forced: force, job_states: real && states.size === 0 ? [] : jobStates } });
  });

  // ---- dashboard

  router.on('GET', '/dashboard/stats', (req, res, _p, url) => {
    authorize(ctx, req, url, dashboardRead);
    json(res, 200, { data: dashboard.stats() });
  });

  router.on('GET', '/dashboard/popularity', (req, res, _p, url) => {
    authorize(ctx, req, url, dashboardRead);
    json(res, 200, { data: dashboard.popularity() });
  });

  router.on('GET', '/dashboard/feed', (req, res, _p, url) => {
    authorize(ctx, req, url, dashboardRead);
    const { items, lastChecked } = dashboard.feed();
    json(res, 200, { data: { feed: items, last_checked: lastChecked === null ? null : isoC(lastChecked) } });
  });

  router.on('GET', '/dashboard/notifications', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, dashboardRead);
    const location = url.searchParams.get('location');
    const forceText = url.searchParams.get('force');
    if (!real && location !== null && !(LOCATIONS as readonly string[]).includes(location)) {
      throw new HttpProblem(400, 'Bad Request', `location must be one of ${LOCATIONS.join(', ')}.`);
    }
    const force = phpBool(forceText ?? '');
    const { groups, lastChecked } = dashboard.notifications(account.username, force);
    ctx.events.record('onApiDashboardNotifications', { notifications: groups, user: account.username, force });
    let out: Record<string, unknown> = groups;
    if (location) out = { [location]: groups[location] ?? [] };
    const empty = Object.keys(out).length === 0;
    json(res, 200, { data: { notifications: real && empty ? [] : out, last_checked: lastChecked === null ? null : isoC(lastChecked) } });
  });

  router.on('POST', '/dashboard/notifications/{id}/hide', (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, 'api.system.write');
    dashboard.hide(account.username, params.id!);
    res.writeHead(204).end();
  });

  // ---- demo mode

  const requireSuper = (req: IncomingMessage, url: URL): Principal => {
    const caller = identify(ctx, req, url);
    if (isDemo(caller)) throw demoRefusal();
    if (real) return requirePermission(ctx, caller, 'admin.super');
    if (!scopesAllow(caller.scopes, 'admin.super')) throw new HttpProblem(403, 'Forbidden', 'API key is not authorized for: admin.super');
    if (!isSuper(caller.account.access)) throw new HttpProblem(403, 'Forbidden', 'Super admin access is required.');
    return caller;
  };
  const invalidates = { 'X-Invalidates': 'demo:status' };

  router.on('GET', '/demo/status', (req, res, _p, url) => {
    identify(ctx, req, url);
    json(res, 200, { data: demo.status() });
  });

  router.on('POST', '/demo/baseline', (req, res, _p, url) => {
    requireSuper(req, url);
    if (!demo.capture()) {
      json(res, 200, { data: { captured: false, message: 'No writable demo resources are configured, so there is nothing to capture.', status: demo.status() } });
      return;
    }
    ctx.events.record('onApiDemoBaselineCaptured', { status: demo.status() });
    json(res, 200, { data: { captured: true, message: 'Demo baseline captured.', status: demo.status() } }, invalidates);
  });

  router.on('POST', '/demo/reset', (req, res, _p, url) => {
    requireSuper(req, url);
    const done = demo.reset();
    if (done || real) ctx.events.record('onApiDemoReset', { status: demo.status(), trigger: 'manual' });
    const data = { reset: done, message: done ? 'Demo content reset to baseline.' : 'Nothing to reset — capture a baseline first.', status: demo.status() };
    json(res, 200, { data }, done || real ? invalidates : {});
  });
}
