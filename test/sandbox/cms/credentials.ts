/**
 * Who is calling (spec section 5): an API key in `X-API-Key` or the `api_key` query parameter, or
 * a JWT access token in `X-API-Token` (bare or `Bearer …`) or `Authorization: Bearer …`.
 * `authorize` turns that into the principal a route acts for, or a 401/403 problem.
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem } from '../http';
import { grants, isSuper, scopesAllow } from './access';
import type { Account } from './accounts';
import type { CmsContext } from './context';

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

const header = (req: IncomingMessage, name: string): string => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? '';
};

const bearer = (value: string): string => value.replace(/^Bearer\s+/i, '').trim();

/** Resolves the credential a request carries (the first one present, in the order above). */
export function resolveCredential(ctx: CmsContext, req: IncomingMessage, url: URL): Credential {
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

/**
 * The caller, when it holds `permission` (and `api.access`, which every authenticated call needs);
 * otherwise throws: 401 without a valid credential, 403 without the permission. A scoped API key
 * is capped by its scopes (checked against `permission`) before anything else, super admins included.
 */
export function authorize(ctx: CmsContext, req: IncomingMessage, url: URL, permission = 'api.access'): Principal {
  const cred = resolveCredential(ctx, req, url);
  if (cred.kind === 'none') throw new HttpProblem(401, 'Unauthorized', 'Authentication required.');
  if (cred.kind === 'invalid') throw new HttpProblem(401, 'Unauthorized', cred.detail);
  const { principal } = cred;
  const { account, scopes } = principal;
  if (account.state === 'disabled') throw new HttpProblem(403, 'Forbidden', 'This user account is disabled.');
  if (!scopesAllow(scopes, permission)) throw new HttpProblem(403, 'Forbidden', `API key is not authorized for: ${permission}`);
  if (isSuper(account.access)) return principal;
  if (!grants(account.access, 'api.access')) throw new HttpProblem(403, 'Forbidden', 'API access is not enabled for this user.');
  if (!grants(account.access, permission)) throw new HttpProblem(403, 'Forbidden', `Missing required permission: ${permission}`);
  return principal;
}
