/**
 * One status per site for the rail's dot, the pane header and the status bar: the connection test
 * when it is running or failed, otherwise the sign-in: signed in green, session ended (or a key
 * refused) amber, signed out grey. A push under way (busy) or a site that stopped answering
 * (offline, red) comes first, until a later connection test answers.
 */
import type { Site, StoreSessionInfo } from '../../electron/contract/index';
import type { DotState } from '../components/StatusDot.svelte';
import { sites, HEALTH_LABEL } from './sites.svelte';
import { sessions, sessionText } from './sessions.svelte';
import { sync } from './sync.svelte';
import { storeSessions } from './stores.svelte';

export interface SiteStatus {
  dot: DotState;
  /** What the dot means, in words ("admin · signed in, Reachable"). */
  label: string;
  /** The sign-in phrase alone ("admin · signed in", "API key", "Session ended"…). */
  session: string | null;
  /** The connection test phrase alone ("Reachable", "Not checked"…). */
  connection: string;
  /** The site did not answer the Host lately (and no connection test has answered since). */
  offline: boolean;
}

/** A store's sign-in in a few words. */
export function storeSessionText(info: StoreSessionInfo): string {
  switch (info.state) {
    case 'signed_in':
      return info.via === 'apikey' ? 'API key' : info.username ? `${info.username} · signed in` : 'Signed in';
    case 'expired':
      return info.via === 'apikey' ? 'API key refused' : 'Session ended';
    case 'signed_out':
      return 'Signed out';
  }
}

export function siteStatus(site: Site): SiteStatus {
  const health = sites.health(site.id);
  const connection = HEALTH_LABEL[health];
  let session: string | null;
  let signedIn: DotState;
  if (site.kind === 'cms') {
    const info = sessions.info(site.id);
    session = sessionText(info);
    if (!info) signedIn = health === 'reachable' ? 'ok' : 'neutral';
    else if (info.state === 'signed_in') signedIn = info.via === 'apikey' && !info.me ? 'neutral' : 'ok';
    else if (info.state === 'expired' || info.state === 'needs_2fa') signedIn = 'warning';
    else signedIn = 'neutral';
  } else {
    const info = storeSessions.info(site);
    session = storeSessionText(info);
    // a key is known good once the store has answered with it: a budget came back, or the connection test
    const answered = health === 'reachable' || storeSessions.budgets[site.id] !== undefined;
    if (info.state === 'signed_in') signedIn = info.via === 'apikey' && !answered ? 'neutral' : 'ok';
    else signedIn = info.state === 'expired' ? 'warning' : 'neutral';
  }
  let dot: DotState = health === 'checking' ? 'busy' : health === 'failed' ? 'error' : signedIn;
  let label = session ? (health === 'unchecked' ? session : `${session}, ${connection}`) : connection;
  const test = sites.tests[site.id];
  const pushedAt = Date.parse(sync.status(site.id)?.lastPushAt ?? '');
  const offline = sync.offline(site.id) && !(test?.state === 'done' && test.report.ok && test.at > pushedAt);
  if (sync.syncing(site.id)) {
    dot = 'busy';
    label += ', syncing';
  } else if (offline) {
    dot = 'error';
    label += ', offline';
  }
  return { dot, label, session, connection, offline };
}
