/**
 * What an account may do, from GET /me: its resolved access map and its `super_admin` flag. Pure,
 * shared by the Host and the renderer so both hide or refuse the same things for the same reason.
 *
 * The map comes flat from the real service (`{"api.pages.read": true}`) and nested from the spec
 * (`{api: {pages: {read: true}}}`); every check here reads both, and a mix of the two.
 */
import type { AccessMap, Me } from './auth';
import { MAILER_BASES, type MailerBase } from './mailer-common';

/** What the checks read: the account as /me described it (best: it says whether it is a demo account), or only its access map. */
export type Grants = (Pick<Me, 'access' | 'superAdmin'> & Partial<Pick<Me, 'demoMode'>>) | AccessMap | null | undefined;

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

/**
 * May this account use `permission`? The demo rule first (a demo account's writes outside its
 * writable list are refused even to a super admin, as the site refuses them), then super, then the map.
 */
export function can(grants: Grants, permission: string): boolean {
  if (demoWriteBlocked(grants, permission)) return false;
  return isSuper(grants) || allowed(split(grants).access, permission);
}

/**
 * Why this account may not write with `permission`, or null when it may: the demo rule's reason,
 * else `lacks` (the area's own words) or a plain sentence naming the permission. Every area's
 * write gating goes through this or `can`, so a demo account's refused writes are disabled
 * everywhere with the same reason before the person tries.
 */
export function writeBlockedReason(grants: Grants, permission: string, lacks?: string): string | null {
  const demo = demoWriteBlocked(grants, permission);
  if (demo) return demo;
  if (isSuper(grants) || allowed(split(grants).access, permission)) return null;
  return lacks ?? `This account may not do this (it lacks ${permission}).`;
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

/** What a demo account may write with when the site does not say (`plugins.api.demo.writable`'s default). */
export const DEFAULT_DEMO_WRITABLE: readonly string[] = ['api.pages.write', 'api.media.write'];

/**
 * The only permissions whose routes a demo account's writes reach at all: the real plugin's
 * DemoModeMiddleware refuses every other write before the permission check (configuration,
 * accounts, packages, the system, webhooks, the demo routes, any plugin route), whatever the
 * writable list says; pages and media go on to the check against the list.
 */
const DEMO_WRITE_FAMILIES = ['api.pages.', 'api.media.'];

/** A write to a plugin's own route (a plugin page's save, a menubar action): no permission the app can name. */
export const PLUGIN_ROUTE_WRITE = 'plugin.route';

/**
 * A check that only reads: `.read` permissions, the API's entry (`api.access`, which the areas open
 * by), and document 2's `mailer.view` (its demo mode lets a demo account read the audience). Grav's
 * Mailroom calls the same permission `mailroom.view`, which the real plugin's demo lock refuses:
 * it lets through only permissions ending in `.read`.
 */
const readsOnly = (permission: string) => permission.endsWith('.read') || permission === 'api.access' || permission === 'mailer.view';

const DEMO_WORDS: Record<string, string> = {
  'api.pages.write': 'change pages',
  'api.media.write': 'change media',
  'api.config.write': 'change settings',
  'api.users.write': 'change accounts',
  'api.gpm.write': 'install, update or remove packages',
  'api.system.write': 'make system changes (the cache, notifications)',
  'api.scheduler.write': 'run the scheduler',
  'api.webhooks.write': 'change webhooks',
  'api.super': 'use the super user’s tools',
  'admin.super': 'use the super user’s tools',
  [PLUGIN_ROUTE_WRITE]: 'run a plugin’s actions',
  'mailer.manage': 'change the mailing audience',
  'mailroom.manage': 'change the mailing audience',
  'mailroom.view': 'use the mailing plugin (Mailroom lets demo accounts read nothing but permissions ending in .read)',
};

/**
 * The demo rule (document 2 "Demo mode"; the real AbstractApiController::demoWriteBlocked and
 * DemoModeMiddleware): a demo account reads everything but writes only with the permissions in
 * the site's writable list (default api.pages.write and api.media.write), and only to pages and
 * media. Answers why `permission` is refused to this account, or null. Pure, one place: `can`,
 * `writeBlockedReason` and `settingsWriteBlocked` follow it, so every area's write gating does.
 */
export function demoWriteBlocked(grants: Grants, permission: string): string | null {
  if (!grants || readsOnly(permission)) return null;
  const account = isAccount(grants) ? (grants as Pick<Me, 'access' | 'superAdmin' | 'demoMode'>) : null;
  if (!account || !isDemoAccount(account)) return null;
  // the real service names the list in /me's demo_mode; the spec's /me has no block: its default
  const writable = account.demoMode ? account.demoMode.writable : DEFAULT_DEMO_WRITABLE;
  if (writable.includes(permission) && DEMO_WRITE_FAMILIES.some((f) => permission.startsWith(f))) return null;
  return `Demo accounts cannot ${DEMO_WORDS[permission] ?? 'make this change'} on this site (demo mode).`;
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
  // document 2 and the real SchedulerController: api.scheduler.read to read, api.scheduler.write to run
  scheduler: 'api.scheduler.read',
  // writes need api.webhooks.write (document 2 and the real WebhookController alike)
  webhooks: 'api.webhooks.read',
  audit: 'api.super',
  // the mailing plugin's own: `mailer.view` (document 2) or `mailroom.view` (Grav's Mailroom); the
  // gate reads either spelling (mailerBlockedReason), since which one a site uses is known only
  // once the Host has asked it (`mailer.site`)
  mailer: 'mailer.view',
};

/**
 * The mailing plugin's permission levels: `view` reads the audience, `manage` changes it (and
 * exports it: a copy of personal data leaving the site), `send` puts mail into inboxes (with
 * `manage`: start, resume, a test copy).
 */
export type MailerLevel = 'view' | 'manage' | 'send';

/** The permission of `level` in a site's spelling: `mailer.manage`, `mailroom.view`. */
export const mailerPermission = (prefix: MailerBase, level: MailerLevel): string => `${prefix}.${level}`;

/**
 * Why this account may not read (`view`) or change (`manage`) a site's mailing audience, or null
 * when it may. `prefix`: the site's spelling once known (`MailerPlugin.permissionPrefix`); without
 * it, either spelling grants. `api.super` (and the account's `super_admin`) counts as all, as the
 * plugin has it; the demo rule comes first, as everywhere (a demo account may read document 2's
 * audience, and nothing of Mailroom's).
 */
export function mailerBlockedReason(grants: Grants, level: MailerLevel, prefix?: MailerBase | null): string | null {
  const { access } = split(grants);
  if (!isSuper(grants) && !allowed(access, 'api.access')) return 'This account may not use the API (it lacks api.access).';
  const prefixes: readonly MailerBase[] = prefix ? [prefix] : MAILER_BASES;
  let demo: string | null = null;
  for (const p of prefixes) {
    const permission = mailerPermission(p, level);
    const refused = demoWriteBlocked(grants, permission);
    if (refused) {
      demo ??= refused;
      continue;
    }
    if (hasApiSuper(grants) || allowed(access, permission)) return null;
  }
  if (demo) return demo;
  // the real service's map cannot tell: the site decides, and its refusal is shown in its words
  if (listsOnlyApiPermissions(access)) return null;
  return `This account lacks the ${prefixes.map((p) => mailerPermission(p, level)).join(' or ')} permission.`;
}

/**
 * The real API plugin's /me lists every `api.*` permission it registered and nothing else, flat
 * (getgrav/grav-plugin-api PermissionResolver::resolvedMap skips every name not starting `api.`):
 * such a map never says whether the account holds a plugin's own permission (`mailroom.view`), so
 * it cannot be the reason to refuse one. Document 2's map is nested and names what is granted.
 */
function listsOnlyApiPermissions(access: AccessMap | null): boolean {
  if (!access) return false;
  const entries = Object.entries(access);
  return entries.length > 0 && entries.every(([k, v]) => k.startsWith('api.') && typeof v === 'boolean');
}

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
  if (area === 'mailer') return mailerBlockedReason(grants, 'view');
  const need = AREA_PERMISSION[area];
  if (need === 'api.super') {
    if (grants && isAccount(grants) && isDemoAccount(grants)) return 'The audit trail is hidden from demo accounts.'; // AUDIT_WORDS.demo (contract/audit.ts)
    if (hasApiSuper(grants)) return null;
    // the site takes admin.super for super everywhere else; here it refuses it, so say so
    return allowed(split(grants).access, 'admin.super') ? 'Only an account with api.super may open this area; admin.super alone is not enough.' : `This account lacks the ${need} permission.`;
  }
  return demoWriteBlocked(grants, need) ?? (can(grants, need) ? null : `This account lacks the ${need} permission.`);
}

/**
 * Scopes any configuration reader may see but only a super user may change: they steer the whole
 * site's execution and security (the real service's SUPER_WRITE_SCOPES and its API plugin's own
 * settings), and `backups` and `scheduler` are super-only altogether.
 */
const SUPER_WRITE_SCOPES = new Set(['system', 'security', 'backups', 'scheduler', 'plugins/api']);

/** Why this account may not change a settings scope, or null when it may. */
export function settingsWriteBlocked(grants: Grants, scope: string): string | null {
  const demo = demoWriteBlocked(grants, 'api.config.write');
  if (demo) return demo;
  if (isSuper(grants)) return null;
  if (!can(grants, 'api.config.write')) return 'This account may read the settings but not change them (it lacks api.config.write).';
  if (SUPER_WRITE_SCOPES.has(scope)) return 'Only a super user may change these settings: they steer the whole site’s security.';
  return null;
}
