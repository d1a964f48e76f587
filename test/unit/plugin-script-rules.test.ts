/** What a jailed plugin script may ask of its site, and the element names its scripts define. */
import { describe, expect, test } from 'vitest';
import { scriptPath, scriptTag } from '../../electron/plugin-scripts/rules';

describe('a plugin script’s requests', () => {
  test('reads of the site’s API, with their query; writes only to the plugin’s own routes', () => {
    expect(scriptPath('team-notes', 'GET', '/pages?per_page=5')).toEqual({ path: '/pages', query: { per_page: '5' } });
    expect(scriptPath('team-notes', 'PATCH', '/team-notes/notes')).toEqual({ path: '/team-notes/notes', query: {} });
    expect(scriptPath('team-notes', 'POST', '/pages')).toEqual({ refused: 'A plugin script may change only its own routes (/team-notes/…).' });
    expect(scriptPath('team-notes', 'DELETE', '/team-notes-evil/x')).toMatchObject({ refused: expect.stringMatching(/only its own routes/) });
  });

  test('never sign-in, accounts, keys, settings, packages or the system; never climbing or another host', () => {
    for (const p of ['/auth/token', '/me', '/users/admin/api-keys', '/config/system', '/gpm/install', '/system/info', '/cache', '/webhooks', '/audit/events', '/%75sers']) {
      expect(scriptPath('team-notes', 'GET', p), p).toMatchObject({ refused: expect.any(String) });
    }
    expect(scriptPath('team-notes', 'GET', 'https://evil.example/x')).toMatchObject({ refused: expect.stringMatching(/path of its site/) });
    expect(scriptPath('team-notes', 'GET', '//evil.example/x')).toMatchObject({ refused: expect.any(String) });
    expect(scriptPath('team-notes', 'GET', '/team-notes/../users')).toMatchObject({ refused: expect.stringMatching(/climb/) });
    expect(scriptPath('team-notes', 'GET', '/team-notes/%2e%2e/users')).toMatchObject({ refused: expect.stringMatching(/climb/) });
    expect(scriptPath('team-notes', 'GET', '/pages\\x')).toMatchObject({ refused: expect.any(String) });
  });

  test('element names as the official client mounts them', () => {
    expect(scriptTag('site-health', 'page')).toBe('grav-site-health--page');
    expect(scriptTag('team-notes', 'widget')).toBe('grav-team-notes--widget');
    expect(scriptTag('site-health', 'report', 'health-report')).toBe('grav-site-health--health-report');
    expect(scriptTag('team-notes', 'field', 'note-color')).toBe('grav-team-notes--note-color');
  });
});
