/**
 * The account form, from the site's users blueprint: the fields the site saves through its API
 * (the real service's UsersController takes email, fullname, title, language, content_editor and,
 * from a manager, state; the rest of the blueprint — the avatar, 2FA, API keys, groups and access —
 * have their own controls or are not saved by the API, so showing them as fields would lose what
 * was typed). A field the blueprint lacks is added with a plain definition, so an account can
 * always be made. Values and changes are plain objects: what differs is all that is sent.
 */
import type { BlueprintField, CmsUser } from '../../../electron/contract/index';

export const PROFILE_FIELDS = ['email', 'fullname', 'title', 'state', 'language', 'content_editor'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

const FALLBACK: Record<ProfileField, BlueprintField> = {
  email: { name: 'email', type: 'email', label: 'Email', validate: { required: true } },
  fullname: { name: 'fullname', type: 'text', label: 'Full name' },
  title: { name: 'title', type: 'text', label: 'Title' },
  state: { name: 'state', type: 'select', label: 'State', default: 'enabled', options: [{ value: 'enabled', label: 'Enabled' }, { value: 'disabled', label: 'Disabled' }] },
  language: { name: 'language', type: 'text', label: 'Language' },
  content_editor: { name: 'content_editor', type: 'text', label: 'Content editor' },
};

/**
 * The blueprint pruned to the profile fields (layout kept: sections, tabs), and any profile field it
 * lacks added at the end. `state` only for a manager: anyone else's change of it is refused.
 */
export function profileFields(fields: readonly BlueprintField[], opts: { manager: boolean }): BlueprintField[] {
  const wanted = new Set<string>(PROFILE_FIELDS.filter((f) => f !== 'state' || opts.manager));
  const seen = new Set<string>();
  const prune = (list: readonly BlueprintField[]): BlueprintField[] =>
    list.flatMap((f): BlueprintField[] => {
      if (f.fields?.length) {
        const kept = prune(f.fields);
        return kept.length ? [{ ...f, fields: kept }] : [];
      }
      if (wanted.has(f.name) && !seen.has(f.name)) {
        seen.add(f.name);
        return [f];
      }
      return [];
    });
  const kept = prune(fields);
  const missing = [...wanted].filter((n) => !seen.has(n)).map((n) => FALLBACK[n as ProfileField]);
  return missing.length ? [...kept, { name: 'profile', type: 'section', label: kept.length ? 'More' : 'Account', fields: missing }] : kept;
}

export type ProfileValues = Record<ProfileField, string>;

export function profileValues(u: CmsUser | null): ProfileValues {
  return {
    email: u?.email ?? '',
    fullname: u?.fullname ?? '',
    title: u?.title ?? '',
    state: u?.state === 'disabled' ? 'disabled' : 'enabled',
    language: u?.language ?? '',
    content_editor: u?.contentEditor ?? '',
  };
}

/** The profile fields whose (trimmed) value differs from the account's; empty when none does. */
export function profileChanges(before: ProfileValues, now: Readonly<Record<string, unknown>>, fields: ReadonlySet<string>): Partial<ProfileValues> {
  const out: Partial<ProfileValues> = {};
  for (const name of PROFILE_FIELDS) {
    if (!fields.has(name)) continue;
    const value = String(now[name] ?? '').trim();
    if (value !== before[name]) out[name] = value;
  }
  return out;
}

/** Names of the leaf fields of a (pruned) blueprint. */
export function fieldNames(fields: readonly BlueprintField[]): Set<string> {
  const out = new Set<string>();
  const walk = (list: readonly BlueprintField[]) => {
    for (const f of list) f.fields?.length ? walk(f.fields) : out.add(f.name);
  };
  walk(fields);
  return out;
}
