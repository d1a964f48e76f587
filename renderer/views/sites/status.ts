/**
 * One status per site for the rail's dot, the pane header and the status bar: the connection test
 * when it is running or failed, otherwise (CMS sites) the session: signed in green, session ended
 * amber, signed out grey; stores keep the connection test alone.
 */
import type { Site } from '../../../electron/contract/index';
import type { DotState } from '../../components/StatusDot.svelte';
import { sites, HEALTH_LABEL } from './sites.svelte';
import { sessions, sessionText } from '../auth/sessions.svelte';

export interface SiteStatus {
  dot: DotState;
  /** What the dot means, in words ("admin · signed in, Reachable"). */
  label: string;
  /** The session phrase alone, for CMS sites. */
  session: string | null;
  /** The connection test phrase alone ("Reachable", "Not checked"…). */
  connection: string;
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
  const label = session ? (health === 'unchecked' ? session : `${session}, ${connection}`) : connection;
  return { dot, label, session, connection };
}
