import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createHost, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { siteAccount, type SecretStore } from '../../electron/secrets/secret-store';
import type { ChannelInput, ChannelName, ChannelOutput, ConnectionReport, Site } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { closedPort, selfSignedServer, silentServer } from '../support/servers';
import { tempDir } from '../support/tmp';

let cms: CmsSandbox;
let store: StoreSandbox;

let dir: ReturnType<typeof tempDir>;
let host: Host;
let secrets: MemorySecretStore;
let fx: DemoHost | undefined;

/** Each test's own Host: a new data folder and keychain, no site yet, on this flavour's sandboxes. */
async function fresh(keychain: (s: MemorySecretStore) => SecretStore = (s) => s) {
  secrets = new MemorySecretStore();
  fx = await withHost({ cms, site: false, host: { secrets: keychain(secrets) } });
  ({ host, dir } = fx);
}

async function call<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>> {
  const r = await host.invoke(channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
  return r.value as ChannelOutput<K>;
}

async function fails<K extends ChannelName>(channel: K, input: ChannelInput<K>) {
  const r = await host.invoke(channel, input);
  expect(r.ok).toBe(false);
  return (r as { error: { code: string; message: string; fields?: Record<string, string> } }).error;
}

const cmsDraft = (over: Partial<ChannelInput<'sites.add'>> = {}): ChannelInput<'sites.add'> => ({
  name: 'Blog',
  kind: 'cms',
  baseUrl: cms.url,
  environment: null,
  authMode: 'password',
  ...over,
});

beforeAllTests();
function beforeAllTests() {
  afterEach(async () => {
    if (fx) await fx.close();
    else {
      // the test that opens its own Host
      await host?.close();
      dir?.remove();
    }
    fx = undefined;
  });
}

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    [cms, store] = await Promise.all([startCmsSandbox({ flavor }), startStoreSandbox({ flavor })]);
  });
  afterAll(async () => {
    await Promise.all([cms.close(), store.close()]);
  });

  describe('sites through the Host', () => {
    test('add, list, edit, reorder, and find them again after a restart', async () => {
      await fresh();
      const blog = await call('sites.add', cmsDraft());
      const shop = await call('sites.add', { name: 'Shop', kind: 'store', baseUrl: store.url, environment: null, authMode: 'apikey', apiKey: 'k-123' });
      expect(shop.hasApiKey).toBe(true);
      expect(await secrets.get(`site:${shop.id}:apikey`)).toBe('k-123');
      expect(JSON.stringify(await call('sites.list', {}))).not.toContain('k-123'); // the key never leaves the Host

      const edited = await call('sites.update', { id: blog.id, ...cmsDraft({ name: 'Blog (staging)', environment: 'staging.example.com' }) });
      expect(edited).toMatchObject({ name: 'Blog (staging)', environment: 'staging.example.com' });

      await call('sites.reorder', { ids: [shop.id, blog.id] });
      expect((await call('sites.list', {})).map((s) => s.name)).toEqual(['Shop', 'Blog (staging)']);
      expect(fx!.events.filter((e) => e.name === 'sites.changed')).toHaveLength(4);

      await call('workspace.set', { tabs: [blog.id, shop.id], active: shop.id, split: blog.id, ratio: 0.6 });
      host = await fx!.reopen();
      expect((await call('sites.list', {})).map((s) => s.name)).toEqual(['Shop', 'Blog (staging)']);
      expect(await call('workspace.get', {})).toEqual({ tabs: [blog.id, shop.id], active: shop.id, split: blog.id, ratio: 0.6 });
    });

    test('bad input: duplicate name, non-http scheme, malformed URL — field errors, nothing changed', async () => {
      await fresh();
      await call('sites.add', cmsDraft());
      expect(await fails('sites.add', cmsDraft({ name: ' blog ' }))).toMatchObject({ code: 'duplicate', fields: { name: expect.stringContaining('already exists') } });
      expect((await fails('sites.add', cmsDraft({ name: 'Other', baseUrl: 'ftp://x.test/api/v1' }))).fields?.baseUrl).toContain('Only http://');
      expect((await fails('sites.add', cmsDraft({ name: 'Other', baseUrl: 'not a url' }))).fields?.baseUrl).toContain('Include the scheme');
      expect((await fails('sites.add', cmsDraft({ name: 'Other', environment: 'bad value!' }))).fields?.environment).toBeTruthy();
      expect(await call('sites.list', {})).toHaveLength(1);
    });

    test('an address without a path gets the default prefix of its kind', async () => {
      await fresh();
      const s = await call('sites.add', { name: 'Shop', kind: 'store', baseUrl: store.origin, environment: null, authMode: 'password' });
      expect(s.baseUrl).toBe(store.url);
    });

    test('removing a site deletes its secrets and drops it from the workspace', async () => {
      await fresh();
      const a = await call('sites.add', cmsDraft({ authMode: 'apikey', apiKey: 'secret-a' }));
      const b = await call('sites.add', cmsDraft({ name: 'Docs', authMode: 'apikey', apiKey: 'secret-b' }));
      await secrets.set(`site:${a.id}:refresh`, 'r');
      await call('workspace.set', { tabs: [a.id, b.id], active: a.id, split: b.id, ratio: 0.5 });
      await call('sites.remove', { id: a.id });
      expect(await secrets.get(siteAccount.apiKey(a.id))).toBeNull();
      expect(await secrets.get(`site:${a.id}:refresh`)).toBeNull();
      expect(await secrets.get(`site:${b.id}:apikey`)).toBe('secret-b');
      expect(await call('workspace.get', {})).toEqual({ tabs: [b.id], active: b.id, split: b.id, ratio: 0.5 });
      expect(await fails('sites.remove', { id: a.id })).toMatchObject({ code: 'not_found' });
    });

    test('switching to password sign-in forgets the stored key; an empty key forgets it too', async () => {
      await fresh();
      const s = await call('sites.add', cmsDraft({ authMode: 'apikey', apiKey: 'k' }));
      const { apiKey: _, ...rest } = cmsDraft();
      expect((await call('sites.update', { id: s.id, ...rest, authMode: 'password' })).hasApiKey).toBe(false);
      expect(await secrets.get(`site:${s.id}:apikey`)).toBeNull();
      await call('sites.update', { id: s.id, ...rest, authMode: 'apikey', apiKey: 'k2' });
      expect((await call('sites.update', { id: s.id, ...rest, authMode: 'apikey', apiKey: '' })).hasApiKey).toBe(false);
    });

    test('a keychain that refuses: clear message, nothing saved', async () => {
      await fresh((secrets) =>
        Object.assign(Object.create(secrets), {
          set: async () => {
            const { AppError } = await import('../../electron/base/app-error');
            throw new AppError({ code: 'keychain', message: 'The system keychain refused to store the secret. Nothing was changed.' });
          },
        }),
      );
      const err = await fails('sites.add', cmsDraft({ authMode: 'apikey', apiKey: 'k' }));
      expect(err).toMatchObject({ code: 'keychain', message: expect.stringContaining('refused') });
      expect(await call('sites.list', {})).toEqual([]);
    });

    test('closing while a removal waits on a slow keychain finishes the removal first (it is not left half done)', async () => {
      await fresh((secrets) =>
        Object.assign(Object.create(secrets), {
          deleteByPrefix: async (prefix: string, keep?: string) => {
            await new Promise((r) => setTimeout(r, 300));
            return secrets.deleteByPrefix(prefix, keep);
          },
        }),
      );
      const a = await call('sites.add', cmsDraft({ authMode: 'apikey', apiKey: 'k' }));
      await call('sites.add', cmsDraft({ name: 'Two' }));
      const removing = host.invoke('sites.remove', { id: a.id });
      await new Promise((r) => setTimeout(r, 20)); // the call is inside the keychain now
      const reopened = await fx!.reopen(); // the app quits and starts again
      expect(await removing).toEqual({ ok: true, value: { id: a.id } });
      const r = await reopened.invoke('sites.list', {});
      expect(r.ok && (r.value as Site[]).map((x) => x.name)).toEqual(['Two']);
      expect(await secrets.get(siteAccount.apiKey(a.id))).toBeNull();
    });

    test('reordering with a stale list is refused', async () => {
      await fresh();
      const a = await call('sites.add', cmsDraft());
      await call('sites.add', cmsDraft({ name: 'Two' }));
      expect(await fails('sites.reorder', { ids: [a.id] })).toMatchObject({ code: 'conflict' });
    });
  });

  describe('test connection', () => {
    const probe = async (target: { kind: 'cms' | 'store'; baseUrl: string; environment?: string | null }): Promise<ConnectionReport> =>
      call('sites.test', { target: { environment: null, ...target } });

    test('reachable CMS and store', async () => {
      await fresh();
      expect(await probe({ kind: 'cms', baseUrl: cms.url })).toMatchObject({ outcome: 'reachable', ok: true, status: 200 });
      expect(await probe({ kind: 'store', baseUrl: store.url })).toMatchObject({ outcome: 'reachable', ok: true });
      const site: Site = await call('sites.add', cmsDraft());
      expect(await call('sites.test', { id: site.id })).toMatchObject({ outcome: 'reachable' });
    });

    test('wrong prefix, with the address that works', async () => {
      await fresh();
      const r = await probe({ kind: 'cms', baseUrl: `${cms.origin}/api/v2` });
      expect(r).toMatchObject({ outcome: 'wrong_prefix', ok: false, suggestedBaseUrl: cms.url });
    });

    test('not this kind of service', async () => {
      await fresh();
      // a store's prefix probed as a CMS: 404 problem+json, and the CMS default prefix is not there either
      expect((await probe({ kind: 'cms', baseUrl: store.url })).ok).toBe(false);
      // the CMS probed as a store: its HTML/404 answers are not an inventory
      const r = await probe({ kind: 'store', baseUrl: cms.url });
      expect(r.ok).toBe(false);
      expect(['wrong_service', 'wrong_prefix']).toContain(r.outcome);
    });

    test('unreachable, timeout and TLS problems each say what happened', async () => {
      await fresh();
      const port = await closedPort();
      const refused = await probe({ kind: 'cms', baseUrl: `http://127.0.0.1:${port}/api/v1` });
      expect(refused).toMatchObject({ outcome: 'unreachable', ok: false, message: expect.stringContaining('refused') });

      const silent = await silentServer();
      try {
        const started = Date.now();
        const { probeSite } = await import('../../electron/sites/probe');
        const r = await probeSite(fetch, { kind: 'cms', baseUrl: `${silent.origin}/api/v1`, environment: null }, 500);
        expect(r).toMatchObject({ outcome: 'timeout', ok: false, message: expect.stringContaining('did not answer') });
        expect(Date.now() - started).toBeLessThan(3000);
      } finally {
        await silent.close();
      }

      const tls = await selfSignedServer();
      try {
        const r = await probe({ kind: 'cms', baseUrl: `${tls.origin}/api/v1` });
        expect(r).toMatchObject({ outcome: 'tls', ok: false, message: expect.stringContaining('certificate') });
      } finally {
        await tls.close();
      }
    });

    test('the environment header is sent with the probe', async () => {
      await fresh();
      const seen: (string | undefined)[] = [];
      const { listen, json } = await import('../sandbox/http');
      const spy = await listen((req, res) => {
        // the real service reads X-Grav-Environment; the documents name X-Cms-Environment
        seen.push(req.headers['x-grav-environment'] as string | undefined, req.headers['x-cms-environment'] as string | undefined);
        json(res, 200, { data: { pong: true } });
      });
      try {
        await probe({ kind: 'cms', baseUrl: `${spy.origin}/api/v1`, environment: 'staging.example.com' });
        expect(seen).toEqual(['staging.example.com', 'staging.example.com']);
        // and the sandbox takes it (the real service checks the name on every route)
        expect(await probe({ kind: 'cms', baseUrl: cms.url, environment: 'staging.example.com' })).toMatchObject({ outcome: 'reachable', ok: true });
      } finally {
        await spy.close();
      }
    });
  });
});

describe('a database that cannot be used', () => {
  test('the Host still starts, says why in app.info, and refuses site calls with the reason', async () => {
    // its own Host, not the fixture's: no site or sandbox, and a file planted before the Host opens
    dir = tempDir();
    const { writeFileSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(dir.path, 'sitedesk.db'), 'not a database');
    host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {} });
    const info = await call('app.info', {});
    expect(info.database).toMatchObject({ ok: false, message: expect.stringContaining('not a Sitedesk database') });
    expect(await fails('sites.list', {})).toMatchObject({ code: 'database' });
    expect(readFileSync(join(dir.path, 'sitedesk.db'), 'utf8')).toBe('not a database');
  });
});
