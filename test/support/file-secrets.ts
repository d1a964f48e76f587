import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SecretsStatus } from '../../electron/contract';
import type { SecretStore } from '../../electron/secrets/secret-store';

/**
 * Test scaffolding only: secrets in a JSON file, so two processes (one killed with SIGKILL) share
 * them without a keychain. The keychain itself is tested in secrets.test.ts.
 */
export class FileSecretStore implements SecretStore {
  readonly status: SecretsStatus = { mode: 'memory', reason: 'test file store' };
  constructor(private readonly file: string) {}
  private read(): Record<string, string> {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>) : {};
  }
  private write(all: Record<string, string>) {
    writeFileSync(this.file + '.tmp', JSON.stringify(all));
    renameSync(this.file + '.tmp', this.file);
  }
  async get(account: string) {
    return this.read()[account] ?? null;
  }
  async set(account: string, secret: string) {
    this.write({ ...this.read(), [account]: secret });
  }
  async delete(account: string) {
    const all = this.read();
    delete all[account];
    this.write(all);
  }
  async deleteByPrefix(prefix: string, keep?: string) {
    this.write(Object.fromEntries(Object.entries(this.read()).filter(([k]) => !k.startsWith(prefix) || k === keep)));
  }
}
