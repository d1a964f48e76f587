/**
 * No Secret Service reachable. A file of its own: vitest runs each file in a fresh process, and the
 * keyring library keeps its D-Bus connection for the life of a process, so the bus address must be
 * wrong before anything touches the keychain.
 */
process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/sitedesk-test-bus';

import { describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { KeychainSecretStore, openSecretStore } from '../../electron/secrets/keychain';

const service = `SitedeskTest-${randomUUID()}`;

describe('without a keychain', () => {
  test('secrets are kept in memory, with the reason — never in the kernel keyring', async () => {
    const store = await openSecretStore({ service });
    expect(store.status.mode).toBe('memory');
    expect(store.status.reason).toMatch(/No system keychain is available.*session only/);
    await store.set('site:x:apikey', 'k');
    expect(await store.get('site:x:apikey')).toBe('k');
  });

  test('a keychain that refuses a write says so as a keychain error', async () => {
    await expect(new KeychainSecretStore(service).set('site:y:apikey', 'k')).rejects.toMatchObject({
      code: 'keychain',
      message: expect.stringContaining('refused'),
    });
  });
});
