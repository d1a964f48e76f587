/**
 * The CMS sandbox's package world read over real HTTP: the installed plugins and themes (enabled,
 * is_symlink, updatable, a theme's thumbnail served), one package with its ETag, readme and
 * changelog, the update summary (and `flush` seeing a new release), the core's changelog (real
 * only), the repository lists (paging up to 2000, search, the installed flag, 502 while
 * unreachable), one repository entry and the search across both kinds. The spec flavour answers
 * with document 1's fields, the real one with the Grav API plugin's (recordings 42–46).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { PLUGINS, THEMES } from '../sandbox/cms/site/extensions';
import { expectProblem, pagination, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const ok = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return r.body as { data: Json; meta?: Json };
};

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let viewer: SandboxClient;
  let anon: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, packageWorkMs: 5 });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    anon = api.as({ none: true });
  });
  afterAll(() => sb?.close());

  test('GET /gpm/plugins: installed plugins with version, enabled, is_symlink, updatable; 403; 401', async () => {
    const plugins = ok(await api.get('/gpm/plugins')).data as Json[];
    const slugs = plugins.map((p) => p.slug as string);
    // by slug; the seeded ones and every plugin with settings
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toEqual(expect.arrayContaining(['api', 'devtools', 'email', 'error', 'form', 'login', 'markdown-notices', 'problems', 'sitemap', 'team-notes', ...Object.keys(PLUGINS)]));
    const email = plugins.find((p) => p.slug === 'email')!;
    expect(email).toMatchObject({ name: 'Email', version: '5.0.3', type: 'plugin', enabled: true, is_symlink: false, updatable: true });
    expect(plugins.find((p) => p.slug === 'problems')).toMatchObject({ enabled: false, updatable: false });
    // symlinked: the repository has 1.7.0, but a symlink is never updatable
    expect(plugins.find((p) => p.slug === 'devtools')).toMatchObject({ version: '1.6.2', is_symlink: true, updatable: false });
    if (real) {
      expect(email).toMatchObject({ compatibility: { grav: ['1.7', '2.0'], api: [] }, available_version: '5.1.0', description_html: '<p>Enables the emailing system for Grav</p>', author: { name: 'Team Grav', email: expect.any(String), url: expect.any(String) }, keywords: expect.any(String), icon: 'envelope' });
      expect(plugins.find((p) => p.slug === 'api')).not.toHaveProperty('available_version');
    } else {
      expect(Object.keys(email)).toEqual(expect.arrayContaining(['slug', 'name', 'version', 'enabled', 'is_symlink', 'updatable']));
    }
    expectProblem(await viewer.get('/gpm/plugins'), 403);
    expectProblem(await anon.get('/gpm/plugins'), 401);
  });

  test('GET /gpm/themes: installed themes, the active one enabled, a thumbnail served (real: without a credential); 403; 401', async () => {
    const themes = ok(await api.get('/gpm/themes')).data as Json[];
    expect(themes.map((t) => t.slug)).toEqual(expect.arrayContaining(['antimatter', 'quark2', ...Object.keys(THEMES)]));
    const quark = themes.find((t) => t.slug === 'quark2')!;
    expect(quark).toMatchObject({ enabled: true, updatable: true });
    expect(themes.find((t) => t.slug === 'antimatter')).toMatchObject({ enabled: false, updatable: false });
    const thumb = quark.thumbnail as string;
    expect(thumb).toMatch(/^\/api\/v1\/thumbnails\/[0-9a-f]{32}\.jpg$/);
    const img = await fetch(sb.origin + thumb, { headers: real ? {} : { 'X-API-Key': sb.seeded!.adminApiKey! } });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await img.arrayBuffer()).subarray(0, 2).toString('hex')).toBe('ffd8');
    expectProblem(await api.get('/thumbnails/0000.jpg'), 404);
    if (real) expect(quark).toHaveProperty('screenshot');
    else expect(quark).not.toHaveProperty('screenshot');
    expectProblem(await viewer.get('/gpm/themes'), 403);
    expectProblem(await anon.get('/gpm/themes'), 401);
  });

  test('GET /gpm/plugins/{slug} and /gpm/themes/{slug}: one package with an ETag; 404 not installed; 403; 401', async () => {
    const r = await api.get('/gpm/plugins/login');
    const login = ok(r).data;
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(login).toMatchObject({ slug: 'login', version: '3.8.13', updatable: true });
    if (real) expect(login.available_version).toBe('3.8.14');
    else expect(login).toMatchObject({ installed_version: '3.8.13', available_version: '3.8.14' });
    const theme = ok(await api.get('/gpm/themes/quark2')).data;
    expect(theme).toMatchObject({ slug: 'quark2', screenshot: expect.stringMatching(/\/thumbnails\//) });
    if (!real) expect(theme).toMatchObject({ installed_version: '1.1.6', available_version: '1.2.0' });
    expect(expectProblem(await api.get('/gpm/plugins/nope'), 404).detail).toBe("Plugin 'nope' is not installed.");
    // a theme is not a plugin
    expectProblem(await api.get('/gpm/plugins/quark2'), 404);
    expectProblem(await api.get('/gpm/themes/email'), 404);
    expectProblem(await viewer.get('/gpm/plugins/login'), 403);
    expectProblem(await viewer.get('/gpm/themes/quark2'), 403);
    expectProblem(await anon.get('/gpm/plugins/login'), 401);
    expectProblem(await anon.get('/gpm/themes/quark2'), 401);
  });

  test('readme and changelog: markdown of an installed package; 404 not installed or without the file; 401 (real: 403 without api.gpm.read)', async () => {
    const readme = ok(await api.get('/gpm/plugins/email/readme')).data.content as string;
    expect(readme).toMatch(/^# Email\n/);
    expect(readme).toContain('<script>'); // untrusted markdown, as a package ships it
    const changelog = ok(await api.get('/gpm/plugins/email/changelog')).data.content as string;
    expect(changelog).toMatch(/^# v5\.0\.3\n## \d{4}-\d{2}-\d{2}/);
    expect(ok(await api.get('/gpm/themes/quark2/readme')).data.content).toMatch(/^# Quark 2/);
    expect(ok(await api.get('/gpm/themes/quark2/changelog')).data.content).toMatch(/^# v1\.1\.6/);
    expect(expectProblem(await api.get('/gpm/plugins/problems/readme'), 404).detail).toBe("No README found for 'problems'.");
    expect(expectProblem(await api.get('/gpm/plugins/problems/changelog'), 404).detail).toBe("No changelog found for 'problems'.");
    expectProblem(await api.get('/gpm/plugins/gallery-plus/readme'), 404);
    expectProblem(await api.get('/gpm/themes/email/changelog'), 404);
    expectProblem(await anon.get('/gpm/plugins/email/readme'), 401);
    expectProblem(await anon.get('/gpm/themes/quark2/changelog'), 401);
    // the real service refuses a slug that could leave the plugins folder
    if (real) expect(expectProblem(await api.get('/gpm/plugins/a%5Cb/readme'), 422).detail).toBe("Invalid package slug 'a\\b'.");
    else expectProblem(await api.get('/gpm/plugins/a%5Cb/readme'), 404);
    if (real) expectProblem(await viewer.get('/gpm/plugins/email/readme'), 403);
    else expect(ok(await viewer.get('/gpm/plugins/email/changelog')).data.content).toContain('# v5.0.3');
  });

  test('GET /gpm/updates: the summary of updatable plugins, themes and the core; flush sees a release published meanwhile; 403; 401', async () => {
    const d = ok(await api.get('/gpm/updates')).data;
    const slugs = (list: Json[]) => list.map((p) => p.slug);
    expect(slugs(d.plugins)).toEqual(['email', 'login', 'markdown-notices', 'sitemap', 'team-notes']);
    expect(slugs(d.themes)).toEqual(['quark2']);
    expect(d.total).toBe(7); // six packages and the core
    if (real) {
      expect(d.grav).toEqual({ current: '2.0.7', available: '2.0.9', updatable: true, date: expect.any(String), is_symlink: false });
      expect(d.installed).toBe(sb.packages.list('plugin').length + sb.packages.list('theme').length);
      expect(d.plugins[0]).toMatchObject({ slug: 'email', version: '5.0.3', available_version: '5.1.0', updatable: true, enabled: true, is_symlink: false });
    } else {
      expect(d.cms).toEqual({ installed_version: '1.8.0', available_version: '1.8.2', updatable: true, is_symlink: false });
      expect(d.plugins[0]).toEqual({ slug: 'email', installed_version: '5.0.3', available_version: '5.1.0' });
    }
    // a new release of form: not seen through the cache, seen with flush
    sb.packages.publish('form', '9.2.0');
    expect(slugs(ok(await api.get('/gpm/updates')).data.plugins)).not.toContain('form');
    const flushed = ok(await api.get('/gpm/updates?flush=1')).data;
    expect(slugs(flushed.plugins)).toContain('form');
    expect(flushed.total).toBe(8);
    expect(ok(await api.get('/gpm/plugins/form')).data.updatable).toBe(true);
    expectProblem(await viewer.get('/gpm/updates'), 403);
    expectProblem(await anon.get('/gpm/updates'), 401);
  });

  test('the core: symlinked and latest knobs change the summary', async () => {
    sb.packages.knobs.coreSymlinked = true;
    const sym = ok(await api.get('/gpm/updates')).data;
    expect(real ? sym.grav.is_symlink : sym.cms.is_symlink).toBe(true);
    sb.packages.knobs.coreSymlinked = false;
    sb.packages.knobs.coreLatest = true;
    const latest = ok(await api.get('/gpm/updates')).data;
    if (real) expect(latest.grav).toMatchObject({ current: '2.0.7', available: '2.0.7', updatable: false });
    else expect(latest.cms).toMatchObject({ installed_version: '1.8.0', available_version: '1.8.0', updatable: false });
    sb.packages.knobs.coreLatest = false;
  });

  test('GET /gpm/grav/changelog: the real service only; the versions past the installed one', async () => {
    if (!real) {
      expectProblem(await api.get('/gpm/grav/changelog'), 404);
      return;
    }
    const content = ok(await api.get('/gpm/grav/changelog?flush=true')).data.content as string;
    expect(content).toMatch(/^# v2\.0\.9 \(\d{4}-\d{2}-\d{2}\)\n\n/);
    expect(content).toContain('# v2.0.8');
    expect(content).not.toContain('# v2.0.7');
    expectProblem(await viewer.get('/gpm/grav/changelog'), 403);
    expectProblem(await anon.get('/gpm/grav/changelog'), 401);
  });

  test('GET /gpm/repository/plugins: paged, per_page up to 2000, q on name, slug and description, installed flag; 403; 401', async () => {
    const first = await api.get('/gpm/repository/plugins');
    const page1 = ok(first);
    expect(page1.data).toHaveLength(20);
    expect(pagination(first)).toMatchObject({ page: 1, per_page: 20, total: 320, total_pages: 16 });
    const all = await api.get('/gpm/repository/plugins?per_page=2000');
    expect(ok(all).data).toHaveLength(320);
    expect(pagination(all).per_page).toBe(2000);
    expect(pagination(await api.get('/gpm/repository/plugins?per_page=5000')).per_page).toBe(2000);
    const rows = ok(all).data as Json[];
    expect(new Set(rows.map((p) => p.slug)).size).toBe(320);
    expect(rows.every((p) => p.type === 'plugin' && typeof p.description === 'string' && typeof p.author.name === 'string')).toBe(true);
    expect(rows.find((p) => p.slug === 'email')).toMatchObject({ installed: true, version: '5.1.0' });
    expect(rows.find((p) => p.slug === 'gallery-plus')).toMatchObject({ installed: false });
    if (!real) {
      expect(rows.find((p) => p.slug === 'email')).toMatchObject({ installed_version: '5.0.3' });
      expect(rows.find((p) => p.slug === 'gallery-plus')).toMatchObject({ installed_version: null });
    }
    expect(rows.find((p) => p.slug === 'seo-suite')).toMatchObject({ premium: true, licensed: false });
    expect(rows.filter((p) => p.premium).length).toBeGreaterThanOrEqual(3);
    const page3 = await api.get('/gpm/repository/plugins?page=3&per_page=50');
    expect((ok(page3).data as Json[]).map((p) => p.slug)).toEqual(rows.slice(100, 150).map((p) => p.slug));
    // q: slug, name or description, any case
    const bySlug = ok(await api.get('/gpm/repository/plugins?q=LIGHTBOX')).data as Json[];
    expect(bySlug.map((p) => p.slug)).toEqual(['gallery-plus', 'lightbox-core']);
    const byDescription = ok(await api.get('/gpm/repository/plugins?q=' + encodeURIComponent('headless access'))).data as Json[];
    expect(byDescription.map((p) => p.slug)).toEqual(['api']);
    expectProblem(await viewer.get('/gpm/repository/plugins'), 403);
    expectProblem(await anon.get('/gpm/repository/plugins'), 401);
  });

  test('GET /gpm/repository/themes: the themes, paged; 403; 401', async () => {
    const r = await api.get('/gpm/repository/themes?per_page=100');
    const themes = ok(r).data as Json[];
    expect(pagination(r).total).toBe(40);
    expect(themes.every((t) => t.type === 'theme')).toBe(true);
    expect(themes.find((t) => t.slug === 'quark2')).toMatchObject({ installed: true, version: '1.2.0' });
    expectProblem(await viewer.get('/gpm/repository/themes'), 403);
    expectProblem(await anon.get('/gpm/repository/themes'), 401);
  });

  test('GET /gpm/repository/{slug}: one entry with installed; 404; 403; 401', async () => {
    const gallery = ok(await api.get('/gpm/repository/gallery-plus')).data;
    expect(gallery).toMatchObject({ slug: 'gallery-plus', type: 'plugin', installed: false, description: expect.any(String) });
    if (real) expect(gallery.dependencies).toEqual([{ name: 'grav', version: '>=1.7.0' }, { name: 'lightbox-core', version: '>=2.0.0' }]);
    else expect(gallery).toMatchObject({ installed_version: null, author: { name: 'Team Grav' } });
    expect(ok(await api.get('/gpm/repository/quark2')).data).toMatchObject({ type: 'theme', installed: true });
    expect(expectProblem(await api.get('/gpm/repository/no-such-thing'), 404).detail).toBe("Package 'no-such-thing' not found in GPM repository.");
    expectProblem(await viewer.get('/gpm/repository/quark2'), 403);
    expectProblem(await anon.get('/gpm/repository/quark2'), 401);
  });

  test('GET /gpm/search: plugins and themes matching q, paged; q required; 401 (real: 403 without api.gpm.read)', async () => {
    const r = await api.get('/gpm/search?q=theme&per_page=100');
    const rows = ok(r).data as Json[];
    expect(rows.some((p) => p.type === 'theme')).toBe(true);
    const gallery = ok(await api.get('/gpm/search?q=gallery')).data as Json[];
    expect(gallery.map((p) => p.slug)).toContain('gallery-plus');
    // the real search matches authors and keywords too
    const byAuthor = ok(await api.get('/gpm/search?q=' + encodeURIComponent('Trilby Media'))).data as Json[];
    if (real) expect(byAuthor.length).toBeGreaterThan(0);
    else expect(byAuthor).toEqual([]);
    expect(expectProblem(await api.get('/gpm/search'), real ? 422 : 400).detail).toBe("The 'q' query parameter is required for search.");
    expectProblem(await api.get('/gpm/search?q=%20'), real ? 422 : 400);
    expectProblem(await anon.get('/gpm/search?q=x'), 401);
    if (real) expectProblem(await viewer.get('/gpm/search?q=x'), 403);
    else expect(ok(await viewer.get('/gpm/search?q=x')).data).toBeInstanceOf(Array);
  });

  test('the repository unreachable: its lists answer 502, search finds nothing, an entry is 404, no updates', async () => {
    sb.packages.knobs.repositoryUnreachable = true;
    try {
      expect(expectProblem(await api.get('/gpm/repository/plugins?per_page=5'), 502)).toEqual({ status: 502, title: 'Bad Gateway', detail: 'Unable to reach GPM repository.' });
      expectProblem(await api.get('/gpm/repository/themes'), 502);
      expect(ok(await api.get('/gpm/search?q=gallery')).data).toEqual([]);
      expectProblem(await api.get('/gpm/repository/gallery-plus'), 404);
      const d = ok(await api.get('/gpm/updates?flush=1')).data;
      expect(d.total).toBe(0);
      if (real) expect(d.grav).toMatchObject({ available: null, updatable: false, date: null });
    } finally {
      sb.packages.knobs.repositoryUnreachable = false;
    }
    expect(ok(await api.get('/gpm/repository/plugins?per_page=5')).data).toHaveLength(5);
  });

  test('the repository is the same on every start (generated from a fixed seed)', async () => {
    const again = await startCmsSandbox({ flavor, packageWorkMs: 0 });
    try {
      const a = ok(await api.get('/gpm/repository/plugins?per_page=2000')).data as Json[];
      const b = ok(await new SandboxClient(again).get('/gpm/repository/plugins?per_page=2000')).data as Json[];
      // (versions aside: an earlier test published a new release of form here)
      expect(b.map((p) => [p.slug, p.description, p.author.name])).toEqual(a.map((p) => [p.slug, p.description, p.author.name]));
    } finally {
      await again.close();
    }
  });
});
