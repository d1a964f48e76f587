/**
 * Settings: the configuration client read against a real Grav's recorded replies (scopes, a scope
 * with its ETag and override metadata, a PATCH with If-Match), the installed packages as scopes,
 * and the pure leaf diff a save and its undo are made of.
 */
import { describe, expect, test } from 'vitest';
import { cmsConfig, MASKED } from '../../electron/api/cms/config';
import { cmsPackages } from '../../electron/api/cms/packages';
import { leafChanges, patchOf, undoOf } from '../../electron/common/config-changes';
import { recorded, reply, transport } from './support/recorded-replies';


describe('the configuration client against the real service', () => {
  test('the scopes, a scope with its ETag and overrides, and a PATCH sent with If-Match', async () => {
    const { t, seen } = transport((req) =>
      req.path === '/config' ? recorded('37-config') : req.method === 'PATCH' ? recorded('76-config-site-patch') : req.path === '/config/site' ? recorded('38-config-site') : undefined,
    );
    expect(await cmsConfig.scopes(t)).toEqual(['system', 'site', 'backups', 'media', 'security', 'info']);
    const site = await cmsConfig.read(t, 'site');
    expect(site.values.title).toBe('My Updated Site Title');
    expect(site.etag).toBe('"47b9d69f3ae956b1f41d8878865b54d9"');
    expect(site.overrides).toContain('author.name');
    expect(site.fallback['author.name']).toBe('John Appleseed');
    const saved = await cmsConfig.write(t, 'site', { title: 'Recorded site' }, site.etag);
    expect(saved.values.title).toBe('Recorded site');
    expect(saved.etag).toBe('"390a36c27e3fc781348a4f9c2832ae4c"');
    const patch = seen.find((r) => r.method === 'PATCH')!;
    expect(patch.headers['if-match']).toBe(site.etag);
    expect(patch.body).toEqual({ title: 'Recorded site' });
  });

  test('the system scope reads, and a plugin scope goes to its own path (each part encoded)', async () => {
    const { t, seen } = transport((req) => (req.path === '/config/system' ? recorded('39-config-system') : req.path === '/config/plugins/api' ? reply({ data: { enabled: true } }) : undefined));
    expect(Object.keys((await cmsConfig.read(t, 'system')).values).length).toBeGreaterThan(5);
    expect((await cmsConfig.read(t, 'plugins/api')).values).toEqual({ enabled: true });
    expect(seen.map((r) => r.path)).toEqual(['/config/system', '/config/plugins/api']);
  });

  test('a stale ETag is a conflict, the blueprint’s refusal names the fields', async () => {
    const { t } = transport((req) =>
      req.path === '/config/site' && req.headers['if-match'] === '"old"'
        ? reply({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'Resource has been modified.' }, 409)
        : reply({ status: 422, title: 'Unprocessable', detail: 'Validation failed', errors: [{ field: 'author.email', message: 'Invalid email' }] }, 422),
    );
    await expect(cmsConfig.write(t, 'site', { title: 'x' }, '"old"')).rejects.toMatchObject({ code: 'conflict' });
    await expect(cmsConfig.write(t, 'site', { author: { email: 'x' } }, '"new"')).rejects.toMatchObject({ code: 'invalid_input', info: { fields: { 'author.email': 'Invalid email' } } });
  });

  test('the installed plugins and themes of the real service', async () => {
    const { t } = transport((req) => (req.path === '/gpm/plugins' ? recorded('42-gpm-plugins') : req.path === '/gpm/themes' ? recorded('44-gpm-themes') : undefined));
    const plugins = await cmsPackages.installedPlugins(t);
    expect(plugins.map((p) => p.slug)).toContain('api');
    expect(plugins.find((p) => p.slug === 'admin2')).toMatchObject({ name: 'Admin2', version: '2.0.15', enabled: true });
    expect((await cmsPackages.installedThemes(t)).map((p) => p.slug)).toEqual(['quark2']);
  });

  test('a package whose slug could climb a path is set aside with its reason; the others are read', async () => {
    const { t } = transport(() => reply({ data: [{ slug: '../etc', name: 'x' }, { slug: 'email', name: 'Email', enabled: true }] }));
    const read = await cmsPackages.installed(t, 'plugin');
    expect(read.items.map((p) => p.slug)).toEqual(['email']);
    expect(read.problems).toEqual([expect.stringMatching(/^\.\.\/etc: /)]);
    expect((await cmsPackages.installedPlugins(t)).map((p) => p.slug)).toEqual(['email']);
  });
  test('an answer that is not a list is refused with the route named', async () => {
    const { t } = transport(() => reply({ data: { slug: 'email' } }));
    await expect(cmsPackages.installedPlugins(t)).rejects.toMatchObject({ code: 'bad_response', message: expect.stringContaining('GET /gpm/plugins') });
  });
});

describe('the leaves a settings form changed', () => {
  const before = { title: 'Grav', author: { name: 'Joe', email: 'joe@example.com' }, taxonomies: ['category', 'tag'], mailer: { smtp: { password: MASKED } } };

  test('only changed leaves, lists whole, removals included; a masked secret untouched is not among them', () => {
    const after = { title: 'Mine', author: { name: 'Joe' }, taxonomies: ['category'], mailer: { smtp: { password: MASKED } }, blog: { route: '/blog' } };
    expect(leafChanges(before, after)).toEqual([
      { path: ['title'], before: 'Grav', after: 'Mine' },
      { path: ['author', 'email'], before: 'joe@example.com', after: undefined },
      { path: ['taxonomies'], before: ['category', 'tag'], after: ['category'] },
      { path: ['blog', 'route'], before: undefined, after: '/blog' },
    ]);
    expect(leafChanges(before, structuredClone(before))).toEqual([]);
  });

  test('the patch is nested and sends a removal as null; undo swaps each leaf back', () => {
    const changes = leafChanges(before, { ...before, title: 'Mine', author: { name: 'Ann' } });
    expect(patchOf(changes)).toEqual({ title: 'Mine', author: { name: 'Ann', email: null } });
    expect(patchOf(undoOf(changes))).toEqual({ title: 'Grav', author: { name: 'Joe', email: 'joe@example.com' } });
  });

  test('a site’s key named like a prototype property is data', () => {
    const changes = leafChanges({}, JSON.parse('{"__proto__": {"polluted": true}, "constructor": "x"}') as Record<string, unknown>);
    const patch = patchOf(changes);
    expect(Object.getPrototypeOf(patch)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(patch)).toBe('{"__proto__":{"polluted":true},"constructor":"x"}');
  });
});
