import type { SecretsStatus } from '../contract';

/**
 * Where tokens and API keys live. Accounts are namespaced strings such as `site:<id>:apikey`.
 * No secret is ever written to SQLite, a log line or an answer to the renderer.
 */
export interface SecretStore {
  readonly status: SecretsStatus;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<void>;
  /**
   * Removes every secret whose account starts with `prefix` (all of one site's secrets), except the
   * account `keep` (a session's new entry, whose predecessors are removed with this).
   */
  deleteByPrefix(prefix: string, keep?: string): Promise<void>;
}

/** Per-site account names, in one place so removal can find them all. */
export const siteAccount = {
  prefix: (siteId: string) => `site:${siteId}:`,
  apiKey: (siteId: string) => `site:${siteId}:apikey`,
  /**
   * The JWT pair of one account on one site, as JSON, under the name the person typed at sign-in
   * (the server may report another spelling later; the entry must be found again by what was typed).
   */
  tokens: (siteId: string, username: string) => `site:${siteId}:tokens:${username}`,
  /** Every token entry of one site, whichever account. */
  tokensPrefix: (siteId: string) => `site:${siteId}:tokens:`,
};
