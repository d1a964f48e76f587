/**
 * Users and login as the real Swagger Petstore v3 serves them (the `real` flavour), following
 * swagger-api/swagger-petstore: src/main/java/io/swagger/petstore/controller/UserController.java
 * and data/UserData.java:
 * - Nothing is checked: no authentication, no required fields, no email format. Usernames are
 *   compared exactly (case counts). A user keeps its password in clear and GET sends it back.
 * - POST /user adds the body as sent (replacing a user of the same username); POST
 *   /user/createWithList adds each in turn (not all or nothing: a failure part-way keeps the
 *   ones before it). No body, or an empty list: 400 "No User provided. Try again?".
 * - PUT /user/{username}: the stored user is DELETED and the body added as sent, so every field
 *   the body leaves out is gone, the username included. A body without username leaves a user
 *   whose username is null, and from then on every walk of the user list that reaches it throws
 *   (data.ts): adding any user, deleting any user, changing any user, and looking up a user
 *   added after it or one that does not exist all answer 500 until the service restarts.
 *   404 "User not found" when there is no such user.
 * - DELETE /user/{username}: 200 with an empty body, whether or not there was such a user.
 * - GET /user/login: always 200, whatever the username and password (neither is checked, and
 *   neither is required): the text `Logged in user session: <random long>` (plain, not a JSON
 *   string, though typed application/json), `X-Rate-Limit: 5000` and `X-Expires-After` one hour
 *   ahead in java.util.Date.toString() form in the server's time zone (the `timeZone` setting,
 *   UTC by default). The session is not kept anywhere: the token is never asked for.
 * - GET /user/logout: always 200 "User logged out".
 */
import { randomBytes } from 'node:crypto';
import { HttpProblem, type Router } from '../../http';
import type { StoreContext } from '../context';
import { entity, javaDateString, JavaException, noEntity, untypedText } from './answers';
import type { PetstoreData } from './data';
import { readEntity, userJson, type JUser } from './entities';
import { bodyRequired, bodyText, isJson } from './params';

const unsupported = () => new HttpProblem(415, 'Unsupported Media Type', 'HTTP 415 Unsupported Media Type');

/** RandomUtils.nextLong(): 0 to Long.MAX_VALUE. */
const nextLong = () => BigInt.asUintN(63, randomBytes(8).readBigUInt64BE()).toString();

export function registerRealUserRoutes(api: Router, ctx: StoreContext, data: PetstoreData): void {
  const add = (u: JUser | null) => {
    if (u === null) throw new JavaException('NullPointerException'); // user.getUsername()
    data.addUser(u);
  };

  api.on('POST', '/user', async (req, res) => {
    const text = await bodyText(req);
    if (text !== null && !isJson(req)) throw unsupported();
    const user = text === null ? null : readEntity(text, 'user');
    if (!user) return untypedText(req, res, 400, 'No User provided. Try again?');
    add(user);
    entity(res, userJson(user));
  });

  api.on('POST', '/user/createWithList', async (req, res) => {
    const text = await bodyText(req);
    if (text !== null && !isJson(req)) throw unsupported();
    const users = text === null ? null : readEntity(text, 'users');
    if (!users || users.length === 0) return untypedText(req, res, 400, 'No User provided. Try again?');
    for (const u of users) add(u);
    entity(res, users.map((u) => userJson(u!)));
  });

  api.on('GET', '/user/login', (_req, res) => {
    const text = `Logged in user session: ${nextLong()}`;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      // UserController: a fixed hour and a fixed limit, whoever logs in
      'X-Rate-Limit': '5000',
      'X-Expires-After': javaDateString(ctx.clock.now() + 3_600_000, ctx.settings.timeZone),
    });
    res.end(text);
  });

  api.on('GET', '/user/logout', (_req, res) => entity(res, 'User logged out'));

  api.on('GET', '/user/{username}', (req, res, p) => {
    const user = data.userByName(p.username!);
    if (!user) return untypedText(req, res, 404, 'User not found');
    entity(res, userJson(user));
  });

  api.on('PUT', '/user/{username}', async (req, res, p) => {
    if (!isJson(req)) throw unsupported();
    const text = await bodyText(req);
    const user = text === null ? null : readEntity(text, 'user');
    if (!user) throw bodyRequired('Update an existent user in the store');
    const existing = data.userByName(p.username!);
    if (!existing) return untypedText(req, res, 404, 'User not found', []);
    data.deleteUser(existing.username);
    add(user);
    entity(res, userJson(user));
  });

  api.on('DELETE', '/user/{username}', (_req, res, p) => {
    data.deleteUser(p.username!);
    if (data.userByName(p.username!)) throw new JavaException('IllegalStateException'); // cannot happen: removeIf removed it
    noEntity(res);
  });
}
