/**
 * The site's user groups (Grav's `groups.yaml`: a name, a label and an access map) and an
 * account's effective access over them, as the real service's users list filters by it
 * (getgrav/grav-plugin-api:classes/Api/Controllers/UsersController.php userHasEffectiveAccess(),
 * effectiveAccessMap(); PermissionResolver.php buildFlatAccess()): each group's access first (a
 * later group does not clobber an earlier grant), the account's own access on top; the closest
 * key set on a permission's path wins, and a super admin (`api.super` or `admin.super`) holds
 * everything but the other super flag.
 */
import { normalizeAccess, type AccessMap } from '../access';
import type { Account } from '../accounts';

export interface Group {
  label: string;
  access: AccessMap;
}

/** The demo site's groups. */
export const GROUPS: Readonly<Record<string, Group>> = {
  editors: { label: 'Editors', access: { api: { access: true, pages: { read: true, write: true }, media: { read: true, write: true } } } },
  authors: { label: 'Authors', access: { api: { access: true, pages: { read: true, write: true }, media: { read: true } } } },
  reviewers: { label: 'Reviewers', access: { api: { access: true, pages: { read: true }, media: { read: true } } } },
  'user-managers': { label: 'User managers', access: { api: { access: true, users: { read: true, write: true } } } },
  support: { label: 'Support', access: { api: { access: true, users: { read: true } } } },
};

/** Dotted keys of every leaf of a nested map (`{api: {pages: true}}` → `{'api.pages': true}`). */
function flatten(map: AccessMap, prefix = '', out: Record<string, boolean> = {}): Record<string, boolean> {
  for (const [k, v] of Object.entries(map)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'boolean') out[key] = v;
    else flatten(v, key, out);
  }
  return out;
}

/** The account's flat access: its groups' grants, then its own keys over them. */
export function effectiveAccess(account: Pick<Account, 'access' | 'groups'>): Record<string, boolean> {
  const flat: Record<string, boolean> = {};
  for (const name of account.groups ?? []) {
    const group = GROUPS[name];
    if (!group) continue;
    for (const [k, v] of Object.entries(flatten(group.access))) if (flat[k] !== true) flat[k] = v;
  }
  return Object.assign(flat, flatten(account.access));
}

/** Whether the account effectively holds `permission` (the users list's `access` filter). */
export function hasEffectiveAccess(account: Pick<Account, 'access' | 'groups'>, permission: string): boolean {
  if (permission === '') return true;
  const flat = effectiveAccess(account);
  if (permission !== 'admin.super' && permission !== 'api.super' && (flat['api.super'] === true || flat['admin.super'] === true)) return true;
  for (let key = permission; key !== ''; key = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '') {
    if (key in flat) return flat[key] === true;
  }
  return false;
}

/** The effective access as a nested map, for the permission checks that take one (access.ts). */
export function accessWithGroups(account: Pick<Account, 'access' | 'groups'>): AccessMap {
  if (!account.groups?.length) return account.access;
  return normalizeAccess(effectiveAccess(account));
}
