import { afterAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { KeychainSecretStore, openSecretStore } from '../../electron/secrets/keychain';
import { MemorySecretStore } from '../../electron/secrets/memory';

// `npm test` runs inside a private dbus session with an unlocked gnome-keyring and sets this;
// there, an unreachable keychain is a failure, not a skip.
const required = process.env.SITEDESK_REQUIRE_KEYCHAIN === '1';
const service = `SitedeskTest-${randomUUID()}`;

describe('the OS keychain (Secret Service)', () => {
  afterAll(async () => {
    const store = new KeychainSecretStore(service);
    await store.deleteByPrefix('').catch(() => {});
  });

  test.runIf(required || process.env.DBUS_SESSION_BUS_ADDRESS)('round trip: set, get, list by prefix, delete', async () => {
    const store = await openSecretStore({ service });
    expect(store.status).toEqual({ mode: 'keychain' });
    await store.set('site:a:apikey', 'key-a');
    await store.set('site:a:refresh', 'refresh-a');
    await store.set('site:b:apikey', 'key-b');
    expect(await store.get('site:a:apikey')).toBe('key-a');
    await store.set('site:a:apikey', 'key-a2'); // overwrite, not a second entry
    expect(await store.get('site:a:apikey')).toBe('key-a2');
    await store.deleteByPrefix('site:a:');
    expect(await store.get('site:a:apikey')).toBeNull();
    expect(await store.get('site:a:refresh')).toBeNull();
    expect(await store.get('site:b:apikey')).toBe('key-b');
    await store.delete('site:b:apikey');
    expect(await store.get('site:b:apikey')).toBeNull();
    // a fresh store object reads what another wrote: it really is the keychain, not this process's memory
    await store.set('site:c:apikey', 'persisted');
    expect(await new KeychainSecretStore(service).get('site:c:apikey')).toBe('persisted');
  });

  test('the memory store keeps nothing across instances', async () => {
    const a = new MemorySecretStore();
    await a.set('k', 'v');
    expect(await new MemorySecretStore().get('k')).toBeNull();
  });
});
