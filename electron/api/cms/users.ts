/**
 * A CMS site's accounts (document 1, Users). Both services send the real service's record
 * (UserSerializer: title, language, groups, `avatar_url`, `twofa_secret` as a flag, ISO times); the
 * documents add `avatar {name, type}`. Rows are read one by one: a row that cannot be read is set
 * aside with its problem and the rest are listed. The list's extension points (filter tabs,
 * columns, row actions) are read with the documents' rules: unknown formatters become text, a
 * result's `url` is kept only when root-relative or on the site's own origin.
 */
import * as v from 'valibot';
import type {
  AccessMap,
  AccountForm,
  PermissionNode,
  TwofaSetup,
  UserGroupInfo,
  ApiKeyInfo,
  ApiKeyMinted,
  CmsUser,
  CmsUserRead,
  ColumnFormatter,
  ExtraValue,
  RowActionResult,
  UserListColumn,
  UserListExtensions,
  UserListTab,
  UserPage,
  UserRowAction,
} from '../../contract';
import { isPlainObject } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer, parseRows } from '../parse';
import { routePath } from '../url-path';
import { callName, pagingOf, request } from './envelope';
import { multipartFile } from '../multipart';
import { blueprintFields } from './blueprints';
import { isAppError } from '../../base/app-error';

const str = v.pipe(
  v.optional(v.nullable(v.union([v.string(), v.number()]))),
  v.transform((x) => (x == null ? '' : String(x))),
);
const time = v.pipe(
  v.optional(v.unknown()),
  v.transform((x): string | null => (typeof x === 'string' && x ? x : typeof x === 'number' && x > 0 ? new Date(x * 1000).toISOString() : null)),
);

const Access = v.pipe(
  v.optional(v.unknown()),
  v.transform((x): AccessMap => (isPlainObject(x) ? (x as AccessMap) : {})), // PHP sends an empty map as []
);

const Extra = v.pipe(
  v.optional(v.unknown()),
  v.transform((x): Record<string, ExtraValue> => {
    const out: Record<string, ExtraValue> = {};
    if (!isPlainObject(x)) return out;
    for (const [k, val] of Object.entries(x)) {
      if (val === null || typeof val === 'string' || typeof val === 'number' || typeof val === 'boolean') Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }),
);

/** One account; `origin` makes a root-relative avatar path absolute. */
const userRow = (origin: string) =>
  v.pipe(
    v.looseObject({
      username: v.pipe(v.string(), v.minLength(1)),
      email: str,
      fullname: str,
      title: str,
      state: v.optional(v.nullable(v.string())),
      access: Access,
      groups: v.optional(v.nullable(v.array(v.unknown()))),
      avatar_url: v.optional(v.nullable(v.string())),
      twofa_enabled: v.optional(v.nullable(v.union([v.boolean(), v.number()]))),
      language: str,
      content_editor: str,
      created: time,
      modified: time,
      extra: Extra,
    }),
    v.transform(
      (u): CmsUser => ({
        username: u.username,
        email: u.email ?? '',
        fullname: u.fullname ?? '',
        title: u.title ?? '',
        state: u.state || 'enabled',
        access: u.access ?? {},
        groups: (u.groups ?? []).filter((g): g is string => typeof g === 'string'),
        avatarUrl: absoluteOnSite(u.avatar_url ?? null, origin),
        twofaEnabled: Boolean(u.twofa_enabled),
        language: u.language ?? '',
        contentEditor: u.content_editor ?? '',
        created: u.created ?? null,
        modified: u.modified ?? null,
        extra: u.extra ?? {},
      }),
    ),
  );

/** A path on the site or a URL on its own origin; anything else (another host, javascript:) is dropped. */
export function absoluteOnSite(url: string | null, origin: string): string | null {
  if (!url) return null;
  if (url.startsWith('//')) return null;
  try {
    const u = new URL(url, origin);
    return u.origin === origin && (u.protocol === 'http:' || u.protocol === 'https:') ? u.toString() : null;
  } catch {
    return null;
  }
}

const FORMATTERS = new Set<ColumnFormatter>(['text', 'link', 'date', 'datetime', 'boolean', 'number', 'badge']);
const label = (x: unknown, fallback: string) => (typeof x === 'string' && x.trim() ? x.trim() : fallback);

/** Descriptors in the site's order, the first of a duplicate id kept, rows that cannot be read skipped. */
function descriptors<T extends { id: string }>(list: unknown, read: (raw: Record<string, unknown>) => T | null): T[] {
  if (!Array.isArray(list)) return [];
  const out: T[] = [];
  for (const raw of list) {
    if (!isPlainObject(raw) || typeof raw.id !== 'string' || !raw.id) continue;
    const d = read(raw);
    if (d && !out.some((x) => x.id === d.id)) out.push(d);
  }
  return out;
}

const siteOrigin = (t: Transport) => new URL(t.url('/')).origin;

export const cmsUsers = {
  async list(t: Transport, q: { page?: number; perPage?: number; search?: string; filter?: string; access?: string; group?: string }): Promise<UserPage> {
    const call: CallOptions = {
      path: '/users',
      query: {
        page: q.page ?? 1,
        per_page: q.perPage ?? 50,
        ...(q.search ? { search: q.search } : {}),
        ...(q.filter && q.filter !== 'all' ? { filter: q.filter } : {}),
        ...(q.access ? { access: q.access } : {}),
        ...(q.group ? { group: q.group } : {}),
      },
    };
    const r = await request(t, { ...call, envelope: 'raw' });
    const body = parseAnswer(v.looseObject({ data: v.unknown() }), r.data, t, 'the account list', callName(call));
    const { rows, problems } = parseRows(userRow(siteOrigin(t)), body.data, t, 'the account list', callName(call));
    const paging = pagingOf(body as Record<string, unknown>);
    const page = paging.page ?? q.page ?? 1;
    const perPage = paging.perPage ?? q.perPage ?? 50;
    const more = paging.next !== undefined ? paging.next !== null : paging.total !== null ? page * perPage < paging.total : rows.length + problems.length >= perPage;
    return {
      items: rows.map((x) => x.value),
      total: paging.total,
      page,
      perPage,
      more,
      ...(problems.length ? { unreadable: problems.map((p) => `${typeof (p.raw as { username?: unknown })?.username === 'string' ? (p.raw as { username: string }).username : `row ${p.index + 1}`}: ${p.problem}`) } : {}),
    };
  },

  async extensions(t: Transport): Promise<UserListExtensions> {
    const get = async (path: string) => (await request(t, { path })).data;
    const [filters, columns, actions] = await Promise.all([get('/users/filters'), get('/users/columns'), get('/users/row-actions')]);
    const f = isPlainObject(filters) ? filters : {};
    const tabs = descriptors<UserListTab>(f.tabs, (x) => ({
      id: x.id as string,
      plugin: label(x.plugin, ''),
      label: label(x.label, x.id as string),
      badge: typeof x.badge === 'string' || typeof x.badge === 'number' ? x.badge : null,
    }));
    if (!tabs.some((x) => x.id === 'all')) tabs.unshift({ id: 'all', plugin: '', label: 'All', badge: null });
    const defaultFilter = typeof f.defaultFilter === 'string' && tabs.some((x) => x.id === f.defaultFilter) ? f.defaultFilter : 'all';
    const cols = descriptors<UserListColumn>(isPlainObject(columns) ? columns.columns : [], (x) =>
      typeof x.field !== 'string' || !x.field
        ? null
        : {
            id: x.id as string,
            plugin: label(x.plugin, ''),
            label: label(x.label, x.id as string),
            field: x.field,
            formatter: FORMATTERS.has(x.formatter as ColumnFormatter) ? (x.formatter as ColumnFormatter) : 'text',
            sortable: x.sortable === true,
          },
    );
    const acts = descriptors<UserRowAction>(isPlainObject(actions) ? actions.actions : [], (x) => ({
      id: x.id as string,
      plugin: label(x.plugin, ''),
      label: label(x.label, x.id as string),
      confirm: typeof x.confirm === 'string' && x.confirm.trim() ? x.confirm.trim() : null,
    }));
    return { tabs, defaultFilter, showAll: f.showAll !== false, columns: cols, actions: acts };
  },

  async get(t: Transport, username: string): Promise<CmsUserRead> {
    const call: CallOptions = { path: `/users/${routePath(username)}` };
    const r = await request(t, call);
    return { user: parseAnswer(userRow(siteOrigin(t)), r.data, t, 'an account', callName(call)), etag: r.etag ?? null };
  },

  async create(t: Transport, user: Record<string, unknown>): Promise<CmsUserRead> {
    const call: CallOptions = { method: 'POST', path: '/users', body: user };
    const r = await request(t, call);
    return { user: parseAnswer(userRow(siteOrigin(t)), r.data, t, 'the new account', callName(call)), etag: r.etag ?? null };
  },

  async update(t: Transport, username: string, changes: Record<string, unknown>, etag: string | null): Promise<CmsUserRead> {
    const call: CallOptions = { method: 'PATCH', path: `/users/${routePath(username)}`, body: changes, ...(etag ? { ifMatch: etag } : {}) };
    const r = await request(t, call);
    return { user: parseAnswer(userRow(siteOrigin(t)), r.data, t, 'the account', callName(call)), etag: r.etag ?? null };
  },

  async remove(t: Transport, username: string): Promise<void> {
    await request(t, { method: 'DELETE', path: `/users/${routePath(username)}` });
  },

  async rowAction(t: Transport, username: string, actionId: string): Promise<RowActionResult> {
    const call: CallOptions = { method: 'POST', path: `/users/${routePath(username)}/row-action`, body: { id: actionId } };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({ status: v.optional(v.unknown()), message: v.optional(v.unknown()), url: v.optional(v.unknown()) }), r.data, t, 'the result of an action', callName(call));
    return {
      ok: d.status !== 'error',
      message: typeof d.message === 'string' && d.message.trim() ? t.scrub(d.message.trim()).slice(0, 512) : null,
      url: typeof d.url === 'string' ? absoluteOnSite(d.url, siteOrigin(t)) : null,
    };
  },

  async apiKeys(t: Transport, username: string): Promise<ApiKeyInfo[]> {
    const call: CallOptions = { path: `/users/${routePath(username)}/api-keys` };
    const r = await request(t, call);
    return parseAnswer(v.array(ApiKey), r.data, t, 'the API keys', callName(call));
  },

  async createApiKey(t: Transport, username: string, key: { name: string; scopes: string[]; expiryDays: number | null }): Promise<ApiKeyMinted> {
    const call: CallOptions = { method: 'POST', path: `/users/${routePath(username)}/api-keys`, body: { name: key.name, scopes: key.scopes, expiry_days: key.expiryDays } };
    const r = await request(t, call);
    // the raw key is in this answer only: it is never quoted in an error
    const d = parseAnswer(ApiKey, r.data, t, 'the new API key', callName(call));
    const raw = parseAnswer(v.looseObject({ api_key: v.pipe(v.string(), v.minLength(1)) }), r.data, t, 'the new API key', callName(call));
    return { ...d, apiKey: raw.api_key };
  },

  async deleteApiKey(t: Transport, username: string, keyId: string): Promise<void> {
    await request(t, { method: 'DELETE', path: `/users/${routePath(username)}/api-keys/${routePath(keyId)}` });
  },

  /** The avatar as multipart field `avatar` (both services also take `file`); the answer is the account. */
  async uploadAvatar(t: Transport, username: string, file: { name: string; type: string; bytes: Uint8Array }): Promise<CmsUserRead> {
    const call: CallOptions = { method: 'POST', path: `/users/${routePath(username)}/avatar`, raw: multipartFile('avatar', file), timeoutMs: 2 * 60_000 };
    const r = await request(t, call);
    return { user: parseAnswer(userRow(siteOrigin(t)), r.data, t, 'the account', callName(call)), etag: r.etag ?? null };
  },

  async removeAvatar(t: Transport, username: string): Promise<CmsUserRead> {
    const call: CallOptions = { method: 'DELETE', path: `/users/${routePath(username)}/avatar` };
    const r = await request(t, call);
    return { user: parseAnswer(userRow(siteOrigin(t)), r.data, t, 'the account', callName(call)), etag: r.etag ?? null };
  },

  /** A new secret (the real service answers its QR as an SVG data URI, the documents as PNG). */
  async twofaSetup(t: Transport, username: string): Promise<TwofaSetup> {
    const call: CallOptions = { method: 'POST', path: `/users/${routePath(username)}/2fa`, body: {} };
    const r = await request(t, call);
    // the secret is in this answer only: it is never quoted in an error
    const d = parseAnswer(v.looseObject({ secret: v.pipe(v.string(), v.minLength(16)), qr_code: v.optional(v.unknown()) }), r.data, t, 'the new 2FA secret', callName(call));
    return { secret: d.secret, qrCode: imageDataUri(d.qr_code) };
  },

  async twofaEnable(t: Transport, username: string, code: string): Promise<{ twofaEnabled: boolean }> {
    const call: CallOptions = { method: 'POST', path: `/users/${routePath(username)}/2fa/enable`, body: { code } };
    const r = await request(t, call);
    return { twofaEnabled: parseAnswer(TwofaState, r.data, t, 'the 2FA state', callName(call)).twofa_enabled };
  },

  async twofaDisable(t: Transport, username: string, code?: string): Promise<{ twofaEnabled: boolean }> {
    const call: CallOptions = { method: 'POST', path: `/users/${routePath(username)}/2fa/disable`, body: code ? { code } : {} };
    const r = await request(t, call);
    return { twofaEnabled: parseAnswer(TwofaState, r.data, t, 'the 2FA state', callName(call)).twofa_enabled };
  },

  /**
   * The account form: the users blueprint, the permission tree and the groups. `/groups` is the real
   * service's (the documents have none): where it answers 404 or 403 the groups are not known, and
   * the form says so rather than guessing what an account inherits.
   */
  async form(t: Transport): Promise<AccountForm> {
    const blueprint: CallOptions = { path: '/blueprints/users' };
    const tree: CallOptions = { path: '/blueprints/users/permissions' };
    const [b, p, groups] = await Promise.all([request(t, blueprint), request(t, tree), cmsUsers.groups(t).catch(unknownGroups)]);
    const d = parseAnswer(v.looseObject({ fields: v.optional(v.unknown()) }), b.data, t, 'the account form', callName(blueprint));
    return {
      fields: blueprintFields(d.fields, t, 'the account form', callName(blueprint)),
      permissions: parseAnswer(v.array(Permission), p.data, t, 'the permission tree', callName(tree)),
      groups,
    };
  },

  /** Every group, read page by page (a site has a few; 500 is more than any form can show). */
  async groups(t: Transport): Promise<UserGroupInfo[]> {
    const out: UserGroupInfo[] = [];
    for (let page = 1; page <= 5; page++) {
      const call: CallOptions = { path: '/groups', query: { page, per_page: 100 } };
      const r = await request(t, { ...call, envelope: 'raw' });
      const body = parseAnswer(v.looseObject({ data: v.array(Group) }), r.data, t, 'the groups', callName(call));
      out.push(...body.data);
      const paging = pagingOf(body as Record<string, unknown>);
      if (body.data.length < 100 || (paging.total !== null && out.length >= paging.total)) break;
    }
    return out;
  },
};

const unknownGroups = (err: unknown): null => {
  if (isAppError(err) && (err.code === 'not_found' || err.code === 'forbidden')) return null;
  throw err;
};

const TwofaState = v.looseObject({ twofa_enabled: v.pipe(v.union([v.boolean(), v.number()]), v.transform((x): boolean => Boolean(x))) });

/** The image kinds a QR code may come as; anything else (a script-bearing type, a link) is not shown. */
const QR_IMAGE = /^data:image\/(png|gif|jpeg|svg\+xml);base64,[A-Za-z0-9+/]+=*$/;
function imageDataUri(x: unknown): string | null {
  return typeof x === 'string' && x.length <= 512 * 1024 && QR_IMAGE.test(x) ? x : null;
}

const Permission: v.GenericSchema<unknown, PermissionNode> = v.pipe(
  v.looseObject({ name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)), label: v.optional(v.unknown()), children: v.optional(v.nullable(v.array(v.lazy(() => Permission)))) }),
  v.transform((x): PermissionNode => ({ name: x.name, label: label(x.label, x.name), children: x.children ?? [] })),
);

const Group = v.pipe(
  v.looseObject({ groupname: v.pipe(v.string(), v.minLength(1)), readableName: v.optional(v.unknown()), access: Access }),
  v.transform((g): UserGroupInfo => ({ name: g.groupname, label: label(g.readableName, g.groupname), access: g.access ?? {} })),
);

const ApiKey = v.pipe(
  v.looseObject({
    id: v.pipe(v.union([v.string(), v.number()]), v.transform(String)),
    name: str,
    scopes: v.optional(v.nullable(v.array(v.unknown()))),
    created: time,
    expires: time,
    expires_at: time,
  }),
  v.transform((k): ApiKeyInfo => ({ id: k.id, name: k.name ?? '', scopes: (k.scopes ?? []).filter((s): s is string => typeof s === 'string'), created: k.created ?? null, expires: k.expires ?? k.expires_at ?? null })),
);
