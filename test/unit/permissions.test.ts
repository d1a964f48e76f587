import { describe, expect, test } from 'vitest';
import { allowed, areaBlockedReason, can, isDemoAccount, isSuper, hasApiSuper } from '../../electron/contract/permissions';

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
