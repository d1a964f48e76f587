/**
 * A site's plugin scripts through the Host against the sandbox (both flavours): off until the
 * person allows them for the site; then a script's code and its element's name, and a jailed
 * script's requests — reads of the site's data, a write to the plugin's own route — while sign-in,
 * accounts, settings and packages, and writes elsewhere, are refused in words.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
  const siteId = () => fx.site.id;

  test('off until allowed: nothing is loaded or asked', async () => {
    expect(await fx.call('scripts.allowed', { siteId: siteId() })).toEqual({ allowed: false });
    expect(await fx.fails('scripts.load', { siteId: siteId(), plugin: 'site-health', kind: 'page' })).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Plugin scripts are off/) });
    expect((await fx.fails('scripts.request', { siteId: siteId(), plugin: 'team-notes', method: 'GET', path: '/team-notes/notes' })).code).toBe('forbidden');
  });

  test('allowed: a script with its element name; reads and the plugin’s own write answered; the rest refused', async () => {
    await fx.call('scripts.setAllowed', { siteId: siteId(), allowed: true });
    try {
      const page = await fx.call('scripts.load', { siteId: siteId(), plugin: 'site-health', kind: 'page' });
      expect(page.tag).toBe('grav-site-health--page');
      expect(page.code).toMatch(/sitedesk-probe/);
      const notes = await fx.call('scripts.request', { siteId: siteId(), plugin: 'team-notes', method: 'GET', path: '/team-notes/notes' });
      expect(notes.status).toBe(200);
      const saved = await fx.call('scripts.request', { siteId: siteId(), plugin: 'team-notes', method: 'PATCH', path: '/team-notes/notes', body: { notes: [{ title: 'From a script', body: 'hello' }] } });
      expect(saved.status).toBe(200);
      expect(JSON.stringify((await fx.call('scripts.request', { siteId: siteId(), plugin: 'team-notes', method: 'GET', path: '/team-notes/notes' })).data)).toContain('From a script');
      for (const path of ['/me', '/users', '/config/system', '/gpm/plugins', '/auth/token']) {
        expect((await fx.fails('scripts.request', { siteId: siteId(), plugin: 'team-notes', method: 'GET', path })).code, path).toBe('forbidden');
      }
      expect(await fx.fails('scripts.request', { siteId: siteId(), plugin: 'team-notes', method: 'POST', path: '/pages' })).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/only its own routes/) });
      expect((await fx.fails('scripts.load', { siteId: siteId(), plugin: 'team-notes', kind: 'report' })).code).toBe('invalid_input');
    } finally {
      expect(await fx.call('scripts.setAllowed', { siteId: siteId(), allowed: false })).toEqual({ allowed: false });
    }
    expect((await fx.fails('scripts.load', { siteId: siteId(), plugin: 'site-health', kind: 'page' })).code).toBe('forbidden');
  });
});
