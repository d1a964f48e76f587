/**
 * The account as the real Grav API plugin describes it (recorded /me and token pairs: a flat access
 * map, super_admin, demo_mode, grav_version) and as the documents do (a nested map, cms_version):
 * both read the same, the areas open for the same accounts, and sign-out revokes the access token.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { cmsAuth } from '../../electron/api/cms/auth';
import { AREA_PERMISSION, areaBlockedReason, can, isDemoAccount, isSuper, type CmsArea, type Me } from '../../electron/contract';
import { probeSite } from '../../electron/sites/probe';
import { ApiKeys } from '../../electron/sessions/api-keys';
import { CmsSession } from '../../electron/sessions/cms-session';
import { openDatabase } from '../../electron/db/open';
import { sitesRepo } from '../../electron/db/repos/sites';
import { sessionsRepo } from '../../electron/db/repos/sessions';
import { FileSecretStore } from '../support/file-secrets';
import { tempDir } from '../support/tmp';
import { fakeFetch, recorded, recordedData, reply, transport } from './support/recorded-replies';

const BASE = 'https://cms.example.com/api/v1';
const AREAS = Object.keys(AREA_PERMISSION) as CmsArea[];

describe('GET /auth/setup', () => {
  test('the real service names its password rules (recorded): they come with the status', async () => {
    const { t } = transport(() => recorded('02-auth-setup-status'));
    expect(await cmsAuth.setupStatus(t)).toEqual({
      setupRequired: true,
      passwordPolicy: {
        minLength: 8,
        rules: [
          { label: 'At least 8 characters', pattern: '.{8,}' },
          { label: 'At least one number', pattern: '\\d' },
          { label: 'At least one lowercase letter', pattern: '[a-z]' },
          { label: 'At least one uppercase letter', pattern: '[A-Z]' },
        ],
      },
    });
  });

  test('the documents name none; rules that do not read are left out, the status stands', async () => {
    expect(await cmsAuth.setupStatus(transport(() => reply({ data: { setup_required: false } })).t)).toEqual({ setupRequired: false });
    const odd = transport(() => reply({ data: { setup_required: true, password_policy: { rules: 'strong' } } })).t;
    expect(await cmsAuth.setupStatus(odd)).toEqual({ setupRequired: true });
  });
});

describe('GET /me of the real service (recorded)', () => {
  test('a super admin: flat map, super_admin, grav_version, demo mode off', async () => {
    const { t } = transport(() => recorded('08-me'));
    const me = await cmsAuth.me(t);
    expect(me).toMatchObject({ username: 'admin', superAdmin: true, cmsVersion: '2.0.7', adminVersion: '2.0.15' });
    expect(me.demoMode).toEqual({ enabled: false, writable: [], resetInterval: 30, secondsUntilReset: null });
    expect(me.access['api.pages.read']).toBe(true);
    // every area opens; on the nested-only reading every one said "lacks api.access"
    for (const area of AREAS) expect(areaBlockedReason(me, area)).toBeNull();
    expect(can(me, 'api.pages.write')).toBe(true);
    // its map says api.demo: true, yet demo mode is off for it
    expect(isDemoAccount(me)).toBe(false);
  });

  test('the same account with Authorization: Bearer reads the same', async () => {
    const { t } = transport(() => recorded('09-me-bearer'));
    expect(await cmsAuth.me(t)).toEqual(await cmsAuth.me(transport(() => recorded('08-me')).t));
  });

  test('the map alone (no account around it) still opens the areas: it holds api.super and api.access', () => {
    const access = recordedData<{ access: Me['access'] }>('08-me').access;
    expect(isSuper(access)).toBe(true);
    expect(areaBlockedReason(access, 'pages')).toBeNull();
  });

  test('an editor with a flat map gets exactly its areas', async () => {
    const body = recordedData<Record<string, unknown>>('08-me');
    const access = { 'api.access': true, 'api.pages': true, 'api.pages.read': true, 'api.pages.write': true, 'api.media.read': true, 'api.demo': false, 'api.super': false };
    const { t } = transport(() => reply({ data: { ...body, username: 'editor', super_admin: false, access } }));
    const me = await cmsAuth.me(t);
    expect(isSuper(me)).toBe(false);
    expect(areaBlockedReason(me, 'pages')).toBeNull();
    expect(areaBlockedReason(me, 'translations')).toBeNull();
    expect(areaBlockedReason(me, 'media')).toBeNull();
    expect(areaBlockedReason(me, 'users')).toBe('This account lacks the api.users.read permission.');
    expect(areaBlockedReason(me, 'audit')).toBe('This account lacks the api.super permission.');
    expect(can(me, 'api.media.write')).toBe(false);
  });

  test('a demo account is the one whose demo_mode says so', async () => {
    const body = recordedData<Record<string, unknown>>('08-me');
    const demo = { enabled: true, writable: ['api.pages.write'], reset_interval: 30, seconds_until_reset: 1200 };
    const { t } = transport(() => reply({ data: { ...body, super_admin: false, access: { 'api.access': true, 'api.demo': true, 'api.pages.read': true }, demo_mode: demo } }));
    const me = await cmsAuth.me(t);
    expect(me.demoMode).toEqual({ enabled: true, writable: ['api.pages.write'], resetInterval: 30, secondsUntilReset: 1200 });
    expect(isDemoAccount(me)).toBe(true);
  });

  test('the spec’s /me (nested map, cms_version, no super_admin) reads the same way', async () => {
    const spec = { username: 'editor', fullname: 'Ed', email: 'ed@example.test', access: { api: { access: true, pages: { read: true, write: true } } }, cms_version: '1.8.0' };
    const { t } = transport(() => reply({ data: spec }));
    const me = await cmsAuth.me(t);
    expect(me).toMatchObject({ superAdmin: false, cmsVersion: '1.8.0' });
    expect(me.demoMode).toBeUndefined();
    expect(areaBlockedReason(me, 'pages')).toBeNull();
    expect(areaBlockedReason(me, 'users')).toBe('This account lacks the api.users.read permission.');
    expect(isDemoAccount(me)).toBe(false);
    expect(isDemoAccount({ ...me, access: { api: { access: true, demo: true } } })).toBe(true);
  });

  test('an empty map sent as [] (PHP) is an empty map', async () => {
    const { t } = transport(() => reply({ data: { username: 'nobody', access: [] } }));
    const me = await cmsAuth.me(t);
    expect(me.access).toEqual({});
    expect(areaBlockedReason(me, 'pages')).toMatch(/api\.access/);
  });

  test('a /me neither sends still fails clearly, naming the call and the field', async () => {
    const { t } = transport(() => reply({ data: { username: 42 } }));
    await expect(cmsAuth.me(t)).rejects.toMatchObject({ code: 'bad_response', message: expect.stringMatching(/cannot read \(GET \/me, field data\.username\)/) });
  });
});

describe('token pairs of the real service (recorded)', () => {
  test('the pair from /auth/token carries the account, read like /me', async () => {
    const { t, seen } = transport(() => recorded('05-auth-token'));
    const a = await cmsAuth.token(t, 'admin', 'pw');
    expect(a.kind).toBe('tokens');
    if (a.kind !== 'tokens') return;
    expect(a.tokens).toMatchObject({ expiresIn: 3600, user: { username: 'admin', superAdmin: true } });
    expect(areaBlockedReason(a.tokens.user!, 'pages')).toBeNull();
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/auth/token' });
  });

  test('setup and refresh answer the same pair', async () => {
    expect((await cmsAuth.setup(transport(() => recorded('03-auth-setup')).t, { username: 'admin', password: 'x', email: 'a@b.c' })).user?.username).toBe('admin');
    expect((await cmsAuth.refresh(transport(() => recorded('07-auth-refresh')).t, 'r')).accessToken).toMatch(/^eyJ/);
  });

  test('a user object that does not read does not fail the sign-in', async () => {
    const pair = recordedData<Record<string, unknown>>('05-auth-token');
    const { t } = transport(() => reply({ data: { ...pair, user: { username: 7 } } }));
    const a = await cmsAuth.token(t, 'admin', 'pw');
    expect(a.kind === 'tokens' && a.tokens.user).toBeFalsy();
  });

  test('a wrong password is the site’s own words', async () => {
    const { t } = transport(() => recorded('06-auth-token-wrong-password'));
    await expect(cmsAuth.token(t, 'admin', 'nope')).rejects.toMatchObject({ code: 'unauthorized', message: 'Invalid username or password.' });
  });
});

describe('sign-out', () => {
  let dir: ReturnType<typeof tempDir> | null = null;
  afterEach(() => {
    dir?.remove();
    dir = null;
  });

  test('revokes the refresh token and presents the access token, so the site revokes both', async () => {
    dir = tempDir();
    const db = openDatabase(`${dir.path}/app.db`);
    const site = sitesRepo(db).insert({ id: '7f0c6c1e-3d1b-4a8e-9a57-1f2d3c4b5a69', name: 'Grav', kind: 'cms', baseUrl: BASE, environment: 'staging', authMode: 'password', hasApiKey: false });
    const pair = recordedData<{ access_token: string; refresh_token: string }>('05-auth-token');
    const f = fakeFetch((r) => (r.path === '/auth/token' ? recorded('05-auth-token') : r.path === '/me' ? recorded('08-me') : r.path === '/auth/revoke' ? { status: 204 } : undefined));
    const secrets = new FileSecretStore(`${dir.path}/secrets.json`);
    const session = new CmsSession({ site: () => site, secrets, apiKeys: new ApiKeys(secrets), repo: sessionsRepo(db), fetch: f.fetchImpl, emit: () => {} });

    const info = await session.signIn('admin', 'pw');
    expect(info).toMatchObject({ state: 'signed_in', me: { superAdmin: true, cmsVersion: '2.0.7' } });
    for (const area of AREAS) expect(areaBlockedReason(info.me, area)).toBeNull();

    expect((await session.signOut()).revoked).toBe(true);
    const revoke = f.seen.find((r) => r.path === '/auth/revoke')!;
    expect(revoke.method).toBe('POST');
    expect(revoke.body).toEqual({ refresh_token: pair.refresh_token });
    expect(revoke.headers['x-api-token']).toBe(pair.access_token);
    // the environment goes under Grav's header name too (the transport sends it; the probe below)
    db.close();
  });
});

describe('the probe', () => {
  test('sends the environment as X-Grav-Environment and X-Cms-Environment; the recorded ping is the CMS API', async () => {
    const f = fakeFetch(() => recorded('01-ping'));
    const report = await probeSite(f.fetchImpl, { kind: 'cms', baseUrl: BASE, environment: 'staging_2' });
    expect(report.outcome).toBe('reachable');
    expect(f.seen[0]!.headers).toMatchObject({ 'x-grav-environment': 'staging_2', 'x-cms-environment': 'staging_2' });
  });
});
