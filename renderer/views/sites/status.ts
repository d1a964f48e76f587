/**
 * One status per site for the rail's dot, the pane header and the status bar: the connection test
 * when it is running or failed, otherwise (CMS sites) the session: signed in green, session ended
 * amber, signed out grey; stores keep the connection test alone. A push under way (busy) or a site
 * that stopped answering (offline, red) comes first, until a later connection test answers.
 */
import type { Site } from '../../../electron/contract/index';
import type { DotState } from '../../components/StatusDot.svelte';
import { sites, HEALTH_LABEL } from './sites.svelte';
import { sessions, sessionText } from '../auth/sessions.svelte';
import { sync } from '../sync/sync.svelte';

export interface SiteStatus {
  dot: DotState;
  /** What the dot means, in words ("admin · signed in, Reachable"). */
  label: string;
  /** The session phrase alone, for CMS sites. */
  session: string | null;
  /** The connection test phrase alone ("Reachable", "Not checked"…). */
  connection: string;
  /** The site did not answer the Host lately (and no connection test has answered since). */
  offline: boolean;
}

export function siteStatus(site: Site): SiteStatus {
  const health = sites.health(site.id);
  const connection = HEALTH_LABEL[health];
  const info = site.kind === 'cms' ? sessions.info(site.id) : null;
  const session = sessionText(info);
  let dot: DotState;
  if (health === 'checking') dot = 'busy';
  else if (health === 'failed') dot = 'error';
  else if (info) {
    if (info.state === 'signed_in') dot = info.via === 'apikey' && !info.me ? 'neutral' : 'ok';
    else if (info.state === 'expired' || info.state === 'needs_2fa') dot = 'warning';
    else dot = 'neutral';
  } else dot = health === 'reachable' ? 'ok' : 'neutral';
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
