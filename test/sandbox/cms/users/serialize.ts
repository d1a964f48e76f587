/**
 * A user account as the Users routes send it. The documents name username, email, fullname,
 * state, access, twofa_enabled and `avatar {name, type}` and leave the rest "not shown"; both
 * flavours send the real service's record (getgrav/grav-plugin-api:classes/Api/Serializers/
 * UserSerializer.php; recordings 26, 30, 68, 71): title, language, content_editor, the account's
 * own access map nested (`{}` when empty), groups, avatar_url, twofa_enabled, `twofa_secret` as a
 * flag (never the secret), created and modified as ISO 8601 with `+00:00`. The spec flavour adds
 * the documents' `avatar` object.
 */
import type { Account } from '../accounts';
import type { CmsContext } from '../context';

/** PHP's DATE_ATOM in UTC: `2026-11-23T20:05:37+00:00`; null for 0 or absent. */
export function atom(epochSec: number | undefined): string | null {
  if (!epochSec) return null;
  return new Date(epochSec * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Where an account's avatar is served (outside the API prefix, like the site's files). */
export const avatarPath = (name: string) => `/user/accounts/avatars/${encodeURIComponent(name)}`;

export function userRecord(ctx: CmsContext, a: Account): Record<string, unknown> {
  const record: Record<string, unknown> = {
    username: a.username,
    email: a.email,
    fullname: a.fullname,
    title: a.title ?? '',
    state: a.state ?? 'enabled',
    language: a.language ?? '',
    content_editor: a.content_editor ?? '',
    access: a.access ?? {},
    groups: (a.groups ?? []).filter((g) => typeof g === 'string'),
    avatar_url: a.avatar ? avatarPath(a.avatar.name) : null,
    twofa_enabled: Boolean(a.twofa_enabled),
    twofa_secret: Boolean(a.twofa_secret),
    created: atom(a.created),
    modified: atom(a.modified),
  };
  if (ctx.flavor === 'spec') record.avatar = a.avatar ? { name: a.avatar.name, type: a.avatar.type } : null;
  return record;
}

/** What an event carries of an account (never its secrets). */
export function userRef(a: Account): Record<string, unknown> {
  return { username: a.username, email: a.email, fullname: a.fullname, state: a.state, groups: a.groups ?? [] };
}
