/**
 * Browser mode without a keychain: the session's secrets are kept by the server process, not by
 * the Host, so a Host that dies and is restarted still has the API keys and tokens of this session
 * (a push in flight can resume). The Host reaches them through `ServerKeptSecrets` over its IPC
 * channel; the server answers from a MemorySecretStore (web/supervisor.ts).
 */
import type { SecretsStatus } from '../contract';
import type { SecretStore } from '../secrets/secret-store';
import type { FromHostChild, SecretOp } from './child-messages';

type Ask = (message: Extract<FromHostChild, { type: 'secret' }>) => void;

/** The Host's side: each call is a request to the server, answered by `answer` with its id. */
export class ServerKeptSecrets implements SecretStore {
  readonly status: SecretsStatus;
  #next = 1;
  readonly #waiting = new Map<number, (value: string | null) => void>();
  readonly #ask: Ask;

  constructor(status: SecretsStatus, ask: Ask) {
    this.status = status;
    this.#ask = ask;
  }

  /** The server's answer to request `id`. */
  answer(id: number, value: string | null): void {
    this.#waiting.get(id)?.(value);
    this.#waiting.delete(id);
  }

  #request(op: SecretOp, key: string, value?: string): Promise<string | null> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#ask({ type: 'secret', id, op, key, ...(value !== undefined ? { value } : {}) });
    });
  }

  get(account: string) {
    return this.#request('get', account);
  }
  async set(account: string, secret: string) {
    await this.#request('set', account, secret);
  }
  async delete(account: string) {
    await this.#request('delete', account);
  }
  async deleteByPrefix(prefix: string) {
    await this.#request('deleteByPrefix', prefix);
  }
}

/** The server's side: runs one request against the session's store; answers the value to send back. */
export async function runSecretRequest(store: SecretStore, m: Extract<FromHostChild, { type: 'secret' }>): Promise<string | null> {
  switch (m.op) {
    case 'get':
      return store.get(m.key);
    case 'set':
      await store.set(m.key, m.value ?? '');
      return null;
    case 'delete':
      await store.delete(m.key);
      return null;
    case 'deleteByPrefix':
      await store.deleteByPrefix(m.key);
      return null;
  }
}
