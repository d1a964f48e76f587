/**
 * The CMS sandbox's two-factor and API-key routes over real HTTP: a generated secret whose QR code
 * a reader decodes (the documents' PNG, the real service's SVG) to the otpauth URI of that secret,
 * enabling with a real TOTP code by the owner only, disabling by the owner with a code or forced by
 * a user manager, the 500 without 2FA support; API keys listed without secrets, minted with name,
 * scopes and expiry (the key itself once), keys that sign in with their scopes enforced and stop at
 * their expiry or revocation, a scoped key that cannot mint a wider one. Every status code of each
 * route, both flavours (the documents' 400 is the real service's 422).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, read, type Json, type Reply } from '../sandbox/cms/test-client';
import { totp } from '../sandbox/cms/totp';
import { readQrPng, readQrSvg } from '../sandbox/cms/users/qr-read';
import { flavors } from '../support/flavors';

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  const BAD = real ? 422 : 400;

  let sb: CmsSandbox;
  let admin: SandboxClient;
  const code = (secret: string, deltaMs = 0) => totp(secret.replace(/\s/g, ''), sb.clock.now() + deltaMs);
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    admin = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());
  beforeEach(() => {
    sb.events.clear();
    sb.settings.twofaAvailable = true;
  });

  describe('two-factor', () => {
    test('generate: a grouped secret and a QR code that reads back as its otpauth URI; enrolment starts over', async () => {
      const r = await (await admin.keyFor('viewer')).post('/users/viewer/2fa');
      expect(r.status, r.text).toBe(200);
      const { secret, qr_code } = r.body.data as { secret: string; qr_code: string };
      expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
      const [head, b64] = qr_code.split(',') as [string, string];
      expect(head).toBe(real ? 'data:image/svg+xml;base64' : 'data:image/png;base64');
      const image = Buffer.from(b64, 'base64');
      const text = real ? readQrSvg(image.toString('utf8')) : readQrPng(image);
      const uri = new URL(text);
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.host).toBe('totp');
      expect(decodeURIComponent(uri.pathname)).toBe('/Sitedesk sandbox:viewer');
      expect(uri.searchParams.get('issuer')).toBe('Sitedesk sandbox');
      expect(uri.searchParams.get('secret')).toBe(secret.replace(/ /g, ''));
      expect(uri.searchParams.get('digits')).toBe('6');
      const user = (await admin.get('/users/viewer')).body.data as Json;
      expect(user).toMatchObject({ twofa_enabled: false, twofa_secret: true });
      // a second generate replaces the secret
      const again = (await (await admin.keyFor('viewer')).post('/users/viewer/2fa')).body.data.secret as string;
      expect(again).not.toBe(secret);
    });

    test('enable: owner only, with a code of the stored secret; then signing in asks for the code; fires onApiUser2faEnabled', async () => {
      const viewer = await admin.keyFor('viewer');
      const { secret } = (await viewer.post('/users/viewer/2fa')).body.data as { secret: string };
      expect(expectProblem(await admin.post('/users/viewer/2fa/enable', { code: code(secret) }), 403).detail).toBe('Only the account owner can enable 2FA.');
      expect(expectProblem(await viewer.post('/users/viewer/2fa/enable', {}), BAD).detail).toBe('Missing required fields: code');
      expect(expectProblem(await viewer.post('/users/viewer/2fa/enable', { code: code(secret, 5 * 60_000) }), BAD).detail).toBe('Invalid 2FA code.');
      expect(sb.events.list('onApiUser2faEnabled')).toEqual([]);
      const ok = await viewer.post('/users/viewer/2fa/enable', { code: code(secret) });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual({ data: { twofa_enabled: true } });
      expect(sb.events.list('onApiUser2faEnabled')).toEqual([expect.objectContaining({ data: { user: expect.objectContaining({ username: 'viewer' }) } })]);
      const login = await read(await fetch(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'viewer', password: sb.seeded!.passwords.viewer }) }));
      expect(login.body.data).toMatchObject({ requires_2fa: true });
      const verified = await read(await fetch(`${sb.url}/auth/2fa/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge_token: login.body.data.challenge_token, code: code(secret) }) }));
      expect(verified.status, verified.text).toBe(200);
    });

    test('enable before any secret is 400/422; 404; 401', async () => {
      const lena = await admin.keyFor('lena.novak');
      expect(expectProblem(await lena.post('/users/lena.novak/2fa/enable', { code: '123456' }), BAD).detail).toBe('2FA secret has not been generated. POST /users/{username}/2fa first.');
      expectProblem(await admin.post('/users/nobody/2fa/enable', { code: '123456' }), 404);
      expectProblem(await admin.as({ none: true }).post('/users/viewer/2fa/enable', { code: '123456' }), 401);
    });

    test('self disable needs the current code; fires onApiUser2faDisabled, not forced', async () => {
      const hiro = await admin.keyFor('hiro.tanaka');
      const { secret } = (await hiro.post('/users/hiro.tanaka/2fa')).body.data as { secret: string };
      await hiro.post('/users/hiro.tanaka/2fa/enable', { code: code(secret) });
      expectProblem(await hiro.post('/users/hiro.tanaka/2fa/disable', {}), BAD);
      expect(expectProblem(await hiro.post('/users/hiro.tanaka/2fa/disable', { code: '000000' === code(secret) ? '111111' : '000000' }), BAD).detail).toBe('Invalid 2FA code.');
      sb.events.clear();
      const ok = await hiro.post('/users/hiro.tanaka/2fa/disable', { code: code(secret) });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual({ data: { twofa_enabled: false } });
      expect(sb.events.list('onApiUser2faDisabled')).toEqual([expect.objectContaining({ data: { user: expect.objectContaining({ username: 'hiro.tanaka' }), forced_by_admin: false } })]);
      expect((await admin.get('/users/hiro.tanaka')).body.data).toMatchObject({ twofa_enabled: false, twofa_secret: false });
    });

    test('forced disable by a user manager without a code; not by others, not by a key without the api.users.write scope, not on a super account', async () => {
      // bruno.keller has 2FA from the seed
      expectProblem(await (await admin.keyFor('lena.novak')).post('/users/bruno.keller/2fa/disable'), 403);
      expectProblem(await (await admin.keyFor('admin', { scopes: ['api.users.read'] })).post('/users/bruno.keller/2fa/disable'), 403);
      const r = await (await admin.keyFor('esther.cohen')).post('/users/bruno.keller/2fa/disable');
      expect(r.status, r.text).toBe(200);
      expect(sb.events.list('onApiUser2faDisabled')).toEqual([expect.objectContaining({ data: { user: expect.objectContaining({ username: 'bruno.keller' }), forced_by_admin: true } })]);
      expect((await admin.get('/users/bruno.keller')).body.data).toMatchObject({ twofa_enabled: false, twofa_secret: false });
      expect(expectProblem(await (await admin.keyFor('esther.cohen')).post('/users/ines.silva/2fa/disable'), 403).detail).toBe('Only super-admins can manage super-admin accounts.');
      expect((await admin.post('/users/ines.silva/2fa/disable')).status).toBe(200);
      expectProblem(await admin.post('/users/nobody/2fa/disable'), 404);
      expectProblem(await admin.as({ none: true }).post('/users/bruno.keller/2fa/disable'), 401);
    });

    test('generate for another account needs api.users.write, and a super target a super caller; 404; 401', async () => {
      expectProblem(await (await admin.keyFor('lena.novak')).post('/users/alice.martin/2fa'), 403);
      expect((await (await admin.keyFor('esther.cohen')).post('/users/alice.martin/2fa')).status).toBe(200);
      expectProblem(await (await admin.keyFor('esther.cohen')).post('/users/ines.silva/2fa'), 403);
      expectProblem(await admin.post('/users/nobody/2fa'), 404);
      expectProblem(await admin.as({ none: true }).post('/users/alice.martin/2fa'), 401);
    });

    test('500 without the login plugin\'s 2FA support', async () => {
      sb.settings.twofaAvailable = false;
      const p = expectProblem(await (await admin.keyFor('viewer')).post('/users/viewer/2fa'), 500);
      expect(p).toMatchObject({ title: '2FA Not Available', detail: 'The Login plugin with 2FA support must be installed.' });
      expectProblem(await (await admin.keyFor('viewer')).post('/users/viewer/2fa/enable', { code: '123456' }), 500);
      expectProblem(await (await admin.keyFor('farid.haddad')).post('/users/farid.haddad/2fa/disable', { code: '123456' }), 500);
      if (real) expect((await admin.get('/users/viewer')).body.data.twofa_global_enabled).toBe(false);
    });
  });

  describe('API keys', () => {
    test('create: 201 with the raw key once, name, scopes, expiry; the list never shows it again', async () => {
      const viewer = await admin.keyFor('viewer');
      const before = (await viewer.get('/users/viewer/api-keys')).body.data as Json[];
      const t0 = sb.clock.nowSec();
      const r = await viewer.post('/users/viewer/api-keys', { name: 'ci', scopes: ['api.pages.read'], expiry_days: 30 });
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get('location')).toBe(`${sb.prefix}/users/viewer/api-keys`);
      expect(r.headers.get('x-invalidates')).toBe(real ? 'users:update:viewer:api-keys' : null);
      const key = r.body.data as Json;
      expect(Object.keys(key)).toEqual(['id', 'name', 'prefix', 'scopes', 'active', 'created', 'last_used', 'expires', 'api_key']);
      expect(key).toMatchObject({ name: 'ci', scopes: ['api.pages.read'], active: true, last_used: null });
      expect(key.created).toBeGreaterThanOrEqual(t0);
      expect(key.created).toBeLessThanOrEqual(sb.clock.nowSec());
      expect(key.expires).toBe((key.created as number) + 30 * 86400);
      expect(key.api_key).toMatch(/^grav_[0-9a-f]{40}$/);
      expect(key.prefix).toBe(`${(key.api_key as string).slice(0, 12)}...`);
      const list = await viewer.get('/users/viewer/api-keys');
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(before.length + 1);
      expect(list.text).not.toContain(key.api_key);
      expect(list.text).not.toMatch(/"hash"|api_key/);
      const unnamed = (await viewer.post('/users/viewer/api-keys', {})).body.data as Json;
      expect(unnamed).toMatchObject({ name: 'API Key', scopes: [], expires: null });
    });

    test('a key signs in, its scopes capped even on a super account; it stops at its expiry and at revocation', async () => {
      const minted = (await admin.post('/users/admin/api-keys', { name: 'read pages', scopes: ['api.pages.read'], expiry_days: 1 })).body.data as Json;
      const key = admin.as({ apiKey: minted.api_key as string });
      const firstUse = sb.clock.nowSec();
      expect((await key.get('/pages?per_page=1')).status).toBe(200);
      expect(expectProblem(await key.get('/users'), 403).detail).toBe('API key is not authorized for: api.access');
      const listed = ((await admin.get('/users/admin/api-keys')).body.data as Json[]).find((k) => k.id === minted.id)!;
      expect(listed.last_used).toBeGreaterThanOrEqual(firstUse);
      expect(listed.last_used).toBeLessThanOrEqual(sb.clock.nowSec());
      sb.clock.advance(86400 * 1000 + 1000);
      expectProblem(await key.get('/pages?per_page=1'), 401);
      const other = (await admin.post('/users/admin/api-keys', { name: 'short-lived' })).body.data as Json;
      const del = await admin.delete(`/users/admin/api-keys/${other.id}`);
      expect(del.status, del.text).toBe(204);
      expect(del.headers.get('x-invalidates')).toBe(real ? 'users:update:admin:api-keys' : null);
      expectProblem(await admin.as({ apiKey: other.api_key as string }).get('/me'), 401);
      expect(expectProblem(await admin.delete(`/users/admin/api-keys/${other.id}`), 404).detail).toBe(`API key '${other.id}' not found for user 'admin'.`);
    });

    test('a scoped key mints only keys within its scopes, never an unscoped one', async () => {
      const scoped = await admin.keyFor('admin', { scopes: ['api.access', 'api.pages'] });
      expect(expectProblem(await scoped.post('/users/admin/api-keys', { name: 'wide' }), 403).detail).toBe('A scoped API key cannot create an unscoped key.');
      expect(expectProblem(await scoped.post('/users/admin/api-keys', { scopes: ['api.users.write'] }), 403).detail).toBe('API key cannot grant a scope outside its own: api.users.write');
      expect((await scoped.post('/users/admin/api-keys', { scopes: ['api.pages.read'] })).status).toBe(201);
    });

    test('422 for scopes that are not a list of names, or an expiry that is not whole days', async () => {
      for (const body of [{ scopes: 'api.pages.read' }, { scopes: [42] }, { scopes: ['has space'] }, { expiry_days: 0 }, { expiry_days: 1.5 }, { expiry_days: '30' }, { name: ['x'] }]) {
        expectProblem(await admin.post('/users/viewer/api-keys', body), 422);
      }
    });

    test('another account\'s keys: list with api.users.read, mint and revoke with api.users.write, never a super account\'s by a non-super; 404; 401', async () => {
      const lena = await admin.keyFor('lena.novak');
      const esther = await admin.keyFor('esther.cohen');
      expect((await lena.get('/users/alice.martin/api-keys')).status).toBe(200);
      expectProblem(await (await admin.keyFor('alice.martin')).get('/users/lena.novak/api-keys'), 403);
      expectProblem(await lena.post('/users/alice.martin/api-keys', { name: 'x' }), 403);
      const made = await esther.post('/users/alice.martin/api-keys', { name: 'for alice' });
      expect(made.status, made.text).toBe(201);
      expectProblem(await lena.delete(`/users/alice.martin/api-keys/${made.body.data.id}`), 403);
      expect((await esther.delete(`/users/alice.martin/api-keys/${made.body.data.id}`)).status).toBe(204);
      expectProblem(await esther.post('/users/ines.silva/api-keys', { name: 'takeover' }), 403);
      const ines = (await admin.post('/users/ines.silva/api-keys', { name: 'by a super' })).body.data as Json;
      expectProblem(await esther.delete(`/users/ines.silva/api-keys/${ines.id}`), 403);
      // a key id of another account is not found under this one
      expectProblem(await admin.delete(`/users/alice.martin/api-keys/${ines.id}`), 404);
      for (const r of [await admin.get('/users/nobody/api-keys'), await admin.post('/users/nobody/api-keys', {}), await admin.delete('/users/nobody/api-keys/abc')]) expectProblem(r, 404);
      const anon = admin.as({ none: true });
      for (const r of [await anon.get('/users/viewer/api-keys'), await anon.post('/users/viewer/api-keys', {}), await anon.delete(`/users/ines.silva/api-keys/${ines.id}`)]) expectProblem(r, 401);
    });
  });
});
