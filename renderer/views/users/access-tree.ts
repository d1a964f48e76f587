/**
 * An account's permissions as the editor shows them: its own settings (allowed, denied or not set,
 * by dotted name) apart from what its groups give, and what applies, resolved as Grav does
 * (the real service's PermissionResolver): the groups' grants first (a later group does not take
 * back an earlier group's grant), the account's own settings over them, and for a permission the
 * closest name set on its path (`api.pages.read`, then `api.pages`, then `api`).
 */
import type { AccessMap, PermissionNode, UserGroupInfo } from '../../../electron/contract/index';

/** Dotted names of every setting in a map, nested (`{api: {pages: true}}`) or flat (`{"api.pages": true}`) or both. */
export function flatAccess(map: AccessMap | null | undefined, prefix = '', out: Record<string, boolean> = {}): Record<string, boolean> {
  for (const [k, v] of Object.entries(map ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'object' && v !== null) flatAccess(v, key, out);
  }
  return out;
}

/** The nested map the site stores (`api.pages.read` → `{api: {pages: {read: true}}}`); a name that is also a parent keeps its children. */
export function nestedAccess(flat: Readonly<Record<string, boolean>>): AccessMap {
  const out: AccessMap = {};
  // parents first, so `api.pages: true` beside `api.pages.read` is not overwritten by the deeper key
  for (const name of Object.keys(flat).sort((a, b) => a.split('.').length - b.split('.').length)) {
    const parts = name.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== 'object') node[part] = {};
      node = node[part] as AccessMap;
    }
    const leaf = parts.at(-1)!;
    if (typeof node[leaf] === 'object') continue; // Grav cannot hold both a value and children under one name: the children stay
    node[leaf] = flat[name]!;
  }
  return out;
}

export interface GroupGrant {
  value: boolean;
  /** The group's label. */
  group: string;
}

/** What the account's groups give, by dotted name: the first group to allow a name wins over a later deny. */
export function groupGrants(groups: readonly UserGroupInfo[] | null, memberOf: readonly string[]): Map<string, GroupGrant> {
  const out = new Map<string, GroupGrant>();
  for (const name of memberOf) {
    const group = groups?.find((g) => g.name === name);
    if (!group) continue;
    for (const [key, value] of Object.entries(flatAccess(group.access))) {
      if (out.get(key)?.value !== true) out.set(key, { value, group: group.label });
    }
  }
  return out;
}

export interface Applies {
  value: boolean;
  /** Where it comes from: the account's own setting, a group's, super access, or nothing set (not allowed). */
  source: 'own' | 'group' | 'super' | 'none';
  /** The name that decided it (`api.pages`), or the group's label. */
  via: string;
}

const SUPER = ['api.super', 'admin.super'];

/** What applies to `name` for an account with these own settings and group grants. */
export function applies(name: string, own: Readonly<Record<string, boolean>>, grants: ReadonlyMap<string, GroupGrant>): Applies {
  const setting = (key: string): Applies | null =>
    key in own ? { value: own[key]!, source: 'own', via: key } : grants.has(key) ? { value: grants.get(key)!.value, source: 'group', via: grants.get(key)!.group } : null;
  if (!SUPER.includes(name)) {
    for (const s of SUPER) {
      const held = setting(s);
      if (held?.value) return { value: true, source: 'super', via: s };
    }
  }
  for (let key = name; key !== ''; key = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '') {
    const found = setting(key);
    if (found) return found;
  }
  return { value: false, source: 'none', via: '' };
}

/** Every name of the tree, depth first (the editor's rows). */
export function treeNames(nodes: readonly PermissionNode[]): string[] {
  return nodes.flatMap((n) => [n.name, ...treeNames(n.children)]);
}

/** Whether two sets of own settings are the same (the editor's "changed"). */
export function sameAccess(a: Readonly<Record<string, boolean>>, b: Readonly<Record<string, boolean>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}
