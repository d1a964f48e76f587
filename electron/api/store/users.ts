/**
 * The store's user routes (document 3, "Users"), answers checked at this boundary. Login answers
 * with headers and a text body; the session token is read from the body (`… session:<token>`, the
 * reference service's wording, or the bare token, plain or as a JSON string).
 */
import * as v from 'valibot';
import type { NewStoreUser, StoreUser, UserChanges } from '../../contract/store';
import { AppError } from '../../core/app-error';
import type { Transport } from '../transport';
import { parseAnswer } from '../parse';

const UserSchema = v.object({
  id: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
  username: v.string(),
  firstName: v.optional(v.nullable(v.string())),
  lastName: v.optional(v.nullable(v.string())),
  email: v.optional(v.nullable(v.string())),
  phone: v.optional(v.nullable(v.string())),
  userStatus: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
});

// the password is never kept, even where a store sends it back
const toUser = (u: v.InferOutput<typeof UserSchema>): StoreUser => ({
  id: u.id ?? null,
  username: u.username,
  firstName: u.firstName ?? null,
  lastName: u.lastName ?? null,
  email: u.email ?? null,
  phone: u.phone ?? null,
  userStatus: u.userStatus ?? null,
});

export interface LoginAnswer {
  token: string;
  /** epoch ms, from X-Expires-After; null when absent or unreadable */
  expiresAt: number | null;
  /** X-Rate-Limit: calls per hour; null when absent or not a limit (-1) */
  perHour: number | null;
}

/** The token in a login body; null when there is none. */
export function tokenFromLoginBody(text: string): string | null {
  let body = text.trim();
  if (body.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed === 'string') body = parsed.trim();
    } catch {
      // not JSON after all: read it as text
    }
  }
  const m = /session\s*:\s*(\S+)\s*$/i.exec(body);
  if (m) return m[1]!;
  return /^[\w.~+/=-]{8,}$/.test(body) ? body : null;
}

export const storeUsers = {
  async create(t: Transport, user: NewStoreUser): Promise<StoreUser> {
    const r = await t.call({ method: 'POST', path: '/user', body: user, envelope: 'raw' });
    return toUser(parseAnswer(UserSchema, r.data, t, 'the created user'));
  },

  async createWithList(t: Transport, users: NewStoreUser[]): Promise<StoreUser[]> {
    const r = await t.call({ method: 'POST', path: '/user/createWithList', body: users, envelope: 'raw', timeoutMs: 60_000 });
    // the reference describes the answer as one User; a list is what a list of creations returns
    const list = Array.isArray(r.data) ? r.data : [r.data];
    return parseAnswer(v.array(UserSchema), list, t, 'the created users').map(toUser);
  },

  async get(t: Transport, username: string): Promise<StoreUser> {
    const r = await t.call({ path: `/user/${encodeURIComponent(username)}`, envelope: 'raw' });
    return toUser(parseAnswer(UserSchema, r.data, t, 'a user'));
  },

  /** Sends exactly `changes`. Null when the store answers without a body (the reference's PUT does). */
  async update(t: Transport, username: string, changes: UserChanges): Promise<StoreUser | null> {
    const r = await t.call({ method: 'PUT', path: `/user/${encodeURIComponent(username)}`, body: changes, envelope: 'raw' });
    if (r.data === undefined) return null;
    return toUser(parseAnswer(UserSchema, r.data, t, 'the updated user'));
  },

  async remove(t: Transport, username: string): Promise<void> {
    await t.call({ method: 'DELETE', path: `/user/${encodeURIComponent(username)}`, envelope: 'raw' });
  },

  async login(t: Transport, username: string, password: string, now: number): Promise<LoginAnswer> {
    const r = await t.call<string | undefined>({ path: '/user/login', query: { username, password }, auth: false, envelope: 'text' });
    const token = tokenFromLoginBody(r.data ?? '');
    if (!token) {
      throw new AppError({ code: 'bad_response', message: `${t.host} accepted the login but sent no session token Sitedesk can use.`, detail: (r.data ?? '').slice(0, 200) });
    }
    const expires = Date.parse(r.headers.get('x-expires-after') ?? '');
    const perHour = Number(r.headers.get('x-rate-limit') ?? NaN);
    return {
      token,
      // a date already past would end the session at once; the store's clock is off, so trust the 401 instead
      expiresAt: Number.isNaN(expires) || expires <= now ? null : expires,
      perHour: Number.isInteger(perHour) && perHour >= 0 ? perHour : null,
    };
  },

  /** Ends the session the transport's credentials carry. */
  async logout(t: Transport): Promise<void> {
    await t.call({ path: '/user/logout', envelope: 'raw', timeoutMs: 8000 });
  },
};
