/**
 * The store sandbox's pets (document 3, "Pets" and "Events"), over real HTTP on loopback: every
 * pet route with every status code, the reference's parameters where the document says "not
 * shown", image uploads, and the `pet.created` webhook delivered to a real receiver.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { StoreClient, type Reply } from '../sandbox/store/test-client';
import { recordingServer } from '../support/servers';

let sb: StoreSandbox;
let api: StoreClient;

beforeAll(async () => {
  sb = await startStoreSandbox();
  api = new StoreClient(sb);
});
afterAll(() => sb.close());

/** An error answer in the store's shape (ApiResponse: code, type, message). */
function expectError(r: Reply, status: number): Record<string, any> {
  expect(r.status, r.text).toBe(status);
  expect(r.type).toContain('application/json');
  expect(r.body).toMatchObject({ code: status, type: expect.any(String), message: expect.any(String) });
  return r.body;
}

const fieldsOf = (body: Record<string, any>) => (body.errors as { field: string }[]).map((e) => e.field);

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1d1e00000000049454e44ae426082', 'hex');

describe('create (POST /pet)', () => {
  test('the created pet comes back with an assigned id; status defaults to available; tag names keep their ids', async () => {
    const friendly = (await api.get('/pet/1')).body.tags.find((t: { name: string }) => t.name === 'friendly');
    const r = await api.post('/pet', { name: 'Pixel', photoUrls: ['https://example.com/pixel.jpg'], category: { name: 'Dogs' }, tags: [{ name: 'Friendly' }, { name: 'brand-new' }] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id: expect.any(Number), name: 'Pixel', status: 'available', photoUrls: ['https://example.com/pixel.jpg'], category: { id: 1, name: 'Dogs' } });
    expect(r.body.id).toBeGreaterThan(20);
    expect(r.body.tags[0]).toEqual({ id: friendly.id, name: 'friendly' });
    expect(r.body.tags[1]).toEqual({ id: expect.any(Number), name: 'brand-new' });
    expect((await api.get(`/pet/${r.body.id}`)).body).toEqual(r.body);
  });

  test('an id sent along is used when free, refused (400) when taken', async () => {
    const r = await api.post('/pet', { id: 5000, name: 'Chosen', photoUrls: [] });
    expect(r.body).toMatchObject({ id: 5000, name: 'Chosen', tags: [] });
    expectError(await api.post('/pet', { id: 5000, name: 'Again', photoUrls: [] }), 400);
  });

  test('400 for a body that is not a pet; 422 for one that breaks the rules; each names its fields', async () => {
    expectError(await api.post('/pet', '{not json'), 400);
    expectError(await api.post('/pet', [1, 2]), 400);
    expectError(await api.post('/pet', ''), 400);
    expect(fieldsOf(expectError(await api.post('/pet', { name: 42, photoUrls: 'x.jpg' }), 400))).toEqual(['name', 'photoUrls']);
    expect(fieldsOf(expectError(await api.post('/pet', { name: 'A', photoUrls: [], tags: [{ id: 'x', name: 'y' }] }), 400))).toEqual(['tags.0.id']);
    expect(fieldsOf(expectError(await api.post('/pet', { id: -3, name: 'A', photoUrls: [] }), 400))).toEqual(['id']);

    const missing = expectError(await api.post('/pet', {}), 422);
    expect(fieldsOf(missing)).toEqual(['name', 'photoUrls']);
    expect(missing.message).toContain('name is required');
    expect(fieldsOf(expectError(await api.post('/pet', { name: '  ', photoUrls: [''] }), 422))).toEqual(['name', 'photoUrls.0']);
    const status = expectError(await api.post('/pet', { name: 'A', photoUrls: [], status: 'lost' }), 422);
    expect(status.errors[0]).toEqual({ field: 'status', message: 'The status must be one of available, pending, sold.' });
  });

  test('401 without a credential, or with a key or token that is not accepted', async () => {
    const anon = expectError(await api.as({ none: true }).post('/pet', { name: 'A', photoUrls: [] }), 401);
    expect(anon.message).toMatch(/api_key|API key/);
    expectError(await api.as({ apiKey: 'sk_free_nope' }).post('/pet', { name: 'A', photoUrls: [] }), 401);
    expectError(await api.as({ bearer: 'nope' }).get('/pet/1'), 401);
  });
});

describe('update (PUT /pet)', () => {
  test('the pet is replaced; a status left out is kept', async () => {
    const created = (await api.post('/pet', { name: 'Before', photoUrls: ['a.jpg'], status: 'pending', tags: [{ name: 'x' }] })).body;
    const r = await api.put('/pet', { id: created.id, name: 'After', photoUrls: ['b.jpg'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ id: created.id, name: 'After', photoUrls: ['b.jpg'], tags: [], status: 'pending' });
    expect((await api.get(`/pet/${created.id}`)).body.name).toBe('After');
  });

  test('400 invalid ID, 404 not found, 422 validation, 401 anonymous', async () => {
    expectError(await api.put('/pet', { name: 'No id', photoUrls: [] }), 400);
    expect(expectError(await api.put('/pet', { id: 'seven', name: 'X', photoUrls: [] }), 400).message).toMatch(/^Invalid ID supplied/);
    expectError(await api.put('/pet', { id: 1.5, name: 'X', photoUrls: [] }), 400);
    expectError(await api.put('/pet', { id: 987654, name: 'X', photoUrls: [] }), 404);
    expectError(await api.put('/pet', { id: 1, photoUrls: [] }), 422);
    expectError(await api.as({ none: true }).put('/pet', { id: 1, name: 'X', photoUrls: [] }), 401);
  });
});

describe('get and delete (/pet/{petId})', () => {
  test('a pet by id; 400 for an id that is not a positive whole number; 404 for none', async () => {
    const r = await api.get('/pet/1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 1, name: 'Rex', status: 'available', category: { name: 'Dogs' } });
    expect(r.body.photoUrls[0]).toBe(`${sb.origin}/images/demo/rex.svg`);
    for (const bad of ['abc', '0', '-1', '1.5', '1e3']) expect(expectError(await api.get(`/pet/${bad}`), 400).message).toContain('Invalid ID supplied');
    expectError(await api.get('/pet/99999'), 404);
    expectError(await api.as({ none: true }).get('/pet/1'), 401);
  });

  test('delete: 200, then the pet is gone (404); 400 for a bad id', async () => {
    const { id } = (await api.post('/pet', { name: 'Doomed', photoUrls: [] })).body;
    const r = await api.delete(`/pet/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 200, type: 'ok', message: `Pet ${id} deleted.` });
    expectError(await api.get(`/pet/${id}`), 404);
    expectError(await api.delete(`/pet/${id}`), 404);
    expectError(await api.delete('/pet/x'), 400);
    expectError(await api.as({ none: true }).delete('/pet/1'), 401);
  });

  test('a method the path does not take is 405; an unknown path 404, both in the store error shape', async () => {
    expectError(await api.post('/pet/1', {}), 405);
    expectError(await api.get('/nothing/here'), 404);
    const outside = await fetch(`${sb.origin}/api/v2/pet/1`);
    expect(outside.status).toBe(404);
  });
});

describe('find (GET /pet/findByStatus, /pet/findByTags)', () => {
  const ids = (r: Reply) => (r.body as unknown as { id: number }[]).map((p) => p.id);
  const statuses = (r: Reply) => [...new Set((r.body as unknown as { status: string }[]).map((p) => p.status))].sort();

  test('by status: default available; comma-separated and repeated values; sorted by id', async () => {
    const available = await api.get('/pet/findByStatus');
    expect(statuses(available)).toEqual(['available']);
    expect(ids(available)).toEqual([...ids(available)].sort((a, b) => a - b));
    const sold = await api.get('/pet/findByStatus?status=sold');
    expect(ids(sold)).toEqual([17, 18, 19, 20]);
    expect(statuses(await api.get('/pet/findByStatus?status=pending,sold'))).toEqual(['pending', 'sold']);
    expect(statuses(await api.get('/pet/findByStatus?status=pending&status=sold'))).toEqual(['pending', 'sold']);
  });

  test('by status: 400 for a value outside the list; 401 anonymous', async () => {
    expect(expectError(await api.get('/pet/findByStatus?status=lost'), 400).message).toContain('Invalid status value');
    expectError(await api.get('/pet/findByStatus?status=available,'), 400);
    expectError(await api.as({ none: true }).get('/pet/findByStatus'), 401);
  });

  test('by tags: pets with any of the tags, names compared without case', async () => {
    const talks = await api.get('/pet/findByTags?tags=talks');
    expect(ids(talks)).toEqual([7, 14, 19]);
    expect(ids(await api.get('/pet/findByTags?tags=TALKS,indoor'))).toEqual([4, 6, 7, 14, 18, 19]);
    expect(ids(await api.get('/pet/findByTags?tags=talks&tags=indoor'))).toEqual([4, 6, 7, 14, 18, 19]);
    expect(ids(await api.get('/pet/findByTags?tags=nobody-has-this'))).toEqual([]);
  });

  test('by tags: 400 without a tag or with an empty one; 401 anonymous', async () => {
    expect(expectError(await api.get('/pet/findByTags'), 400).message).toContain('Invalid tag value');
    expectError(await api.get('/pet/findByTags?tags=a,,b'), 400);
    expectError(await api.as({ none: true }).get('/pet/findByTags?tags=talks'), 401);
  });
});

describe('uploadImage (POST /pet/{petId}/uploadImage)', () => {
  test('raw bytes (octet-stream): stored, served, added to photoUrls; the answer is an ApiResponse', async () => {
    const r = await api.post('/pet/2/uploadImage?additionalMetadata=front', new Uint8Array(PNG), { 'content-type': 'application/octet-stream' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ code: 200, type: 'image/png', message: expect.stringContaining(`Uploaded ${PNG.length} bytes`) });
    expect(r.body.message).toContain('additionalMetadata: front');
    const pet = (await api.get('/pet/2')).body;
    expect(pet.photoUrls).toHaveLength(2);
    const served = await fetch(pet.photoUrls[1]);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test('multipart/form-data works too (the first file part)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cat.png');
    const res = await fetch(`${sb.url}/pet/4/uploadImage`, { method: 'POST', headers: { api_key: sb.seeded!.keys.enterprise }, body: form });
    expect(res.status).toBe(200);
    expect((await api.get('/pet/4')).body.photoUrls).toHaveLength(2);
  });

  test('400 no file / bad id, 404 no pet, 413 too large, 401 anonymous', async () => {
    expect(expectError(await api.post('/pet/2/uploadImage', new Uint8Array(0), { 'content-type': 'application/octet-stream' }), 400).message).toContain('No file');
    expectError(await api.post('/pet/zz/uploadImage', new Uint8Array(PNG), { 'content-type': 'application/octet-stream' }), 400);
    expectError(await api.post('/pet/424242/uploadImage', new Uint8Array(PNG), { 'content-type': 'application/octet-stream' }), 404);
    sb.settings.uploadMax = 1024;
    try {
      expectError(await api.post('/pet/2/uploadImage', new Uint8Array(4096), { 'content-type': 'application/octet-stream' }), 413);
    } finally {
      sb.settings.uploadMax = 10 * 1024 * 1024;
    }
    expectError(await api.as({ none: true }).post('/pet/2/uploadImage', new Uint8Array(PNG), { 'content-type': 'image/png' }), 401);
  });
});

describe('the pet.created webhook', () => {
  test('POSTed to every registered URL with the documented body, signed when the target has a secret', async () => {
    const [signed, plain] = await Promise.all([recordingServer(), recordingServer()]);
    try {
      sb.webhooks.register({ url: signed.url, secret: 'whsec-test' });
      sb.webhooks.register({ url: plain.url });
      const before = sb.clock.now();
      const pet = (await api.post('/pet', { name: 'Hooked', photoUrls: [], status: 'pending' })).body;
      await sb.webhooks.settled();

      expect(signed.received).toHaveLength(1);
      const got = signed.received[0]!;
      expect(got.method).toBe('POST');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-webhook-event']).toBe('pet.created');
      const body = JSON.parse(got.body);
      expect(body).toEqual({ event: 'pet.created', data: { id: pet.id, name: 'Hooked', status: 'pending' }, timestamp: expect.any(String) });
      expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
      expect(got.headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', 'whsec-test').update(got.body).digest('hex')}`);
      expect(plain.received).toHaveLength(1);
      expect(plain.received[0]!.headers['x-webhook-signature']).toBeUndefined();

      // other writes send no event
      await api.put('/pet', { id: pet.id, name: 'Hooked again', photoUrls: [] });
      await api.delete(`/pet/${pet.id}`);
      await sb.webhooks.settled();
      expect(signed.received).toHaveLength(1);
      // a refused create sends none either
      await api.post('/pet', { photoUrls: [] });
      await sb.webhooks.settled();
      expect(plain.received).toHaveLength(1);
    } finally {
      sb.webhooks.clear();
      await Promise.all([signed.close(), plain.close()]);
    }
  });

  test('a failing receiver is tried again; every attempt is recorded', async () => {
    const flaky = await recordingServer();
    try {
      flaky.status = 500;
      sb.webhooks.register({ url: flaky.url });
      await api.post('/pet', { name: 'Retry me', photoUrls: [] });
      while (flaky.received.length === 0) await new Promise((r) => setTimeout(r, 10));
      flaky.status = 204; // the second attempt (0.5 s after the first) succeeds
      await sb.webhooks.settled();
      expect(flaky.received).toHaveLength(2);
      expect(flaky.received[0]!.body).toBe(flaky.received[1]!.body);
      expect(sb.webhooks.deliveries()).toEqual([expect.objectContaining({ url: flaky.url, event: 'pet.created', attempts: 2, status: 204, ok: true })]);
    } finally {
      sb.webhooks.clear();
      await flaky.close();
    }
  });

  test('registered over the control route too; an unreachable URL gives up after three attempts', async () => {
    const receiver = await recordingServer();
    const control = (method: string, body?: unknown) =>
      fetch(`${sb.origin}/__sandbox/webhooks`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    try {
      expect((await control('POST', { url: receiver.url })).status).toBe(201);
      expect((await control('POST', { url: 'ftp://nope' })).status).toBe(400);
      const dead = await recordingServer();
      await dead.close();
      expect((await control('POST', { url: dead.url })).status).toBe(201);
      await api.post('/pet', { name: 'Both', photoUrls: [] });
      await sb.webhooks.settled();
      const state = (await (await control('GET')).json()) as { data: { targets: unknown[]; deliveries: { url: string; ok: boolean; attempts: number; error: string | null }[] } };
      expect(state.data.targets).toHaveLength(2);
      expect(state.data.deliveries.find((d) => d.url === receiver.url)).toMatchObject({ ok: true, attempts: 1 });
      expect(state.data.deliveries.find((d) => d.url === dead.url)).toMatchObject({ ok: false, attempts: 3, error: expect.any(String) });
      expect((await control('DELETE')).status).toBe(204);
      expect(sb.webhooks.list()).toEqual([]);
    } finally {
      sb.webhooks.clear();
      await receiver.close();
    }
  });
});
