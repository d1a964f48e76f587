/**
 * The addons client over the real service's recorded replies (60–64: every composition point empty
 * on a site whose plugins add nothing; 65: translations with no strings, sent as []) and over
 * answers of the shapes getgrav/grav-plugin-api sends when plugins add to them: icons in each
 * documented form, rows that cannot be read set aside with the reason, an action's result and
 * refusal, a page definition, and the endpoint rule (only a path of the site's API is called).
 */
import { describe, expect, test } from 'vitest';
import type { AddonAside } from '../../electron/contract';
import { apiPath, cmsAddons, iconOf } from '../../electron/api/cms/addons';
import { recorded, reply, transport } from './support/recorded-replies';

describe('the addons client', () => {
  test('the real site with no plugin that adds anything: every list empty, the translations with no strings', async () => {
    const files: Record<string, string> = {
      '/sidebar/items': '60-sidebar-items',
      '/menubar/items': '61-menubar-items',
      '/floating-widgets': '62-floating-widgets',
      '/context-panels': '63-context-panels',
      '/settings/panels': '64-settings-panels',
    };
    const { t } = transport((req) => (files[req.path] ? recorded(files[req.path]!) : req.path.startsWith('/translations/') ? recorded('65-translations-en-prefix') : undefined));
    const aside: AddonAside[] = [];
    expect(await cmsAddons.sidebar(t, aside)).toEqual([]);
    expect(await cmsAddons.menubar(t, aside)).toEqual([]);
    expect(await cmsAddons.widgets(t, aside)).toEqual([]);
    expect(await cmsAddons.panels(t, aside)).toEqual([]);
    expect(await cmsAddons.settingsPanels(t, aside)).toEqual([]);
    expect(aside).toEqual([]);
    expect(await cmsAddons.translations(t, 'en')).toEqual({ lang: 'en-US', strings: {} });
  });

  test('icons in every documented form; anything else is none (the app draws its generic icon)', () => {
    expect(iconOf('fa-note-sticky')).toEqual({ kind: 'fa', name: 'note-sticky', style: null });
    expect(iconOf('fa-regular:note-sticky')).toEqual({ kind: 'fa', name: 'note-sticky', style: 'regular' });
    expect(iconOf('class:fa-solid  fa-heart-pulse')).toEqual({ kind: 'class', name: 'fa-solid fa-heart-pulse' });
    expect(iconOf({ type: 'svg', path: 'M4 5h16v2H4z' })).toEqual({ kind: 'svg', path: 'M4 5h16v2H4z' });
    expect(iconOf('history')).toEqual({ kind: 'lucide', name: 'history' });
    expect(iconOf({ type: 'svg', path: '"/><script>alert(1)</script>' })).toBeNull();
    expect(iconOf('class:x" onload="y')).toBeNull();
    expect(iconOf('fa-weird:thing')).toBeNull();
    expect(iconOf(42)).toBeNull();
  });

  test('rows that cannot be read are set aside with the reason; the rest are read', async () => {
    const { t } = transport(() =>
      reply({
        data: [
          { id: 'ok', plugin: 'demo', label: 'Demo', icon: 'fa-star', action: 'go', confirm: 'Sure?', variant: 'danger', priority: '3' },
          { id: 'no-action', plugin: 'demo', label: 'Demo' },
          { id: 'bad-plugin', plugin: '../x', label: 'X', action: 'go' },
          'not a row',
          { plugin: 'demo', label: 'No id', action: 'go' },
        ],
      }),
    );
    const aside: AddonAside[] = [];
    expect(await cmsAddons.menubar(t, aside)).toEqual([{ id: 'ok', plugin: 'demo', label: 'Demo', icon: { kind: 'fa', name: 'star', style: null }, priority: 3, action: 'go', confirm: 'Sure?', variant: 'danger' }]);
    expect(aside).toEqual([
      { list: 'menubar', index: 1, reason: 'no action name' },
      { list: 'menubar', index: 2, reason: 'no plugin name' },
      { list: 'menubar', index: 3, reason: 'not an object' },
      { list: 'menubar', index: 4, reason: 'no id' },
    ]);
  });

  test('a list that is not a list names the route', async () => {
    const { t } = transport(() => reply({ data: 'nope' }));
    await expect(cmsAddons.sidebar(t, [])).rejects.toThrow(/sidebar items.*GET \/sidebar\/items|GET \/sidebar\/items/);
  });

  test('an action: the body sent, the result, a refusal in words', async () => {
    const { t, seen } = transport((req) => (req.path.endsWith('/quick-note') ? reply({ data: { status: 'success', message: 'Note added (3 in all).' } }) : reply({ data: { status: 'error', message: 'No CDN zone.' } })));
    expect(await cmsAddons.runAction(t, 'team-notes', 'quick-note', { text: 'Hi' })).toEqual({ ok: true, message: 'Note added (3 in all).' });
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/menubar/actions/team-notes/quick-note', body: { text: 'Hi' } });
    expect(await cmsAddons.runAction(t, 'site-health', 'purge-cdn', undefined)).toEqual({ ok: false, message: 'No CDN zone.' });
    expect(seen[1]!.body).toEqual({});
  });

  test('a page definition: its type, blueprint, actions; a definition without a type is unreadable', async () => {
    const def = { id: 'team-notes', plugin: 'team-notes', title: 'Team Notes', icon: 'fa-note-sticky', page_type: 'blueprint', blueprint: 'notes', data_endpoint: '/team-notes/notes', save_endpoint: '/team-notes/notes', actions: [{ id: 'export', label: 'Export', download: true, endpoint: '/team-notes/export' }, { id: 'save', label: 'Save', primary: true }], has_custom_component: false };
    const { t } = transport((req) => (req.path === '/gpm/plugins/team-notes/page' ? reply({ data: def }) : reply({ data: { id: 'x', title: 'X' } })));
    const page = await cmsAddons.page(t, 'team-notes');
    expect(page).toMatchObject({ pageType: 'blueprint', blueprint: 'notes', dataEndpoint: '/team-notes/notes', hasScript: false });
    expect(page.actions.map((a) => [a.id, a.runs, a.download, a.primary])).toEqual([
      ['export', true, true, false],
      ['save', false, false, true],
    ]);
    await expect(cmsAddons.page(t, 'other')).rejects.toThrow(/page_type/);
  });

  test('the endpoint rule: a path of the site’s API, nothing else', () => {
    expect(apiPath('/team-notes/notes')).toEqual({ path: '/team-notes/notes', query: {} });
    expect(apiPath('/site-health/settings?section=checks')).toEqual({ path: '/site-health/settings', query: { section: 'checks' } });
    for (const bad of ['https://evil.example/x', '//evil.example/x', 'team-notes/notes', '/a/../b', '/a/%2e%2e/b', '/a/%2F/b', '/a\\b', '/http://x', '/javascript:alert(1)', '', 42, null]) {
      expect(apiPath(bad), String(bad)).toHaveProperty('refused');
    }
  });

  test('translations: strings only, an unreadable answer named', async () => {
    const { t } = transport((req) => (req.path === '/translations/de' ? reply({ data: { lang: 'de', strings: { 'PLUGIN_X.A': 'Eins', 'PLUGIN_X.B': 2 } } }) : reply({ data: { lang: 'fr', strings: 'x' } })));
    expect(await cmsAddons.translations(t, 'de')).toEqual({ lang: 'de', strings: { 'PLUGIN_X.A': 'Eins' } });
    await expect(cmsAddons.translations(t, 'fr')).rejects.toThrow(/strings/);
  });
});
