/**
 * Settings through the Host against the CMS sandbox (both flavours): the scopes, a scope as its
 * blueprint form with the site's values, a save that sends only the changed leaves (a masked secret
 * stays the site's), its undo, a conflict with another admin's save, the blueprint's refusal at the
 * field, and the site away: the copy with its time, and a save refused, never queued.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BlueprintField } from '../../electron/contract';
import { adminApi } from '../support/host-calls';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED } });
  });
  afterAll(async () => {
    await fx?.close();
  });
  test('the scopes, and a scope as its form with the site’s values and ETag', async () => {
    const { scopes, copiedAt } = await fx.call('settings.scopes', { siteId: fx.site.id });
    expect(copiedAt).toBeNull();
    expect(scopes.map((s) => s.id)).toEqual(expect.arrayContaining(['system', 'site', 'media', 'security']));
    expect(scopes.map((s) => s.id)).not.toContain('info'); // system information, not a form
    expect(scopes.find((s) => s.id === 'site')).toMatchObject({ label: 'Site', kind: 'core' });
    // the installed plugins and themes, from the site's package list, each its own scope
    expect(scopes.find((s) => s.id === 'plugins/email')).toMatchObject({ label: 'Email', kind: 'plugin' });
    expect(scopes.find((s) => s.id === 'themes/quark2')).toMatchObject({ kind: 'theme' });
    // a package that ships no form still shows its settings (and says it has no form)
    const bare = await fx.call('settings.open', { siteId: fx.site.id, scope: 'plugins/problems' });
    expect(bare.fields).toEqual([]);
    expect(bare.values).toMatchObject({ enabled: false });
    const form = await fx.call('settings.open', { siteId: fx.site.id, scope: 'site' });
    expect(form.fields.length).toBeGreaterThan(0);
    expect(typeof form.values.title).toBe('string');
    expect(form.etag).toBeTruthy();
    expect(form.copiedAt).toBeNull();
  });

  test('a field whose options the site resolves: the time zones, by the callable its blueprint names', async () => {
    const form = await fx.call('settings.open', { siteId: fx.site.id, scope: 'system' });
    const find = (list: BlueprintField[]): BlueprintField | undefined => list.map((f) => (f.name === 'timezone' ? f : find(f.fields ?? []))).find(Boolean);
    expect(find(form.fields)?.dataOptions).toBe('\\Grav\\Common\\Utils::timezones');
    const options = await fx.call('blueprints.options', { siteId: fx.site.id, callable: '\\Grav\\Common\\Utils::timezones' });
    expect(options.length).toBeGreaterThan(100);
    expect(options.some((o) => o.value === 'Europe/Berlin')).toBe(true);
    // a callable the site has not approved is refused by the site, in words
    const err = await fx.fails('blueprints.options', { siteId: fx.site.id, callable: 'System::exec' });
    expect(err.code).toMatch(/invalid_input|http/);
  });

  test('a save sends only the changed leaf, answers what changed, and undo puts it back', async () => {
    const form = await fx.call('settings.open', { siteId: fx.site.id, scope: 'site' });
    const before = form.values.title;
    const saved = await fx.call('settings.save', { siteId: fx.site.id, scope: 'site', etag: form.etag, changes: [{ path: ['title'], value: 'Settings test' }] });
    expect(saved.form.values.title).toBe('Settings test');
    expect(saved.changes).toEqual([{ path: ['title'], before, after: 'Settings test' }]);
    expect(fx.cms.site.config.delta('site').title).toBe('Settings test');
    // undo: the previous value written back with the new ETag
    const undone = await fx.call('settings.save', { siteId: fx.site.id, scope: 'site', etag: saved.form.etag, changes: [{ path: ['title'], value: before }] });
    expect(undone.form.values.title).toBe(before);
  });

  test('a masked secret the person did not retype is not sent: the site keeps it', async () => {
    const form = await fx.call('settings.open', { siteId: fx.site.id, scope: 'plugins/email' });
    expect(form.masked).toContain('mailer.smtp.password');
    await fx.call('settings.save', { siteId: fx.site.id, scope: 'plugins/email', etag: form.etag, changes: [{ path: ['mailer', 'smtp', 'port'], value: 2525 }] });
    const file = fx.cms.site.config.delta('plugins/email') as { mailer?: { smtp?: Record<string, unknown> } };
    expect(file.mailer?.smtp?.port).toBe(2525);
    expect(file.mailer?.smtp).not.toHaveProperty('password'); // the site's own value, untouched
  });

  test('another admin saved meanwhile: a conflict in words, nothing overwritten', async () => {
    const form = await fx.call('settings.open', { siteId: fx.site.id, scope: 'site' });
    const other = await adminApi(fx.cms).call({ method: 'PATCH', path: '/config/site', body: { author: { name: 'Other admin' } }, ...(form.etag ? { ifMatch: form.etag } : {}) });
    expect(other.status).toBe(200);
    const err = await fx.fails('settings.save', { siteId: fx.site.id, scope: 'site', etag: form.etag, changes: [{ path: ['author', 'name'], value: 'Me' }] });
    expect(err).toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed on the site since you opened them/) });
    expect((await fx.call('settings.open', { siteId: fx.site.id, scope: 'site' })).values.author).toMatchObject({ name: 'Other admin' });
  });

  test('the blueprint’s rule refused by the site lands at the field', async () => {
    const form = await fx.call('settings.open', { siteId: fx.site.id, scope: 'site' });
    const err = await fx.fails('settings.save', { siteId: fx.site.id, scope: 'site', etag: form.etag, changes: [{ path: ['author', 'email'], value: 'not an address' }] });
    expect(err.code).toBe('invalid_input');
    expect(Object.keys(err.fields ?? {})).toContain('author.email');
  });

  test('a plugin’s admin page form: its own blueprint, the plugin’s form under the plugin’s name, a missing page said in words', async () => {
    const notes = await fx.call('blueprints.pluginPage', { siteId: fx.site.id, plugin: 'team-notes', pageId: 'notes' });
    expect(notes).toMatchObject({ name: 'notes', title: 'Notes' });
    const flat = (fs: BlueprintField[]): BlueprintField[] => fs.flatMap((f) => [f, ...flat(f.fields ?? [])]);
    expect(flat(notes.fields).find((f) => f.name === 'notes')).toMatchObject({ type: 'list' });
    const own = await fx.call('blueprints.pluginPage', { siteId: fx.site.id, plugin: 'email', pageId: 'email' });
    expect(flat(own.fields).length).toBeGreaterThan(1);
    const missing = await fx.fails('blueprints.pluginPage', { siteId: fx.site.id, plugin: 'team-notes', pageId: 'other' });
    expect(missing).toMatchObject({ code: 'not_found', message: expect.stringMatching(/other/) });
    const bad = await fx.fails('blueprints.pluginPage', { siteId: fx.site.id, plugin: 'team-notes', pageId: '../users' });
    expect(bad.code).toBe('invalid_input');
  });

  test('the site away: the copy with its time, and a save refused with the reason, nothing queued', async () => {
    await fx.call('settings.open', { siteId: fx.site.id, scope: 'media' });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('settings.open', { siteId: fx.site.id, scope: 'media' });
      expect(copy.copiedAt).toEqual(expect.any(String));
      const err = await fx.fails('settings.save', { siteId: fx.site.id, scope: 'media', etag: copy.etag, changes: [{ path: ['types'], value: {} }] });
      expect(err.code).toMatch(/network|timeout/);
      expect(err.message).toMatch(/not saved/);
      expect(await fx.call('sync.outbox', { siteId: fx.site.id })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
  });
});
