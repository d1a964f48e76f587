/**
 * The "who am I and what may I do" object: the `user` in a token pair and the body of GET /me.
 */
import { isSuper, resolvedMap, type AccessMap } from './access';
import type { Account } from './accounts';
import type { CmsContext } from './context';

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
  user: UserProfile;
}

export function userProfile(account: Account): UserProfile {
  return {
    username: account.username,
    fullname: account.fullname,
    email: account.email,
    avatar_url: account.avatar ? `/user/accounts/avatars/${account.avatar.name}` : null,
    super_admin: isSuper(account.access),
    access: resolvedMap(account.access),
    content_editor: account.content_editor ?? '',
  };
}

export function currentUser(ctx: CmsContext, account: Account): CurrentUser {
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
    user: userProfile(account),
  };
}
