/**
 * Configuration reads and writes. Document 1 names `/config/{scope}` among its "other endpoints"
 * without shapes, so both flavours follow the real service
 * (getgrav/grav-plugin-api:classes/Api/Controllers/ConfigController.php, recordings 37–39 and 76):
 *
 *   GET   /config          api.config.read; the scopes a form can open: system, site, the rest
 *                          sorted (backups for API super users only), then `info`
 *   GET   /config/{scope}  api.config.read; {data: values, meta: {overrides, fallback}} + ETag;
 *                          secrets masked as `********`; 404 unknown scope
 *   PATCH /config/{scope}  api.config.write; a partial body merged over the stored values (a
 *                          form field's value replaces, other maps merge); `********` keeps the
 *                          stored secret; changed values checked against the form → 422 with
 *                          `errors: [{field, message}]`; `If-Match` other than the current ETag → 409;
 *                          an empty body → 400 (real: 422); fires onAdminSave, onAdminAfterSave and
 *                          onApiConfigUpdated {scope, data} (the `config.updated` webhook)
 *
 *   POST  /config/{scope}/revert
 *                          api.config.write; {keys: ["title", …]} drops those overrides from the
 *                          site's file, {reset: true} the whole file, so the defaults show again;
 *                          the same scope rules, 404, 409 and events as PATCH; 400 (real: 422)
 *                          without keys or reset
 *
 * Scopes: system, site, media, security, scheduler, backups, `plugins/<name>`, `themes/<name>`.
 * `scheduler` and `backups` are read and written by API super users only (403); `system`,
 * `security` and `plugins/api` are readable by any configuration reader but written by API super
 * users only (403). The site's file stores only what differs from the defaults; `meta.overrides`
 * lists those values and `meta.fallback` what each would fall back to. The ETag hashes that
 * difference. The real flavour adds `X-Invalidates: config:update:<scope>` (and
 * `plugins:update:<name>, plugins:list` for a plugin).
 */
import type { IncomingMessage } from 'node:http';
import { fieldProblem, header, HttpProblem, json, readBody, type Router } from '../../http';
import { isSuper, scopesAllow } from '../access';
import type { CmsContext } from '../context';
import { authorize, type Principal } from '../credentials';
import { isObject } from '../content/common';
import { bareEtag, etagOf } from '../content/etag';
import { invalidates } from '../real-wire';
import { canonical, deepMerge, diff, leafPaths, scopeInfo, setAt, valueAt, type Data, type ScopeInfo } from './config-store';
import { installedExtension } from '../packages/settings-scopes';
import { fieldIndex, type Def } from './form-parts';
import { filterValue, validateChanged } from './validation';

export const SECRET_SENTINEL = '********';

/** The real service's name heuristic for secrets (ConfigSecretMasker), on the last path segment. */
const SECRET_NAME = /(password|passwd|passphrase|secret|api[_-]?key|apikey|private[_-]?key|licen[sc]e[_-]?key|access[_-]?token|client[_-]?secret|token)$/i;

const PRIVILEGED = ['scheduler', 'backups'];
const SUPER_WRITE = ['system', 'security', 'plugins/api'];
const LISTABLE = ['system', 'site', 'media', 'security', 'backups'];

/** Paths of the scalar leaves that hold secrets: by name, or a `password` field of the form. */
function secretPaths(data: Data, fields: Map<string, Def>, prefix = ''): string[] {
  return Object.entries(data).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isObject(v)) return secretPaths(v, fields, path);
    if (Array.isArray(v)) return [];
    return SECRET_NAME.test(k) || fields.get(path)?.type === 'password' ? [path] : [];
  });
}

export function maskSecrets(data: Data, fields: Map<string, Def>): Data {
  const out = structuredClone(data);
  for (const path of secretPaths(out, fields)) {
    const v = valueAt(out, path);
    if (typeof v === 'string' && v !== '') setAt(out, path, SECRET_SENTINEL);
  }
  return out;
}

/** mergeData(): a value at a form field replaces what is stored; other maps merge key by key. */
function formMerge(existing: Data, body: Data, fields: Map<string, Def>, prefix = ''): Data {
  const out = structuredClone(existing);
  for (const [k, v] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${k}` : k;
    out[k] = !fields.has(path) && isObject(v) && isObject(out[k]) ? formMerge(out[k] as Data, v, fields, path) : structuredClone(v);
  }
  return out;
}

const isSuperWithinScope = (p: Principal) => scopesAllow(p.scopes, 'api.super') && isSuper(p.account.access);

export function registerConfigRoutes(router: Router, ctx: CmsContext): void {
  const real = ctx.flavor === 'real';
  const store = () => ctx.site.config;

  const resolveScope = (principal: Principal, scope: string, write: boolean): ScopeInfo => {
    if (PRIVILEGED.includes(scope) && !isSuperWithinScope(principal)) {
      throw new HttpProblem(403, 'Forbidden', `Configuration scope '${scope}' is tool-managed and restricted to API super users.`);
    }
    if (write && SUPER_WRITE.includes(scope) && !isSuperWithinScope(principal)) {
      throw new HttpProblem(403, 'Forbidden', `Configuration scope '${scope}' can only be modified by an API super user.`);
    }
    const info = scopeInfo(scope, installedExtension(ctx.packages));
    if (!info) {
      const known = /^(plugins|themes)\/[^/]+$/.test(scope);
      throw new HttpProblem(404, 'Not Found', known ? `Configuration scope '${scope}' not found.` : `Unknown configuration scope '${scope}'.`);
    }
    return info;
  };

  /** The answer of a read or a write: masked values, the override meta, the ETag of the stored difference. */
  const answer = (info: ScopeInfo, extraHeaders: Record<string, string> = {}) => {
    const values = store().effective(info);
    const delta = diff(values, info.defaults);
    const overrides = leafPaths(delta);
    const fallback = Object.fromEntries(overrides.map((p) => [p, valueAt(info.defaults, p)]));
    const fields = fieldIndex(info.fields ?? []);
    return {
      body: { data: maskSecrets(values, fields), meta: { overrides, fallback } },
      headers: { ETag: etagOf(canonical(delta)), ...extraHeaders },
    };
  };

  registerRevert(router, ctx, resolveScope, answer);

  router.on('GET', '/config', (req, res, _p, url) => {
    const principal = authorize(ctx, req, url, 'api.config.read');
    const superUser = isSuperWithinScope(principal);
    const middle = LISTABLE.filter((s) => s !== 'system' && s !== 'site' && (s !== 'backups' || superUser)).sort();
    json(res, 200, { data: ['system', 'site', ...middle, 'info'] });
  });

  router.on('GET', '/config/{scope+}', (req, res, params, url) => {
    const principal = authorize(ctx, req, url, 'api.config.read');
    const info = resolveScope(principal, params.scope!, false);
    if (real) targetEnvironment(req);
    const { body, headers } = answer(info);
    json(res, 200, body, headers);
  });

  router.on('PATCH', '/config/{scope+}', async (req, res, params, url) => {
    const principal = authorize(ctx, req, url, 'api.config.write');
    const scope = params.scope!;
    const info = resolveScope(principal, scope, true);
    const env = real ? targetEnvironment(req) : null;
    const existing = store().effective(info);
    checkIfMatch(req, etagOf(canonical(diff(existing, info.defaults))));
    const body = await readBody(req);
    if (!Object.keys(body).length) throw new HttpProblem(400, 'Bad Request', 'Request body must contain configuration values to update.');
    if (env !== null) throw new HttpProblem(422, 'Unprocessable Entity', `Environment '${env}' does not exist. Create it first via POST /system/environments.`);
    const fields = fieldIndex(info.fields ?? []);
    let merged = info.fields ? formMerge(existing, body, fields) : deepMerge(existing, body);
    merged = restoreSecrets(merged, existing, fields);
    const errors = validateChanged(body, existing, fields);
    if (errors.length) throw fieldProblem(422, 'The submitted data did not pass blueprint validation.', errors);
    for (const [name, field] of fields) {
      const v = valueAt(merged, name);
      if (v !== null) setAt(merged, name, filterValue(v, field));
    }
    ctx.events.record('onAdminSave', { scope, data: merged });
    store().save(info, merged);
    const saved = store().effective(info);
    ctx.events.record('onAdminAfterSave', { scope, data: saved });
    ctx.events.record('onApiConfigUpdated', { scope, data: saved });
    const tags = [`config:update:${scope}`, ...(info.plugin ? [`plugins:update:${info.plugin}`, 'plugins:list'] : [])];
    const { body: out, headers } = answer(info, real ? invalidates(tags) : {});
    json(res, 200, out, headers);
  });
}

function registerRevert(router: Router, ctx: CmsContext, resolveScope: (p: Principal, scope: string, write: boolean) => ScopeInfo, answer: (info: ScopeInfo, extra?: Record<string, string>) => { body: unknown; headers: Record<string, string> }): void {
  const real = ctx.flavor === 'real';
  router.on('POST', '/config/{scope+}/revert', async (req, res, params, url) => {
    const principal = authorize(ctx, req, url, 'api.config.write');
    const scope = params.scope!;
    const info = resolveScope(principal, scope, true);
    const env = real ? targetEnvironment(req) : null;
    checkIfMatch(req, etagOf(canonical(diff(ctx.site.config.effective(info), info.defaults))));
    const body = await readBody(req);
    const reset = body.reset !== undefined && body.reset !== null && body.reset !== false && body.reset !== 0 && body.reset !== '' && body.reset !== '0';
    const keys = Array.isArray(body.keys) ? body.keys.filter((k): k is string => typeof k === 'string' && k !== '') : [];
    if (!reset && (!Array.isArray(body.keys) || body.keys.length === 0)) throw new HttpProblem(400, 'Bad Request', 'Provide a non-empty "keys" array or "reset": true.');
    // a named environment has no file here: nothing to drop (the real service's revert is then a no-op)
    if (env === null) ctx.site.config.revert(info, reset ? null : keys);
    const saved = ctx.site.config.effective(info);
    ctx.events.record('onApiConfigUpdated', { scope, data: saved });
    const tags = [`config:update:${scope}`, ...(info.plugin ? [`plugins:update:${info.plugin}`, 'plugins:list'] : [])];
    const { body: out, headers } = answer(info, real ? invalidates(tags) : {});
    json(res, 200, out, headers);
  });
}

/** A secret sent back as the mask keeps its stored value (the forms post every value back). */
function restoreSecrets(merged: Data, existing: Data, fields: Map<string, Def>): Data {
  for (const path of secretPaths(merged, fields)) {
    if (valueAt(merged, path) === SECRET_SENTINEL) setAt(merged, path, valueAt(existing, path));
  }
  return merged;
}

/** The environment `X-Config-Environment` names (resolveTargetEnv()): null for the site's own files. */
function targetEnvironment(req: IncomingMessage): string | null {
  if (req.headers['x-config-environment'] === undefined) return null;
  const name = header(req, 'x-config-environment');
  if (name === '' || ['default', 'base'].includes(name.toLowerCase())) return null;
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new HttpProblem(422, 'Unprocessable Entity', `Invalid X-Config-Environment header: '${name}'.`);
  return name;
}

/** One ETag in `If-Match` (weak marker and quotes ignored), as the real service compares it. */
function checkIfMatch(req: IncomingMessage, current: string): void {
  const sent = header(req, 'if-match');
  if (!sent) return;
  if (bareEtag(sent) !== bareEtag(current)) {
    throw new HttpProblem(409, 'Conflict', 'The resource has been modified since you last retrieved it. Please fetch the latest version and try again.');
  }
}
