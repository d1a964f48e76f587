import { AsyncEntry, findCredentialsAsync, type EntryOptions } from '@napi-rs/keyring';
import type { SecretsStatus } from '../contract';
import { AppError } from '../base/app-error';
import { MemorySecretStore } from './memory';
import type { SecretStore } from './secret-store';

/**
 * On Linux, pin the Secret Service: the library would otherwise fall back silently to the kernel
 * keyring, which a reboot empties — tokens would vanish without a word.
 */
const PINNED: EntryOptions = { linux: { store: 'secret-service' } };
const PROBE_TIMEOUT_MS = 4000;

function refused(action: string, err: unknown): AppError {
  const why = err instanceof Error ? err.message : String(err);
  return new AppError(
    { code: 'keychain', message: `The system keychain refused to ${action}. Nothing was changed.`, detail: why },
    { cause: err },
  );
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s (is the keyring locked?)`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

export class KeychainSecretStore implements SecretStore {
  readonly status: SecretsStatus = { mode: 'keychain' };

  constructor(private readonly service: string) {}

  private entry(account: string): AsyncEntry {
    return new AsyncEntry(this.service, account, PINNED);
  }

  async get(account: string): Promise<string | null> {
    try {
      return await this.entry(account).getPassword();
    } catch (err) {
      throw refused('read a stored secret', err);
    }
  }

  async set(account: string, secret: string): Promise<void> {
    try {
      await this.entry(account).setPassword(secret);
    } catch (err) {
      throw refused('store the secret', err);
    }
  }

  async delete(account: string): Promise<void> {
    try {
      await this.entry(account).deleteCredential();
    } catch (err) {
      throw refused('delete a stored secret', err);
    }
  }

  async deleteByPrefix(prefix: string, keep?: string): Promise<void> {
    let found;
    try {
      found = await findCredentialsAsync(this.service);
    } catch (err) {
      throw refused('list stored secrets', err);
    }
    for (const c of found) if (c.account.startsWith(prefix) && c.account !== keep) await this.delete(c.account);
  }
}

export interface OpenSecretsOptions {
  /** Keychain service name; tests use their own so they never touch a person's entries. */
  service?: string;
  /** 'memory' skips the keychain entirely (tests that are not about secrets). */
  force?: 'memory';
}

/**
 * The keychain when it answers a harmless read, otherwise a session-only memory store that says
 * why in its status (the renderer shows it as a banner).
 */
export async function openSecretStore(opts: OpenSecretsOptions = {}): Promise<SecretStore> {
  if (opts.force === 'memory') return new MemorySecretStore('Sitedesk was started with secrets kept in memory.');
  const store = new KeychainSecretStore(opts.service ?? 'Sitedesk');
  try {
    await withTimeout(new AsyncEntry(opts.service ?? 'Sitedesk', '__probe__', PINNED).getPassword(), PROBE_TIMEOUT_MS, 'The keychain');
    return store;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return new MemorySecretStore(`No system keychain is available (${why}). Tokens and keys are kept for this session only.`);
  }
}
