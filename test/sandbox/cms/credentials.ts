/**
 * Who is calling (spec section 5): an API key in `X-API-Key` or the `api_key` query parameter, or
 * a JWT access token in `X-API-Token` (bare or `Bearer …`) or `Authorization: Bearer …`.
 * `authorize` turns that into the principal a route acts for, or a 401/403 problem.
 *
 * The real flavour follows getgrav/grav-plugin-api:classes/Api/Middleware/AuthMiddleware.php and
 * Auth/ApiKeyAuthenticator.php, Auth/JwtAuthenticator.php, Controllers/AbstractApiController.php
 * requirePermission(): the authenticators are tried in turn (a key that is not `grav_…` or not
 * known falls through to the token), any failure is the one 401 "No valid authentication
 * credentials provided…" (recording 10); a token of a disabled account, one revoked at logout or
 * one issued before a password reset is refused, but an API key is not checked for the account's
 * state; a demo account (`api.demo`) may not use write permissions outside `demo.writable`.
 */
import type { IncomingMessage } from 'node:http';
import { header, HttpProblem } from '../http';
import { grants, isSuper, resolve, resolveExact, scopesAllow } from './access';
import type { Account } from './accounts';
import type { CmsContext } from './context';
import { accessWithGroups } from './users/groups';

export interface Principal {
  account: Account;
  via: 'api_key' | 'jwt';
  /** API key scopes; empty for JWTs and unscoped keys (no cap) */
  scopes: string[];
}

export type Credential =
  | { kind: 'none' }
  | { kind: 'invalid'; detail: string }
  | { kind: 'ok'; principal: Principal };


const bearer = (value: string): string => value.replace(/^Bearer\s+/i, '').trim();

/** Resolves the credential a request carries (the first one present, in the order above). */
function resolveCredential(ctx: CmsContext, req: IncomingMessage, url: URL): Credential {
  const apiKey = header(req, 'x-api-key') || url.searchParams.get('api_key')?.trim() || '';
  if (apiKey) {
    const record = ctx.apiKeys.use(apiKey);
    if (!record) return { kind: 'invalid', detail: 'Invalid or expired API key.' };
    const account = ctx.accounts.get(record.username);
    if (!account) return { kind: 'invalid', detail: 'Invalid or expired API key.' };
    return { kind: 'ok', principal: { account, via: 'api_key', scopes: record.scopes } };
  }
  const authz = header(req, 'authorization');
  const jwt = bearer(header(req, 'x-api-token')) || (/^Bearer\s+/i.test(authz) ? bearer(authz) : '');
  if (jwt) {
    const claims = ctx.tokens.verify(jwt, 'access');
    if (!claims) return { kind: 'invalid', detail: 'Invalid or expired token.' };
    const account = ctx.accounts.get(claims.sub);
    if (!account) return { kind: 'invalid', detail: 'Invalid or expired token.' };
    return { kind: 'ok', principal: { account, via: 'jwt', scopes: [] } };
  }
  return { kind: 'none' };
}

const NO_CREDENTIALS = 'No valid authentication credentials provided. Use an API key, JWT token, or active session.';

/**
 * The caller, when it holds `permission` (and `api.access`, which every authenticated call needs);
 * otherwise throws: 401 without a valid credential, 403 without the permission. A scoped API key
 * is capped by its scopes (checked against `permission`) before anything else, super admins included.
 */
export function authorize(ctx: CmsContext, req: IncomingMessage, url: URL, permission = 'api.access'): Principal {
  return requirePermission(ctx, identify(ctx, req, url), permission);
}

/** The caller of a request, whatever it may do; throws the flavour's 401 without a valid credential. */
export function identify(ctx: CmsContext, req: IncomingMessage, url: URL): Principal {
  if (ctx.flavor === 'real') {
    const principal = realPrincipal(ctx, req, url);
    if (!principal) throw new HttpProblem(401, 'Unauthorized', NO_CREDENTIALS);
    return principal;
  }
  const cred = resolveCredential(ctx, req, url);
  if (cred.kind === 'none') throw new HttpProblem(401, 'Unauthorized', 'Authentication required.');
  if (cred.kind === 'invalid') throw new HttpProblem(401, 'Unauthorized', cred.detail);
  return cred.principal;
}

/**
 * `principal` when it holds `permission` too, else the 403 authorize() would throw: for a route
 * that has its caller already and asks for more (self or a manager), without reading the
 * credential and the account again.
 */
export function requirePermission(ctx: CmsContext, principal: Principal, permission: string): Principal {
  if (ctx.flavor === 'real') return permittedReal(principal, permission, ctx.ops.demo.knobs.writable);
  const { account, scopes } = principal;
  if (account.state === 'disabled') throw new HttpProblem(403, 'Forbidden', 'This user account is disabled.');
  if (!scopesAllow(scopes, permission)) throw new HttpProblem(403, 'Forbidden', `API key is not authorized for: ${permission}`);
  // document 2: a demo account reads (api.access included, unlike the real plugin's lock, which
  // keys on every permission not ending in .read), and writes only with the writable permissions
  if (permission.endsWith('.write') && demoBlocked(account, permission, ctx.ops.demo.knobs.writable)) throw demoRefusal();
  if (isSuper(account.access)) return principal;
  // the account's groups grant too (users/groups.ts)
  const access = accessWithGroups(account);
  if (!grants(access, 'api.access')) throw new HttpProblem(403, 'Forbidden', 'API access is not enabled for this user.');
  if (!grants(access, permission)) throw new HttpProblem(403, 'Forbidden', `Missing required permission: ${permission}`);
  return principal;
}

/** The real service's authenticator chain: an API key, else an access token; null when neither holds. */
function realPrincipal(ctx: CmsContext, req: IncomingMessage, url: URL): Principal | null {
  const apiKey = header(req, 'x-api-key') || url.searchParams.get('api_key') || '';
  if (apiKey.startsWith('grav_')) {
    const record = ctx.apiKeys.use(apiKey);
    const account = record && ctx.accounts.get(record.username);
    if (record && account) return { account, via: 'api_key', scopes: record.scopes };
  }
  const token = realAccessToken(req);
  if (token) {
    const claims = ctx.tokens.verify(token, 'access');
    const account = claims && ctx.accounts.get(claims.sub);
    if (claims && account && account.state !== 'disabled' && claims.iat >= (account.api_tokens_valid_after ?? 0)) return { account, via: 'jwt', scopes: [] };
  }
  return null;
}

/** The access token a request carries: `X-API-Token` (bare or `Bearer …`), else `Authorization: Bearer …`. */
export function realAccessToken(req: IncomingMessage): string {
  const custom = header(req, 'x-api-token');
  if (custom) return bearer(custom);
  const authz = header(req, 'authorization');
  return /^Bearer\s+/i.test(authz) ? bearer(authz) : '';
}

/** Whether demo mode keeps a demo account (`api.demo`) from using a write permission. */
function demoBlocked(account: Account, permission: string, writable: readonly string[]): boolean {
  return resolveExact(account.access, 'api.demo') === true && !permission.endsWith('.read') && !writable.includes(permission);
}

/** The real service's demo refusal (Exceptions/DemoModeException.php); the document names no body, so both flavours send it. */
export function demoRefusal(): HttpProblem {
  return new HttpProblem(403, 'Demo Mode', 'This is a read-only demo. Changes are disabled.', { code: 'demo_mode_write_blocked' });
}

/** The caller, or null without a valid credential (no problem thrown). */
export function callerOf(ctx: CmsContext, req: IncomingMessage, url: URL): Principal | null {
  try {
    return identify(ctx, req, url);
  } catch {
    return null;
  }
}

function permittedReal(principal: Principal, permission: string, writable: readonly string[]): Principal {
  const { account, scopes } = principal;
  if (!scopesAllow(scopes, permission)) throw new HttpProblem(403, 'Forbidden', `API key is not authorized for: ${permission}`);
  if (demoBlocked(account, permission, writable)) throw demoRefusal();
  if (isSuper(account.access)) return principal;
  const access = accessWithGroups(account);
  if (resolve(access, 'api.access') !== true) throw new HttpProblem(403, 'Forbidden', 'API access is not enabled for this user.');
  if (resolve(access, permission) !== true) throw new HttpProblem(403, 'Forbidden', `Missing required permission: ${permission}`);
  return principal;
}
