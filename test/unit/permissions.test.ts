import { describe, expect, test } from 'vitest';
import { allowed, areaBlockedReason, can, isSuper } from '../../electron/contract/permissions';

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
