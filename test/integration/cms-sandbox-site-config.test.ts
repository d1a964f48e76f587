/**
 * The CMS sandbox's configuration over real HTTP: the scope list, reads with the override meta and
 * masked secrets, writes merged over the stored values and checked against the form, the ETag and
 * If-Match, the super-only scopes, plugin and theme settings, the events. Both flavours answer as
 * the real service does (the document shows no shapes); the real one adds X-Invalidates and turns
 * the one 400 (an empty body) into 422.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const ok = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return r.body as { data: Json; meta: { overrides: string[]; fallback: Json } };
};

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let viewer: SandboxClient;
  let admin: SandboxClient;
  let reader: SandboxClient;
  /** what the site's file holds for a scope: its overrides only ({} when none) */
  const stored = (scope: string) => sb.site.config.delta(scope) as Json;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    admin = await api.keyFor('configadmin', { access: { api: { access: true, config: { read: true, write: true } } } });
    reader = await api.keyFor('configreader', { access: { api: { access: true, config: { read: true } } } });
  });
  afterAll(() => sb?.close());

  test('GET /gpm/plugins and /gpm/themes: the installed packages with the fields of the real service; enabled is their own setting; 403; 401', async () => {
    const plugins = ok(await api.get('/gpm/plugins')).data as unknown as { slug: string; name: string; type: string; enabled: boolean; version: string }[];
    expect(plugins.map((p) => p.slug)).toEqual(expect.arrayContaining(['api', 'email', 'login', 'team-notes', 'problems']));
    expect(plugins.find((p) => p.slug === 'email')).toMatchObject({ name: 'Email', type: 'plugin', enabled: true, version: expect.any(String) });
    expect(plugins.find((p) => p.slug === 'problems')?.enabled).toBe(false);
    const themes = ok(await api.get('/gpm/themes')).data as unknown as { slug: string; type: string }[];
    expect(themes.map((t) => t.slug)).toEqual(expect.arrayContaining(['quark2', 'antimatter']));
    expect(themes.every((t) => t.type === 'theme')).toBe(true);
    expectProblem(await viewer.get('/gpm/plugins'), 403);
    expectProblem(await api.as({ none: true }).get('/gpm/themes'), 401);
  });

  test('GET /config: system, site, the rest sorted, info; backups only for API super users; 403; 401', async () => {
    expect(ok(await api.get('/config')).data).toEqual(['system', 'site', 'backups', 'media', 'security', 'info']);
    expect(ok(await reader.get('/config')).data).toEqual(['system', 'site', 'media', 'security', 'info']);
    // a super account's key scoped below super is not a super user here
    const scoped = await api.keyFor('admin', { scopes: ['api.config'] });
    expect(ok(await scoped.get('/config')).data).not.toContain('backups');
    expect(expectProblem(await viewer.get('/config'), 403).detail).toBe('Missing required permission: api.config.read');
    expectProblem(await api.as({ none: true }).get('/config'), 401);
  });

  test('GET /config/{scope}: values, meta.overrides and fallback, an ETag; secrets masked', async () => {
    const r = await reader.get('/config/site');
    const body = ok(r);
    expect(body.data).toEqual({
      title: 'Sitedesk Demo',
      default_lang: 'en',
      author: { name: 'Ada Admin', email: 'admin@example.test' },
      taxonomies: ['category', 'tag'],
      metadata: { description: 'A demo site served by the Sitedesk sandbox' },
      summary: { enabled: true, format: 'short', size: 300, delimiter: '===' },
      redirects: null,
      routes: null,
      blog: { route: '/blog' },
    });
    expect(body.meta).toEqual({
      overrides: ['title', 'author.name', 'author.email', 'metadata.description'],
      fallback: { title: 'Grav', 'author.name': 'John Appleseed', 'author.email': 'john@example.com', 'metadata.description': 'My Grav Site' },
    });
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await reader.get('/config/site')).headers.get('etag')).toBe(r.headers.get('etag'));

    const system = ok(await reader.get('/config/system'));
    // a text field found by its name, an unset one left empty
    expect(system.data.cache.redis).toEqual({ server: '127.0.0.1:6379', password: '********' });
    expect(system.data.languages.supported).toEqual(['en', 'de', 'fr']);
    const email = ok(await reader.get('/config/plugins/email'));
    expect(email.data.mailer.smtp).toEqual({ server: 'smtp.example.test', port: 587, encryption: 'tls', user: 'mailer', password: '********' });
    // a secret no form shows, by its name
    expect(ok(await reader.get('/config/plugins/api')).data.auth.jwt_secret).toBe('********');
    expect(ok(await reader.get('/config/themes/quark2')).data['accent-color']).toBe('#1f6feb');
    // a package without a form still has settings
    expect(ok(await reader.get('/config/plugins/problems')).data).toEqual({ enabled: false });
    for (const scope of ['media', 'security']) expect(ok(await reader.get(`/config/${scope}`)).meta).toEqual({ overrides: [], fallback: {} });
  });

  test('GET /config/{scope}: 404 unknown scopes and packages; scheduler and backups for API super users only; 403; 401', async () => {
    expect(expectProblem(await reader.get('/config/nope'), 404).detail).toBe("Unknown configuration scope 'nope'.");
    expectProblem(await reader.get('/config/info'), 404);
    expect(expectProblem(await reader.get('/config/plugins/nope'), 404).detail).toBe("Configuration scope 'plugins/nope' not found.");
    expectProblem(await reader.get('/config/themes/nope'), 404);
    for (const scope of ['scheduler', 'backups']) {
      expect(expectProblem(await reader.get(`/config/${scope}`), 403).detail).toBe(`Configuration scope '${scope}' is tool-managed and restricted to API super users.`);
      expect(ok(await api.get(`/config/${scope}`)).data).toBeTypeOf('object');
    }
    expect(ok(await api.get('/config/backups')).data.purge.max_backups_count).toBe(25);
    expectProblem(await viewer.get('/config/site'), 403);
    expectProblem(await api.as({ none: true }).get('/config/site'), 401);
  });

  test('PATCH /config/{scope}: merged, filtered to the form\'s types, stored as the difference; meta, ETag, events, X-Invalidates', async () => {
    sb.events.clear();
    const before = await admin.get('/config/site');
    const r = await admin.patch('/config/site', { title: 'Recorded site', summary: { size: '250', enabled: '0' }, taxonomies: 'category, tag, author' });
    const body = ok(r);
    expect(body.data).toMatchObject({ title: 'Recorded site', author: { name: 'Ada Admin' }, summary: { enabled: false, format: 'short', size: 250, delimiter: '===' }, taxonomies: ['category', 'tag', 'author'] });
    expect(body.meta.overrides).toEqual(['title', 'author.name', 'author.email', 'taxonomies', 'metadata.description', 'summary.enabled', 'summary.size']);
    expect(body.meta.fallback).toMatchObject({ title: 'Grav', taxonomies: ['category', 'tag'], 'summary.size': 300, 'summary.enabled': true });
    expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((await admin.get('/config/site')).headers.get('etag')).toBe(r.headers.get('etag'));
    if (real) expect(r.headers.get('x-invalidates')).toBe('config:update:site');
    else expect(r.headers.get('x-invalidates')).toBeNull();
    expect(stored('site')).toEqual({
      title: 'Recorded site',
      author: { name: 'Ada Admin', email: 'admin@example.test' },
      taxonomies: ['category', 'tag', 'author'],
      metadata: { description: 'A demo site served by the Sitedesk sandbox' },
      summary: { enabled: false, size: 250 },
    });
    expect(sb.events.names()).toEqual(['onAdminSave', 'onAdminAfterSave', 'onApiConfigUpdated']);
    expect(sb.events.list('onApiConfigUpdated')[0]!.data).toMatchObject({ scope: 'site', data: { title: 'Recorded site' } });

    // a value set back to its default is no longer an override
    const back = ok(await admin.patch('/config/site', { summary: { enabled: true, size: 300 }, title: 'Grav' }));
    expect(back.meta.overrides).toEqual(['author.name', 'author.email', 'taxonomies', 'metadata.description']);
    expect(stored('site')).toEqual({
      author: { name: 'Ada Admin', email: 'admin@example.test' },
      taxonomies: ['category', 'tag', 'author'],
      metadata: { description: 'A demo site served by the Sitedesk sandbox' },
    });
  });

  test('PATCH: a form field replaces a map; a masked secret sent back keeps the stored one; a new one replaces it', async () => {
    ok(await api.patch('/config/site', { metadata: { keywords: 'demo' } }));
    expect(stored('site')!.metadata).toEqual({ keywords: 'demo' });
    const email = ok(await admin.get('/config/plugins/email')).data;
    const same = ok(await admin.patch('/config/plugins/email', { ...email, from: 'site@example.test' }));
    expect(same.data.mailer.smtp.password).toBe('********');
    expect(stored('plugins/email')).toEqual({ from: 'site@example.test', mailer: { smtp: { server: 'smtp.example.test', port: 587, encryption: 'tls' } } });
    const r = await admin.patch('/config/plugins/email', { mailer: { smtp: { password: 'a-new-secret' } } });
    ok(r);
    expect(stored('plugins/email')!.mailer.smtp.password).toBe('a-new-secret');
    if (real) expect(r.headers.get('x-invalidates')).toBe('config:update:plugins/email, plugins:update:email, plugins:list');
    ok(await admin.patch('/config/themes/quark2', { 'header-fixed': '0' }));
    expect(stored('themes/quark2')).toEqual({ 'accent-color': '#1f6feb', 'header-fixed': false });
  });

  test('PATCH: 422 with the fields that fail the form; unchanged values are not checked', async () => {
    const r = await admin.patch('/config/site', { title: '', author: { email: 'not-an-email' }, summary: { size: 'many', format: 'medium' } });
    const problem = expectProblem(r, 422);
    expect(problem.detail).toBe('The submitted data did not pass blueprint validation.');
    expect(problem.errors).toEqual([
      { field: 'title', message: 'Invalid input in "Site title"' },
      { field: 'author.email', message: 'Invalid input in "Default email"' },
      { field: 'summary.size', message: 'Invalid input in "Size"' },
      { field: 'summary.format', message: 'Invalid input in "Format"' },
    ]);
    expect(expectProblem(await admin.patch('/config/site', { summary: { size: 70000 } }), 422).errors).toEqual([{ field: 'summary.size', message: 'Invalid input in "Size"' }]);
    expect(expectProblem(await admin.patch('/config/plugins/email', { from: 'nobody' }), 422).errors).toEqual([{ field: 'from', message: 'Invalid input in "Email from"' }]);
    expect(expectProblem(await api.patch('/config/system', { pages: { order: { by: 'random' }, order_digits: 9 } }), 422).errors).toEqual([
      { field: 'pages.order.by', message: 'Invalid input in "Default ordering"' },
      { field: 'pages.order_digits', message: 'Invalid input in "Order digits"' },
    ]);
    // nothing was written by a refused write
    expect(stored('site')!.author).toEqual({ name: 'Ada Admin', email: 'admin@example.test' });
    // a value sent back unchanged is not checked again, even where the form would refuse it now
    const current = ok(await admin.get('/config/site')).data;
    ok(await admin.patch('/config/site', { ...current, blog: { route: '/news' } }));
  });

  test('PATCH: If-Match must be the current ETag (409); an empty body is refused; super-only scopes; 403; 404; 401', async () => {
    const etag = (await admin.get('/config/site')).headers.get('etag')!;
    ok(await admin.patch('/config/site', { blog: { route: '/journal' } }, { 'If-Match': etag }));
    expect(expectProblem(await admin.patch('/config/site', { blog: { route: '/x' } }, { 'If-Match': etag }), 409).detail).toBe(
      'The resource has been modified since you last retrieved it. Please fetch the latest version and try again.',
    );
    const fresh = (await admin.get('/config/site')).headers.get('etag')!;
    ok(await admin.patch('/config/site', { blog: { route: '/x' } }, { 'If-Match': `W/${fresh}` }));
    expect(expectProblem(await admin.patch('/config/site', {}), real ? 422 : 400).detail).toBe('Request body must contain configuration values to update.');
    for (const scope of ['system', 'security', 'plugins/api']) {
      expect(expectProblem(await admin.patch(`/config/${scope}`, { x: 1 }), 403).detail).toBe(`Configuration scope '${scope}' can only be modified by an API super user.`);
    }
    expect(expectProblem(await admin.patch('/config/scheduler', { custom_jobs: {} }), 403).detail).toBe("Configuration scope 'scheduler' is tool-managed and restricted to API super users.");
    ok(await api.patch('/config/system', { debugger: { enabled: true } }));
    ok(await api.patch('/config/backups', { purge: { max_backups_count: '10' } }));
    expect(stored('backups')).toEqual({ purge: { max_backups_count: 10 } });
    expect(expectProblem(await reader.patch('/config/site', { title: 'x' }), 403).detail).toBe('Missing required permission: api.config.write');
    expectProblem(await admin.patch('/config/nope', { x: 1 }), 404);
    expectProblem(await admin.patch('/config/plugins/nope', { x: 1 }), 404);
    expectProblem(await api.as({ none: true }).patch('/config/site', { title: 'x' }), 401);
    expect(expectProblem(await admin.patch('/config/site', '{"title":'), real ? 422 : 400).detail).toBe('The request body is not valid JSON.');
    expectProblem(await admin.put('/config/site', { title: 'x' }), 405);
  });

  test('POST /config/{scope}/revert: overrides dropped by key or all at once; 400 (real 422) without either; scope rules; 409; 404; 401', async () => {
    ok(await api.patch('/config/site', { title: 'Reverted soon', summary: { size: 120 } }));
    sb.events.clear();
    const r = await admin.post('/config/site/revert', { keys: ['title', 'summary.size', 'not.there'] });
    const body = ok(r);
    expect(body.data.title).toBe('Grav');
    expect(body.data.summary.size).toBe(300);
    expect(body.meta.overrides).not.toContain('title');
    expect(body.meta.overrides).toContain('author.name');
    expect(stored('site')).not.toHaveProperty('summary');
    expect(stored('site')).toHaveProperty(['author', 'name']); // the rest stays stored
    if (real) expect(r.headers.get('x-invalidates')).toBe('config:update:site');
    expect(sb.events.names()).toEqual(['onApiConfigUpdated']);
    expect((await admin.get('/config/site')).headers.get('etag')).toBe(r.headers.get('etag'));
    const all = ok(await admin.post('/config/site/revert', { reset: true }));
    expect(all.meta).toEqual({ overrides: [], fallback: {} });
    expect(all.data.title).toBe('Grav');
    expect(stored('site')).toEqual({});
    expect(expectProblem(await admin.post('/config/site/revert', { keys: [] }), real ? 422 : 400).detail).toBe('Provide a non-empty "keys" array or "reset": true.');
    const etag = (await admin.get('/config/site')).headers.get('etag')!;
    ok(await admin.patch('/config/site', { title: 'Again' }));
    expectProblem(await admin.post('/config/site/revert', { reset: true }, { 'If-Match': etag }), 409);
    expectProblem(await admin.post('/config/system/revert', { reset: true }), 403);
    expectProblem(await reader.post('/config/site/revert', { reset: true }), 403);
    expectProblem(await admin.post('/config/nope/revert', { reset: true }), 404);
    expectProblem(await api.as({ none: true }).post('/config/site/revert', { reset: true }), 401);
    ok(await api.post('/config/plugins/email/revert', { keys: ['mailer.smtp.password'] }));
    expect(stored('plugins/email')!.mailer.smtp).not.toHaveProperty('password');
  });

  test('X-Config-Environment (real service only): base names write the site\'s files; a missing environment or a bad name is a 422', async () => {
    const base = ok(await admin.patch('/config/site', { blog: { route: '/base' } }, { 'X-Config-Environment': 'default' }));
    expect(base.data.blog.route).toBe('/base');
    expect(ok(await admin.get('/config/site', { 'X-Config-Environment': 'staging' })).data.blog.route).toBe('/base');
    const env = await admin.patch('/config/site', { blog: { route: '/staging' } }, { 'X-Config-Environment': 'staging' });
    const bad = await admin.get('/config/site', { 'X-Config-Environment': '../x' });
    if (real) {
      expect(expectProblem(env, 422).detail).toBe("Environment 'staging' does not exist. Create it first via POST /system/environments.");
      expect(expectProblem(bad, 422).detail).toBe("Invalid X-Config-Environment header: '../x'.");
    } else {
      // the documents know no such header
      expect(ok(env).data.blog.route).toBe('/staging');
      ok(bad);
    }
  });
});
