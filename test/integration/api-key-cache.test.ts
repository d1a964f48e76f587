/**
 * An API key is read from the keychain once per session, not once per request (a mirror sends
 * thousands), and a key replaced in the site's settings is used from the next request on.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHost, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { flavors } from '../support/flavors';
import { tempDir } from '../support/tmp';

class CountingSecrets extends MemorySecretStore {
  reads = 0;
  override async get(account: string) {
    this.reads++;
    return super.get(account);
  }
}

let cms: CmsSandbox;
let host: Host;
let dir: ReturnType<typeof tempDir>;
const secrets = new CountingSecrets();

async function invoke<K extends ChannelName>(channel: K, input: ChannelInput<K>) {
  return host.invoke(channel, input) as Promise<{ ok: true; value: ChannelOutput<K> } | { ok: false; error: { code: string } }>;
}

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    cms = await startCmsSandbox({ flavor, seed: 'demo', content: 'single' });
    dir = tempDir();
    host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'test', secrets, log: () => {} });
  });
  afterAll(async () => {
    await host.close();
    await cms.close();
    dir.remove();
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
});
