/**
 * What each store's areas keep while the pane shows something else: the pet filters and the
 * orders seen in this session (a store that keeps to document 3 looks up only ids 1 to 10, so a
 * placed order is kept as the placing answered it). The store's sign-in and budget are app-wide
 * state (state/stores.svelte.ts).
 */
import type { Order, PetStatus } from '../../../electron/contract/index';

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

class StoreViewMemory {
  filters = $state<Record<string, PetFilters>>({});
  orders = $state<Record<string, SeenOrder[]>>({});

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

export const storeMemory = new StoreViewMemory();

export const PLAN_LABEL: Record<string, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

export function planName(plan: string | null): string | null {
  if (!plan) return null;
  return PLAN_LABEL[plan] ?? plan.charAt(0).toUpperCase() + plan.slice(1);
}

let uploads = 0;
export const newUploadId = () => `pet-${Date.now().toString(36)}-${(uploads++).toString(36)}`;
