/**
 * The one rule for names that become a path segment (contract/names.ts, api/url-path.ts): `.`,
 * `..`, separators and control characters are refused, real names (dots inside, spaces, letters
 * of any language) are not. Store usernames (review L1): `.`, `..` and the store's own routes under
 * /user (`login`, `logout`, `createWithList`) cannot address a user, at the contract and in the
 * API module, before any request.
 */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { MediaDelete, MediaUpload, PetUpload, Route, StoreLogin, UserRef, segmentProblem } from '../../electron/contract';
import { routePath, segment, assertNoClimb } from '../../electron/api/url-path';
import { storeUsers } from '../../electron/api/store/users';
import { Transport } from '../../electron/api/transport';
import { fakeFetch } from './support/recorded-replies';

const siteId = '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f';
const ok = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success;

describe('names that become a path segment', () => {
  const refused = ['', '.', '..', 'a/b', 'a\\b', '\u0000', 'a\rb', 'a\nb', 'a\tb', 'a\u007fb', 'a\u0085b'];
  const legal = ['photo.v2.jpg', 'my photo (1).png', 'über-uns', '写真.jpg', '...', 'a..b', '.hidden', 'x.'];

  test.each(refused)('refused: %j', (name) => {
    expect(segmentProblem(name)).not.toBeNull();
    expect(ok(MediaDelete, { siteId, route: '/a', filename: name })).toBe(false);
    expect(() => segment(name)).toThrow();
  });

  test.each(legal)('legal: %j', (name) => {
    expect(segmentProblem(name)).toBeNull();
    expect(ok(MediaDelete, { siteId, route: '/a', filename: name })).toBe(true);
    expect(segment(name)).toBe(encodeURIComponent(name));
  });

  test('an upload’s file name is trimmed first, a deleted one is taken as the site named it', () => {
    const upload = v.parse(MediaUpload, { siteId, route: '/a', uploadId: 'u', filename: ' a.png ', type: 'image/png' });
    expect(upload.filename).toBe('a.png');
    expect(v.parse(MediaDelete, { siteId, route: '/a', filename: ' a.png' }).filename).toBe(' a.png');
    expect(ok(PetUpload, { siteId, petId: 1, uploadId: 'u', filename: '..', type: 'image/png', data: 'AA==' })).toBe(false);
  });

  test('routes: every segment by the same rule', () => {
    for (const r of ['/a/..', '/a/.', '/a\u0001', '/a\\b', '/a//b']) expect(ok(Route, r), r).toBe(false);
    for (const r of ['/about/our team', '/blog/2024.01.post', '/über-uns']) expect(ok(Route, r), r).toBe(true);
    expect(() => routePath('/a/../b')).toThrow();
    expect(routePath('/about/our team')).toBe('about/our%20team');
  });

  test('a finished path with a dot segment, plain or encoded, is refused by the transport', () => {
    for (const p of ['/pages/a/..', '/pages/%2e%2E/x', '/pages/./x', '/a/.%2e']) expect(() => assertNoClimb(p), p).toThrow();
    for (const p of ['/pages/a.b', '/pages/...', '/pages/a?x=..']) expect(() => assertNoClimb(p), p).not.toThrow();
  });
});

describe('store usernames', () => {
  test('., .. and the store’s own routes cannot address a user', () => {
    for (const username of ['.', '..', 'login', 'logout', 'createWithList']) expect(ok(UserRef, { siteId, username }), username).toBe(false);
    for (const username of ['john.doe', 'Login', 'user_1', 'a-b']) expect(ok(UserRef, { siteId, username }), username).toBe(true);
  });

  test('signing in sends the name in the query: a user called login may sign in', () => {
    expect(ok(StoreLogin, { siteId, username: 'login', password: 'x' })).toBe(true);
  });

  test('the API module refuses them before any request', async () => {
    const f = fakeFetch(() => ({ status: 200, body: {} }));
    const t = new Transport({ baseUrl: 'https://store.example.com/api/v3', fetch: f.fetchImpl, retryDelaysMs: [] });
    for (const username of ['..', '.', 'logout', 'login', 'a/b']) {
      await expect(storeUsers.get(t, username), username).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(storeUsers.remove(t, username), username).rejects.toMatchObject({ code: 'invalid_input' });
    }
    expect(f.seen).toEqual([]);
  });
});
