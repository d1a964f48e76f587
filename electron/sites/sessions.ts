/** The sessions of all CMS sites, created on first use and dropped with their site. */
import type { SessionInfo, Site } from '../contract';
import { AppError } from '../core/app-error';
import { classifyFetchError, send, type FetchLike } from '../api/http';
import type { SessionsRepo } from '../db/repos/sessions';
import type { SitesRepo } from '../db/repos/sites';
import type { SecretStore } from '../secrets/store';
import { CmsSession } from './session';

export interface SessionsDeps {
  sites: SitesRepo;
  repo: SessionsRepo;
  secrets: SecretStore;
  fetch: FetchLike;
  emit: (info: SessionInfo) => void;
  now?: () => number;
  /** Told of every request to a site: answered (online) or not (offline). See sync/connectivity.ts. */
  reach?: { reachable(siteId: string): void; unreachable(siteId: string): void };
}

/**
 * fetch for one site that reports whether the site answered. A refused certificate is not "offline":
 * it does not pass by waiting, so it is left to the caller's error.
 */
function reporting(siteId: string, fetchImpl: FetchLike, reach: NonNullable<SessionsDeps['reach']>): FetchLike {
  return (input, init) =>
    fetchImpl(input, init).then(
      (res) => {
        reach.reachable(siteId);
        return res;
      },
      (err: unknown) => {
        if (classifyFetchError(err, String(input), 0).code !== 'tls') reach.unreachable(siteId);
        throw err;
      },
    );
}

export function sessionManager(deps: SessionsDeps) {
  const live = new Map<string, CmsSession>();

  const siteOf = (id: string): Site => {
    const site = deps.sites.get(id);
    if (!site) throw new AppError({ code: 'not_found', message: 'That site no longer exists.' });
    return site;
  };

  /**
   * A session's site row, read once and dropped at every edit (siteChanged) and removal: every
   * request reads it, and a query per request showed in a mirror's profile.
   */
  const rows = new Map<string, Site>();
  const rowOf = (id: string): Site => {
    let site = rows.get(id);
    if (!site) rows.set(id, (site = siteOf(id)));
    return site;
  };

  function get(siteId: string): CmsSession {
    const site = siteOf(siteId);
    if (site.kind !== 'cms') throw new AppError({ code: 'invalid_input', message: `${site.name} is a store; CMS sign-in does not apply to it.` });
    let s = live.get(siteId);
    if (!s) {
      // the getter goes through rowOf, which an edit empties, so an edited address or key is used at once
      const fetchImpl = deps.reach ? reporting(siteId, deps.fetch, deps.reach) : deps.fetch;
      s = new CmsSession({ ...deps, fetch: fetchImpl, site: () => rowOf(siteId), ...(deps.now ? { now: deps.now } : {}) });
      live.set(siteId, s);
    }
    return s;
  }

  return {
    get,
    /** Asks the site's public GET /ping once (the offline probe); its answer reaches `reach`. */
    async ping(siteId: string): Promise<void> {
      const site = siteOf(siteId);
      await send(get(siteId).fetch, { url: `${site.baseUrl}/ping`, timeoutMs: 5000 });
    },
    all: (): SessionInfo[] => deps.sites.list().filter((s) => s.kind === 'cms').map((s) => get(s.id).info()),
    /** After an edit: a new address, kind or sign-in mode means the old tokens belong to something else. */
    async siteChanged(before: Site, after: Site): Promise<void> {
      rows.delete(after.id);
      live.get(after.id)?.forgetApiKey(); // an edit may have replaced the key
      if (before.baseUrl === after.baseUrl && before.kind === after.kind && before.authMode === after.authMode && before.hasApiKey === after.hasApiKey) return;
      const s = live.get(after.id) ?? (before.kind === 'cms' ? get(after.id) : undefined);
      if (before.baseUrl !== after.baseUrl || before.kind !== after.kind || before.authMode !== after.authMode) await s?.reset();
      if (after.kind !== 'cms') live.delete(after.id);
      else deps.emit(get(after.id).info());
    },
    /** The site is being removed: its secrets go with it (by prefix), its row cascades. */
    dropped(siteId: string): void {
      live.delete(siteId);
      rows.delete(siteId);
    },
  };
}

export type SessionManager = ReturnType<typeof sessionManager>;
