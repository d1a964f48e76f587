import { describe, expect, test } from 'vitest';
import { allowed, areaBlockedReason, can, demoWriteBlocked, hasApiSuper, isDemoAccount, isSuper, PLUGIN_ROUTE_WRITE, settingsWriteBlocked, writeBlockedReason } from '../../electron/contract/permissions';
import type { DemoMode } from '../../electron/contract/auth';

describe('permissions from the resolved access map', () => {
  const editor = { api: { access: true, pages: { read: true, write: true }, media: { read: true } } };
  test('dotted lookups follow the nesting; anything not true is false', () => {
    expect(allowed(editor, 'api.pages.write')).toBe(true);
    expect(allowed(editor, 'api.media.write')).toBe(false);
    expect(allowed(editor, 'api.pages')).toBe(false); // an object is not a grant
    expect(allowed(null, 'api.access')).toBe(false);
  });
  test('super users may do everything', () => {
    expect(isSuper({ admin: { super: true } })).toBe(true);
    expect(can({ api: { super: true } }, 'api.users.write')).toBe(true);
  });
  test('areas say why they are closed', () => {
    expect(areaBlockedReason(editor, 'pages')).toBeNull();
    expect(areaBlockedReason(editor, 'users')).toBe('This account lacks the api.users.read permission.');
    expect(areaBlockedReason({ api: { pages: { read: true } } }, 'pages')).toMatch(/api.access/);
  });
  test('webhooks open with api.webhooks.read (document 2 and the real WebhookController), not a configuration permission', () => {
    expect(areaBlockedReason({ api: { access: true, webhooks: { read: true } } }, 'webhooks')).toBeNull();
    expect(areaBlockedReason({ api: { access: true, config: { read: true } } }, 'webhooks')).toBe('This account lacks the api.webhooks.read permission.');
  });
});

describe('the real service’s flat map and super_admin flag', () => {
  const flatEditor = { 'api.access': true, 'api.pages': true, 'api.pages.read': true, 'api.pages.write': true, 'api.media.read': true, 'api.users.read': false, 'api.demo': false };
  test('dotted keys are looked up as they are; a false is false', () => {
    expect(allowed(flatEditor, 'api.pages.write')).toBe(true);
    expect(allowed(flatEditor, 'api.users.read')).toBe(false);
    expect(allowed(flatEditor, 'api.media.write')).toBe(false);
    expect(allowed(flatEditor, 'api')).toBe(false);
  });
  test('a map that mixes both (a flat key under a nested segment) reads too', () => {
    expect(allowed({ api: { 'pages.read': true } }, 'api.pages.read')).toBe(true);
  });
  test('areas open by the flat map; super_admin opens them all whatever the map says', () => {
    expect(areaBlockedReason(flatEditor, 'pages')).toBeNull();
    expect(areaBlockedReason(flatEditor, 'users')).toBe('This account lacks the api.users.read permission.');
    const account = { superAdmin: true, access: {} };
    expect(isSuper(account)).toBe(true);
    expect(can(account, 'api.gpm.write')).toBe(true);
    expect(areaBlockedReason(account, 'audit')).toBeNull();
    expect(isSuper({ superAdmin: false, access: { 'api.super': true } })).toBe(true);
    expect(isSuper({ superAdmin: false, access: flatEditor })).toBe(false);
  });
  test('a demo account: demo_mode.enabled decides; a super admin’s api.demo is not one', () => {
    const superMap = { 'api.super': true, 'api.access': true, 'api.demo': true };
    expect(isDemoAccount({ superAdmin: true, access: superMap, demoMode: { enabled: false, writable: [], resetInterval: 30, secondsUntilReset: null } })).toBe(false);
    expect(isDemoAccount({ superAdmin: true, access: superMap })).toBe(false);
    expect(isDemoAccount({ superAdmin: false, access: { 'api.access': true, 'api.demo': true } })).toBe(true);
    expect(isDemoAccount({ superAdmin: false, access: { 'api.demo': true }, demoMode: { enabled: false, writable: [], resetInterval: null, secondsUntilReset: null } })).toBe(false);
  });
});

describe('the demo rule: a demo account writes only with the writable permissions, to pages and media', () => {
  const block = (writable: string[]): DemoMode => ({ enabled: true, writable, resetInterval: 30, secondsUntilReset: 1200 });
  // the real service: a demo visitor is usually a super admin too, and /me says demo_mode.enabled
  const realDemo = { superAdmin: true, access: { 'api.super': true, 'api.access': true, 'api.demo': true }, demoMode: block(['api.pages.write', 'api.media.write']) };
  // the spec: no block; api.demo in the map of an account that is not super
  const specDemo = { superAdmin: false, access: { api: { access: true, demo: true, pages: { read: true, write: true }, media: { read: true, write: true }, config: { read: true, write: true } } } };
  const admin = { superAdmin: true, access: { 'api.super': true, 'api.demo': true }, demoMode: { enabled: false, writable: [], resetInterval: 30, secondsUntilReset: null } };

  test('reads stay open, writes outside the list are refused even to a super admin, with the reason in words', () => {
    for (const me of [realDemo, specDemo]) {
      expect(can(me, 'api.pages.read')).toBe(true);
      expect(can(me, 'api.access')).toBe(true);
      expect(can(me, 'api.pages.write')).toBe(true);
      expect(can(me, 'api.media.write')).toBe(true);
      expect(can(me, 'api.config.write')).toBe(false);
      expect(can(me, 'api.users.write')).toBe(false);
      expect(writeBlockedReason(me, 'api.config.write')).toBe('Demo accounts cannot change settings on this site (demo mode).');
      expect(writeBlockedReason(me, 'api.gpm.write', 'own words')).toBe('Demo accounts cannot install, update or remove packages on this site (demo mode).');
      expect(writeBlockedReason(me, 'api.scheduler.write')).toBe('Demo accounts cannot run the scheduler on this site (demo mode).');
      expect(writeBlockedReason(me, 'api.pages.write')).toBeNull();
      expect(settingsWriteBlocked(me, 'site')).toBe('Demo accounts cannot change settings on this site (demo mode).');
      expect(demoWriteBlocked(me, PLUGIN_ROUTE_WRITE)).toBe('Demo accounts cannot run a plugin’s actions on this site (demo mode).');
      expect(areaBlockedReason(me, 'settings')).toBeNull();
    }
  });

  test('the site’s own list decides; a permission outside pages and media is refused even when listed (the site refuses those routes first)', () => {
    const onlyPages = { ...realDemo, demoMode: block(['api.pages.write']) };
    expect(can(onlyPages, 'api.pages.write')).toBe(true);
    expect(writeBlockedReason(onlyPages, 'api.media.write')).toBe('Demo accounts cannot change media on this site (demo mode).');
    const listsConfig = { ...realDemo, demoMode: block(['api.pages.write', 'api.config.write']) };
    expect(can(listsConfig, 'api.config.write')).toBe(false);
    expect(can({ ...realDemo, demoMode: block([]) }, 'api.pages.write')).toBe(false);
  });

  test('an account that is not a demo one keeps the usual answers and reasons', () => {
    expect(can(admin, 'api.config.write')).toBe(true);
    expect(writeBlockedReason(admin, 'api.config.write')).toBeNull();
    expect(demoWriteBlocked(admin, PLUGIN_ROUTE_WRITE)).toBeNull();
    const reader = { superAdmin: false, access: { 'api.access': true, 'api.config.read': true } };
    expect(writeBlockedReason(reader, 'api.config.write', 'This account may read the settings only.')).toBe('This account may read the settings only.');
    expect(writeBlockedReason(reader, 'api.gpm.write')).toBe('This account may not do this (it lacks api.gpm.write).');
    // a bare map cannot say it is a demo account (no /me): the map alone decides
    expect(can({ api: { demo: true, config: { write: true } } }, 'api.config.write')).toBe(true);
  });

  test('the scheduler opens with api.scheduler.read and runs with api.scheduler.write (document 2, the real SchedulerController)', () => {
    const reader = { superAdmin: false, access: { 'api.access': true, 'api.scheduler.read': true } };
    expect(areaBlockedReason(reader, 'scheduler')).toBeNull();
    expect(writeBlockedReason(reader, 'api.scheduler.write')).toBe('This account may not do this (it lacks api.scheduler.write).');
    expect(areaBlockedReason({ superAdmin: false, access: { 'api.access': true, 'api.system.write': true } }, 'scheduler')).toBe('This account lacks the api.scheduler.read permission.');
    expect(areaBlockedReason(realDemo, 'scheduler')).toBeNull();
    expect(areaBlockedReason(realDemo, 'audit')).toBe('The audit trail is hidden from demo accounts.');
    expect(areaBlockedReason(specDemo, 'audit')).toBe('The audit trail is hidden from demo accounts.');
  });
});

describe('the audit trail: api.super itself', () => {
  test('admin.super alone does not open it (the site refuses such an account); api.super or super_admin does; a demo account is told it is hidden', () => {
    expect(areaBlockedReason({ api: { access: true }, admin: { super: true } }, 'audit')).toMatch(/admin\.super alone is not enough/);
    expect(areaBlockedReason({ superAdmin: false, access: { 'admin.super': true, 'api.access': true } }, 'audit')).toMatch(/api\.super/);
    expect(areaBlockedReason({ api: { access: true, super: true } }, 'audit')).toBeNull();
    expect(areaBlockedReason({ superAdmin: true, access: {} }, 'audit')).toBeNull();
    expect(hasApiSuper({ superAdmin: false, access: { 'api.super': true } })).toBe(true);
    const demo = { superAdmin: true, access: { 'api.super': true, 'api.demo': true }, demoMode: { enabled: true } } as unknown as Parameters<typeof areaBlockedReason>[0];
    expect(areaBlockedReason(demo, 'audit')).toBe('The audit trail is hidden from demo accounts.');
    // other areas still take admin.super as super
    expect(areaBlockedReason({ api: { access: true }, admin: { super: true } }, 'users')).toBeNull();
  });
});
