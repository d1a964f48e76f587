/**
 * The CMS sandbox's audit trail over real HTTP, both flavours: its status (recording 55), the 404
 * while disabled (56, 57) and 503 without SQLite support; every API action the sandbox performs
 * recorded with the documented fields (actor, roles, authentication method, address, user agent,
 * target, context; `detailed` coverage adds a page update's before/after changes); the filters,
 * facets, paging capped at the page-size limit, the CSV export (columns, formula apostrophe) and
 * the JSON export; retention by days and rows; IP anonymisation; the `api.super` gate (an
 * `admin.super` account is refused, a demo account too); and a million generated events seeded
 * quickly for the benchmarks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, pagePath, pagination, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const data = (r: Reply, status = 200): Json => {
  expect(r.status, r.text).toBe(status);
  return r.body.data as Json;
};

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let editor: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'single' });
    api = new SandboxClient(sb);
    editor = await api.keyFor('editor');
  });
  afterAll(() => sb?.close());

  const enable = (knobs: Json = {}) => Object.assign(sb.audit.knobs, { enabled: true, available: true, coverage: 'standard', retentionDays: 90, retentionMaxRows: 100000, anonymizeIp: false, pruneEvery: 1000, maxPerPage: 1000 }, knobs);

  test('status while disabled: the recorded body; events, facets and export 404; nothing recorded', async () => {
    sb.audit.knobs.enabled = false;
    expect(data(await api.get('/audit/status'))).toEqual({ enabled: false, available: true, coverage: 'standard', retention: { days: 90, max_rows: 100000 }, total: null });
    for (const path of ['/audit/events?per_page=5', '/audit/facets', '/audit/export']) {
      expect(expectProblem(await api.get(path), 404).detail).toBe('The audit trail is not enabled.');
    }
    await editor.patch(pagePath('/about'), { title: 'Not audited' });
    expect(sb.audit.store.count()).toBe(0);
  });

  test('without SQLite support: status says so, the other routes 503', async () => {
    enable({ available: false });
    expect(data(await api.get('/audit/status'))).toMatchObject({ enabled: false, available: false, total: null });
    for (const path of ['/audit/events', '/audit/facets', '/audit/export']) expectProblem(await api.get(path), 503);
    enable();
  });

  test('api.super only: admin.super alone, a plain account and a demo account are refused; 401 without a credential', async () => {
    enable();
    const adminOnly = await api.keyFor('classic-admin', { access: { admin: { super: true, login: true }, api: { access: true } } });
    const demo = await api.keyFor('demo-super', { access: { api: { access: true, super: true, demo: true } } });
    for (const path of ['/audit/status', '/audit/events', '/audit/facets', '/audit/export']) {
      expectProblem(await adminOnly.get(path), 403);
      expectProblem(await editor.get(path), 403);
      const d = expectProblem(await demo.get(path), 403);
      if (!real) expect(d.detail).toBe('The audit trail is hidden in demo mode.');
      expectProblem(await api.as({ none: true }).get(path), 401);
    }
    // scoped keys of the super admin
    expectProblem(await (await api.keyFor('admin', { scopes: ['api.access', 'api.pages.read'] })).get('/audit/status'), 403);
    const scoped = await api.keyFor('admin', { scopes: real ? ['api.access', 'api.super'] : ['api.access', 'admin.super'] });
    expect((await scoped.get('/audit/status')).status).toBe(200);
  });

  test('an API action is recorded with every field; detailed coverage adds the page update’s changes', async () => {
    enable({ coverage: 'detailed' });
    sb.audit.store.clear();
    const before = sb.clock.now();
    const r = await editor.patch(pagePath('/about'), { title: 'About us', content: 'New body.' }, { 'User-Agent': 'AuditTest/1.0' });
    expect(r.status, r.text).toBe(200);
    const [row] = data(await api.get('/audit/events')) as Json[];
    expect(row).toEqual({
      id: expect.any(Number),
      ts: expect.any(Number),
      event: 'page.update',
      severity: 'info',
      actor_id: 'editor',
      actor_name: sb.accounts.get('editor')!.fullname || 'editor',
      actor_roles: [],
      auth_method: 'apikey',
      ip: '127.0.0.1',
      user_agent: 'AuditTest/1.0',
      target_type: 'page',
      target_id: '/about',
      status: null,
      context: { changes: { title: { old: 'Not audited', new: 'About us' }, content: { old: expect.any(String), new: 'New body.' } } },
    });
    expect(row!.ts).toBeGreaterThanOrEqual(before);
    // standard coverage: no changes
    enable();
    await editor.patch(pagePath('/about'), { title: 'About' });
    const [plain] = data(await api.get('/audit/events?per_page=1')) as Json[];
    expect(plain!.context).toBeNull();
    // a move carries its routes; a user change and a config change their targets
    await api.post('/pages', { route: '/audit-page', title: 'Audit page', template: 'default' });
    const types = (data(await api.get('/audit/events')) as Json[]).map((e) => `${e.event} ${e.target_type} ${e.target_id}`);
    expect(types[0]).toBe('page.create page /audit-page');
    expect(data(await api.get('/audit/status'))).toMatchObject({ enabled: true, coverage: 'standard', total: 3 });
  });

  test('a token caller is recorded with auth_method jwt (real: session); user and config changes name their targets (real: a user event names its subject as actor)', async () => {
    enable();
    sb.audit.store.clear();
    const token = sb.tokens.issue('access', 'admin', 3600).token;
    const jwt = api.as({ token });
    expect((await jwt.post('/users', { username: 'audited', password: 'New-user-pass1', email: 'audited@example.test' })).status).toBe(201);
    expect((await jwt.patch('/config/site', { title: 'Audited site' })).status).toBe(200);
    const rows = data(await api.get('/audit/events')) as Json[];
    const method = real ? 'session' : 'jwt';
    expect(rows.map((r) => [r.event, r.severity, r.target_type, r.target_id, r.auth_method])).toEqual([
      ['config.update', 'notice', 'config', 'site', method],
      ['user.create', 'notice', 'user', 'audited', method],
    ]);
    expect(rows[0]!.actor_id).toBe('admin');
    expect(rows[1]!.actor_id).toBe(real ? 'audited' : 'admin');
  });

  test('logins: a failed one names the tried username as actor, a successful one and the logout their account', async () => {
    enable();
    sb.audit.store.clear();
    const login = (body: Json) => fetch(`${sb.url}/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await login({ username: 'nobody-here', password: 'wrong-password' })).status).toBe(401);
    const ok = await login({ username: 'admin', password: sb.seeded!.passwords.admin });
    expect(ok.status).toBe(200);
    const pair = ((await ok.json()) as Json).data as Json;
    const out = await fetch(`${sb.url}/auth/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Token': pair.access_token }, body: JSON.stringify({ refresh_token: pair.refresh_token }) });
    expect(out.status).toBe(204);
    const rows = (data(await api.get('/audit/events')) as Json[]).reverse();
    expect(rows.map((r) => r.auth_method)).toEqual(['session', 'session', real ? 'session' : 'jwt']);
    expect(rows.map((r) => [r.event, r.severity, r.actor_id, r.actor_name, r.target_type, r.target_id, r.context, r.ip])).toEqual([
      ['user.login.failed', 'warning', 'nobody-here', 'nobody-here', 'user', 'nobody-here', { reason: 'password' }, '127.0.0.1'],
      ['user.login', 'info', 'admin', expect.any(String), 'user', 'admin', { method: 'password' }, '127.0.0.1'],
      ['user.logout', 'info', 'admin', expect.any(String), 'user', 'admin', null, '127.0.0.1'],
    ]);
  });

  test('filters (event, actor, target_type, severity, from, to, q), facets and paging capped at max_per_page', async () => {
    enable();
    sb.audit.store.clear();
    await api.patch(pagePath('/about'), { title: 'A' });
    sb.clock.advance(1000);
    await editor.patch(pagePath('/contact'), { title: 'C' });
    sb.clock.advance(1000);
    await api.delete(pagePath('/audit-page'));
    const all = data(await api.get('/audit/events')) as Json[];
    expect(all.map((e) => e.event)).toEqual(['page.delete', 'page.update', 'page.update']);
    const q = async (qs: string) => (data(await api.get(`/audit/events?${qs}`)) as Json[]).map((e) => e.target_id);
    expect(await q('event=page.delete')).toEqual(['/audit-page']);
    expect(await q('actor=editor')).toEqual(['/contact']);
    expect(await q('target_type=page')).toHaveLength(3);
    expect(await q('target_type=user')).toEqual([]);
    expect(await q('severity=notice')).toEqual(['/audit-page']);
    const middle = all[1]!.ts as number;
    expect(await q(`from=${middle}`)).toEqual(['/audit-page', '/contact']);
    expect(await q(`to=${middle}`)).toEqual(['/contact', '/about']);
    expect(await q(`from=${middle}&to=${middle}`)).toEqual(['/contact']);
    expect(await q('q=CONT')).toEqual(['/contact']);
    expect(await q('q=page.del')).toEqual(['/audit-page']);
    expect(await q('q=127.0.0')).toHaveLength(3);
    expect(await q('q=%25')).toEqual([]);
    expect(await q('event=page.update&actor=editor')).toEqual(['/contact']);
    const facets = data(await api.get('/audit/facets'));
    expect(facets.events).toEqual(['page.delete', 'page.update']);
    expect(facets.actors).toEqual(expect.arrayContaining([{ id: 'editor', name: expect.any(String) }, { id: 'admin', name: expect.any(String) }]));
    const p = await api.get('/audit/events?per_page=2&page=2');
    expect(pagination(p)).toMatchObject({ page: 2, per_page: 2, total: 3, total_pages: 2 });
    expect(data(p)).toHaveLength(1);
    expect(pagination(await api.get('/audit/events'))).toMatchObject({ per_page: 50 });
    expect(pagination(await api.get('/audit/events?per_page=5000'))).toMatchObject({ per_page: 1000 });
    sb.audit.knobs.maxPerPage = 2;
    expect(pagination(await api.get('/audit/events?per_page=50'))).toMatchObject({ per_page: 2 });
  });

  test('export: CSV with the documented columns, arrays as JSON, formula cells defused; JSON a bare array; filters apply', async () => {
    enable();
    sb.audit.store.clear();
    await api.patch(pagePath('/about'), { title: 'Formula' }, { 'User-Agent': '=HYPERLINK("http://x")' });
    await api.patch(pagePath('/contact'), { title: 'Plain' }, { 'User-Agent': '-2+3' });
    const csv = await api.get('/audit/export');
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="audit-log.csv"');
    const lines = csv.text.trimEnd().split('\n');
    expect(lines[0]).toBe('id,ts,event,severity,actor_id,actor_name,actor_roles,auth_method,ip,user_agent,target_type,target_id,status,context');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(",'-2+3,");
    expect(lines[2]).toContain(',"\'=HYPERLINK(""http://x"")",');
    expect(lines[1]).toMatch(/,page\.update,info,admin,/);
    expect(lines[1]).toContain(',[],apikey,127.0.0.1,');
    const other = await api.get('/audit/export?format=xml');
    expect(other.type).toBe('text/csv; charset=utf-8');
    const js = await api.get('/audit/export?format=json');
    expect(js.type).toBe('application/json');
    const rows = JSON.parse(js.text) as Json[];
    expect(rows.map((r) => r.target_id)).toEqual(['/contact', '/about']);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'ts', 'event', 'severity', 'actor_id', 'actor_name', 'actor_roles', 'auth_method', 'ip', 'user_agent', 'target_type', 'target_id', 'status', 'context']);
    expect(JSON.parse((await api.get('/audit/export?format=json&q=about')).text)).toHaveLength(1);
  });

  test('retention by days and by rows (0 turns a bound off); anonymised addresses', async () => {
    enable({ pruneEvery: 1 });
    sb.audit.store.clear();
    for (let i = 0; i < 4; i++) {
      await api.patch(pagePath('/about'), { title: `T${i}` });
      sb.clock.advance(86_400_000);
    }
    enable({ pruneEvery: 1, retentionDays: 2, retentionMaxRows: 0 });
    await api.patch(pagePath('/about'), { title: 'after' });
    // rows older than two days are gone (the one written exactly two days ago is older by now): yesterday's and the new one stay
    expect(data(await api.get('/audit/status')).total).toBe(2);
    enable({ pruneEvery: 1, retentionDays: 0, retentionMaxRows: 2 });
    await api.patch(pagePath('/about'), { title: 'latest' });
    expect(data(await api.get('/audit/status'))).toMatchObject({ retention: { days: 0, max_rows: 2 }, total: 2 });
    enable({ anonymizeIp: true });
    await api.patch(pagePath('/about'), { title: 'anon' });
    const [row] = data(await api.get('/audit/events?per_page=1')) as Json[];
    expect(row!.ip).toBe('127.0.0.0');
  });

  test('control routes: knobs read and changed over HTTP (bad values 400), prune on demand, empty the trail', async () => {
    const control = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${sb.origin}/__sandbox${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as Json };
    };
    enable();
    sb.audit.store.clear();
    const set = await control('POST', '/audit', { enabled: true, coverage: 'detailed', retentionMaxRows: 1, pruneEvery: 1000 });
    expect(set.body.data).toMatchObject({ enabled: true, coverage: 'detailed', retentionMaxRows: 1, total: 0 });
    expect(data(await api.get('/audit/status'))).toMatchObject({ coverage: 'detailed', retention: { max_rows: 1 } });
    expect((await control('POST', '/audit', { coverage: 'full' })).status).toBe(400);
    expect((await control('POST', '/audit', { retentionDays: -1 })).status).toBe(400);
    expect((await control('POST', '/audit', { enabled: 'yes' })).status).toBe(400);
    await api.patch(pagePath('/about'), { title: 'one' });
    await api.patch(pagePath('/about'), { title: 'two' });
    expect((await control('GET', '/audit')).body.data.total).toBe(2);
    expect((await control('POST', '/audit/prune')).body.data).toEqual({ deleted: 1, total: 1 });
    expect((await control('POST', '/audit/seed', { count: 0 })).status).toBe(400);
    expect((await control('POST', '/audit/seed', { count: 10 })).body.data.total).toBe(11);
    expect((await control('DELETE', '/audit')).body.data.total).toBe(0);
    expect((await control('POST', '/webhooks', { allowPrivate: 'no' })).status).toBe(400);
    expect((await control('GET', '/webhooks')).body.data).toEqual({ allowPrivate: false });
    await control('POST', '/audit', { enabled: false });
    expect(data(await api.get('/audit/status')).enabled).toBe(false);
  });

  // the store is the same in both flavours: seeded once
  test.runIf(!real)('a million generated events are seeded in seconds and page quickly', async () => {
    enable();
    sb.audit.store.clear();
    const started = performance.now();
    const r = await fetch(`${sb.origin}/__sandbox/audit/seed`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ count: 1_000_000 }) });
    const seeded = ((await r.json()) as Json).data as Json;
    expect(seeded.total).toBe(1_000_000);
    expect(performance.now() - started).toBeLessThan(30_000);
    const t = performance.now();
    const page = await api.get('/audit/events?per_page=100&event=page.move');
    expect(pagination(page)).toMatchObject({ total: 100_000, per_page: 100 });
    expect((data(page) as Json[])[0]!.context).toMatchObject({ old_route: expect.stringMatching(/^\/drafts\//) });
    expect(performance.now() - t).toBeLessThan(5_000);
    sb.audit.store.clear();
  }, 60_000);
});
