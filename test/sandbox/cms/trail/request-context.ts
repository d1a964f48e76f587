/**
 * Who made the API request that is being served, kept for the length of the request so an event
 * fired deep inside a route can be attributed (the audit trail's actor, address, user agent and
 * authentication method) without every route passing its caller along. Like the real service's
 * AuditContext, it is filled in front of the routes (server.ts wraps each API request in
 * `runRequest`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { header } from '../../http';
import type { CmsContext } from '../context';
import { realAccessToken } from '../credentials';

export interface RequestOrigin {
  actorId: string | null;
  actorName: string | null;
  actorRoles: string[];
  /**
   * `apikey` for a key; a token is `jwt` in spec, `session` in the real service (its AuditContext
   * knows only key or not); a request without a credential (a login) is `session` in both
   */
  authMethod: 'apikey' | 'jwt' | 'session';
  ip: string;
  userAgent: string;
}

const store = new AsyncLocalStorage<{ req: IncomingMessage; ctx: CmsContext; origin?: RequestOrigin }>();

export function runRequest<T>(ctx: CmsContext, req: IncomingMessage, fn: () => T): T {
  return store.run({ req, ctx }, fn);
}

/** The request being served, resolved on first use; null outside a request (control routes, seeding). */
export function currentOrigin(): RequestOrigin | null {
  const current = store.getStore();
  if (!current) return null;
  current.origin ??= originOf(current.ctx, current.req);
  return current.origin;
}

function originOf(ctx: CmsContext, req: IncomingMessage): RequestOrigin {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  let username: string | null = null;
  let authMethod: RequestOrigin['authMethod'] = 'session';
  const apiKey = header(req, 'x-api-key') || url.searchParams.get('api_key') || '';
  const record = apiKey ? ctx.apiKeys.use(apiKey) : null;
  if (record) {
    username = record.username;
    authMethod = 'apikey';
  } else {
    const claims = ctx.tokens.verify(realAccessToken(req), 'access');
    if (claims) {
      username = claims.sub;
      authMethod = ctx.flavor === 'real' ? 'session' : 'jwt';
    }
  }
  const account = username ? ctx.accounts.get(username) : null;
  return {
    actorId: account?.username ?? null,
    actorName: account ? account.fullname || account.username : null,
    actorRoles: account?.groups ?? [],
    authMethod,
    ip: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '',
    userAgent: header(req, 'user-agent'),
  };
}
