/**
 * The sessions of all CMS sites, created on first use and dropped with their site, and the pacers
 * of their rate limits: one per site and account (the site's budget is per account), shared by
 * every request to that site — the person's, the mirror's, sync's.
 */
import type { SessionInfo, Site } from '../contract';
import { AppError } from '../base/app-error';
import { classifyFetchError, send, type FetchLike } from '../api/http';
import { Pacer } from '../api/pacer';
import type { SessionsRepo } from '../db/repos/sessions';
import type { SitesRepo } from '../db/repos/sites';
import type { SecretStore } from '../secrets/secret-store';
import type { ApiKeys } from './api-keys';
import { CmsSession } from './cms-session';
import type { SiteRows } from './site-rows';

export interface SessionsDeps {
  sites: SitesRepo;
  /** The Host's site rows and API keys (core/host.ts forgets them at every edit and removal). */
  rows: SiteRows;
  apiKeys: ApiKeys;
  repo: SessionsRepo;
  secrets: SecretStore;
  fetch: FetchLike;
  emit: (info: SessionInfo) => void;
  now?: () => number;
  /** Waits between retries of idempotent calls (the transport's default when absent). */
  retryDelaysMs?: number[];
  /** Told of every request to a site: answered (online) or not (offline). See sync/connectivity.ts. */
  reach?: { reachable(siteId: string): void; unreachable(siteId: string): void };
  /** Background requests in flight at most per site (the pacer's ceiling; default 8). */
  maxBackground?: number;
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
  /** siteId → account → pacer. The account is the one signed in (an API key's owner once known). */
  const pacers = new Map<string, Map<string, Pacer>>();

  function pacerFor(siteId: string, account: string | null): Pacer {
    let byAccount = pacers.get(siteId);
    if (!byAccount) pacers.set(siteId, (byAccount = new Map()));
    const key = account ?? '';
    let p = byAccount.get(key);
    if (!p) byAccount.set(key, (p = new Pacer(deps.maxBackground ? { maxBackground: deps.maxBackground } : {})));
    return p;
  }

  const { rows, apiKeys } = deps;

  function get(siteId: string): CmsSession {
    rows.ofKind(siteId, 'cms', 'CMS sign-in does not apply to it.');
    let s = live.get(siteId);
    if (!s) {
      // the getter goes through the row cache, which an edit empties, so an edited address or key is used at once
      const fetchImpl = deps.reach ? reporting(siteId, deps.fetch, deps.reach) : deps.fetch;
      const session: CmsSession = new CmsSession({
        ...deps,
        fetch: fetchImpl,
        site: () => rows.get(siteId),
        apiKeys,
        pacer: () => pacerFor(siteId, session.info().username),
        ...(deps.now ? { now: deps.now } : {}),
      });
      live.set(siteId, (s = session));
    }
    return s;
  }

  return {
    get,
    /** Asks the site's public GET /ping once (the offline probe); its answer reaches `reach`. */
    async ping(siteId: string): Promise<void> {
      const session = get(siteId);
      await send(session.fetch, { url: `${rows.get(siteId).baseUrl}/ping`, timeoutMs: 5000 });
    },
    all: (): SessionInfo[] => deps.sites.list().filter((s) => s.kind === 'cms').map((s) => get(s.id).info()),
    /** After an edit: a new address, kind or sign-in mode means the old tokens belong to something else. */
    async siteChanged(before: Site, after: Site): Promise<void> {
      if (before.baseUrl !== after.baseUrl || before.hasApiKey !== after.hasApiKey) pacers.delete(after.id); // another server's (or key's) budget
      if (before.baseUrl === after.baseUrl && before.kind === after.kind && before.authMode === after.authMode && before.hasApiKey === after.hasApiKey) return;
      const s = live.get(after.id) ?? (before.kind === 'cms' ? get(after.id) : undefined);
      if (before.baseUrl !== after.baseUrl || before.kind !== after.kind || before.authMode !== after.authMode) await s?.reset();
      if (after.kind !== 'cms') live.delete(after.id);
      else deps.emit(get(after.id).info());
    },
    /** The site is being removed: its secrets go with it (by prefix), its row cascades. */
    dropped(siteId: string): void {
      live.delete(siteId);
      pacers.delete(siteId);
    },
  };
}

export type SessionManager = ReturnType<typeof sessionManager>;
