/**
 * What the renderer knows of every store site, kept in step with the Host: its sign-in
 * (`store.sessions`, then each `store.session` event or answer), the rate-limit budget the store
 * last reported (`store.budget` events) and image-upload progress (`store.progress`).
 *
 * What each store's areas keep while the pane shows something else (pet filters, orders seen)
 * stays with the store views (views/store/store.svelte.ts).
 */
import type { RateBudget, Site, StoreSessionInfo } from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { HostMirror } from './host-mirror.svelte';

class StoreSessions extends HostMirror<StoreSessionInfo> {
  /** Site id → the budget the store last reported. */
  budgets = $state<Record<string, RateBudget>>({});

  #progress = new Map<string, (sent: number, total: number) => void>();

  protected fetch() {
    return invoke('store.sessions');
  }

  protected keyOf(info: StoreSessionInfo) {
    return info.siteId;
  }

  protected follow() {
    return [
      on('store.session', (info) => this.take(info)),
      on('store.budget', (b) => (this.budgets[b.siteId] = b)),
      on('store.progress', ({ uploadId, sent, total }) => this.#progress.get(uploadId)?.(sent, total)),
    ];
  }

  /** The site's sign-in; before the Host has said, what its settings imply (as the Host would). */
  info(site: Site): StoreSessionInfo {
    const known = this.bySite[site.id];
    if (known) return known;
    const none = { siteId: site.id, username: null, expiresAt: null, rateLimitPerHour: null };
    if (site.authMode === 'apikey' && site.hasApiKey) return { ...none, state: 'signed_in', via: 'apikey' };
    return { ...none, state: 'signed_out', via: null };
  }

  /** The store has answered and said nothing about limits, and asks no wait: there is no meter to show. */
  budgetSilent(siteId: string): boolean {
    const b = this.budgets[siteId];
    return !!b && !b.reported && !b.blockedUntil;
  }

  /** Asks the Host for the last budget (the event may have come before this view was open). */
  async loadBudget(siteId: string): Promise<void> {
    try {
      const { budget } = await invoke('store.budget', { siteId });
      if (budget && (!this.budgets[siteId] || this.budgets[siteId].updatedAt < budget.updatedAt)) this.budgets[siteId] = budget;
    } catch {
      // nothing to show yet; the next answer's event brings it
    }
  }

  /** Follows `store.progress` of one upload; returns the unsubscribe function. */
  onProgress(uploadId: string, cb: (sent: number, total: number) => void): () => void {
    this.#progress.set(uploadId, cb);
    return () => this.#progress.delete(uploadId);
  }
}

export const storeSessions = new StoreSessions();

/** Pets and orders need a signed-in store; the inventory is open to everyone; Users holds the login. */
export function storeAreaBlocked(site: Site, areaId: string): string | null {
  if (areaId === 'inventory' || areaId === 'users') return null;
  const info = storeSessions.info(site);
  if (info.state === 'signed_in') return null;
  if (site.authMode === 'apikey') {
    return info.state === 'expired' ? `${site.name} refused its API key. Check the key in the site's settings.` : 'Add the store’s API key in the site’s settings to open this area.';
  }
  return info.state === 'expired' ? 'The login session ended. Log in again to open this area.' : 'Log in to open this area.';
}

/** The line above a store's areas, or null when all of them can be opened. */
export function storeAreasNote(site: Site): string | null {
  if (storeSessions.info(site).state === 'signed_in') return null;
  return site.authMode === 'apikey' ? 'Pets and Orders open once the store takes the API key.' : 'Pets and Orders open once you are logged in.';
}
