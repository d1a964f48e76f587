/** The store's inventory and order routes (document 3, "Store"), answers checked at this boundary. */
import * as v from 'valibot';
import type { Order } from '../../contract/store';
import type { Transport } from '../transport';
import { parseAnswer } from '../parse';

const Id = v.pipe(v.number(), v.integer());

const InventorySchema = v.record(v.string(), Id);

const OrderSchema = v.object({
  id: Id,
  petId: Id,
  quantity: Id,
  shipDate: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  complete: v.optional(v.nullable(v.boolean())),
});

const toOrder = (o: v.InferOutput<typeof OrderSchema>): Order => ({
  id: o.id,
  petId: o.petId,
  quantity: o.quantity,
  shipDate: o.shipDate ?? null,
  status: o.status ?? null,
  complete: o.complete ?? false,
});

export interface OrderBody {
  petId: number;
  quantity: number;
  shipDate?: string;
  status?: string;
  complete?: boolean;
}

export const storeOrders = {
  /** Open to everyone; the credential goes along anyway so the budget headers describe this site's key. */
  async inventory(t: Transport): Promise<Record<string, number>> {
    const r = await t.call({ path: '/store/inventory', envelope: 'raw' });
    return parseAnswer(InventorySchema, r.data, t, 'an inventory');
  },

  async place(t: Transport, body: OrderBody): Promise<Order> {
    const r = await t.call({ method: 'POST', path: '/store/order', body, envelope: 'raw' });
    return toOrder(parseAnswer(OrderSchema, r.data, t, 'the placed order'));
  },

  async get(t: Transport, id: number): Promise<Order> {
    const r = await t.call({ path: `/store/order/${id}`, envelope: 'raw' });
    return toOrder(parseAnswer(OrderSchema, r.data, t, 'an order'));
  },

  async remove(t: Transport, id: number): Promise<void> {
    await t.call({ method: 'DELETE', path: `/store/order/${id}`, envelope: 'raw' });
  },
};
