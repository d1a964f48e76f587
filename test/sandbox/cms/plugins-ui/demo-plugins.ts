/**
 * Two demo plugins that add to the admin the way real ones do (they answer the composition events
 * of document 1 section 6, getgrav/grav-plugin-api's Sidebar-, Menubar-, FloatingWidget-,
 * ContextPanel-, Settings- and ReportsController and GpmController pluginPage()), so every
 * composition point has real declarations, permission gating and icons in every documented form
 * (`fa-<name>`, `fa-<style>:<name>`, `class:…`, `{type: 'svg', path}`, and one bare Lucide name
 * the way the real docs show for panels):
 *
 *   - `team-notes`, for everyone: a sidebar entry (label a translation key), menubar items Quick
 *     note (takes `{text}`) and Unpin all (`api.pages.write`), a floating chat widget, a context
 *     panel on pages, a report of notes pinned past their date, and an admin page of the
 *     `blueprint` type (its form is the `notes` page of site/extensions.ts) whose data and save
 *     endpoints work (`GET|PATCH /team-notes/notes`, checked → 422 with field errors);
 *   - `site-health`, only for callers with `api.system.read` (the demo `viewer` and `editor` lack
 *     it): sidebar entries (one any-of `api.system.write`/`admin.super`), menubar items Run checks
 *     and Purge CDN (always refused: no CDN zone), an autoloading uptime widget, a context panel
 *     and a settings panel its listener adds only for such callers, a report with a component
 *     script, and an admin page of the `component` type (a definition file beside its page script,
 *     so `has_custom_component`; found even while the plugin is disabled, as the real discovery is).
 *
 * A plugin's listeners run only while it is enabled (its own `enabled` setting), as Grav
 * subscribes only enabled plugins; its files (scripts, page definition file) are served while it
 * is installed. Data: team-notes keeps its notes, site-health its `checks`, in their settings.
 */
import { HttpProblem } from '../../http';
import { grants, isSuper } from '../access';
import type { Account } from '../accounts';
import type { CmsContext } from '../context';
import { scopeInfo, type Data } from '../site/config-store';
import { PLUGINS } from '../site/extensions';
import { accessWithGroups } from '../users/groups';

/** A declaration's `authorize`: a permission, a list (any of), none; any other shape fails closed. */
export type Authorize = unknown;
export type Decl = Record<string, unknown> & { authorize?: Authorize };

/** Installed: the package is on the site (its files are there), enabled or not. */
export const installed = (slug: string): boolean => Object.hasOwn(PLUGINS, slug);

/** Enabled: installed and its own `enabled` setting is on, so its listeners run. */
export function enabled(ctx: CmsContext, slug: string): boolean {
  // a plugin removed through the package routes has no listeners any more
  if (!installed(slug) || !ctx.packages.get(slug, 'plugin')) return false;
  const info = scopeInfo(`plugins/${slug}`);
  return info ? ctx.site.config.effective(info).enabled !== false : false;
}

/** The account holds the permission (its groups count; a super admin holds every api.*). */
export const holds = (a: Account, permission: string): boolean => grants(accessWithGroups(a), permission);

/** AbstractApiController userPassesAuthorize(): none passes, super passes, a string or any of a list; another shape fails closed. */
export function passes(a: Account, authorize: Authorize): boolean {
  if (authorize === null || authorize === undefined) return true;
  if (isSuper(a.access)) return true;
  if (typeof authorize === 'string') return holds(a, authorize);
  if (Array.isArray(authorize)) return authorize.some((p) => typeof p === 'string' && holds(a, p));
  return false;
}

const SVG_NOTES = { type: 'svg', path: 'M4 4h16v12l-4 4H4z M16 16v4 M16 16h4' };
const SVG_LOG = { type: 'svg', path: 'M4 5h16v2H4z M4 11h16v2H4z M4 17h10v2H4z' };

// ---- declarations, in the order the plugins register them -------------------------------------

function sidebar(ctx: CmsContext): Decl[] {
  return [
    ...(enabled(ctx, 'team-notes')
      ? [{ id: 'team-notes', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.MENU_LABEL', icon: 'fa-note-sticky', route: '/plugin/team-notes', priority: 20, badge: null, badgeEndpoint: '/team-notes/badge' }]
      : []),
    ...(enabled(ctx, 'site-health')
      ? [
          { id: 'site-health', plugin: 'site-health', label: 'PLUGIN_SITE_HEALTH.TITLE', icon: 'class:fa-solid fa-heart-pulse', route: '/plugin/site-health', priority: 30, badge: 1, authorize: 'api.system.read' },
          { id: 'site-health-log', plugin: 'site-health', label: 'Health log', icon: SVG_LOG, route: '/plugin/site-health/log', priority: 5, authorize: ['api.system.write', 'admin.super'] },
        ]
      : []),
  ];
}

function menubar(ctx: CmsContext): Decl[] {
  return [
    ...(enabled(ctx, 'team-notes')
      ? [
          { id: 'team-notes-quick', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.QUICK_NOTE', icon: 'fa-regular:note-sticky', action: 'quick-note', showLabel: true, size: 'md', placement: 'start', priority: 5 },
          { id: 'team-notes-unpin', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.UNPIN_ALL', icon: 'fa-thumbtack', action: 'unpin-all', confirm: 'Unpin every team note?', variant: 'warning', authorize: 'api.pages.write' },
        ]
      : []),
    ...(enabled(ctx, 'site-health')
      ? [
          { id: 'site-health-run', plugin: 'site-health', label: 'PLUGIN_SITE_HEALTH.RUN_CHECKS', icon: 'fa-solid:stethoscope', action: 'run-checks', variant: 'primary', priority: 10, authorize: 'api.system.read' },
          { id: 'site-health-purge', plugin: 'site-health', label: 'Purge CDN', icon: 'class:fa-solid fa-cloud-arrow-down', action: 'purge-cdn', confirm: 'Purge the CDN cache of the whole site?', variant: 'danger', placement: 'end', authorize: ['api.system.write', 'admin.super'] },
        ]
      : []),
  ];
}

function widgets(ctx: CmsContext): Decl[] {
  return [
    // routes as a plugin may write them: the real service keeps '/pages' and '/plugin/team-notes' once
    ...(enabled(ctx, 'team-notes') ? [{ id: 'team-notes-chat', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.CHAT', icon: SVG_NOTES, priority: 10, autoLoad: false, routes: ['/pages', 'pages/', ' ', 7, 'plugin/team-notes/', '/pages'] }] : []),
    ...(enabled(ctx, 'site-health') ? [{ id: 'site-health-uptime', plugin: 'site-health', label: 'PLUGIN_SITE_HEALTH.UPTIME', icon: 'fa-wave-square', priority: 20, autoLoad: true, routes: ['/'], width: 360, authorize: 'api.system.read' }] : []),
  ];
}

/** The real service does not filter panels: each listener decides for the caller itself. */
function panels(ctx: CmsContext, caller: Account): Decl[] {
  return [
    ...(enabled(ctx, 'team-notes') ? [{ id: 'team-notes-page', plugin: 'team-notes', label: 'PLUGIN_TEAM_NOTES.PAGE_NOTES', icon: 'history', contexts: ['pages'], priority: 10, width: 480, badgeEndpoint: '/team-notes/badge' }] : []),
    ...(enabled(ctx, 'site-health') && holds(caller, 'api.system.read') ? [{ id: 'site-health-page', plugin: 'site-health', label: 'Page health', icon: 'fa-solid:gauge', contexts: ['pages'], priority: 20, width: 420 }] : []),
  ];
}

/** Settings panels, gated by the listener as the real service leaves it to them. */
function settingsPanels(ctx: CmsContext, caller: Account): Decl[] {
  if (!enabled(ctx, 'site-health') || !holds(caller, 'api.system.read')) return [];
  return [
    {
      id: 'site-health-settings',
      plugin: 'site-health',
      label: 'PLUGIN_SITE_HEALTH.SETTINGS',
      description: 'How often the site is checked and who hears about failures',
      icon: 'fa-stethoscope',
      blueprint: 'health-settings',
      data_endpoint: '/site-health/settings',
      save_endpoint: '/site-health/settings',
      priority: 10,
    },
  ];
}

export const collect = { sidebar, menubar, widgets, panels, settingsPanels };

// ---- admin pages ----------------------------------------------------------------------------

/** What each plugin ships under admin-next/ (served by the script routes, read by page discovery). */
export interface PluginFiles {
  /** a page definition file (admin-next/pages/{slug}.yaml) */
  pageDefinition?: Record<string, unknown>;
}

const FILES: Record<string, PluginFiles> = {
  'site-health': {
    pageDefinition: {
      id: 'site-health',
      plugin: 'site-health',
      title: 'Site Health',
      icon: 'class:fa-solid fa-heart-pulse',
      page_type: 'component',
      actions: [{ id: 'run', label: 'Check now', icon: 'fa-rotate', endpoint: '/site-health/run', method: 'POST' }],
    },
  },
};

/** onApiPluginPageInfo: team-notes answers for itself while enabled. */
export function pageFromEvent(ctx: CmsContext, slug: string): Record<string, unknown> | null {
  if (slug !== 'team-notes' || !enabled(ctx, 'team-notes')) return null;
  return {
    id: 'team-notes',
    plugin: 'team-notes',
    title: 'Team Notes',
    icon: 'fa-note-sticky',
    page_type: 'blueprint',
    blueprint: 'notes',
    data_endpoint: '/team-notes/notes',
    save_endpoint: '/team-notes/notes',
    actions: [
      { id: 'export', label: 'Export', icon: 'fa-download', download: true, endpoint: '/team-notes/export' },
      { id: 'save', label: 'Save', icon: 'fa-check', primary: true },
    ],
  };
}

export const pageDefinitionFile = (slug: string): Record<string, unknown> | null => (installed(slug) ? structuredClone(FILES[slug]?.pageDefinition ?? null) : null);

// ---- menubar actions --------------------------------------------------------------------------

export interface ActionResult {
  status: 'success' | 'error';
  message: string;
}

/**
 * onApiMenubarAction: the handler of an enabled plugin that owns `plugin/action`, re-checking the
 * caller itself (403 when it may not); null when no handler answers (the route's 404).
 */
export function runAction(ctx: CmsContext, plugin: string, action: string, body: Record<string, unknown>, caller: Account): ActionResult | null {
  if (!enabled(ctx, plugin)) return null;
  const need = (permission: string) => {
    if (!holds(caller, permission)) throw new HttpProblem(403, 'Forbidden', `Missing required permission: ${permission}`);
  };
  if (plugin === 'team-notes' && action === 'quick-note') {
    const text = typeof body.text === 'string' ? body.text.trim() : '';
    if (!text) return { status: 'error', message: 'Write the note first: the text is empty.' };
    const notes = teamNotes.read(ctx);
    notes.push({ title: text.slice(0, 120), body: '', pinned_until: null });
    teamNotes.write(ctx, notes);
    return { status: 'success', message: `Note added (${notes.length} in all).` };
  }
  if (plugin === 'team-notes' && action === 'unpin-all') {
    need('api.pages.write');
    const notes = teamNotes.read(ctx);
    const pinned = notes.filter((n) => n.pinned_until).length;
    teamNotes.write(ctx, notes.map((n) => ({ ...n, pinned_until: null })));
    return { status: 'success', message: pinned === 1 ? 'Unpinned 1 note.' : `Unpinned ${pinned} notes.` };
  }
  if (plugin === 'site-health' && action === 'run-checks') {
    need('api.system.read');
    return healthRun(ctx);
  }
  if (plugin === 'site-health' && action === 'purge-cdn') {
    need('api.system.write');
    return { status: 'error', message: 'The CDN refused the purge: no CDN zone is configured for this site.' };
  }
  return null;
}

export function healthRun(ctx: CmsContext): ActionResult {
  const checks = healthChecks(ctx);
  const failing = checks.filter((c) => c.status !== 'ok').length;
  return { status: 'success', message: `${checks.length} checks run: ${checks.length - failing} passed, ${failing} need${failing === 1 ? 's' : ''} attention.` };
}

export function healthChecks(ctx: CmsContext): { check: string; status: 'ok' | 'warning'; detail: string }[] {
  const disk = 86;
  const warnAt = Number((siteHealth.read(ctx).checks as Data | undefined)?.disk_warning ?? 80);
  return [
    { check: 'HTTPS certificate', status: 'ok', detail: 'Valid for 61 more days' },
    { check: 'Home page answers', status: 'ok', detail: '200 in 84 ms' },
    { check: 'Cache folder writable', status: 'ok', detail: 'cache/ is writable' },
    { check: 'Scheduler ran recently', status: 'ok', detail: 'Last run 3 minutes ago' },
    { check: 'Backups', status: 'ok', detail: 'Newest backup is 20 hours old' },
    { check: 'Disk use', status: disk >= warnAt ? 'warning' : 'ok', detail: `${disk}% used (warning at ${warnAt}%)` },
  ];
}

// ---- the plugins' data, kept in their settings ----------------------------------------------

export interface Note {
  title: string;
  body: string;
  /** YYYY-MM-DD or null */
  pinned_until: string | null;
  /** `#rrggbb`, the plugin's own `note-color` field; absent when not chosen */
  color?: string;
}

function settingsOf(ctx: CmsContext, slug: string): { info: NonNullable<ReturnType<typeof scopeInfo>>; data: Data } {
  const info = scopeInfo(`plugins/${slug}`);
  if (!info) throw new HttpProblem(404, 'Not Found', `Plugin '${slug}' not found.`);
  return { info, data: ctx.site.config.effective(info) };
}

export const teamNotes = {
  read(ctx: CmsContext): Note[] {
    const notes = settingsOf(ctx, 'team-notes').data.notes;
    return Array.isArray(notes) ? (structuredClone(notes) as Note[]) : [];
  },
  write(ctx: CmsContext, notes: Note[]): void {
    const { info, data } = settingsOf(ctx, 'team-notes');
    ctx.site.config.save(info, { ...data, notes });
  },
};

export const siteHealth = {
  read(ctx: CmsContext): Data {
    return { checks: structuredClone(settingsOf(ctx, 'site-health').data.checks ?? {}) };
  },
  write(ctx: CmsContext, checks: Data): void {
    const { info, data } = settingsOf(ctx, 'site-health');
    ctx.site.config.save(info, { ...data, checks });
  },
};
