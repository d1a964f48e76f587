import { afterEach, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { areaBlockedReason, isDemoAccount, type ChannelInput, type ChannelName, type ChannelOutput, type ErrorInfo, type SessionInfo } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS, DEMO_TOTP_SECRET } from '../sandbox/cms/seed';
import { totp } from '../sandbox/cms/totp';
import { flavors, type Flavor } from '../support/flavors';
import { withPlainHost } from '../support/demo-host';
import { selfSignedServer } from '../support/servers';
import { tempDir } from '../support/tmp';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface World {
  host: Host;
  dir: ReturnType<typeof tempDir>;
  secrets: MemorySecretStore;
  clock: { ms: number };
  requests: string[];
  events: SessionInfo[];
  call<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>>;
  fails<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ErrorInfo>;
  restart(): Promise<void>;
}

/** A Host of its own on a fresh folder (the fixture's plain Host), with a clock the test moves. */
async function world(): Promise<World> {
  const secrets = new MemorySecretStore();
  const clock = { ms: Date.now() };
  const requests: string[] = [];
  // counts what reaches the network, so "one refresh for many calls" can be checked
  const countingFetch: typeof fetch = (input, init) => {
    requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  const fx = await withPlainHost({ host: { secrets, fetch: countingFetch, now: () => clock.ms } });
  cleanups.push(() => fx.close());
  return {
    get host() {
      return fx.host;
    },
    dir: fx.dir,
    secrets,
    clock,
    requests,
    get events() {
      return fx.events.filter((e) => e.name === 'auth.session').map((e) => e.payload as SessionInfo);
    },
    call: fx.call,
    fails: fx.fails,
    async restart() {
      await fx.reopen();
    },
  };
}

async function startSandbox(flavor: Flavor, opts: Parameters<typeof startCmsSandbox>[0] = {}): Promise<CmsSandbox> {
  const s = await startCmsSandbox({ flavor, seed: 'demo', ...opts });
  cleanups.push(() => s.close());
  return s;
}

async function cmsSite(w: World, cms: { url: string }, over: Partial<ChannelInput<'sites.add'>> = {}) {
  return w.call('sites.add', { name: 'Blog', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'password', ...over });
}

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  const sandbox = (opts: Parameters<typeof startCmsSandbox>[0] = {}) => startSandbox(flavor, opts);
  /** What /me reports: the documents' versions, or the recorded real Grav's. */
  const versions = real ? { cmsVersion: '2.0.7', adminVersion: '2.0.15' } : { cmsVersion: '1.8.0', adminVersion: '1.0.12' };

  describe('first-run setup', () => {
    test('a new site asks for setup, creates the account, is signed in; a second setup is refused', async () => {
      const cms = await sandbox({ seed: 'empty' });
      const w = await world();
      const site = await cmsSite(w, cms);
      // the real service names its password rules too (the setup form shows them)
      const policy = { minLength: 8, rules: expect.arrayContaining([{ label: 'At least 8 characters', pattern: '.{8,}' }]) };
      expect(await w.call('auth.setupStatus', { siteId: site.id })).toEqual(real ? { setupRequired: true, passwordPolicy: policy } : { setupRequired: true });
      const bad = await w.fails('auth.setup', { siteId: site.id, username: 'a b', password: 'short', email: 'nope' });
      expect(bad.fields).toMatchObject({ username: expect.any(String), password: 'At least 8 characters.', email: expect.any(String) });
      // (a password both take: the real service's default policy wants a digit, lower and upper case)
      const info = await w.call('auth.setup', { siteId: site.id, username: 'owner', password: 'Correct horse 1', email: 'owner@example.test' });
      expect(info).toMatchObject({ state: 'signed_in', username: 'owner', me: { username: 'owner', ...versions } });
      expect(await w.call('auth.setupStatus', { siteId: site.id })).toEqual(real ? { setupRequired: false, passwordPolicy: policy } : { setupRequired: false });
      const again = await w.fails('auth.setup', { siteId: site.id, username: 'other', password: 'Correct horse 1', email: 'o@example.test' });
      expect(again).toMatchObject({ code: 'conflict', status: 409 });
    });

    test('a username with a dot: the real service takes it, a site that keeps to the documents refuses it at the field', async () => {
      const cms = await sandbox({ seed: 'empty' });
      const w = await world();
      const site = await cmsSite(w, cms);
      const input = { siteId: site.id, username: 'jane.doe', password: 'Correct horse 1', email: 'jane@example.test' };
      if (real) expect(await w.call('auth.setup', input)).toMatchObject({ state: 'signed_in', username: 'jane.doe' });
      else expect(await w.fails('auth.setup', input)).toMatchObject({ code: 'invalid_input', status: 400, fields: { username: expect.stringMatching(/letters, numbers/) } });
      // the client's own check keeps what neither service allows
      expect(await w.fails('auth.setup', { ...input, username: '.jane' })).toMatchObject({ code: 'invalid_input', fields: { username: expect.any(String) } });
      expect(await w.fails('auth.setup', { ...input, username: 'jane..doe' })).toMatchObject({ code: 'invalid_input', fields: { username: expect.any(String) } });
    });
  });

  describe('password sign-in', () => {
    test('signs in, reads /me, keeps tokens in the keychain only, resumes after a restart without the password', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      const info = await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      expect(info).toMatchObject({ state: 'signed_in', via: 'password', username: 'admin', me: { superAdmin: true, cmsVersion: versions.cmsVersion } });
      const stored = JSON.parse((await w.secrets.get(`site:${site.id}:tokens:admin`))!);
      expect(stored.access).toMatch(/^ey/);
      // no token in the database file or its WAL
      await w.host.close();
      for (const f of ['sitedesk.db', 'sitedesk.db-wal']) {
        try {
          const bytes = readFileSync(join(w.dir.path, f)).toString('latin1');
          expect(bytes).not.toContain(stored.access);
          expect(bytes).not.toContain(stored.refresh);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      await w.restart();
      expect(await w.call('auth.sessions', {})).toMatchObject([{ siteId: site.id, state: 'signed_in', username: 'admin' }]);
      w.requests.length = 0;
      expect(await w.call('auth.refreshMe', { siteId: site.id })).toMatchObject({ state: 'signed_in', me: { username: 'admin' } });
      expect(w.requests).toEqual(['GET /api/v1/me']);
    });

    test('wrong password: a clear message, still signed out', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      expect(await w.fails('auth.signIn', { siteId: site.id, username: 'admin', password: 'wrong' })).toMatchObject({ code: 'unauthorized', status: 401 });
      expect((await w.call('auth.sessions', {}))[0]).toMatchObject({ state: 'signed_out' });
    });

    test('two sites, two accounts, side by side', async () => {
      const [a, b] = await Promise.all([sandbox(), sandbox()]);
      const w = await world();
      const one = await cmsSite(w, a, { name: 'One' });
      const two = await cmsSite(w, b, { name: 'Two' });
      await w.call('auth.signIn', { siteId: one.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      await w.call('auth.signIn', { siteId: two.id, username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
      const sessions = await w.call('auth.sessions', {});
      expect(sessions.map((s) => [s.siteId, s.username, s.state])).toEqual([
        [one.id, 'admin', 'signed_in'],
        [two.id, 'viewer', 'signed_in'],
      ]);
      expect(areaBlockedReason(sessions[0]!.me!.access, 'pages')).toBeNull();
      expect(areaBlockedReason(sessions[1]!.me!.access, 'pages')).toMatch(/api.pages.read/);
    });
  });

  describe('accounts the site refuses', () => {
    test('the right password for an account without API access, or a disabled one: said plainly, still signed out', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await cms.accounts.create({ username: 'siteonly', password: 'Site-only-pass-1', email: 's@example.test', access: { site: { login: true } } });
      await cms.accounts.update('viewer', { state: 'disabled' });
      const noApi = await w.fails('auth.signIn', { siteId: site.id, username: 'siteonly', password: 'Site-only-pass-1' });
      const disabled = await w.fails('auth.signIn', { siteId: site.id, username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
      if (real) {
        // the real service checks the password first, then refuses the account with 403
        expect(noApi).toMatchObject({ code: 'forbidden', status: 403, message: expect.stringMatching(/password is right.*does not let this account use its API.*API access is not enabled/) });
        expect(disabled).toMatchObject({ code: 'forbidden', status: 403, message: expect.stringMatching(/password is right.*This user account is disabled/) });
      } else {
        // the documents answer 401 with the reason
        expect(noApi).toMatchObject({ code: 'unauthorized', status: 401, message: 'API access is not enabled for this user.' });
        expect(disabled).toMatchObject({ code: 'unauthorized', status: 401, message: 'This user account is disabled.' });
      }
      expect((await w.call('auth.sessions', {}))[0]).toMatchObject({ state: 'signed_out' });
      expect(await w.secrets.get(`site:${site.id}:tokens:siteonly`)).toBeNull();
    });

    test('a demo account: signed in and described, never taken for signed out; it edits pages (the site lets demo accounts write pages)', async () => {
      const cms = await sandbox();
      const w = await world();
      await cms.accounts.create({ username: 'demo', password: 'Demo-pass-1', email: 'd@example.test', access: { api: { access: true, demo: true, pages: true } } });
      const site = await cmsSite(w, cms);
      const info = await w.call('auth.signIn', { siteId: site.id, username: 'demo', password: 'Demo-pass-1' });
      // the real service refuses /me to a demo account (its demo lock keys on api.access, not a `.read`):
      // the account is as the sign-in described it
      expect(info).toMatchObject({ state: 'signed_in', username: 'demo', me: { username: 'demo' } });
      expect(isDemoAccount(info.me)).toBe(true);
      expect(areaBlockedReason(info.me!.access, 'pages')).toBeNull();
      const again = await w.call('auth.refreshMe', { siteId: site.id });
      expect(again).toMatchObject({ state: 'signed_in', username: 'demo', me: { username: 'demo' } });
      expect(isDemoAccount(again.me)).toBe(true);
      // it reads pages like anyone, and writes them (api.pages.write is among the real service's demo.writable)
      const about = await w.call('pages.get', { siteId: site.id, route: '/about' });
      const saved = await w.call('drafts.submit', { siteId: site.id, route: '/about', title: about.title, header: about.header, content: 'Edited in the demo.' });
      expect(saved).toMatchObject({ outcome: 'pushed', page: { content: 'Edited in the demo.' } });
      // an API key of the account: /me refused, said for what it is, the session not ended
      const keyed = await cmsSite(w, cms, { name: 'Demo key', authMode: 'apikey', apiKey: cms.apiKeys.create({ username: 'demo' }).api_key });
      if (real) {
        expect(await w.fails('auth.refreshMe', { siteId: keyed.id })).toMatchObject({ code: 'forbidden', message: expect.stringContaining('demo account') });
      } else {
        expect(await w.call('auth.refreshMe', { siteId: keyed.id })).toMatchObject({ state: 'signed_in', me: { username: 'demo' } });
      }
      expect((await w.call('auth.sessions', {})).find((s) => s.siteId === keyed.id)).toMatchObject({ state: 'signed_in' });
    });
  });

  describe('two-factor', () => {
    test('challenge, wrong code, right code; the challenge cannot be used twice', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      const step = await w.call('auth.signIn', { siteId: site.id, username: 'editor', password: DEMO_ACCOUNTS.editor.password });
      expect(step).toMatchObject({ state: 'needs_2fa', username: 'editor', challengeExpiresAt: expect.any(String) });
      const wrong = await w.fails('auth.verify2fa', { siteId: site.id, code: '000000' === totp(DEMO_TOTP_SECRET, cms.clock.now()) ? '111111' : '000000' });
      expect(wrong).toMatchObject({ code: 'unauthorized', fields: { code: expect.any(String) } });
      expect(await w.fails('auth.verify2fa', { siteId: site.id, code: '12ab' })).toMatchObject({ code: 'invalid_input', fields: { code: expect.stringContaining('6-digit') } });
      const done = await w.call('auth.verify2fa', { siteId: site.id, code: totp(DEMO_TOTP_SECRET, cms.clock.now()) });
      expect(done).toMatchObject({ state: 'signed_in', username: 'editor' });
      expect(await w.fails('auth.verify2fa', { siteId: site.id, code: totp(DEMO_TOTP_SECRET, cms.clock.now()) })).toMatchObject({
        message: expect.stringContaining('no sign-in waiting'),
      });
    });

    test('an expired challenge asks for the password again', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'editor', password: DEMO_ACCOUNTS.editor.password });
      w.clock.ms += 6 * 60_000;
      const err = await w.fails('auth.verify2fa', { siteId: site.id, code: totp(DEMO_TOTP_SECRET, cms.clock.now()) });
      expect(err.message).toContain('expired');
      expect((await w.call('auth.sessions', {}))[0]).toMatchObject({ state: 'signed_out' });
    });

    test('a challenge the server already expired is refused with a clear message', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'editor', password: DEMO_ACCOUNTS.editor.password });
      cms.clock.advance(6 * 60_000);
      const err = await w.fails('auth.verify2fa', { siteId: site.id, code: totp(DEMO_TOTP_SECRET, cms.clock.now()) });
      expect(err).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Enter your password again') });
      expect((await w.call('auth.sessions', {}))[0]).toMatchObject({ state: 'signed_out' });
    });

    test('leaving the code step drops the challenge and keeps nothing', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'editor', password: DEMO_ACCOUNTS.editor.password });
      expect(await w.call('auth.cancel2fa', { siteId: site.id })).toMatchObject({ state: 'signed_out', username: null });
      expect(await w.fails('auth.verify2fa', { siteId: site.id, code: totp(DEMO_TOTP_SECRET, cms.clock.now()) })).toMatchObject({
        message: expect.stringContaining('no sign-in waiting'),
      });
    });
  });

  describe('tokens over time', () => {
    test('an access token expiring under several parallel calls: one refresh, every call succeeds', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      // the server's clock runs past the access token's life; ours does not know yet → 401s, then a shared refresh
      cms.clock.advance(2 * 3600_000);
      w.requests.length = 0;
      const results = await Promise.all(Array.from({ length: 6 }, () => w.call('auth.refreshMe', { siteId: site.id })));
      expect(results.every((r) => r.state === 'signed_in')).toBe(true);
      expect(w.requests.filter((r) => r === 'POST /api/v1/auth/refresh')).toHaveLength(1);
    });

    test('the access token is refreshed before it runs out, once for many calls', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      w.clock.ms += 3600_000 - 30_000; // 30 s left: inside the refresh margin
      cms.clock.advance(3600_000 - 30_000);
      w.requests.length = 0;
      await Promise.all(Array.from({ length: 4 }, () => w.call('auth.refreshMe', { siteId: site.id })));
      expect(w.requests.filter((r) => r.endsWith('/auth/refresh'))).toHaveLength(1);
      expect(w.requests.filter((r) => r.endsWith('/me'))).toHaveLength(4);
    });

    test('a refresh token rotated elsewhere: the session ends, asks to sign in again, keeps the site', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      const { refresh } = JSON.parse((await w.secrets.get(`site:${site.id}:tokens:admin`))!);
      const rotated = await fetch(`${cms.url}/auth/refresh`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: refresh }) });
      expect(rotated.status).toBe(200);
      cms.clock.advance(2 * 3600_000);
      const err = await w.fails('auth.refreshMe', { siteId: site.id });
      expect(err.code).toBe('unauthorized');
      const [s] = await w.call('auth.sessions', {});
      expect(s).toMatchObject({ state: 'expired', username: 'admin', reason: expect.stringContaining('Sign in again') });
      expect(s!.me).toMatchObject({ username: 'admin' }); // what we knew is kept for the panel
      expect(w.events.at(-1)).toMatchObject({ state: 'expired' });
      expect(await w.call('sites.list', {})).toHaveLength(1);
      // and signing in again works
      expect(await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password })).toMatchObject({ state: 'signed_in' });
    });

    test('sign out revokes the refresh token on the server and forgets it here', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      const { refresh } = JSON.parse((await w.secrets.get(`site:${site.id}:tokens:admin`))!);
      expect(await w.call('auth.signOut', { siteId: site.id })).toMatchObject({ state: 'signed_out', revoked: true });
      expect(await w.secrets.get(`site:${site.id}:tokens:admin`)).toBeNull();
      const again = await fetch(`${cms.url}/auth/refresh`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: refresh }) });
      expect(again.status).toBe(401);
      expect(await w.fails('auth.refreshMe', { siteId: site.id })).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Sign in') });
    });

    test('signing out while the site is unreachable still forgets the tokens here and says the site was not told', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      cms.faults.set({ route: 'POST /auth/revoke', drop: true });
      expect(await w.call('auth.signOut', { siteId: site.id })).toMatchObject({ state: 'signed_out', revoked: false });
      expect(await w.secrets.get(`site:${site.id}:tokens:admin`)).toBeNull();
    });

    test('editing the address forgets the old session', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
      await w.call('sites.update', { id: site.id, name: 'Blog', kind: 'cms', baseUrl: `${cms.origin}/api/v1/`, environment: null, authMode: 'password' });
      expect((await w.call('auth.sessions', {}))[0]).toMatchObject({ state: 'signed_in' }); // same address after normalising
      await w.call('sites.update', { id: site.id, name: 'Blog', kind: 'cms', baseUrl: 'https://elsewhere.test/api/v1', environment: null, authMode: 'password' });
      expect((await w.call('auth.sessions', {}))[0]).toMatchObject({ state: 'signed_out' });
      expect(await w.secrets.get(`site:${site.id}:tokens:admin`)).toBeNull();
    });
  });

  describe('faults during sign-in', () => {
    test('429 with Retry-After reaches the UI as rate_limited with the seconds', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      cms.faults.set({ route: 'POST /auth/token', rateLimit: { retryAfter: 7 }, times: 1 });
      expect(await w.fails('auth.signIn', { siteId: site.id, username: 'admin', password: 'x' })).toMatchObject({ code: 'rate_limited', retryAfter: 7, message: expect.stringContaining('7 s') });
      expect(await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password })).toMatchObject({ state: 'signed_in' });
    });

    test('site down, HTML instead of JSON, a 500, TLS: each a clear message, nothing stored', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      const signIn = () => w.fails('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });

      cms.faults.set({ route: 'POST /auth/token', drop: true, times: 1 });
      expect(await signIn()).toMatchObject({ code: 'network' });

      cms.faults.set({ route: 'POST /auth/token', html: true, times: 1 });
      expect(await signIn()).toMatchObject({ code: 'bad_response', message: expect.stringContaining('web page') });

      cms.faults.set({ route: 'POST /auth/token', status: 500, times: 1 });
      expect(await signIn()).toMatchObject({ code: 'http', status: 500 });

      const tls = await selfSignedServer();
      cleanups.push(() => tls.close());
      const bad = await cmsSite(w, { url: `${tls.origin}/api/v1` }, { name: 'TLS' });
      expect(await w.fails('auth.signIn', { siteId: bad.id, username: 'admin', password: 'x' })).toMatchObject({ code: 'tls' });

      expect((await w.call('auth.sessions', {})).every((s) => s.state === 'signed_out')).toBe(true);
      expect(await w.secrets.get(`site:${site.id}:tokens:admin`)).toBeNull();
    });

    test('a token answer with the wrong shape, or garbage, is refused, not half-read', async () => {
      const { listen, json } = await import('../sandbox/http');
      const odd = await listen((req, res) => {
        if (req.url?.includes('garbage')) res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data": {"access_tok\u0000');
        else json(res, 200, { data: { access_token: 42 } });
      });
      cleanups.push(() => odd.close());
      const w = await world();
      const site = await cmsSite(w, { url: `${odd.origin}/api/v1` });
      expect(await w.fails('auth.signIn', { siteId: site.id, username: 'a', password: 'b' })).toMatchObject({ code: 'bad_response' });
      const junk = await cmsSite(w, { url: `${odd.origin}/garbage/api/v1` }, { name: 'Junk' });
      expect(await w.fails('auth.signIn', { siteId: junk.id, username: 'a', password: 'b' })).toMatchObject({
        code: 'bad_response',
        message: expect.stringContaining('cannot read'),
      });
    });
  });

  describe('forgot and reset password', () => {
    test('neutral answer, then the pasted link resets the password', async () => {
      const cms = await sandbox();
      const w = await world();
      const site = await cmsSite(w, cms);
      const a = await w.call('auth.forgotPassword', { siteId: site.id, email: DEMO_ACCOUNTS.admin.email });
      const b = await w.call('auth.forgotPassword', { siteId: site.id, email: 'nobody@example.test' });
      expect(a).toEqual(b);
      const mail = cms.mail.last('admin')!;
      const wrong = await w.fails('auth.resetPassword', { siteId: site.id, username: 'admin', token: 'nope', password: 'new password 1' });
      // the documents' 400, the real service's 422: a bad link either way
      expect(wrong).toMatchObject({ code: 'invalid_input', status: real ? 422 : 400 });
      const ok = await w.call('auth.resetPassword', { siteId: site.id, username: 'admin', token: mail.link, password: 'new password 1' });
      expect(ok.message).toBeTruthy();
      expect(await w.call('auth.signIn', { siteId: site.id, username: 'admin', password: 'new password 1' })).toMatchObject({ state: 'signed_in' });
    });
  });

  describe('API-key sites', () => {
    test('a stored key signs in; a refused key marks the session expired with the reason', async () => {
      const cms = await sandbox();
      const w = await world();
      const good = await cmsSite(w, cms, { name: 'Keyed', authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
      expect(await w.call('auth.refreshMe', { siteId: good.id })).toMatchObject({ state: 'signed_in', via: 'apikey', me: { username: 'admin' } });
      const bad = await cmsSite(w, cms, { name: 'Bad key', authMode: 'apikey', apiKey: 'grav_not_a_real_key' });
      expect(await w.fails('auth.refreshMe', { siteId: bad.id })).toMatchObject({ code: 'unauthorized' });
      expect((await w.call('auth.sessions', {})).find((s) => s.siteId === bad.id)).toMatchObject({ state: 'expired', reason: expect.stringContaining('API key') });
    });
  });
});
