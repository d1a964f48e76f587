/**
 * The site's blueprints beyond pages, and the data options their fields name (document 1,
 * "Blueprints and data options"; getgrav/grav-plugin-api:BlueprintController.php):
 *
 *   GET /blueprints/users                          account form (api.access)
 *   GET /blueprints/users/permissions              permission tree [{name, label, children?}]
 *                                                  (spec: authenticated; real: api.users.read)
 *   GET /blueprints/plugins/{plugin}               api.config.read; 404 no such plugin (not installed:
 *                                                  ../packages/) or no form
 *   GET /blueprints/plugins/{plugin}/pages/{page}  (spec: authenticated; real: api.config.read);
 *                                                  the plugin's admin/blueprints/{page}, else its own
 *                                                  form when {page} is the plugin; 404 otherwise
 *   GET /blueprints/themes/{theme}                 api.config.read; 404
 *   GET /blueprints/config/{scope}                 api.config.read; system, site, media, security,
 *                                                  scheduler, backups; 404 any other scope
 *   GET /data/resolve?callable=Class::method       api.pages.read; [{value, label}]; 400 missing,
 *                                                  malformed or unapproved (real: 422); 404 class missing
 *
 * Fields are always in the real service's shapes (options as `[{value, label}]`, tabs and
 * sections with a `title`), so one form engine reads every form. The envelope differs: the
 * document gives plugin, theme and config blueprints as `{id, name, fields}` with `fields` a map
 * from field name to field, and account blueprints as `{name, title, validation, fields}`; the
 * real service answers every blueprint as `{name, title, type, child_type, validation, fields[]}`.
 * Resolving an account, plugin, theme or plugin-page form fires `onApiBlueprintResolved` with its
 * `context`, as the real service does (not for config scopes).
 */
import { HttpProblem, json, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { serialize } from '../content/blueprint-real';
import { accountFields, PERMISSION_TREE } from './account-form';
import { isCoreScope, SCOPE_FORMS } from './config-forms';
import { ADMIN_PAGE_TYPE_WRAPPERS, DATA_PROVIDERS, pageTypes } from './data-providers';
import { PLUGINS, THEMES } from './extensions';
import type { Def } from './form-parts';

interface Form {
  name: string;
  title: string;
  type: string | null;
  fields: Def[];
}

/** The real service's serializeBlueprint(). */
function realBlueprint(form: Form): Record<string, unknown> {
  return { name: form.name, title: form.title, type: form.type, child_type: null, validation: 'loose', fields: form.fields.map(serialize) };
}

/** The document's plugin, theme and config blueprint: `{id, name, fields: {name: field}}`. */
function specMapBlueprint(form: Form): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const f of form.fields) fields[f.name] = serialize(f);
  return { id: form.name, name: form.title, fields };
}

const userForm = (ctx: CmsContext): Form => ({ name: 'account', title: 'account', type: null, fields: accountFields(ctx.content.site.languages) });

export function pluginForm(name: string): Form | null {
  const p = PLUGINS[name];
  return p?.title ? { name, title: p.title, type: 'plugin', fields: p.fields } : null;
}

export function themeForm(name: string): Form | null {
  const t = THEMES[name];
  return t?.title ? { name, title: t.title, type: 'theme', fields: t.fields } : null;
}

export function registerSiteBlueprintRoutes(router: Router, ctx: CmsContext): void {
  const real = ctx.flavor === 'real';

  router.on('GET', '/blueprints/users', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const form = userForm(ctx);
    const fields = form.fields.map(serialize);
    ctx.events.record('onApiBlueprintResolved', { context: 'account', template: 'account', fields, user: account.username });
    const data = real ? { ...realBlueprint(form), fields } : { name: form.name, title: form.title, validation: 'loose', fields };
    json(res, 200, { data });
  });

  router.on('GET', '/blueprints/users/permissions', (req, res, _p, url) => {
    authorize(ctx, req, url, real ? 'api.users.read' : 'api.access');
    json(res, 200, { data: structuredClone(PERMISSION_TREE) });
  });

  router.on('GET', '/blueprints/plugins/{plugin}', (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, 'api.config.read');
    const name = params.plugin!;
    // a removed plugin's form is gone with it (packages/)
    const form = ctx.packages.get(name, 'plugin') ? pluginForm(name) : null;
    if (!form) throw new HttpProblem(404, 'Not Found', `Blueprint for plugin '${name}' not found.`);
    ctx.events.record('onApiBlueprintResolved', { context: 'plugin', plugin: name, fields: form.fields.map(serialize), user: account.username });
    json(res, 200, { data: real ? realBlueprint(form) : specMapBlueprint(form) });
  });

  router.on('GET', '/blueprints/plugins/{plugin}/pages/{pageId}', (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, real ? 'api.config.read' : 'api.access');
    const { plugin, pageId } = params as { plugin: string; pageId: string };
    const p = ctx.packages.get(plugin, 'plugin') ? PLUGINS[plugin] : undefined;
    if (!p) throw new HttpProblem(404, 'Not Found', `Plugin '${plugin}' not found.`);
    const page = p.pages?.[pageId];
    // the plugin's own form stands in for a page named after the plugin
    const form: Form | null = page ? { name: pageId, title: page.title, type: null, fields: page.fields } : pageId === plugin && p.title ? { name: pageId, title: p.title, type: 'plugin', fields: p.fields } : null;
    if (!form) throw new HttpProblem(404, 'Not Found', `Page blueprint '${pageId}' not found for plugin '${plugin}'.`);
    const data = realBlueprint(form);
    ctx.events.record('onApiBlueprintResolved', { context: 'plugin-page', plugin, page_id: pageId, fields: data.fields, user: account.username });
    json(res, 200, { data });
  });

  router.on('GET', '/blueprints/themes/{theme}', (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, 'api.config.read');
    const name = params.theme!;
    const form = ctx.packages.get(name, 'theme') ? themeForm(name) : null;
    if (!form) throw new HttpProblem(404, 'Not Found', `Blueprint for theme '${name}' not found.`);
    ctx.events.record('onApiBlueprintResolved', { context: 'theme', theme: name, fields: form.fields.map(serialize), user: account.username });
    json(res, 200, { data: real ? realBlueprint(form) : specMapBlueprint(form) });
  });

  router.on('GET', '/blueprints/config/{scope}', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.config.read');
    const scope = params.scope!;
    if (!isCoreScope(scope)) throw new HttpProblem(404, 'Not Found', `Config blueprint scope '${scope}' not found.`);
    const form: Form = { name: scope, title: SCOPE_FORMS[scope].title, type: null, fields: SCOPE_FORMS[scope].fields };
    json(res, 200, { data: real ? realBlueprint(form) : specMapBlueprint(form) });
  });

  router.on('GET', '/data/resolve', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.pages.read');
    const raw = url.searchParams.get('callable');
    if (!raw) throw fieldError('The callable query parameter is required.', "A 'callable' query parameter is required.");
    const callable = raw.replace(/^\\+/, '');
    if (!callable.includes('::')) throw fieldError(`Callable '${callable}' must be in Class::method format.`, 'Callable must be in Class::method format.');
    if (!(callable in DATA_PROVIDERS)) throw fieldError(`Callable '${callable}' is not an approved data provider.`, 'Callable is not an approved data provider.');
    const type = url.searchParams.get('type');
    const provider = DATA_PROVIDERS[callable];
    let result: Record<string, string>;
    if (provider) result = provider(ctx, type ?? 'standard');
    else if (callable in ADMIN_PAGE_TYPE_WRAPPERS) result = pageTypes(ctx, type ?? ADMIN_PAGE_TYPE_WRAPPERS[callable]!);
    else throw new HttpProblem(404, 'Not Found', `Callable '${callable}' not found.`);
    json(res, 200, { data: Object.entries(result).map(([value, label]) => ({ value, label })) });
  });
}

function fieldError(detail: string, message: string): HttpProblem {
  return new HttpProblem(400, 'Bad Request', detail, { errors: [{ field: 'callable', message }] });
}
