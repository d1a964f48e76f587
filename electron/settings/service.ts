/**
 * A CMS site's settings: its configuration scopes, each as its blueprint's form with the values the
 * site holds. Each form read is kept as a copy (site_cache), so settings stay readable while the
 * site is away, with the time of the copy. A save is never queued: settings are security-relevant,
 * so a save the site does not answer is refused with the reason instead of waiting in an outbox.
 */
import { AppError, isAppError } from '../base/app-error';
import { cmsConfig, MASKED, type ConfigRead } from '../api/cms/config';
import { leafChanges, patchOf } from '../common/config-changes';
import type { BlueprintField, SettingsForm, SettingsSaved, SettingsScopeInfo, SettingsScopes } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import { cmsPackages } from '../api/cms/packages';

export interface SettingsDeps extends SiteCallDeps {
  siteCache: SiteCacheRepo;
}

const SCOPES_KEY = 'settings:scopes';
const formKey = (scope: string) => `settings:form:${scope}`;

/** Core scopes in Grav's words; others keep their name. `info` is system information, not a form. */
const CORE_LABELS: Record<string, string> = { system: 'System', site: 'Site', media: 'Media', security: 'Security', backups: 'Backups', scheduler: 'Scheduler' };
const NOT_FORMS = new Set(['info']);

/** Dotted leaves whose value is the site's mask. */
function maskedLeaves(values: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v === MASKED) out.push(path);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(...maskedLeaves(v as Record<string, unknown>, path));
  }
  return out;
}

const formOf = (scope: string, read: ConfigRead, fields: SettingsForm['fields']): SettingsForm => ({
  scope,
  values: read.values,
  etag: read.etag,
  fields,
  overrides: read.overrides,
  masked: maskedLeaves(read.values),
  copiedAt: null,
});

/** A package that ships no form (its blueprint answers 404) still has settings to read: no fields. */
function noForm(err: unknown): BlueprintField[] {
  if (isAppError(err) && err.code === 'not_found') return [];
  throw err;
}

export function settingsService(deps: SettingsDeps) {
  const { siteCache } = deps;
  const { t, withCopy, sendNow } = siteCalls(deps);

  /** The site's installed plugins or themes as scopes; none when the account may not list them or the site has no package routes. */
  async function packages(siteId: string, kind: 'plugin' | 'theme'): Promise<SettingsScopeInfo[]> {
    try {
      const list = await (kind === 'plugin' ? cmsPackages.installedPlugins(t(siteId)) : cmsPackages.installedThemes(t(siteId)));
      return list.map((p) => ({ id: `${kind}s/${p.slug}`, label: p.name, kind }));
    } catch (err) {
      if (isAppError(err) && (err.code === 'forbidden' || err.code === 'not_found')) return [];
      throw err;
    }
  }

  return {
    async scopes(siteId: string): Promise<SettingsScopes> {
      const { value, copiedAt } = await withCopy(siteId, siteCache, SCOPES_KEY, async (transport) => {
        const core = (await cmsConfig.scopes(transport)).filter((s) => !NOT_FORMS.has(s));
        const [plugins, themes] = await Promise.all([packages(siteId, 'plugin'), packages(siteId, 'theme')]);
        return [...core.map((id) => ({ id, label: CORE_LABELS[id] ?? id, kind: 'core' as const })), ...plugins, ...themes];
      });
      return { scopes: value, copiedAt };
    },

    async open(siteId: string, scope: string): Promise<SettingsForm> {
      const { value, copiedAt } = await withCopy(siteId, siteCache, formKey(scope), async (transport) => {
        const [read, fields] = await Promise.all([cmsConfig.read(transport, scope), cmsConfig.blueprint(transport, scope).catch(noForm)]);
        return formOf(scope, read, fields);
      });
      return { ...value, copiedAt };
    },

    async save(siteId: string, scope: string, etag: string | null, changes: { path: string[]; value?: unknown }[]): Promise<SettingsSaved> {
      const before = siteCache.get<SettingsForm>(siteId, formKey(scope))?.value;
      let read: ConfigRead;
      try {
        read = await sendNow('The settings were not saved', () => cmsConfig.write(t(siteId), scope, patchOf(changes.map((c) => ({ path: c.path, after: c.value }))), etag));
      } catch (err) {
        if (isAppError(err) && err.code === 'conflict') {
          throw new AppError({ code: 'conflict', message: 'These settings were changed on the site since you opened them. Reload to see the site’s values; your edits stay in the form until you do.' }, { cause: err });
        }
        throw err;
      }
      const fields: BlueprintField[] = before?.fields ?? (await cmsConfig.blueprint(t(siteId), scope).catch(noForm));
      const form = formOf(scope, read, fields);
      siteCache.put(siteId, formKey(scope), form);
      // what the site now holds against what the form was opened with, for the changed leaves only
      const asked = new Set(changes.map((c) => c.path.join('\u0000')));
      const made = before ? leafChanges(before.values, read.values).filter((c) => asked.has(c.path.join('\u0000'))) : changes.map((c) => ({ path: c.path, before: undefined, after: c.value }));
      return { form, changes: made };
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
