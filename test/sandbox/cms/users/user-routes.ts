/**
 * The Users endpoints (document 1, section 4 "Users"; the real service's
 * getgrav/grav-plugin-api:classes/Api/Controllers/UsersController.php where the documents say
 * "authenticated" or "not shown"):
 *
 *   GET    /users                         paged list: search, access|permission, group, filter; without
 *                                         api.users.read only the caller's own row; plugin `extra` per row
 *   GET    /users/filters|columns|row-actions   the list's extension points (api.users.read)
 *   POST   /users/{username}/row-action   {id}: 200 result; 403 the handler's refusal; 404 user or action
 *   GET    /users/{username}              200 + ETag (self, or api.users.read); 404
 *   POST   /users                         api.users.write: 201 + Location; 409 exists; 422 fields; 403 granting super
 *   PATCH  /users/{username}              self (profile fields) or api.users.write; If-Match 409; 422; 403
 *   DELETE /users/{username}              api.users.write: 204; 403 self or a super target; 404
 *   POST   /users/{username}/avatar       multipart `avatar` (or `file`): 201; 422 no file, not an image, > 8 MB
 *   DELETE /users/{username}/avatar       200
 *   POST   /users/{username}/2fa          a new secret and its QR code (self or api.users.write); 500 without 2FA support
 *   POST   /users/{username}/2fa/enable   owner only, {code}: 200; 400 code missing or wrong, no secret
 *   POST   /users/{username}/2fa/disable  owner with {code}, or forced by api.users.write / super
 *   GET|POST /users/{username}/api-keys, DELETE …/api-keys/{keyId}
 *   GET    /membership/badges/{tab}       the demo plugin's badge count ({data: {count}})
 *
 * Every account write fires its event (section 6, "Auth and user events"). The real flavour's
 * differences: its 422 for every bad request (real-wire.ts), `X-Invalidates` on writes, a
 * GIF avatar refused, an SVG QR code, `twofa_global_enabled` on a single user, no 304 on
 * `If-None-Match`, `twofa_enabled` settable by PATCH (a profile field there), an avatar change fires
 * no event and a deleted account's API keys stay on file.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldProblem, header, HttpProblem, json, readBody, requireFields, type Router } from '../../http';
import { readMultipart } from '../../multipart';
import { grants, isSuper, normalizeAccess, scopesAllow } from '../access';
import type { Account } from '../accounts';
import { keyMeta } from '../api-keys';
import { etagOf } from '../content/etag';
import { paged, pagingOf } from '../content/paging';
import type { CmsContext } from '../context';
import { authorize, requirePermission, type Principal } from '../credentials';
import { invalidates } from '../real-wire';
import { sniffImage } from '../site/image-info';
import { base32Encode, otpauthUri, verifyTotp } from '../totp';
import { AvatarFiles } from './avatars';
import { DemoUserPlugins } from './demo-plugins';
import { accessWithGroups, GROUPS, hasEffectiveAccess } from './groups';
import { assembleColumns, assembleFilterTabs, assembleRowActions, sanitizeActionResult, sanitizeColumnValues, type Authorize } from './list-extensions';
import { encodeQr } from './qr';
import { qrPngDataUri, qrSvgDataUri } from './qr-image';
import { userRecord, userRef } from './serialize';

type Body = Record<string, unknown>;

const AVATAR_MAX = 8 * 1024 * 1024;
const ISSUER = 'Sitedesk sandbox';
/** Grav's user names: letters, digits, dots, hyphens, underscores; no leading dot, no `..`; 3–64 here. */
const USERNAME_RE = /^(?!\.)(?!.*\.\.)[A-Za-z0-9._-]{3,64}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Grav's default `system.pwd_regex` (the real flavour's password rule). */
const PWD_RE = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$/;
const SCOPE_RE = /^(\*|[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_*-]+)*)$/;

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether an access payload (nested or dotted) confers `admin.super` or `api.super`. */
function accessGrantsSuper(access: unknown): boolean {
  if (!isObject(access)) return false;
  const map = normalizeAccess(access);
  return grants(map, 'api.super') || grants(map, 'admin.super');
}

export function registerUserRoutes(router: Router, ctx: CmsContext): DemoUserPlugins {
  const real = ctx.flavor === 'real';
  const plugins = new DemoUserPlugins(ctx);
  const avatars = new AvatarFiles(ctx.dataDir);

  /** The account holds the permission (its groups count; a super admin holds every api.*). */
  const holds = (a: Account, permission: string) => grants(accessWithGroups(a), permission);
  /**
   * The caller may act with `permission`: the real service asks the account only (hasPermission()),
   * the documents cap a scoped key everywhere.
   */
  const can = (p: Principal, permission: string) => (real || scopesAllow(p.scopes, permission)) && holds(p.account, permission);
  const superWithinScope = (p: Principal) => isSuper(p.account.access) && scopesAllow(p.scopes, 'admin.super');
  const passes = (p: Principal) => (authz: Authorize) => {
    if (authz === undefined || authz === null) return true;
    if (isSuper(p.account.access)) return true;
    if (typeof authz === 'string') return holds(p.account, authz);
    if (Array.isArray(authz)) return authz.some((x) => typeof x === 'string' && holds(p.account, x));
    return false;
  };
  const load = (username: string): Account => {
    const a = ctx.accounts.get(username);
    if (!a) throw new HttpProblem(404, 'Not Found', `User '${username}' not found.`);
    return a;
  };
  /** Self needs only api.access (what `p` was authorized for); anyone else `permission` too. */
  const selfOr = (p: Principal, username: string, permission: string): Principal => (p.account.username === username ? p : requirePermission(ctx, p, permission));
  const requireNotSuperTarget = (current: Account, target: Account) => {
    if (current.username !== target.username && !isSuper(current.access) && accessGrantsSuper(target.access)) {
      throw new HttpProblem(403, 'Forbidden', 'Only super-admins can manage super-admin accounts.');
    }
  };
  const headers = (tags: string[]) => (real ? invalidates(tags) : {});
  const originOf = (req: IncomingMessage) => `http://${header(req, 'host') || new URL(ctx.origin).host}`;

  // ---- the list and its extension points ----

  router.on('GET', '/users/filters', (req, res, _p, url) => {
    const p = authorize(ctx, req, url, 'api.users.read');
    const declared = plugins.filters();
    ctx.events.record('onApiUserListFilters', { filters: declared.filters.length, defaultFilter: declared.defaultFilter, showAll: declared.showAll, user: p.account.username });
    json(res, 200, { data: assembleFilterTabs(declared.filters, declared.defaultFilter, declared.showAll, passes(p)) });
  });

  router.on('GET', '/users/columns', (req, res, _p, url) => {
    const p = authorize(ctx, req, url, 'api.users.read');
    ctx.events.record('onApiUserListColumns', { user: p.account.username });
    json(res, 200, { data: { columns: assembleColumns(plugins.columns(), passes(p)) } });
  });

  router.on('GET', '/users/row-actions', (req, res, _p, url) => {
    const p = authorize(ctx, req, url, 'api.users.read');
    ctx.events.record('onApiUserListRowActions', { user: p.account.username });
    json(res, 200, { data: { actions: assembleRowActions(plugins.rowActions(), passes(p)) } });
  });

  router.on('GET', '/membership/badges/{tab}', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.users.read');
    const count = plugins.badge(params.tab!);
    if (count === null) throw new HttpProblem(404, 'Not Found', `No badge for '${params.tab}'.`);
    json(res, 200, { data: { count } });
  });

  router.on('GET', '/users', (req, res, _p, url) => {
    const p = authorize(ctx, req, url, 'api.access');
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const q = url.searchParams;
    if (!can(p, 'api.users.read')) {
      // without api.users.read the caller sees their own row, in the same envelope
      json(res, 200, paged(ctx.flavor, ctx.prefix, '/users', [userRecord(ctx, p.account)], 1, page, perPage));
      return;
    }
    let rows = ctx.accounts.list();
    const search = (q.get('search') ?? '').trim().toLowerCase();
    if (search) rows = rows.filter((a) => [a.username, a.email, a.fullname].some((t) => (t ?? '').toLowerCase().includes(search)));
    const filter = (q.get('filter') ?? '').trim();
    // a tab can only narrow: the access and group filters and paging come after it
    if (filter !== '' && filter !== 'all') {
      ctx.events.record('onApiUserListFilter', { filter, query: Object.fromEntries(q), user: p.account.username });
      rows = plugins.narrow(filter, rows) ?? rows;
    }
    const access = (q.get('access') ?? q.get('permission') ?? '').trim();
    const group = (q.get('group') ?? '').trim();
    if (group) rows = rows.filter((a) => (a.groups ?? []).includes(group));
    if (access) rows = rows.filter((a) => hasEffectiveAccess(a, access));
    const slice = rows.slice((page - 1) * perPage, page * perPage);
    const data = slice.map((a) => userRecord(ctx, a));
    if (data.length) {
      const usernames = slice.map((a) => a.username);
      ctx.events.record('onApiUserListColumnData', { usernames, user: p.account.username });
      try {
        const values = plugins.columnData(slice);
        for (const row of data) {
          const extra = values[row.username as string];
          if (!isObject(extra)) continue;
          const clean = sanitizeColumnValues(extra);
          if (Object.keys(clean).length) row.extra = clean;
        }
      } catch {
        // a failing plugin leaves the values out, never the list
      }
    }
    json(res, 200, paged(ctx.flavor, ctx.prefix, '/users', data, rows.length, page, perPage));
  });

  // the real service's groups listing (GroupsController::index; the documents have none): read-only here
  if (real) {
    router.on('GET', '/groups', (req, res, _p, url) => {
      authorize(ctx, req, url, 'api.users.read');
      const { page, perPage } = pagingOf(ctx.flavor, url);
      const search = (url.searchParams.get('search') ?? '').trim().toLowerCase();
      const rows = Object.entries(GROUPS)
        .filter(([name, g]) => !search || name.includes(search) || g.label.toLowerCase().includes(search))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, g]) => ({ groupname: name, readableName: g.label, description: '', icon: '', enabled: true, access: g.access }));
      json(res, 200, paged(ctx.flavor, ctx.prefix, '/groups', rows.slice((page - 1) * perPage, page * perPage), rows.length, page, perPage));
    });
  }

  router.on('POST', '/users/{username}/row-action', async (req, res, params, url) => {
    const p = authorize(ctx, req, url, 'api.users.read');
    const target = load(params.username!);
    const body = await readBody(req);
    const id = typeof body.id === 'string' ? body.id.trim() : '';
    if (id === '') throw fieldProblem(400, 'Row action id is required.', [{ field: 'id', message: 'Row action id is required.' }]);
    // re-assembled for this caller: an action it may not see is as unknown as a made-up id
    const declared = assembleRowActions(plugins.rowActions(), passes(p)).find((a) => a.id === id);
    if (!declared) throw new HttpProblem(404, 'Not Found', `Row action '${id}' is not available.`);
    const call = { id, plugin: String(declared.plugin ?? ''), action: String(declared.action ?? ''), target, caller: p.account, origin: originOf(req) };
    ctx.events.record('onApiUserListRowAction', { id, plugin: call.plugin, action: call.action, username: target.username, user: p.account.username });
    let result: unknown;
    try {
      result = await plugins.runAction(call);
    } catch (err) {
      if (err instanceof HttpProblem && err.status === 403) throw err;
      json(res, 200, { data: { status: 'error', message: 'The action could not be completed.' } });
      return;
    }
    json(res, 200, { data: sanitizeActionResult(result, originOf(req)) });
  });

  // ---- one account ----

  router.on('GET', '/users/{username}', (req, res, params, url) => {
    selfOr(authorize(ctx, req, url, 'api.access'), params.username!, 'api.users.read');
    const record = userRecord(ctx, load(params.username!));
    const etag = etagOf(record);
    if (!real && header(req, 'if-none-match') === etag) {
      res.writeHead(304, { ETag: etag }).end();
      return;
    }
    json(res, 200, { data: real ? { ...record, twofa_global_enabled: ctx.settings.twofaAvailable } : record }, { ETag: etag });
  });

  router.on('POST', '/users', async (req, res, _params, url) => {
    const p = authorize(ctx, req, url, 'api.users.write');
    const body = await readBody(req);
    requireFields(body, ['username', 'password', 'email'], 422);
    const username = String(body.username);
    if (typeof body.username !== 'string' || !USERNAME_RE.test(username)) {
      throw fieldProblem(422, 'Invalid username format.', [
        { field: 'username', message: 'Username must be 3-64 characters and contain only letters, numbers, periods, hyphens, and underscores (and cannot start with a period).' },
      ]);
    }
    if (ctx.accounts.get(username)) throw new HttpProblem(409, 'Conflict', `User '${username}' already exists.`);
    if (body.access !== undefined && !superWithinScope(p) && accessGrantsSuper(body.access)) {
      throw new HttpProblem(403, 'Forbidden', 'Granting super-admin access requires super-admin privileges.');
    }
    validateAccountFields(body, real);
    const account = await ctx.accounts.create({
      username,
      password: String(body.password),
      email: String(body.email),
      fullname: typeof body.fullname === 'string' ? body.fullname : '',
      title: typeof body.title === 'string' ? body.title : '',
      state: body.state === 'disabled' ? 'disabled' : 'enabled',
      access: isObject(body.access) ? body.access : {},
      // group membership can confer access: a super caller's alone
      groups: Array.isArray(body.groups) && superWithinScope(p) ? (body.groups as string[]) : [],
      language: typeof body.language === 'string' ? body.language : '',
      content_editor: typeof body.content_editor === 'string' ? body.content_editor : '',
    });
    ctx.events.record('onApiUserCreated', { user: userRef(account) });
    const location = `${ctx.prefix}/users/${encodeURIComponent(username)}`;
    json(res, 201, { data: userRecord(ctx, account) }, { Location: location, ...headers([`users:create:${username}`, 'users:list']) });
  });

  router.on('PATCH', '/users/{username}', async (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    const isSelf = caller.account.username === target.username;
    const canManage = isSuper(caller.account.access) || holds(caller.account, 'api.users.write');
    const p = selfOr(caller, target.username, 'api.users.write');
    const superCaller = superWithinScope(p);
    if (!superCaller && accessGrantsSuper(target.access)) throw new HttpProblem(403, 'Forbidden', 'Only super-admins can modify super-admin accounts.');
    const ifMatch = header(req, 'if-match');
    if (ifMatch && ifMatch.replace(/^W\//, '') !== etagOf(userRecord(ctx, target))) {
      throw new HttpProblem(409, 'Conflict', 'The resource has been modified since you last retrieved it. Please fetch the latest version and try again.');
    }
    const body = await readBody(req);
    if (Object.keys(body).length === 0) throw fieldProblem(422, 'Request body must contain fields to update.', []);
    if (!canManage) {
      for (const f of ['state', 'access']) if (f in body) throw new HttpProblem(403, 'Forbidden', `Modifying '${f}' requires the 'api.users.write' permission.`);
    }
    if (!superCaller) {
      if ('groups' in body) throw new HttpProblem(403, 'Forbidden', "Modifying 'groups' requires super-admin privileges.");
      if (body.access !== undefined && accessGrantsSuper(body.access)) throw new HttpProblem(403, 'Forbidden', 'Granting super-admin access requires super-admin privileges.');
    }
    validateAccountFields(body, real);
    const patch: Parameters<typeof ctx.accounts.update>[1] = {};
    for (const f of ['email', 'fullname', 'title', 'language', 'content_editor'] as const) if (typeof body[f] === 'string') patch[f] = body[f] as string;
    if (real && typeof body.twofa_enabled === 'boolean') patch.twofa_enabled = body.twofa_enabled;
    if (canManage && (body.state === 'enabled' || body.state === 'disabled')) patch.state = body.state;
    if (canManage && isObject(body.access)) patch.access = body.access;
    if (superCaller && Array.isArray(body.groups)) patch.groups = body.groups as string[];
    const passwordChanged = typeof body.password === 'string' && body.password !== '';
    if (passwordChanged) patch.password = body.password as string;
    // a new password or a disabled account ends every token issued before
    if (passwordChanged || patch.state === 'disabled') patch.api_tokens_valid_after = ctx.clock.nowSec();
    const updated = (await ctx.accounts.update(target.username, patch))!;
    ctx.events.record('onApiUserUpdated', { user: userRef(updated), fields: Object.keys(body).filter((k) => k !== 'password') });
    const record = userRecord(ctx, updated);
    json(res, 200, { data: record }, { ETag: etagOf(record), ...headers([`users:update:${target.username}`, 'users:list']) });
  });

  router.on('DELETE', '/users/{username}', (req, res, params, url) => {
    const p = authorize(ctx, req, url, 'api.users.write');
    const username = params.username!;
    if (p.account.username === username) throw new HttpProblem(403, 'Forbidden', 'You cannot delete your own account.');
    const target = load(username);
    if (!isSuper(p.account.access) && accessGrantsSuper(target.access)) throw new HttpProblem(403, 'Forbidden', 'Only super-admins can delete super-admin accounts.');
    ctx.events.record('onApiBeforeUserDelete', { user: userRef(target) });
    ctx.accounts.remove(username);
    if (target.avatar) avatars.remove(target.avatar.name);
    if (!real) ctx.apiKeys.revokeAll(username);
    plugins.memberships.put(username, null);
    ctx.events.record('onApiUserDeleted', { username });
    res.writeHead(204, headers([`users:delete:${username}`, 'users:list'])).end();
  });

  // ---- avatar ----

  router.on('POST', '/users/{username}/avatar', async (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    selfOr(caller, target.username, 'api.users.write');
    const form = await readMultipart(req, AVATAR_MAX * 4);
    const file = form.files.find((f) => f.field === 'avatar') ?? form.files.find((f) => f.field === 'file');
    if (!file) throw fieldProblem(422, 'No avatar file uploaded.', [{ field: 'avatar', message: 'No avatar file uploaded.' }]);
    if (file.data.length > AVATAR_MAX) throw fieldProblem(422, 'Avatar exceeds maximum size of 8 MB.', [{ field: 'avatar', message: 'Avatar exceeds maximum size of 8 MB.' }]);
    const kind = sniffImage(file.data);
    if (!kind || (real && kind.ext === 'gif')) {
      const message = real ? 'Avatar must be a valid PNG, JPEG, or WebP image.' : 'Avatar must be a valid JPEG, PNG, GIF or WebP image.';
      throw fieldProblem(422, message, [{ field: 'avatar', message }]);
    }
    const name = `${target.username}-${createHash('md5').update(`${ctx.clock.now()}${randomBytes(4).toString('hex')}`).digest('hex').slice(0, 8)}.${kind.ext}`;
    avatars.write(name, file.data);
    if (target.avatar) avatars.remove(target.avatar.name);
    const updated = { ...target, avatar: { name, type: kind.mime }, modified: ctx.clock.nowSec() };
    ctx.accounts.save(updated);
    if (!real) ctx.events.record('onApiUserUpdated', { user: userRef(updated), fields: ['avatar'] });
    json(res, 201, { data: userRecord(ctx, updated) }, headers([`users:update:${target.username}`]));
  });

  router.on('DELETE', '/users/{username}/avatar', (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    selfOr(caller, target.username, 'api.users.write');
    if (target.avatar) avatars.remove(target.avatar.name);
    const updated = { ...target, avatar: null, modified: ctx.clock.nowSec() };
    ctx.accounts.save(updated);
    if (!real) ctx.events.record('onApiUserUpdated', { user: userRef(updated), fields: ['avatar'] });
    json(res, 200, { data: userRecord(ctx, updated) }, headers([`users:update:${target.username}`]));
  });

  // ---- two-factor ----

  const requireTwofa = () => {
    if (!ctx.settings.twofaAvailable) throw new HttpProblem(500, '2FA Not Available', 'The Login plugin with 2FA support must be installed.');
  };

  router.on('POST', '/users/{username}/2fa', async (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    const p = selfOr(caller, target.username, 'api.users.write');
    requireNotSuperTarget(p.account, target);
    requireTwofa();
    const secret = base32Encode(randomBytes(20));
    const grouped = secret.match(/.{1,4}/g)!.join(' ');
    // a new secret ends the old enrolment: it has to be enabled again with a code
    await ctx.accounts.update(target.username, { twofa_secret: grouped, twofa_enabled: false });
    const qr = encodeQr(otpauthUri(secret, target.username, ISSUER));
    json(res, 200, { data: { secret: grouped, qr_code: real ? qrSvgDataUri(qr) : qrPngDataUri(qr) } });
  });

  router.on('POST', '/users/{username}/2fa/enable', async (req, res, params, url) => {
    const p = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    if (p.account.username !== target.username) throw new HttpProblem(403, 'Forbidden', 'Only the account owner can enable 2FA.');
    const body = await readBody(req);
    requireFields(body, ['code'], 400);
    requireTwofa();
    if (!target.twofa_secret) throw new HttpProblem(400, 'Bad Request', '2FA secret has not been generated. POST /users/{username}/2fa first.');
    if (!verifyTotp(target.twofa_secret, String(body.code).replace(/\s/g, ''), ctx.clock.now())) {
      throw fieldProblem(400, 'Invalid 2FA code.', [{ field: 'code', message: 'Invalid 2FA code.' }]);
    }
    const updated = (await ctx.accounts.update(target.username, { twofa_enabled: true }))!;
    ctx.events.record('onApiUser2faEnabled', { user: userRef(updated) });
    json(res, 200, { data: { twofa_enabled: true } });
  });

  router.on('POST', '/users/{username}/2fa/disable', async (req, res, params, url) => {
    const p = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    const isSelf = p.account.username === target.username;
    // the force-disable authority needs api.users.write in a key's scopes too
    const isAdmin = scopesAllow(p.scopes, 'api.users.write') && holds(p.account, 'api.users.write');
    if (!isSelf && !isAdmin) throw new HttpProblem(403, 'Forbidden', 'You do not have permission to disable 2FA for this user.');
    requireNotSuperTarget(p.account, target);
    // read even when forced: a body that is not JSON is refused on every route
    const body = await readBody(req);
    if (isSelf && !isAdmin) {
      requireFields(body, ['code'], 400);
      requireTwofa();
      if (!target.twofa_secret || !verifyTotp(target.twofa_secret, String(body.code).replace(/\s/g, ''), ctx.clock.now())) {
        throw fieldProblem(400, 'Invalid 2FA code.', [{ field: 'code', message: 'Invalid 2FA code.' }]);
      }
    }
    const updated = (await ctx.accounts.update(target.username, { twofa_enabled: false, twofa_secret: '' }))!;
    ctx.events.record('onApiUser2faDisabled', { user: userRef(updated), forced_by_admin: !isSelf });
    json(res, 200, { data: { twofa_enabled: false } });
  });

  // ---- API keys ----

  router.on('GET', '/users/{username}/api-keys', (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    selfOr(caller, target.username, 'api.users.read');
    json(res, 200, { data: ctx.apiKeys.listFor(target.username) });
  });

  router.on('POST', '/users/{username}/api-keys', async (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    const p = selfOr(caller, target.username, 'api.users.write');
    requireNotSuperTarget(p.account, target);
    const body = await readBody(req);
    const { name, scopes, expiryDays } = keyRequest(body);
    // a scoped key mints only keys within its own scopes, and never an unscoped one
    if (p.scopes.length) {
      if (scopes.length === 0) throw new HttpProblem(403, 'Forbidden', 'A scoped API key cannot create an unscoped key.');
      for (const s of scopes) if (!scopesAllow(p.scopes, s)) throw new HttpProblem(403, 'Forbidden', `API key cannot grant a scope outside its own: ${s}`);
    }
    const { record, api_key } = ctx.apiKeys.create({ username: target.username, name: name || 'API Key', scopes, expiry_days: expiryDays });
    json(res, 201, { data: { ...keyMeta(record), api_key } }, { Location: `${ctx.prefix}/users/${encodeURIComponent(target.username)}/api-keys`, ...headers([`users:update:${target.username}:api-keys`]) });
  });

  router.on('DELETE', '/users/{username}/api-keys/{keyId}', (req, res, params, url) => {
    const caller = authorize(ctx, req, url, 'api.access');
    const target = load(params.username!);
    const p = selfOr(caller, target.username, 'api.users.write');
    requireNotSuperTarget(p.account, target);
    if (!ctx.apiKeys.revokeFor(target.username, params.keyId!)) throw new HttpProblem(404, 'Not Found', `API key '${params.keyId}' not found for user '${target.username}'.`);
    res.writeHead(204, headers([`users:update:${target.username}:api-keys`])).end();
  });

  return plugins;
}

/**
 * The account fields of a create or update, checked as the account blueprint does (email, the
 * password rule, a required full name, the state's options) plus the types the sandbox insists
 * on; every problem at once, as one 422 naming the fields.
 */
function validateAccountFields(body: Body, real: boolean): void {
  const errors: { field: string; message: string }[] = [];
  const text = (f: string) => body[f] !== undefined && typeof body[f] !== 'string' && errors.push({ field: f, message: `The '${f}' field must be a string.` });
  for (const f of ['fullname', 'title', 'language', 'content_editor']) text(f);
  if ('email' in body && (typeof body.email !== 'string' || !EMAIL_RE.test(body.email.trim()))) errors.push({ field: 'email', message: 'Must be a valid email address' });
  // an empty password in an update changes nothing; a create has refused it already
  if ('password' in body && body.password !== '') {
    const pw = body.password;
    if (typeof pw !== 'string') errors.push({ field: 'password', message: "The 'password' field must be a string." });
    else if (real && !PWD_RE.test(pw)) errors.push({ field: 'password', message: 'Password must contain at least one number and one uppercase and lowercase letter, and at least 8 or more characters' });
    else if (!real && pw.length < 8) errors.push({ field: 'password', message: 'Password must be at least 8 characters.' });
  }
  if (body.fullname === '') errors.push({ field: 'fullname', message: 'Missing required field: Full name' });
  if ('state' in body && body.state !== 'enabled' && body.state !== 'disabled') errors.push({ field: 'state', message: 'Invalid input in "State"' });
  if ('access' in body && !isObject(body.access)) errors.push({ field: 'access', message: 'Invalid input in "Access"' });
  if ('groups' in body && (!Array.isArray(body.groups) || body.groups.some((g) => typeof g !== 'string' || !(g in GROUPS)))) {
    errors.push({ field: 'groups', message: `Invalid input in "Groups": the site's groups are ${Object.keys(GROUPS).join(', ')}` });
  }
  if ('twofa_enabled' in body) {
    // the documents change 2FA only through its endpoints; the real service takes the flag here
    if (!real) errors.push({ field: 'twofa_enabled', message: 'Two-factor sign-in is turned on and off with the 2FA endpoints.' });
    else if (typeof body.twofa_enabled !== 'boolean') errors.push({ field: 'twofa_enabled', message: 'Invalid input in "Two-factor authentication"' });
  }
  if (errors.length) throw fieldProblem(422, 'The submitted data did not pass blueprint validation.', errors);
}

/** name, scopes and expiry_days of a key request; 422 for anything that is not what the fields hold. */
function keyRequest(body: Body): { name: string; scopes: string[]; expiryDays: number | null } {
  const errors: { field: string; message: string }[] = [];
  if (body.name !== undefined && body.name !== null && typeof body.name !== 'string') errors.push({ field: 'name', message: "The 'name' field must be a string." });
  const scopes = body.scopes ?? [];
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || !SCOPE_RE.test(s))) {
    errors.push({ field: 'scopes', message: 'Scopes must be a list of permission names (e.g. api.pages.read).' });
  }
  const days = body.expiry_days;
  if (days !== undefined && days !== null && !(typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= 3650)) {
    errors.push({ field: 'expiry_days', message: 'expiry_days must be a whole number of days from 1 to 3650, or null for no expiry.' });
  }
  if (errors.length) throw fieldProblem(422, errors.length === 1 ? errors[0]!.message : `Invalid fields: ${errors.map((e) => e.field).join(', ')}`, errors);
  return { name: typeof body.name === 'string' ? body.name.trim() : '', scopes: scopes as string[], expiryDays: (days as number | null | undefined) ?? null };
}
