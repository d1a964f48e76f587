/**
 * An API key is read from the keychain once per session, not once per request (a mirror sends
 * thousands; a store's screens call it at every list), and a key replaced in the site's settings is
 * used from the next request on. The same for CMS and store sites: they share the cache
 * (electron/sessions/api-keys.ts). Reads are counted on the secret store, the app's edge.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';

class CountingSecrets extends MemorySecretStore {
  reads = 0;
  override async get(account: string) {
    this.reads++;
    return super.get(account);
  }
}

let cms: CmsSandbox;
let shop: StoreSandbox;
let host: Host;
/** The `api_key` header of every request to the store, in order. */
const storeKeys: (string | null)[] = [];
let fx: DemoHost;
const secrets = new CountingSecrets();

async function invoke<K extends ChannelName>(channel: K, input: ChannelInput<K>) {
  return host.invoke(channel, input) as Promise<{ ok: true; value: ChannelOutput<K> } | { ok: false; error: { code: string } }>;
}

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    shop = await startStoreSandbox({ flavor });
    const recording: typeof fetch = (input, init) => {
      if (String(input).startsWith(shop.url)) storeKeys.push(new Headers(init?.headers).get('api_key'));
      return fetch(input, init);
    };
    // no site yet: the tests add theirs with the keys they test
    fx = await withHost({ sandbox: { flavor, content: 'single' }, site: false, host: { secrets, fetch: recording } });
    ({ cms, host } = fx);
  });
  afterAll(async () => {
    await fx.close();
    await shop.close();
  });

  test('the key is read once for many requests, and a new key from the settings is used at once', async () => {
    const added = await invoke('sites.add', { name: 'Single', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: 'not-the-key' });
    if (!added.ok) throw new Error('add failed');
    const site = added.value;
    expect(await invoke('pages.get', { siteId: site.id, route: '/blog' })).toMatchObject({ ok: false, error: { code: 'unauthorized' } });

    await invoke('sites.update', { id: site.id, name: site.name, kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
    secrets.reads = 0;
    for (const route of ['/blog', '/about', '/contact', '/blog/post-1', '/blog/post-2']) {
      expect(await invoke('pages.get', { siteId: site.id, route })).toMatchObject({ ok: true });
    }
    expect(secrets.reads).toBe(1);
  });

  test('a store site: the key is read once across many calls, and a key changed in the settings is sent from the next call on', async () => {
    const keys = shop.seeded!.keys;
    const added = await invoke('sites.add', { name: 'Shop', kind: 'store', baseUrl: shop.url, environment: null, authMode: 'apikey', apiKey: keys.enterprise });
    if (!added.ok) throw new Error('add failed');
    const site = added.value;
    secrets.reads = 0;
    storeKeys.length = 0;
    for (let i = 0; i < 4; i++) {
      expect(await invoke('store.pets.list', { siteId: site.id })).toMatchObject({ ok: true });
      expect(await invoke('store.inventory', { siteId: site.id })).toMatchObject({ ok: true });
    }
    expect(await invoke('store.session', { siteId: site.id })).toMatchObject({ ok: true, value: { state: 'signed_in', via: 'apikey' } });
    expect(storeKeys.length).toBeGreaterThanOrEqual(8);
    expect(new Set(storeKeys)).toEqual(new Set([keys.enterprise]));
    expect(secrets.reads).toBe(1);

    // another key in the settings: the next call carries it, after one read
    await invoke('sites.update', { id: site.id, name: site.name, kind: 'store', baseUrl: shop.url, environment: null, authMode: 'apikey', apiKey: keys.pro });
    secrets.reads = 0;
    storeKeys.length = 0;
    for (let i = 0; i < 3; i++) expect(await invoke('store.inventory', { siteId: site.id })).toMatchObject({ ok: true });
    expect(storeKeys).toEqual([keys.pro, keys.pro, keys.pro]);
    expect(secrets.reads).toBe(1);

    // the key removed: no call goes out with the old one
    await invoke('sites.update', { id: site.id, name: site.name, kind: 'store', baseUrl: shop.url, environment: null, authMode: 'apikey', apiKey: '' });
    storeKeys.length = 0;
    expect(await invoke('store.inventory', { siteId: site.id })).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(storeKeys).toEqual([]);
  });
});
