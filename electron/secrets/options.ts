/**
 * The environment switches that choose where secrets go, read in one place for every entry that
 * starts a Host (the Electron utility process and browser mode): `SITEDESK_SECRETS=memory` keeps
 * them in memory, `SITEDESK_KEYCHAIN_SERVICE` names the keychain service (tests use their own, so
 * they never touch a person's entries).
 */
import type { OpenSecretsOptions } from './keychain';

/** The options the environment asks for, or null when it asks for nothing (the OS keychain as usual). */
export function secretsOptionsFromEnv(env: Record<string, string | undefined> = process.env): OpenSecretsOptions | null {
  const memory = env.SITEDESK_SECRETS === 'memory';
  const service = env.SITEDESK_KEYCHAIN_SERVICE;
  if (!memory && !service) return null;
  return { ...(memory ? { force: 'memory' as const } : {}), ...(service ? { service } : {}) };
}
