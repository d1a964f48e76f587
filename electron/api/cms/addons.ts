/**
 * What a CMS site's plugins add to the admin (document 1 section 6; the shapes getgrav/grav-plugin-api
 * answers and getgrav/grav-admin-next reads): `/sidebar/items`, `/menubar/items`, `POST
 * /menubar/actions/{plugin}/{action}`, `/floating-widgets`, `/context-panels`, `/settings/panels`,
 * `/gpm/plugins/{slug}/page`, a page's or panel's data and save endpoints, and the public
 * `/translations/{lang}`.
 *
 * Read tolerantly: a row that cannot be read is set aside with the reason, never the whole list.
 * Endpoints a definition names are checked here (`apiPath`): only a path of the site's own API is
 * ever called, so a plugin cannot point the Host at another host or outside the API.
 */
import * as v from 'valibot';
import type { AddonAside, AddonIcon, MenubarAddon, PanelAddon, PluginPageAction, SidebarAddon, SettingsPanelAddon, WidgetAddon } from '../../contract';
import { isPlainObject } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer, unreadable } from '../parse';
import { callName, request } from './envelope';

const text = (x: unknown, max = 500): string | null => (typeof x === 'string' && x.trim() ? x.trim().slice(0, max) : typeof x === 'number' && Number.isFinite(x) ? String(x) : null);
const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x)) ? Number(x) : 0);

const SVG_PATH = /^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]+$/;
const FA_STYLES = new Set(['solid', 'regular', 'light', 'thin', 'duotone', 'brands', 'sharp']);

/** An icon in each documented form; null for one that is none of them (the app draws its generic icon). */
export function iconOf(raw: unknown): AddonIcon | null {
  if (isPlainObject(raw)) {
    const path = raw.type === 'svg' && typeof raw.path === 'string' ? raw.path.trim() : '';
    return path && path.length <= 4000 && SVG_PATH.test(path) ? { kind: 'svg', path } : null;
  }
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  if (s.startsWith('class:')) {
    const name = s.slice(6).trim().replace(/\s+/g, ' ');
    return name && /^[A-Za-z0-9 _-]{1,200}$/.test(name) ? { kind: 'class', name } : null;
  }
  const styled = /^fa-([a-z]+):([a-z0-9-]{1,64})$/.exec(s);
  if (styled) return FA_STYLES.has(styled[1]!) ? { kind: 'fa', name: styled[2]!, style: styled[1]! } : null;
  const fa = /^fa-([a-z0-9-]{1,64})$/.exec(s);
  if (fa) return { kind: 'fa', name: fa[1]!, style: null };
  return /^[a-z0-9-]{1,64}$/.test(s) ? { kind: 'lucide', name: s } : null;
}

/**
 * An endpoint a plugin's definition names, as a path of the site's API: root-relative (`/x/y`),
 * no scheme or host (`https:`, `//host`), no backslash, no `.` or `..` segment even encoded, an
 * optional query. Anything else is refused with the reason.
 */
export function apiPath(raw: unknown): { path: string; query: Record<string, string> } | { refused: string } {
  if (typeof raw !== 'string' || raw.trim() === '') return { refused: 'no endpoint' };
  const s = raw.trim();
  if (s.length > 512) return { refused: 'an endpoint longer than 512 characters' };
  if (!s.startsWith('/') || s.startsWith('//')) return { refused: `"${s.slice(0, 80)}" is not a path of the site's API (it must start with one "/")` };
  if (/[\\\s#\0-\x1f]/.test(s)) return { refused: `"${s.slice(0, 80)}" holds characters a path of the site's API does not` };
  const [path = '', query = ''] = s.split(/\?(.*)/s, 2);
  if (/^\/[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.includes('://')) return { refused: `"${s.slice(0, 80)}" names another address` };
  let segments: string[];
  try {
    segments = path.split('/').map((seg) => decodeURIComponent(seg));
  } catch {
    return { refused: `"${s.slice(0, 80)}" is not a readable path` };
  }
  if (segments.some((seg) => seg === '.' || seg === '..' || seg.includes('/') || seg.includes('\\'))) return { refused: `"${s.slice(0, 80)}" leaves the path it names ("." or "..")` };
  if (!/^[A-Za-z0-9._~!$&'()*+,;=:@%/-]+$/.test(path)) return { refused: `"${s.slice(0, 80)}" holds characters a path of the site's API does not` };
  return { path, query: Object.fromEntries(new URLSearchParams(query)) };
}

type ListName = AddonAside['list'];

/** The base every row has: id, plugin, label; a missing one sets the row aside. */
function base(raw: unknown): { id: string; plugin: string; label: string; icon: AddonIcon | null; priority: number } | string {
  if (!isPlainObject(raw)) return 'not an object';
  const id = text(raw.id, 128);
  const plugin = text(raw.plugin, 128);
  const label = text(raw.label, 200);
  if (!id) return 'no id';
  if (!plugin || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(plugin) || plugin.includes('..')) return 'no plugin name';
  if (!label) return 'no label';
  return { id, plugin, label, icon: iconOf(raw.icon), priority: num(raw.priority) };
}

function rows<T>(name: ListName, data: unknown, read: (raw: Record<string, unknown>, b: Exclude<ReturnType<typeof base>, string>) => T | string, aside: AddonAside[]): T[] {
  const out: T[] = [];
  list(data)
    .slice(0, 200)
    .forEach((raw, index) => {
      const b = base(raw);
      const row = typeof b === 'string' ? b : read(raw as Record<string, unknown>, b);
      if (typeof row === 'string') aside.push({ list: name, index, reason: row });
      else out.push(row);
    });
  return out;
}

const strings = (x: unknown): string[] => list(x).flatMap((r) => (typeof r === 'string' && r.trim() ? [r.trim().slice(0, 200)] : [])).slice(0, 50);

/** A settings panel as the Host keeps it: what the renderer sees plus the endpoints only the Host calls. */
export interface SettingsPanelRead extends SettingsPanelAddon {
  dataEndpoint: unknown;
  saveEndpoint: unknown;
}

/** A page definition as the Host keeps it: what the renderer sees plus the endpoints. */
export interface PluginPageRead {
  id: string;
  plugin: string;
  title: string;
  icon: AddonIcon | null;
  pageType: 'blueprint' | 'component';
  blueprint: string | null;
  dataEndpoint: unknown;
  saveEndpoint: unknown;
  actions: (PluginPageAction & { endpoint: unknown; method: string })[];
  hasScript: boolean;
}

async function listOf(t: Transport, path: string, what: string): Promise<unknown[]> {
  const call: CallOptions = { path };
  const r = await request(t, call);
  // the real service answers an empty list as [] and PHP may send an empty map as {}
  if (isPlainObject(r.data) && Object.keys(r.data).length === 0) return [];
  return parseAnswer(v.array(v.unknown()), r.data, t, what, callName(call));
}

export const cmsAddons = {
  async sidebar(t: Transport, aside: AddonAside[]): Promise<SidebarAddon[]> {
    const data = await listOf(t, '/sidebar/items', 'the sidebar items');
    return rows('sidebar', data, (raw, b) => ({ ...b, route: text(raw.route, 300), badge: typeof raw.badge === 'number' && Number.isFinite(raw.badge) ? raw.badge : text(raw.badge, 20) }), aside);
  },

  async menubar(t: Transport, aside: AddonAside[]): Promise<MenubarAddon[]> {
    const data = await listOf(t, '/menubar/items', 'the menubar items');
    return rows(
      'menubar',
      data,
      (raw, b) => {
        const action = text(raw.action, 128);
        if (!action || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(action) || action.includes('..')) return 'no action name';
        const variant = raw.variant === 'primary' || raw.variant === 'warning' || raw.variant === 'danger' ? raw.variant : null;
        return { ...b, action, confirm: text(raw.confirm), variant };
      },
      aside,
    );
  },

  async widgets(t: Transport, aside: AddonAside[]): Promise<WidgetAddon[]> {
    const data = await listOf(t, '/floating-widgets', 'the floating widgets');
    return rows('widgets', data, (raw, b) => ({ ...b, routes: strings(raw.routes), autoLoad: raw.autoLoad === true }), aside);
  },

  async panels(t: Transport, aside: AddonAside[]): Promise<PanelAddon[]> {
    const data = await listOf(t, '/context-panels', 'the context panels');
    return rows('panels', data, (raw, b) => ({ ...b, contexts: strings(raw.contexts) }), aside);
  },

  async settingsPanels(t: Transport, aside: AddonAside[]): Promise<SettingsPanelRead[]> {
    const data = await listOf(t, '/settings/panels', 'the settings panels');
    return rows(
      'settingsPanels',
      data,
      (raw, b) => {
        const blueprint = text(raw.blueprint, 128);
        if (!blueprint || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(blueprint) || blueprint.includes('..')) return 'no blueprint name';
        return { ...b, description: text(raw.description), blueprint, dataEndpoint: raw.data_endpoint, saveEndpoint: raw.save_endpoint };
      },
      aside,
    );
  },

  async runAction(t: Transport, plugin: string, action: string, body: Record<string, unknown> | undefined): Promise<{ ok: boolean; message: string }> {
    const call: CallOptions = { method: 'POST', path: `/menubar/actions/${encodeURIComponent(plugin)}/${encodeURIComponent(action)}`, body: body ?? {} };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data ?? {}, t, 'the result of the action', callName(call)) as Record<string, unknown>;
    const ok = d.status !== 'error';
    const message = text(d.message);
    return { ok, message: message ? t.scrub(message).slice(0, 500) : ok ? 'Done.' : 'The plugin refused the action without saying why.' };
  },

  /** A page action's own request (its endpoint checked by apiPath); the site's {status, message} read as a menubar action's. */
  async pageAction(t: Transport, at: { path: string; query: Record<string, string> }, method: string): Promise<{ ok: boolean; message: string }> {
    const call: CallOptions = { method: method as CallOptions['method'], path: at.path, query: at.query, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) };
    const r = await request(t, call);
    const d = (isPlainObject(r.data) ? r.data : {}) as Record<string, unknown>;
    const ok = d.status !== 'error';
    const message = text(d.message);
    return { ok, message: message ? t.scrub(message).slice(0, 500) : ok ? 'Done.' : 'The plugin refused the action without saying why.' };
  },

  async page(t: Transport, plugin: string): Promise<PluginPageRead> {
    const call: CallOptions = { path: `/gpm/plugins/${encodeURIComponent(plugin)}/page` };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the plugin’s page', callName(call)) as Record<string, unknown>;
    const type = d.page_type === 'blueprint' || d.page_type === 'component' ? d.page_type : null;
    if (!type) throw unreadable(t, 'the plugin’s page', { where: callName(call), field: 'page_type' });
    const blueprint = text(d.blueprint, 128);
    if (type === 'blueprint' && (!blueprint || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(blueprint) || blueprint.includes('..'))) throw unreadable(t, 'the plugin’s page', { where: callName(call), field: 'blueprint' });
    return {
      id: text(d.id, 128) ?? plugin,
      plugin,
      title: text(d.title, 200) ?? plugin,
      icon: iconOf(d.icon),
      pageType: type,
      blueprint: type === 'blueprint' ? blueprint : null,
      dataEndpoint: d.data_endpoint,
      saveEndpoint: d.save_endpoint,
      actions: list(d.actions)
        .slice(0, 30)
        .flatMap((a) => {
          if (!isPlainObject(a) || !text(a.id, 128) || !text(a.label, 200)) return [];
          const method = typeof a.method === 'string' && ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'].includes(a.method.toUpperCase()) ? a.method.toUpperCase() : 'POST';
          return [{ id: text(a.id, 128)!, label: text(a.label, 200)!, icon: iconOf(a.icon), primary: a.primary === true, download: a.download === true, confirm: text(a.confirm), runs: a.endpoint !== undefined && a.endpoint !== null, endpoint: a.endpoint, method }];
        }),
      hasScript: d.has_custom_component === true,
    };
  },

  /** A page's or panel's data: the object its endpoint answers. */
  async data(t: Transport, at: { path: string; query: Record<string, string> }): Promise<Record<string, unknown>> {
    const call: CallOptions = { path: at.path, query: at.query };
    const r = await request(t, call);
    return parseAnswer(v.record(v.string(), v.unknown()), r.data, t, 'the plugin’s data', callName(call));
  },

  /** Saves a page's or panel's form (PATCH with its values); the site's answer when it is the data, else null. */
  async save(t: Transport, at: { path: string; query: Record<string, string> }, values: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    const call: CallOptions = { method: 'PATCH', path: at.path, query: at.query, body: values };
    const r = await request(t, call);
    return isPlainObject(r.data) ? r.data : null;
  },

  /** The site's translations in `lang` (a public route): strings only, keys as sent. */
  async translations(t: Transport, lang: string): Promise<{ lang: string; strings: Record<string, string> }> {
    const call: CallOptions = { path: `/translations/${encodeURIComponent(lang)}`, auth: false };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the translations', callName(call)) as Record<string, unknown>;
    const out: Record<string, string> = {};
    if (isPlainObject(d.strings)) {
      let n = 0;
      for (const [k, s] of Object.entries(d.strings)) {
        if (typeof s !== 'string' || k.length > 200 || n >= 20_000) continue;
        Object.defineProperty(out, k, { value: s.slice(0, 500), enumerable: true, writable: true, configurable: true });
        n++;
      }
    } else if (!Array.isArray(d.strings)) throw unreadable(t, 'the translations', { where: callName(call), field: 'strings' });
    return { lang: text(d.lang, 20) ?? lang, strings: out };
  },
};
