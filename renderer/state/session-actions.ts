/** Session actions shared by the account card and the command palette (each ends in a toast or throws). */
import type { Site } from '../../electron/contract/index';
import { invoke } from '../lib/client';
import { toasts } from '../lib/app.svelte';
import { sessions } from './sessions.svelte';

/** Signs out (the Host revokes the refresh token) and says so. */
export async function signOut(site: Site): Promise<void> {
  try {
    const { revoked, ...info } = await invoke('auth.signOut', { siteId: site.id });
    sessions.take(info);
    if (revoked) toasts.success(`Signed out of ${site.name}`);
    else toasts.info(`Signed out of ${site.name} here. The site could not be reached to end the session there; it will run out on its own.`);
  } catch (err) {
    toasts.error(err, `Could not sign out of ${site.name}`);
  }
}
