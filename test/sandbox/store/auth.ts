/**
 * Who is calling (document 3, section 5): an API key in the `api_key` header, or a session token
 * from GET /user/login as `Authorization: Bearer <token>`. A credential that is sent but not
 * accepted is a 401 on every route, public ones included, so a client learns at once that its
 * key or session is gone. Inventory, login and logout need none.
 */
import type { IncomingMessage } from 'node:http';
import { header } from '../http';
import { fail } from './answers';
import type { SpecStoreContext } from './context';
import type { PlanName } from './plans';

export interface Caller {
  username: string;
  admin: boolean;
  plan: PlanName;
  via: 'apikey' | 'session';
  /** what the plan's budget is counted against: the key, or the account for sessions */
  limitKey: string;
  /** the Bearer token, for logout */
  token?: string;
}


/** The caller, null for an anonymous request; 401 for a credential that is not accepted. */
export function identify(ctx: SpecStoreContext, req: IncomingMessage): Caller | null {
  const key = header(req, 'api_key');
  if (key) {
    const record = ctx.data.keyRecord(key);
    const user = record && ctx.data.user(record.username);
    if (!record || !user) throw fail(401, 'Invalid or missing API key.', {}, { 'WWW-Authenticate': 'Bearer' });
    return { username: user.username, admin: user.admin, plan: record.plan, via: 'apikey', limitKey: `key:${record.hash}` };
  }
  const auth = header(req, 'authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) throw fail(401, 'The Authorization header must be “Bearer <token>”.', {}, { 'WWW-Authenticate': 'Bearer' });
    const token = m[1]!;
    const session = ctx.data.session(token);
    const user = session && ctx.data.user(session.username);
    if (!session || !user) throw fail(401, 'The session token is not valid (logged out, or never issued). Log in again.', {}, { 'WWW-Authenticate': 'Bearer' });
    if (session.expiresAt <= ctx.clock.now()) {
      throw fail(401, `The session expired at ${new Date(session.expiresAt).toISOString()}. Log in again.`, {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    return { username: user.username, admin: user.admin, plan: user.plan, via: 'session', limitKey: `user:${user.username.toLowerCase()}`, token };
  }
  return null;
}

/** Most routes: an API key or a session. */
export function needCaller(caller: Caller | null): Caller {
  if (!caller) throw fail(401, 'Invalid or missing API key: send an api_key header or Authorization: Bearer <token>.', {}, { 'WWW-Authenticate': 'Bearer' });
  return caller;
}

/** User creation: a logged-in administrator (by key or session). */
export function needAdmin(caller: Caller | null, what: string): Caller {
  const c = needCaller(caller);
  if (!c.admin) throw fail(403, `Only an administrator may ${what}; ${c.username} is not one.`);
  return c;
}

/** Changing or deleting an account: the account itself or an administrator. */
export function needSelfOrAdmin(caller: Caller | null, username: string, what: string): Caller {
  const c = needCaller(caller);
  if (!c.admin && c.username.toLowerCase() !== username.toLowerCase()) throw fail(403, `Only ${username} or an administrator may ${what}.`);
  return c;
}

// The server identifies the caller once, before routing; routes read it back here.
const callers = new WeakMap<IncomingMessage, Caller | null>();

export function setCaller(req: IncomingMessage, caller: Caller | null): void {
  callers.set(req, caller);
}

export function callerOf(req: IncomingMessage): Caller | null {
  return callers.get(req) ?? null;
}
