/**
 * "Open this account on that site", asked from outside the site's pane (the People view): the
 * site's tab opens on its Users area, which takes the request and opens the account.
 */
import { areaSelection } from './area-selection.svelte';
import { workspace } from './workspace.svelte';

class AccountLinks {
  /** Site id → the username its Users area should open. */
  pending = $state<Record<string, string>>({});

  open(siteId: string, username: string): void {
    this.pending[siteId] = username;
    workspace.open(siteId);
    areaSelection.select(siteId, 'users');
  }

  /** The username asked for on this site, once: the area that opens it takes it. */
  take(siteId: string): string | null {
    const username = this.pending[siteId];
    if (username === undefined) return null;
    delete this.pending[siteId];
    return username;
  }
}

export const accountLinks = new AccountLinks();
