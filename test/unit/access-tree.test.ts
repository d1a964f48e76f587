import { describe, expect, it } from 'vitest';
import type { UserGroupInfo } from '../../electron/contract/index';
import { applies, flatAccess, groupGrants, nestedAccess, sameAccess, treeNames } from '../../renderer/views/users/access-tree';

const groups: UserGroupInfo[] = [
  { name: 'editors', label: 'Editors', access: { api: { access: true, pages: { read: true, write: true } } } },
  { name: 'readers', label: 'Readers', access: { api: { pages: { read: true, write: false } } } },
];

describe('flatAccess and nestedAccess', () => {
  it('reads nested, flat and mixed maps as dotted names', () => {
    expect(flatAccess({ api: { pages: { read: true } }, 'site.login': true, admin: { super: false } })).toEqual({ 'api.pages.read': true, 'site.login': true, 'admin.super': false });
    expect(flatAccess(null)).toEqual({});
  });
  it('nests back what it flattened', () => {
    const map = { api: { access: true, pages: { read: true, write: false } }, site: { login: true } };
    expect(nestedAccess(flatAccess(map))).toEqual(map);
  });
  it('keeps the children where a name is set beside deeper ones (Grav cannot hold both)', () => {
    expect(nestedAccess({ 'api.pages.read': true, 'api.pages': true })).toEqual({ api: { pages: { read: true } } });
  });
});

describe('what applies', () => {
  it('the account’s own setting over its groups’; the closest name on the path decides', () => {
    const grants = groupGrants(groups, ['editors']);
    expect(applies('api.pages.write', {}, grants)).toEqual({ value: true, source: 'group', via: 'Editors' });
    expect(applies('api.pages.write', { 'api.pages.write': false }, grants)).toEqual({ value: false, source: 'own', via: 'api.pages.write' });
    expect(applies('api.pages.read', { 'api.pages': false }, grants)).toEqual({ value: true, source: 'group', via: 'Editors' }); // the closer name wins
    expect(applies('api.media.read', { api: true }, grants)).toEqual({ value: true, source: 'own', via: 'api' });
    expect(applies('api.users.read', {}, grants)).toEqual({ value: false, source: 'none', via: '' });
  });
  it('a later group does not take back an earlier group’s grant', () => {
    expect(applies('api.pages.write', {}, groupGrants(groups, ['editors', 'readers']))).toMatchObject({ value: true, via: 'Editors' });
    expect(applies('api.pages.write', {}, groupGrants(groups, ['readers']))).toMatchObject({ value: false, via: 'Readers' });
  });
  it('super access allows everything but the other super flag; unknown groups give nothing', () => {
    const none = groupGrants(null, ['editors']);
    expect(none.size).toBe(0);
    expect(applies('api.pages.write', { 'api.super': true }, none)).toEqual({ value: true, source: 'super', via: 'api.super' });
    expect(applies('admin.super', { 'api.super': true }, none)).toEqual({ value: false, source: 'none', via: '' });
  });
});

describe('helpers', () => {
  it('lists the tree depth first and compares settings', () => {
    expect(treeNames([{ name: 'api', label: 'Api', children: [{ name: 'api.pages', label: 'Pages', children: [] }] }, { name: 'site', label: 'Site', children: [] }])).toEqual(['api', 'api.pages', 'site']);
    expect(sameAccess({ a: true }, { a: true })).toBe(true);
    expect(sameAccess({ a: true }, { a: false })).toBe(false);
    expect(sameAccess({ a: true }, { a: true, b: false })).toBe(false);
  });
});
