/**
 * The session of every CMS site, kept in step with the Host: loaded with `auth.sessions`, then
 * each `auth.session` event (and each answer of an auth call) replaces that site's entry.
 * Store sites have no session here (theirs is in stores.svelte.ts).
 *
 *   sessions.state(siteId)               'signed_in' | 'signed_out' | 'needs_2fa' | 'expired' | null (store)
 *   sessions.me(siteId)                  the account as /me last described it, or null
 *   sessions.blockedReason(siteId, area) why this area is closed, or null when it may be opened
 */
import {
  areaBlockedReason,
  type CmsArea,
  type Me,
  type SessionInfo,
  type SessionState,
  type Site,
} from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { HostMirror } from './host-mirror.svelte';
import { sites } from './sites.svelte';

/** A message for the next sign-in form of a site (why the code step ended, a password was reset…). */
export interface SignInNotice {
  tone: 'info' | 'success' | 'warning';
  text: string;
}

class SessionsState extends HostMirror<SessionInfo> {
  /** Per site: a notice the sign-in form shows once. */
  notices = $state<Record<string, SignInNotice>>({});
  /** Per site: the username last typed in any of its sign-in forms (memory only; never a password). */
  usernames = $state<Record<string, string>>({});

  protected fetch() {
    return invoke('auth.sessions');
  }

  protected keyOf(info: SessionInfo) {
    return info.siteId;
  }

  protected follow() {
    return [on('auth.session', (info) => this.take(info))];
  }

  /** The session of a site; for a CMS site the Host has not described yet, what a new site starts with. */
  info(siteId: string | null | undefined): SessionInfo | null {
    if (!siteId) return null;
    const known = this.bySite[siteId];
    if (known) return known;
    const site = sites.byId(siteId);
    if (!site || site.kind !== 'cms') return null;
    return fallback(site);
  }

  state(siteId: string | null | undefined): SessionState | null {
    return this.info(siteId)?.state ?? null;
  }

  /** The account as /me described it (kept across an expiry for the info panel; check `state` too). */
  me(siteId: string | null | undefined): Me | null {
    return this.info(siteId)?.me ?? null;
  }

  /** Signed in and /me has been read: the areas can go by the account's permissions. */
  ready(siteId: string | null | undefined): boolean {
    const info = this.info(siteId);
    return info?.state === 'signed_in' && info.me !== null;
  }

  /** Why `area` cannot be opened on this site right now, or null when it can. */
  blockedReason(siteId: string, area: CmsArea): string | null {
    const info = this.info(siteId);
    if (!info) return 'This site has no such area.';
    if (info.state !== 'signed_in') return 'Sign in to open this area.';
    if (!info.me) {
      return info.via === 'apikey' ? 'Connect with the API key to open this area.' : 'Refresh the account details to open this area.';
    }
    return areaBlockedReason(info.me, area);
  }

  /** Forgets sessions of sites that are gone. */
  override prune(siteIds: readonly string[]): void {
    super.prune(siteIds);
    const known = new Set(siteIds);
    for (const id of Object.keys(this.notices)) if (!known.has(id)) delete this.notices[id];
    for (const id of Object.keys(this.usernames)) if (!known.has(id)) delete this.usernames[id];
  }

  notify(siteId: string, notice: SignInNotice): void {
    this.notices[siteId] = notice;
  }

  /** Returns and forgets the site's pending notice. */
  takeNotice(siteId: string): SignInNotice | null {
    const notice = this.notices[siteId] ?? null;
    if (notice) delete this.notices[siteId];
    return notice;
  }

  rememberUsername(siteId: string, username: string): void {
    this.usernames[siteId] = username;
  }

  /** What to put in a username field: what was typed last, else the account of an ended session. */
  usernameFor(siteId: string): string {
    return this.usernames[siteId] ?? this.info(siteId)?.username ?? '';
  }
}

/** What the Host says for a CMS site it has no record for (see CmsSession.info). */
function fallback(site: Site): SessionInfo {
  const base = { siteId: site.id, me: null, meAt: null, username: null };
  if (site.authMode === 'apikey' && site.hasApiKey) return { ...base, state: 'signed_in', via: 'apikey' };
  return { ...base, state: 'signed_out', via: null };
}

export const sessions = new SessionsState();

/** The account's display name: full name, else username. */
export function displayName(me: Pick<Me, 'fullname' | 'username'>): string {
  return me.fullname.trim() || me.username;
}

/** A short phrase for the rail and the status bar: "admin · signed in", "Session ended"… */
export function sessionText(info: SessionInfo | null): string | null {
  if (!info) return null;
  const who = info.me?.username ?? info.username;
  switch (info.state) {
    case 'signed_in':
      if (info.via === 'apikey' && !info.me) return 'API key · not connected yet';
      return who ? `${who} · signed in` : 'Signed in';
    case 'needs_2fa':
      return who ? `${who} · waiting for the code` : 'Waiting for the code';
    case 'expired':
      return 'Session ended';
    case 'signed_out':
      return 'Signed out';
  }
}
