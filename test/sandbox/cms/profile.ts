/**
 * The "who am I and what may I do" object: the `user` in a token pair and the body of GET /me.
 *
 * The documents describe a nested resolved access map and `cms_version`. The real flavour answers
 * as the Grav API plugin does (getgrav/grav-plugin-api:classes/Api/Controllers/AbstractApiController.php
 * buildUserProfile() and buildDemoModePayload(), Controllers/AuthController.php me(); recordings 05,
 * 07–09): a flat access map with dotted keys (access.ts flatResolvedMap), a `demo_mode` block, and
 * `grav_version` instead of `cms_version`.
 */
import { flatResolvedMap, isSuper, resolvedMap, resolveExact, type AccessMap } from './access';
import type { Account } from './accounts';
import type { CmsContext } from './context';
import { accessWithGroups } from './users/groups';

export interface UserProfile {
  username: string;
  fullname: string;
  email: string;
  /** path of the avatar image; null when the account has none */
  avatar_url: string | null;
  super_admin: boolean;
  access: AccessMap;
  content_editor: string;
}

/** The real service's profile: the flat access map and the account's demo-mode state. */
export interface RealUserProfile extends Omit<UserProfile, 'access'> {
  access: Record<string, boolean>;
  demo_mode: { enabled: boolean; writable: string[]; reset_interval: number; seconds_until_reset: number | null };
}


export interface CurrentUser extends UserProfile {
  cms_version: string;
  admin_version: string | null;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  /** access token lifetime, seconds */
  expires_in: number;
  user: UserProfile | RealUserProfile;
}

function userProfile(account: Account): UserProfile {
  return {
    username: account.username,
    fullname: account.fullname,
    email: account.email,
    avatar_url: account.avatar ? `/user/accounts/avatars/${account.avatar.name}` : null,
    super_admin: isSuper(account.access),
    access: resolvedMap(accessWithGroups(account)),
    content_editor: account.content_editor ?? '',
  };
}

function realUserProfile(ctx: CmsContext, account: Account): RealUserProfile {
  // `enabled` is the account's own flag: a super admin's resolved map says api.demo even so
  const demo = resolveExact(account.access, 'api.demo') === true;
  return {
    username: account.username,
    fullname: account.fullname,
    email: account.email,
    avatar_url: account.avatar ? `/user/accounts/avatars/${account.avatar.name}` : null,
    super_admin: isSuper(account.access),
    access: flatResolvedMap(accessWithGroups(account)),
    content_editor: account.content_editor ?? '',
    // demo mode's live state (ops/demo.ts); the countdown and the writable list only for a demo account
    demo_mode: { enabled: demo, writable: demo ? [...ctx.ops.demo.knobs.writable] : [], reset_interval: ctx.ops.demo.interval(), seconds_until_reset: demo ? ctx.ops.demo.secondsUntilReset() : null },
  };
}

/** The body of GET /me in the sandbox's flavour. */
export function currentUser(ctx: CmsContext, account: Account): CurrentUser | (RealUserProfile & { grav_version: string; admin_version: string | null }) {
  if (ctx.flavor === 'real') return { ...realUserProfile(ctx, account), grav_version: ctx.settings.cmsVersion, admin_version: ctx.settings.adminVersion };
  return { ...userProfile(account), cms_version: ctx.settings.cmsVersion, admin_version: ctx.settings.adminVersion };
}

/** Issues a fresh access + refresh token for an account. */
export function tokenPair(ctx: CmsContext, account: Account): TokenPair {
  const access = ctx.tokens.issue('access', account.username, ctx.settings.accessTtl);
  const refresh = ctx.tokens.issue('refresh', account.username, ctx.settings.refreshTtl);
  return {
    access_token: access.token,
    refresh_token: refresh.token,
    token_type: 'Bearer',
    expires_in: ctx.settings.accessTtl,
    user: ctx.flavor === 'real' ? realUserProfile(ctx, account) : userProfile(account),
  };
}
