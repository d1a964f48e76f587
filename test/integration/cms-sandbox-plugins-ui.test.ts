/**
 * What the CMS sandbox's two demo plugins add to the admin, over real HTTP: the sidebar, menubar
 * (and its actions), floating widgets, context panels, settings panels, reports, plugin pages
 * (a blueprint page whose data and save endpoints work, a component page) and the scripts, the
 * translations, system information and cache clearing. Every route and every code it answers,
 * on both flavours: they follow the real service where the document shows no shape, and differ
 * where the document says otherwise (the plugin page's permission, the scripts' cache headers,
 * the menubar's labels, an invalid slug).
 */
import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const ok = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return r.body.data as any;
};
const ids = (list: Json[]) => list.map((x) => x.id);
const phpJson = (v: unknown) => JSON.stringify(v).replace(/\//g, '\\/').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let viewer: SandboxClient;
  let editor: SandboxClient;
  let sysReader: SandboxClient;
  let gpmReader: SandboxClient;
  let german: SandboxClient;
  let siteOnly: SandboxClient;
  let anon: SandboxClient;

  const setEnabled = async (plugin: string, on: boolean) => expect((await api.patch(`/config/plugins/${plugin}`, { enabled: on })).status).toBe(200);

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    editor = await api.keyFor('editor');
    sysReader = await api.keyFor('sysreader', { access: { api: { access: true, system: { read: true }, reports: { read: true } } } });
    gpmReader = await api.keyFor('gpmreader', { access: { api: { access: true, gpm: { read: true } } } });
    siteOnly = await api.keyFor('siteonly', { access: { site: { login: true } } });
    await sb.accounts.create({ username: 'deutsch', password: 'a-long-password-1', email: 'deutsch@example.test', language: 'de', access: { api: { access: true } } });
    german = api.as({ apiKey: sb.apiKeys.create({ username: 'deutsch', name: 'test' }).api_key });
    anon = api.as({ none: true });
  });
  afterAll(() => sb?.close());

  test('GET /sidebar/items: the items the caller may see, by priority, labels translated into its language, authorize stripped; 401; 403', async () => {
    sb.events.clear();
    const all = ok(await api.get('/sidebar/items')) as Json[];
    expect(all).toEqual([
      { id: 'site-health', plugin: 'site-health', label: 'Site health', icon: 'class:fa-solid fa-heart-pulse', route: '/plugin/site-health', priority: 30, badge: 1 },
      { id: 'team-notes', plugin: 'team-notes', label: 'Team notes', icon: 'fa-note-sticky', route: '/plugin/team-notes', priority: 20, badge: null, badgeEndpoint: '/team-notes/badge' },
      { id: 'site-health-log', plugin: 'site-health', label: 'Health log', icon: { type: 'svg', path: expect.any(String) }, route: '/plugin/site-health/log', priority: 5 },
    ]);
    const [event] = sb.events.list('onApiSidebarItems');
    expect(event!.data).toMatchObject({ user: 'admin', items: expect.arrayContaining([expect.objectContaining({ id: 'site-health', authorize: 'api.system.read' })]) });
    // gating: the viewer lacks api.system.read, the reader has it but not the any-of pair
    expect(ids(ok(await viewer.get('/sidebar/items')))).toEqual(['team-notes']);
    expect(ids(ok(await sysReader.get('/sidebar/items')))).toEqual(['site-health', 'team-notes']);
    expect(ok(await german.get('/sidebar/items'))[0]).toMatchObject({ id: 'team-notes', label: 'Team-Notizen' });
    // a disabled plugin adds nothing
    await setEnabled('team-notes', false);
    expect(ids(ok(await api.get('/sidebar/items')))).toEqual(['site-health', 'site-health-log']);
    await setEnabled('team-notes', true);
    expectProblem(await anon.get('/sidebar/items'), 401);
    expectProblem(await siteOnly.get('/sidebar/items'), 403);
  });

  test('GET /menubar/items: gated, in registration order; labels translated by the documents only; 401; 403', async () => {
    sb.events.clear();
    const all = ok(await api.get('/menubar/items')) as Json[];
    expect(ids(all)).toEqual(['team-notes-quick', 'team-notes-unpin', 'site-health-run', 'site-health-purge']);
    expect(all[0]).toEqual({ id: 'team-notes-quick', plugin: 'team-notes', label: real ? 'PLUGIN_TEAM_NOTES.QUICK_NOTE' : 'Quick note', icon: 'fa-regular:note-sticky', action: 'quick-note', showLabel: true, size: 'md', placement: 'start', priority: 5 });
    expect(all[3]).toEqual({ id: 'site-health-purge', plugin: 'site-health', label: 'Purge CDN', icon: 'class:fa-solid fa-cloud-arrow-down', action: 'purge-cdn', confirm: 'Purge the CDN cache of the whole site?', variant: 'danger', placement: 'end' });
    expect(all.every((i) => !('authorize' in i))).toBe(true);
    expect(sb.events.list('onApiMenubarItems')[0]!.data.user).toBe('admin');
    expect(ids(ok(await viewer.get('/menubar/items')))).toEqual(['team-notes-quick']);
    expect(ids(ok(await editor.get('/menubar/items')))).toEqual(['team-notes-quick', 'team-notes-unpin']);
    expect(ok(await german.get('/menubar/items'))[0].label).toBe(real ? 'PLUGIN_TEAM_NOTES.QUICK_NOTE' : 'Schnellnotiz');
    expectProblem(await anon.get('/menubar/items'), 401);
    expectProblem(await siteOnly.get('/menubar/items'), 403);
  });

  test('POST /menubar/actions/{plugin}/{action}: a result; a refusal as status error; 403 from the handler; 404 without one; 401; 403', async () => {
    sb.events.clear();
    const before = ok(await api.get('/team-notes/notes')).notes.length;
    expect(ok(await viewer.post('/menubar/actions/team-notes/quick-note', { text: 'Call the printer' }))).toEqual({ status: 'success', message: `Note added (${before + 1} in all).` });
    expect(ok(await api.get('/team-notes/notes')).notes.at(-1)).toEqual({ title: 'Call the printer', body: '', pinned_until: null });
    expect(sb.events.list('onApiMenubarAction')[0]!.data).toMatchObject({ plugin: 'team-notes', action: 'quick-note', body: { text: 'Call the printer' }, user: 'viewer', result: { status: 'success' } });
    expect(ok(await viewer.post('/menubar/actions/team-notes/quick-note', { text: '  ' }))).toEqual({ status: 'error', message: 'Write the note first: the text is empty.' });
    expect(ok(await api.post('/menubar/actions/site-health/run-checks'))).toEqual({ status: 'success', message: '6 checks run: 5 passed, 1 needs attention.' });
    // the one action that is always refused: a domain failure, answered 200
    expect(ok(await api.post('/menubar/actions/site-health/purge-cdn'))).toEqual({ status: 'error', message: 'The CDN refused the purge: no CDN zone is configured for this site.' });
    // the handler re-checks the caller
    expect(expectProblem(await viewer.post('/menubar/actions/team-notes/unpin-all'), 403).detail).toBe('Missing required permission: api.pages.write');
    expectProblem(await sysReader.post('/menubar/actions/site-health/purge-cdn'), 403);
    expect(ok(await editor.post('/menubar/actions/team-notes/unpin-all')).status).toBe('success');
    expect(expectProblem(await api.post('/menubar/actions/team-notes/nothing'), 404).detail).toBe("No handler registered for action 'team-notes/nothing'.");
    expectProblem(await api.post('/menubar/actions/login/quick-note'), 404);
    await setEnabled('site-health', false);
    expectProblem(await api.post('/menubar/actions/site-health/run-checks'), 404);
    await setEnabled('site-health', true);
    expectProblem(await anon.post('/menubar/actions/team-notes/quick-note', { text: 'x' }), 401);
    expectProblem(await siteOnly.post('/menubar/actions/team-notes/quick-note', { text: 'x' }), 403);
  });

  test('GET /floating-widgets: gated, routes cleaned to /paths; 401; 403', async () => {
    sb.events.clear();
    const all = ok(await api.get('/floating-widgets')) as Json[];
    expect(all).toEqual([
      { id: 'team-notes-chat', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.CHAT', icon: { type: 'svg', path: expect.any(String) }, priority: 10, autoLoad: false, routes: ['/pages', '/plugin/team-notes'] },
      { id: 'site-health-uptime', plugin: 'site-health', label: 'PLUGIN_SITE_HEALTH.UPTIME', icon: 'fa-wave-square', priority: 20, autoLoad: true, routes: ['/'], width: 360 },
    ]);
    expect(sb.events.list('onApiFloatingWidgets')).toHaveLength(1);
    expect(ids(ok(await viewer.get('/floating-widgets')))).toEqual(['team-notes-chat']);
    expectProblem(await anon.get('/floating-widgets'), 401);
    expectProblem(await siteOnly.get('/floating-widgets'), 403);
  });

  test('GET /context-panels: what the listeners add for the caller; 401; 403', async () => {
    const all = ok(await api.get('/context-panels')) as Json[];
    expect(all).toEqual([
      { id: 'team-notes-page', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.PAGE_NOTES', icon: 'history', contexts: ['pages'], priority: 10, width: 480, badgeEndpoint: '/team-notes/badge' },
      { id: 'site-health-page', plugin: 'site-health', label: 'Page health', icon: 'fa-solid:gauge', contexts: ['pages'], priority: 20, width: 420 },
    ]);
    expect(ids(ok(await viewer.get('/context-panels')))).toEqual(['team-notes-page']);
    expect(sb.events.list('onApiContextPanels').at(-1)!.data.user).toBe('viewer');
    expectProblem(await anon.get('/context-panels'), 401);
    expectProblem(await siteOnly.get('/context-panels'), 403);
  });

  test('GET /settings/panels and the panel\'s form: blueprint, data, save checked (422), read back; 401; 403', async () => {
    const panels = ok(await api.get('/settings/panels')) as Json[];
    expect(panels).toEqual([
      {
        id: 'site-health-settings',
        plugin: 'site-health',
        label: 'PLUGIN_SITE_HEALTH.SETTINGS',
        description: expect.any(String),
        icon: 'fa-stethoscope',
        blueprint: 'health-settings',
        data_endpoint: '/site-health/settings',
        save_endpoint: '/site-health/settings',
        priority: 10,
      },
    ]);
    expect(ok(await viewer.get('/settings/panels'))).toEqual([]);
    expect(ids(ok(await sysReader.get('/settings/panels')))).toEqual(['site-health-settings']);
    expectProblem(await anon.get('/settings/panels'), 401);
    expectProblem(await siteOnly.get('/settings/panels'), 403);

    const panel = panels[0]!;
    const form = ok(await api.get(`/blueprints/plugins/${panel.plugin}/pages/${panel.blueprint}`));
    expect(form.fields.map((f: Json) => f.name)).toEqual(['checks_section', 'checks.interval', 'checks.notify_email', 'checks.disk_warning']);
    expect(ok(await sysReader.get('/site-health/settings'))).toEqual({ checks: { interval: 15, notify_email: '', disk_warning: 80 } });
    const bad = await api.patch('/site-health/settings', { checks: { interval: 2, notify_email: 'not-an-address' } });
    expect(expectProblem(bad, 422).errors).toEqual([
      { field: 'checks.interval', message: 'Invalid input in "Check every"' },
      { field: 'checks.notify_email', message: 'Invalid input in "Notify"' },
    ]);
    expectProblem(await api.patch('/site-health/settings', { interval: 30 }), 422);
    expect(ok(await api.patch('/site-health/settings', { checks: { interval: '30', notify_email: 'ops@example.test' } }))).toEqual({ checks: { interval: 30, notify_email: 'ops@example.test', disk_warning: 80 } });
    expect(ok(await sysReader.get('/site-health/settings')).checks.interval).toBe(30);
    expectProblem(await sysReader.patch('/site-health/settings', { checks: { interval: 20 } }), 403);
    expectProblem(await viewer.get('/site-health/settings'), 403);
    expectProblem(await anon.get('/site-health/settings'), 401);
    // the plugin's routes go with the plugin
    await setEnabled('site-health', false);
    expectProblem(await api.get('/site-health/settings'), 404);
    expect(ok(await api.get('/settings/panels'))).toEqual([]);
    await setEnabled('site-health', true);
  });

  test('the plugins\' own routes: 401 without a credential, 403 without api.access, 404 while the plugin is off; a malformed body 400 (real 422)', async () => {
    const routes: [string, string, string][] = [
      ['GET', '/team-notes/notes', 'team-notes'],
      ['PATCH', '/team-notes/notes', 'team-notes'],
      ['GET', '/team-notes/badge', 'team-notes'],
      ['GET', '/team-notes/export', 'team-notes'],
      ['GET', '/site-health/settings', 'site-health'],
      ['PATCH', '/site-health/settings', 'site-health'],
      ['POST', '/site-health/run', 'site-health'],
    ];
    for (const [method, path] of routes) {
      expectProblem(await anon.request(method, path, method === 'GET' ? undefined : {}), 401);
      expectProblem(await siteOnly.request(method, path, method === 'GET' ? undefined : {}), 403);
    }
    for (const plugin of ['team-notes', 'site-health']) {
      await setEnabled(plugin, false);
      for (const [method, path] of routes.filter((r) => r[2] === plugin)) expect(expectProblem(await api.request(method, path, method === 'GET' ? undefined : {}), 404).detail).toBe(`No route for /api/v1${path}.`);
      await setEnabled(plugin, true);
    }
    const BAD = real ? 422 : 400;
    expectProblem(await api.patch('/team-notes/notes', '{"notes":'), BAD);
    expectProblem(await api.patch('/site-health/settings', '{"checks":'), BAD);
    expectProblem(await api.post('/menubar/actions/team-notes/quick-note', '{"text":'), BAD);
  });

  test('with both demo plugins turned off the composition points are as empty as on the recorded real site (recordings 59-64)', async () => {
    await setEnabled('team-notes', false);
    await setEnabled('site-health', false);
    for (const path of ['/sidebar/items', '/menubar/items', '/floating-widgets', '/context-panels', '/settings/panels']) expect(await api.get(path).then((r) => r.text)).toBe('{"data":[]}');
    expect(ids(ok(await api.get('/reports')))).toEqual(['security-check', 'twig-content', 'yaml-linter']);
    await setEnabled('team-notes', true);
    await setEnabled('site-health', true);
  });

  test('GET /reports: the built-in reports then the plugins\'; a plugin turned on adds its own; 401; 403', async () => {
    sb.events.clear();
    const list = ok(await sysReader.get('/reports')) as Json[];
    expect(ids(list)).toEqual(['security-check', 'twig-content', 'yaml-linter', 'team-notes-stale', 'site-health']);
    for (const r of list) expect(Object.keys(r)).toEqual(expect.arrayContaining(['id', 'title', 'provider', 'component', 'status', 'message', 'items']));
    expect(list[1]).toMatchObject({ provider: 'core', component: null, meta: { gate: false, sandbox: true, leak_count: 0 } });
    expect(list[4]).toMatchObject({ provider: 'site-health', component: 'health-report', status: 'warning', items: expect.arrayContaining([{ check: 'Disk use', status: 'warning', detail: '86% used (warning at 80%)' }]) });
    expect(sb.events.list('onApiGenerateReports')[0]!.data).toEqual(real ? { reports: ids(list) } : { reports: ids(list), user: 'sysreader' });
    expect(list[0]).toEqual({ id: 'security-check', title: 'Grav Security Check', provider: 'core', component: null, status: 'success', message: 'Security Scan complete: No issues found.', items: [] });
    // a page that carries a script: the report names its route and, as the real one does, the rule that matched
    const route = sb.content.tree().pages[3]!.route;
    sb.editPage({ route, content: 'Hello <script>alert(1)</script>', header: { summary: '<a href="javascript:alert(1)">x</a>' } });
    const flagged = (ok(await api.get('/reports')) as Json[])[0]!;
    expect(flagged).toMatchObject({ status: 'warning', message: 'Security Scan complete: 2 potential XSS issues found...' });
    expect(flagged.items).toEqual(expect.arrayContaining([{ route, field: 'dangerous_tags' }, { route, field: 'invalid_protocols' }]));
    await setEnabled('problems', true);
    const withProblems = ok(await api.get('/reports')) as Json[];
    expect(ids(withProblems)).toContain('problems');
    expect(withProblems.find((r) => r.id === 'problems')).toMatchObject({ provider: 'problems', component: 'problems-report', status: 'success', items: expect.arrayContaining([expect.objectContaining({ id: 'PHP Minimum Version', level: 'critical', status: true })]) });
    await setEnabled('problems', false);
    expect(expectProblem(await viewer.get('/reports'), 403).detail).toBe('Missing required permission: api.reports.read');
    expectProblem(await anon.get('/reports'), 401);
  });

  test('GET /gpm/plugins/team-notes/page: a blueprint page whose form, data and save work (422 with field errors, read back); badge and export', async () => {
    sb.events.clear();
    const def = ok(await api.get('/gpm/plugins/team-notes/page'));
    expect(def).toEqual({
      id: 'team-notes',
      plugin: 'team-notes',
      title: 'Team Notes',
      icon: 'fa-note-sticky',
      page_type: 'blueprint',
      blueprint: 'notes',
      data_endpoint: '/team-notes/notes',
      save_endpoint: '/team-notes/notes',
      actions: [
        { id: 'export', label: 'Export', icon: 'fa-download', download: true, endpoint: '/team-notes/export' },
        { id: 'save', label: 'Save', icon: 'fa-check', primary: true },
      ],
      has_custom_component: false,
    });
    expect(sb.events.list('onApiPluginPageInfo')[0]!.data).toMatchObject({ plugin: 'team-notes', user: 'admin' });
    const form = ok(await api.get(`/blueprints/plugins/team-notes/pages/${def.blueprint}`));
    expect(form.fields.map((f: Json) => f.name)).toEqual(['notes_section', 'notes']);
    // the list's colour is the plugin's own field type, whose script the site serves
    expect(form.fields[1].fields.find((f: Json) => f.name === 'notes.color')).toEqual({ name: 'notes.color', type: 'note-color', label: 'Colour' });
    const bad = await editor.patch(def.save_endpoint, { notes: [{ title: ' ', body: 'x' }, { title: 'Fine', pinned_until: '2026-02-30' }, { title: 'Also fine', pinned_until: '2026-12-01', color: 'red' }] });
    expect(expectProblem(bad, 422).errors).toEqual([
      { field: 'notes.0.title', message: 'Invalid input in "Title"' },
      { field: 'notes.1.pinned_until', message: 'Invalid input in "Pinned until"' },
      { field: 'notes.2.color', message: 'Invalid input in "Colour"' },
    ]);
    expect(expectProblem(await editor.patch(def.save_endpoint, { notes: 'nope' }), 422).errors).toEqual([{ field: 'notes', message: 'Invalid input in "Notes"' }]);
    // pinned until a day a year past the sandbox's clock: not stale whenever the test runs
    const ahead = new Date(sb.clock.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    const saved = [
      { title: 'Launch checklist', body: 'Ship on Friday', pinned_until: ahead, color: '#ffd84d' },
      { title: 'Old news', body: '', pinned_until: '2020-01-01' },
    ];
    expect(ok(await editor.patch(def.save_endpoint, { notes: saved }))).toEqual({ notes: saved });
    expect(ok(await viewer.get(def.data_endpoint))).toEqual({ notes: saved });
    expect(ok(await viewer.get('/team-notes/badge'))).toEqual({ count: 2 });
    const stale = (ok(await api.get('/reports')) as Json[]).find((r) => r.id === 'team-notes-stale')!;
    expect(stale).toMatchObject({ status: 'warning', items: [{ title: 'Old news', pinned_until: '2020-01-01' }] });
    const exported = await viewer.get('/team-notes/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="team-notes.json"');
    expect(exported.body).toEqual({ notes: saved });
    expectProblem(await viewer.patch(def.save_endpoint, { notes: [] }), 403);
    expectProblem(await anon.get(def.data_endpoint), 401);
    await setEnabled('team-notes', false);
    expectProblem(await api.get('/gpm/plugins/team-notes/page'), 404);
    expectProblem(await api.get(def.data_endpoint), 404);
    await setEnabled('team-notes', true);
  });

  test('GET /gpm/plugins/{slug}/page: a component page from its files (also while disabled); 404; a slug that is not a name; 401; 403 (real)', async () => {
    const def = ok(await gpmReader.get('/gpm/plugins/site-health/page'));
    expect(def).toEqual({
      id: 'site-health',
      plugin: 'site-health',
      title: 'Site Health',
      icon: 'class:fa-solid fa-heart-pulse',
      page_type: 'component',
      actions: [{ id: 'run', label: 'Check now', icon: 'fa-rotate', endpoint: '/site-health/run', method: 'POST' }],
      has_custom_component: true,
    });
    expect(ok(await api.post(def.actions[0].endpoint))).toEqual({ status: 'success', message: expect.stringMatching(/^6 checks run/) });
    expectProblem(await viewer.post('/site-health/run'), 403);
    await setEnabled('site-health', false);
    expect(ok(await api.get('/gpm/plugins/site-health/page')).page_type).toBe('component');
    expectProblem(await api.post('/site-health/run'), 404);
    await setEnabled('site-health', true);
    expect(expectProblem(await api.get('/gpm/plugins/login/page'), 404).detail).toBe("No admin page found for plugin 'login'.");
    expectProblem(await api.get('/gpm/plugins/no-such-plugin/page'), 404);
    expectProblem(await api.get('/gpm/plugins/team%5Cnotes/page'), real ? 422 : 404);
    if (real) expect(expectProblem(await viewer.get('/gpm/plugins/team-notes/page'), 403).detail).toBe('Missing required permission: api.gpm.read');
    else expect(ok(await viewer.get('/gpm/plugins/team-notes/page')).id).toBe('team-notes');
    expectProblem(await anon.get('/gpm/plugins/team-notes/page'), 401);
  });

  test('the script routes: JavaScript with the flavour\'s cache headers, 304 on a matching ETag; 404; 401; 403', async () => {
    const routes = [
      '/gpm/plugins/site-health/page-script',
      '/gpm/plugins/team-notes/field/note-color',
      '/gpm/themes/quark2/field/accent-swatch',
      '/gpm/plugins/site-health/report-script/health-report',
      '/gpm/plugins/team-notes/widget-script',
      '/gpm/plugins/site-health/widget-script',
      '/gpm/plugins/team-notes/panel-script',
      '/gpm/plugins/site-health/panel-script',
      '/gpm/plugins/team-notes/modal-script/new-note',
    ];
    for (const route of routes) {
      const r = await gpmReader.get(route);
      expect(r.status, route).toBe(200);
      expect(r.type).toBe(real ? 'application/javascript; charset=utf-8' : 'application/javascript');
      expect(r.headers.get('cache-control')).toBe(real ? 'private, no-cache' : 'public, max-age=31536000, immutable');
      const etag = r.headers.get('etag')!;
      if (real) expect(etag).toBe(`"${(1_795_000_000).toString(16)}-${Buffer.byteLength(r.text).toString(16)}"`);
      expect(() => new Function(r.text), route).not.toThrow();
      const again = await gpmReader.get(route, { 'If-None-Match': `"other", W/${etag}` });
      expect(again.status, route).toBe(304);
      expect(again.text).toBe('');
      expect((await gpmReader.get(route, { 'If-None-Match': '"other"' })).status).toBe(200);
    }
    // which package serves a field type, and a package's field scripts in one answer
    expect(ok(await gpmReader.get('/custom-fields'))).toEqual({ 'note-color': { slug: 'team-notes', kind: 'plugins' }, 'accent-swatch': { slug: 'quark2', kind: 'themes' } });
    const bundle = await gpmReader.get('/gpm/plugins/team-notes/fields');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('cache-control')).toBe('private, no-cache');
    expect(Object.keys(bundle.body)).toEqual(['note-color']);
    expect(bundle.body['note-color']).toBe((await gpmReader.get('/gpm/plugins/team-notes/field/note-color')).text);
    expect((await gpmReader.get('/gpm/plugins/team-notes/fields', { 'If-None-Match': bundle.headers.get('etag')! })).status).toBe(304);
    expect(Object.keys((await gpmReader.get('/gpm/themes/quark2/fields')).body)).toEqual(['accent-swatch']);
    expect((await gpmReader.get('/gpm/plugins/login/fields')).body).toEqual([]);
    expectProblem(await gpmReader.get('/gpm/plugins/nothing/fields'), 404);
    expectProblem(await gpmReader.get('/gpm/plugins/team%5Cnotes/fields'), real ? 422 : 404);
    expectProblem(await anon.get('/gpm/plugins/team-notes/fields'), 401);
    expectProblem(await viewer.get('/gpm/themes/quark2/fields'), 403);
    expectProblem(await viewer.get('/custom-fields'), 403);
    expectProblem(await anon.get('/custom-fields'), 401);
    await setEnabled('team-notes', false);
    expect(ok(await gpmReader.get('/custom-fields'))).toEqual({ 'accent-swatch': { slug: 'quark2', kind: 'themes' } });
    await setEnabled('team-notes', true);
    // a package without that script, a package not installed, a slug that is not a name
    expect(expectProblem(await gpmReader.get('/gpm/plugins/team-notes/page-script'), 404).detail).toBe("Page component not found for plugin 'team-notes'.");
    expectProblem(await gpmReader.get('/gpm/plugins/team-notes/field/nothing'), 404);
    expectProblem(await gpmReader.get('/gpm/themes/antimatter/field/accent-swatch'), 404);
    expectProblem(await gpmReader.get('/gpm/plugins/site-health/report-script/other'), 404);
    expectProblem(await gpmReader.get('/gpm/plugins/login/widget-script'), 404);
    expectProblem(await gpmReader.get('/gpm/plugins/login/panel-script'), 404);
    expectProblem(await gpmReader.get('/gpm/plugins/team-notes/modal-script/other'), 404);
    expect(expectProblem(await gpmReader.get('/gpm/plugins/nothing/widget-script'), 404).detail).toBe("Package 'nothing' not found.");
    expectProblem(await gpmReader.get('/gpm/plugins/team%5Cnotes/panel-script'), real ? 422 : 404);
    // scripts of a disabled plugin are still its files
    await setEnabled('site-health', false);
    expect((await gpmReader.get('/gpm/plugins/site-health/widget-script')).status).toBe(200);
    await setEnabled('site-health', true);
    // the page script asks only for a signed-in caller in the document, api.gpm.read on the real service
    expect((await viewer.get('/gpm/plugins/site-health/page-script')).status).toBe(real ? 403 : 200);
    for (const route of routes.slice(1)) expectProblem(await viewer.get(route), 403);
    for (const route of routes) expectProblem(await anon.get(route), 401);
  });

  test('the page script of site-health tries every way out of its frame and reports each to its parent', async () => {
    const source = (await gpmReader.get('/gpm/plugins/site-health/page-script')).text;
    const posted: Json[] = [];
    const denied = () => {
      throw Object.assign(new Error('Blocked a frame with origin "null" from accessing a cross-origin frame.'), { name: 'SecurityError' });
    };
    // a frame's view of the world when sandboxed: the parent only takes messages, storage throws, fetch fails
    const parent = new Proxy({}, { get: (_t, k) => (k === 'postMessage' ? (m: Json) => posted.push(m) : denied()) });
    const win: Record<string, unknown> = {
      parent,
      top: parent,
      opener: null,
      indexedDB: undefined,
      location: { hash: '#fetch=' + encodeURIComponent('http://127.0.0.1:9/bridge/invoke') + '&fetch=' + encodeURIComponent('http://127.0.0.1:9/api') },
      document: {
        get cookie() {
          return '';
        },
        set cookie(_v: string) {
          /* an opaque origin keeps no cookie */
        },
      },
      fetch: (url: string) => Promise.reject(new TypeError(`Failed to fetch ${url}`)),
      open: () => null,
      addEventListener: () => undefined,
      URLSearchParams,
    };
    for (const k of ['localStorage', 'sessionStorage']) Object.defineProperty(win, k, { get: denied });
    win.window = win;
    runInNewContext(source, win);
    await new Promise((r) => setTimeout(r, 20));
    expect(posted[0]).toEqual({ type: 'sitedesk-probe:ready', plugin: 'site-health' });
    const report = posted[1]!;
    expect(report).toMatchObject({ type: 'sitedesk-probe:report', plugin: 'site-health', round: 1 });
    const results = report.results as { probe: string; escaped: boolean; detail: string }[];
    expect(results.map((r) => r.probe)).toEqual([
      'parent.document',
      'parent.location',
      'top.document',
      'top.location',
      'parent.sitedesk',
      'window.sitedesk',
      'localStorage',
      'sessionStorage',
      'document.cookie',
      'opener.postMessage',
      'window.open',
      'indexedDB',
      'fetch http://127.0.0.1:9/bridge/invoke',
      'fetch http://127.0.0.1:9/api',
    ]);
    expect(results.filter((r) => r.escaped)).toEqual([]);
    expect(results[0]!.detail).toMatch(/^SecurityError/);
  });

  test('GET /translations/{lang}: public; the language\'s strings backfilled from English, prefix, checksum, direction', async () => {
    const en = ok(await anon.get('/translations/en'));
    expect(Object.keys(en)).toEqual(['lang', 'dir', 'count', 'checksum', 'strings']);
    expect(en).toMatchObject({ lang: 'en-US', dir: 'ltr' });
    expect(en.strings['PLUGIN_TEAM_NOTES.MENU_LABEL']).toBe('Team notes');
    expect(en.strings['ICU.ADMIN_NEXT.ENABLED']).toBe('Enabled');
    expect(en.strings).not.toHaveProperty('ADMIN_NEXT.ENABLED'); // shadowed by its ICU twin
    expect(en.strings).not.toHaveProperty('PLUGIN_PROBLEMS.TITLE'); // a disabled plugin's
    expect(en.count).toBe(Object.keys(en.strings).length);
    expect(en.checksum).toBe(createHash('md5').update(phpJson(en.strings)).digest('hex'));
    const de = ok(await anon.get('/translations/de?prefix=plugin_team_notes'));
    expect(de).toMatchObject({ lang: 'de-DE', count: 5 });
    expect(de.strings['PLUGIN_TEAM_NOTES.MENU_LABEL']).toBe('Team-Notizen');
    const fr = ok(await anon.get('/translations/fr-fr?prefix=PLUGIN_TEAM_NOTES'));
    expect(fr.lang).toBe('fr-FR');
    expect(fr.strings['PLUGIN_TEAM_NOTES.MENU_LABEL']).toBe('Notes d’équipe');
    expect(fr.strings['PLUGIN_TEAM_NOTES.QUICK_NOTE']).toBe('Quick note'); // backfilled
    expect(ok(await anon.get('/translations/he')).dir).toBe('rtl');
    expect(ok(await anon.get('/translations/not_a_code!')).lang).toBe('en-US');
    // nothing under the prefix: PHP's empty array, as recorded
    expect(ok(await anon.get('/translations/en?prefix=PLUGIN_ADMIN.SAVE'))).toEqual({ lang: 'en-US', dir: 'ltr', count: 0, checksum: 'd751713988987e9331980363e24189ce', strings: [] });
    await setEnabled('problems', true);
    expect(ok(await anon.get('/translations/en')).strings['PLUGIN_PROBLEMS.TITLE']).toBe('Grav Potential Problems');
    await setEnabled('problems', false);
  });

  test('GET /system/info: the recorded shape, installed plugins and themes; paths hidden from a demo account; 401; 403', async () => {
    const info = ok(await sysReader.get('/system/info'));
    expect(Object.keys(info)).toEqual(['grav_version', 'php_version', 'php_extensions', 'server_software', 'environment', 'plugins', 'themes', 'php_config']);
    expect(info).toMatchObject({ grav_version: sb.settings.cmsVersion, php_version: '8.4.28', server_software: 'PHP/8.4.28 (Development Server)', environment: 'localhost' });
    expect(info.php_extensions).toContain('Zend OPcache');
    expect(info.plugins).toEqual(expect.arrayContaining([{ name: 'Email', version: expect.any(String), enabled: true }, { name: 'problems', version: expect.any(String), enabled: false }, { name: 'Site Health', version: expect.any(String), enabled: true }]));
    expect(info.plugins.map((p: Json) => p.name).slice(0, 2)).toEqual(['API', 'Email']);
    expect(info.themes).toEqual([{ name: 'Quark 2', version: expect.any(String), active: true }]);
    expect(Object.keys(info.php_config)).toEqual(['Upload & POST', 'Memory & Execution', 'Error Handling', 'Paths & Environment', 'Session', 'OPcache', 'Security', 'Date & Locale']);
    expect(info.php_config['Paths & Environment'].doc_root).toBe('/srv/site/grav');
    const demo = await api.keyFor('demo', { access: { api: { access: true, demo: true, system: { read: true } } } });
    const hidden = ok(await demo.get('/system/info'));
    expect(hidden.server_software).toBe('(hidden in demo mode)');
    expect(hidden.php_config['Paths & Environment'].doc_root).toBe('(hidden in demo mode)');
    expect(expectProblem(await viewer.get('/system/info'), 403).detail).toBe('Missing required permission: api.system.read');
    expectProblem(await anon.get('/system/info'), 401);
  });

  test('DELETE /cache: per scope as core clears it, what held something listed; refilled later; 422; 401; 403', async () => {
    sb.events.clear();
    const first = ok(await api.delete('/cache'));
    expect(first).toEqual({
      scope: 'standard',
      message: 'Cache cleared successfully (scope: standard).',
      details: [
        '<red>Cleared:  </red>/srv/site/cache/twig/*',
        '<red>Cleared:  </red>/srv/site/cache/doctrine/*',
        '<red>Cleared:  </red>/srv/site/cache/grav/*',
        '<red>Cleared:  </red>/srv/site/cache/compiled/*',
        '<red>Cleared:  </red>/srv/site/assets/*',
        '',
        '<red>Touched: </red>/srv/site/user/config/system.yaml',
        '',
      ],
    });
    expect(sb.events.names()).toEqual(['onBeforeCacheClear', 'onAfterCacheClear']);
    // nothing left to clear, until visitors fill it again
    expect(ok(await api.delete('/cache?scope=standard')).details).toEqual(['', '<red>Touched: </red>/srv/site/user/config/system.yaml', '']);
    // images, assets and tmp reach core as names it does not know: it clears what standard does, without touching the configuration
    expect(ok(await api.delete('/cache?scope=images'))).toEqual({ scope: 'images', message: 'Cache cleared successfully (scope: images).', details: [''] });
    expect(ok(await api.delete('/cache?scope=all')).details).toEqual(['<red>Cleared:  </red>/srv/site/cache/*', '<red>Cleared:  </red>/srv/site/tmp/*', '', '<red>Touched: </red>/srv/site/user/config/system.yaml', '']);
    sb.clock.advance(5 * 60_000);
    expect(ok(await api.delete('/cache?scope=tmp')).details).toEqual(['<red>Cleared:  </red>/srv/site/cache/twig/*', '<red>Cleared:  </red>/srv/site/cache/doctrine/*', '<red>Cleared:  </red>/srv/site/cache/grav/*', '<red>Cleared:  </red>/srv/site/cache/compiled/*', '<red>Cleared:  </red>/srv/site/assets/*', '']);
    expect(expectProblem(await api.delete('/cache?scope=everything'), 422).detail).toBe("Invalid cache scope 'everything'. Allowed: all, standard, images, assets, tmp");
    expect(expectProblem(await sysReader.delete('/cache'), 403).detail).toBe('Missing required permission: api.system.write');
    expectProblem(await anon.delete('/cache'), 401);
  });
});
