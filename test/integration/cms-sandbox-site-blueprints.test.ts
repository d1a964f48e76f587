/**
 * The CMS sandbox's site blueprints over real HTTP: the account form, the permission tree, plugin,
 * theme, plugin-page and configuration forms, and /data/resolve with its allow-list. Both flavours:
 * fields always in the real service's shapes (options as [{value, label}], containers with a
 * title); the envelope and some permissions differ (the real service asks api.users.read for the
 * tree and api.config.read for plugin pages; it answers every form as {name, title, type,
 * child_type, validation, fields[]}, the documents give plugin/theme/config forms as {id, name,
 * fields: {name: field}}).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

/** Every field of a serialised form, containers included. */
function walk(fields: Json[], out: Json[] = []): Json[] {
  for (const f of fields) {
    out.push(f);
    if (Array.isArray(f.fields)) walk(f.fields as Json[], out);
  }
  return out;
}

/** The real service's field shape: name and type first, list options, titles on layout fields. */
function expectRealFields(fields: Json[]): void {
  expect(fields.length).toBeGreaterThan(0);
  for (const f of walk(fields)) {
    expect(Object.keys(f).slice(0, 2)).toEqual(['name', 'type']);
    expect(typeof f.name).toBe('string');
    if ('options' in f) {
      expect(Array.isArray(f.options), f.name as string).toBe(true);
      for (const o of f.options as Json[]) expect(Object.keys(o)).toEqual(['value', 'label']);
      for (const o of f.options as Json[]) expect(typeof o.value).toBe('string');
    }
    if (f.type === 'tab' || f.type === 'section') {
      expect(f).toHaveProperty('title');
      expect(f).not.toHaveProperty('label');
    }
  }
}

const fieldNamed = (fields: Json[], name: string) => walk(fields).find((f) => f.name === name);

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  const BAD = real ? 422 : 400;
  let sb: CmsSandbox;
  let api: SandboxClient;
  let viewer: SandboxClient;
  let configReader: SandboxClient;
  let pagesReader: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    configReader = await api.keyFor('configreader', { access: { api: { access: true, config: { read: true }, users: { read: true } } } });
    pagesReader = await api.keyFor('pagesreader', { access: { api: { access: true, pages: { read: true } } } });
  });
  afterAll(() => sb?.close());

  test('GET /blueprints/users: the account form for any signed-in caller; 401 without one', async () => {
    sb.events.clear();
    const r = await viewer.get('/blueprints/users');
    expect(r.status, r.text).toBe(200);
    const data = r.body.data as Json;
    expect(data.name).toBe('account');
    expect(data.title).toBe('account');
    expect(data.validation).toBe('loose');
    if (real) expect(data).toMatchObject({ type: null, child_type: null });
    else expect(Object.keys(data)).toEqual(['name', 'title', 'validation', 'fields']);
    const fields = data.fields as Json[];
    expectRealFields(fields);
    expect(fields.map((f) => f.name)).toEqual(['info', 'avatar', 'multiavatar_only', 'content', 'username', 'email', 'password', 'fullname', 'title', 'state', 'language', 'content_editor', 'twofa_check', 'security', 'api_check']);
    expect(fieldNamed(fields, 'email')).toEqual({ name: 'email', type: 'email', label: 'Email', size: 'large', validate: { type: 'email', message: 'PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE', required: true } });
    expect(fieldNamed(fields, 'state')!.options).toEqual([{ value: 'enabled', label: 'ADMIN_NEXT.ENABLED' }, { value: 'disabled', label: 'ADMIN_NEXT.DISABLED' }]);
    // the demo site's languages
    expect((fieldNamed(fields, 'language')!.options as Json[]).map((o) => o.value)).toEqual(['en', 'de', 'fr']);
    expect(fieldNamed(fields, 'groups')).toMatchObject({ type: 'select', multiple: true, data_options: '\\Grav\\Common\\User\\Group::groupNames', validate: { type: 'commalist' } });
    expect(fieldNamed(fields, 'access')).toMatchObject({ type: 'permissions', validate: { type: 'array', value_type: 'bool' } });
    const [event] = sb.events.list('onApiBlueprintResolved');
    expect(event!.data).toMatchObject({ context: 'account', template: 'account', user: 'viewer' });
    expectProblem(await api.as({ none: true }).get('/blueprints/users'), 401);
    const siteOnly = await api.keyFor('siteonly', { access: { site: { login: true } } });
    expect(expectProblem(await siteOnly.get('/blueprints/users'), 403).detail).toBe('API access is not enabled for this user.');
  });

  test('GET /blueprints/users/permissions: the labelled tree; the real service asks api.users.read', async () => {
    const r = await configReader.get('/blueprints/users/permissions');
    expect(r.status, r.text).toBe(200);
    const tree = r.body.data as Json[];
    expect(tree.map((n) => n.name)).toEqual(['site', 'admin', 'api']);
    expect(tree[0]).toEqual({ name: 'site', label: 'Site', children: [{ name: 'site.login', label: 'Login to Site' }] });
    const apiNode = tree[2]!;
    expect((apiNode.children as Json[]).find((c) => c.name === 'api.pages')).toEqual({
      name: 'api.pages',
      label: 'Pages API',
      children: [
        { name: 'api.pages.read', label: 'Read Pages' },
        { name: 'api.pages.write', label: 'Create/Update/Delete Pages' },
      ],
    });
    const nodes = (list: Json[]): Json[] => list.flatMap((n) => [n, ...nodes((n.children as Json[] | undefined) ?? [])]);
    const leaves = nodes(tree).filter((n) => !n.children);
    expect(leaves).toHaveLength(27);
    expect(leaves.every((n) => typeof n.label === 'string' && n.label !== '')).toBe(true);
    expect(leaves.map((n) => n.name)).toContain('api.system.backup');
    if (real) expect(expectProblem(await viewer.get('/blueprints/users/permissions'), 403).detail).toBe('Missing required permission: api.users.read');
    else expect((await viewer.get('/blueprints/users/permissions')).status).toBe(200);
    expectProblem(await api.as({ none: true }).get('/blueprints/users/permissions'), 401);
  });

  test('GET /blueprints/plugins/{plugin}: a plugin form; 404 for an unknown plugin or one without a form; 403; 401', async () => {
    sb.events.clear();
    const r = await configReader.get('/blueprints/plugins/email');
    expect(r.status, r.text).toBe(200);
    const data = r.body.data as Json;
    let fields: Json[];
    if (real) {
      expect(data).toMatchObject({ name: 'email', title: 'Email', type: 'plugin', child_type: null, validation: 'loose' });
      fields = data.fields as Json[];
    } else {
      expect(Object.keys(data)).toEqual(['id', 'name', 'fields']);
      expect(data).toMatchObject({ id: 'email', name: 'Email' });
      const map = data.fields as Record<string, Json>;
      expect(Object.keys(map)).toEqual(['enabled', 'from', 'mailer.engine', 'smtp_section']);
      for (const [name, f] of Object.entries(map)) expect(f.name).toBe(name);
      fields = Object.values(map);
    }
    expectRealFields(fields);
    expect(fieldNamed(fields, 'enabled')).toEqual({ name: 'enabled', type: 'toggle', label: 'Plugin Status', default: 1, highlight: 1, options: [{ value: '1', label: 'Enabled' }, { value: '0', label: 'Disabled' }], validate: { type: 'bool' } });
    expect(fieldNamed(fields, 'mailer.smtp.password')).toMatchObject({ type: 'password' });
    expect(sb.events.list('onApiBlueprintResolved')[0]!.data).toMatchObject({ context: 'plugin', plugin: 'email', user: 'configreader' });

    const apiForm = (await configReader.get('/blueprints/plugins/api')).body.data as Json;
    const apiFields = real ? (apiForm.fields as Json[]) : Object.values(apiForm.fields as Record<string, Json>);
    expect(fieldNamed(apiFields, 'tabs')).toMatchObject({ type: 'tabs', classes: 'side-tabs' });
    expect(fieldNamed(apiFields, 'auth.jwt_algorithm')!.options).toEqual([
      { value: 'HS256', label: 'HS256' },
      { value: 'HS384', label: 'HS384' },
      { value: 'HS512', label: 'HS512' },
    ]);

    expect(expectProblem(await configReader.get('/blueprints/plugins/nope'), 404).detail).toBe("Blueprint for plugin 'nope' not found.");
    expect(expectProblem(await configReader.get('/blueprints/plugins/problems'), 404).detail).toBe("Blueprint for plugin 'problems' not found.");
    expect(expectProblem(await viewer.get('/blueprints/plugins/email'), 403).detail).toBe('Missing required permission: api.config.read');
    expectProblem(await api.as({ none: true }).get('/blueprints/plugins/email'), 401);
  });

  test('GET /blueprints/plugins/{plugin}/pages/{page}: an admin page form, the plugin form under its own name; 404s; permissions', async () => {
    sb.events.clear();
    const r = await configReader.get('/blueprints/plugins/team-notes/pages/notes');
    expect(r.status, r.text).toBe(200);
    const data = r.body.data as Json;
    expect(data).toMatchObject({ name: 'notes', title: 'Notes', type: null, child_type: null, validation: 'loose' });
    expectRealFields(data.fields as Json[]);
    expect(fieldNamed(data.fields as Json[], 'notes')).toMatchObject({ type: 'list', btnLabel: 'Add note' });
    expect(sb.events.list('onApiBlueprintResolved')[0]!.data).toMatchObject({ context: 'plugin-page', plugin: 'team-notes', page_id: 'notes' });

    const own = await configReader.get('/blueprints/plugins/email/pages/email');
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ name: 'email', title: 'Email', type: 'plugin' });

    expect(expectProblem(await configReader.get('/blueprints/plugins/nope/pages/notes'), 404).detail).toBe("Plugin 'nope' not found.");
    expect(expectProblem(await configReader.get('/blueprints/plugins/team-notes/pages/other'), 404).detail).toBe("Page blueprint 'other' not found for plugin 'team-notes'.");
    expect(expectProblem(await configReader.get('/blueprints/plugins/problems/pages/problems'), 404).detail).toBe("Page blueprint 'problems' not found for plugin 'problems'.");
    if (real) expect(expectProblem(await viewer.get('/blueprints/plugins/team-notes/pages/notes'), 403).detail).toBe('Missing required permission: api.config.read');
    else expect((await viewer.get('/blueprints/plugins/team-notes/pages/notes')).status).toBe(200);
    expectProblem(await api.as({ none: true }).get('/blueprints/plugins/team-notes/pages/notes'), 401);
  });

  test('GET /blueprints/themes/{theme}: the theme form; 404 unknown or formless; 403; 401', async () => {
    sb.events.clear();
    const r = await configReader.get('/blueprints/themes/quark2');
    expect(r.status, r.text).toBe(200);
    const data = r.body.data as Json;
    const fields = real ? (data.fields as Json[]) : Object.values(data.fields as Record<string, Json>);
    if (real) expect(data).toMatchObject({ name: 'quark2', title: 'Quark 2', type: 'theme', child_type: null, validation: 'loose' });
    else expect(data).toMatchObject({ id: 'quark2', name: 'Quark 2' });
    expectRealFields(fields);
    expect(fieldNamed(fields, 'custom_logo')).toEqual({ name: 'custom_logo', type: 'file', label: 'Custom Logo', size: 'large', multiple: false, markdown: true, destination: 'theme://images/logo', accept: ['image/*'] });
    expect(sb.events.list('onApiBlueprintResolved')[0]!.data).toMatchObject({ context: 'theme', theme: 'quark2' });
    expect(expectProblem(await configReader.get('/blueprints/themes/nope'), 404).detail).toBe("Blueprint for theme 'nope' not found.");
    expectProblem(await configReader.get('/blueprints/themes/antimatter'), 404);
    expectProblem(await viewer.get('/blueprints/themes/quark2'), 403);
    expectProblem(await api.as({ none: true }).get('/blueprints/themes/quark2'), 401);
  });

  test('GET /blueprints/config/{scope}: the six core scopes; 404 any other; 403; 401', async () => {
    for (const scope of ['system', 'site', 'media', 'security', 'scheduler', 'backups']) {
      const r = await configReader.get(`/blueprints/config/${scope}`);
      expect(r.status, `${scope}: ${r.text}`).toBe(200);
      const data = r.body.data as Json;
      const fields = real ? (data.fields as Json[]) : Object.values(data.fields as Record<string, Json>);
      if (real) expect(data).toMatchObject({ name: scope, title: scope, type: null, child_type: null, validation: 'loose' });
      else expect(data).toMatchObject({ id: scope, name: scope });
      expectRealFields(fields);
    }
    const system = (await configReader.get('/blueprints/config/system')).body.data as Json;
    const systemFields = real ? (system.fields as Json[]) : Object.values(system.fields as Record<string, Json>);
    expect(fieldNamed(systemFields, 'system_tabs')).toMatchObject({ type: 'tabs', classes: 'side-tabs' });
    expect(fieldNamed(systemFields, 'pages.order_digits')).toMatchObject({ default: 2, validate: { type: 'int', min: 1, max: 6 } });
    expect(fieldNamed(systemFields, 'timezone')).toMatchObject({ options: [{ value: '', label: 'Default (Server Timezone)' }], data_options: '\\Grav\\Common\\Utils::timezones' });
    // the real service's property order: options before data_options, validate last
    expect(Object.keys(fieldNamed(systemFields, 'pages.dateformat.default')!)).toEqual(['name', 'type', 'label', 'help', 'placeholder', 'size', 'selectize', 'data_options', 'validate']);
    expect(expectProblem(await configReader.get('/blueprints/config/streams'), 404).detail).toBe("Config blueprint scope 'streams' not found.");
    expectProblem(await viewer.get('/blueprints/config/site'), 403);
    expectProblem(await api.as({ none: true }).get('/blueprints/config/site'), 401);
  });

  test('GET /data/resolve: approved providers as [{value, label}]; 400 (real 422) missing, malformed, unapproved; 404 missing class; 403; 401', async () => {
    const resolve = (callable: string, extra = '') => pagesReader.get(`/data/resolve?callable=${encodeURIComponent(callable)}${extra}`);
    const types = await resolve('\\Grav\\Common\\Page\\Pages::types');
    expect(types.status, types.text).toBe(200);
    expect(types.body.data).toEqual([
      { value: 'blog', label: 'Blog' },
      { value: 'chapter', label: 'Chapter' },
      { value: 'default', label: 'Default' },
      { value: 'docs', label: 'Docs' },
      { value: 'form', label: 'Form' },
      { value: 'item', label: 'Item' },
    ]);
    // the leading backslash is optional; pageTypes honours ?type=
    expect((await resolve('Grav\\Common\\Page\\Pages::pageTypes')).body.data).toEqual(types.body.data);
    expect((await resolve('Grav\\Common\\Page\\Pages::pageTypes', '&type=modular')).body.data).toEqual([]);
    // the classic admin's wrappers fall back to core's page types
    expect((await resolve('\\Grav\\Plugin\\AdminPlugin::pagesTypes')).body.data).toEqual(types.body.data);
    expect((await resolve('\\Grav\\Plugin\\AdminPlugin::pagesModularTypes')).body.data).toEqual([]);
    const zones = (await resolve('\\Grav\\Common\\Utils::timezones')).body.data as Json[];
    expect(zones.find((z) => z.value === 'Europe/Berlin')).toEqual({ value: 'Europe/Berlin', label: '(+01:00) Europe/Berlin' });
    expect(((await resolve('\\Grav\\Common\\Utils::dateFormats')).body.data as Json[]).map((d) => d.value)).toContain('Y-m-d H:i');
    expect((await resolve('\\Grav\\Common\\Page\\Pages::parents')).body.data).toContainEqual({ value: '/', label: '<root>' });
    expect((await resolve('\\Grav\\Common\\Security::pageProcessOptions')).body.data).toEqual([{ value: 'markdown', label: 'Markdown' }]);
    expect((await resolve('\\Grav\\Common\\User\\Group::groupNames')).status).toBe(200);

    const missing = expectProblem(await pagesReader.get('/data/resolve'), BAD);
    expect(missing.detail).toBe('The callable query parameter is required.');
    expect(missing.errors).toEqual([{ field: 'callable', message: "A 'callable' query parameter is required." }]);
    expect(expectProblem(await resolve('phpinfo'), BAD).detail).toBe("Callable 'phpinfo' must be in Class::method format.");
    expect(expectProblem(await resolve('\\Grav\\Common\\Cache::clearCache'), BAD).detail).toBe("Callable 'Grav\\Common\\Cache::clearCache' is not an approved data provider.");
    expect(expectProblem(await resolve('\\Grav\\Plugin\\ProblemsPlugin::checkOptions'), 404).detail).toBe("Callable 'Grav\\Plugin\\ProblemsPlugin::checkOptions' not found.");
    expect(expectProblem(await viewer.get('/data/resolve?callable=Grav%5CCommon%5CUtils::timezones'), 403).detail).toBe('Missing required permission: api.pages.read');
    expectProblem(await api.as({ none: true }).get('/data/resolve?callable=Grav%5CCommon%5CUtils::timezones'), 401);
  });
});
