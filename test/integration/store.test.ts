/**
 * Store sites through the Host, against the store sandbox over loopback HTTP, with a real SQLite
 * file: sign-in by API key and by user login (keychain, expiry), pets with the cache, image upload
 * with progress, the inventory, orders and their id rules, users with partial updates, the rate-limit
 * budget and the local wait after a 429, offline reads, and answers the Host cannot read.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createHost, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { ORDER_ID_RULES, type ChannelInput, type ChannelName, type ChannelOutput, type ErrorInfo, type RateBudget, type Site, type StoreSessionInfo } from '../../electron/contract';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { DEMO_USERS } from '../sandbox/store/seed';
import { tempDir } from '../support/tmp';

let sb: StoreSandbox;
let host: Host;
let dir: ReturnType<typeof tempDir>;
let secrets: MemorySecretStore;
/** the administrator's Enterprise key: never rate-limited */
let shop: Site;
/** Added by the Host's clock; the sandbox has its own (sb.clock). */
let skewMs = 0;
const requests: { method: string; path: string; body?: string }[] = [];
const events: { name: string; payload: unknown }[] = [];

async function call<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>> {
  const r = await host.invoke(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.message}`), r.error);
  return r.value as ChannelOutput<K>;
}
async function fails<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ErrorInfo> {
  const r = await host.invoke(channel, input);
  if (r.ok) throw new Error(`${channel} should have failed`);
  return r.error;
}
const eventsNamed = <T>(name: string) => events.filter((e) => e.name === name).map((e) => e.payload as T);

async function addStore(name: string, o: { apiKey?: string; baseUrl?: string } = {}): Promise<Site> {
  return call('sites.add', {
    name,
    kind: 'store',
    baseUrl: o.baseUrl ?? sb.url,
    environment: null,
    authMode: o.apiKey ? 'apikey' : 'password',
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
  });
}

/** Reads the database file the way another program would. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(`${dir.path}/sitedesk.db`, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  sb = await startStoreSandbox();
  dir = tempDir();
  secrets = new MemorySecretStore();
  const recording: typeof fetch = (input, init) => {
    const u = new URL(String(input));
    requests.push({ method: init?.method ?? 'GET', path: u.pathname + u.search, ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
    return fetch(input, init);
  };
  host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'test', secrets, fetch: recording, log: () => {}, now: () => Date.now() + skewMs });
  host.onEvent((name, payload) => events.push({ name, payload }));
  shop = await addStore('Shop', { apiKey: sb.seeded!.keys.enterprise });
});
afterAll(async () => {
  await host.close();
  await sb.close();
  dir.remove();
});
afterEach(() => {
  sb.faults.clear();
  sb.clock.set(0);
  skewMs = 0;
});

describe('sign-in', () => {
  test('by API key: signed in at once; the key is in the keychain and nowhere in the database', async () => {
    expect(await call('store.session', { siteId: shop.id })).toEqual({ siteId: shop.id, state: 'signed_in', via: 'apikey', username: null, expiresAt: null, rateLimitPerHour: null });
    expect((await call('store.sessions', {})).map((s) => s.siteId)).toContain(shop.id);
    expect(eventsNamed<StoreSessionInfo>('store.session')).toContainEqual(expect.objectContaining({ siteId: shop.id, state: 'signed_in' })); // announced when added
    expect(await secrets.get(`site:${shop.id}:apikey`)).toBe(sb.seeded!.keys.enterprise);
    await call('store.pets.get', { siteId: shop.id, petId: 1 });
    expect(readFileSync(`${dir.path}/sitedesk.db`).includes(sb.seeded!.keys.enterprise)).toBe(false);
  });

  test('a refused key ends the session with the reason; a new key in the settings brings it back', async () => {
    const site = await addStore('Refused', { apiKey: 'sk_free_not-a-key' });
    const err = await fails('store.pets.list', { siteId: site.id });
    expect(err).toMatchObject({ code: 'unauthorized', status: 401 });
    const info = await call('store.session', { siteId: site.id });
    expect(info).toMatchObject({ state: 'expired', via: 'apikey', reason: expect.stringContaining('refused the API key') });
    expect(eventsNamed<StoreSessionInfo>('store.session').at(-1)).toMatchObject({ siteId: site.id, state: 'expired' });

    await call('sites.update', { id: site.id, name: 'Refused', kind: 'store', baseUrl: sb.url, environment: null, authMode: 'apikey', apiKey: sb.seeded!.keys.pro });
    expect((await call('store.session', { siteId: site.id })).state).toBe('signed_in');
    expect((await call('store.pets.list', { siteId: site.id, statuses: ['sold'] })).pets).toHaveLength(4);
    await call('sites.remove', { id: site.id });
  });

  test('by user login: the session token in the keychain (never SQLite), expiry and hourly limit shown, logout ends it on the store', async () => {
    const site = await addStore('Login');
    expect(await call('store.session', { siteId: site.id })).toMatchObject({ state: 'signed_out', via: null });
    expect(await fails('store.pets.list', { siteId: site.id })).toMatchObject({ code: 'unauthorized', message: 'Log in to Login first.' });

    const wrong = await fails('store.login', { siteId: site.id, username: 'admin', password: 'nope' });
    expect(wrong).toMatchObject({ code: 'unauthorized', fields: { password: expect.any(String) } });
    sb.faults.set({ route: 'GET /user/login', rateLimit: { retryAfter: 9 }, times: 1 });
    expect(await fails('store.login', { siteId: site.id, username: 'admin', password: 'x' })).toEqual({
      code: 'rate_limited',
      status: 429,
      retryAfter: 9,
      message: 'Login is rate-limiting logins. Try again in 9 s.',
    });

    const before = Date.now();
    const info = await call('store.login', { siteId: site.id, username: 'admin', password: DEMO_USERS.admin.password });
    expect(info).toMatchObject({ state: 'signed_in', via: 'password', username: 'admin', rateLimitPerHour: 36000 });
    expect(Date.parse(info.expiresAt!) - before).toBeGreaterThan(3590_000);
    const stored = JSON.parse((await secrets.get(`site:${site.id}:store-session`))!) as { token: string };
    expect(stored.token.length).toBeGreaterThan(10);
    expect(readFileSync(`${dir.path}/sitedesk.db`).includes(stored.token)).toBe(false);
    expect(query('SELECT username, state FROM store_sessions WHERE site_id = ?', site.id)).toEqual([{ username: 'admin', state: 'signed_in' }]);

    requests.length = 0;
    expect((await call('store.pets.get', { siteId: site.id, petId: 1 })).name).toBe('Rex');
    const out = await call('store.logout', { siteId: site.id });
    expect(out).toMatchObject({ state: 'signed_out', revoked: true });
    expect(requests.map((r) => r.path)).toEqual(['/api/v3/pet/1', '/api/v3/user/logout']);
    expect(await secrets.get(`site:${site.id}:store-session`)).toBeNull();
    const direct = await fetch(`${sb.url}/pet/1`, { headers: { Authorization: `Bearer ${stored.token}` } });
    expect(direct.status).toBe(401); // ended on the store too
    await call('sites.remove', { id: site.id });
  });

  test('a login runs out by the local clock (nothing is sent), or when the store ends it (401)', async () => {
    const site = await addStore('Expiry');
    await call('store.login', { siteId: site.id, username: 'user1', password: DEMO_USERS.user1.password });
    skewMs = 3601_000;
    expect(await call('store.session', { siteId: site.id })).toMatchObject({ state: 'expired', reason: expect.stringContaining('ended') });
    requests.length = 0;
    expect(await fails('store.inventory', { siteId: site.id })).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Log in again') });
    expect(requests).toEqual([]);
    skewMs = 0;

    await call('store.login', { siteId: site.id, username: 'user1', password: DEMO_USERS.user1.password });
    sb.clock.advance(3601_000); // the store's clock only: the Host still thinks the session is good
    expect(await fails('store.pets.get', { siteId: site.id, petId: 1 })).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(await call('store.session', { siteId: site.id })).toMatchObject({ state: 'expired', reason: expect.stringContaining('ended the login session') });
    expect(await secrets.get(`site:${site.id}:store-session`)).toBeNull();
    await call('sites.remove', { id: site.id });
  });

  test('login on a key site, and store channels on a CMS site, are refused with the reason', async () => {
    expect(await fails('store.login', { siteId: shop.id, username: 'admin', password: 'x' })).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('API key') });
    const cms = await call('sites.add', { name: 'Blog', kind: 'cms', baseUrl: 'http://127.0.0.1:9/api/v1', environment: null, authMode: 'password' });
    expect(await fails('store.inventory', { siteId: cms.id })).toMatchObject({ code: 'invalid_input', message: 'Blog is a CMS site; store actions do not apply to it.' });
    await call('sites.remove', { id: cms.id });
  });
});

describe('pets', () => {
  test('the list: every status by default, filtered by status, by tags, or both', async () => {
    const all = await call('store.pets.list', { siteId: shop.id });
    expect(all.pets.length).toBeGreaterThanOrEqual(20);
    expect(all.cachedAt).toBeUndefined();
    expect(all.pets.map((p) => p.id)).toEqual([...all.pets.map((p) => p.id)].sort((a, b) => a - b));
    expect(all.pets[0]).toMatchObject({ id: 1, name: 'Rex', category: { id: 1, name: 'Dogs' }, status: 'available', tags: [{ id: expect.any(Number), name: 'friendly' }, { id: expect.any(Number), name: 'tag1' }] });

    expect((await call('store.pets.list', { siteId: shop.id, statuses: ['sold'] })).pets.map((p) => p.name)).toEqual(['Buddy', 'Shadow', 'Polly', 'Finn']);
    requests.length = 0;
    expect((await call('store.pets.list', { siteId: shop.id, tags: ['Talks'] })).pets.map((p) => p.name)).toEqual(['Kiwi', 'Coco', 'Polly']);
    expect(requests.map((r) => r.path)).toEqual(['/api/v3/pet/findByTags?tags=Talks']);
    expect((await call('store.pets.list', { siteId: shop.id, tags: ['talks'], statuses: ['available', 'pending'] })).pets.map((p) => p.name)).toEqual(['Kiwi', 'Coco']);
  });

  test('create with category and tags, find it by tag, edit, delete; each read lands in the cache', async () => {
    const pet = await call('store.pets.create', { siteId: shop.id, name: ' Pixel ', category: { name: 'Dogs' }, photoUrls: ['https://example.com/pixel.jpg'], tags: ['friendly', 'puppy'], status: 'available' });
    expect(pet).toMatchObject({ name: 'Pixel', category: { id: 1, name: 'Dogs' }, tags: [{ name: 'friendly' }, { name: 'puppy' }], status: 'available' });
    expect((await call('store.pets.list', { siteId: shop.id, tags: ['puppy'] })).pets.map((p) => p.id)).toEqual([pet.id]);
    expect(query('SELECT name, status FROM store_pets WHERE site_id = ? AND pet_id = ?', shop.id, pet.id)).toEqual([{ name: 'Pixel', status: 'available' }]);

    const edited = await call('store.pets.update', { siteId: shop.id, id: pet.id, name: 'Pixel II', photoUrls: [], tags: ['puppy'], status: 'pending' });
    expect(edited).toMatchObject({ id: pet.id, name: 'Pixel II', category: null, photoUrls: [], tags: [{ name: 'puppy' }], status: 'pending' });
    expect(query('SELECT status FROM store_pets WHERE site_id = ? AND pet_id = ?', shop.id, pet.id)).toEqual([{ status: 'pending' }]);

    expect(await call('store.pets.delete', { siteId: shop.id, petId: pet.id })).toEqual({ petId: pet.id });
    expect(query('SELECT * FROM store_pets WHERE site_id = ? AND pet_id = ?', shop.id, pet.id)).toEqual([]);
    expect(await fails('store.pets.get', { siteId: shop.id, petId: pet.id })).toMatchObject({ code: 'not_found', message: `There is no pet ${pet.id} in Shop (it may have been deleted).` });
    expect(await fails('store.pets.update', { siteId: shop.id, id: pet.id, name: 'Ghost', photoUrls: [] })).toMatchObject({ code: 'not_found' });
    expect(await fails('store.pets.delete', { siteId: shop.id, petId: pet.id })).toMatchObject({ code: 'not_found' });
  });

  test('a list by status drops pets the store no longer has from the cache', async () => {
    const pet = await call('store.pets.create', { siteId: shop.id, name: 'Gone soon', photoUrls: [], status: 'sold' });
    await call('store.pets.list', { siteId: shop.id, statuses: ['sold'] });
    await fetch(`${sb.url}/pet/${pet.id}`, { method: 'DELETE', headers: { api_key: sb.seeded!.keys.enterprise } }); // behind the app's back
    await call('store.pets.list', { siteId: shop.id, statuses: ['sold'] });
    expect(query('SELECT * FROM store_pets WHERE site_id = ? AND pet_id = ?', shop.id, pet.id)).toEqual([]);
  });

  test('bad input is refused at the boundary, field by field, and nothing is sent', async () => {
    requests.length = 0;
    const err = await fails('store.pets.create', { siteId: shop.id, name: '', photoUrls: ['not a url'], tags: [''], status: 'lost' as 'sold' });
    expect(err.code).toBe('invalid_input');
    expect(Object.keys(err.fields!).sort()).toEqual(['name', 'photoUrls.0', 'status', 'tags.0']);
    expect(await fails('store.pets.get', { siteId: shop.id, petId: 1.5 })).toMatchObject({ fields: { petId: 'A pet id is a whole number.' } });
    expect(requests).toEqual([]);
  });

  test('an image upload streams with progress events and answers the pet with its new photo', async () => {
    const image = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(400_000, 7)]);
    const before = (await call('store.pets.get', { siteId: shop.id, petId: 3 })).photoUrls.length;
    events.length = 0;
    const r = await call('store.pets.uploadImage', { siteId: shop.id, petId: 3, uploadId: 'up-1', filename: 'max.png', type: 'image/png', data: image.toString('base64'), metadata: 'side view' });
    expect(r.message).toContain(`Uploaded ${image.length} bytes`);
    expect(r.pet.photoUrls).toHaveLength(before + 1);
    const progress = eventsNamed<{ uploadId: string; sent: number; total: number }>('store.progress');
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((p) => p.uploadId === 'up-1' && p.total === image.length)).toBe(true);
    expect(progress.at(-1)!.sent).toBe(image.length);
    const served = await fetch(r.pet.photoUrls.at(-1)!);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    expect(await fails('store.pets.uploadImage', { siteId: shop.id, petId: 99999, uploadId: 'up-2', filename: 'x.png', type: 'image/png', data: image.toString('base64') })).toMatchObject({ code: 'not_found' });
  });
});

describe('inventory', () => {
  test('counts per status and their total; a new pet counts at once', async () => {
    const inv = await call('store.inventory', { siteId: shop.id });
    expect(Object.keys(inv.counts).sort()).toEqual(['available', 'pending', 'sold']);
    expect(inv.total).toBe(Object.values(inv.counts).reduce((a, b) => a + b, 0));
    expect(inv.cachedAt).toBeUndefined();
    await call('store.pets.create', { siteId: shop.id, name: 'Counted', photoUrls: [] });
    const after = await call('store.inventory', { siteId: shop.id });
    expect(after.counts.available).toBe(inv.counts.available! + 1);
    expect(query<{ counts: string }>('SELECT counts FROM store_inventory WHERE site_id = ?', shop.id).map((r) => JSON.parse(r.counts))).toEqual([after.counts]);
  });
});

describe('orders', () => {
  test('place one: the order with its id; the pet is pending now', async () => {
    const order = await call('store.orders.place', { siteId: shop.id, petId: 2, quantity: 1, shipDate: '2030-01-02T03:04:05Z' });
    expect(order).toMatchObject({ id: expect.any(Number), petId: 2, quantity: 1, shipDate: '2030-01-02T03:04:05.000Z', status: 'placed', complete: false });
    expect((await call('store.pets.get', { siteId: shop.id, petId: 2 })).status).toBe('pending');
    expect(await call('store.orders.delete', { siteId: shop.id, orderId: order.id })).toEqual({ orderId: order.id });
    expect(await fails('store.orders.delete', { siteId: shop.id, orderId: order.id })).toMatchObject({ code: 'not_found', message: `There is no order ${order.id} in Shop to delete.` });
    const sold = await fails('store.orders.place', { siteId: shop.id, petId: 17, quantity: 1 });
    expect(sold).toMatchObject({ code: 'invalid_input', status: 422, fields: { petId: expect.stringContaining('sold already') } });
  });

  test('look up: ids 1 to 10; anything else is explained at the field without a request', async () => {
    expect(await call('store.orders.get', { siteId: shop.id, orderId: 1 })).toMatchObject({ id: 1, petId: 13, status: 'placed' });
    requests.length = 0;
    for (const orderId of [11, 0, -3, 2.5]) {
      expect(await fails('store.orders.get', { siteId: shop.id, orderId })).toMatchObject({ code: 'invalid_input', fields: { orderId: ORDER_ID_RULES.get } });
    }
    for (const orderId of [0, -1, 1.5]) {
      expect(await fails('store.orders.delete', { siteId: shop.id, orderId })).toMatchObject({ code: 'invalid_input', fields: { orderId: ORDER_ID_RULES.delete } });
    }
    expect(requests).toEqual([]);
  });

  test('the store’s own refusal of an id, and a deleted demo order, are said in this site’s words', async () => {
    sb.faults.set({ route: 'GET /store/order/3', status: 400, times: 1 });
    expect(await fails('store.orders.get', { siteId: shop.id, orderId: 3 })).toMatchObject({ code: 'invalid_input', message: `Shop refused order id 3. ${ORDER_ID_RULES.get}`, fields: { orderId: ORDER_ID_RULES.get } });
    await call('store.orders.delete', { siteId: shop.id, orderId: 9 });
    expect(await fails('store.orders.get', { siteId: shop.id, orderId: 9 })).toMatchObject({ code: 'not_found', message: 'There is no order 9 in Shop (it may have been deleted).' });
  });
});

describe('users', () => {
  test('create one, look it up, change only what changed, delete it', async () => {
    const user = await call('store.users.create', { siteId: shop.id, user: { username: 'alice', email: 'alice@example.test', password: 'pw-123456', firstName: 'Alice', lastName: 'Old', phone: '555' } });
    expect(user).toEqual({ id: expect.any(Number), username: 'alice', firstName: 'Alice', lastName: 'Old', email: 'alice@example.test', phone: '555', userStatus: null });
    expect(await call('store.users.get', { siteId: shop.id, username: 'alice' })).toEqual(user);

    requests.length = 0;
    const changed = await call('store.users.update', { siteId: shop.id, username: 'alice', changes: { lastName: 'New' } });
    expect(requests).toEqual([{ method: 'PUT', path: '/api/v3/user/alice', body: '{"lastName":"New"}' }]);
    expect(changed).toEqual({ ...user, lastName: 'New' });
    expect(await fails('store.users.update', { siteId: shop.id, username: 'alice', changes: {} })).toMatchObject({ code: 'invalid_input', fields: { changes: 'Nothing was changed.' } });
    const refused = await fails('store.users.update', { siteId: shop.id, username: 'alice', changes: { password: 'x'.repeat(201) } });
    expect(refused.fields).toHaveProperty(['changes.password']);

    expect(await call('store.users.delete', { siteId: shop.id, username: 'alice' })).toEqual({ username: 'alice' });
    expect(await fails('store.users.get', { siteId: shop.id, username: 'alice' })).toMatchObject({ code: 'not_found', message: 'There is no user alice in Shop.' });
  });

  test('a list: all created, or none with the store’s refusal at the right row', async () => {
    const users = await call('store.users.createList', {
      siteId: shop.id,
      users: [
        { username: 'row1', email: 'row1@example.test', password: 'pw' },
        { username: 'row2', email: 'row2@example.test', password: 'pw', userStatus: 1 },
      ],
    });
    expect(users.map((u) => u.username)).toEqual(['row1', 'row2']);
    const err = await fails('store.users.createList', {
      siteId: shop.id,
      users: [
        { username: 'row3', email: 'row3@example.test', password: 'pw' },
        { username: 'row1', email: 'again@example.test', password: 'pw' },
      ],
    });
    expect(err).toMatchObject({ code: 'invalid_input', fields: { 'users.1.username': expect.stringContaining('taken') } });
    expect(await fails('store.users.get', { siteId: shop.id, username: 'row3' })).toMatchObject({ code: 'not_found' });
    expect(await fails('store.users.create', { siteId: shop.id, user: { username: 'row2', email: 'x@example.test', password: 'pw' } })).toMatchObject({ fields: { 'user.username': expect.stringContaining('taken') } });
  });

  test('a user who is not an administrator is told so; deleting the logged-in account ends the login', async () => {
    const site = await addStore('As user1');
    await call('store.users.create', { siteId: shop.id, user: { username: 'temp', email: 'temp@example.test', password: 'temp-pass' } });
    await call('store.login', { siteId: site.id, username: 'user1', password: DEMO_USERS.user1.password });
    expect(await fails('store.users.create', { siteId: site.id, user: { username: 'nope', email: 'n@example.test', password: 'pw' } })).toMatchObject({ code: 'forbidden', message: expect.stringContaining('administrator') });
    await call('store.logout', { siteId: site.id });

    await call('store.login', { siteId: site.id, username: 'temp', password: 'temp-pass' });
    await call('store.users.delete', { siteId: site.id, username: 'temp' });
    expect(await call('store.session', { siteId: site.id })).toMatchObject({ state: 'signed_out' });
    await call('sites.remove', { id: site.id });
  });
});

describe('rate limits', () => {
  test('the budget from every answer; a 429 gives retryAfter, then nothing is sent until it has passed', async () => {
    sb.plans.free.perMinute = 3;
    const site = await addStore('Free plan', { apiKey: sb.seeded!.keys.free });
    try {
      events.length = 0;
      for (let i = 0; i < 3; i++) await call('store.inventory', { siteId: site.id });
      const budgets = eventsNamed<RateBudget>('store.budget').filter((b) => b.siteId === site.id);
      expect(budgets.map((b) => b.minute?.remaining)).toEqual([2, 1, 0]);
      expect(budgets.at(-1)).toMatchObject({ plan: 'free', unlimited: false, minute: { limit: 3, remaining: 0, resetAt: expect.any(String) }, day: { limit: 1000, remaining: 997 }, blockedUntil: null });

      const limited = await fails('store.pets.list', { siteId: site.id });
      expect(limited).toMatchObject({ code: 'rate_limited', status: 429, message: expect.stringContaining('(Free plan)') });
      expect(limited.retryAfter).toBeGreaterThan(0);
      expect(limited.retryAfter).toBeLessThanOrEqual(60);
      const { budget } = await call('store.budget', { siteId: site.id });
      expect(Date.parse(budget!.blockedUntil!)).toBeGreaterThan(Date.now());

      requests.length = 0;
      const local = await fails('store.inventory', { siteId: site.id });
      expect(local).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('nothing was sent') });
      expect(local.retryAfter).toBeLessThanOrEqual(limited.retryAfter!);
      expect(requests).toEqual([]);

      // the countdown is over on both clocks: the retry goes out and succeeds
      skewMs = limited.retryAfter! * 1000;
      sb.clock.advance(limited.retryAfter! * 1000);
      expect((await call('store.inventory', { siteId: site.id })).total).toBeGreaterThan(0);
      expect((await call('store.budget', { siteId: site.id })).budget).toMatchObject({ blockedUntil: null, minute: { remaining: 2 } });
    } finally {
      sb.plans.free.perMinute = 60;
      await call('sites.remove', { id: site.id });
    }
  });

  test('a 429 from a network in front of the store counts the same; an Enterprise key reports no limit', async () => {
    sb.faults.set({ route: 'GET /pet/findByStatus', rateLimit: { retryAfter: 30 }, times: 1 });
    expect(await fails('store.pets.list', { siteId: shop.id })).toMatchObject({ code: 'rate_limited', retryAfter: 30 });
    expect(await fails('store.inventory', { siteId: shop.id })).toMatchObject({ code: 'rate_limited' });
    skewMs = 31_000;
    const inv = await call('store.inventory', { siteId: shop.id });
    expect(inv.total).toBeGreaterThan(0);
    expect((await call('store.budget', { siteId: shop.id })).budget).toMatchObject({ plan: 'enterprise', unlimited: true, minute: null, day: null, blockedUntil: null });
  });
});

describe('offline', () => {
  test('pets and the inventory read before come from the cache, marked with the time of the copy', async () => {
    const site = await addStore('Offline', { apiKey: sb.seeded!.keys.pro });
    const all = await call('store.pets.list', { siteId: site.id });
    const rex = await call('store.pets.get', { siteId: site.id, petId: 1 });
    const inv = await call('store.inventory', { siteId: site.id });
    sb.faults.set({ route: '*', drop: true });

    const copy = await call('store.pets.list', { siteId: site.id });
    expect(copy.cachedAt).toEqual(expect.any(String));
    expect(copy.pets.map((p) => p.id)).toEqual(all.pets.map((p) => p.id));
    expect((await call('store.pets.list', { siteId: site.id, statuses: ['sold'], tags: ['talks'] })).pets.map((p) => p.name)).toEqual(['Polly']);
    expect(await call('store.pets.get', { siteId: site.id, petId: 1 })).toEqual({ ...rex, cachedAt: expect.any(String) });
    expect(await call('store.inventory', { siteId: site.id })).toEqual({ ...inv, cachedAt: inv.fetchedAt });
    // nothing read before: the network error itself
    const fresh = await addStore('Never read', { apiKey: sb.seeded!.keys.pro });
    expect(await fails('store.pets.list', { siteId: fresh.id })).toMatchObject({ code: 'network' });
    sb.faults.clear();

    await call('sites.remove', { id: site.id });
    await call('sites.remove', { id: fresh.id });
    expect(query('SELECT count(*) AS n FROM store_pets WHERE site_id = ?', site.id)).toEqual([{ n: 0 }]);
    expect(query('SELECT count(*) AS n FROM store_inventory WHERE site_id = ?', site.id)).toEqual([{ n: 0 }]);
    expect(await secrets.get(`site:${site.id}:apikey`)).toBeNull();
  }, 30_000); // each read that falls back waits for the transport's two retries first
});

describe('answers Sitedesk cannot read', () => {
  test('a web page where JSON belongs, and JSON of the wrong shape, are clear bad_response errors', async () => {
    sb.faults.set({ route: 'GET /pet/findByStatus', html: true, times: 1 });
    expect(await fails('store.pets.list', { siteId: shop.id })).toMatchObject({ code: 'bad_response', message: expect.stringContaining('web page instead of JSON') });

    const wrong = createServer((req, res) => {
      const body = req.url!.startsWith('/api/v3/store/inventory') ? { available: 'many' } : req.url!.startsWith('/api/v3/user/login') ? null : [{ id: 'seven', name: 'Rex' }];
      if (body === null) {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Expires-After': 'soon' }).end('welcome!');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => wrong.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(wrong.address() as AddressInfo).port}/api/v3`;
    try {
      const odd = await addStore('Odd', { apiKey: 'k', baseUrl: base });
      const list = await fails('store.pets.list', { siteId: odd.id });
      expect(list).toMatchObject({ code: 'bad_response', message: expect.stringContaining('a pet list Sitedesk cannot read'), detail: expect.stringContaining('id') });
      expect(await fails('store.inventory', { siteId: odd.id })).toMatchObject({ code: 'bad_response', message: expect.stringContaining('an inventory') });
      const oddLogin = await addStore('Odd login', { baseUrl: base });
      expect(await fails('store.login', { siteId: oddLogin.id, username: 'a', password: 'b' })).toMatchObject({ code: 'bad_response', message: expect.stringContaining('no session token') });
      expect((await call('store.session', { siteId: oddLogin.id })).state).toBe('signed_out');
      await call('sites.remove', { id: odd.id });
      await call('sites.remove', { id: oddLogin.id });
    } finally {
      wrong.closeAllConnections();
      await new Promise<void>((r) => wrong.close(() => r()));
    }
  });
});
