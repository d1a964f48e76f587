/**
 * The store sandbox's inventory and orders over real HTTP on loopback, in both flavours. `spec`
 * (document 3, "Store"): the open inventory of pets per pet status, placing orders with their
 * 400/422 split, and the order id rules (GET takes 1 to 10, DELETE any positive whole number).
 * `real` (the Swagger Petstore v3): the inventory adds up ORDER quantities per ORDER status, an
 * order is stored as sent (without id it is order 0, replacing the previous order 0), any long is
 * looked up, a delete answers 200 with nothing whether or not the order was there, and an order
 * without status breaks the inventory.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { StoreClient, type Reply } from '../sandbox/store/test-client';
import { flavors } from '../support/flavors';

function expectError(r: Reply, status: number): Record<string, any> {
  expect(r.status, r.text).toBe(status);
  expect(r.body).toMatchObject({ code: status, type: expect.any(String), message: expect.any(String) });
  return r.body;
}

describe.each(flavors)('%s flavour', (flavor) => {
  let sb: StoreSandbox;
  let api: StoreClient;

  beforeAll(async () => {
    sb = await startStoreSandbox({ flavor });
    api = new StoreClient(sb);
  });
  afterAll(() => sb.close());

  test('both: the demo orders 1 to 10 by id; an order placed with an id is there afterwards', async () => {
    expect((await api.get('/store/order/1')).body).toMatchObject({ id: 1, petId: 13, quantity: 1, status: 'placed', complete: false });
    expect((await api.get('/store/order/10')).body).toMatchObject({ id: 10, petId: 20, status: 'delivered', complete: true });
    const placed = await api.post('/store/order', { id: 5_000_001, petId: 1, quantity: 1, status: 'placed', complete: false });
    expect(placed.status, placed.text).toBe(200);
    expect(placed.body).toMatchObject({ petId: 1, quantity: 1, status: 'placed', complete: false });
    // spec numbers it itself (the id sent is ignored); real keeps the one sent
    expect(placed.body.id).toEqual(flavor === 'real' ? 5_000_001 : expect.any(Number));
    expect((await api.delete(`/store/order/${placed.body.id}`)).status).toBe(200);
  });

  if (flavor === 'spec') {
    const inventory = async () => (await api.as({ none: true }).get('/store/inventory')).body as Record<string, number>;

    describe('inventory (GET /store/inventory)', () => {
      test('open to everyone: a map of status to integer count, every status present', async () => {
        const r = await api.as({ none: true }).get('/store/inventory');
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ available: 12, pending: 4, sold: 4 });
        expect((await api.get('/store/inventory')).body).toEqual(r.body);
      });

      test('a key that is not accepted is still a 401 (the client learns its key is gone)', async () => {
        expectError(await api.as({ apiKey: 'sk_free_revoked' }).get('/store/inventory'), 401);
      });

      test('follows the pets: a new pet counts at once', async () => {
        const before = await inventory();
        await api.post('/pet', { name: 'Counted', photoUrls: [], status: 'sold' });
        expect(await inventory()).toEqual({ ...before, sold: before.sold! + 1 });
      });
    });

    describe('place (POST /store/order)', () => {
      test('the order with its id (after the demo data’s 1 to 10); the pet becomes pending', async () => {
        const before = await inventory();
        const r = await api.post('/store/order', { petId: 3, quantity: 2, shipDate: '2030-05-01T10:00:00+02:00' });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({ id: expect.any(Number), petId: 3, quantity: 2, shipDate: '2030-05-01T08:00:00.000Z', status: 'placed', complete: false });
        expect(r.body.id).toBeGreaterThanOrEqual(11);
        expect((await api.get('/pet/3')).body.status).toBe('pending');
        expect(await inventory()).toEqual({ ...before, available: before.available! - 1, pending: before.pending! + 1 });
        // an id sent along is not used: the store assigns it
        const second = await api.post('/store/order', { id: 2, petId: 3, quantity: 1, status: 'approved', complete: false });
        expect(second.body).toMatchObject({ id: r.body.id + 1, status: 'approved' });
      });

      test('400 for a body that is not an order (or a field of the wrong type)', async () => {
        expectError(await api.post('/store/order', '[]'), 400);
        expectError(await api.post('/store/order', 'oops'), 400);
        const typed = expectError(await api.post('/store/order', { petId: '3', quantity: 1.5, complete: 'yes' }), 400);
        expect(typed.errors.map((e: { field: string }) => e.field)).toEqual(['petId', 'quantity', 'complete']);
      });

      test('422 for an order that reads but breaks a rule', async () => {
        const missing = expectError(await api.post('/store/order', {}), 422);
        expect(missing.errors.map((e: { field: string }) => e.field)).toEqual(['petId', 'quantity']);
        expectError(await api.post('/store/order', { petId: 1, quantity: 0 }), 422);
        expectError(await api.post('/store/order', { petId: 1, quantity: 1, status: 'lost' }), 422);
        expectError(await api.post('/store/order', { petId: 1, quantity: 1, shipDate: 'next tuesday' }), 422);
        expect(expectError(await api.post('/store/order', { petId: 4242, quantity: 1 }), 422).errors[0]).toEqual({ field: 'petId', message: 'There is no pet with id 4242.' });
        expect(expectError(await api.post('/store/order', { petId: 17, quantity: 1 }), 422).message).toContain('sold already');
      });

      test('401 without a session or key', async () => {
        expectError(await api.as({ none: true }).post('/store/order', { petId: 1, quantity: 1 }), 401);
      });
    });

    describe('look up (GET /store/order/{orderId})', () => {
      test('ids 1 to 10 of the demo data', async () => {
        for (let id = 1; id <= 10; id++) {
          const r = await api.get(`/store/order/${id}`);
          expect(r.status, `order ${id}`).toBe(200);
          expect(r.body).toMatchObject({ id, petId: expect.any(Number), quantity: expect.any(Number), status: expect.stringMatching(/^(placed|approved|delivered)$/), complete: expect.any(Boolean) });
        }
        expect((await api.get('/store/order/1')).body).toMatchObject({ petId: 13, status: 'placed' });
      });

      test('larger, smaller or non-integer ids are 400 with the rule in the message', async () => {
        const placed = (await api.post('/store/order', { petId: 5, quantity: 1 })).body;
        expect(expectError(await api.get(`/store/order/${placed.id}`), 400).message).toBe(`Invalid ID supplied: orders can be looked up by ids 1 to 10; ${placed.id} is out of range.`);
        expect(expectError(await api.get('/store/order/0'), 400).message).toContain('1 to 10');
        expectError(await api.get('/store/order/-1'), 400);
        expect(expectError(await api.get('/store/order/abc'), 400).message).toContain('whole number');
        expectError(await api.get('/store/order/2.5'), 400);
      });

      test('404 for a valid id with no order; 401 anonymous', async () => {
        await api.delete('/store/order/9');
        expectError(await api.get('/store/order/9'), 404);
        expectError(await api.as({ none: true }).get('/store/order/1'), 401);
      });
    });

    describe('delete (DELETE /store/order/{orderId})', () => {
      test('any positive id: a placed order is deleted and its pet is available again', async () => {
        const placed = (await api.post('/store/order', { petId: 8, quantity: 1 })).body;
        expect((await api.get('/pet/8')).body.status).toBe('pending');
        const r = await api.delete(`/store/order/${placed.id}`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ code: 200, type: 'ok', message: `Order ${placed.id} deleted.` });
        expect((await api.get('/pet/8')).body.status).toBe('available');
        expectError(await api.delete(`/store/order/${placed.id}`), 404);
      });

      test('a demo order: gone afterwards; a pet with another open order stays pending', async () => {
        const second = (await api.post('/store/order', { petId: 13, quantity: 1 })).body; // pet 13 has demo order 1
        expect((await api.delete('/store/order/1')).status).toBe(200);
        expectError(await api.get('/store/order/1'), 404);
        expect((await api.get('/pet/13')).body.status).toBe('pending');
        await api.delete(`/store/order/${second.id}`);
        expect((await api.get('/pet/13')).body.status).toBe('available');
      });

      test('negative, zero or non-integer ids are 400 with the rule; an unknown positive id 404', async () => {
        expect(expectError(await api.delete('/store/order/-5'), 400).message).toContain('positive whole number');
        expectError(await api.delete('/store/order/0'), 400);
        expectError(await api.delete('/store/order/x'), 400);
        expectError(await api.delete('/store/order/2.5'), 400);
        expectError(await api.delete('/store/order/123456'), 404);
        expectError(await api.as({ none: true }).delete('/store/order/2'), 401);
      });
    });
  }

  if (flavor === 'real') {
    const inventory = async () => (await api.as({ none: true }).get('/store/inventory')).body as Record<string, number>;

    describe('inventory (GET /store/inventory): order quantities per order status', () => {
      test('the demo orders counted by quantity; pets do not count', async () => {
        const r = await api.as({ none: true }).get('/store/inventory');
        expect(r.status).toBe(200);
        expect(r.type).toBe('application/json');
        expect(r.body).toEqual({ placed: 2, approved: 3, delivered: 8 });
        await api.post('/pet', { id: 800001, name: 'Not counted', photoUrls: [], status: 'sold' });
        expect(await inventory()).toEqual({ placed: 2, approved: 3, delivered: 8 });
      });

      test('an order adds its quantity under its status, whatever the status; deleting it takes it away', async () => {
        await api.post('/store/order', { id: 800002, petId: 3, quantity: 5, status: 'approved' });
        await api.post('/store/order', { id: 800003, petId: 3, quantity: 2, status: 'returned' });
        expect(await inventory()).toEqual({ placed: 2, approved: 8, delivered: 8, returned: 2 });
        await api.delete('/store/order/800002');
        await api.delete('/store/order/800003');
        expect(await inventory()).toEqual({ placed: 2, approved: 3, delivered: 8 });
      });

      test('an order without status makes a null map key Jackson refuses: the inventory is a 500 until it is gone', async () => {
        await api.post('/store/order', { id: 800004, petId: 1, quantity: 1 });
        const broken = await api.get('/store/inventory');
        expect(broken.status).toBe(500);
        expect(broken.body).toEqual({ code: 500, message: expect.stringMatching(/^There was an error processing your request\. It has been logged \(ID: [0-9a-f]{16}\)$/) });
        await api.delete('/store/order/800004');
        expect((await api.get('/store/inventory')).status).toBe(200);
      });
    });

    describe('place (POST /store/order): stored as sent', () => {
      test('nothing is checked or changed: any pet id, any quantity, the pet keeps its status; the date comes back in Jackson\'s form', async () => {
        const r = await api.post('/store/order', { id: 800005, petId: 424242, quantity: 0, shipDate: '2030-05-01T10:00:00+02:00', status: 'placed', complete: 'true' });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({ id: 800005, petId: 424242, quantity: 0, shipDate: '2030-05-01T08:00:00.000+00:00', status: 'placed', complete: true });
        expect((await api.get('/store/order/800005')).body).toEqual(r.body);
        await api.post('/store/order', { id: 800006, petId: 3, quantity: 1, status: 'placed' });
        expect((await api.get('/pet/3')).body.status).toBe('available');
      });

      test('without id an order is order 0 (a primitive long), and the next one without id replaces it', async () => {
        const first = await api.post('/store/order', { petId: 1, quantity: 1, status: 'placed' });
        expect(first.body).toEqual({ id: 0, petId: 1, quantity: 1, status: 'placed', complete: false });
        const second = await api.post('/store/order', { petId: 2, quantity: 4, status: 'approved' });
        expect(second.body.id).toBe(0);
        expect((await api.get('/store/order/0')).body).toMatchObject({ id: 0, petId: 2, quantity: 4 });
        expect(sb.data.orders().filter((o) => o.id === 0)).toHaveLength(1);
        await api.delete('/store/order/0');
      });

      test('a body Jackson cannot read is inflector\'s 400; no body is Petstore\'s', async () => {
        expect((await api.post('/store/order', { petId: 1, quantity: 1, shipDate: 'next tuesday' })).body).toEqual({ code: 400, message: 'Input error: unable to convert input to io.swagger.petstore.model.Order' });
        expect((await api.post('/store/order', { petId: 'one' })).status).toBe(400);
        const none = await api.post('/store/order', '');
        expect(none.status).toBe(400);
        expect(none.text).toBe('No Order provided. Try again?');
      });
    });

    describe('look up and delete (/store/order/{orderId})', () => {
      test('any long is looked up: no 1 to 10 rule; 404 "Order not found" (text) for none; a non-number is inflector\'s 400', async () => {
        await api.post('/store/order', { id: 123456789, petId: 1, quantity: 1, status: 'placed' });
        expect((await api.get('/store/order/123456789')).body).toMatchObject({ id: 123456789 });
        for (const id of ['11', '0', '-1', '99999']) {
          const r = await api.get(`/store/order/${id}`);
          expect(r.status, id).toBe(404);
          expect(r.text).toBe('Order not found');
        }
        expect((await api.get('/store/order/abc')).body).toEqual({ code: 400, message: "Input error: couldn't convert `abc` to type `class java.lang.Long`" });
      });

      test('delete answers 200 with an empty body whether or not there was an order', async () => {
        const r = await api.delete('/store/order/123456789');
        expect(r.status).toBe(200);
        expect(r.text).toBe('');
        expect(r.headers.get('content-type')).toBeNull();
        expect((await api.get('/store/order/123456789')).status).toBe(404);
        for (const id of ['123456789', '-5', '0', '77777']) expect((await api.delete(`/store/order/${id}`)).status, id).toBe(200);
      });

      test('no authentication: anonymous calls place, read and delete orders', async () => {
        const anon = api.as({ none: true });
        expect((await anon.post('/store/order', { id: 800007, petId: 1, quantity: 1, status: 'placed' })).status).toBe(200);
        expect((await anon.get('/store/order/800007')).status).toBe(200);
        expect((await anon.delete('/store/order/800007')).status).toBe(200);
      });
    });
  }
});
