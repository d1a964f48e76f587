/**
 * What an account may do, from GET /me: its resolved access map and its `super_admin` flag. Pure,
 * shared by the Host and the renderer so both hide or refuse the same things for the same reason.
 *
 * The map comes flat from the real service (`{"api.pages.read": true}`) and nested from the spec
 * (`{api: {pages: {read: true}}}`); every check here reads both, and a mix of the two.
 */
import type { AccessMap, Me } from './auth';

/** What the checks read: the account as /me described it (best), or only its access map. */
export type Grants = Pick<Me, 'access' | 'superAdmin'> | AccessMap | null | undefined;

const isAccount = (g: NonNullable<Grants>): g is Pick<Me, 'access' | 'superAdmin'> =>
  typeof g.superAdmin === 'boolean' && typeof g.access === 'object' && g.access !== null;

function split(g: Grants): { access: AccessMap | null; superAdmin: boolean } {
  if (!g) return { access: null, superAdmin: false };
  return isAccount(g) ? { access: g.access, superAdmin: g.superAdmin } : { access: g, superAdmin: false };
}

/** The dotted key as one flat key at this level first, then one segment deeper. */
function lookup(node: AccessMap, segments: string[]): boolean {
  const flat = node[segments.join('.')];
  if (typeof flat === 'boolean') return flat;
  if (segments.length < 2) return false; // an object is not a grant
  const child = node[segments[0]!];
  return typeof child === 'object' && child !== null && lookup(child, segments.slice(1));
}

/** Is `permission` granted in the map (flat `access["api.pages.read"]` or nested `access.api.pages.read`)? */
export function allowed(access: AccessMap | null | undefined, permission: string): boolean {
  if (!access || permission === '') return false;
  return lookup(access, permission.split('.'));
}

/** Super users (`super_admin`, api.super or admin.super) may do everything the API offers. */
export function isSuper(grants: Grants): boolean {
  const { access, superAdmin } = split(grants);
  return superAdmin || allowed(access, 'api.super') || allowed(access, 'admin.super');
}

export function can(grants: Grants, permission: string): boolean {
  return isSuper(grants) || allowed(split(grants).access, permission);
}

/**
 * A demo account (its writes are refused but for a few permissions). The real service says so in
 * `demo_mode.enabled`; its super admins carry `api.demo: true` in the map all the same, so the map
 * is only the fallback (the spec: "any account with access.api.demo set"), and never for a super admin.
 */
export function isDemoAccount(me: Pick<Me, 'access' | 'superAdmin' | 'demoMode'> | null | undefined): boolean {
  if (!me) return false;
  if (me.demoMode) return me.demoMode.enabled;
  return allowed(me.access, 'api.demo') && !isSuper(me);
}

export type CmsArea = 'pages' | 'translations' | 'media' | 'library' | 'users' | 'settings' | 'packages' | 'system' | 'addons' | 'dashboard' | 'scheduler' | 'webhooks' | 'audit' | 'mailer';

/** The permission each area needs to open (reading); writing needs the `.write` sibling where one exists. */
export const AREA_PERMISSION: Record<CmsArea, string> = {
  pages: 'api.pages.read',
  translations: 'api.pages.read',
  media: 'api.media.read',
  library: 'api.media.read',
  users: 'api.users.read',
  settings: 'api.config.read',
  packages: 'api.gpm.read',
  // each of its panels asks the site for its own permission (info: api.system.read, the cache: api.system.write) and says a refusal
  system: 'api.access',
  // a plugin's page: the site lists it only to accounts it lets see it, and refuses its routes to others
  addons: 'api.access',
  dashboard: 'api.access',
  scheduler: 'api.system.write',
  webhooks: 'api.config.read',
  audit: 'api.super',
  mailer: 'api.config.read',
};

/**
 * `api.super` itself, as the site checks it for its super-only reads (the audit trail): the
 * account's `super_admin` (the real service's own reading of api.super) or the permission in the
 * map. Unlike `isSuper`, `admin.super` alone is not enough: the site refuses such an account.
 */
export function hasApiSuper(grants: Grants): boolean {
  const { access, superAdmin } = split(grants);
  return superAdmin || allowed(access, 'api.super');
}

/** Why an area is closed to this account, or null when it is open. */
export function areaBlockedReason(grants: Grants, area: CmsArea): string | null {
  if (!isSuper(grants) && !allowed(split(grants).access, 'api.access')) return 'This account may not use the API (it lacks api.access).';
  const need = AREA_PERMISSION[area];
  if (need === 'api.super') {
    if (grants && isAccount(grants) && 'demoMode' in grants && isDemoAccount(grants as Pick<Me, 'access' | 'superAdmin' | 'demoMode'>)) return 'The audit trail is hidden from demo accounts.'; // AUDIT_WORDS.demo (contract/audit.ts)
    return hasApiSuper(grants) ? null : 'Only an account with api.super may open this area; admin.super alone is not enough.';
  }
  return can(grants, need) ? null : `This account lacks the ${need} permission.`;
}

/**
 * Scopes any configuration reader may see but only a super user may change: they steer the whole
 * site's execution and security (the real service's SUPER_WRITE_SCOPES and its API plugin's own
 * settings), and `backups` and `scheduler` are super-only altogether.
 */
const SUPER_WRITE_SCOPES = new Set(['system', 'security', 'backups', 'scheduler', 'plugins/api']);

/** Why this account may not change a settings scope, or null when it may. */
export function settingsWriteBlocked(grants: Grants, scope: string): string | null {
  if (isSuper(grants)) return null;
  if (!can(grants, 'api.config.write')) return 'This account may read the settings but not change them (it lacks api.config.write).';
  if (SUPER_WRITE_SCOPES.has(scope)) return 'Only a super user may change these settings: they steer the whole site’s security.';
  return null;
}
