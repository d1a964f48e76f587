/**
 * The CMS sandbox's operations over real HTTP (document 2: scheduler, dashboard, demo mode), both
 * flavours: every route, its permission gate and codes, the scheduler's cron on the sandbox's
 * clock (due, failing, pending, forced), the dashboard's popularity and notifications with hide and
 * reappear_after, and demo mode's state table (capture, captured: false, manual, lazy and
 * scheduled resets, demo accounts' refused writes). Where the flavours differ the test says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, pagePath, pagination, SandboxClient, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const ok = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return r.body.data as any;
};
const MIN = 60_000;
/** The sandbox's clock is an offset on real time, so times read back may be a second or two on. */
const near = (actual: unknown, expected: number) => {
  expect(typeof actual).toBe('number');
  expect(Math.abs((actual as number) - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(3);
};
const sec = (ms: number) => Math.floor(ms / 1000);
// a Tuesday, seven minutes past ten (UTC)
const T0 = Date.parse('2026-11-24T10:07:00Z');

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let admin: SandboxClient;
  let viewer: SandboxClient;
  let reader: SandboxClient;
  let writer: SandboxClient;
  let sysReader: SandboxClient;
  let sysWriter: SandboxClient;
  let demoUser: SandboxClient;
  let anon: SandboxClient;
  const at = (ms: number) => sb.clock.set(ms - Date.now());

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'single' });
    at(T0);
    admin = new SandboxClient(sb);
    viewer = await admin.keyFor('viewer');
    reader = await admin.keyFor('schedreader', { access: { api: { access: true, scheduler: { read: true } } } });
    writer = await admin.keyFor('schedwriter', { access: { api: { access: true, scheduler: { read: true, write: true } } } });
    sysReader = await admin.keyFor('sysreader', { access: { api: { access: true, system: { read: true } } } });
    sysWriter = await admin.keyFor('syswriter', { access: { api: { access: true, system: { read: true, write: true } } } });
    // a demo visitor is usually a super admin too: demo mode must hold anyway
    demoUser = await admin.keyFor('visitor', { access: { api: { access: true, super: true, demo: true } } });
    anon = admin.as({ none: true });
  });
  afterAll(() => sb?.close());

  describe('scheduler', () => {
    test('every route needs a credential and the scheduler permission', async () => {
      for (const [m, p] of [['GET', '/scheduler/jobs'], ['GET', '/scheduler/status'], ['GET', '/scheduler/history'], ['POST', '/scheduler/run']] as const) {
        expectProblem(await anon.request(m, p, m === 'POST' ? {} : undefined), 401);
        const refused = expectProblem(await viewer.request(m, p, m === 'POST' ? {} : undefined), 403);
        expect(refused.detail).toContain(m === 'GET' ? 'api.scheduler.read' : 'api.scheduler.write');
      }
      for (const p of ['/scheduler/jobs', '/scheduler/status', '/scheduler/history']) ok(await reader.get(p));
      expect(expectProblem(await reader.post('/scheduler/run', {}), 403).detail).toContain('api.scheduler.write');
      // a scoped key is capped by its scopes, super admin or not
      const scoped = await admin.keyFor('admin', { scopes: ['api.scheduler.read'] });
      ok(await scoped.get('/scheduler/jobs'));
      expectProblem(await scoped.post('/scheduler/run', {}), 403);
    });

    test('jobs start pending; nothing is due yet; a run answers the states', async () => {
      sb.events.clear();
      const jobs = ok(await reader.get('/scheduler/jobs'));
      expect(sb.events.list('onSchedulerInitialized')).toHaveLength(1);
      expect(jobs.map((j: any) => j.id)).toEqual(['cache-purge', 'cache-clear', 'default-site-backup', 'sitemap-refresh', 'feed-import']);
      expect(jobs[0]).toEqual({ id: 'cache-purge', command: 'Grav\\Common\\Cache::purgeJob', expression: '0 4 * * *', enabled: true, status: 'pending', last_run: null, error: null });
      expect(jobs.find((j: any) => j.id === 'default-site-backup').enabled).toBe(false);

      const status = ok(await reader.get('/scheduler/status'));
      expect(status.crontab_status).toBe(real ? 'error' : 'installed');
      expect(status.health).toMatchObject({ status: 'healthy', last_run: null, last_run_age: null, scheduled_jobs: 4, jobs_due: 0, message: 'No jobs currently due' });
      expect(status).toMatchObject({ triggers: [], webhook_installed: false, webhook_enabled: false });
      expect(status.scheduler_command).toContain('bin/grav scheduler');

      const run = ok(await writer.post('/scheduler/run', {}));
      expect(run).toEqual({ message: 'Scheduler run completed.', forced: false, job_states: real ? [] : {} });
    });

    test('due jobs run on the clock: one succeeds, one fails, the rest stay pending', async () => {
      at(T0 + 10 * MIN); // 10:17 — */15 fired at 10:15
      expect(ok(await reader.get('/scheduler/status')).health.jobs_due).toBe(1);
      let run = ok(await writer.post('/scheduler/run', { force: false }));
      expect(Object.keys(run.job_states)).toEqual(['sitemap-refresh']);
      expect(run.job_states['sitemap-refresh'].state).toBe('success');
      near(run.job_states['sitemap-refresh']['last-run'], sec(T0 + 10 * MIN));

      at(T0 + 144 * MIN); // 12:31 — feed-import (30 */6 mon-fri) fired at 12:30, sitemap at 12:30
      run = ok(await writer.post('/scheduler/run', {}));
      expect(run.job_states['sitemap-refresh'].state).toBe('success');
      near(run.job_states['sitemap-refresh']['last-run'], sec(T0 + 144 * MIN));
      expect(run.job_states['feed-import']).toMatchObject({ state: 'failure', error: expect.stringContaining('feed-import') });
      near(run.job_states['feed-import']['last-run'], sec(T0 + 144 * MIN));
      expect(run.job_states['cache-clear']).toBeUndefined();

      const jobs = ok(await reader.get('/scheduler/jobs'));
      const byId = Object.fromEntries(jobs.map((j: any) => [j.id, j]));
      expect(byId['cache-clear'].status).toBe('pending');
      expect(byId['sitemap-refresh']).toMatchObject({ status: 'success', last_run: expect.stringMatching(/^2026-11-24T12:31:0\d\+00:00$/), error: null });
      expect(byId['feed-import']).toMatchObject({ status: 'failure', error: expect.stringContaining('503') });

      const health = ok(await reader.get('/scheduler/status')).health;
      expect(health).toMatchObject({ status: 'healthy', last_run: expect.stringMatching(/^2026-11-24 12:31:0\d$/), failed_jobs_24h: 1, jobs_due: 0 });
      near(health.last_run_age, 0);
    });

    test('a forced run runs every enabled job; a disabled one stays pending', async () => {
      const run = ok(await writer.post('/scheduler/run', { force: true }));
      expect(run.forced).toBe(true);
      expect(Object.keys(run.job_states).sort()).toEqual(['cache-clear', 'cache-purge', 'feed-import', 'sitemap-refresh']);
      const jobs = ok(await reader.get('/scheduler/jobs'));
      expect(jobs.find((j: any) => j.id === 'default-site-backup').status).toBe('pending');
      expect(jobs.find((j: any) => j.id === 'cache-purge').status).toBe('success');
    });

    test('force: the document wants a boolean; the real service reads it as PHP does', async () => {
      const r = await writer.post('/scheduler/run', { force: 'yes' });
      if (real) expect(ok(r).forced).toBe(true);
      else expectProblem(r, 400);
      if (real) expect(ok(await writer.post('/scheduler/run', { force: 'nope' })).forced).toBe(false);
    });

    test('history is paged, newest first (spec: every run; real: each job\'s last state)', async () => {
      const all = await reader.get('/scheduler/history?per_page=100');
      const rows = ok(all);
      // spec: 1 + 2 + 4 (+ 1 when forced 'yes' on real) runs; real: one per job that ran
      expect(rows.length).toBe(real ? 4 : 7);
      expect(pagination(all).total).toBe(rows.length);
      const times = rows.map((r: any) => Date.parse(r.last_run));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      for (const row of rows) {
        expect(Object.keys(row)).toEqual(['job_id', 'status', 'last_run', 'error']);
        expect(row.status === 'failure' ? typeof row.error : row.error).toBe(row.status === 'failure' ? 'string' : null);
      }
      const failure = rows.find((r: any) => r.status === 'failure');
      expect(failure.error).toContain('feed-import');
      const page2 = await reader.get('/scheduler/history?page=2&per_page=3');
      expect(ok(page2)).toEqual(rows.slice(3, 6));
      expect(pagination(page2)).toMatchObject({ page: 2, per_page: 3, total: rows.length });
      const first = await reader.get('/scheduler/history');
      expect(pagination(first).per_page).toBe(20);
    });

    test('health warns when jobs are due and the scheduler has not run; the crontab knob', async () => {
      at(T0 + 2 * 86_400_000);
      const health = ok(await reader.get('/scheduler/status')).health;
      expect(health.status).toBe('warning');
      expect(health.message).toMatch(/^\d+ job\(s\) are due to run$/);
      sb.ops.scheduler.knobs.crontab = 'not_installed';
      expect(ok(await reader.get('/scheduler/status')).crontab_status).toBe('not_installed');
      const r = await fetch(`${sb.origin}/__sandbox/ops`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ scheduler: { crontab: 'installed' } }) });
      expect(r.status).toBe(200);
      expect(ok(await reader.get('/scheduler/status')).crontab_status).toBe('installed');
      expect((await fetch(`${sb.origin}/__sandbox/ops`, { method: 'POST', body: JSON.stringify({ scheduler: { crontab: 'maybe' } }) })).status).toBe(400);
      expect((await fetch(`${sb.origin}/__sandbox/ops/jobs`, { method: 'POST', body: JSON.stringify({ id: 'x', expression: '61 * * * *' }) })).status).toBe(400);
    });

    test('a demo account sees the status with the command lines hidden, and may not run the scheduler', async () => {
      const status = ok(await demoUser.get('/scheduler/status'));
      expect(status).toMatchObject({ cron_command: '(hidden in demo mode)', scheduler_command: '(hidden in demo mode)', whoami: '(hidden in demo mode)' });
      const refused = expectProblem(await demoUser.post('/scheduler/run', {}), 403);
      expect(refused).toMatchObject({ title: 'Demo Mode', detail: 'This is a read-only demo. Changes are disabled.', code: 'demo_mode_write_blocked' });
    });
  });

  describe('dashboard', () => {
    beforeAll(() => at(T0));

    test('reads: spec any authenticated caller, real api.system.read; hide api.system.write', async () => {
      for (const p of ['/dashboard/stats', '/dashboard/popularity', '/dashboard/notifications', '/dashboard/feed']) {
        expectProblem(await anon.get(p), 401);
        if (real) expect(expectProblem(await viewer.get(p), 403).detail).toContain('api.system.read');
        else ok(await viewer.get(p));
        ok(await sysReader.get(p));
      }
      expectProblem(await anon.post('/dashboard/notifications/premium-sale/hide'), 401);
      expect(expectProblem(await sysReader.post('/dashboard/notifications/premium-sale/hide'), 403).detail).toContain('api.system.write');
    });

    test('stats count the site', async () => {
      const stats = ok(await sysReader.get('/dashboard/stats'));
      expect(stats.pages.total).toBe(sb.content.tree().pages.length);
      expect(stats.pages.published).toBeLessThanOrEqual(stats.pages.total);
      expect(stats.users.total).toBe(sb.accounts.count());
      expect(stats).toMatchObject({ theme: 'quark2', grav_version: sb.settings.cmsVersion, plugins: { total: expect.any(Number), active: expect.any(Number), updatable: expect.any(Number) } });
      expect(stats.last_backup).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    });

    test('popularity: 14 days ending today, today/week/month, the top 10; views added now count', async () => {
      at(T0);
      const before = ok(await sysReader.get('/dashboard/popularity'));
      expect(before.chart).toHaveLength(14);
      expect(before.chart[13].date).toBe('Nov 24');
      expect(before.chart[0].date).toBe('Nov 11');
      expect(before.summary.week).toBeGreaterThanOrEqual(before.summary.today);
      expect(before.top_pages.length).toBeGreaterThan(0);
      expect(before.top_pages.length).toBeLessThanOrEqual(10);
      const views = before.top_pages.map((p: any) => p.views);
      expect([...views].sort((a, b) => b - a)).toEqual(views);

      const r = await fetch(`${sb.origin}/__sandbox/ops/views`, { method: 'POST', body: JSON.stringify({ route: '/rising', count: 100000 }) });
      expect(r.status).toBe(200);
      const after = ok(await sysReader.get('/dashboard/popularity'));
      expect(after.summary.today).toBe(before.summary.today + 100000);
      expect(after.summary.week).toBe(before.summary.week + 100000);
      expect(after.chart[13].views).toBe(before.chart[13].views + 100000);
      expect(after.top_pages[0]).toEqual({ route: '/rising', views: 100000 });

      // tomorrow the view is in yesterday's column
      at(T0 + 86_400_000);
      const next = ok(await sysReader.get('/dashboard/popularity'));
      expect(next.chart[12].views).toBe(after.chart[13].views);
      expect(next.summary.today).toBe(0);
      at(T0);
    });

    test('notifications by location; a hide lasts until reappear_after passed, on the clock', async () => {
      at(T0);
      sb.events.clear();
      const all = ok(await sysWriter.get('/dashboard/notifications'));
      expect(sb.events.list('onApiDashboardNotifications')[0]?.data).toMatchObject({ user: 'syswriter', force: false });
      expect(Object.keys(all.notifications).sort()).toEqual(['dashboard', 'feed', 'top']);
      expect(all.notifications.top[0]).toMatchObject({ id: 'login-untrusted-host', icon: 'shield-alert', location: ['top'], reappear_after: '+7 days' });
      expect(all.notifications.top[0][real ? 'level' : 'type']).toBe('warning');
      expect(all.notifications.dashboard.map((n: any) => n.id)).toEqual(['grav-2-1-beta', 'premium-sale']);
      expect(all.notifications.dashboard[0].action).toEqual({ label: 'Read the notes', url: expect.stringContaining('https://') });
      expect(all.last_checked).toMatch(/^2026-11-24T10:0\d:\d\d\+00:00$/);

      const dash = ok(await sysWriter.get('/dashboard/notifications?location=dashboard'));
      expect(Object.keys(dash.notifications)).toEqual(['dashboard']);
      if (real) expect(ok(await sysWriter.get('/dashboard/notifications?location=elsewhere')).notifications).toEqual({ elsewhere: [] });
      else expectProblem(await sysWriter.get('/dashboard/notifications?location=elsewhere'), 400);

      for (const id of ['login-untrusted-host', 'premium-sale', 'grav-2-1-beta']) {
        const hid = await sysWriter.post(`/dashboard/notifications/${id}/hide`);
        expect(hid.status, hid.text).toBe(204);
      }
      let now = ok(await sysWriter.get('/dashboard/notifications')).notifications;
      if (real) expect(now.top).toBeUndefined();
      else expect(now.top).toEqual([]);
      expect(now.dashboard ?? []).toEqual([]);
      expect(now.feed.map((n: any) => n.id)).toEqual(['security-advisory-2026-11']);
      // someone else's dismissals are their own
      expect(ok(await admin.get('/dashboard/notifications')).notifications.top).toHaveLength(1);

      at(T0 + 86_400_000 + 1000); // +1 day: the beta notice is back
      now = ok(await sysWriter.get('/dashboard/notifications')).notifications;
      expect(now.dashboard.map((n: any) => n.id)).toEqual(['grav-2-1-beta']);
      expect(now.top ?? []).toEqual([]);
      at(T0 + 7 * 86_400_000 + 1000); // +7 days: the warning too; the sale (no reappear_after) never
      now = ok(await sysWriter.get('/dashboard/notifications')).notifications;
      expect(now.top.map((n: any) => n.id)).toEqual(['login-untrusted-host']);
      expect(now.dashboard.map((n: any) => n.id)).toEqual(['grav-2-1-beta']);
      // force refetches the vendor's feed
      expect(ok(await sysWriter.get('/dashboard/notifications?force=1')).last_checked).toMatch(/^2026-12-01T10:07:0\d\+00:00$/);
      at(T0);
    });

    test('the feed: the 10 newest articles', async () => {
      const feed = ok(await sysReader.get('/dashboard/feed'));
      expect(feed.feed).toHaveLength(10);
      expect(feed.feed[0]).toEqual({ title: expect.any(String), url: expect.stringMatching(/^https:\/\//), date: expect.any(String), summary: expect.any(String) });
      const dates = feed.feed.map((a: any) => Date.parse(a.date));
      expect([...dates].sort((a, b) => b - a)).toEqual(dates);
      expect(typeof feed.last_checked).toBe('string');
    });
  });

  describe('demo mode', () => {
    let route: string;
    const titleOf = async () => ok(await admin.get(pagePath(route))).title;

    beforeAll(() => {
      at(T0);
      route = sb.content.tree().pages.find((p) => p.route !== '/')!.route;
    });

    test('status: any authenticated caller; nothing captured yet', async () => {
      expectProblem(await anon.get('/demo/status'), 401);
      const status = ok(await viewer.get('/demo/status'));
      expect(status).toEqual({ baseline_exists: false, writable: ['api.pages.write', 'api.media.write'], roots: ['pages', 'media'], reset_interval: 30, reset_on_request: true, reset_on_schedule: true, last_reset: null, seconds_until_reset: null });
    });

    test('baseline and reset: super admins only, never a demo account, a scoped key needs admin.super', async () => {
      for (const p of ['/demo/baseline', '/demo/reset']) {
        expectProblem(await anon.post(p), 401);
        expectProblem(await viewer.post(p), 403);
        expectProblem(await sysWriter.post(p), 403);
        const demo = expectProblem(await demoUser.post(p), 403);
        expect(demo).toMatchObject({ title: 'Demo Mode', code: 'demo_mode_write_blocked' });
        const scoped = await admin.keyFor('admin', { scopes: ['api.pages.read'] });
        expect(expectProblem(await scoped.post(p), 403).detail).toContain('admin.super');
      }
      // a scoped key carrying admin.super passes (a reset without a baseline changes nothing)
      const superScoped = await admin.keyFor('admin', { scopes: ['admin.super'] });
      expect(ok(await superScoped.post('/demo/reset')).reset).toBe(false);
      // an account with admin.super but not api.super: the real plugin checks the permission
      // admin.super, so it passes; the document asks for a super admin (api.super)
      const classic = await admin.keyFor('classic', { access: { admin: { super: true }, api: { access: true } } });
      if (real) expect(ok(await classic.post('/demo/reset')).reset).toBe(false);
      else expectProblem(await classic.post('/demo/reset'), 403);
      expect(sb.ops.demo.baselineExists()).toBe(false);
    });

    test('no baseline: a reset changes nothing (real: still the event and the header)', async () => {
      sb.events.clear();
      const r = await admin.post('/demo/reset');
      expect(ok(r)).toMatchObject({ reset: false, message: 'Nothing to reset — capture a baseline first.', status: { baseline_exists: false } });
      expect(r.headers.get('x-invalidates')).toBe(real ? 'demo:status' : null);
      expect(sb.events.list('onApiDemoReset')).toHaveLength(real ? 1 : 0);
    });

    test('no writable root: captured false, nothing changes', async () => {
      sb.ops.demo.knobs.writableRoot = false;
      sb.events.clear();
      const r = await admin.post('/demo/baseline');
      expect(ok(r)).toMatchObject({ captured: false, message: 'No writable demo resources are configured, so there is nothing to capture.', status: { baseline_exists: false, roots: [] } });
      expect(r.headers.get('x-invalidates')).toBeNull();
      expect(sb.events.list('onApiDemoBaselineCaptured')).toHaveLength(0);
      sb.ops.demo.knobs.writableRoot = true;
    });

    test('capture, then a manual reset restores the content', async () => {
      const original = await titleOf();
      sb.events.clear();
      const r = await admin.post('/demo/baseline');
      const captured = ok(r);
      expect(captured).toMatchObject({ captured: true, message: 'Demo baseline captured.', status: { baseline_exists: true } });
      near(captured.status.last_reset, sec(T0));
      near(captured.status.seconds_until_reset, 1800);
      expect(r.headers.get('x-invalidates')).toBe('demo:status');
      expect(sb.events.list('onApiDemoBaselineCaptured')).toHaveLength(1);

      at(T0 + 5 * MIN);
      near(ok(await viewer.get('/demo/status')).seconds_until_reset, 1500);
      // real: the token pair's demo block counts down for a demo account (the app's banner), not for others
      if (real) {
        const pair = ok(await anon.post('/auth/token', { username: 'visitor', password: 'a-long-password-1' }));
        expect(pair.user.demo_mode).toMatchObject({ enabled: true, writable: ['api.pages.write', 'api.media.write'], reset_interval: 30 });
        near(pair.user.demo_mode.seconds_until_reset, 1500);
        expect(ok(await admin.get('/me')).demo_mode).toMatchObject({ enabled: false, writable: [], seconds_until_reset: null });
      }
      sb.editPage({ route, title: 'Vandalised' });
      expect(await titleOf()).toBe('Vandalised');
      const reset = await admin.post('/demo/reset');
      const done = ok(reset);
      expect(done).toMatchObject({ reset: true, message: 'Demo content reset to baseline.' });
      near(done.status.last_reset, sec(T0 + 5 * MIN));
      near(done.status.seconds_until_reset, 1800);
      expect(reset.headers.get('x-invalidates')).toBe('demo:status');
      expect(sb.events.list('onApiDemoReset')).toHaveLength(1);
      expect(await titleOf()).toBe(original);

      // capturing again replaces the baseline and restarts the timer
      sb.editPage({ route, title: 'New baseline' });
      at(T0 + 10 * MIN);
      ok(await admin.post('/demo/baseline'));
      near(ok(await viewer.get('/demo/status')).last_reset, sec(T0 + 10 * MIN));
      sb.editPage({ route, title: 'Vandalised again' });
      ok(await admin.post('/demo/reset'));
      expect(await titleOf()).toBe('New baseline');
    });

    test('a stale demo is reset lazily by the next API request', async () => {
      sb.editPage({ route, title: 'Scribbled' });
      const resets = sb.ops.demo.resets;
      at(T0 + 10 * MIN + 29 * MIN);
      near(ok(await viewer.get('/demo/status')).seconds_until_reset, 60);
      expect(sb.ops.demo.resets).toBe(resets);
      at(T0 + 10 * MIN + 30 * MIN + 5000);
      sb.events.clear();
      const r = await viewer.get('/demo/status');
      near(ok(r).seconds_until_reset, 1800);
      near(ok(r).last_reset, sec(T0 + 40 * MIN + 5000));
      expect(sb.ops.demo.resets).toBe(resets + 1);
      // the document: the lazy reset fires the event and invalidates the status; the real plugin does neither
      expect(r.headers.get('x-invalidates')).toBe(real ? null : 'demo:status');
      expect(sb.events.list('onApiDemoReset')).toHaveLength(real ? 0 : 1);
      expect(await titleOf()).toBe('New baseline');
    });

    test('scheduled resets: the api-demo-reset job runs on its cron', async () => {
      sb.ops.demo.knobs.resetOnRequest = false;
      const jobs = ok(await reader.get('/scheduler/jobs'));
      expect(jobs.find((j: any) => j.id === 'api-demo-reset')).toMatchObject({ expression: '*/30 * * * *', enabled: true, status: 'pending' });
      ok(await writer.post('/scheduler/run', { force: true })); // catch the scheduler up
      sb.editPage({ route, title: 'Scribbled by a visitor' });
      at(T0 + 40 * MIN + 31 * MIN); // 11:18, past 11:00? no: T0 is 10:07, +71 min = 11:18; the job fired at 11:00
      expect(await titleOf()).toBe('Scribbled by a visitor');
      const run = ok(await writer.post('/scheduler/run', {}));
      expect(run.job_states['api-demo-reset']).toMatchObject({ state: 'success' });
      expect(await titleOf()).toBe('New baseline');
      sb.ops.demo.knobs.resetOnRequest = true;
      sb.ops.demo.knobs.resetOnSchedule = false;
      expect(ok(await reader.get('/scheduler/jobs')).some((j: any) => j.id === 'api-demo-reset')).toBe(false);
      sb.ops.demo.knobs.resetOnSchedule = true;
    });

    test('a demo account reads everything but writes only with the writable permissions', async () => {
      ok(await demoUser.get(pagePath(route)));
      ok(await demoUser.get('/config/site'));
      const blocked = [
        await demoUser.patch('/config/site', { title: 'Pwned' }),
        await demoUser.post('/users', { username: 'intruder', password: 'a-long-password-1', email: 'i@example.test' }),
        await demoUser.post('/webhooks', { url: 'https://example.test/hook' }),
        await demoUser.post('/dashboard/notifications/premium-sale/hide'),
      ];
      for (const r of blocked) expect(expectProblem(r, 403)).toMatchObject({ title: 'Demo Mode', detail: 'This is a read-only demo. Changes are disabled.', code: 'demo_mode_write_blocked' });
      // pages are writable in demo mode by default
      const etag = (await demoUser.get(pagePath(route))).headers.get('etag') ?? '';
      const saved = await demoUser.patch(pagePath(route), { title: 'A visitor was here' }, { 'If-Match': etag });
      expect(saved.status, saved.text).toBe(200);
      // …until the writable list drops them
      sb.ops.demo.knobs.writable = ['api.media.write'];
      const etag2 = (await demoUser.get(pagePath(route))).headers.get('etag') ?? '';
      expect(expectProblem(await demoUser.patch(pagePath(route), { title: 'Again' }, { 'If-Match': etag2 }), 403)).toMatchObject({ title: 'Demo Mode', code: 'demo_mode_write_blocked' });
      expect(ok(await viewer.get('/demo/status')).writable).toEqual(['api.media.write']);
      sb.ops.demo.knobs.writable = ['api.pages.write', 'api.media.write'];
      // the same writes by a non-demo admin pass
      expect((await admin.patch('/config/site', { title: 'Fine' })).status).toBe(200);
    });
  });
});
