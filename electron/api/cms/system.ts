/**
 * A CMS site's system routes (document 1 names them among its "other endpoints"; the shapes are the
 * real SystemController's and ReportsController's, recordings 25 and 59): `/system/info`,
 * `DELETE /cache?scope=`, `/reports`. Read tolerantly: a field the site leaves out is unknown, a
 * report or line that cannot be read is left out, never the whole answer.
 */
import * as v from 'valibot';
import type { CacheScope, ReportLine, SiteReport, SystemInfo } from '../../contract';
import { isPlainObject } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, request } from './envelope';

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? x.trim() : typeof x === 'number' ? String(x) : null);
const bool = (x: unknown): boolean | null => (typeof x === 'boolean' ? x : null);
const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

function lineOf(raw: unknown): ReportLine | null {
  if (typeof raw === 'string') return raw.trim() ? { text: raw, level: 'info', help: null, details: [] } : null;
  if (!isPlainObject(raw)) return null;
  const body = text(raw.msg) ?? text(raw.message) ?? text(raw.text) ?? [text(raw.route), text(raw.field)].filter(Boolean).join(': ');
  if (!body) return null;
  const okFlag = bool(raw.status);
  const level = okFlag === true ? 'ok' : raw.level === 'critical' || raw.level === 'error' ? 'error' : okFlag === false || raw.level === 'warning' ? 'warning' : 'info';
  const details: string[] = [];
  const d = raw.details;
  if (isPlainObject(d)) for (const group of ['errors', 'warning']) if (isPlainObject(d[group])) for (const x of Object.values(d[group])) if (text(x)) details.push(text(x)!);
  const help = text(raw.help);
  return { text: body, level, help: help && /^https?:\/\//.test(help) ? help : null, details: details.slice(0, 50) };
}

function reportOf(raw: unknown): SiteReport | null {
  if (!isPlainObject(raw) || !text(raw.id)) return null;
  const status = raw.status === 'warning' || raw.status === 'error' || raw.status === 'success' ? raw.status : 'info';
  return {
    id: text(raw.id)!,
    title: text(raw.title) ?? text(raw.id)!,
    provider: text(raw.provider),
    status,
    message: text(raw.message),
    lines: list(raw.items).map(lineOf).filter((l): l is ReportLine => l !== null).slice(0, 500),
    component: text(raw.component),
  };
}

export const cmsSystem = {
  async info(t: Transport): Promise<Omit<SystemInfo, 'copiedAt'>> {
    const call: CallOptions = { path: '/system/info' };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the system information', callName(call)) as Record<string, unknown>;
    const cfg = isPlainObject(d.php_config) ? d.php_config : {};
    return {
      cmsVersion: text(d.grav_version) ?? text(d.cms_version),
      phpVersion: text(d.php_version),
      serverSoftware: text(d.server_software),
      environment: text(d.environment),
      phpExtensions: list(d.php_extensions).map(text).filter((x): x is string => x !== null),
      plugins: list(d.plugins).flatMap((p) => (isPlainObject(p) && text(p.name) ? [{ name: text(p.name)!, version: text(p.version), enabled: bool(p.enabled) }] : [])),
      themes: list(d.themes).flatMap((p) => (isPlainObject(p) && text(p.name) ? [{ name: text(p.name)!, version: text(p.version), active: bool(p.active) }] : [])),
      phpConfig: Object.entries(cfg).flatMap(([group, values]) =>
        isPlainObject(values) ? [{ group, values: Object.entries(values).map(([key, value]) => ({ key, value: text(value) ?? (value === '' ? '' : String(value ?? '')) })) }] : [],
      ),
    };
  },

  async clearCache(t: Transport, scope: CacheScope): Promise<{ scope: CacheScope; message: string | null; details: string[] }> {
    const call: CallOptions = { method: 'DELETE', path: '/cache', query: { scope } };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data ?? {}, t, 'the cache clear', callName(call)) as Record<string, unknown>;
    // core's lines carry its console colour tags (`<red>Cleared:  </red>/srv/…`): words only, blank lines dropped
    const plain = (x: unknown) => text(typeof x === 'string' ? x.replace(/<\/?(?:red|green|yellow|blue|cyan|magenta|white|black)>/g, '').replace(/\s+/g, ' ') : x);
    return { scope, message: text(d.message), details: list(d.details).map(plain).filter((x): x is string => x !== null).slice(0, 100) };
  },

  async reports(t: Transport): Promise<SiteReport[]> {
    const call: CallOptions = { path: '/reports' };
    const r = await request(t, call);
    return parseAnswer(v.array(v.unknown()), r.data, t, 'the reports', callName(call))
      .map(reportOf)
      .filter((x): x is SiteReport => x !== null);
  },
};
