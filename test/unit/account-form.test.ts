import { describe, expect, it } from 'vitest';
import type { BlueprintField } from '../../electron/contract/index';
import { fieldNames, profileChanges, profileFields, profileValues } from '../../renderer/views/users/account-form';

// the real service's users blueprint, in short (recording 32)
const blueprint: BlueprintField[] = [
  { name: 'info', type: 'userinfo' },
  { name: 'avatar', type: 'file' },
  { name: 'content', type: 'section', label: 'Account' },
  { name: 'username', type: 'text', label: 'Username' },
  { name: 'email', type: 'email', label: 'Email', validate: { required: true } },
  { name: 'password', type: 'password', label: 'Password' },
  { name: 'fullname', type: 'text', label: 'Full name' },
  { name: 'title', type: 'text', label: 'Title' },
  { name: 'state', type: 'select', label: 'ADMIN_NEXT.USERS.STATUS', options: [{ value: 'enabled', label: 'ADMIN_NEXT.ENABLED' }] },
  { name: 'language', type: 'select', label: 'Language', options: [{ value: 'en', label: 'English' }] },
  { name: 'content_editor', type: 'select', label: 'Content Editor' },
  { name: 'twofa_check', type: 'conditional', fields: [{ name: 'twofa_check.twofa_enabled', type: 'toggle' }] },
  { name: 'security', type: 'section', label: 'Access Levels', fields: [{ name: 'groups', type: 'select' }, { name: 'access', type: 'permissions' }] },
];

describe('profileFields', () => {
  it('keeps the fields the API saves, in the blueprint’s order, and drops the rest', () => {
    const names = [...fieldNames(profileFields(blueprint, { manager: true }))];
    expect(names).toEqual(['email', 'fullname', 'title', 'state', 'language', 'content_editor']);
  });
  it('leaves state out for someone who may not change it', () => {
    expect(fieldNames(profileFields(blueprint, { manager: false })).has('state')).toBe(false);
  });
  it('adds a field the blueprint lacks, so an account can always be made', () => {
    const fields = profileFields([{ name: 'fullname', type: 'text', label: 'Name' }], { manager: true });
    expect([...fieldNames(fields)]).toEqual(['fullname', 'email', 'title', 'state', 'language', 'content_editor']);
    expect(fields.at(-1)).toMatchObject({ type: 'section', label: 'More' });
  });
});

describe('profile values and changes', () => {
  const user = { username: 'ines', email: 'i@example.test', fullname: 'Ines', title: '', state: 'enabled', access: {}, groups: [], avatarUrl: null, twofaEnabled: false, language: 'en', contentEditor: '', created: null, modified: null, extra: {} };
  it('sends only what differs, trimmed', () => {
    const before = profileValues(user);
    const shown = new Set(['email', 'fullname', 'title', 'state', 'language', 'content_editor']);
    expect(profileChanges(before, { ...before }, shown)).toEqual({});
    expect(profileChanges(before, { ...before, fullname: ' Ines Editor ', state: 'disabled' }, shown)).toEqual({ fullname: 'Ines Editor', state: 'disabled' });
    expect(profileChanges(before, { ...before, state: 'disabled' }, new Set(['email']))).toEqual({}); // a field not shown is never sent
  });
});
