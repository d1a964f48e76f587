/**
 * The store sandbox's inventory and orders (document 3, "Store"), over real HTTP on loopback:
 * the open inventory, placing orders with their 400/422 split, and the order id rules (GET takes
 * 1 to 10, DELETE any positive whole number).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { StoreClient, type Reply } from '../sandbox/store/test-client';

let sb: StoreSandbox;
let api: StoreClient;

beforeAll(async () => {
  sb = await startStoreSandbox();
  api = new StoreClient(sb);
});
afterAll(() => sb.close());

function expectError(r: Reply, status: number): Record<string, any> {
  expect(r.status, r.text).toBe(status);
  expect(r.body).toMatchObject({ code: status, type: expect.any(String), message: expect.any(String) });
  return r.body;
}

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
