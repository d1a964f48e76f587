/**
 * The CMS sandbox's authentication part (spec document 1, sections 2–5, 7, 8), over real HTTP on
 * loopback: every auth route with every status code the spec lists, credentials, rate limits, the
 * knobs tests use (clock, lifetimes, faults) both in-process and through the control routes.
 * Every test runs against both flavours; where the real Grav API plugin answers otherwise (the
 * flat access map, `demo_mode`, `grav_version`, 422 for missing fields, 403 at login, its token
 * claims, logout revoking the access token, one 401 for every bad credential), each flavour's own
 * answer is asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox, type CmsSandboxOptions } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS, DEMO_TOTP_SECRET } from '../sandbox/cms/seed';
import { Faults } from '../sandbox/faults';
import { base32Encode, totp, verifyTotp } from '../sandbox/cms/totp';
import { expectProblem, read, type Json } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { tempDir } from '../support/tmp';

const running: CmsSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function post(sb: CmsSandbox, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(sb.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

function get(sb: CmsSandbox, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(sb.url + path, { headers });
}

/** expectProblem of the answer to a request made here with fetch. */
const problemOf = async (res: Response | Promise<Response>, status: number): Promise<Json> => expectProblem(await read(await res), status);

async function login(sb: CmsSandbox, username = 'admin', password: string = DEMO_ACCOUNTS.admin.password): Promise<Json> {
  const r = await read(await post(sb, '/auth/token', { username, password }));
  expect(r.status, r.text).toBe(200);
  return r.body.data as Json;
}

async function challenge(sb: CmsSandbox): Promise<string> {
  const data = await login(sb, 'editor', DEMO_ACCOUNTS.editor.password);
  expect(data.requires_2fa).toBe(true);
  return data.challenge_token as string;
}

const claims = (jwt: string): Json => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Json;
const code = (sb: CmsSandbox, deltaMs = 0) => totp(DEMO_TOTP_SECRET, sb.clock.now() + deltaMs);
const tokenHeader = (token: string) => ({ 'X-API-Token': token });

/** The real service's flat access map of an account holding exactly `granted` (recordings 05–09). */
const REAL_PERMISSIONS = ['api.super', 'api.access', 'api.demo', 'api.pages', 'api.pages.read', 'api.pages.write', 'api.media', 'api.media.read', 'api.media.write', 'api.config', 'api.config.read', 'api.config.write', 'api.users', 'api.users.read', 'api.users.write', 'api.system', 'api.system.read', 'api.system.write', 'api.system.backup', 'api.gpm', 'api.gpm.read', 'api.gpm.write', 'api.scheduler', 'api.scheduler.read', 'api.scheduler.write', 'api.reports', 'api.reports.read', 'api.webhooks', 'api.webhooks.read', 'api.webhooks.write'];
const flatMap = (granted: string[] | 'all') => Object.fromEntries(REAL_PERMISSIONS.map((p) => [p, granted === 'all' || granted.includes(p)]));
const NO_CREDENTIALS = 'No valid authentication credentials provided. Use an API key, JWT token, or active session.';

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  /** the documents' 400 is the real service's 422 */
  const BAD = real ? 422 : 400;
  /** a password the real service's default policy takes (a digit, lower and upper case, 8+) */
  const PASSWORD = real ? 'Long-enough-1' : 'long-enough';

    async function sandbox(opts: CmsSandboxOptions = {}): Promise<CmsSandbox> {
      const s = await startCmsSandbox({ flavor, ...opts });
      running.push(s);
      return s;
    }

    function expectTokenPair(data: Json, username: string, sb: CmsSandbox) {
      expect(data).toMatchObject({ token_type: 'Bearer', expires_in: sb.settings.accessTtl, user: { username } });
      for (const [token, typ] of [
        [data.access_token, 'access'],
        [data.refresh_token, 'refresh'],
      ] as const) {
        expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
        const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
        if (real) {
          // the plugin's firebase/php-jwt tokens: `{typ, alg}`, `type`, issuer grav-api, a hex jti
          expect(Object.keys(header)).toEqual(['typ', 'alg']);
          expect(claims(token)).toEqual({ iss: 'grav-api', sub: username, iat: expect.any(Number), exp: expect.any(Number), type: typ, jti: expect.stringMatching(/^[0-9a-f]{32}$/) });
        } else {
          expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
          expect(claims(token)).toMatchObject({ sub: username, typ, jti: expect.any(String), iat: expect.any(Number), exp: expect.any(Number) });
        }
      }
      const keys = ['access', 'avatar_url', 'content_editor', 'email', 'fullname', 'super_admin', 'username'];
      expect(Object.keys(data.user).sort()).toEqual(real ? [...keys, 'demo_mode'].sort() : keys);
    }

  describe('totp', () => {
    test('RFC 6238 test vector (SHA-1), base32 round trip, ±1 step window', () => {
      const secret = base32Encode(Buffer.from('12345678901234567890'));
      expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
      expect(totp(secret, 59_000)).toBe('287082'); // 94287082 in the RFC's 8-digit table
      expect(totp(secret, 1111111109_000)).toBe('081804'); // 07081804
      expect(totp(secret, 20000000000_000)).toBe('353130'); // 65353130
      const now = 1_700_000_000_000;
      expect(verifyTotp(secret, totp(secret, now - 30_000), now)).toBe(true);
      expect(verifyTotp(secret, totp(secret, now + 30_000), now)).toBe(true);
      expect(verifyTotp(secret, totp(secret, now + 60_000), now)).toBe(false);
      expect(verifyTotp(secret, '12345', now)).toBe(false);
    });
  });

  describe('GET/POST /auth/setup', () => {
    test('setup_required only while no account exists; field rules; token pair with api.super; 409 once done', async () => {
      const sb = await sandbox({ seed: 'empty', limits: { setup: { limit: 50, windowSec: 900 } } });
      // the real service also sends the password policy (recording 02)
      const policy = {
        regex: '(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}',
        min_length: 8,
        rules: [
          { id: 'length', label: 'At least 8 characters', pattern: '.{8,}' },
          { id: 'digit', label: 'At least one number', pattern: '\\d' },
          { id: 'lowercase', label: 'At least one lowercase letter', pattern: '[a-z]' },
          { id: 'uppercase', label: 'At least one uppercase letter', pattern: '[A-Z]' },
        ],
      };
      const status = (required: boolean) => ({ data: real ? { setup_required: required, password_policy: policy } : { setup_required: required } });
      expect((await read(await get(sb, '/auth/setup'))).body).toEqual(status(true));

      // the real service allows dots in a user name: that is the owner it sets up here
      const owner = real ? 'owner.one' : 'owner_1';
      const valid = { username: owner, password: PASSWORD, email: 'owner@example.test' };
      const fieldsOf = async (body: Json) => ((await problemOf(post(sb, '/auth/setup', body), BAD)).errors as Json[]).map((e) => e.field);
      expect(await fieldsOf({})).toEqual(['username', 'password', 'email']);
      expect(await fieldsOf({ ...valid, username: 'ab' })).toEqual(['username']);
      expect(await fieldsOf({ ...valid, username: 'x'.repeat(65) })).toEqual(['username']);
      expect(await fieldsOf({ ...valid, username: 'has space' })).toEqual(['username']);
      expect(await fieldsOf({ ...valid, username: real ? '.leading-dot' : 'dots.not.ok' })).toEqual(['username']);
      expect(await fieldsOf({ ...valid, password: 'short7!' })).toEqual(['password']);
      expect(await fieldsOf({ ...valid, email: 'not-an-email' })).toEqual(['email']);
      // the documents name every bad field; the real service stops at the first check that fails
      expect(await fieldsOf({ ...valid, username: '', email: 'x' })).toEqual(real ? ['username'] : ['username', 'email']);
      const one = await problemOf(post(sb, '/auth/setup', { ...valid, password: real ? 'long-enough' : 'short' }), BAD);
      expect(one).toMatchObject({
        detail: real ? 'Password does not meet the required policy.' : 'Password must be at least 8 characters.',
        errors: [{ field: 'password', message: expect.any(String) }],
      });
      expect((await read(await get(sb, '/auth/setup'))).body.data.setup_required).toBe(true);

      const r = await read(await post(sb, '/auth/setup', { ...valid, fullname: 'The Owner' }));
      expect(r.status, r.text).toBe(200);
      expectTokenPair(r.body.data, owner, sb);
      if (real) {
        expect(r.body.data.user).toMatchObject({ fullname: 'The Owner', super_admin: true, access: flatMap('all') });
        expect(r.body.data.user.access).not.toHaveProperty('admin.super'); // api.super, not admin.super
      } else {
        expect(r.body.data.user).toMatchObject({ fullname: 'The Owner', super_admin: true, access: { api: { super: true, access: true } } });
        expect(r.body.data.user.access.admin).toBeUndefined(); // api.super, not admin.super
      }

      const stored = sb.accounts.get(owner)!;
      expect(stored).toMatchObject({ title: 'Administrator', state: 'enabled', access: { api: { super: true } } });
      expect(JSON.stringify(stored)).not.toContain(PASSWORD);

      expect((await read(await get(sb, '/auth/setup'))).body).toEqual(status(false));
      await problemOf(post(sb, '/auth/setup', { ...valid, username: 'second' }), 409);
      // the new account can use what it got
      expect((await read(await get(sb, '/me', tokenHeader(r.body.data.access_token)))).body.data.username).toBe(owner);
    });

    test('a seeded instance is set up already', async () => {
      const sb = await sandbox();
      expect((await read(await get(sb, '/auth/setup'))).body.data.setup_required).toBe(false);
      const again = await problemOf(post(sb, '/auth/setup', { username: 'late', password: PASSWORD, email: 'l@example.test' }), 409);
      expect(again).toEqual({ status: 409, title: 'Conflict', detail: 'Setup has already been completed.' });
    });

    test('429 after too many attempts from one IP, with Retry-After; the window passes', async () => {
      const sb = await sandbox({ seed: 'empty' });
      for (let i = 0; i < 5; i++) {
        const res = await post(sb, '/auth/setup', { username: 'x' });
        // real: the login plugin's limiter says nothing; the headers are the general bucket's
        expect(res.headers.get('x-ratelimit-limit')).toBe(real ? '120' : '5');
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(real ? 119 - i : 4 - i));
        await problemOf(res, BAD);
      }
      const limited = await post(sb, '/auth/setup', { username: 'owner', password: PASSWORD, email: 'o@example.test' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      await problemOf(limited, 429);
      expect(sb.accounts.count()).toBe(0);
      sb.clock.advance(901_000);
      expect((await post(sb, '/auth/setup', { username: 'owner', password: PASSWORD, email: 'o@example.test' })).status).toBe(200);
    });
  });

  describe('POST /auth/token', () => {
    test('200: token pair with the user; lifetimes 1 hour and 7 days by default', async () => {
      const sb = await sandbox();
      const res = await post(sb, '/auth/token', { username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      expect(res.headers.get('cache-control')).toBe(real ? 'no-store, max-age=0' : 'no-store');
      const data = (await read(res)).body.data as Json;
      expectTokenPair(data, 'admin', sb);
      expect(data.expires_in).toBe(3600);
      expect(claims(data.access_token).exp - claims(data.access_token).iat).toBe(3600);
      expect(claims(data.refresh_token).exp - claims(data.refresh_token).iat).toBe(7 * 86400);
      expect(data.user).toMatchObject({ email: 'admin@example.test', fullname: 'Ada Admin', super_admin: true, avatar_url: null, content_editor: '' });
    });

    test('401 for a wrong password and an unknown user, alike; 400 (real: 422) without fields', async () => {
      const sb = await sandbox();
      const res = await post(sb, '/auth/token', { username: 'admin', password: 'nope' });
      expect(res.headers.get('www-authenticate')).toBe(real ? 'Bearer' : null);
      const wrong = await problemOf(res, 401);
      const unknown = await problemOf(post(sb, '/auth/token', { username: 'ghost', password: 'nope' }), 401);
      expect(wrong).toEqual(unknown);
      expect(wrong).toEqual({ status: 401, title: 'Unauthorized', detail: 'Invalid username or password.' });
      const missing = await problemOf(post(sb, '/auth/token', { username: 'admin' }), BAD);
      expect(missing.errors).toEqual([{ field: 'password', message: expect.any(String) }]);
    });

    test('a 2FA account gets a single-use challenge, valid 5 minutes, and no tokens', async () => {
      const sb = await sandbox();
      const data = await login(sb, 'editor', DEMO_ACCOUNTS.editor.password);
      expect(Object.keys(data).sort()).toEqual(['challenge_token', 'expires_in', 'requires_2fa', 'token_type']);
      expect(data).toMatchObject({ requires_2fa: true, expires_in: 300, token_type: 'Challenge' });
      expect(claims(data.challenge_token)).toMatchObject(real ? { sub: 'editor', type: '2fa_challenge' } : { sub: 'editor', typ: 'challenge' });
      expect(claims(data.challenge_token).exp - claims(data.challenge_token).iat).toBe(300);
      // a challenge is not an access token
      await problemOf(get(sb, '/me', tokenHeader(data.challenge_token)), 401);
    });

    test('a disabled account, or one without API access, gets 401 (real: 403)', async () => {
      const sb = await sandbox();
      await sb.accounts.update('viewer', { state: 'disabled' });
      const refused = real ? 403 : 401;
      expect((await problemOf(post(sb, '/auth/token', { username: 'viewer', password: DEMO_ACCOUNTS.viewer.password }), refused)).detail).toContain('disabled');
      await sb.accounts.create({ username: 'siteonly', password: 'site-only-pass', email: 's@example.test', access: { site: { login: true } } });
      expect((await problemOf(post(sb, '/auth/token', { username: 'siteonly', password: 'site-only-pass' }), refused)).detail).toBe('API access is not enabled for this user.');
    });

    test('the real service also signs in by email address; the documents only by user name', async () => {
      const sb = await sandbox();
      const r = await post(sb, '/auth/token', { username: 'admin@example.test', password: DEMO_ACCOUNTS.admin.password });
      if (real) expect((await read(r)).body.data.user.username).toBe('admin');
      else await problemOf(r, 401);
    });

    test('repeated wrong passwords for one username give 429 until the window passes', async () => {
      const sb = await sandbox({ limits: { login: { limit: 3, windowSec: 600 } } });
      for (let i = 0; i < 3; i++) await problemOf(post(sb, '/auth/token', { username: 'admin', password: 'bad' }), 401);
      await problemOf(post(sb, '/auth/token', { username: 'admin', password: DEMO_ACCOUNTS.admin.password }), 429);
      await login(sb, 'viewer', DEMO_ACCOUNTS.viewer.password); // other usernames are not affected
      sb.clock.advance(601_000);
      await login(sb);
    });
  });

  describe('POST /auth/2fa/verify', () => {
    test('200 with a real TOTP code; the challenge is then spent (401)', async () => {
      const sb = await sandbox();
      const ch = await challenge(sb);
      const r = await read(await post(sb, '/auth/2fa/verify', { challenge_token: ch, code: code(sb) }));
      expect(r.status, r.text).toBe(200);
      expectTokenPair(r.body.data, 'editor', sb);
      if (real) {
        // flat and complete: a parent the account does not hold itself (api.pages) is false
        expect(r.body.data.user.access).toEqual(flatMap(['api.access', 'api.pages.read', 'api.pages.write', 'api.media.read', 'api.media.write']));
        expect(r.body.data.user).toMatchObject({ super_admin: false, content_editor: 'markdown', demo_mode: { enabled: false, writable: [], reset_interval: 30, seconds_until_reset: null } });
      } else {
        expect(r.body.data.user.access).toEqual({ site: { login: true }, api: { access: true, pages: { read: true, write: true }, media: { read: true, write: true } } });
      }
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: ch, code: code(sb) }), 401);
    });

    test('a code from the previous or next 30 s step is accepted (clock drift)', async () => {
      const sb = await sandbox();
      expect((await post(sb, '/auth/2fa/verify', { challenge_token: await challenge(sb), code: code(sb, -30_000) })).status).toBe(200);
      expect((await post(sb, '/auth/2fa/verify', { challenge_token: await challenge(sb), code: code(sb, 30_000) })).status).toBe(200);
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: await challenge(sb), code: code(sb, 90_000) }), 401);
    });

    test('400 (real: 422) for a missing field', async () => {
      const sb = await sandbox();
      const ch = await challenge(sb);
      expect((await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: ch }), BAD)).errors).toEqual([{ field: 'code', message: expect.any(String) }]);
      expect((await problemOf(post(sb, '/auth/2fa/verify', { code: '123456' }), BAD)).errors).toEqual([{ field: 'challenge_token', message: expect.any(String) }]);
      await problemOf(post(sb, '/auth/2fa/verify', {}), BAD);
    });

    test('401 for a wrong code, a forged or foreign token, and an expired challenge', async () => {
      const sb = await sandbox();
      const ch = await challenge(sb);
      const wrong = String((Number(code(sb)) + 1) % 1_000_000).padStart(6, '0');
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: ch, code: wrong }), 401);
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: ch, code: 'abcdef' }), 401);
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: 'not.a.token', code: code(sb) }), 401);
      const tampered = ch.slice(0, -2) + (ch.endsWith('AA') ? 'BB' : 'AA');
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: tampered, code: code(sb) }), 401);
      const { access_token } = await login(sb);
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: access_token, code: code(sb) }), 401);

      const old = await challenge(sb);
      sb.clock.advance(301_000);
      const body = await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: old, code: code(sb) }), 401);
      expect(body.detail).toBe('Invalid or expired challenge token.');
      // wrong codes do not spend a challenge; a fresh one still signs in
      expect((await post(sb, '/auth/2fa/verify', { challenge_token: await challenge(sb), code: code(sb) })).status).toBe(200);
    });

    test('403 when the account was disabled after the password step', async () => {
      const sb = await sandbox();
      const ch = await challenge(sb);
      await sb.accounts.update('editor', { state: 'disabled' });
      expect((await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: ch, code: code(sb) }), 403)).detail).toContain('disabled');
    });

    test('429 after repeated failures, even with the right code; fine again after the window', async () => {
      const sb = await sandbox();
      const ch = await challenge(sb);
      for (let i = 0; i < 5; i++) await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: ch, code: '000000' === code(sb) ? '111111' : '000000' }), 401);
      const limited = await post(sb, '/auth/2fa/verify', { challenge_token: ch, code: code(sb) });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      await problemOf(limited, 429);
      // a new challenge does not reset the count
      await problemOf(post(sb, '/auth/2fa/verify', { challenge_token: await challenge(sb), code: code(sb) }), 429);
      sb.clock.advance(601_000);
      expect((await post(sb, '/auth/2fa/verify', { challenge_token: await challenge(sb), code: code(sb) })).status).toBe(200);
    });
  });

  describe('POST /auth/refresh and /auth/revoke', () => {
    test('refresh rotates: a new pair, and the old refresh token stops working', async () => {
      const sb = await sandbox();
      const first = await login(sb);
      const r = await read(await post(sb, '/auth/refresh', { refresh_token: first.refresh_token }));
      expect(r.status, r.text).toBe(200);
      expectTokenPair(r.body.data, 'admin', sb);
      expect(r.body.data.refresh_token).not.toBe(first.refresh_token);
      expect(r.body.data.access_token).not.toBe(first.access_token);
      await problemOf(post(sb, '/auth/refresh', { refresh_token: first.refresh_token }), 401);
      expect((await post(sb, '/auth/refresh', { refresh_token: r.body.data.refresh_token })).status).toBe(200);
    });

    test('refresh: 401 when expired, for an access token, for garbage, for a disabled account; 400 (real: 422) without the field', async () => {
      const sb = await sandbox({ refreshTtl: 60 });
      const pair = await login(sb);
      await problemOf(post(sb, '/auth/refresh', { refresh_token: pair.access_token }), 401);
      await problemOf(post(sb, '/auth/refresh', { refresh_token: 'garbage' }), 401);
      await problemOf(post(sb, '/auth/refresh', {}), BAD);
      sb.clock.advance(61_000);
      expect((await problemOf(post(sb, '/auth/refresh', { refresh_token: pair.refresh_token }), 401)).detail).toBe('Invalid or expired refresh token.');

      const viewer = await login(sb, 'viewer', DEMO_ACCOUNTS.viewer.password);
      await sb.accounts.update('viewer', { state: 'disabled' });
      await problemOf(post(sb, '/auth/refresh', { refresh_token: viewer.refresh_token }), 401);
    });

    test('revoke: 204 always, 400 (real: 422) without the field; a revoked refresh token gives 401', async () => {
      const sb = await sandbox();
      const pair = await login(sb);
      const first = await post(sb, '/auth/revoke', { refresh_token: pair.refresh_token });
      expect(first.status).toBe(204);
      expect(await first.text()).toBe('');
      expect((await post(sb, '/auth/revoke', { refresh_token: pair.refresh_token })).status).toBe(204);
      expect((await post(sb, '/auth/revoke', { refresh_token: 'never-was-a-token' })).status).toBe(204);
      await problemOf(post(sb, '/auth/revoke', {}), BAD);
      await problemOf(post(sb, '/auth/refresh', { refresh_token: pair.refresh_token }), 401);
    });

    test('sign-out with the access token: the real service refuses that token from then on; the documents leave it valid', async () => {
      const sb = await sandbox();
      const pair = await login(sb);
      const other = await login(sb);
      expect((await post(sb, '/auth/revoke', { refresh_token: pair.refresh_token }, tokenHeader(pair.access_token))).status).toBe(204);
      const after = await get(sb, '/me', tokenHeader(pair.access_token));
      if (real) expect((await problemOf(after, 401)).detail).toBe(NO_CREDENTIALS);
      else expect(after.status).toBe(200);
      // also as Authorization: Bearer; another session's token is untouched
      expect((await post(sb, '/auth/revoke', { refresh_token: other.refresh_token }, { Authorization: `Bearer ${other.access_token}` })).status).toBe(204);
      expect((await get(sb, '/me', tokenHeader(other.access_token))).status).toBe(real ? 401 : 200);
      expect((await get(sb, '/me', tokenHeader((await login(sb)).access_token))).status).toBe(200);
    });
  });

  describe('POST /auth/forgot-password and /auth/reset-password', () => {
    test('forgot: the same neutral answer whether or not an account matches; the mail holds the link', async () => {
      const sb = await sandbox();
      const known = await read(await post(sb, '/auth/forgot-password', { email: 'admin@example.test' }));
      const unknown = await read(await post(sb, '/auth/forgot-password', { email: 'nobody@example.test' }));
      const malformed = await read(await post(sb, '/auth/forgot-password', { email: 'not an email' }));
      expect(known.status).toBe(200);
      expect(known.body).toEqual({ data: { message: 'If an account exists for that email, a reset link has been sent.' } });
      expect(unknown.text).toBe(known.text);
      expect(malformed.text).toBe(known.text);
      expect(unknown.status).toBe(200);

      expect(sb.mail.messages).toHaveLength(1);
      const mail = sb.mail.last('admin@example.test')!;
      expect(mail).toMatchObject({ to: 'admin@example.test', username: 'admin', token: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(mail.link).toBe(`${sb.origin}/reset?user=admin&token=${mail.token}`);
      expect(mail.text).toContain(mail.link);

      await post(sb, '/auth/forgot-password', { email: 'VIEWER@example.test', admin_base_url: 'https://admin.example.test/panel/' });
      expect(sb.mail.last()!.link).toMatch(/^https:\/\/admin\.example\.test\/panel\/reset\?user=viewer&token=[0-9a-f]{32}$/);
      await post(sb, '/auth/forgot-password', { email: 'editor@example.test', admin_base_url: 'javascript:alert(1)' }, { Origin: 'http://app.example.test' });
      expect(sb.mail.last()!.link).toMatch(/^http:\/\/app\.example\.test\/reset\?user=editor&/);
    });

    test('forgot: 400 (real: 422) without email; 429 per account after repeated requests, others unaffected', async () => {
      const sb = await sandbox();
      expect((await problemOf(post(sb, '/auth/forgot-password', {}), BAD)).errors).toEqual([{ field: 'email', message: expect.any(String) }]);
      for (let i = 0; i < 3; i++) expect((await post(sb, '/auth/forgot-password', { email: 'admin@example.test' })).status).toBe(200);
      const limited = await post(sb, '/auth/forgot-password', { email: 'admin@example.test' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      await problemOf(limited, 429);
      expect((await post(sb, '/auth/forgot-password', { email: 'viewer@example.test' })).status).toBe(200);
      expect((await post(sb, '/auth/forgot-password', { email: 'nobody@example.test' })).status).toBe(200);
      expect(sb.mail.messages.filter((m) => m.username === 'admin')).toHaveLength(3);
    });

    test('reset: one identical 400 (real: 422) for bad user, wrong token, expired token (documents: missing fields too); 200 with the mailed token', async () => {
      const sb = await sandbox();
      const before = await login(sb);
      await post(sb, '/auth/forgot-password', { email: 'admin@example.test' });
      const { token } = sb.mail.last()!;
      const newPassword = 'brand-new-pass';
      const answers = [
        await read(await post(sb, '/auth/reset-password', { username: 'ghost', token, password: newPassword })),
        await read(await post(sb, '/auth/reset-password', { username: 'viewer', token, password: newPassword })),
        await read(await post(sb, '/auth/reset-password', { username: 'admin', token: 'f'.repeat(32), password: newPassword })),
      ];
      const missing = [
        await read(await post(sb, '/auth/reset-password', { username: 'admin', token })),
        await read(await post(sb, '/auth/reset-password', { token, password: newPassword })),
        await read(await post(sb, '/auth/reset-password', {})),
      ];
      // the documents answer a missing field as vaguely as a bad link; the real service names it
      if (real) {
        expect(missing.map((a) => [a.status, a.body.detail])).toEqual([
          [422, 'Missing required fields: password'],
          [422, 'Missing required fields: username'],
          [422, 'Missing required fields: username, token, password'],
        ]);
      } else answers.push(...missing);
      sb.clock.advance(86_401_000);
      answers.push(await read(await post(sb, '/auth/reset-password', { username: 'admin', token, password: newPassword })));
      sb.clock.set(2_000); // a later second than the sign-in above
      for (const a of answers) {
        expect(a.status).toBe(BAD);
        expect(a.type).toBe('application/problem+json');
        expect(a.text).toBe(answers[0]!.text);
      }
      expect(answers[0]!.body).toEqual(real ? { status: 422, title: 'Unprocessable Entity', detail: 'Invalid or expired reset link.' } : { status: 400, title: 'Bad Request', detail: 'Invalid or expired reset link.' });

      const ok = await read(await post(sb, '/auth/reset-password', { username: 'admin', token, password: newPassword }));
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual({ data: { message: 'Password reset successfully.' } });
      await login(sb, 'admin', newPassword);
      await problemOf(post(sb, '/auth/token', { username: 'admin', password: DEMO_ACCOUNTS.admin.password }), 401);
      // the real service ends every token issued before the reset; the documents say nothing of it
      expect((await get(sb, '/me', tokenHeader(before.access_token))).status).toBe(real ? 401 : 200);
      expect((await post(sb, '/auth/refresh', { refresh_token: before.refresh_token })).status).toBe(real ? 401 : 200);
      // the link is spent
      await problemOf(post(sb, '/auth/reset-password', { username: 'admin', token, password: 'another-pass' }), BAD);
    });

    test('reset: 429 per username after repeated attempts; other usernames unaffected', async () => {
      const sb = await sandbox();
      const attempt = (username: string) => post(sb, '/auth/reset-password', { username, token: 'nope', password: 'whatever-pass' });
      for (let i = 0; i < 5; i++) await problemOf(attempt('admin'), BAD);
      const limited = await attempt('admin');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      await problemOf(limited, 429);
      await problemOf(attempt('viewer'), BAD);
      // even the right token waits for the window
      await post(sb, '/auth/forgot-password', { email: 'admin@example.test' });
      await problemOf(post(sb, '/auth/reset-password', { username: 'admin', token: sb.mail.last()!.token, password: 'whatever-pass' }), 429);
    });
  });

  describe('GET /me and credentials', () => {
    test('200 with the spec fields, versions and the resolved access map', async () => {
      const sb = await sandbox();
      const { access_token } = await login(sb, 'viewer', DEMO_ACCOUNTS.viewer.password);
      const r = await read(await get(sb, '/me', tokenHeader(access_token)));
      expect(r.status, r.text).toBe(200);
      const who = { username: 'viewer', fullname: 'Vera Viewer', email: 'viewer@example.test', avatar_url: null, super_admin: false };
      if (real) {
        // recording 08: the flat map, the demo-mode block, grav_version (Grav 2.0.7, admin2 2.0.15)
        expect(r.body).toEqual({
          data: {
            ...who,
            access: flatMap(['api.access']),
            content_editor: '',
            demo_mode: { enabled: false, writable: [], reset_interval: 30, seconds_until_reset: null },
            grav_version: '2.0.7',
            admin_version: '2.0.15',
          },
        });
        expect(Object.keys(r.body.data)).toEqual(['username', 'fullname', 'email', 'avatar_url', 'super_admin', 'access', 'content_editor', 'demo_mode', 'grav_version', 'admin_version']);
      } else {
        expect(r.body).toEqual({ data: { ...who, access: { api: { access: true } }, content_editor: '', cms_version: '1.8.0', admin_version: '1.0.12' } });
      }
    });

    test('a super admin: every permission, api.demo included, while demo mode is off (real); a demo account (real: write-locked, /me too)', async () => {
      const sb = await sandbox();
      const admin = (await read(await get(sb, '/me', tokenHeader((await login(sb)).access_token)))).body.data as Json;
      if (real) {
        expect(admin.access).toEqual(flatMap('all'));
        expect(admin.access['api.demo']).toBe(true);
        expect(admin.demo_mode).toEqual({ enabled: false, writable: [], reset_interval: 30, seconds_until_reset: null });
      } else expect(admin.access.api.demo).toBeUndefined();

      await sb.accounts.create({ username: 'demo', password: 'demo-pass-1', email: 'd@example.test', access: { api: { access: true, demo: true, pages: true } } });
      const pair = await login(sb, 'demo', 'demo-pass-1');
      const key = sb.apiKeys.create({ username: 'demo' }).api_key;
      const me = await get(sb, '/me', { 'X-API-Key': key });
      if (real) {
        expect(pair.user.demo_mode).toEqual({ enabled: true, writable: ['api.pages.write', 'api.media.write'], reset_interval: 30, seconds_until_reset: null });
        // the plugin's demo write-lock keys on the permission a route asks for: every one that is
        // not a `.read` nor in `demo.writable` is refused, /me's api.access included
        expect(await problemOf(me, 403)).toEqual({ status: 403, title: 'Demo Mode', detail: 'This is a read-only demo. Changes are disabled.', code: 'demo_mode_write_blocked' });
        expect((await get(sb, '/pages', { 'X-API-Key': key })).status).toBe(200);
      } else {
        expect(pair.user.access.api.demo).toBe(true);
        expect(me.status).toBe(200);
      }
    });

    test('a parent grant covers its children, an explicit false wins, super expands to every api permission', async () => {
      const sb = await sandbox({ cmsVersion: '2.0.1', adminVersion: null });
      await sb.accounts.create({
        username: 'mixed',
        password: 'mixed-pass-1',
        email: 'm@example.test',
        access: { 'api.access': true, 'api.pages': true, api: { pages: { write: false } }, 'admin.login': true },
      });
      const key = sb.apiKeys.create({ username: 'mixed' }).api_key;
      const me = (await read(await get(sb, '/me', { 'X-API-Key': key }))).body.data as Json;
      if (real) {
        expect(me.access).toEqual(flatMap(['api.access', 'api.pages.read']));
        expect(me).toMatchObject({ grav_version: '2.0.1', admin_version: null, super_admin: false });
      } else {
        expect(me.access).toEqual({ api: { access: true, pages: { read: true, write: false } }, admin: { login: true } });
        expect(me).toMatchObject({ cms_version: '2.0.1', admin_version: null, super_admin: false });
      }

      await sb.accounts.create({ username: 'blanket', password: 'blanket-pass', email: 'b@example.test', access: { api: true } });
      const blanket = (await read(await get(sb, '/me', { 'X-API-Key': sb.apiKeys.create({ username: 'blanket' }).api_key }))).body.data as Json;
      expect(blanket.super_admin).toBe(false); // api.super is never set by `api: true`
      if (real) {
        // the real map resolves every name up its path, so `api: true` shows api.super true too
        expect(blanket.access).toEqual(flatMap('all'));
      } else {
        expect(blanket.access.api).toMatchObject({ access: true, pages: { read: true, write: true }, gpm: { write: true } });
        expect(blanket.access.api.super).toBeUndefined();
      }

      const admin = (await read(await get(sb, '/me', tokenHeader((await login(sb)).access_token)))).body.data as Json;
      expect(admin.super_admin).toBe(true);
      if (real) {
        expect(admin.access).toEqual(flatMap('all'));
      } else {
        expect(admin.access.api).toMatchObject({ super: true, access: true, pages: { read: true, write: true }, users: { read: true, write: true }, gpm: { read: true, write: true } });
        expect(admin.access.admin).toEqual({ super: true, login: true });
      }
    });

    test('every credential transport: X-API-Token (bare or Bearer), Authorization: Bearer, X-API-Key, api_key query', async () => {
      const sb = await sandbox();
      const { access_token } = await login(sb);
      const apiKey = sb.seeded!.adminApiKey!;
      const who = async (path: string, headers: Record<string, string>) => (await read(await get(sb, path, headers))).body.data?.username;
      expect(await who('/me', { 'X-API-Token': access_token })).toBe('admin');
      expect(await who('/me', { 'X-API-Token': `Bearer ${access_token}` })).toBe('admin');
      expect(await who('/me', { Authorization: `Bearer ${access_token}` })).toBe('admin');
      expect(await who('/me', { 'X-API-Key': apiKey })).toBe('admin');
      expect(await who(`/me?api_key=${apiKey}`, {})).toBe('admin');
    });

    test('401 without a credential or with a bad, expired or wrong-kind one', async () => {
      const sb = await sandbox();
      const pair = await login(sb);
      const none = await get(sb, '/me');
      expect(none.headers.get('www-authenticate')).toBe(real ? 'Bearer' : null);
      // recording 10: the real service's one answer for every missing or bad credential
      expect(await problemOf(none, 401)).toEqual({ status: 401, title: 'Unauthorized', detail: real ? NO_CREDENTIALS : 'Authentication required.' });
      await problemOf(get(sb, '/me', { 'X-API-Key': 'grav_0000' }), 401);
      await problemOf(get(sb, '/me?api_key=grav_0000'), 401);
      await problemOf(get(sb, '/me', tokenHeader('a.b.c')), 401);
      await problemOf(get(sb, '/me', { Authorization: 'Basic YWRtaW46eA==' }), 401);
      await problemOf(get(sb, '/me', tokenHeader(pair.refresh_token)), 401);
      sb.clock.advance(3_601_000);
      expect((await problemOf(get(sb, '/me', tokenHeader(pair.access_token)), 401)).detail).toBe(real ? NO_CREDENTIALS : 'Invalid or expired token.');
      await problemOf(get(sb, '/me', { Authorization: `Bearer ${pair.access_token}` }), 401);
    });

    test('a bad API key beside a good token: the documents go by the key (401), the real service tries the token next (200)', async () => {
      const sb = await sandbox();
      const { access_token } = await login(sb);
      const r = await get(sb, '/me', { 'X-API-Key': 'grav_0000', 'X-API-Token': access_token });
      if (real) expect((await read(r)).body.data.username).toBe('admin');
      else await problemOf(r, 401);
    });

    test('short access lifetime from the options', async () => {
      const sb = await sandbox({ accessTtl: 5 });
      const pair = await login(sb);
      expect(pair.expires_in).toBe(5);
      expect((await get(sb, '/me', tokenHeader(pair.access_token))).status).toBe(200);
      sb.clock.advance(5_000);
      await problemOf(get(sb, '/me', tokenHeader(pair.access_token)), 401);
    });

    test('403 without api.access, for a scoped key that does not cover it, and for a disabled account', async () => {
      const sb = await sandbox();
      await sb.accounts.create({ username: 'siteonly', password: 'site-only-pass', email: 's@example.test', access: { site: { login: true } } });
      const siteKey = sb.apiKeys.create({ username: 'siteonly' }).api_key;
      expect((await problemOf(get(sb, '/me', { 'X-API-Key': siteKey }), 403)).detail).toBe('API access is not enabled for this user.');

      const scoped = sb.apiKeys.create({ username: 'admin', scopes: ['api.pages.read'] }).api_key;
      await problemOf(get(sb, '/me', { 'X-API-Key': scoped }), 403);
      const covering = sb.apiKeys.create({ username: 'admin', scopes: ['api'] }).api_key;
      expect((await get(sb, '/me', { 'X-API-Key': covering })).status).toBe(200);

      const { access_token } = await login(sb, 'viewer', DEMO_ACCOUNTS.viewer.password);
      const viewerKey = sb.apiKeys.create({ username: 'viewer' }).api_key;
      await sb.accounts.update('viewer', { state: 'disabled' });
      // a disabled account: the documents' 403; the real service refuses its token (401) but does not
      // look at the account's state behind an API key
      await problemOf(get(sb, '/me', tokenHeader(access_token)), real ? 401 : 403);
      const byKey = await get(sb, '/me', { 'X-API-Key': viewerKey });
      if (real) expect(byKey.status).toBe(200);
      else await problemOf(byKey, 403);
    });

    test('GET /ping is public; unknown API paths are problem+json 404, wrong methods 405; outside the prefix is HTML', async () => {
      const sb = await sandbox();
      expect((await read(await get(sb, '/ping'))).body).toEqual({ data: { pong: true } });
      await problemOf(get(sb, '/nothing-here'), 404);
      await problemOf(fetch(`${sb.url}/me`, { method: 'DELETE' }), 405);
      const html = await fetch(`${sb.origin}/blog/post`);
      expect(html.status).toBe(404);
      expect(html.headers.get('content-type')).toContain('text/html');
    });
  });

  describe('rate-limit headers', () => {
    test('present on API answers: limit, remaining, reset in epoch seconds', async () => {
      const sb = await sandbox();
      // the real service checks credentials before its limiter: a protected route's 401 carries none
      const counted = real ? [await get(sb, '/ping'), await post(sb, '/auth/token', { username: 'admin', password: 'bad' })] : [await get(sb, '/ping'), await get(sb, '/me'), await post(sb, '/auth/token', { username: 'admin', password: 'bad' })];
      for (const res of counted) {
        const limit = Number(res.headers.get('x-ratelimit-limit'));
        const remaining = Number(res.headers.get('x-ratelimit-remaining'));
        const reset = Number(res.headers.get('x-ratelimit-reset'));
        expect(limit).toBe(real ? 120 : limit);
        expect(limit).toBeGreaterThan(0);
        expect(remaining).toBeGreaterThanOrEqual(0);
        expect(remaining).toBeLessThanOrEqual(limit);
        expect(reset).toBeGreaterThanOrEqual(real ? Math.floor(Date.now() / 1000) : sb.clock.nowSec());
        expect(reset).toBeLessThan((real ? Math.floor(Date.now() / 1000) : sb.clock.nowSec()) + 3600);
      }
      if (real) {
        const anonymous = await get(sb, '/me');
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get('x-ratelimit-limit')).toBeNull();
      }
    });

    test('the general limiter: 429 past the limit (spec: Retry-After and a fixed window; real: a bucket without Retry-After, refilled on the wall clock)', async () => {
      const sb = await sandbox({ limits: { api: { limit: 3, windowSec: real ? 1 : 60 } } });
      for (let i = 0; i < 3; i++) expect((await get(sb, '/ping')).headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
      const limited = await get(sb, '/ping');
      expect(limited.headers.get('retry-after')).toBe(real ? null : '60');
      await problemOf(limited, 429);
      if (real) await new Promise((r) => setTimeout(r, 1100));
      else sb.clock.advance(60_000);
      expect((await get(sb, '/ping')).status).toBe(200);
    });
  });

  describe('faults, in-process', () => {
    test('latency, then a normal answer', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: 'GET /ping', latencyMs: 300 });
      const started = Date.now();
      expect((await read(await get(sb, '/ping'))).body).toEqual({ data: { pong: true } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    });

    test('500 for a number of times, then the route works again', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: 'POST /auth/token', status: 500, times: 2 });
      const body = { username: 'admin', password: DEMO_ACCOUNTS.admin.password };
      await problemOf(post(sb, '/auth/token', body), 500);
      await problemOf(post(sb, '/auth/token', body), 500);
      expect((await post(sb, '/auth/token', body)).status).toBe(200);
      expect(sb.faults.list()).toEqual([]);
    });

    test('a dropped connection makes fetch reject', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: 'GET /me', drop: true });
      await expect(get(sb, '/me')).rejects.toThrow();
      expect((await get(sb, '/ping')).status).toBe(200); // only the chosen route
      sb.faults.clear();
      expect((await get(sb, '/me')).status).toBe(401);
    });

    test('429 with Retry-After', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: '*', rateLimit: { retryAfter: 7 } });
      const res = await get(sb, '/me');
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      await problemOf(res, 429);
    });

    test('an HTML body instead of JSON (status chosen, default 200)', async () => {
      const sb = await sandbox();
      sb.faults.set([{ route: 'GET /ping', html: true, times: 1 }, { route: '* /auth/*', html: true, status: 502 }]);
      const page = await get(sb, '/ping');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      await expect(page.json()).rejects.toThrow();
      const gateway = await post(sb, '/auth/refresh', { refresh_token: 'x' });
      expect(gateway.status).toBe(502);
      expect(await gateway.text()).toMatch(/^<!doctype html>/);
      expect((await read(await get(sb, '/ping'))).body).toEqual({ data: { pong: true } });
    });

    test('429 without Retry-After: a bare refusal that says nothing of when to come back', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: 'GET /ping', rateLimit: {}, times: 1 });
      const res = await get(sb, '/ping');
      expect(res.headers.get('retry-after')).toBeNull();
      expect(res.headers.get('x-ratelimit-reset')).toBeNull();
      await problemOf(res, 429);
    });

    test("the route's answer cut in half, with a Content-Length that matches the half", async () => {
      const sb = await sandbox();
      const whole = await (await get(sb, '/ping')).text();
      sb.faults.set({ route: 'GET /ping', truncate: true, times: 1 });
      const res = await get(sb, '/ping');
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toBe(whole.slice(0, Math.floor(whole.length / 2)));
      expect(res.headers.get('content-length')).toBe(String(text.length));
      expect(() => JSON.parse(text)).toThrow();
    });

    test('a drop after the route did its work: the write is made, its answer never comes', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: 'POST /auth/forgot-password', dropAfter: true, times: 1 });
      await expect(post(sb, '/auth/forgot-password', { email: 'admin@example.test' })).rejects.toThrow();
      expect(sb.mail.messages).toHaveLength(1);
    });

    test('an answer that starts as JSON and goes on past any cap, without a Content-Length', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: 'GET /pages', oversized: { bytes: 1024 * 1024 } });
      const res = await get(sb, '/pages');
      expect(res.headers.get('content-length')).toBeNull();
      const text = await res.text();
      expect(text.startsWith('{"data":[')).toBe(true);
      expect(text.length).toBeGreaterThan(1024 * 1024);
    });

    test('a rule does one thing, and each kind is checked', () => {
      const faults = new Faults();
      expect(() => faults.set({ route: 'GET /ping', drop: true, truncate: true })).toThrow(/one thing/);
      expect(() => faults.set({ route: 'GET /ping', truncate: true, status: 500 })).toThrow(/takes no status/);
      expect(() => faults.set({ route: 'GET /ping', rateLimit: { retryAfter: -1 } })).toThrow(/rateLimit/);
      expect(() => faults.set({ route: 'GET /ping', oversized: { bytes: 0 } })).toThrow(/oversized/);
      expect(() => faults.set({ route: 'GET /ping', dropAfter: 'yes' as unknown as boolean })).toThrow(/dropAfter/);
      expect(() => faults.set({ route: 'GET /ping', rateLimit: {} })).not.toThrow();
    });

    test('faults never touch the control routes or the pages outside the prefix', async () => {
      const sb = await sandbox();
      sb.faults.set({ route: '*', drop: true });
      expect((await fetch(`${sb.origin}/__sandbox/faults`)).status).toBe(200);
      expect((await fetch(`${sb.origin}/`)).status).toBe(404);
    });
  });

  describe('control routes (for a sandbox in another process)', () => {
    const control = (sb: CmsSandbox, path: string, method = 'GET', body?: unknown) =>
      fetch(`${sb.origin}/__sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

    test('faults: each kind set over HTTP, listed, cleared', async () => {
      const sb = await sandbox();
      expect((await control(sb, '/faults', 'POST', { route: 'GET /ping', latencyMs: 200, times: 1 })).status).toBe(200);
      const started = Date.now();
      expect((await get(sb, '/ping')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(180);

      await control(sb, '/faults', 'POST', { route: 'GET /ping', status: 500, times: 1 });
      await problemOf(get(sb, '/ping'), 500);

      await control(sb, '/faults', 'POST', [{ route: 'GET /ping', drop: true, times: 1 }]);
      await expect(get(sb, '/ping')).rejects.toThrow();

      await control(sb, '/faults', 'POST', { rules: [{ route: 'GET /ping', rateLimit: { retryAfter: 3 }, times: 1 }] });
      const limited = await get(sb, '/ping');
      expect(limited.headers.get('retry-after')).toBe('3');
      await problemOf(limited, 429);

      await control(sb, '/faults', 'POST', { route: 'GET /ping', html: true });
      expect((await get(sb, '/ping')).headers.get('content-type')).toContain('text/html');
      expect((await read(await control(sb, '/faults'))).body.data).toEqual([{ route: 'GET /ping', html: true, hits: 1 }]);
      expect((await control(sb, '/faults', 'DELETE')).status).toBe(204);
      expect((await read(await get(sb, '/ping'))).body).toEqual({ data: { pong: true } });

      expect((await control(sb, '/faults', 'POST', { route: 'GET /ping' })).status).toBe(400);
      expect((await control(sb, '/faults', 'POST', { route: 'nonsense', status: 500 })).status).toBe(400);
    });

    test('clock, settings, mail, accounts and API keys', async () => {
      const sb = await sandbox();
      const pair = await login(sb);
      const advanced = await read(await control(sb, '/clock', 'POST', { advanceMs: 3_601_000 }));
      expect(advanced.body.data.offsetMs).toBe(3_601_000);
      await problemOf(get(sb, '/me', tokenHeader(pair.access_token)), 401);
      await control(sb, '/clock', 'POST', { offsetMs: 0 });
      expect((await get(sb, '/me', tokenHeader(pair.access_token))).status).toBe(200);
      expect((await control(sb, '/clock', 'POST', {})).status).toBe(400);

      const settings = await read(await control(sb, '/settings', 'POST', { accessTtl: 2, challengeTtl: 10 }));
      expect(settings.body.data).toMatchObject({ accessTtl: 2, challengeTtl: 10, refreshTtl: 604800 });
      expect((await login(sb)).expires_in).toBe(2);
      expect((await control(sb, '/settings', 'POST', { accessTtl: -1 })).status).toBe(400);

      await post(sb, '/auth/forgot-password', { email: 'viewer@example.test' });
      const mail = (await read(await control(sb, '/mail'))).body.data as Json[];
      expect(mail).toEqual([expect.objectContaining({ to: 'viewer@example.test', token: expect.any(String), link: expect.stringContaining('/reset?user=viewer&token=') })]);
      expect((await control(sb, '/mail', 'DELETE')).status).toBe(204);
      expect(sb.mail.messages).toEqual([]);

      const created = await read(await control(sb, '/accounts', 'POST', { username: 'noapi', password: 'no-api-pass', access: { site: { login: true } } }));
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ username: 'noapi', state: 'enabled', twofa_secret: false });
      expect(created.text).not.toContain('hashed_password');
      const key = await read(await control(sb, '/api-keys', 'POST', { username: 'noapi' }));
      expect(key.status).toBe(201);
      expect(key.body.data.api_key).toMatch(/^grav_[0-9a-f]{40}$/);
      await problemOf(get(sb, '/me', { 'X-API-Key': key.body.data.api_key }), 403);
      expect((await control(sb, '/accounts', 'POST', { username: 'noapi', access: { api: { access: true } } })).status).toBe(200);
      expect((await get(sb, '/me', { 'X-API-Key': key.body.data.api_key })).status).toBe(200);
      await control(sb, '/accounts', 'POST', { username: 'viewer', state: 'disabled' });
      await problemOf(post(sb, '/auth/token', { username: 'viewer', password: DEMO_ACCOUNTS.viewer.password }), real ? 403 : 401);
      expect((await control(sb, '/api-keys', 'POST', { username: 'ghost' })).status).toBe(400);
    });
  });

  describe('data on disk', () => {
    test('accounts and keys are files without secrets in clear; a temporary folder goes away on close', async () => {
      const sb = await startCmsSandbox();
      const { dataDir } = sb;
      const admin = readFileSync(join(dataDir, 'accounts', 'admin.json'), 'utf8');
      expect(admin).not.toContain(DEMO_ACCOUNTS.admin.password);
      expect(JSON.parse(admin)).toMatchObject({ username: 'admin', state: 'enabled', hashed_password: expect.stringMatching(/^scrypt\$/) });
      expect(readFileSync(join(dataDir, 'api-keys.json'), 'utf8')).not.toContain(sb.seeded!.adminApiKey!);
      expect(existsSync(join(dataDir, 'secret.key'))).toBe(true);
      await sb.close();
      expect(existsSync(dataDir)).toBe(false);
    });

    test('a given folder is kept and reused: accounts, keys and live refresh tokens survive a restart', async () => {
      const dir = tempDir('sitedesk-cms-data-');
      try {
        const first = await startCmsSandbox({ dataDir: dir.path });
        const key = first.seeded!.adminApiKey!;
        const pair = await login(first);
        await first.close();
        expect(existsSync(join(dir.path, 'accounts', 'admin.json'))).toBe(true);

        const second = await sandbox({ dataDir: dir.path });
        expect(second.seeded).toBeNull();
        expect((await get(second, '/me', { 'X-API-Key': key })).status).toBe(200);
        expect((await post(second, '/auth/refresh', { refresh_token: pair.refresh_token })).status).toBe(200);
        expect((await get(second, '/me', tokenHeader(pair.access_token))).status).toBe(200);
      } finally {
        await Promise.all(running.splice(0).map((s) => s.close()));
        dir.remove();
      }
    });
  });
});
