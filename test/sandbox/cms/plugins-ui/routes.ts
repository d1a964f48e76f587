/**
 * What plugins add to the admin, and the system routes beside them (document 1: "Package
 * management" script rows and plugin page, "Other endpoints", section 6 "Admin client composition
 * events"; where the document shows no shape both flavours follow getgrav/grav-plugin-api, see
 * demo-plugins.ts, system.ts, translations.ts, scripts.ts):
 *
 *   GET    /sidebar/items                 api.access; items the caller may see (`authorize` honoured and
 *                                         stripped), labels that are keys translated into the caller's
 *                                         language, higher priority first
 *   GET    /menubar/items                 api.access; the same gating, registration order; labels
 *                                         translated by the documents only (real: as registered)
 *   POST   /menubar/actions/{plugin}/{action}
 *                                         api.access; {data: {status, message}} (a handler's refusal is
 *                                         a 200 with status `error`); 403 when the handler refuses the
 *                                         caller; 404 when no handler answers
 *   GET    /floating-widgets              api.access; gated; `routes` cleaned to `/path` strings
 *   GET    /context-panels                api.access; as the listeners add them (no `authorize` filter)
 *   GET    /settings/panels               api.access; as the listeners add them, higher priority first
 *   GET    /reports                       api.reports.read; the built-in reports, then the plugins'
 *   GET    /gpm/plugins/{slug}/page       spec: authenticated; real: api.gpm.read. The plugin's
 *                                         onApiPluginPageInfo answer (with has_custom_component), else
 *                                         its definition file, else a page script alone (component
 *                                         mode); 404 otherwise
 *   GET    /gpm/plugins/{slug}/page-script      spec: authenticated; real: api.gpm.read
 *   GET    /gpm/plugins/{slug}/field/{type}, /gpm/themes/{slug}/field/{type},
 *          /gpm/plugins/{slug}/report-script/{reportId}, …/widget-script, …/panel-script,
 *          …/modal-script/{modalId}       api.gpm.read; JavaScript. Real: `application/javascript;
 *                                         charset=utf-8`, `Cache-Control: private, no-cache` and an
 *                                         ETag `"<mtime hex>-<size hex>"`; spec: `application/javascript`,
 *                                         immutable caching (`public, max-age=31536000, immutable`) and
 *                                         an ETag. Both: If-None-Match → 304; 404 package not
 *                                         installed or no such script; a slug that is not a name
 *                                         (`..`): real 422, spec 404
 *   GET    /custom-fields                 api.gpm.read; {fieldType: {slug, kind}} over enabled plugins and
 *                                         installed themes (how a client finds a field type's script)
 *   GET    /gpm/plugins/{slug}/fields, /gpm/themes/{slug}/fields
 *                                         api.gpm.read; every field script of the package as JSON
 *                                         {type: code}; `private, no-cache`, an ETag, 304; 404
 *   GET    /translations/{lang}           public; ?prefix=
 *   GET    /system/info                   api.system.read
 *   DELETE /cache                         api.system.write; ?scope= all|standard (default)|images|
 *                                         assets|tmp; 422 any other scope
 *
 * and the routes the demo plugins register for themselves (only while enabled; 404 otherwise):
 *
 *   GET    /team-notes/notes              api.access; {data: {notes: [{title, body, pinned_until}]}}
 *   PATCH  /team-notes/notes              api.pages.write; {notes: […]} replaces them (`color`, the
 *                                         plugin's own field type, kept when given); 422 with
 *                                         `errors: [{field: 'notes.0.title', message}]`
 *   GET    /team-notes/badge              api.access; {data: {count}} (pinned notes)
 *   GET    /team-notes/export             api.access; the notes as a JSON attachment
 *   GET    /site-health/settings          api.system.read; {data: {checks: {interval, notify_email, disk_warning}}}
 *   PATCH  /site-health/settings          api.system.write; {checks: {…}} merged; 422 with field errors
 *   POST   /site-health/run               api.system.read; {data: {status, message}}; records onSiteHealthRun
 *
 * Every composition point records its event (`onApiSidebarItems` …, `onBeforeCacheClear`,
 * `onAfterCacheClear`) with the caller's username.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldProblem, header, HttpProblem, json, readBody, type Router } from '../../http';
import type { Account } from '../accounts';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { isObject } from '../content/common';
import { etagMatches } from '../content/etag';
import { PLUGINS, THEMES } from '../site/extensions';
import { fieldIndex } from '../site/form-parts';
import { checkField, filterValue } from '../site/validation';
import { collect, enabled, healthRun, installed, pageDefinitionFile, pageFromEvent, passes, runAction, siteHealth, teamNotes, type Decl, type Note } from './demo-plugins';
import { packageFieldTypes, packageScript, SCRIPTS_MTIME } from './scripts';
import { CACHE_SCOPES, CacheFolders, reports, systemInfo, type CacheScope } from './system';
import { languageChain, translateLabel, translationsFor } from './translations';

type Folder = 'fields' | 'pages' | 'widgets' | 'panels' | 'reports' | 'modals';

export function registerPluginUiRoutes(router: Router, ctx: CmsContext): { cache: CacheFolders } {
  const real = ctx.flavor === 'real';
  const cache = new CacheFolders(() => ctx.clock.now());
  const isOn = (plugin: string) => enabled(ctx, plugin);
  const label = (caller: Account, text: unknown) => (typeof text === 'string' ? translateLabel(text, languageChain(caller.language), isOn) : text);
  const visible = (caller: Account, decls: Decl[]) =>
    decls.filter((d) => passes(caller, d.authorize)).map(({ authorize: _drop, ...rest }) => rest as Record<string, unknown>);
  const byPriority = (list: Record<string, unknown>[]) => [...list].sort((a, b) => Number(b.priority ?? 0) - Number(a.priority ?? 0));

  router.on('GET', '/sidebar/items', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const declared = collect.sidebar(ctx);
    ctx.events.record('onApiSidebarItems', { items: declared, user: account.username });
    const items = visible(account, declared).map((i) => ({ ...i, label: label(account, i.label) }));
    json(res, 200, { data: byPriority(items) });
  });

  router.on('GET', '/menubar/items', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const declared = collect.menubar(ctx);
    ctx.events.record('onApiMenubarItems', { items: declared, user: account.username });
    const items = visible(account, declared);
    json(res, 200, { data: real ? items : items.map((i) => ({ ...i, label: label(account, i.label) })) });
  });

  router.on('POST', '/menubar/actions/{plugin}/{action}', async (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const { plugin, action } = params as { plugin: string; action: string };
    const body = await readBody(req);
    const result = runAction(ctx, plugin, action, body, account);
    ctx.events.record('onApiMenubarAction', { plugin, action, body, user: account.username, result });
    if (!result) throw new HttpProblem(404, 'Not Found', `No handler registered for action '${plugin}/${action}'.`);
    json(res, 200, { data: result });
  });

  router.on('GET', '/floating-widgets', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const declared = collect.widgets(ctx);
    ctx.events.record('onApiFloatingWidgets', { widgets: declared, user: account.username });
    const widgets = visible(account, declared).map((w) => {
      if (!('routes' in w)) return w;
      const { routes, ...rest } = w;
      const clean = cleanRoutes(routes);
      return clean.length ? { ...rest, routes: clean } : rest;
    });
    json(res, 200, { data: widgets });
  });

  router.on('GET', '/context-panels', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const panels = collect.panels(ctx, account);
    ctx.events.record('onApiContextPanels', { panels, user: account.username });
    json(res, 200, { data: panels });
  });

  router.on('GET', '/settings/panels', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const panels = collect.settingsPanels(ctx, account);
    ctx.events.record('onApiAdminSettingsPanels', { panels, user: account.username });
    json(res, 200, { data: byPriority(panels) });
  });

  router.on('GET', '/reports', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.reports.read');
    const list = reports(ctx);
    // the real service hands the listeners the reports only; the document adds the user
    ctx.events.record('onApiGenerateReports', { reports: list.map((r) => r.id), ...(real ? {} : { user: account.username }) });
    json(res, 200, { data: list });
  });

  // ---- plugin pages and scripts ---------------------------------------------------------------

  /** GpmController resolvePackagePath(): the slug must be a name (real: 422; the documents know only 404). */
  const requireName = (slug: string) => {
    if (slug !== '' && slug !== '.' && slug !== '..' && !/[/\\\0]/.test(slug)) return;
    if (real) throw new HttpProblem(422, 'Unprocessable Entity', `Invalid package slug '${slug}'.`);
    throw new HttpProblem(404, 'Not Found', `Package '${slug}' not found.`);
  };
  /** … and the package installed. */
  const requirePackage = (kind: 'plugins' | 'themes', slug: string) => {
    requireName(slug);
    if (!Object.hasOwn(kind === 'plugins' ? PLUGINS : THEMES, slug) || !ctx.packages.get(slug, kind === 'plugins' ? 'plugin' : 'theme')) throw new HttpProblem(404, 'Not Found', `Package '${slug}' not found.`);
  };

  router.on('GET', '/gpm/plugins/{slug}/page', (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, real ? 'api.gpm.read' : 'api.access');
    const slug = params.slug!;
    const fromEvent = pageFromEvent(ctx, slug);
    ctx.events.record('onApiPluginPageInfo', { plugin: slug, definition: fromEvent, user: account.username });
    const hasScript = () => installed(slug) && ctx.packages.get(slug, 'plugin') !== null && packageScript('plugins', slug, 'pages', slug) !== null;
    if (fromEvent) return json(res, 200, { data: { ...fromEvent, has_custom_component: hasScript() } });
    // discovery from the package's files (also while it is disabled)
    requireName(slug);
    const file = pageDefinitionFile(slug);
    if (file) return json(res, 200, { data: { ...file, has_custom_component: hasScript() } });
    if (hasScript()) return json(res, 200, { data: { id: slug, plugin: slug, title: slug.replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()), page_type: 'component', has_custom_component: true } });
    throw new HttpProblem(404, 'Not Found', `No admin page found for plugin '${slug}'.`);
  });

  const script = (path: string, permission: string, locate: (p: Record<string, string>) => { kind: 'plugins' | 'themes'; slug: string; folder: Folder; name: string; missing: string }) => {
    router.on('GET', path, (req, res, params, url) => {
      authorize(ctx, req, url, permission);
      const where = locate(params);
      requirePackage(where.kind, where.slug);
      const source = packageScript(where.kind, where.slug, where.folder, where.name);
      if (source === null) throw new HttpProblem(404, 'Not Found', where.missing);
      serveScript(req, res, source);
    });
  };
  const gpmRead = 'api.gpm.read';
  const base = (name: string) => name.split(/[/\\]/).pop() ?? name;
  script('/gpm/plugins/{slug}/page-script', real ? 'api.gpm.read' : 'api.access', (p) => ({ kind: 'plugins', slug: p.slug!, folder: 'pages', name: base(p.slug!), missing: `Page component not found for plugin '${p.slug}'.` }));
  for (const kind of ['plugins', 'themes'] as const) {
    script(`/gpm/${kind}/{slug}/field/{type}`, gpmRead, (p) => ({ kind, slug: p.slug!, folder: 'fields', name: base(p.type!), missing: `Custom field '${p.type}' not found for '${p.slug}'.` }));
  }
  script('/gpm/plugins/{slug}/report-script/{reportId}', gpmRead, (p) => ({ kind: 'plugins', slug: p.slug!, folder: 'reports', name: base(p.reportId!), missing: `Report component '${p.reportId}' not found for plugin '${p.slug}'.` }));
  script('/gpm/plugins/{slug}/widget-script', gpmRead, (p) => ({ kind: 'plugins', slug: p.slug!, folder: 'widgets', name: base(p.slug!), missing: `Widget component not found for plugin '${p.slug}'.` }));
  script('/gpm/plugins/{slug}/panel-script', gpmRead, (p) => ({ kind: 'plugins', slug: p.slug!, folder: 'panels', name: base(p.slug!), missing: `Panel component not found for plugin '${p.slug}'.` }));
  script('/gpm/plugins/{slug}/modal-script/{modalId}', gpmRead, (p) => ({ kind: 'plugins', slug: p.slug!, folder: 'modals', name: base(p.modalId!), missing: `Modal component '${p.modalId}' not found for plugin '${p.slug}'.` }));

  router.on('GET', '/custom-fields', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.read');
    const all: Record<string, { slug: string; kind: 'plugins' | 'themes' }> = {};
    for (const slug of Object.keys(PLUGINS)) if (isOn(slug)) for (const type of packageFieldTypes('plugins', slug)) all[type] = { slug, kind: 'plugins' };
    for (const slug of Object.keys(THEMES)) for (const type of packageFieldTypes('themes', slug)) all[type] = { slug, kind: 'themes' };
    json(res, 200, { data: Object.keys(all).length ? all : [] });
  });

  for (const kind of ['plugins', 'themes'] as const) {
    router.on('GET', `/gpm/${kind}/{slug}/fields`, (req, res, params, url) => {
      authorize(ctx, req, url, 'api.gpm.read');
      requirePackage(kind, params.slug!);
      const scripts = Object.fromEntries(packageFieldTypes(kind, params.slug!).map((type) => [type, packageScript(kind, params.slug!, 'fields', type)!]));
      const bytes = Buffer.from(JSON.stringify(Object.keys(scripts).length ? scripts : []), 'utf8');
      const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-cache', ETag: `"${createHash('md5').update(Object.keys(scripts).map((t) => `${t}.js:${SCRIPTS_MTIME}:${Buffer.byteLength(scripts[t]!)}`).join('|')).digest('hex')}"` };
      if (etagMatches(header(req, 'if-none-match'), headers.ETag)) {
        res.writeHead(304, headers).end();
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Length': String(bytes.length) }).end(bytes);
    });
  }

  function serveScript(req: IncomingMessage, res: ServerResponse, source: string): void {
    const bytes = Buffer.from(source, 'utf8');
    const headers: Record<string, string> = real
      ? { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'private, no-cache', ETag: `"${SCRIPTS_MTIME.toString(16)}-${bytes.length.toString(16)}"` }
      : { 'Content-Type': 'application/javascript', 'Cache-Control': 'public, max-age=31536000, immutable', ETag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"` };
    if (etagMatches(header(req, 'if-none-match'), headers.ETag!)) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(bytes.length) }).end(bytes);
  }

  // ---- translations and the system --------------------------------------------------------------

  router.on('GET', '/translations/{lang}', (_req, res, params, url) => {
    const siteDefault = ctx.content.site.defaultLanguage ?? 'en';
    json(res, 200, { data: translationsFor(params.lang!, url.searchParams.get('prefix') || null, siteDefault, isOn) });
  });

  router.on('GET', '/system/info', (req, res, _p, url) => {
    const { account } = authorize(ctx, req, url, 'api.system.read');
    json(res, 200, { data: systemInfo(ctx, req, account) });
  });

  router.on('DELETE', '/cache', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.system.write');
    const scope = url.searchParams.get('scope') ?? 'standard';
    if (!(CACHE_SCOPES as readonly string[]).includes(scope)) {
      throw new HttpProblem(422, 'Unprocessable Entity', `Invalid cache scope '${scope}'. Allowed: ${CACHE_SCOPES.join(', ')}`);
    }
    const { paths, output } = cache.clear(scope as CacheScope);
    ctx.events.record('onBeforeCacheClear', { remove: scope, paths });
    ctx.events.record('onAfterCacheClear', { remove: scope, output });
    json(res, 200, { data: { scope, message: `Cache cleared successfully (scope: ${scope}).`, details: output } });
  });

  // ---- the demo plugins' own routes ------------------------------------------------------------

  /** A plugin's route exists only while the plugin is enabled (it registers it then). */
  const own = (plugin: string, url: URL) => {
    if (!isOn(plugin)) throw new HttpProblem(404, 'Not Found', `No route for ${url.pathname}.`);
  };

  router.on('GET', '/team-notes/notes', (req, res, _p, url) => {
    own('team-notes', url);
    authorize(ctx, req, url, 'api.access');
    json(res, 200, { data: { notes: teamNotes.read(ctx) } });
  });

  router.on('PATCH', '/team-notes/notes', async (req, res, _p, url) => {
    own('team-notes', url);
    authorize(ctx, req, url, 'api.pages.write');
    const body = await readBody(req);
    const notes = checkNotes(body.notes);
    teamNotes.write(ctx, notes);
    json(res, 200, { data: { notes: teamNotes.read(ctx) } });
  });

  router.on('GET', '/team-notes/badge', (req, res, _p, url) => {
    own('team-notes', url);
    authorize(ctx, req, url, 'api.access');
    json(res, 200, { data: { count: teamNotes.read(ctx).filter((n) => n.pinned_until).length } });
  });

  router.on('GET', '/team-notes/export', (req, res, _p, url) => {
    own('team-notes', url);
    authorize(ctx, req, url, 'api.access');
    const bytes = Buffer.from(JSON.stringify({ notes: teamNotes.read(ctx) }, null, 2) + '\n');
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="team-notes.json"', 'Content-Length': String(bytes.length) }).end(bytes);
  });

  const healthForm = fieldIndex(PLUGINS['site-health']?.pages?.['health-settings']?.fields ?? []);

  router.on('GET', '/site-health/settings', (req, res, _p, url) => {
    own('site-health', url);
    authorize(ctx, req, url, 'api.system.read');
    json(res, 200, { data: siteHealth.read(ctx) });
  });

  router.on('PATCH', '/site-health/settings', async (req, res, _p, url) => {
    own('site-health', url);
    authorize(ctx, req, url, 'api.system.write');
    const body = await readBody(req);
    if (!isObject(body.checks)) throw fieldProblem(422, 'The submitted data did not pass blueprint validation.', [{ field: 'checks', message: 'Invalid input in "Checks"' }]);
    const current = (siteHealth.read(ctx).checks ?? {}) as Record<string, unknown>;
    const next = { ...current };
    const errors: { field: string; message: string }[] = [];
    for (const [key, value] of Object.entries(body.checks)) {
      const field = healthForm.get(`checks.${key}`);
      if (!field) continue; // not on the form: not kept
      const failures = checkField(value, field);
      for (const message of failures) errors.push({ field: field.name, message });
      if (!failures.length) next[key] = filterValue(value, field);
    }
    if (errors.length) throw fieldProblem(422, 'The submitted data did not pass blueprint validation.', errors);
    siteHealth.write(ctx, next);
    json(res, 200, { data: siteHealth.read(ctx) });
  });

  router.on('POST', '/site-health/run', (req, res, _p, url) => {
    own('site-health', url);
    const { account } = authorize(ctx, req, url, 'api.system.read');
    ctx.events.record('onSiteHealthRun', { user: account.username });
    json(res, 200, { data: healthRun(ctx) });
  });

  return { cache };
}

/** FloatingWidgetController sanitizeRoutes(): strings only, trimmed, one leading slash, no trailing one, once each. */
function cleanRoutes(routes: unknown): string[] {
  if (!Array.isArray(routes)) return [];
  const out: string[] = [];
  for (const r of routes) {
    if (typeof r !== 'string') continue;
    let route = r.trim();
    if (route === '') continue;
    if (!route.startsWith('/')) route = `/${route}`;
    if (route !== '/') route = `/${route.replace(/^\/+|\/+$/g, '')}`;
    if (!out.includes(route)) out.push(route);
  }
  return out;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The notes form's checks (its list field: a title each, a real date when pinned); 422 naming each failing field. */
function checkNotes(raw: unknown): Note[] {
  if (!Array.isArray(raw)) throw fieldProblem(422, 'The submitted data did not pass blueprint validation.', [{ field: 'notes', message: 'Invalid input in "Notes"' }]);
  const errors: { field: string; message: string }[] = [];
  const notes: Note[] = raw.map((item, i) => {
    const n = isObject(item) ? item : {};
    const title = typeof n.title === 'string' ? n.title.trim() : '';
    if (!title || title.length > 120) errors.push({ field: `notes.${i}.title`, message: 'Invalid input in "Title"' });
    const body = n.body === undefined || n.body === null ? '' : n.body;
    if (typeof body !== 'string' || body.length > 2000) errors.push({ field: `notes.${i}.body`, message: 'Invalid input in "Text"' });
    const pinned = n.pinned_until === undefined || n.pinned_until === null || n.pinned_until === '' ? null : n.pinned_until;
    if (pinned !== null && !(typeof pinned === 'string' && DATE.test(pinned) && !Number.isNaN(Date.parse(`${pinned}T00:00:00Z`)) && new Date(`${pinned}T00:00:00Z`).toISOString().startsWith(pinned))) {
      errors.push({ field: `notes.${i}.pinned_until`, message: 'Invalid input in "Pinned until"' });
    }
    const color = n.color === undefined || n.color === null || n.color === '' ? null : n.color;
    if (color !== null && !(typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color))) errors.push({ field: `notes.${i}.color`, message: 'Invalid input in "Colour"' });
    return { title, body: typeof body === 'string' ? body : '', pinned_until: pinned as string | null, ...(typeof color === 'string' ? { color } : {}) };
  });
  if (errors.length) throw fieldProblem(422, 'The submitted data did not pass blueprint validation.', errors);
  return notes;
}
