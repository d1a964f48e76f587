/**
 * What a site's plugins add, through the Host against the CMS sandbox's two demo plugins (both
 * flavours): the lists as the admin and as `viewer` (gating), menubar actions with their result and
 * a refusal, the team-notes page's data, a save refused at its field then saved and read back, the
 * site-health settings panel saved, translations, the copy while the site is away, and a page whose
 * endpoint is not a path of the site's API refused (through a proxy that bends the definition).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Site } from '../../electron/contract';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { startProxy, type Proxy } from '../support/proxy';

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  let viewer: Site;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED } });
    viewer = await fx.call('sites.add', { name: 'As viewer', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'password' });
    await fx.call('auth.signIn', { siteId: viewer.id, username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('the lists as the admin and as viewer: icons in each form, gated by the site', async () => {
    const all = await fx.call('addons.list', { siteId: fx.site.id });
    expect(all.copiedAt).toBeNull();
    expect(all.aside).toEqual([]);
    expect(all.failed).toEqual([]);
    expect(all.sidebar.map((i) => i.id)).toEqual(['site-health', 'team-notes', 'site-health-log']);
    expect(all.sidebar[0]).toMatchObject({ plugin: 'site-health', icon: { kind: 'class', name: 'fa-solid fa-heart-pulse' }, route: '/plugin/site-health', badge: 1 });
    expect(all.sidebar[1]!.icon).toEqual({ kind: 'fa', name: 'note-sticky', style: null });
    expect(all.sidebar[2]!.icon).toMatchObject({ kind: 'svg', path: expect.stringMatching(/^M4 5h16/) });
    expect(all.menubar.map((i) => i.action)).toEqual(['quick-note', 'unpin-all', 'run-checks', 'purge-cdn']);
    expect(all.menubar[0]).toMatchObject({ label: flavor === 'real' ? 'PLUGIN_TEAM_NOTES.QUICK_NOTE' : 'Quick note', icon: { kind: 'fa', name: 'note-sticky', style: 'regular' }, confirm: null });
    expect(all.menubar[3]).toMatchObject({ confirm: 'Purge the CDN cache of the whole site?', variant: 'danger' });
    expect(all.widgets.map((w) => [w.id, w.routes, w.autoLoad])).toEqual([
      ['site-health-uptime', ['/'], true],
      ['team-notes-chat', ['/pages', '/plugin/team-notes'], false],
    ]);
    expect(all.panels.map((p) => [p.id, p.contexts, p.icon])).toEqual([
      ['site-health-page', ['pages'], { kind: 'fa', name: 'gauge', style: 'solid' }],
      ['team-notes-page', ['pages'], { kind: 'lucide', name: 'history' }],
    ]);
    expect(all.settingsPanels).toEqual([
      expect.objectContaining({ id: 'site-health-settings', plugin: 'site-health', blueprint: 'health-settings', description: expect.any(String) }),
    ]);
    // the endpoints stay in the Host
    expect(JSON.stringify(all)).not.toMatch(/endpoint/i);

    const mine = await fx.call('addons.list', { siteId: viewer.id });
    expect(mine.sidebar.map((i) => i.id)).toEqual(['team-notes']);
    expect(mine.menubar.map((i) => i.id)).toEqual(['team-notes-quick']);
    expect(mine.widgets.map((i) => i.id)).toEqual(['team-notes-chat']);
    expect(mine.panels.map((i) => i.id)).toEqual(['team-notes-page']);
    expect(mine.settingsPanels).toEqual([]);
  });

  test('menubar actions: a result, a refusal in words, and one the site refuses the account', async () => {
    expect(await fx.call('addons.runAction', { siteId: fx.site.id, plugin: 'site-health', action: 'run-checks' })).toEqual({ ok: true, message: expect.stringMatching(/^6 checks run: \d passed/) });
    expect(await fx.call('addons.runAction', { siteId: fx.site.id, plugin: 'site-health', action: 'purge-cdn' })).toEqual({ ok: false, message: 'The CDN refused the purge: no CDN zone is configured for this site.' });
    expect(await fx.call('addons.runAction', { siteId: viewer.id, plugin: 'team-notes', action: 'quick-note', body: { text: 'Call the printer' } })).toEqual({ ok: true, message: expect.stringMatching(/^Note added/) });
    expect(await fx.fails('addons.runAction', { siteId: viewer.id, plugin: 'site-health', action: 'run-checks' })).toMatchObject({ code: 'forbidden' });
    expect(await fx.fails('addons.runAction', { siteId: fx.site.id, plugin: 'team-notes', action: 'nothing-here' })).toMatchObject({ code: 'not_found' });
    expect(await fx.fails('addons.runAction', { siteId: fx.site.id, plugin: '..', action: 'x' })).toMatchObject({ code: 'invalid_input' });
  });

  test('a plugin page’s own action: run at the endpoint the Host reads in the definition; a download or an unknown one is not run', async () => {
    const seq = fx.cms.events.list().at(-1)?.seq ?? 0;
    expect(await fx.call('addons.pageAction', { siteId: fx.site.id, plugin: 'site-health', actionId: 'run' })).toEqual({ ok: true, message: expect.stringMatching(/^6 checks run/) });
    expect(fx.cms.events.list('onSiteHealthRun').filter((e) => e.seq > seq)).toHaveLength(1);
    expect(await fx.fails('addons.pageAction', { siteId: fx.site.id, plugin: 'team-notes', actionId: 'export' })).toMatchObject({ code: 'not_found', message: expect.stringMatching(/no action “export” Sitedesk can run/) });
    expect(await fx.fails('addons.pageAction', { siteId: fx.site.id, plugin: 'site-health', actionId: 'nothing' })).toMatchObject({ code: 'not_found' });
  });

  test('the team-notes page: its definition, data, a save refused at its field, then saved and read back', async () => {
    const page = await fx.call('addons.page', { siteId: fx.site.id, plugin: 'team-notes' });
    expect(page).toMatchObject({ id: 'team-notes', title: 'Team Notes', pageType: 'blueprint', blueprint: 'notes', hasData: true, canSave: true, refused: [] });
    expect(page.actions.map((a) => [a.id, a.runs, a.download])).toEqual([
      ['export', true, true],
      ['save', false, false],
    ]);
    const form = await fx.call('blueprints.pluginPage', { siteId: fx.site.id, plugin: 'team-notes', pageId: page.blueprint! });
    expect(form.fields.length).toBeGreaterThan(0);
    const address = { siteId: fx.site.id, plugin: 'team-notes', kind: 'page' as const, id: 'team-notes' };
    const { values } = await fx.call('addons.pageData', address);
    expect(values.notes).toEqual(expect.any(Array));

    const notes = [
      { title: 'Printer', body: 'Call the shop', pinned_until: '2026-12-01' },
      { title: 'Keys', body: '', pinned_until: '2026-02-30' },
    ];
    const refused = await fx.fails('addons.savePageData', { ...address, values: { notes } });
    expect(refused).toMatchObject({ code: 'invalid_input', status: 422, fields: { 'notes.1.pinned_until': expect.any(String) } });
    notes[1]!.pinned_until = '2026-02-28';
    const saved = await fx.call('addons.savePageData', { ...address, values: { notes } });
    expect(saved.values.notes).toEqual(notes);
    expect((await fx.call('addons.pageData', address)).values.notes).toEqual(notes);

    const component = await fx.call('addons.page', { siteId: fx.site.id, plugin: 'site-health' });
    expect(component).toMatchObject({ pageType: 'component', hasScript: true, hasData: false });
    expect(await fx.fails('addons.pageData', { ...address, plugin: 'site-health', id: 'site-health' })).toMatchObject({ code: 'not_found' });
  });

  test('the site-health settings panel: read, a 422 at its field, saved; not listed for viewer', async () => {
    const address = { siteId: fx.site.id, plugin: 'site-health', kind: 'settingsPanel' as const, id: 'site-health-settings' };
    const { values } = await fx.call('addons.pageData', address);
    expect(values).toMatchObject({ checks: expect.any(Object) });
    const bad = await fx.fails('addons.savePageData', { ...address, values: { checks: { interval: 2 } } });
    expect(bad).toMatchObject({ status: 422, fields: { 'checks.interval': expect.any(String) } });
    const saved = await fx.call('addons.savePageData', { ...address, values: { checks: { interval: 15, disk_warning: 90 } } });
    expect(saved.values.checks).toMatchObject({ interval: 15, disk_warning: 90 });
    expect((await fx.call('addons.pageData', address)).values.checks).toMatchObject({ interval: 15, disk_warning: 90 });
    expect(await fx.fails('addons.pageData', { ...address, siteId: viewer.id })).toMatchObject({ code: 'not_found' });
  });

  test('translations, and the copies while the site is away; writes refused then, never queued', async () => {
    const en = await fx.call('addons.translations', { siteId: fx.site.id, lang: 'en' });
    expect(en.copiedAt).toBeNull();
    expect(en.strings['PLUGIN_TEAM_NOTES.MENU_LABEL']).toBe('Team notes');
    const de = await fx.call('addons.translations', { siteId: fx.site.id, lang: 'de' });
    expect(de.strings['PLUGIN_TEAM_NOTES.MENU_LABEL']).toBe('Team-Notizen');
    const online = await fx.call('addons.list', { siteId: fx.site.id });

    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('addons.list', { siteId: fx.site.id });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.sidebar).toEqual(online.sidebar);
      expect((await fx.call('addons.translations', { siteId: fx.site.id, lang: 'en' })).copiedAt).toEqual(expect.any(String));
      const run = await fx.fails('addons.runAction', { siteId: fx.site.id, plugin: 'site-health', action: 'run-checks' });
      expect(run.message).toMatch(/The action was not run; it is never sent later/);
      const save = await fx.fails('addons.savePageData', { siteId: fx.site.id, plugin: 'team-notes', kind: 'page', id: 'team-notes', values: { notes: [] } });
      expect(save.message).toMatch(/The page was not saved; it is never sent later/);
      expect(await fx.call('sync.outbox', { siteId: fx.site.id })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
  });

  describe('a definition that names an endpoint outside the site’s API', () => {
    let proxy: Proxy;
    let bent: Site;
    beforeAll(async () => {
      proxy = await startProxy(fx.cms.origin);
      bent = await fx.call('sites.add', { name: 'Bent', kind: 'cms', baseUrl: `${proxy.origin}${fx.cms.prefix}`, environment: null, authMode: 'apikey', apiKey: fx.cms.seeded!.adminApiKey! });
    });
    afterAll(async () => {
      await proxy.close();
    });

    test.each([
      ['another host', 'https://elsewhere.example/steal'],
      ['a protocol-relative address', '//elsewhere.example/steal'],
      ['a relative path', 'team-notes/notes'],
      ['a climb out of the API', '/team-notes/../../admin'],
      ['an encoded climb', '/team-notes/%2e%2e/users'],
    ])('%s is never called', async (_what, endpoint) => {
      proxy.bend = (call, answer) => {
        if (!call.startsWith('GET ') || !call.includes('/gpm/plugins/team-notes/page')) return null;
        const body = answer.json as { data: Record<string, unknown> };
        return { body: JSON.stringify({ data: { ...body.data, data_endpoint: endpoint, save_endpoint: endpoint } }) };
      };
      const page = await fx.call('addons.page', { siteId: bent.id, plugin: 'team-notes' });
      expect(page).toMatchObject({ hasData: false, canSave: false });
      expect(page.refused.join(' ')).toMatch(/its data: /);
      const before = proxy.seen.length;
      const address = { siteId: bent.id, plugin: 'team-notes', kind: 'page' as const, id: 'team-notes' };
      expect(await fx.fails('addons.pageData', address)).toMatchObject({ code: 'bad_response', message: expect.stringMatching(/not a path of the site's API/) });
      expect(await fx.fails('addons.savePageData', { ...address, values: { notes: [] } })).toMatchObject({ message: expect.stringMatching(/did not save/) });
      // only the definitions were asked for: nothing went to the endpoint
      expect(proxy.seen.slice(before).map((s) => s.url.replace(/^.*\/api\/v1/, ''))).toEqual(['/gpm/plugins/team-notes/page', '/gpm/plugins/team-notes/page']);
    });
  });
});
