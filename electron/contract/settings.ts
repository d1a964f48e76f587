/**
 * The `settings.*` channels: a CMS site's configuration scopes (system, site, media, security,
 * backups, plugins/<name>, themes/<name>) as blueprint forms. A save sends only the leaves that
 * changed, with the ETag the form was opened with; the answer carries the changes made, so the
 * renderer can offer to undo them (a save of the previous values).
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { headerProblem } from './header';
import type { BlueprintField } from './pages';

/** `system`, `site`, `plugins/api`, `themes/quark2`: a word, or plugins/themes and a name. */
export const SettingsScope = v.pipe(
  v.string(),
  v.maxLength(128, 'A settings scope is at most 128 characters.'),
  v.regex(/^(?:(?:plugins|themes)\/)?[a-z0-9][a-z0-9_.-]*$/i, 'Not a settings scope of this site.'),
  v.check((s) => !s.split('/').some((p) => p === '..' || p === '.'), 'Not a settings scope of this site.'),
);

/** The value the real service sends in place of a secret (its ConfigSecretMasker's sentinel). */
export const SETTINGS_MASK = '********';

export const SETTINGS_LIMITS = { changes: 2000, depth: 32, key: 200 } as const;

/** A value a setting takes: JSON within the header's limits. */
const SettingValue = v.pipe(
  v.unknown(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = headerProblem({ value: dataset.value });
    if (problem) addIssue({ message: problem.replace('The header', 'The value') });
  }),
);

const LeafPath = v.pipe(
  v.array(v.pipe(v.string(), v.minLength(1, 'A setting’s name cannot be empty.'), v.maxLength(SETTINGS_LIMITS.key, `A setting’s name is at most ${SETTINGS_LIMITS.key} characters.`))),
  v.minLength(1, 'Name the setting.'),
  v.maxLength(SETTINGS_LIMITS.depth, `A setting is nested at most ${SETTINGS_LIMITS.depth} levels deep.`),
);

export const SettingsSave = v.strictObject({
  siteId: SiteId,
  scope: SettingsScope,
  /** The ETag the form was opened with (null when the site sent none). */
  etag: v.nullable(v.pipe(v.string(), v.maxLength(512))),
  changes: v.pipe(
    v.array(v.strictObject({ path: LeafPath, value: v.optional(SettingValue) })),
    v.minLength(1, 'Nothing was changed.'),
    v.maxLength(SETTINGS_LIMITS.changes, `At most ${SETTINGS_LIMITS.changes} settings change in one save.`),
  ),
});

export interface SettingsScopeInfo {
  id: string;
  label: string;
  kind: 'core' | 'plugin' | 'theme';
}

export interface SettingsScopes {
  scopes: SettingsScopeInfo[];
  /** When the list came from the copy (the site is away): the time it was read. */
  copiedAt: string | null;
}

export interface SettingsForm {
  scope: string;
  values: Record<string, unknown>;
  etag: string | null;
  fields: BlueprintField[];
  /** Dotted leaves this site's own files set (the rest are defaults). */
  overrides: string[];
  /** Dotted leaves the site sent masked (a secret): shown as set, sent only when the person types a new one. */
  masked: string[];
  /** When the form came from the copy (the site is away, nothing can be saved): the time it was read. */
  copiedAt: string | null;
}

export interface SettingsLeafChange {
  path: string[];
  before: unknown;
  after: unknown;
}

export interface SettingsSaved {
  form: SettingsForm;
  /** What the save changed, as the site answered it: undoing writes each `before` back. */
  changes: SettingsLeafChange[];
}

export const settingsChannels = {
  'settings.scopes': channel<SettingsScopes>()(v.strictObject({ siteId: SiteId })),
  'settings.open': channel<SettingsForm>()(v.strictObject({ siteId: SiteId, scope: SettingsScope })),
  'settings.save': channel<SettingsSaved>()(SettingsSave),
};

export const settingsEvents = {};
