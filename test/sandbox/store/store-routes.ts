/**
 * Inventory and orders (document 3, "Store"). The inventory is open to everyone; orders need a
 * caller. The id rules are the document's: GET takes ids 1 to 10, DELETE any positive whole
 * number (validate.ts says which rule was broken). Placed orders are numbered from 11 on, after the
 * demo data's ten.
 * Pets follow their orders ("pending: has a pending order"; the document shows no transitions, so
 * chosen here): placing an order makes an available pet pending (sold when placed as delivered);
 * a sold pet cannot be ordered (422); deleting a pet's last open order makes a pending pet
 * available again.
 */
import { json, readJson, type Router } from '../http';
import { fail, fieldsFail, okMessage } from './answers';
import { callerOf, needCaller } from './auth';
import type { SpecStoreContext } from './context';
import { PET_STATUSES } from './model';
import { orderIdParam, readOrder } from './validate';

export function registerStoreRoutes(api: Router, ctx: SpecStoreContext): void {
  const { data } = ctx;

  api.on('GET', '/store/inventory', (_req, res) => {
    const counts: Record<string, number> = Object.fromEntries(PET_STATUSES.map((s) => [s, 0]));
    for (const p of data.pets()) counts[p.status] = (counts[p.status] ?? 0) + 1;
    json(res, 200, counts);
  });

  api.on('POST', '/store/order', async (req, res) => {
    needCaller(callerOf(req));
    const input = readOrder(await readJson(req));
    const pet = data.pet(input.petId);
    if (!pet) throw fieldsFail(422, 'Validation exception', [{ field: 'petId', message: `There is no pet with id ${input.petId}.` }]);
    if (pet.status === 'sold') throw fieldsFail(422, 'Validation exception', [{ field: 'petId', message: `${pet.name} (pet ${pet.id}) is sold already.` }]);
    const order = data.addOrder(input);
    if (input.status === 'delivered') data.putPet({ ...pet, status: 'sold' });
    else if (pet.status === 'available') data.putPet({ ...pet, status: 'pending' });
    json(res, 200, order);
  });

  api.on('GET', '/store/order/{orderId}', (req, res, p) => {
    needCaller(callerOf(req));
    const id = orderIdParam(p.orderId!, 'get');
    const order = data.order(id);
    if (!order) throw fail(404, `Order not found: there is no order ${id}.`);
    json(res, 200, order);
  });

  api.on('DELETE', '/store/order/{orderId}', (req, res, p) => {
    needCaller(callerOf(req));
    const id = orderIdParam(p.orderId!, 'delete');
    const order = data.removeOrder(id);
    if (!order) throw fail(404, `Order not found: there is no order ${id}.`);
    const pet = data.pet(order.petId);
    const open = data.orders().some((o) => o.petId === order.petId && o.status !== 'delivered');
    if (pet?.status === 'pending' && !open) data.putPet({ ...pet, status: 'available' });
    okMessage(res, `Order ${id} deleted.`);
  });
}
