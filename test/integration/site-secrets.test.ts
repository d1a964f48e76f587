/**
 * A site's secrets stay with the address they were given for: an edit that moves a site to another
 * origin (scheme, host, port) or makes it another kind drops its API key, its sign-in tokens and its
 * store session at the Host, whatever the renderer sends (a compromised one included), unless the
 * same call brings a new key. Real parts: the sandboxes and a listener on another loopback port.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHost } from '../../electron/core/host';
import { closeDatabase, openDatabase } from '../../electron/db/open';
import { migrations } from '../../electron/db/migrations';
import { sitesRepo } from '../../electron/db/repos/sites';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { ChannelInput } from '../../electron/contract';
import { listen, json } from '../sandbox/http';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { startStoreSandbox } from '../sandbox/store/server';
import { DEMO_USERS } from '../sandbox/store/seed';
import { withPlainHost, type PlainHost } from '../support/demo-host';
import { flavors, type Flavor } from '../support/flavors';
import { startProxy } from '../support/proxy';
import { tempDir } from '../support/tmp';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function host(): Promise<PlainHost & { secrets: MemorySecretStore }> {
  const secrets = new MemorySecretStore();
  const fx = await withPlainHost({ host: { secrets } });
  cleanups.push(() => fx.close());
  return Object.assign(fx, { secrets });
}

async function cmsSandbox(flavor: Flavor): Promise<CmsSandbox> {
  const s = await startCmsSandbox({ flavor, seed: 'demo' });
  cleanups.push(() => s.close());
  return s;
}

/** A stranger on another loopback port: records the headers of every request it gets, answers like a CMS. */
async function stranger() {
  const heard: IncomingHttpHeaders[] = [];
  const l = await listen((req, res) => {
    heard.push(req.headers);
    json(res, 200, { data: [], meta: { pagination: { page: 1, per_page: 50, total: 0, total_pages: 0 } } });
  });
  cleanups.push(() => l.close());
  return { ...l, url: `${l.origin}/api/v1`, heard };
}

const draft = (cms: { url: string }, over: Partial<ChannelInput<'sites.add'>> = {}): ChannelInput<'sites.add'> => ({
  name: 'Blog',
  kind: 'cms',
  baseUrl: cms.url,
  environment: null,
  authMode: 'apikey',
  ...over,
});

describe.each(flavors)('%s flavour', (flavor) => {
  describe('a secret never follows a site to a new address', () => {
    test('an edit to another port without a key: the key is dropped, and the listener there never sees it (review M1)', async () => {
      const fx = await host();
      const cms = await cmsSandbox(flavor);
      const key = cms.seeded!.adminApiKey!;
      const site = await fx.call('sites.add', draft(cms, { apiKey: key }));
      await fx.call('pages.list', { siteId: site.id }); // the key is read and in use

      const other = await stranger();
      const { apiKey: _none, ...moved } = draft(other);
      const edited = await fx.call('sites.update', { id: site.id, ...moved });
      expect(edited.hasApiKey).toBe(false);
      expect(await fx.secrets.get(`site:${site.id}:apikey`)).toBeNull();

      // whatever is asked of the site now, nothing carries the key to the new address
      await fx.host.invoke('pages.list', { siteId: site.id });
      await fx.host.invoke('auth.refreshMe', { siteId: site.id });
      for (const h of other.heard) expect(JSON.stringify(h)).not.toContain(key);
      expect(other.heard.every((h) => h['x-api-key'] === undefined)).toBe(true);
      // the site asks for a key again
      expect((await fx.call('auth.sessions', {})).find((s) => s.siteId === site.id)).toMatchObject({ state: 'signed_out' });
    });

    test('a key given in the same edit goes with the new address; a path on the same origin keeps the key', async () => {
      const fx = await host();
      const cms = await cmsSandbox(flavor);
      const key = cms.seeded!.adminApiKey!;
      const site = await fx.call('sites.add', draft(cms, { apiKey: key }));

      // the same origin, another path: the key stays
      const samePath = await fx.call('sites.update', { id: site.id, ...draft({ url: `${cms.origin}/api/v2` }) });
      expect(samePath.hasApiKey).toBe(true);
      expect(await fx.secrets.get(`site:${site.id}:apikey`)).toBe(key);

      const other = await stranger();
      const edited = await fx.call('sites.update', { id: site.id, ...draft(other, { apiKey: 'a-new-key-for-the-new-place' }) });
      expect(edited.hasApiKey).toBe(true);
      expect(await fx.secrets.get(`site:${site.id}:apikey`)).toBe('a-new-key-for-the-new-place');
      await fx.host.invoke('pages.list', { siteId: site.id });
      expect(other.heard.at(-1)?.['x-api-key']).toBe('a-new-key-for-the-new-place');
    });

    test('another scheme or host (same port) drops the key too', async () => {
      const fx = await host();
      const cms = await cmsSandbox(flavor);
      const key = cms.seeded!.adminApiKey!;
      const site = await fx.call('sites.add', draft(cms, { apiKey: key }));
      const port = new URL(cms.url).port;
      const { apiKey: _none, ...toLocalhost } = draft({ url: `http://localhost:${port}/api/v1` });
      expect((await fx.call('sites.update', { id: site.id, ...toLocalhost })).hasApiKey).toBe(false);
      expect(await fx.secrets.get(`site:${site.id}:apikey`)).toBeNull();
    });

    test('a change of kind drops the key (a CMS key is not a store key)', async () => {
      const fx = await host();
      const cms = await cmsSandbox(flavor);
      const site = await fx.call('sites.add', draft(cms, { apiKey: cms.seeded!.adminApiKey! }));
      const { apiKey: _none, ...asStore } = draft(cms, { kind: 'store' });
      expect((await fx.call('sites.update', { id: site.id, ...asStore })).hasApiKey).toBe(false);
      expect(await fx.secrets.get(`site:${site.id}:apikey`)).toBeNull();
    });

    test('a password session: its tokens leave the keychain when the origin changes', async () => {
      const fx = await host();
      const cms = await cmsSandbox(flavor);
      const site = await fx.call('sites.add', draft(cms, { authMode: 'password' }));
      await fx.call('auth.signIn', { siteId: site.id, username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
      expect(await fx.secrets.get(`site:${site.id}:tokens:viewer`)).not.toBeNull();
      const other = await stranger();
      await fx.call('sites.update', { id: site.id, ...draft(other, { authMode: 'password' }) });
      expect(await fx.secrets.get(`site:${site.id}:tokens:viewer`)).toBeNull();
      await fx.host.invoke('pages.list', { siteId: site.id });
      for (const h of other.heard) expect(h['x-api-token']).toBeUndefined();
    });

    test('a store login: its session token leaves the keychain when the origin changes', async () => {
      const fx = await host();
      const store = await startStoreSandbox({ flavor });
      cleanups.push(() => store.close());
      const site = await fx.call('sites.add', { name: 'Shop', kind: 'store', baseUrl: store.url, environment: null, authMode: 'password' });
      await fx.call('store.login', { siteId: site.id, username: 'admin', password: DEMO_USERS.admin.password });
      expect(await fx.secrets.get(`site:${site.id}:store-session`)).not.toBeNull();
      const other = await stranger();
      await fx.call('sites.update', { id: site.id, name: 'Shop', kind: 'store', baseUrl: `${other.origin}/api/v3`, environment: null, authMode: 'password' });
      expect(await fx.secrets.get(`site:${site.id}:store-session`)).toBeNull();
      await fx.host.invoke('store.inventory', { siteId: site.id });
      for (const h of other.heard) expect(h.authorization).toBeUndefined();
    });
  });
});

describe.each(flavors)('%s flavour: the keychain entry of a session', (flavor) => {
  // The real service finds the account by its e-mail address too (and reports its username in
  // /me); the documents' service takes the username only, so the e-mail case runs on the real one.
  test.runIf(flavor === 'real')('signed in by e-mail address: the entry is keyed by what was typed, and a restart finds it (review L8)', async () => {
    const fx = await host();
    const cms = await cmsSandbox(flavor);
    const site = await fx.call('sites.add', draft(cms, { authMode: 'password' }));
    const typed = DEMO_ACCOUNTS.admin.email;
    const info = await fx.call('auth.signIn', { siteId: site.id, username: typed, password: DEMO_ACCOUNTS.admin.password });
    expect(info).toMatchObject({ state: 'signed_in', me: { username: 'admin' } });
    expect(await fx.secrets.get(`site:${site.id}:tokens:${typed}`)).not.toBeNull();

    await fx.reopen();
    const listed = await fx.host.invoke('pages.list', { siteId: site.id });
    expect(listed.ok ? 'ok' : listed.error).toBe('ok');
    expect((await fx.call('auth.sessions', {})).find((s) => s.siteId === site.id)).toMatchObject({ state: 'signed_in' });
  });

  test('signing in as another account removes the first account’s entry; signing out leaves none', async () => {
    const fx = await host();
    const cms = await cmsSandbox(flavor);
    const site = await fx.call('sites.add', draft(cms, { authMode: 'password' }));
    await fx.call('auth.signIn', { siteId: site.id, username: 'viewer', password: DEMO_ACCOUNTS.viewer.password });
    // an entry a former version left under another spelling of the name
    await fx.secrets.set(`site:${site.id}:tokens:Viewer`, '{"access":"a","refresh":"r","accessExpiresAt":0}');
    await fx.call('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
    expect(await fx.secrets.get(`site:${site.id}:tokens:viewer`)).toBeNull();
    expect(await fx.secrets.get(`site:${site.id}:tokens:Viewer`)).toBeNull();
    expect(await fx.secrets.get(`site:${site.id}:tokens:admin`)).not.toBeNull();
    await fx.call('auth.signOut', { siteId: site.id });
    expect(await fx.secrets.get(`site:${site.id}:tokens:admin`)).toBeNull();
  });
});

describe.each(flavors)('%s flavour: no server text carries a secret to the renderer', (flavor) => {
  const everything = (x: unknown) => JSON.stringify(x);

  test('a token answer without its envelope: the tokens are in no part of the error (review M3)', async () => {
    const fx = await host();
    const cms = await cmsSandbox(flavor);
    const proxy = await startProxy(cms.origin);
    cleanups.push(() => proxy.close());
    proxy.bend = (call, answer) =>
      call.startsWith('POST /api/v1/auth/token') && answer.status === 200 && typeof answer.json === 'object' && answer.json !== null
        ? { body: JSON.stringify((answer.json as { data: unknown }).data) }
        : null;
    const site = await fx.call('sites.add', draft({ url: `${proxy.origin}/api/v1` }, { authMode: 'password' }));
    const error = await fx.fails('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
    expect(error.code).toBe('bad_response');
    expect(everything(error)).not.toMatch(/eyJ|refresh_token"\s*:\s*"[^[]/);
    expect(everything(error)).not.toContain(DEMO_ACCOUNTS.admin.password);
  });

  test('a token answer in its envelope with a field the app cannot read: nothing from it is quoted', async () => {
    const fx = await host();
    const cms = await cmsSandbox(flavor);
    const proxy = await startProxy(cms.origin);
    cleanups.push(() => proxy.close());
    proxy.bend = (call, answer) => {
      if (!call.startsWith('POST /api/v1/auth/token') || answer.status !== 200) return null;
      const data = (answer.json as { data: Record<string, unknown> }).data;
      return { body: JSON.stringify({ data: { ...data, expires_in: 'a short secret' } }) };
    };
    const site = await fx.call('sites.add', draft({ url: `${proxy.origin}/api/v1` }, { authMode: 'password' }));
    const error = await fx.fails('auth.signIn', { siteId: site.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
    expect(error).toMatchObject({ code: 'bad_response', message: expect.stringContaining('expires_in') });
    expect(everything(error)).not.toContain('a short secret');
    expect(everything(error)).not.toMatch(/eyJ/);
  });

  test('a store login answer that is not the documented text: the session token is in no part of the error', async () => {
    const fx = await host();
    const store = await startStoreSandbox({ flavor });
    cleanups.push(() => store.close());
    const proxy = await startProxy(store.origin);
    cleanups.push(() => proxy.close());
    proxy.bend = (call) => (call.startsWith('GET /api/v3/user/login') ? { body: '{"token":"SESSION-SECRET-4f1c9e"}' } : null);
    const site = await fx.call('sites.add', { name: 'Shop', kind: 'store', baseUrl: `${proxy.origin}/api/v3`, environment: null, authMode: 'password' });
    const error = await fx.fails('store.login', { siteId: site.id, username: 'admin', password: DEMO_USERS.admin.password });
    expect(error.code).toBe('bad_response');
    expect(everything(error)).not.toContain('SESSION-SECRET');
  });

  test('a site that echoes its API key (an error, a web page instead of JSON): the key is hidden, whatever its shape', async () => {
    const fx = await host();
    const key = 'plain words for a key'; // nothing token-shaped: only knowing it finds it
    let mode: 'error' | 'page' | 'field' = 'error';
    const echo = await listen((req, res) => {
      const sent = String(req.headers['x-api-key'] ?? '');
      if (mode === 'error') json(res, 500, { message: `Backend failed for key ${sent}` });
      else if (mode === 'field') json(res, 422, { title: 'Unprocessable', detail: `Key ${sent} is not valid here`, errors: [{ field: 'title', message: `not for ${sent}` }] });
      else res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`Your key: ${sent}; token=abc123def`);
    });
    cleanups.push(() => echo.close());
    const site = await fx.call('sites.add', draft({ url: `${echo.origin}/api/v1` }, { apiKey: key }));
    for (const m of ['error', 'page', 'field'] as const) {
      mode = m;
      const r = await fx.host.invoke('pages.list', { siteId: site.id });
      expect(r.ok).toBe(false);
      expect(everything(r)).not.toContain(key);
      expect(everything(r)).not.toContain('abc123def');
    }
  });
});

test('a store that answers with its API key where a value belongs: the key is in no part of the error', async () => {
  const fx = await host();
  const key = 'another plain key phrase that runs well past forty characters';
  const echo = await listen((req, res) => {
    const sent = String(req.headers['api_key'] ?? '');
    // the inventory is status → count: a text is refused and quoted (cut to 40 characters)
    json(res, 200, req.url?.includes('/store/inventory') ? { available: sent } : sent);
  });
  cleanups.push(() => echo.close());
  const site = await fx.call('sites.add', { name: 'Shop', kind: 'store', baseUrl: `${echo.origin}/api/v3`, environment: null, authMode: 'apikey', apiKey: key });
  for (const r of [await fx.host.invoke('store.inventory', { siteId: site.id }), await fx.host.invoke('store.pets.list', { siteId: site.id })]) {
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain(key.slice(0, 20));
  }
});

describe('the data folder: its path stays on this computer, its files are its owner’s (review L9)', () => {
  test('a database that cannot be used: the reason names no path', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    writeFileSync(join(dir.path, 'sitedesk.db'), 'not a database');
    const h = await createHost({ dataDir: dir.path, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {} });
    cleanups.push(() => h.close());
    const info = await h.invoke('app.info', {});
    const list = await h.invoke('sites.list', {});
    expect(JSON.stringify(info)).toContain('not a Sitedesk database');
    for (const r of [info, list]) expect(JSON.stringify(r)).not.toContain(dir.path);
  });

  test('a data folder that cannot be made: the reason names no path', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    writeFileSync(join(dir.path, 'a-file'), '');
    const h = await createHost({ dataDir: join(dir.path, 'a-file', 'data'), shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {} });
    cleanups.push(() => h.close());
    const info = await h.invoke('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { database: { ok: false } } });
    expect(JSON.stringify(info)).not.toContain(dir.path);
  });

  test.runIf(process.platform !== 'win32')('a new data folder is 0700, the database and its -wal/-shm 0600; an old open folder is made so', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const data = join(dir.path, 'data');
    const mode = (p: string) => statSync(p).mode & 0o777;
    const open = async () => {
      const h = await createHost({ dataDir: data, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {} });
      await h.invoke('sites.add', { name: `S${Date.now()}`, kind: 'cms', baseUrl: 'https://example.com/api/v1', environment: null, authMode: 'password' });
      return h;
    };
    let h = await open();
    const files = ['sitedesk.db', 'sitedesk.db-wal', 'sitedesk.db-shm'].map((f) => join(data, f));
    expect(mode(data)).toBe(0o700);
    for (const f of files) expect([f, mode(f)]).toEqual([f, 0o600]);
    await h.close();

    // as an earlier version left them: the umask's 0755 and 0644
    chmodSync(data, 0o755);
    for (const f of files) if (existsSync(f)) chmodSync(f, 0o644);
    h = await open();
    cleanups.push(() => h.close());
    expect(mode(data)).toBe(0o700);
    for (const f of files) expect([f, mode(f)]).toEqual([f, 0o600]);
  });
});

describe('plain HTTP is a choice, not an accident', () => {
  const site = (baseUrl: string, over: Partial<ChannelInput<'sites.add'>> = {}): ChannelInput<'sites.add'> => ({
    name: 'Intranet',
    kind: 'cms',
    baseUrl,
    environment: null,
    authMode: 'password',
    ...over,
  });

  test('http:// to another computer is refused without the explicit choice, saved with it, and kept', async () => {
    const fx = await host();
    const refused = await fx.fails('sites.add', site('http://cms.example.invalid/api/v1'));
    expect(refused).toMatchObject({ code: 'invalid_input', fields: { baseUrl: expect.stringContaining('readable by anyone on the network') } });
    expect(await fx.call('sites.list', {})).toEqual([]);

    const added = await fx.call('sites.add', site('http://cms.example.invalid/api/v1', { allowPlainHttp: true }));
    expect(added.allowPlainHttp).toBe(true);
    await fx.reopen();
    expect((await fx.call('sites.list', {}))[0]).toMatchObject({ id: added.id, allowPlainHttp: true });

    // an edit that takes the choice back is refused while the address is still plain http
    const { allowPlainHttp: _drop, ...without } = site('http://cms.example.invalid/api/v1');
    expect((await fx.fails('sites.update', { id: added.id, ...without })).fields?.baseUrl).toContain('Allow plain HTTP');
    // moving it to https needs no choice, and the site no longer says it uses plain HTTP
    expect(await fx.call('sites.update', { id: added.id, ...site('https://cms.example.invalid/api/v1', { allowPlainHttp: true }) })).toMatchObject({ allowPlainHttp: false });
  });

  test('loopback stays allowed as it is (localhost, 127.x, [::1]); https never needs the choice', async () => {
    const fx = await host();
    for (const [i, url] of ['http://127.0.0.1:8080/api/v1', 'http://localhost:8080/api/v1', 'http://[::1]:8080/api/v1', 'http://127.1.2.3/api/v1', 'https://cms.example.invalid/api/v1'].entries()) {
      expect(await fx.call('sites.add', site(url, { name: `S${i}` }))).toMatchObject({ allowPlainHttp: false });
    }
  });

  test('sites added before the choice existed: those on plain http:// to another computer keep working and say so', () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const file = join(dir.path, 'sitedesk.db');
    const old = openDatabase(file, migrations.filter((m) => m.version < 11));
    const row = old.prepare(`INSERT INTO sites (id, name, kind, base_url, environment, auth_mode, has_api_key, position, created_at, updated_at)
                             VALUES (?, ?, 'cms', ?, NULL, 'password', 0, ?, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')`);
    ['http://intranet.example/api/v1', 'http://127.0.0.1:8080/api/v1', 'http://localhost/api/v1', 'https://x.example/api/v1'].forEach((url, i) => row.run(`s${i}`, `S${i}`, url, i));
    closeDatabase(old);
    const db = openDatabase(file);
    cleanups.push(() => closeDatabase(db));
    expect(sitesRepo(db).list().map((s) => [s.baseUrl, s.allowPlainHttp])).toEqual([
      ['http://intranet.example/api/v1', true],
      ['http://127.0.0.1:8080/api/v1', false],
      ['http://localhost/api/v1', false],
      ['https://x.example/api/v1', false],
    ]);
  });

  test('testing a connection to plain http:// on another computer needs the same choice', async () => {
    const fx = await host();
    const target = { kind: 'cms' as const, baseUrl: 'http://cms.example.invalid/api/v1', environment: null };
    expect((await fx.fails('sites.test', { target })).fields?.baseUrl).toContain('readable by anyone on the network');
    const report = await fx.call('sites.test', { target: { ...target, allowPlainHttp: true } });
    expect(report.ok).toBe(false); // it was tried: nothing answers at that name
    expect(report.outcome).toBe('unreachable');
  });
});
