/**
 * JWTs signed HS256 with the secret in `<data>/secret.key` (made on first start). Three kinds, by
 * the `typ` claim: `access` (stateless until it expires or is revoked), `refresh` and `challenge`
 * (each also listed as live in `<data>/tokens.json`: refreshing or revoking removes a refresh
 * token's jti, a verified 2FA code burns the challenge's, so neither works twice).
 *
 * The real flavour's tokens look like the Grav API plugin's
 * (getgrav/grav-plugin-api:classes/Api/Auth/JwtAuthenticator.php, recording 03): header
 * `{typ, alg}`, claims `{iss: "grav-api", sub, iat, exp, type, jti}` with `type` one of access,
 * refresh, 2fa_challenge and a 32-hex jti. Revoking an access token (logout sends the one it was
 * made with) puts its jti on a revocation list until it would have expired.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock';
import type { Flavor } from '../flavor';

export type TokenType = 'access' | 'refresh' | 'challenge';

export interface Claims {
  iss: string;
  sub: string;
  typ: TokenType;
  jti: string;
  iat: number;
  exp: number;
}

interface LiveToken {
  sub: string;
  exp: number;
}

interface Store {
  refresh: Record<string, LiveToken>;
  challenge: Record<string, LiveToken>;
  /** revoked access tokens: jti → exp */
  revoked: Record<string, number>;
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const ISSUER = 'sitedesk-cms-sandbox';
/** the real service's `type` claim per kind */
const REAL_TYPE: Record<TokenType, string> = { access: 'access', refresh: 'refresh', challenge: '2fa_challenge' };

export class Tokens {
  private readonly secret: Buffer;
  private readonly storeFile: string;

  constructor(
    dataDir: string,
    private readonly clock: Clock,
    private readonly flavor: Flavor = 'spec',
  ) {
    const keyFile = join(dataDir, 'secret.key');
    if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
    this.secret = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
    this.storeFile = join(dataDir, 'tokens.json');
  }

  /** Signs a token of `typ` for `sub`, valid `ttlSeconds`; refresh and challenge tokens are recorded live. */
  issue(typ: TokenType, sub: string, ttlSeconds: number): { token: string; claims: Claims } {
    const iat = this.clock.nowSec();
    const claims: Claims = { iss: ISSUER, sub, typ, jti: randomUUID(), iat, exp: iat + ttlSeconds };
    let head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    let body = b64(JSON.stringify(claims));
    if (this.flavor === 'real') {
      claims.jti = randomBytes(16).toString('hex');
      claims.iss = 'grav-api';
      head = b64(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
      body = b64(JSON.stringify({ iss: 'grav-api', sub, iat, exp: claims.exp, type: REAL_TYPE[typ], jti: claims.jti }));
    }
    const token = `${head}.${body}.${this.sign(`${head}.${body}`)}`;
    if (typ !== 'access') this.mutate((s) => void (s[typ][claims.jti] = { sub, exp: claims.exp }));
    return { token, claims };
  }

  /**
   * The claims of a genuine, unexpired token of kind `typ` (and, for refresh and challenge
   * tokens, one still live), else null.
   */
  verify(token: unknown, typ: TokenType): Claims | null {
    const claims = this.decode(token);
    if (!claims || claims.typ !== typ) return null;
    if (claims.exp <= this.clock.nowSec()) return null;
    if (typ !== 'access' && !this.load()[typ][claims.jti]) return null;
    if (typ === 'access' && this.load().revoked[claims.jti] !== undefined) return null;
    return claims;
  }

  /** Claims of a correctly signed token, expired or not, live or not; null for anything else. */
  decode(token: unknown): Claims | null {
    if (typeof token !== 'string') return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [head, body, sig] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${head}.${body}`));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
      if (header.alg !== 'HS256') return null;
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims & { type?: string };
      if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || typeof claims.exp !== 'number') return null;
      if (claims.typ === undefined && typeof claims.type === 'string') {
        // a real-flavour token names its kind in `type`
        const typ = (Object.keys(REAL_TYPE) as TokenType[]).find((k) => REAL_TYPE[k] === claims.type);
        if (!typ) return null;
        const { type: _type, ...rest } = claims;
        return { ...rest, typ };
      }
      return claims;
    } catch {
      return null;
    }
  }

  /** Ends a refresh or challenge token (by its jti); true when it was live. */
  revoke(jti: string): boolean {
    let was = false;
    this.mutate((s) => {
      was = Boolean(s.refresh[jti] || s.challenge[jti]);
      delete s.refresh[jti];
      delete s.challenge[jti];
    });
    return was;
  }

  /** Ends an access token before its time (a logout): refused from now until it would have expired. */
  revokeAccess(token: unknown): boolean {
    const claims = this.decode(token);
    if (!claims || claims.typ !== 'access' || claims.exp <= this.clock.nowSec()) return false;
    this.mutate((s) => void (s.revoked[claims.jti] = claims.exp));
    return true;
  }

  /** Ends every live refresh and challenge token of an account. */
  revokeAll(sub: string): void {
    this.mutate((s) => {
      for (const kind of ['refresh', 'challenge'] as const) {
        for (const [jti, t] of Object.entries(s[kind])) if (t.sub === sub) delete s[kind][jti];
      }
    });
  }

  /** Live refresh tokens per account (for tests and the control routes). */
  liveRefreshCount(sub: string): number {
    return Object.values(this.load().refresh).filter((t) => t.sub === sub && t.exp > this.clock.nowSec()).length;
  }

  private sign(input: string): string {
    return createHmac('sha256', this.secret).update(input).digest('base64url');
  }

  private load(): Store {
    if (!existsSync(this.storeFile)) return { refresh: {}, challenge: {}, revoked: {} };
    try {
      const s = JSON.parse(readFileSync(this.storeFile, 'utf8')) as Partial<Store>;
      return { refresh: s.refresh ?? {}, challenge: s.challenge ?? {}, revoked: s.revoked ?? {} };
    } catch {
      return { refresh: {}, challenge: {}, revoked: {} };
    }
  }

  private mutate(fn: (s: Store) => void): void {
    const s = this.load();
    fn(s);
    // expired entries can never verify again: drop them as we go, with a day of slack so a test
    // that moves the clock forward and back again finds what it left
    const now = this.clock.nowSec();
    for (const kind of ['refresh', 'challenge'] as const) {
      for (const [jti, t] of Object.entries(s[kind])) if (t.exp <= now - 86400) delete s[kind][jti];
    }
    for (const [jti, exp] of Object.entries(s.revoked)) if (exp <= now - 86400) delete s.revoked[jti];
    writeFileSync(this.storeFile, JSON.stringify(s, null, 2) + '\n');
  }
}
