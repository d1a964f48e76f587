/**
 * One CMS site's session: how it signs in (password → JWT pair, or API key), the tokens (in the
 * keychain, per site and account), refresh before expiry and after a 401 with one refresh in
 * flight shared by every concurrent call, and what /me says the account may do.
 */
import type { Me, SessionInfo, SetupStatus, Site } from '../contract';
import { AppError, isAppError } from '../base/app-error';
import { Transport, type CredentialSource } from '../api/transport';
import type { Pacer, Priority } from '../api/pacer';
import { cmsAuth, type TokenAnswer, type TokenPair } from '../api/cms/auth';
import { isDemoRefusal } from '../api/errors';
import type { FetchLike } from '../api/http';
import type { SessionsRepo, StoredSession } from '../db/repos/sessions';
import { siteAccount, type SecretStore } from '../secrets/secret-store';
import type { ApiKeys } from './api-keys';

interface Tokens {
  access: string;
  refresh: string;
  /** Local clock, epoch ms: computed from expires_in so a skewed server clock does not matter. */
  accessExpiresAt: number;
}

export interface SessionDeps {
  site: () => Site;
  secrets: SecretStore;
  repo: SessionsRepo;
  fetch: FetchLike;
  emit: (info: SessionInfo) => void;
  now?: () => number;
  /** Waits between retries of idempotent calls (the transport's default when absent). */
  retryDelaysMs?: number[];
  /** Refresh this long before the access token runs out. */
  refreshMarginMs?: number;
  /** The pacer of this site and the account signed in now (cms-session-manager.ts keeps one per site and account). */
  pacer?: () => Pacer | null;
  /** The Host's API keys, each read once (see api-keys.ts). */
  apiKeys: ApiKeys;
}

export class CmsSession implements CredentialSource {
  private tokens: Tokens | null | undefined; // undefined: not read from the keychain yet
  /** The API key is read from the keychain once, like the tokens (see api-keys.ts). */
  private readonly apiKeys: ApiKeys;
  private challenge: { token: string; username: string; expiresAt: number } | null = null;
  private refreshing: Promise<boolean> | null = null;
  /**
   * The account as the last token pair described it (the real service sends it with the pair). Used
   * only where /me cannot be read for it: the real service refuses /me to a demo account.
   */
  private pairUser: Me | null = null;
  private stored: StoredSession | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    this.apiKeys = deps.apiKeys;
    this.stored = deps.repo.get(deps.site().id);
  }

  private get siteId() {
    return this.deps.site().id;
  }

  /** This site's fetch (it reports whether the site answers; see cms-session-manager.ts). */
  get fetch(): FetchLike {
    return this.deps.fetch;
  }

  /** A transport for this site whose calls carry this session's credentials, paced as a person's or as background work. */
  transport(o: { priority?: Priority } = {}): Transport {
    const site = this.deps.site();
    return new Transport({
      baseUrl: site.baseUrl,
      environment: site.environment,
      fetch: this.deps.fetch,
      credentials: this,
      secrets: () => this.held(),
      ...(this.deps.pacer ? { pacer: this.deps.pacer } : {}),
      ...(o.priority ? { priority: o.priority } : {}),
      ...(this.deps.retryDelaysMs ? { retryDelaysMs: this.deps.retryDelaysMs } : {}),
    });
  }

  /** For the public auth routes: no credentials. */
  private publicTransport(): Transport {
    const site = this.deps.site();
    return new Transport({ baseUrl: site.baseUrl, environment: site.environment, fetch: this.deps.fetch, secrets: () => this.held(), authRoutes: true });
  }

  /** The secrets this session holds now (key, tokens, a 2FA challenge): the site's text never carries them on. */
  private held(): (string | null | undefined)[] {
    return [this.apiKeys.held(this.siteId), this.tokens?.access, this.tokens?.refresh, this.challenge?.token];
  }

  info(): SessionInfo {
    const site = this.deps.site();
    const s = this.stored;
    const base = { siteId: site.id, me: s?.me ?? null, meAt: s?.meAt ?? null };
    if (this.challenge) {
      return {
        ...base,
        state: 'needs_2fa',
        via: 'password',
        username: this.challenge.username,
        challengeExpiresAt: new Date(this.challenge.expiresAt).toISOString(),
      };
    }
    if (site.authMode === 'apikey') {
      if (!site.hasApiKey) return { ...base, state: 'signed_out', via: null, username: null };
      if (s?.via === 'apikey' && s.state === 'expired') {
        return { ...base, state: 'expired', via: 'apikey', username: s.username, ...(s.reason ? { reason: s.reason } : {}) };
      }
      return { ...base, state: 'signed_in', via: 'apikey', username: s?.via === 'apikey' ? s.username : null };
    }
    if (!s || s.via !== 'password') return { ...base, state: 'signed_out', via: null, username: null };
    return { ...base, state: s.state, via: 'password', username: s.username, ...(s.reason ? { reason: s.reason } : {}) };
  }

  private save(next: StoredSession | undefined): void {
    if (next) this.deps.repo.put(next);
    else this.deps.repo.remove(this.siteId);
    this.stored = next;
    this.deps.emit(this.info());
  }

  // ── credentials ────────────────────────────────────────────────────────────────────────────

  private async loadTokens(): Promise<Tokens | null> {
    if (this.tokens !== undefined) return this.tokens;
    const username = this.stored?.username;
    if (!username || this.stored?.via !== 'password') return (this.tokens = null);
    const raw = await this.deps.secrets.get(siteAccount.tokens(this.siteId, username));
    try {
      this.tokens = raw ? (JSON.parse(raw) as Tokens) : null;
    } catch {
      this.tokens = null;
    }
    return this.tokens;
  }

  private async storeTokens(username: string, pair: TokenPair): Promise<void> {
    const tokens: Tokens = { access: pair.accessToken, refresh: pair.refreshToken, accessExpiresAt: this.now() + pair.expiresIn * 1000 };
    await this.deps.secrets.set(siteAccount.tokens(this.siteId, username), JSON.stringify(tokens));
    this.tokens = tokens;
  }

  /** Every token entry of this site goes (another account's, one under an older spelling), or all but `keep`'s. */
  private async dropTokenEntries(keep?: string): Promise<void> {
    await this.deps.secrets.deleteByPrefix(siteAccount.tokensPrefix(this.siteId), keep === undefined ? undefined : siteAccount.tokens(this.siteId, keep));
  }

  private notSignedIn(): AppError {
    const site = this.deps.site();
    return new AppError({ code: 'unauthorized', message: `Sign in to ${site.name} first.` });
  }

  async headers(): Promise<Record<string, string>> {
    const site = this.deps.site();
    if (site.authMode === 'apikey') {
      const key = await this.apiKeys.get(site.id);
      if (!key) throw new AppError({ code: 'unauthorized', message: `No API key is stored for ${site.name}. Add one in the site's settings.` });
      return { 'X-API-Key': key };
    }
    if (this.stored?.state !== 'signed_in') throw this.notSignedIn();
    let tokens = await this.loadTokens();
    if (!tokens) {
      this.expire('The saved sign-in is no longer in the keychain. Sign in again.');
      throw this.notSignedIn();
    }
    if (tokens.accessExpiresAt - this.now() < (this.deps.refreshMarginMs ?? 60_000)) {
      await this.refresh();
      tokens = this.tokens ?? null;
      if (!tokens) throw this.notSignedIn();
    }
    return { 'X-API-Token': tokens.access };
  }

  async unauthorized(sent: Record<string, string>): Promise<boolean> {
    const site = this.deps.site();
    if (site.authMode === 'apikey') {
      this.apiKeys.forget(site.id);
      this.expire('The site refused the API key.', 'apikey');
      return false;
    }
    // another call refreshed while this one was in flight: just send it again with the new token
    if (this.tokens && sent['X-API-Token'] && sent['X-API-Token'] !== this.tokens.access) return true;
    return this.refresh();
  }

  /**
   * One refresh at a time per site; concurrent callers share it. True = new tokens.
   * A refused refresh token ends the session (state expired); a network failure keeps it.
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      try {
        const tokens = await this.loadTokens();
        const username = this.stored?.username;
        if (!tokens || !username) return false;
        try {
          const pair = await cmsAuth.refresh(this.publicTransport(), tokens.refresh);
          await this.storeTokens(username, pair);
          return true;
        } catch (err) {
          if (isAppError(err) && (err.code === 'unauthorized' || err.code === 'invalid_input' || err.code === 'forbidden')) {
            await this.deps.secrets.delete(siteAccount.tokens(this.siteId, username)).catch(() => {});
            this.tokens = null;
            this.expire('Your session ended (the sign-in expired or was revoked). Sign in again; nothing unsynced is lost.');
            return false;
          }
          throw err;
        }
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private expire(reason: string, via: 'password' | 'apikey' = 'password'): void {
    const s = this.stored;
    this.save({
      siteId: this.siteId,
      via,
      username: s?.username ?? null,
      state: 'expired',
      reason,
      me: s?.me ?? null,
      meAt: s?.meAt ?? null,
    });
  }

  // ── flows ──────────────────────────────────────────────────────────────────────────────────

  private requirePasswordMode(): void {
    const site = this.deps.site();
    if (site.kind !== 'cms') throw new AppError({ code: 'invalid_input', message: 'Password sign-in here is for CMS sites.' });
    if (site.authMode !== 'password') {
      throw new AppError({ code: 'invalid_input', message: `${site.name} is set to use an API key. Change its sign-in setting to use a password.` });
    }
  }

  private async finish(username: string, pair: TokenPair): Promise<SessionInfo> {
    // keychain first: if it refuses, no half-signed-in state is recorded
    await this.storeTokens(username, pair);
    // the entry this one replaces (another account, another spelling) is not left behind
    await this.dropTokenEntries(username).catch(() => {});
    this.challenge = null;
    this.pairUser = pair.user ?? null;
    this.save({ siteId: this.siteId, via: 'password', username, state: 'signed_in', reason: null, me: this.stored?.username === username ? (this.stored.me ?? null) : null, meAt: null });
    try {
      await this.refreshMe();
    } catch {
      // signed in all the same; the info panel says /me could not be read and offers a retry
    }
    return this.info();
  }

  async setupStatus(): Promise<SetupStatus> {
    return cmsAuth.setupStatus(this.publicTransport());
  }

  async setup(body: { username: string; password: string; email: string; fullname?: string; title?: string }): Promise<SessionInfo> {
    this.requirePasswordMode();
    const pair = await cmsAuth.setup(this.publicTransport(), body);
    return this.finish(body.username, pair);
  }

  async signIn(username: string, password: string): Promise<SessionInfo> {
    this.requirePasswordMode();
    this.challenge = null;
    let answer: TokenAnswer;
    try {
      answer = await cmsAuth.token(this.publicTransport(), username, password);
    } catch (err) {
      throw this.accountRefused(err);
    }
    if (answer.kind === 'challenge') {
      this.challenge = { token: answer.challengeToken, username, expiresAt: this.now() + answer.expiresIn * 1000 };
      const info = this.info();
      this.deps.emit(info);
      return info;
    }
    return this.finish(username, answer.tokens);
  }

  async verify2fa(code: string): Promise<SessionInfo> {
    const c = this.challenge;
    if (!c) throw new AppError({ code: 'invalid_input', message: 'There is no sign-in waiting for a code. Enter your password again.' });
    if (c.expiresAt <= this.now()) {
      this.challenge = null;
      this.deps.emit(this.info());
      throw new AppError({ code: 'unauthorized', message: 'The sign-in step expired (codes must be entered within 5 minutes). Enter your password again.' });
    }
    try {
      const pair = await cmsAuth.verify2fa(this.publicTransport(), c.token, code);
      return await this.finish(c.username, pair);
    } catch (err) {
      if (isAppError(err) && err.code === 'forbidden') {
        this.challenge = null;
        this.deps.emit(this.info());
        throw this.accountRefused(err);
      }
      if (isAppError(err) && err.code === 'unauthorized') {
        // The server tells an expired or spent challenge from a wrong code only in its words.
        if (/challenge/i.test(err.message)) {
          this.challenge = null;
          this.deps.emit(this.info());
          throw new AppError({ code: 'unauthorized', status: 401, message: 'The sign-in step expired on the site. Enter your password again.' });
        }
        throw new AppError({
          code: 'unauthorized',
          status: 401,
          message: 'That code was not accepted. Check the time on your device and try the current code.',
          fields: { code: 'That code was not accepted.' },
        });
      }
      throw err;
    }
  }

  /**
   * A 403 at sign-in: the real service checks the password first and then refuses the account
   * itself (no API access, or disabled), where the documents answer 401. Said as what it is: the
   * password is not the problem, the account is.
   */
  private accountRefused(err: unknown): unknown {
    if (!isAppError(err) || err.code !== 'forbidden' || isDemoRefusal(err)) return err;
    const site = this.deps.site();
    const why = err.message.trim();
    return new AppError(
      {
        code: 'forbidden',
        status: 403,
        message: `The password is right, but ${site.name} does not let this account use its API${why ? `: ${why}` : '.'} An administrator of the site can change that.`,
      },
      { cause: err },
    );
  }

  /** Leaves the two-factor step without signing in. */
  cancelChallenge(): void {
    if (!this.challenge) return;
    this.challenge = null;
    this.deps.emit(this.info());
  }

  async signOut(): Promise<{ info: SessionInfo; revoked: boolean }> {
    this.challenge = null;
    const site = this.deps.site();
    if (site.authMode === 'apikey') {
      this.save(undefined);
      return { info: this.info(), revoked: true };
    }
    const tokens = await this.loadTokens().catch(() => null);
    const username = this.stored?.username;
    let revoked = true;
    if (tokens) {
      try {
        // the access token goes along: the real service revokes the one a logout presents too,
        // so it dies now instead of living out its hour (nothing is refreshed for this call)
        const presenting: CredentialSource = { headers: async () => ({ 'X-API-Token': tokens.access }), unauthorized: async () => false };
        const site = this.deps.site();
        await cmsAuth.revoke(new Transport({ baseUrl: site.baseUrl, environment: site.environment, fetch: this.deps.fetch, credentials: presenting, secrets: () => [tokens.access, tokens.refresh], authRoutes: true }), tokens.refresh);
      } catch {
        revoked = false; // offline: forget locally all the same; the token runs out on its own
      }
    }
    if (username) await this.deps.secrets.delete(siteAccount.tokens(this.siteId, username));
    await this.dropTokenEntries().catch(() => {});
    this.tokens = null;
    this.pairUser = null;
    this.save(undefined);
    return { info: this.info(), revoked };
  }

  async refreshMe(): Promise<SessionInfo> {
    let me: Me;
    try {
      me = await cmsAuth.me(this.transport());
    } catch (err) {
      if (!isDemoRefusal(err)) throw err;
      me = this.demoAccount();
    }
    const site = this.deps.site();
    const via = site.authMode;
    // a password session keeps the name typed at sign-in: its keychain entry is found by it (a server
    // that takes an e-mail address or another case reports its own spelling in /me)
    const typed = via === 'password' && this.stored?.via === 'password' ? this.stored.username : null;
    this.save({ siteId: this.siteId, via, username: typed ?? me.username, state: 'signed_in', reason: null, me, meAt: new Date(this.now()).toISOString() });
    return this.info();
  }

  /**
   * The account when /me refused it as a demo account (the real service's demo lock refuses every
   * permission that is not a `.read`, /me's `api.access` included): signed in all the same, and as
   * the sign-in (or an earlier /me) described it, marked a demo account. Without such a
   * description (an API key) it is said what the refusal means; the session stays as it is.
   */
  private demoAccount(): Me {
    const site = this.deps.site();
    const known = this.pairUser ?? (this.stored?.username && this.stored.me?.username === this.stored.username ? this.stored.me : null);
    if (!known) {
      throw new AppError({
        code: 'forbidden',
        status: 403,
        message: `This is a demo account: ${site.name} lets it read pages but refuses it the account description (/me) and most changes, so Sitedesk cannot tell what else it may do. Sign in with another account to work on the site.`,
      });
    }
    const demo = known.demoMode ?? { enabled: true, writable: [], resetInterval: null, secondsUntilReset: null };
    return { ...known, demoMode: { ...demo, enabled: true } };
  }

  async forgotPassword(email: string): Promise<string> {
    return cmsAuth.forgot(this.publicTransport(), email);
  }

  /** `token` may be the whole pasted link; the token is taken from its query. */
  async resetPassword(username: string, token: string, password: string): Promise<string> {
    return cmsAuth.reset(this.publicTransport(), { username, token: tokenFromLink(token), password });
  }

  /** Forget everything local (the site's address or sign-in mode changed). */
  async reset(): Promise<void> {
    await this.dropTokenEntries().catch(() => {});
    this.tokens = null;
    this.pairUser = null;
    this.challenge = null;
    this.save(undefined);
  }
}

/** A pasted reset link (…/reset?user=…&token=…) or a bare token → the token. */
export function tokenFromLink(input: string): string {
  const text = input.trim();
  if (/^https?:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      const t = url.searchParams.get('token') ?? url.hash.match(/token=([^&]+)/)?.[1];
      if (t) return decodeURIComponent(t);
    } catch {
      // not a link after all: use it as typed
    }
  }
  return text;
}
