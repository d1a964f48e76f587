/**
 * Permissions. An account's access map is stored nested (`{api: {access: true, pages: {read: true}}}`)
 * as the real service keeps it; a grant on a parent (`api.pages: true`) covers its children. `api.super`
 * is only ever granted deliberately (never inherited from `api: true`) and stands for every `api.*`
 * permission. `admin.super` is a separate authority (the classic admin's), not implied by `api.super`.
 *
 * The documents' resolved map is nested (`resolvedMap`); the real service's is flat, over the
 * permissions it registers (`flatResolvedMap`, after
 * getgrav/grav-plugin-api:classes/Api/PermissionResolver.php resolvedMap()).
 */

/** Every permission the service knows, leaves only (spec section 5, item 6, and the plugin's list). */
const PERMISSIONS = [
  'admin.super',
  'admin.login',
  'site.login',
  'api.access',
  'api.super',
  'api.pages.read',
  'api.pages.write',
  'api.media.read',
  'api.media.write',
  'api.config.read',
  'api.config.write',
  'api.users.read',
  'api.users.write',
  'api.system.read',
  'api.system.write',
  'api.gpm.read',
  'api.gpm.write',
  'api.scheduler.read',
  'api.scheduler.write',
  'api.reports.read',
  'api.webhooks.read',
  'api.webhooks.write',
  'api.login-settings.read',
  'api.login-settings.write',
] as const;

export type AccessMap = { [segment: string]: boolean | AccessMap };

/** Accepts nested maps, dotted keys (`{"api.pages.read": true}`) or a mix; returns the nested form. */
export function normalizeAccess(input: unknown): AccessMap {
  const out: AccessMap = {};
  const walk = (node: unknown, path: string[]) => {
    if (typeof node === 'boolean' || node === 'true' || node === 'false' || node === 1 || node === 0) {
      if (path.length) setPath(out, path, node === true || node === 'true' || node === 1);
      return;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    for (const [k, v] of Object.entries(node)) walk(v, [...path, ...k.split('.').filter(Boolean)]);
  };
  walk(input, []);
  return out;
}

/** Flat list of `[permission, value]` for every leaf of a nested map. */
function flattenAccess(map: AccessMap, prefix = ''): [string, boolean][] {
  return Object.entries(map).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'boolean' ? [[key, v] as [string, boolean]] : flattenAccess(v, key);
  });
}

/**
 * The nearest boolean on the way from `permission` up to its root segment: an explicit
 * `api.pages.write: false` beats `api.pages: true`. `undefined` when nothing on the path is set.
 */
export function resolve(map: AccessMap, permission: string): boolean | undefined {
  const segs = permission.split('.');
  let found: boolean | undefined;
  let node: boolean | AccessMap | undefined = map;
  for (const seg of segs) {
    if (typeof node !== 'object') break;
    node = node[seg];
    if (typeof node === 'boolean') found = node;
  }
  return found;
}

/** The value set exactly at `permission` (no inheritance). */
export function resolveExact(map: AccessMap, permission: string): boolean | undefined {
  let node: boolean | AccessMap | undefined = map;
  for (const seg of permission.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[seg];
  }
  return typeof node === 'boolean' ? node : undefined;
}

export function isSuper(map: AccessMap): boolean {
  return resolveExact(map, 'api.super') === true;
}

/** Whether an account map grants `permission` (super admins hold every `api.*` permission). */
export function grants(map: AccessMap, permission: string): boolean {
  if (permission === 'api.super') return isSuper(map); // never inherited from `api: true`
  if (permission.startsWith('api.') && isSuper(map)) return true;
  return resolve(map, permission) === true;
}

/**
 * Whether an API key's scopes allow `permission`. An empty scope list means unscoped (the owner's
 * rights apply); otherwise a scope covers itself and everything below it, `*` covers all.
 */
export function scopesAllow(scopes: readonly string[], permission: string): boolean {
  if (scopes.length === 0) return true;
  return scopes.some((s) => s === '*' || s === permission || permission.startsWith(`${s}.`));
}

/**
 * The fully resolved map `GET /me` reports: every known permission the account holds (inherited
 * or direct, super expanded), plus every permission the account sets explicitly (true or false),
 * nested by segment with boolean leaves.
 */
export function resolvedMap(map: AccessMap): AccessMap {
  const out: AccessMap = {};
  const names = new Set<string>([...PERMISSIONS, ...flattenAccess(map).map(([k]) => k)]);
  for (const name of names) {
    const explicit = resolveExact(map, name) !== undefined;
    const value = grants(map, name);
    // a name whose children are also listed is a group, not a leaf: its children carry the answer
    const isGroup = [...names].some((n) => n.startsWith(`${name}.`));
    if (isGroup) continue;
    if (value || explicit) setPath(out, name.split('.'), value);
  }
  return out;
}

/**
 * Sets one permission in a nested map. A map cannot hold both `pages: true` and `pages.write`, so
 * when the two meet the parent's grant is spelled out over the known permissions below it: a
 * boolean parent that gains a child becomes its known children (then the child is set), and a
 * parent boolean arriving after children fills the known children not set yet.
 */
function setPath(target: AccessMap, path: string[], value: boolean): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i]!;
    const next = node[seg];
    if (typeof next !== 'object') node[seg] = typeof next === 'boolean' ? expand(path.slice(0, i + 1), next) : {};
    node = node[seg] as AccessMap;
  }
  const last = path[path.length - 1]!;
  const existing = node[last];
  if (typeof existing === 'object') {
    const known = expand(path, value);
    fill(existing, known);
  } else node[last] = value;
}

/** The known permissions under `path`, all set to `value`, nested relative to `path`. */
function expand(path: string[], value: boolean): AccessMap {
  const prefix = path.join('.') + '.';
  const out: AccessMap = {};
  for (const p of PERMISSIONS) if (p.startsWith(prefix)) setPath(out, p.slice(prefix.length).split('.'), value);
  return out;
}

/** Copies leaves of `from` into `into` where `into` has nothing yet. */
function fill(into: AccessMap, from: AccessMap): void {
  for (const [k, v] of Object.entries(from)) {
    const have = into[k];
    if (have === undefined) into[k] = v;
    else if (typeof have === 'object' && typeof v === 'object') fill(have, v);
  }
}

/**
 * The `api.*` permissions the real Grav API plugin registers, in its order (the access map of
 * recordings 03–09; getgrav/grav-plugin-api:permissions.yaml).
 */
export const REAL_API_PERMISSIONS = [
  'api.super',
  'api.access',
  'api.demo',
  'api.pages',
  'api.pages.read',
  'api.pages.write',
  'api.media',
  'api.media.read',
  'api.media.write',
  'api.config',
  'api.config.read',
  'api.config.write',
  'api.users',
  'api.users.read',
  'api.users.write',
  'api.system',
  'api.system.read',
  'api.system.write',
  'api.system.backup',
  'api.gpm',
  'api.gpm.read',
  'api.gpm.write',
  'api.scheduler',
  'api.scheduler.read',
  'api.scheduler.write',
  'api.reports',
  'api.reports.read',
  'api.webhooks',
  'api.webhooks.read',
  'api.webhooks.write',
] as const;

/**
 * The access map the real service reports in /me and the token pair
 * (getgrav/grav-plugin-api:classes/Api/PermissionResolver.php resolvedMap()): flat, dotted keys,
 * every registered `api.*` permission true or false. A super admin gets true for all of them,
 * `api.demo` included; anyone else gets the nearest value set on the permission's path (a parent
 * grant covers its children, an explicit false wins), false when nothing is set.
 */
export function flatResolvedMap(map: AccessMap): Record<string, boolean> {
  const superAdmin = isSuper(map);
  return Object.fromEntries(REAL_API_PERMISSIONS.map((name) => [name, superAdmin || resolve(map, name) === true]));
}
