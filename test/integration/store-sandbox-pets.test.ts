/**
 * The store sandbox's pets over real HTTP on loopback, in both flavours. `spec` (document 3, "Pets"
 * and "Events"): every pet route with every status code, the reference's parameters where the
 * document says "not shown", image uploads, and the `pet.created` webhook delivered to a real
 * receiver. `real` (the Swagger Petstore v3): one status per findByStatus call and inflector's
 * 400 for several, exploded tags compared exactly, pets stored as sent with no ids made up (and
 * Petstore's 500 for a pet without one), deletes that answer 200 whatever was there, uploads that
 * store a server-local path and answer the Pet, no authentication and no webhook.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { MALFORMED_PET_ID, PLACEHOLDER_PET_ID } from '../sandbox/store/real/seed';
import { StoreClient, type Reply } from '../sandbox/store/test-client';
import { flavors } from '../support/flavors';
import { recordingServer } from '../support/servers';

/** An error answer in the spec store's shape (ApiResponse: code, type, message). */
function expectError(r: Reply, status: number): Record<string, any> {
  expect(r.status, r.text).toBe(status);
  expect(r.type).toContain('application/json');
  expect(r.body).toMatchObject({ code: status, type: expect.any(String), message: expect.any(String) });
  return r.body;
}

/** inflector refusing a parameter or body: 400 and its ApiError `{code, message}`. */
function expectInputError(r: Reply, message: string): void {
  expect(r.status, r.text).toBe(400);
  expect(r.type).toContain('application/json');
  expect(r.body).toEqual({ code: 400, message: `Input error: ${message}` });
}

/** A Petstore controller's bare string: plain text whatever the Content-Type says. */
function expectText(r: Reply, status: number, text: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.text).toBe(text);
}

/** Petstore throwing (a NullPointerException): inflector's 500 with a logged-error id. */
function expectInternalError(r: Reply): void {
  expect(r.status, r.text).toBe(500);
  expect(r.body).toEqual({ code: 500, message: expect.stringMatching(/^There was an error processing your request\. It has been logged \(ID: [0-9a-f]{16}\)$/) });
}

const fieldsOf = (body: Record<string, any>) => (body.errors as { field: string }[]).map((e) => e.field);
const ids = (r: Reply) => (r.body as unknown as { id: number }[]).map((p) => p.id);
const statuses = (r: Reply) => [...new Set((r.body as unknown as { status: string }[]).map((p) => p.status))].sort();

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1d1e00000000049454e44ae426082', 'hex');

describe.each(flavors)('%s flavour', (flavor) => {
  let sb: StoreSandbox;
  let api: StoreClient;

  beforeAll(async () => {
    sb = await startStoreSandbox({ flavor });
    api = new StoreClient(sb);
  });
  afterAll(() => sb.close());

  describe('what both flavours do alike', () => {
    test('a demo pet by id; 404 for an id with no pet', async () => {
      const r = await api.get('/pet/1');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: 1, name: 'Rex', status: 'available', category: { id: 1, name: 'Dogs' }, photoUrls: [`${sb.origin}/images/demo/rex.svg`] });
      expect(r.body.tags.map((t: { name: string }) => t.name)).toEqual(['friendly', 'tag1']);
      expect((await api.get('/pet/99999')).status).toBe(404);
    });

    test('one status, one tag', async () => {
      expect(ids(await api.get('/pet/findByStatus?status=sold'))).toEqual([17, 18, 19, 20]);
      expect(ids(await api.get('/pet/findByTags?tags=talks'))).toEqual([7, 14, 19]);
      expect(ids(await api.get('/pet/findByTags?tags=nobody-has-this'))).toEqual([]);
    });

    test('a pet created with its id reads back as sent; a pet deleted is gone', async () => {
      const r = await api.post('/pet', { id: 700001, name: 'Chosen', photoUrls: ['https://example.com/c.jpg'], status: 'pending' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ id: 700001, name: 'Chosen', photoUrls: ['https://example.com/c.jpg'], status: 'pending' });
      expect((await api.get('/pet/700001')).body).toMatchObject({ id: 700001, name: 'Chosen' });
      expect((await api.delete('/pet/700001')).status).toBe(200);
      expect((await api.get('/pet/700001')).status).toBe(404);
    });
  });

  if (flavor === 'spec') {
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
  }

  if (flavor === 'real') {
    describe('find (GET /pet/findByStatus, /pet/findByTags), as Petstore behind inflector', () => {
      test('ONE status per call: several joined by commas are refused with inflector\'s 400', async () => {
        expect(statuses(await api.get('/pet/findByStatus?status=pending'))).toEqual(['pending']);
        expectInputError(
          await api.get('/pet/findByStatus?status=available,pending,sold'),
          'query parameter `status value `available,pending,sold` is not in the allowable values `[available, pending, sold]`',
        );
        expectInputError(await api.get('/pet/findByStatus?status=lost'), 'query parameter `status value `lost` is not in the allowable values `[available, pending, sold]`');
        expectInputError(await api.get('/pet/findByStatus?status='), 'query parameter `status value `` is not in the allowable values `[available, pending, sold]`');
      });

      test('a repeated status counts its first value; none at all is Petstore\'s 400 (the default is never applied)', async () => {
        expect(ids(await api.get('/pet/findByStatus?status=sold&status=pending'))).toEqual([17, 18, 19, 20]);
        expectText(await api.get('/pet/findByStatus'), 400, 'No status provided. Try again?');
      });

      test('the list keeps Petstore\'s order and its malformed rows (a pet without a name is sent without one)', async () => {
        const available = await api.get('/pet/findByStatus?status=available');
        expect(ids(available)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, MALFORMED_PET_ID]);
        const malformed = (available.body as unknown as Record<string, unknown>[]).at(-1);
        expect(malformed).toEqual({ id: MALFORMED_PET_ID, photoUrls: [], tags: [], status: 'available' });
        expect((await api.get(`/pet/${PLACEHOLDER_PET_ID}`)).body).toEqual({
          id: PLACEHOLDER_PET_ID,
          category: { id: 0 },
          name: 'doggie',
          photoUrls: ['url1', 'url2'],
          tags: [{ id: 0, name: 'string' }],
          status: 'pending',
        });
      });

      test('tags: each repeated value is one tag, compared exactly; `a,b` is one tag; a pet comes once per matching tag', async () => {
        expect(ids(await api.get('/pet/findByTags?tags=talks&tags=indoor'))).toEqual([4, 6, 7, 14, 18, 19]);
        expect(ids(await api.get('/pet/findByTags?tags=talks,indoor'))).toEqual([]);
        expect(ids(await api.get('/pet/findByTags?tags=TALKS'))).toEqual([]);
        // Luna is friendly AND indoor: Petstore adds her once per match
        expect(ids(await api.get('/pet/findByTags?tags=friendly&tags=indoor')).filter((id) => id === 4)).toEqual([4, 4]);
        expectText(await api.get('/pet/findByTags'), 400, 'No tags provided. Try again?');
        expectText(await api.get('/pet/findByTags?tags='), 400, 'No tags provided. Try again?');
      });
    });

    describe('create and update (POST, PUT /pet), stored as sent', () => {
      test('nothing is made up: no tag or category ids (0, Java\'s default), no status; nothing is checked', async () => {
        const r = await api.post('/pet', { id: 700002, name: 'Pixel', photoUrls: ['not an address'], category: { name: 'Dogs' }, tags: [{ name: 'friendly' }], extra: 'ignored' });
        expect(r.status, r.text).toBe(200);
        expect(r.type).toContain('application/json');
        expect(r.body).toEqual({ id: 700002, category: { id: 0, name: 'Dogs' }, name: 'Pixel', photoUrls: ['not an address'], tags: [{ id: 0, name: 'friendly' }] });
        const nameless = await api.post('/pet', { id: 700003, status: 'unknown' });
        expect(nameless.body).toEqual({ id: 700003, photoUrls: [], tags: [], status: 'unknown' });
        expect((await api.post('/pet', { id: '700004', name: 42, photoUrls: [] })).body).toMatchObject({ id: 700004, name: '42' }); // Jackson's coercions
      });

      test('a pet without id cannot be added to a list that has pets: Petstore throws (500) and stores nothing', async () => {
        const before = (await api.get('/pet/findByStatus?status=available')).body as unknown as unknown[];
        expectInternalError(await api.post('/pet', { name: 'No id', photoUrls: [], status: 'available' }));
        expect((await api.get('/pet/findByStatus?status=available')).body).toHaveLength(before.length);
      });

      test('an id already there replaces that pet', async () => {
        await api.post('/pet', { id: 700005, name: 'First', photoUrls: [], status: 'sold' });
        await api.post('/pet', { id: 700005, name: 'Second', photoUrls: [] });
        expect((await api.get('/pet/700005')).body).toEqual({ id: 700005, name: 'Second', photoUrls: [], tags: [] });
        expect(ids(await api.get('/pet/findByStatus?status=sold'))).not.toContain(700005);
      });

      test('PUT replaces the whole pet (what the body leaves out is gone); 404 text for none; no id is a 500', async () => {
        await api.post('/pet', { id: 700006, name: 'Before', category: { id: 1, name: 'Dogs' }, photoUrls: ['a.jpg'], tags: [{ id: 3, name: 'x' }], status: 'pending' });
        const r = await api.put('/pet', { id: 700006, name: 'After', photoUrls: [] });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({ id: 700006, name: 'After', photoUrls: [], tags: [] });
        expect((await api.get('/pet/700006')).body).toEqual(r.body);
        expectText(await api.put('/pet', { id: 987654, name: 'X', photoUrls: [] }), 404, 'Pet not found');
        expectInternalError(await api.put('/pet', { name: 'No id', photoUrls: [] }));
      });

      test('a body Jackson cannot read is inflector\'s 400; one missing, too; anything but JSON is a 415', async () => {
        expectInputError(await api.post('/pet', '{not json'), 'unable to convert input to io.swagger.petstore.model.Pet');
        expectInputError(await api.post('/pet', [1, 2]), 'unable to convert input to io.swagger.petstore.model.Pet');
        expectInputError(await api.post('/pet', { id: 'seven', name: 'X' }), 'unable to convert input to io.swagger.petstore.model.Pet');
        expectInputError(await api.post('/pet', { id: 1, photoUrls: 'x.jpg' }), 'unable to convert input to io.swagger.petstore.model.Pet');
        const missing = await api.post('/pet', '');
        expect(missing.status).toBe(400);
        expect(missing.body.message).toMatch(/^Input error: The input body `class RequestBody .*` is required$/);
        const xmlish = await api.post('/pet', '<pet/>', { 'content-type': 'text/plain' });
        expect(xmlish.status).toBe(415);
        expect(xmlish.body).toEqual({ code: 415, message: 'HTTP 415 Unsupported Media Type' });
      });
    });

    describe('get and delete (/pet/{petId})', () => {
      test('any long is an id (0 and negatives look for a pet and find none); anything else is inflector\'s 400', async () => {
        expectText(await api.get('/pet/0'), 404, 'Pet not found');
        expectText(await api.get('/pet/-1'), 404, 'Pet not found');
        for (const bad of ['abc', '1.5', '1e3', '99999999999999999999']) {
          expectInputError(await api.get(`/pet/${bad}`), `couldn't convert \`${bad}\` to type \`class java.lang.Long\``);
        }
      });

      test('a text without a type of its own is labelled as the Accept header asks, else as the last declared type (XML)', async () => {
        expect((await api.get('/pet/424242', { accept: 'application/json' })).type).toBe('application/json');
        expect((await api.get('/pet/424242', { accept: '*/*' })).type).toBe('application/xml');
      });

      test('delete answers 200 "Pet deleted" (plain text, typed JSON) whether or not there was a pet', async () => {
        await api.post('/pet', { id: 700007, name: 'Doomed', photoUrls: [] });
        const r = await api.delete('/pet/700007');
        expectText(r, 200, 'Pet deleted');
        expect(r.type).toBe('application/json');
        expect(() => JSON.parse(r.text)).toThrow();
        expectText(await api.get('/pet/700007'), 404, 'Pet not found');
        expectText(await api.delete('/pet/700007'), 200, 'Pet deleted');
        expectText(await api.delete('/pet/123456789'), 200, 'Pet deleted');
      });

      test('unknown paths and methods are Jersey\'s, in inflector\'s ApiError', async () => {
        const none = await api.get('/nothing/here');
        expect(none.status).toBe(404);
        expect(none.body).toEqual({ code: 404, message: 'HTTP 404 Not Found' });
        expect((await api.delete('/pet')).body).toEqual({ code: 405, message: 'HTTP 405 Method Not Allowed' });
      });

      test('updatePetWithForm (POST /pet/{petId}): name and status from the query', async () => {
        await api.post('/pet', { id: 700008, name: 'Old', photoUrls: ['p.jpg'], status: 'available' });
        const r = await api.post('/pet/700008?name=New&status=sold', '', { 'content-type': 'application/x-www-form-urlencoded' });
        expect(r.body).toEqual({ id: 700008, name: 'New', photoUrls: ['p.jpg'], tags: [], status: 'sold' });
        expectText(await api.post('/pet/700008', ''), 400, 'No Name provided. Try again?');
      });
    });

    describe('uploadImage (POST /pet/{petId}/uploadImage)', () => {
      test('octet-stream: a server-local temporary path lands in photoUrls; the answer is the Pet', async () => {
        const r = await api.post('/pet/2/uploadImage?additionalMetadata=front', new Uint8Array(PNG), { 'content-type': 'application/octet-stream' });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toMatchObject({ id: 2, name: 'Bella', status: 'available' });
        const added = (r.body.photoUrls as string[]).at(-1)!;
        expect(added).toMatch(/^\/tmp\/inflector\d+\.tmp$/);
        expect((await api.get('/pet/2')).body.photoUrls).toEqual(r.body.photoUrls);
        expect(r.body).not.toHaveProperty('code');
      });

      test('no body: 400 "No file uploaded" (before the pet is looked for); no pet: 404; other types: 415', async () => {
        expectText(await api.post('/pet/424242/uploadImage', new Uint8Array(0), { 'content-type': 'application/octet-stream' }), 400, 'No file uploaded');
        expectText(await api.post('/pet/424242/uploadImage', new Uint8Array(PNG), { 'content-type': 'application/octet-stream' }), 404, 'Pet not found');
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cat.png');
        const multipart = await fetch(`${sb.url}/pet/4/uploadImage`, { method: 'POST', body: form });
        expect(multipart.status).toBe(415);
        expectInputError(await api.post('/pet/x/uploadImage', new Uint8Array(PNG), { 'content-type': 'application/octet-stream' }), "couldn't convert `x` to type `class java.lang.Long`");
      });
    });

    describe('what Petstore does not have', () => {
      test('no authentication: anonymous calls, unknown keys and odd Authorization headers all go through', async () => {
        expect((await api.as({ none: true }).get('/pet/1')).status).toBe(200);
        expect((await api.as({ apiKey: 'sk_free_nope' }).post('/pet', { id: 700009, name: 'A', photoUrls: [] })).status).toBe(200);
        expect((await api.as({ bearer: 'nope' }).delete('/pet/700009')).status).toBe(200);
        expect((await api.get('/pet/1', { api_key: '', Authorization: 'Basic abc' })).status).toBe(200);
      });

      test('no webhook is sent for a created pet', async () => {
        const receiver = await recordingServer();
        try {
          sb.webhooks.register({ url: receiver.url });
          await api.post('/pet', { id: 700010, name: 'Hooked', photoUrls: [] });
          await sb.webhooks.settled();
          expect(receiver.received).toEqual([]);
        } finally {
          sb.webhooks.clear();
          await receiver.close();
        }
      });
    });
  }
});

describe('real flavour: a pet without id in an empty store (PetData.addPet skips its loop)', () => {
  test('it is stored, but its answer and every later list, lookup past it and add throw (500)', async () => {
    const sb = await startStoreSandbox({ flavor: 'real', seed: 'empty' });
    try {
      const api = new StoreClient(sb);
      expect(await api.get('/pet/findByStatus?status=available').then((r) => r.body)).toEqual([]);
      expectInternalError(await api.post('/pet', { name: 'Idless', photoUrls: [], status: 'available' }));
      expect(sb.data.pets()).toEqual([{ id: null, category: null, name: 'Idless', photoUrls: [], tags: [], status: 'available' }]);
      expectInternalError(await api.get('/pet/findByStatus?status=available'));
      expectInternalError(await api.get('/pet/1'));
      expectInternalError(await api.post('/pet', { id: 5, name: 'After', photoUrls: [] }));
      expect((await api.get('/pet/findByStatus?status=sold')).body).toEqual([]); // a list that does not include it still works
    } finally {
      await sb.close();
    }
  });
});
