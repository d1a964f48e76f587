/**
 * Users (document 3, "Users"). Choices where the document leaves room, written down:
 * - POST /user and POST /user/createWithList need a logged-in administrator (API key or session
 *   of an administrator account): 401 without a credential, 403 for anyone else. A list is all
 *   or nothing. New accounts are plain users on the Free plan.
 * - GET /user/login takes `username` and `password` from the query (or a form/JSON body) and
 *   answers 200 with `X-Expires-After` (ISO 8601 UTC), `X-Rate-Limit` (calls per hour of the
 *   account's plan, -1 = unlimited) and a text body `logged in user session:<token>`; the token
 *   is then sent as `Authorization: Bearer <token>`. Wrong or missing credentials: 400.
 * - GET /user/logout ends the Bearer session it is called with (200 either way).
 * - GET /user/{username} needs a caller and never includes the password; PUT and DELETE need the
 *   account itself or an administrator (403 otherwise). PUT changes only the fields it is sent.
 */
import type { IncomingMessage } from 'node:http';
import { json, readBody, readJson, type Router } from '../http';
import { verifyPassword, hashPassword } from '../passwords';
import { fail, fieldsFail, okMessage } from './answers';
import { callerOf, needAdmin, needCaller, needSelfOrAdmin } from './auth';
import type { SpecStoreContext } from './context';
import { userView, type UserRecord } from './model';
import { callsPerHour } from './plans';
import { readUser, readUserChanges, readUserList, usernameParam, type UserInput } from './validate';

export function registerUserRoutes(api: Router, ctx: SpecStoreContext): void {
  const { data } = ctx;

  const mustUser = (username: string): UserRecord => {
    const user = data.user(username);
    if (!user) throw fail(404, `User not found: there is no user ${username}.`);
    return user;
  };

  const newRecords = (users: UserInput[]): Promise<Omit<UserRecord, 'id'>[]> =>
    Promise.all(
      users.map(async ({ password, ...fields }) => ({ ...fields, passwordHash: await hashPassword(password), admin: false, plan: 'free' as const })),
    );

  api.on('POST', '/user', async (req, res) => {
    needAdmin(callerOf(req), 'create users');
    const input = readUser(await readJson(req));
    if (data.user(input.username)) throw fieldsFail(400, 'Invalid input', [{ field: 'username', message: `The username “${input.username}” is taken.` }]);
    const [user] = data.addUsers(await newRecords([input]));
    json(res, 200, userView(user!));
  });

  api.on('POST', '/user/createWithList', async (req, res) => {
    needAdmin(callerOf(req), 'create users');
    const list = readUserList(await readJson(req));
    const taken = list.flatMap((u, i) => (data.user(u.username) ? [{ field: `${i}.username`, message: `The username “${u.username}” is taken.` }] : []));
    if (taken.length) throw fieldsFail(400, 'Invalid input', taken);
    json(res, 200, data.addUsers(await newRecords(list)).map(userView));
  });

  api.on('GET', '/user/login', async (req, res, _p, url) => {
    const body = hasBody(req) ? await readBody(req) : {};
    const pick = (k: string) => url.searchParams.get(k) ?? (typeof body[k] === 'string' ? body[k] : null);
    const username = pick('username');
    const password = pick('password');
    if (!username || !password) throw fail(400, 'Invalid username/password supplied: give both username and password.');
    const user = data.user(username);
    const valid = await verifyPassword(password, user?.passwordHash);
    if (!user || !valid) throw fail(400, 'Invalid username/password supplied.');
    const { token, record } = data.createSession(user.username, ctx.settings.sessionTtl);
    const text = `logged in user session:${token}`;
    res.writeHead(200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'X-Expires-After': new Date(record.expiresAt).toISOString(),
      'X-Rate-Limit': String(callsPerHour(ctx.limiter.plans[user.plan])),
    });
    res.end(text);
  });

  api.on('GET', '/user/logout', (req, res) => {
    const caller = callerOf(req);
    if (caller?.via === 'session' && caller.token && data.endSession(caller.token)) okMessage(res, `Logged out: the session of ${caller.username} has ended.`);
    else okMessage(res, 'There was no session to end (an API key stays valid until it is revoked).');
  });

  api.on('GET', '/user/{username}', (req, res, p) => {
    needCaller(callerOf(req));
    json(res, 200, userView(mustUser(usernameParam(p.username!))));
  });

  api.on('PUT', '/user/{username}', async (req, res, p) => {
    const caller = needCaller(callerOf(req));
    const username = usernameParam(p.username!);
    needSelfOrAdmin(caller, username, `change ${username}`);
    const user = mustUser(username);
    const { password, ...changes } = readUserChanges(await readJson(req), user.username);
    const next: UserRecord = { ...user, ...changes, ...(password !== undefined ? { passwordHash: await hashPassword(password) } : {}) };
    data.putUser(next);
    json(res, 200, userView(next));
  });

  api.on('DELETE', '/user/{username}', (req, res, p) => {
    const caller = needCaller(callerOf(req));
    const username = usernameParam(p.username!);
    needSelfOrAdmin(caller, username, `delete ${username}`);
    const user = mustUser(username);
    data.removeUser(user.username);
    okMessage(res, `User ${user.username} deleted.`);
  });
}

const hasBody = (req: IncomingMessage) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
