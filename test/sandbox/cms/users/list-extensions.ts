/**
 * The Users-list extension points (document 1, "Users-list extension descriptors" and the rules
 * under "Admin client composition events"), as the real service assembles what plugins declare
 * (getgrav/grav-plugin-api:classes/Api/Controllers/UsersController.php assembleFilterTabs(),
 * assembleColumns(), assembleRowActions(), sanitizeColumnValues(), sanitizeActionResult(),
 * safeRedirectUrl(); the same in both flavours): pure functions over the declarations, so the
 * routes (user-routes.ts) only fire the "events" and hand over what the demo plugins
 * (demo-plugins.ts) answered.
 */

/** A declaration's `authorize`: a permission, any of several, or none. */
export type Authorize = string | string[] | undefined;

export interface TabDecl {
  id?: unknown;
  plugin?: string;
  label?: string;
  icon?: string;
  priority?: number;
  badge?: string | number | null;
  badgeEndpoint?: string;
  authorize?: Authorize;
}

export interface ColumnDecl {
  id?: unknown;
  plugin?: string;
  label?: string;
  field?: unknown;
  formatter?: unknown;
  labelField?: unknown;
  sortable?: unknown;
  priority?: number;
  authorize?: Authorize;
}

export interface ActionDecl {
  id?: unknown;
  plugin?: unknown;
  label?: unknown;
  icon?: unknown;
  action?: unknown;
  confirm?: unknown;
  priority?: unknown;
  authorize?: Authorize;
}

/** Whether the caller passes a declaration's `authorize` (super admins pass all; unknown shapes fail). */
export type Passes = (authorize: Authorize) => boolean;

export const COLUMN_FORMATTERS = ['text', 'link', 'date', 'datetime', 'boolean', 'number', 'badge'] as const;
export const COLUMN_MAX_FIELDS = 32;
export const COLUMN_VALUE_MAX_LEN = 2048;
export const ROW_ACTIONS_MAX = 24;
export const ROW_ACTION_MESSAGE_MAX_LEN = 512;

const byPriority = <T extends { priority?: unknown }>(a: T, b: T) => (Number(b.priority) || 0) - (Number(a.priority) || 0);
const safeKey = (v: unknown) => (typeof v === 'string' ? v.replace(/[^A-Za-z0-9_.-]/g, '') : '');
const hasId = <T extends { id?: unknown }>(d: T): d is T & { id: string } => typeof d.id === 'string' && d.id !== '';

export interface FilterTabs {
  tabs: Record<string, unknown>[];
  defaultFilter: string;
  showAll: boolean;
}

/**
 * The tab row: plugin tabs the caller may see (`all` reserved, `authorize` stripped), by priority;
 * the built-in `all` first unless `showAll` is false and a plugin tab survived; `defaultFilter`
 * honoured only when it names a visible tab, else the first tab.
 */
export function assembleFilterTabs(declared: readonly TabDecl[], defaultFilter: unknown, showAll: unknown, passes: Passes): FilterTabs {
  const tabs: Record<string, unknown>[] = [];
  for (const tab of declared) {
    if (!tab || typeof tab !== 'object' || !hasId(tab) || tab.id === 'all') continue;
    if (!passes(tab.authorize)) continue;
    const { authorize: _drop, ...clean } = tab;
    tabs.push(clean);
  }
  tabs.sort(byPriority);
  if (showAll !== false || tabs.length === 0) tabs.unshift({ id: 'all', plugin: 'api', label: 'All Users' });
  const ids = tabs.map((t) => t.id as string);
  const landing = typeof defaultFilter === 'string' && ids.includes(defaultFilter) ? defaultFilter : (ids[0] ?? 'all');
  return { tabs, defaultFilter: landing, showAll: ids.includes('all') };
}

/** Columns: first declaration of an id wins, a field is required (safe characters only), unknown formatters become `text`. */
export function assembleColumns(declared: readonly ColumnDecl[], passes: Passes): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const column of declared) {
    if (!column || typeof column !== 'object' || !hasId(column) || seen.has(column.id)) continue;
    if (!passes(column.authorize)) continue;
    const field = safeKey(column.field);
    if (field === '') continue;
    const formatter = typeof column.formatter === 'string' && (COLUMN_FORMATTERS as readonly string[]).includes(column.formatter) ? column.formatter : 'text';
    const labelField = safeKey(column.labelField);
    seen.add(column.id);
    const { authorize: _drop, labelField: _label, ...rest } = column;
    const clean: Record<string, unknown> = { ...rest, field, formatter, sortable: Boolean(column.sortable) };
    if (formatter === 'link' && labelField !== '') clean.labelField = labelField;
    out.push(clean);
  }
  return out.sort(byPriority);
}

/** Row actions: at most 24, first id wins, only the known keys as strings, `priority` an integer. */
export function assembleRowActions(declared: readonly ActionDecl[], passes: Passes): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const action of declared) {
    if (out.length >= ROW_ACTIONS_MAX) break;
    if (!action || typeof action !== 'object' || !hasId(action) || seen.has(action.id)) continue;
    if (!passes(action.authorize)) continue;
    seen.add(action.id);
    const clean: Record<string, unknown> = {
      id: action.id,
      plugin: typeof action.plugin === 'string' ? action.plugin : '',
      label: typeof action.label === 'string' ? action.label : action.id,
    };
    if (typeof action.icon === 'string') clean.icon = action.icon;
    if (typeof action.action === 'string') clean.action = action.action;
    if (typeof action.confirm === 'string' && action.confirm !== '') clean.confirm = action.confirm;
    clean.priority = Math.trunc(Number(action.priority) || 0);
    out.push(clean);
  }
  return out.sort(byPriority);
}

export type Scalar = string | number | boolean | null;

/** One user's plugin values: scalars or null only, safe keys, strings capped, at most 32 fields. */
export function sanitizeColumnValues(extra: Record<string, unknown>): Record<string, Scalar> {
  const clean: Record<string, Scalar> = {};
  for (const [rawKey, value] of Object.entries(extra)) {
    if (Object.keys(clean).length >= COLUMN_MAX_FIELDS) break;
    const key = safeKey(rawKey);
    if (key === '') continue;
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    clean[key] = typeof value === 'string' && Buffer.byteLength(value) > COLUMN_VALUE_MAX_LEN ? capBytes(value, COLUMN_VALUE_MAX_LEN) : (value as Scalar);
  }
  return clean;
}

/** The longest prefix of `text` within `max` UTF-8 bytes (PHP cuts bytes; a cut character is left out). */
function capBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8').subarray(0, max);
  return bytes.toString('utf8').replace(/\uFFFD$/, '');
}

export interface ActionResult {
  status: 'success' | 'error';
  message?: string;
  url?: string;
}

/** A handler's result in the fixed shape; `url` kept only when root-relative or same-origin http(s). */
export function sanitizeActionResult(result: unknown, requestOrigin: string): ActionResult {
  const r = result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : {};
  const out: ActionResult = { status: r.status === 'error' ? 'error' : 'success' };
  if (typeof r.message === 'string' && r.message !== '') out.message = capBytes(r.message, ROW_ACTION_MESSAGE_MAX_LEN);
  if (typeof r.url === 'string') {
    const url = safeRedirectUrl(r.url, requestOrigin);
    if (url !== null) out.url = url;
  }
  return out;
}

/** A root-relative path (not `//host`) or an absolute http(s) URL on the request's host and port; else null. */
export function safeRedirectUrl(raw: string, requestOrigin: string): string | null {
  const url = raw.trim();
  if (url === '') return null;
  if (url.startsWith('/')) return url.startsWith('//') ? null : url;
  let parsed: URL;
  let origin: URL;
  try {
    parsed = new URL(url);
    origin = new URL(requestOrigin);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.hostname.toLowerCase() === origin.hostname.toLowerCase() && parsed.port === origin.port ? url : null;
}
