/**
 * The store's user routes, answers read at this boundary (read.ts). Login answers with headers
 * and a text body; the session token is read from the body (`… session:<token>` in the document's
 * store, `Logged in user session: <n>` in the real Petstore, or the bare token, plain or as a JSON
 * string). An update never sends part of a user: the real Petstore replaces the stored user with
 * the body as sent (a body without username breaks its user list), so the account is read and
 * sent back whole with the changes (`updateBody`). A password a store sends back is used only to
 * send it back unchanged; it is never kept, shown or logged.
 */
import * as v from 'valibot';
import { STORE_ROUTE_NAMES, type NewStoreUser, type StoreUser, type UnreadableEntry, type UserChanges } from '../../contract/store';
import { AppError } from '../../base/app-error';
import type { Transport } from '../transport';
import { segment } from '../url-path';
import { parseExpiresAfter } from './expiry';
import { ask, readOne, readRows, Text, WholeNumber } from './read';

const UserSchema = v.object(
  {
    id: v.optional(v.nullable(WholeNumber)),
    username: v.pipe(Text, v.check((s) => s !== '', 'should not be empty')),
    firstName: v.optional(v.nullable(Text)),
    lastName: v.optional(v.nullable(Text)),
    email: v.optional(v.nullable(Text)),
    phone: v.optional(v.nullable(Text)),
    userStatus: v.optional(v.nullable(WholeNumber)),
  },
  'should be a user (an object)',
);

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

/** A stored account as the store sent it, every field (the password too, where a store sends it). */
export type StoredUser = Record<string, unknown> & { username: string };

const StoredUserSchema = v.looseObject({ username: v.pipe(Text, v.check((s) => s !== '', 'should not be empty')) }, 'should be a user (an object)');

/**
 * The body of an update: the account as read, the person's changes on top (a field left out stays
 * as read, the password too), and always the username as read.
 */
export function updateBody(stored: StoredUser, changes: UserChanges): StoredUser {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return { ...stored, ...given, username: stored.username };
}

export interface LoginAnswer {
  token: string;
  /** epoch ms, from X-Expires-After; null when absent, unreadable or already past */
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

const labelOf = (row: Record<string, unknown>) => (typeof row.username === 'string' && row.username ? row.username : null);

/** `/user/{username}`: the name one path segment, never one of the store's own routes under /user. */
function userPath(username: string): string {
  if (STORE_ROUTE_NAMES.includes(username))
    throw new AppError({ code: 'invalid_input', message: 'That name is one of the store’s own addresses, not a user.', fields: { username: 'That name is one of the store’s own addresses; choose another username.' } });
  return `/user/${segment(username, 'username')}`;
}

export const storeUsers = {
  async create(t: Transport, user: NewStoreUser): Promise<StoreUser> {
    const r = await ask(t, { method: 'POST', path: '/user', body: user, envelope: 'raw' });
    return toUser(readOne(UserSchema, r.data, t, 'the created user', r.route));
  },

  /** The answer read user by user: one that cannot be read is set aside, the others count. */
  async createWithList(t: Transport, users: NewStoreUser[]): Promise<{ users: StoreUser[]; unreadable: UnreadableEntry[] }> {
    const r = await ask(t, { method: 'POST', path: '/user/createWithList', body: users, envelope: 'raw', timeoutMs: 60_000 });
    // the reference describes the answer as one User; a list is what a list of creations returns
    const list = Array.isArray(r.data) ? r.data : [r.data];
    const rows = readRows(UserSchema, list, t, 'the created users', r.route, labelOf);
    return { users: rows.rows.map(toUser), unreadable: rows.unreadable };
  },

  async get(t: Transport, username: string): Promise<StoreUser> {
    const r = await ask(t, { path: userPath(username), envelope: 'raw' });
    return toUser(readOne(UserSchema, r.data, t, 'a user', r.route));
  },

  /** The account as the store keeps it, every field, for an update to start from. */
  async getStored(t: Transport, username: string): Promise<StoredUser> {
    const r = await ask(t, { path: userPath(username), envelope: 'raw' });
    return readOne(StoredUserSchema, r.data, t, 'a user', r.route) as StoredUser;
  },

  /** PUT /user/{username} with the whole account. Null when the store answers without a user (the reference's PUT may). */
  async update(t: Transport, body: StoredUser): Promise<StoreUser | null> {
    const r = await ask(t, { method: 'PUT', path: userPath(body.username), body, envelope: 'raw' });
    if (r.data === undefined) return null;
    const answer = v.safeParse(UserSchema, r.data);
    // an answer that is not the user (or not readable) is no reason to doubt the write: read it back
    return answer.success && answer.output.username === body.username ? toUser(answer.output) : null;
  },

  /** DELETE /user/{username}; the answer's body (an ApiResponse, or nothing) does not matter. */
  async remove(t: Transport, username: string): Promise<void> {
    await ask(t, { method: 'DELETE', path: userPath(username), envelope: 'text' });
  },

  async login(t: Transport, username: string, password: string, now: number): Promise<LoginAnswer> {
    const r = await ask<string | undefined>(t, { path: '/user/login', query: { username, password }, auth: false, envelope: 'text' });
    const token = tokenFromLoginBody(r.data ?? '');
    if (!token) {
      // the answer of a login route is never echoed: it may be the token in a shape not read here
      throw new AppError({ code: 'bad_response', message: `${t.host} accepted the login but sent no session token Sitedesk can use (${r.route}).` });
    }
    const expires = parseExpiresAfter(r.headers.get('x-expires-after'));
    const perHour = Number(r.headers.get('x-rate-limit') ?? NaN);
    return {
      token,
      // a date already past would end the session at once; the store's clock is off, so trust the 401 instead
      expiresAt: expires === null || expires <= now ? null : expires,
      perHour: Number.isInteger(perHour) && perHour >= 0 ? perHour : null,
    };
  },

  /** Ends the session the transport's credentials carry; the answer's text ("User logged out", an ApiResponse) does not matter. */
  async logout(t: Transport): Promise<void> {
    await ask(t, { path: '/user/logout', envelope: 'text', timeoutMs: 8000 });
  },
};
