import type { SecretsStatus } from '../contract';
import type { SecretStore } from './secret-store';

/** Secrets for this session only: used in tests and when no keychain can be reached. */
export class MemorySecretStore implements SecretStore {
  private readonly map = new Map<string, string>();
  readonly status: SecretsStatus;

  constructor(reason?: string) {
    this.status = { mode: 'memory', ...(reason ? { reason } : {}) };
  }

  async get(account: string) {
    return this.map.get(account) ?? null;
  }
  async set(account: string, secret: string) {
    this.map.set(account, secret);
  }
  async delete(account: string) {
    this.map.delete(account);
  }
  async deleteByPrefix(prefix: string, keep?: string) {
    for (const key of [...this.map.keys()]) if (key.startsWith(prefix) && key !== keep) this.map.delete(key);
  }
}
