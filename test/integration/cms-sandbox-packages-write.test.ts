/**
 * The CMS sandbox's package writes over real HTTP: install from the repository (with its
 * dependency, a premium one's licence, the one that always fails), remove, update, update-all
 * (one deliberate failure), the core upgrade (refused when latest or symlinked), direct install
 * from a zip the sandbox serves on loopback or an uploaded one; each write's events, its real
 * duration (`packageWorkMs`) and its effect on the installed list, the update summary and the
 * settings scopes. The spec flavour follows document 1 (install, remove and update need only a
 * credential; 400s), the real one the Grav API plugin (api.gpm.write; 422s and 500s; no events
 * from update-all and direct install).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { packageZip } from '../sandbox/cms/packages/controls';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const status = (r: Reply, code: number) => {
  expect(r.status, r.text).toBe(code);
  return r.body as { data: Json };
};

const LICENSE = 'ABCDEF01-23456789-ABCDEF01-23456789';

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let viewer: SandboxClient;
  let anon: SandboxClient;
  const installed = async (type: 'plugins' | 'themes' = 'plugins') => (status(await api.get(`/gpm/${type}`), 200).data as Json[]).map((p) => p.slug as string);
  const names = () => sb.events.names();

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, packageWorkMs: 5 });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    anon = api.as({ none: true });
  });
  afterAll(() => sb?.close());
  beforeEach(() => sb.events.clear());

  test('POST /gpm/install: from the repository with its dependency; the list, the settings scope and the events follow; 422 installed already; 401', async () => {
    expectProblem(await api.get('/config/plugins/gallery-plus'), 404);
    const r = await api.post('/gpm/install', { package: 'gallery-plus', type: 'plugin' });
    expect(status(r, 201).data).toEqual({ message: "Plugin 'gallery-plus' installed successfully. Dependencies installed: lightbox-core.", package: 'gallery-plus', type: 'plugin', dependencies: ['lightbox-core'] });
    if (real) expect(r.headers.get('x-invalidates')).toBe('plugins:create:gallery-plus, plugins:list, gpm:update, plugins:create:lightbox-core');
    expect(await installed()).toEqual(expect.arrayContaining(['gallery-plus', 'lightbox-core']));
    expect(status(await api.get('/gpm/plugins/gallery-plus'), 200).data).toMatchObject({ version: '3.0.2', enabled: true, updatable: false, is_symlink: false });
    expect(status(await api.get('/gpm/repository/gallery-plus'), 200).data.installed).toBe(true);
    // its settings scope exists now (no form of its own: only `enabled`)
    expect(status(await api.get('/config/plugins/gallery-plus'), 200).data).toEqual({ enabled: true });
    expect(sb.events.list().map((e) => [e.name, e.data.package])).toEqual([
      ['onApiBeforePackageInstall', 'gallery-plus'],
      ['onApiPackageInstalled', 'gallery-plus'],
    ]);
    expect(expectProblem(await api.post('/gpm/install', { package: 'gallery-plus', type: 'plugin' }), 422).detail).toBe("Plugin 'gallery-plus' is already installed. Use the update endpoint to update it.");
    expectProblem(await anon.post('/gpm/install', { package: 'x', type: 'plugin' }), 401);
  });

  test('POST /gpm/install: a theme; 422 unknown slug; 422 (real: 500) a failed install; missing fields', async () => {
    status(await api.post('/gpm/install', { package: 'aurora', type: 'theme' }), 201);
    expect(await installed('themes')).toContain('aurora');
    expect(status(await api.get('/gpm/themes/aurora'), 200).data).toMatchObject({ enabled: false, type: 'theme' });
    sb.events.clear();
    expect(expectProblem(await api.post('/gpm/install', { package: 'no-such-plugin', type: 'plugin' }), 422).detail).toBe("Package 'no-such-plugin' not found in the GPM repository.");
    // the real service fires its before-event ahead of looking the package up
    expect(names()).toEqual(real ? ['onApiBeforePackageInstall'] : []);
    // a theme's slug asked for as a plugin is not found either
    expectProblem(await api.post('/gpm/install', { package: 'basalt', type: 'plugin' }), 422);
    sb.events.clear();
    const failed = expectProblem(await api.post('/gpm/install', { package: 'broken-installer', type: 'plugin' }), real ? 500 : 422);
    expect(failed.detail).toMatch(/corrupt/);
    if (real) expect(failed.title).toBe('Installation Failed');
    expect(names()).toEqual(['onApiBeforePackageInstall']);
    expect(await installed()).not.toContain('broken-installer');
    // the document needs a type; the real service defaults it to plugin
    if (real) status(await api.post('/gpm/install', { package: 'lightbox-core' }), 422); // installed already, as a dependency
    else expect(expectProblem(await api.post('/gpm/install', { package: 'basalt' }), 400).detail).toBe('Missing required fields: type');
    expectProblem(await api.post('/gpm/install', {}), real ? 422 : 400);
    expectProblem(await api.post('/gpm/install', { package: 'basalt', type: 'module' }), real ? 422 : 400);
  });

  test('POST /gpm/install: a premium package needs a well-formed licence; 422 without or malformed', async () => {
    expect(expectProblem(await api.post('/gpm/install', { package: 'seo-suite', type: 'plugin' }), 422).detail).toMatch(/premium package and requires a license/);
    expect(expectProblem(await api.post('/gpm/install', { package: 'seo-suite', type: 'plugin', license: 'abc' }), 422).detail).toMatch(/Invalid license format/);
    expect(await installed()).not.toContain('seo-suite');
    status(await api.post('/gpm/install', { package: 'seo-suite', type: 'plugin', license: LICENSE }), 201);
    expect(status(await api.get('/gpm/plugins/seo-suite'), 200).data).toMatchObject({ premium: true, licensed: true });
    expect(status(await api.get('/gpm/repository/shop-pro'), 200).data).toMatchObject({ premium: true, licensed: false });
  });

  test('POST /gpm/remove: 204, gone from the list and the settings; events; 404 absent; real: a symlink is not removed (500); 401', async () => {
    const r = await api.post('/gpm/remove', { package: 'markdown-notices' });
    expect(r.status, r.text).toBe(204);
    expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
      ['onApiBeforePackageRemove', { package: 'markdown-notices', type: 'plugin' }],
      ['onApiPackageRemoved', { package: 'markdown-notices', type: 'plugin' }],
    ]);
    if (real) expect(r.headers.get('x-invalidates')).toBe('plugins:delete:markdown-notices, plugins:list, gpm:update');
    expect(await installed()).not.toContain('markdown-notices');
    expectProblem(await api.get('/config/plugins/markdown-notices'), 404);
    // a plugin with a form: its settings and its form go with it
    status(await api.get('/blueprints/plugins/team-notes'), 200);
    status(await api.get('/blueprints/plugins/team-notes/pages/notes'), 200);
    expect((await api.post('/gpm/remove', { package: 'team-notes' })).status).toBe(204);
    expectProblem(await api.get('/config/plugins/team-notes'), 404);
    expectProblem(await api.get('/blueprints/plugins/team-notes'), 404);
    expectProblem(await api.get('/blueprints/plugins/team-notes/pages/notes'), 404);
    sb.events.clear();
    expect(expectProblem(await api.post('/gpm/remove', { package: 'markdown-notices' }), 404).detail).toBe("Package 'markdown-notices' is not installed.");
    // a theme by the same call
    expect((await api.post('/gpm/remove', { package: 'aurora' })).status).toBe(204);
    expect(await installed('themes')).not.toContain('aurora');
    if (real) {
      expect(expectProblem(await api.post('/gpm/remove', { package: 'devtools' }), 500).title).toBe('Removal Failed');
      expect(await installed()).toContain('devtools');
    }
    expectProblem(await api.post('/gpm/remove', {}), real ? 422 : 400);
    expectProblem(await anon.post('/gpm/remove', { package: 'email' }), 401);
  });

  test('permissions: the document lets any credential install, remove and update; the real service needs api.gpm.write (403)', async () => {
    if (real) {
      for (const path of ['/gpm/install', '/gpm/remove', '/gpm/update']) expect(expectProblem(await viewer.post(path, { package: 'lightbox-core', type: 'plugin' }), 403).detail).toBe('Missing required permission: api.gpm.write');
    } else {
      expect((await viewer.post('/gpm/remove', { package: 'lightbox-core' })).status).toBe(204);
      status(await viewer.post('/gpm/install', { package: 'lightbox-core', type: 'plugin' }), 201);
    }
    for (const path of ['/gpm/update-all', '/gpm/upgrade', '/gpm/direct-install']) expectProblem(await viewer.post(path, {}), 403);
    for (const path of ['/gpm/update-all', '/gpm/upgrade', '/gpm/direct-install']) expectProblem(await anon.post(path, {}), 401);
  });

  test('POST /gpm/update: the version moves and leaves the summary; 422 not updatable, symlinked or not installed; 500 a failed update; 401', async () => {
    const r = await api.post('/gpm/update', { package: 'login' });
    expect(status(r, 200).data).toMatchObject({ message: "Package 'login' updated successfully.", package: 'login' });
    if (real) expect(r.headers.get('x-invalidates')).toBe('plugins:update:login, plugins:list, gpm:update');
    expect(status(await api.get('/gpm/plugins/login'), 200).data).toMatchObject({ version: '3.8.14', updatable: false });
    expect((status(await api.get('/gpm/updates'), 200).data.plugins as Json[]).map((p) => p.slug)).not.toContain('login');
    expect(names()).toEqual(['onApiBeforePackageUpdate', 'onApiPackageUpdated']);
    const notUpdatable = "Package 'login' is not updatable or not installed.";
    expect(expectProblem(await api.post('/gpm/update', { package: 'login' }), 422).detail).toBe(notUpdatable);
    expectProblem(await api.post('/gpm/update', { package: 'devtools' }), 422);
    expectProblem(await api.post('/gpm/update', { package: 'nothing-here' }), 422);
    sb.events.clear();
    const failed = expectProblem(await api.post('/gpm/update', { package: 'sitemap' }), 500);
    expect(failed.detail).toMatch(/Checksum mismatch/);
    if (real) expect(failed.title).toBe('Update Failed');
    expect(names()).toEqual(['onApiBeforePackageUpdate']);
    expect(status(await api.get('/gpm/plugins/sitemap'), 200).data.version).toBe('4.0.1');
    // a theme
    status(await api.post('/gpm/update', { package: 'quark2' }), 200);
    expect(status(await api.get('/gpm/themes/quark2'), 200).data.version).toBe('1.2.0');
    expectProblem(await api.post('/gpm/update', {}), real ? 422 : 400);
    expectProblem(await anon.post('/gpm/update', { package: 'email' }), 401);
  });

  test('POST /gpm/update-all: every updatable package tried, sitemap failing; symlinks untouched; events per package (real: none)', async () => {
    const r = await api.post('/gpm/update-all');
    const d = status(r, 200).data;
    expect(d.updated).toEqual(['email']); // team-notes was removed above
    expect(d.failed).toEqual([{ package: 'sitemap', error: expect.stringMatching(/Checksum mismatch/) }]);
    if (real) {
      expect(d).toMatchObject({ skipped: [], cascaded_dependencies: [] });
      expect(r.headers.get('x-invalidates')).toBe('plugins:list, themes:list, gpm:update');
      expect(names()).toEqual([]);
    } else {
      expect(Object.keys(d).sort()).toEqual(['failed', 'updated']);
      expect(names()).toEqual(['onApiBeforePackageUpdate', 'onApiPackageUpdated', 'onApiBeforePackageUpdate']);
    }
    expect(status(await api.get('/gpm/plugins/devtools'), 200).data.version).toBe('1.6.2');
    const left = status(await api.get('/gpm/updates'), 200).data;
    expect((left.plugins as Json[]).map((p) => p.slug)).toEqual(['sitemap']);
    // nothing left but the failing one; once its download is good again, the retry succeeds
    expect(status(await api.post('/gpm/update-all'), 200).data).toMatchObject({ updated: [], failed: [{ package: 'sitemap' }] });
    sb.packages.knobs.failingUpdates = [];
    try {
      expect(status(await api.post('/gpm/update', { package: 'sitemap' }), 200).data.package).toBe('sitemap');
      expect(status(await api.get('/gpm/plugins/sitemap'), 200).data).toMatchObject({ version: '4.1.0', updatable: false });
    } finally {
      sb.packages.knobs.failingUpdates = ['sitemap'];
    }
  });

  test('POST /gpm/upgrade: the core moves to the available version (and /me says so); 400 (real: 422) when latest or symlinked', async () => {
    const from = sb.packages.coreVersion;
    const to = real ? '2.0.9' : '1.8.2';
    sb.packages.knobs.coreSymlinked = true;
    const sym = expectProblem(await api.post('/gpm/upgrade'), real ? 422 : 400);
    expect(sym.detail).toBe(real ? 'Cannot upgrade Grav when installed via symlink.' : 'Cannot upgrade the CMS: it is installed via symlink.');
    expect(names()).toEqual([]);
    sb.packages.knobs.coreSymlinked = false;
    const r = await api.post('/gpm/upgrade');
    expect(status(r, 200).data).toEqual({ message: real ? 'Grav upgraded successfully.' : 'The CMS was upgraded successfully.', previous_version: from, new_version: to });
    expect(sb.events.list().map((e) => [e.name, e.data])).toEqual(
      real
        ? [
            ['onApiBeforeGravUpgrade', { current_version: from, available_version: to }],
            ['onApiGravUpgraded', { previous_version: from, new_version: to }],
          ]
        : [
            ['onApiBeforeCmsUpgrade', { current_version: from, available_version: to }],
            ['onApiCmsUpgraded', { previous_version: from, new_version: to }],
          ],
    );
    const me = status(await api.get('/me'), 200).data;
    expect(real ? me.grav_version : me.cms_version).toBe(to);
    const latest = expectProblem(await api.post('/gpm/upgrade'), real ? 422 : 400);
    expect(latest.detail).toBe(real ? 'Grav is already at the latest version.' : 'The CMS is already at the latest version.');
    const summary = status(await api.get('/gpm/updates'), 200).data;
    expect(real ? summary.grav.updatable : summary.cms.updatable).toBe(false);
  });

  test('POST /gpm/direct-install: a zip from a loopback URL (real: only once official_gpm_only is off) or uploaded; 400 (real: 422) neither; spec: 400 both; 500 not a package', async () => {
    // shop-pro: premium in the repository, but a zip in hand needs no licence
    const target = 'shop-pro';
    const url = `${sb.origin}/__sandbox/packages/${target}.zip?version=9.9.9`;
    if (real) {
      expect(expectProblem(await api.post('/gpm/direct-install', { url }), 500).detail).toBe('Only official GPM URLs are allowed. You can modify this behavior in the System configuration.');
      sb.packages.knobs.officialGpmOnly = false;
    }
    const r = await api.post('/gpm/direct-install', { url });
    expect(status(r, 201).data).toEqual({ message: 'Package installed successfully via direct install.' });
    expect(status(await api.get(`/gpm/plugins/${target}`), 200).data).toMatchObject({ version: '9.9.9' });
    expect(names()).toEqual(real ? [] : ['onApiBeforePackageInstall', 'onApiPackageInstalled']);
    // an uploaded zip of a package of our own
    const own = packageZip({ slug: 'hello-zip', type: 'plugin', name: 'Hello Zip', version: '0.1.0', description: 'Says hello.', author: { name: 'Me', email: 'me@example.test', url: '' } });
    status(await api.upload('/gpm/direct-install', [{ name: 'hello-zip.zip', data: own, type: 'application/zip' }]), 201);
    expect(status(await api.get('/gpm/plugins/hello-zip'), 200).data).toMatchObject({ name: 'Hello Zip', version: '0.1.0' });
    expect(status(await api.get('/gpm/plugins/hello-zip/readme'), 200).data.content).toBe('# Hello Zip\n\nSays hello.\n');
    // not a package, not a zip, not reachable
    expect(expectProblem(await api.post('/gpm/direct-install', { url: `${sb.origin}/__sandbox/packages/not-a-package.zip` }), 500).detail).toBe('Not a valid Grav package.');
    expect(expectProblem(await api.upload('/gpm/direct-install', [{ name: 'x.zip', data: 'plain text' }]), 500).detail).toBe('Package extraction failed.');
    expect(expectProblem(await api.post('/gpm/direct-install', { url: 'https://packages.example.test/x.zip' }), 500).detail).toBe('Zip package not found.');
    expect(expectProblem(await api.post('/gpm/direct-install', { url: `${sb.origin}/__sandbox/packages/nothing.zip` }), 500).detail).toBe('Zip package not found.');
    // a symlinked package is not overwritten
    const dev = packageZip({ slug: 'devtools', type: 'plugin', name: 'DevTools', version: '9.0.0', description: 'x', author: { name: 'x', email: '', url: '' } });
    expect(expectProblem(await api.upload('/gpm/direct-install', [{ name: 'devtools.zip', data: dev }]), 500).detail).toBe('Cannot overwrite symlinks.');
    // larger than the site takes
    const max = sb.settings.uploadMax;
    sb.settings.uploadMax = 200;
    try {
      expectProblem(await api.upload('/gpm/direct-install', [{ name: 'hello-zip.zip', data: own }]), 413);
    } finally {
      sb.settings.uploadMax = max;
    }
    // neither; both
    expect(expectProblem(await api.post('/gpm/direct-install', {}), real ? 422 : 400).detail).toBe('Either a "url" field or an uploaded "file" is required.');
    const both = await api.upload('/gpm/direct-install', [{ name: 'hello-zip.zip', data: own }], { url });
    if (real) status(both, 201); // the real service takes the url
    else expect(expectProblem(both, 400).detail).toBe('Send either a "url" or an uploaded "file", not both.');
  });

  test('a site restarted on its folder keeps its packages and its upgraded core', async () => {
    const dataDir = sb.dataDir;
    const again = await startCmsSandbox({ flavor, dataDir, packageWorkMs: 0 });
    try {
      const client = new SandboxClient(again, { apiKey: (await again.apiKeys.create({ username: 'admin', name: 'again', scopes: [] })).api_key });
      const slugs = (status(await client.get('/gpm/plugins'), 200).data as Json[]).map((p) => p.slug);
      expect(slugs).toEqual((status(await api.get('/gpm/plugins'), 200).data as Json[]).map((p) => p.slug));
      expect(again.packages.coreVersion).toBe(sb.packages.coreVersion);
    } finally {
      await again.close();
    }
  });

  test('writes take the sandbox time packageWorkMs between their events, so a client shows progress', async () => {
    sb.packages.knobs.workMs = 400;
    try {
      const t0 = Date.now();
      status(await api.post('/gpm/install', { package: 'basalt', type: 'theme' }), 201);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(390);
      const [before, after] = sb.events.list();
      expect(Date.parse(after!.at) - Date.parse(before!.at)).toBeGreaterThanOrEqual(390);
      // reads are not slowed
      const t1 = Date.now();
      status(await api.get('/gpm/plugins'), 200);
      expect(Date.now() - t1).toBeLessThan(300);
    } finally {
      sb.packages.knobs.workMs = 5;
    }
  });

  test('the control routes: knobs, a release, the zips', async () => {
    const ctl = (path: string, body?: unknown) => fetch(`${sb.origin}/__sandbox${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const knobs = (await (await ctl('/packages', { coreLatest: true, workMs: 7, failingInstalls: [] })).json()) as Json;
    expect(knobs.data).toMatchObject({ coreLatest: true, workMs: 7, coreSymlinked: false, repositoryUnreachable: false, failingInstalls: [], failingUpdates: ['sitemap'], installed: expect.any(Array) });
    // broken-installer installs once it no longer fails
    status(await api.post('/gpm/install', { package: 'broken-installer', type: 'plugin' }), 201);
    expect((await ctl('/packages', { failingUpdates: 'sitemap' })).status).toBe(400);
    expect(sb.packages.knobs.coreLatest).toBe(true);
    expect((await ctl('/packages', { coreLatest: 'yes' })).status).toBe(400);
    await ctl('/packages', { coreLatest: false, workMs: 5, repositoryUnreachable: true });
    expectProblem(await api.get('/gpm/repository/plugins'), 502);
    await ctl('/packages', { repositoryUnreachable: false });
    expect((await ctl('/packages/release', { slug: 'error', version: '2.1.0' })).status).toBe(200);
    expect((status(await api.get('/gpm/updates?flush=1'), 200).data.plugins as Json[]).map((p) => p.slug)).toContain('error');
    expect((await ctl('/packages/release', { slug: 'nope', version: '1.0.0' })).status).toBe(400);
    const zip = await ctl('/packages/lightbox-core.zip');
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 4).toString('hex')).toBe('504b0304');
    expect((await ctl('/packages/unknown-one.zip')).status).toBe(404);
  });
});
