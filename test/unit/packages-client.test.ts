/**
 * The packages client against the real service's recorded replies and the document's shapes: the
 * installed lists (symlink, enabled, a theme's same-site pictures), both update summaries, the
 * repository's 502, update-all's per-package answer, and a write's body.
 */
import { describe, expect, test } from 'vitest';
import { cmsPackages } from '../../electron/api/cms/packages';
import { recorded, reply, transport } from './support/recorded-replies';

describe('the packages client', () => {
  test('the real installed plugins and themes: every row read, a theme’s pictures on the site', async () => {
    const { t } = transport((req) => (req.path === '/gpm/plugins' ? recorded('42-gpm-plugins') : recorded('44-gpm-themes')));
    const plugins = await cmsPackages.installed(t, 'plugin');
    expect(plugins.problems).toEqual([]);
    const api = plugins.items.find((p) => p.slug === 'api')!;
    expect(api).toMatchObject({ type: 'plugin', name: 'API', version: '1.0.12', enabled: true, symlink: false, updatable: false, author: 'Team Grav', icon: 'plug' });
    expect(api.dependencies).toContainEqual({ name: 'login', version: '>=3.8.11' });
    expect(api.keywords).toContain('headless');
    const themes = await cmsPackages.installed(t, 'theme');
    expect(themes.items[0]).toMatchObject({ slug: 'quark2', type: 'theme', thumbnailUrl: expect.stringMatching(/^https:\/\/cms\.example\.com\/api\/v1\/thumbnails\//) });
  });

  test('the real update summary ({grav: {current, available}}) and the document’s ({cms: {installed_version}})', async () => {
    const real = transport(() => recorded('45-gpm-updates'));
    expect(await cmsPackages.updates(real.t)).toEqual({ core: { installed: '2.0.7', available: null, updatable: false, symlink: false, date: null }, plugins: [], themes: [], total: 0, installed: 10 });
    const spec = transport(() =>
      reply({ data: { total: 2, cms: { installed_version: '1.8.0', available_version: '1.8.2', updatable: true, is_symlink: false }, plugins: [{ slug: 'email', installed_version: '5.0.3', available_version: '5.1.0' }], themes: [] } }),
    );
    const s = await cmsPackages.updates(spec.t, true);
    expect(spec.seen[0]!.path).toBe('/gpm/updates?flush=true');
    expect(s).toMatchObject({ core: { installed: '1.8.0', available: '1.8.2', updatable: true }, plugins: [{ slug: 'email', type: 'plugin', installed: '5.0.3', available: '5.1.0', symlink: false }], total: 2, installed: null });
    // the real service's rows: the package with version (installed) and available_version
    const realRows = transport(() => reply({ data: { grav: { current: '2.0.7', available: '2.0.9', updatable: true, is_symlink: false, date: '2026-11-01' }, plugins: [{ slug: 'form', name: 'Form', version: '9.1.3', available_version: '9.2.0', updatable: true }], themes: [], total: 2 } }));
    expect(await cmsPackages.updates(realRows.t)).toMatchObject({ core: { available: '2.0.9', date: '2026-11-01' }, plugins: [{ slug: 'form', name: 'Form', installed: '9.1.3', available: '9.2.0' }], total: 2 });
  });

  test('the repository unreachable is the site’s 502 in words; update-all per package; a write’s body', async () => {
    const down = transport(() => recorded('46-gpm-repository-plugins'));
    await expect(cmsPackages.repository(down.t, { type: 'plugin', page: 1, perPage: 50 })).rejects.toMatchObject({ code: 'http', info: { status: 502 }, message: 'The site cannot reach the package repository just now (Unable to reach GPM repository). Installed packages are not affected; try again later.' });
    const all = transport(() => reply({ data: { updated: ['email'], failed: [{ package: 'form', error: 'Download failed.' }], skipped: [{ package: 'login', reason: 'already up to date (installed as a dependency)' }] } }));
    expect(await cmsPackages.updateAll(all.t)).toEqual([
      { package: 'email', ok: true, message: null },
      { package: 'form', ok: false, message: 'Download failed.' },
      { package: 'login', ok: true, message: 'already up to date (installed as a dependency)' },
    ]);
    const install = transport(() => reply({ data: { message: "Plugin 'sitemap' installed successfully.", package: 'sitemap', type: 'plugin', dependencies: [] } }, 201));
    expect(await cmsPackages.install(install.t, 'sitemap', 'plugin', 'ABCDEF01-ABCDEF01-ABCDEF01-ABCDEF01')).toBe("Plugin 'sitemap' installed successfully.");
    expect(install.seen[0]).toMatchObject({ method: 'POST', path: '/gpm/install', body: { package: 'sitemap', type: 'plugin', license: 'ABCDEF01-ABCDEF01-ABCDEF01-ABCDEF01' } });
    const removed = transport(() => ({ status: 204 }));
    await cmsPackages.remove(removed.t, 'sitemap');
    expect(removed.seen[0]).toMatchObject({ method: 'POST', path: '/gpm/remove', body: { package: 'sitemap' } });
  });
});
