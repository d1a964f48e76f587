/**
 * The store's inventory and order routes, answers read at this boundary (read.ts). An order goes
 * out with the id Sitedesk chose, a status and `complete`: the real Petstore generates no id (an
 * order without one is order 0 and overwrites the last order 0) and counts its inventory by order
 * status (an order without one breaks the inventory). The answer's id is the store's when it gives
 * one (the document's store numbers orders itself), else the one sent.
 */
import * as v from 'valibot';
import type { Order } from '../../contract/store';
import type { Transport } from '../transport';
import { ask, readOne, Text, WholeNumber } from './read';

const InventorySchema = v.record(v.string(), WholeNumber, 'should be a map of status to count');

const OrderSchema = v.object(
  {
    id: v.optional(v.nullable(WholeNumber)),
    petId: WholeNumber,
    quantity: WholeNumber,
    shipDate: v.optional(v.nullable(Text)),
    status: v.optional(v.nullable(Text)),
    complete: v.optional(v.nullable(v.boolean('should be true or false'))),
  },
  'should be an order (an object)',
);

const toOrder = (o: v.InferOutput<typeof OrderSchema>, id: number): Order => ({
  id,
  petId: o.petId,
  quantity: o.quantity,
  shipDate: o.shipDate ?? null,
  status: o.status ?? null,
  complete: o.complete ?? false,
});

export interface OrderBody {
  id: number;
  petId: number;
  quantity: number;
  shipDate?: string;
  status: string;
  complete: boolean;
}

/** An id a store gave that the app can use again: a positive safe integer (Petstore's 0 means "none sent"). */
const givenId = (id: number | null | undefined): number | null => (typeof id === 'number' && Number.isSafeInteger(id) && id !== 0 ? id : null);

export const storeOrders = {
  /** Open to everyone; the credential goes along anyway so the budget headers describe this site's key. */
  async inventory(t: Transport): Promise<Record<string, number>> {
    const r = await ask(t, { path: '/store/inventory', envelope: 'raw' });
    return readOne(InventorySchema, r.data, t, 'an inventory', r.route);
  },

  async place(t: Transport, body: OrderBody): Promise<Order> {
    const r = await ask(t, { method: 'POST', path: '/store/order', body, envelope: 'raw' });
    const o = readOne(OrderSchema, r.data, t, 'the placed order', r.route);
    return toOrder(o, givenId(o.id) ?? body.id);
  },

  async get(t: Transport, id: number): Promise<Order> {
    const r = await ask(t, { path: `/store/order/${id}`, envelope: 'raw' });
    const o = readOne(OrderSchema, r.data, t, 'an order', r.route);
    return toOrder(o, givenId(o.id) ?? id);
  },

  /** DELETE /store/order/{id}; the answer's body (an ApiResponse, or nothing) does not matter. */
  async remove(t: Transport, id: number): Promise<void> {
    await ask(t, { method: 'DELETE', path: `/store/order/${id}`, envelope: 'text' });
  },
};
