/**
 * What the renderer knows of every store site, kept in step with the Host: its sign-in
 * (`store.sessions`, then each `store.session` event or answer), the rate-limit budget the store
 * last reported (`store.budget` events) and image-upload progress (`store.progress`). Started the
 * first time a store view asks (`stores.ensure()`), and loaded again when the Host comes back.
 *
 * Also what each store's areas keep while the pane shows something else: the pet filters and the
 * orders seen in this session (a store that keeps to document 3 looks up only ids 1 to 10, so a
 * placed order is kept as the placing answered it).
 */
import type { Order, PetStatus, RateBudget, Site, StoreSessionInfo } from '../../../electron/contract/index';
import { invoke, on } from '../../lib/client';
import { AppError } from '../../lib/errors';

export interface PetFilters {
  statuses: PetStatus[];
  tags: string[];
}

export interface SeenOrder {
  order: Order;
  /** the pet's name when this session knew it */
  petName: string | null;
  how: 'placed' | 'looked up';
  deleted: boolean;
}

class StoreSites {
  /** Site id → sign-in as the Host last described it. */
  bySite = $state<Record<string, StoreSessionInfo>>({});
  /** Site id → the budget the store last reported. */
  budgets = $state<Record<string, RateBudget>>({});
  loadError = $state<AppError | null>(null);
  filters = $state<Record<string, PetFilters>>({});
  orders = $state<Record<string, SeenOrder[]>>({});

  #started = false;
  #seq = new Map<string, number>();
  #progress = new Map<string, (sent: number, total: number) => void>();

  /** Subscribes and loads once; later calls do nothing. */
  ensure(): void {
    if (this.#started) return;
    this.#started = true;
    on('store.session', (info) => this.apply(info));
    on('store.budget', (b) => (this.budgets[b.siteId] = b));
    on('store.progress', ({ uploadId, sent, total }) => this.#progress.get(uploadId)?.(sent, total));
    on('host.status', ({ state }) => state === 'ready' && void this.load());
    void this.load();
  }

  async load(): Promise<void> {
    const started = new Map(this.#seq);
    try {
      const list = await invoke('store.sessions');
      const next: Record<string, StoreSessionInfo> = {};
      for (const info of list) {
        // an event that arrived while this was on its way is newer than the list
        const newer = (this.#seq.get(info.siteId) ?? 0) !== (started.get(info.siteId) ?? 0);
        next[info.siteId] = newer ? (this.bySite[info.siteId] ?? info) : info;
      }
      this.bySite = next;
      this.loadError = null;
    } catch (err) {
      this.loadError = AppError.from(err);
    }
  }

  apply(info: StoreSessionInfo): void {
    this.#seq.set(info.siteId, (this.#seq.get(info.siteId) ?? 0) + 1);
    this.bySite[info.siteId] = info;
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

  petFilters(siteId: string): PetFilters {
    // read back through the state: the assignment's own value would be the plain object
    if (!this.filters[siteId]) this.filters[siteId] = { statuses: ['available', 'pending', 'sold'], tags: [] };
    return this.filters[siteId];
  }

  seenOrders(siteId: string): SeenOrder[] {
    return this.orders[siteId] ?? [];
  }

  rememberOrder(siteId: string, seen: SeenOrder): void {
    const rest = this.seenOrders(siteId).filter((o) => o.order.id !== seen.order.id);
    this.orders[siteId] = [seen, ...rest].slice(0, 20);
  }

  orderDeleted(siteId: string, orderId: number): void {
    for (const o of this.seenOrders(siteId)) if (o.order.id === orderId) o.deleted = true;
  }
}

export const stores = new StoreSites();

/** Pets and orders need a signed-in store; the inventory is open to everyone; Users holds the login. */
export function storeAreaBlocked(site: Site, areaId: string): string | null {
  if (areaId === 'inventory' || areaId === 'users') return null;
  const info = stores.info(site);
  if (info.state === 'signed_in') return null;
  if (site.authMode === 'apikey') {
    return info.state === 'expired' ? `${site.name} refused its API key. Check the key in the site's settings.` : 'Add the store’s API key in the site’s settings to open this area.';
  }
  return info.state === 'expired' ? 'The login session ended. Log in again to open this area.' : 'Log in to open this area.';
}

/** The line above a store's areas, or null when all of them can be opened. */
export function storeAreasNote(site: Site): string | null {
  if (stores.info(site).state === 'signed_in') return null;
  return site.authMode === 'apikey' ? 'Pets and Orders open once the store takes the API key.' : 'Pets and Orders open once you are logged in.';
}

export const PLAN_LABEL: Record<string, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

export function planName(plan: string | null): string | null {
  if (!plan) return null;
  return PLAN_LABEL[plan] ?? plan.charAt(0).toUpperCase() + plan.slice(1);
}

let uploads = 0;
export const newUploadId = () => `pet-${Date.now().toString(36)}-${(uploads++).toString(36)}`;
