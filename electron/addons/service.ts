/**
 * What a CMS site's plugins add: the lists (kept as one copy, readable while the site is away with
 * its time), a menubar action run now (never queued: it is whatever the plugin does), a plugin's
 * page definition, a page's or settings panel's data and its save, and the site's translations.
 *
 * The endpoints of a page or panel are the Host's business: they are looked up in the definition
 * the Host reads from the site at the moment of the call, checked (api/cms/addons.ts apiPath), and
 * never taken from the renderer, so nothing the renderer sends can aim the site's token elsewhere.
 */
import { AppError, mayHaveArrived } from '../base/app-error';
import { timeOfDay, UncertainWrites } from '../base/uncertain';
import { apiPath, cmsAddons, type PluginPageRead, type SettingsPanelRead } from '../api/cms/addons';
import type { AddonAside, AddonData, AddonTranslations, PluginPageDef, SiteAddons } from '../contract';
import type { Transport } from '../api/transport';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';

const LIST_KEY = 'addons:list';
const translationsKey = (lang: string) => `addons:translations:${lang.toLowerCase()}`;

type Lists = Omit<SiteAddons, 'copiedAt'>;

/** The definition as the renderer sees it: the endpoints replaced by whether they can be used. */
function pageDefOf(p: PluginPageRead): PluginPageDef {
  const refused: string[] = [];
  const usable = (what: string, raw: unknown): boolean => {
    if (raw === undefined || raw === null) return false;
    const at = apiPath(raw);
    if ('refused' in at) refused.push(`${what}: ${at.refused}`);
    return 'path' in at;
  };
  const hasData = usable('its data', p.dataEndpoint);
  const canSave = usable('its save', p.saveEndpoint ?? p.dataEndpoint);
  return {
    id: p.id,
    plugin: p.plugin,
    title: p.title,
    icon: p.icon,
    pageType: p.pageType,
    blueprint: p.blueprint,
    hasData,
    canSave,
    actions: p.actions.map(({ endpoint, method: _m, ...a }) => ({ ...a, runs: a.runs && usable(`the action ${a.label}`, endpoint) })),
    hasScript: p.hasScript,
    refused,
  };
}

export function addonsService(deps: SiteCallDeps & { siteCache: SiteCacheRepo; now?: () => number }) {
  const { t, read, withCopy, sendNow } = siteCalls(deps);
  // a plugin's action is not known to be safe twice: one whose answer was lost asks the person first
  const uncertain = new UncertainWrites<Record<string, never>>(deps.now);

  /** Each list on its own: one the site refuses (403) or cannot answer is said, the others still show. */
  async function lists(transport: Transport): Promise<Lists & { panelsRead: SettingsPanelRead[] }> {
    const aside: AddonAside[] = [];
    const failed: SiteAddons['failed'] = [];
    const one = async <T>(list: AddonAside['list'], get: () => Promise<T[]>): Promise<T[]> => {
      try {
        return await get();
      } catch (err) {
        // nothing answered at all: the whole read fails, so the copy answers instead
        if (unreachable(err)) throw err;
        failed.push({ list, reason: err instanceof Error ? err.message : String(err) });
        return [];
      }
    };
    const [sidebar, menubar, widgets, panels, panelsRead] = await Promise.all([
      one('sidebar', () => cmsAddons.sidebar(transport, aside)),
      one('menubar', () => cmsAddons.menubar(transport, aside)),
      one('widgets', () => cmsAddons.widgets(transport, aside)),
      one('panels', () => cmsAddons.panels(transport, aside)),
      one('settingsPanels', () => cmsAddons.settingsPanels(transport, aside)),
    ]);
    const byPriority = <T extends { priority: number }>(xs: T[]) => [...xs].sort((a, b) => b.priority - a.priority);
    return {
      sidebar: byPriority(sidebar),
      menubar,
      widgets: byPriority(widgets),
      panels: byPriority(panels),
      settingsPanels: byPriority(panelsRead).map(({ dataEndpoint: _d, saveEndpoint: _s, ...p }) => p),
      aside,
      failed,
      panelsRead,
    };
  }

  /** Where a page's or panel's data is read and saved, from the definition the site gives now. */
  async function endpoints(siteId: string, plugin: string, kind: 'page' | 'settingsPanel', id: string): Promise<{ data: unknown; save: unknown; what: string }> {
    if (kind === 'page') {
      const p = await cmsAddons.page(read(siteId), plugin);
      if (p.pageType !== 'blueprint' || p.id !== id) throw new AppError({ code: 'not_found', message: `The plugin ${plugin} has no form page "${id}".` });
      return { data: p.dataEndpoint, save: p.saveEndpoint ?? p.dataEndpoint, what: `the ${p.title} page` };
    }
    const panel = (await cmsAddons.settingsPanels(read(siteId), [])).find((x) => x.plugin === plugin && x.id === id);
    if (!panel) throw new AppError({ code: 'not_found', message: `The site lists no settings panel "${id}" of the plugin ${plugin} for this account.` });
    return { data: panel.dataEndpoint, save: panel.saveEndpoint ?? panel.dataEndpoint, what: `the ${panel.label} settings` };
  }

  const usable = (raw: unknown, what: string, action: string) => {
    const at = apiPath(raw);
    if ('refused' in at) throw new AppError({ code: 'bad_response', message: `Sitedesk did not ${action} ${what}: the plugin names an endpoint that is not a path of the site's API (${at.refused}).` });
    return at;
  };

  return {
    async list(siteId: string): Promise<SiteAddons> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, LIST_KEY, async (transport) => {
        const { panelsRead: _p, ...rest } = await lists(transport);
        return rest;
      });
      return { ...value, copiedAt };
    },

    async runAction(siteId: string, plugin: string, action: string, body?: Record<string, unknown>, again = false): Promise<{ ok: boolean; message: string }> {
      const key = `${siteId}\n${plugin}\n${action}`;
      const earlier = uncertain.get(key);
      if (earlier && !again) {
        throw new AppError({ code: 'conflict', message: `The site may already have run the action ${plugin}/${action}: its answer to the run at ${timeOfDay(earlier.at)} was lost. Check whether it happened; run it again only if it did not.` });
      }
      try {
        const result = await sendNow('The action was not run', () => cmsAddons.runAction(t(siteId), plugin, action, body));
        uncertain.forget(key);
        return result;
      } catch (err) {
        if (mayHaveArrived(err)) uncertain.remember(key, {});
        throw err;
      }
    },

    /** A page action that sends its own request; as a menubar action, one whose answer was lost asks before it runs again. */
    async pageAction(siteId: string, plugin: string, actionId: string, again = false): Promise<{ ok: boolean; message: string }> {
      const key = `${siteId}\n${plugin}\npage:${actionId}`;
      const earlier = uncertain.get(key);
      if (earlier && !again) {
        throw new AppError({ code: 'conflict', message: `The site may already have run ${plugin}’s “${actionId}”: its answer at ${timeOfDay(earlier.at)} was lost. Check whether it happened; run it again only if it did not.` });
      }
      try {
        const result = await sendNow('The action was not run', async () => {
          const p = await cmsAddons.page(read(siteId), plugin);
          const a = p.actions.find((x) => x.id === actionId);
          if (!a || !a.runs || a.download) throw new AppError({ code: 'not_found', message: `The ${p.title} page has no action “${actionId}” Sitedesk can run.` });
          return cmsAddons.pageAction(t(siteId), usable(a.endpoint, `the ${p.title} page`, 'run an action of'), a.method);
        });
        uncertain.forget(key);
        return result;
      } catch (err) {
        if (mayHaveArrived(err)) uncertain.remember(key, {});
        throw err;
      }
    },

    page: async (siteId: string, plugin: string): Promise<PluginPageDef> => pageDefOf(await cmsAddons.page(read(siteId), plugin)),

    async pageData(siteId: string, plugin: string, kind: 'page' | 'settingsPanel', id: string): Promise<AddonData> {
      const at = await endpoints(siteId, plugin, kind, id);
      return { values: await cmsAddons.data(read(siteId), usable(at.data, at.what, 'read')) };
    },

    async savePageData(siteId: string, plugin: string, kind: 'page' | 'settingsPanel', id: string, values: Record<string, unknown>): Promise<AddonData> {
      return sendNow(kind === 'page' ? 'The page was not saved' : 'The settings were not saved', async () => {
        const at = await endpoints(siteId, plugin, kind, id);
        const saved = await cmsAddons.save(t(siteId), usable(at.save, at.what, 'save'), values);
        // the site's answer is the data when it sends it; else read back what it now holds
        return { values: saved ?? (await cmsAddons.data(t(siteId), usable(at.data, at.what, 'read'))) };
      });
    },

    async translations(siteId: string, lang: string): Promise<AddonTranslations> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, translationsKey(lang), (transport) => cmsAddons.translations(transport, lang));
      return { ...value, copiedAt };
    },
  };
}

export type AddonsService = ReturnType<typeof addonsService>;
