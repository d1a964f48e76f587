/**
 * One store site's sign-in. The site's setting chooses how: its API key (kept with the site, sent
 * as the `api_key` header) or a user login (GET /user/login; the session token goes to the
 * keychain, sent as `Authorization: Bearer`). A login session cannot be refreshed: it ends at the
 * store's X-Expires-After, or when the store refuses it (401), and the person logs in again.
 */
import type { Site } from '../contract';
import type { StoreSessionInfo } from '../contract/store';
import { AppError, isAppError } from '../base/app-error';
import type { CredentialSource, Transport } from '../api/transport';
import { storeUsers } from '../api/store/users';
import type { StoreRepo, StoredStoreSession } from '../db/repos/store';
import { siteAccount, type SecretStore } from '../secrets/secret-store';
import type { ApiKeys } from './api-keys';

/** Under the site's prefix, so removing the site removes it with the rest. */
export const storeSessionAccount = (siteId: string) => `${siteAccount.prefix(siteId)}store-session`;

export interface StoreSessionDeps {
  /** The site's row (from the store service's SiteRows: read once, forgotten at an edit). */
  site: () => Site;
  secrets: SecretStore;
  /** The API keys, read once (see api-keys.ts). */
  apiKeys: ApiKeys;
  repo: StoreRepo;
  emit: (info: StoreSessionInfo) => void;
  now: () => number;
}

const clock = (iso: string) => iso.slice(11, 16);

export class StoreSession implements CredentialSource {
  private token: string | null | undefined; // undefined: not read from the keychain yet
  private stored: StoredStoreSession | undefined;

  constructor(private readonly deps: StoreSessionDeps) {
    this.stored = deps.repo.session(deps.site().id);
  }

  private get siteId() {
    return this.deps.site().id;
  }

  /** A login whose expiry has passed, by the local clock. */
  private ended(s: StoredStoreSession | undefined): boolean {
    return s?.via === 'password' && s.state === 'signed_in' && s.expiresAt !== null && Date.parse(s.expiresAt) <= this.deps.now();
  }

  info(): StoreSessionInfo {
    const site = this.deps.site();
    const s = this.stored;
    const none = { siteId: site.id, username: null, expiresAt: null, rateLimitPerHour: null };
    if (site.authMode === 'apikey') {
      if (!site.hasApiKey) return { ...none, state: 'signed_out', via: null };
      if (s?.via === 'apikey' && s.state === 'expired') return { ...none, state: 'expired', via: 'apikey', ...(s.reason ? { reason: s.reason } : {}) };
      return { ...none, state: 'signed_in', via: 'apikey' };
    }
    if (!s || s.via !== 'password') return { ...none, state: 'signed_out', via: null };
    const ended = this.ended(s);
    const reason = ended ? `The login session ended at ${clock(s.expiresAt!)} UTC. Log in again.` : s.reason;
    return {
      siteId: site.id,
      state: ended ? 'expired' : s.state,
      via: 'password',
      username: s.username,
      expiresAt: s.expiresAt,
      rateLimitPerHour: s.rateLimit,
      ...(reason ? { reason } : {}),
    };
  }

  private save(next: StoredStoreSession | undefined): void {
    if (next) this.deps.repo.putSession(next);
    else this.deps.repo.removeSession(this.siteId);
    this.stored = next;
    this.deps.emit(this.info());
  }

  private expire(reason: string, via: 'password' | 'apikey'): void {
    const s = this.stored;
    this.save({
      siteId: this.siteId,
      via,
      username: via === 'password' ? (s?.username ?? null) : null,
      state: 'expired',
      reason,
      expiresAt: via === 'password' ? (s?.expiresAt ?? null) : null,
      rateLimit: via === 'password' ? (s?.rateLimit ?? null) : null,
      signedInAt: s?.signedInAt ?? null,
    });
  }

  private async loadToken(): Promise<string | null> {
    if (this.token !== undefined) return this.token;
    const raw = await this.deps.secrets.get(storeSessionAccount(this.siteId));
    try {
      this.token = raw ? ((JSON.parse(raw) as { token?: string }).token ?? null) : null;
    } catch {
      this.token = null;
    }
    return this.token;
  }

  private async forgetToken(): Promise<void> {
    this.token = null;
    await this.deps.secrets.delete(storeSessionAccount(this.siteId)).catch(() => {});
  }

  // ── credentials ────────────────────────────────────────────────────────────────────────────

  async headers(): Promise<Record<string, string>> {
    const site = this.deps.site();
    if (site.authMode === 'apikey') {
      const key = await this.deps.apiKeys.get(site.id);
      if (!key) throw new AppError({ code: 'unauthorized', message: `No API key is stored for ${site.name}. Add one in the site's settings.` });
      return { api_key: key };
    }
    const s = this.stored;
    if (this.ended(s)) {
      this.expire(this.info().reason!, 'password');
      await this.forgetToken();
    }
    if (this.stored?.via !== 'password' || this.stored.state !== 'signed_in') {
      throw new AppError({ code: 'unauthorized', message: this.stored?.reason ?? `Log in to ${site.name} first.` });
    }
    const token = await this.loadToken();
    if (!token) {
      this.expire('The saved login is no longer in the keychain. Log in again.', 'password');
      throw new AppError({ code: 'unauthorized', message: `Log in to ${site.name} again.` });
    }
    return { Authorization: `Bearer ${token}` };
  }

  /** No refresh exists: a refused key or session is reported, and the call fails. */
  async unauthorized(sent: Record<string, string>): Promise<boolean> {
    const site = this.deps.site();
    if (site.authMode === 'apikey') {
      if (sent.api_key) {
        this.deps.apiKeys.forget(site.id);
        this.expire(`${site.name} refused the API key. Check it in the site's settings.`, 'apikey');
      }
      return false;
    }
    const token = await this.loadToken();
    if (token && sent.Authorization === `Bearer ${token}`) {
      await this.forgetToken();
      this.expire('The store ended the login session (it expired, or it was logged out elsewhere). Log in again.', 'password');
    }
    return false;
  }

  /** A call went through: a key refused before (and fixed since) is fine again. */
  succeeded(): void {
    if (this.stored?.via === 'apikey' && this.stored.state === 'expired' && this.deps.site().authMode === 'apikey') this.save(undefined);
  }

  // ── flows ──────────────────────────────────────────────────────────────────────────────────

  async login(publicTransport: Transport, username: string, password: string): Promise<StoreSessionInfo> {
    const site = this.deps.site();
    if (site.authMode !== 'password') {
      throw new AppError({ code: 'invalid_input', message: `${site.name} is set to use an API key. Change its sign-in setting to log in with a user name and password.` });
    }
    const answer = await storeUsers.login(publicTransport, username, password, this.deps.now());
    // keychain first: if it refuses, no half-logged-in state is recorded
    await this.deps.secrets.set(storeSessionAccount(this.siteId), JSON.stringify({ token: answer.token, username }));
    this.token = answer.token;
    this.save({
      siteId: this.siteId,
      via: 'password',
      username,
      state: 'signed_in',
      reason: null,
      expiresAt: answer.expiresAt === null ? null : new Date(answer.expiresAt).toISOString(),
      rateLimit: answer.perHour,
      signedInAt: new Date(this.deps.now()).toISOString(),
    });
    return this.info();
  }

  /** Ends the session on the store (when it can be reached) and here. */
  async logout(transport: Transport): Promise<{ info: StoreSessionInfo; revoked: boolean }> {
    let revoked = true;
    const token = this.deps.site().authMode === 'password' ? await this.loadToken().catch(() => null) : null;
    if (token && this.stored?.state === 'signed_in' && !this.ended(this.stored)) {
      try {
        await storeUsers.logout(transport);
      } catch (err) {
        // a 401 means the store had ended it already; anything else (offline): forget it here all
        // the same, it runs out on its own
        revoked = isAppError(err) && err.code === 'unauthorized';
      }
    }
    await this.forgetToken();
    this.save(undefined);
    return { info: this.info(), revoked };
  }

  /** Forget everything local (the address or sign-in setting changed, or the account was deleted). */
  async reset(): Promise<void> {
    await this.forgetToken();
    this.save(undefined);
  }

  /** The secrets this session holds now (key, login token): the store's text never carries them on. */
  held(): (string | null | undefined)[] {
    return [this.deps.apiKeys.held(this.siteId), this.token];
  }

  /** The account logged in here, if any (its deletion ends the session). */
  loggedInAs(): string | null {
    return this.stored?.via === 'password' ? this.stored.username : null;
  }
}
