/**
 * A site's plugin scripts: the person's choice to run them (kept in site_cache, off until turned
 * on), their code read from the site, and the requests a jailed script makes, checked by
 * rules.ts and answered with the person's session. The code and the answers go only to the jail.
 */
import { AppError } from '../base/app-error';
import type { CallOptions } from '../api/transport';
import { request } from '../api/cms/envelope';
import { SCRIPT_MAX_BYTES, type ChannelParsed, type ScriptKind } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { segment } from '../api/url-path';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import { scriptPath, scriptTag } from './rules';

const ALLOW_KEY = 'scripts:allowed';

export function pluginScriptsService(deps: SiteCallDeps & { siteCache: SiteCacheRepo }) {
  const { t, read } = siteCalls(deps);
  const allowed = (siteId: string) => deps.siteCache.get<boolean>(siteId, ALLOW_KEY)?.value === true;
  const mustAllow = (siteId: string) => {
    if (!allowed(siteId)) throw new AppError({ code: 'forbidden', message: 'Plugin scripts are off for this site. Turn them on for it first, if you trust its plugins.' });
  };

  function scriptRoute(plugin: string, kind: ScriptKind, id?: string): string {
    const p = segment(plugin, 'plugin name');
    const need = (what: string) => {
      if (!id) throw new AppError({ code: 'invalid_input', message: `A ${what} script needs its id.`, fields: { id: `Name the ${what}.` } });
      return segment(id, `${what} id`);
    };
    switch (kind) {
      case 'page':
        return `/gpm/plugins/${p}/page-script`;
      case 'widget':
        return `/gpm/plugins/${p}/widget-script`;
      case 'panel':
        return `/gpm/plugins/${p}/panel-script`;
      case 'report':
        return `/gpm/plugins/${p}/report-script/${need('report')}`;
      case 'modal':
        return `/gpm/plugins/${p}/modal-script/${need('modal')}`;
      case 'field':
        return `/gpm/plugins/${p}/field/${need('field')}`;
    }
  }

  return {
    allowed: (siteId: string) => ({ allowed: allowed(siteId) }),

    setAllowed(siteId: string, allow: boolean): { allowed: boolean } {
      deps.sessions.get(siteId); // a site that does not exist is said, not stored
      if (allow) deps.siteCache.put(siteId, ALLOW_KEY, true);
      else deps.siteCache.remove(siteId, ALLOW_KEY);
      return { allowed: allow };
    },

    async load(ref: ChannelParsed<'scripts.load'>): Promise<{ code: string; tag: string }> {
      mustAllow(ref.siteId);
      const call: CallOptions = { path: scriptRoute(ref.plugin, ref.kind, ref.id), envelope: 'text' };
      const r = await request<string>(read(ref.siteId), call);
      const code = String(r.data ?? '');
      if (Buffer.byteLength(code) > SCRIPT_MAX_BYTES) throw new AppError({ code: 'bad_response', message: `${ref.plugin}’s script is larger than ${SCRIPT_MAX_BYTES / 1024} KB; Sitedesk does not run it.` });
      return { code, tag: scriptTag(ref.plugin, ref.kind, ref.id) };
    },

    async request(q: ChannelParsed<'scripts.request'>): Promise<{ status: number; data: unknown }> {
      mustAllow(q.siteId);
      const checked = scriptPath(q.plugin, q.method, q.path);
      if ('refused' in checked) throw new AppError({ code: 'forbidden', message: checked.refused });
      const call: CallOptions = { method: q.method, path: checked.path, query: checked.query, envelope: 'raw', ...(q.method !== 'GET' && q.body !== undefined && q.body !== null ? { body: q.body } : {}) };
      const r = await request(q.method === 'GET' ? read(q.siteId) : t(q.siteId), call);
      return { status: r.status, data: r.data ?? null };
    },
  };
}

export type PluginScriptsService = ReturnType<typeof pluginScriptsService>;
