/**
 * What an account may do, from the resolved access map of GET /me. Pure, shared by the Host and
 * the renderer so both hide or refuse the same things for the same reason.
 */
import type { AccessMap } from './auth';

/** Looks a dotted permission up in the nested map: `api.pages.read` → access.api.pages.read. */
export function allowed(access: AccessMap | null | undefined, permission: string): boolean {
  if (!access) return false;
  let node: boolean | AccessMap | undefined = access;
  for (const segment of permission.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    node = node[segment];
  }
  return node === true;
}

/** Super users (api.super or admin.super) may do everything the API offers. */
export function isSuper(access: AccessMap | null | undefined): boolean {
  return allowed(access, 'api.super') || allowed(access, 'admin.super');
}

export function can(access: AccessMap | null | undefined, permission: string): boolean {
  return isSuper(access) || allowed(access, permission);
}

export type CmsArea = 'pages' | 'translations' | 'media' | 'users' | 'packages' | 'dashboard' | 'scheduler' | 'webhooks' | 'audit' | 'mailer';

/** The permission each area needs to open (reading); writing needs the `.write` sibling where one exists. */
export const AREA_PERMISSION: Record<CmsArea, string> = {
  pages: 'api.pages.read',
  translations: 'api.pages.read',
  media: 'api.media.read',
  users: 'api.users.read',
  packages: 'api.gpm.read',
  dashboard: 'api.access',
  scheduler: 'api.system.write',
  webhooks: 'api.config.read',
  audit: 'api.super',
  mailer: 'api.config.read',
};

/** Why an area is closed to this account, or null when it is open. */
export function areaBlockedReason(access: AccessMap | null | undefined, area: CmsArea): string | null {
  if (!allowed(access, 'api.access') && !isSuper(access)) return 'This account may not use the API (it lacks api.access).';
  const need = AREA_PERMISSION[area];
  return can(access, need) ? null : `This account lacks the ${need} permission.`;
}
