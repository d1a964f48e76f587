/**
 * A CMS site's audit trail (document 2, "Audit trail"; the real AuditController and AuditStore,
 * recordings 55–57): status, events paged newest first with the filters, facets, and the export
 * streamed as the site writes it. Tolerant: paging under `meta.pagination` or flat; `ts` in epoch
 * milliseconds (seconds and ISO text are read too); `context` an object, null, JSON text, or PHP's
 * empty `[]`; roles a list or comma-joined; retention nested or flat. A row that cannot be read is
 * set aside with its place and the reason, never the whole answer.
 */
import * as v from 'valibot';
import type { AuditEvent, AuditFilter, AuditStatus } from '../../contract';
import { isPlainObject } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, listCall, nextPage, request } from './envelope';

const text = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : typeof x === 'number' && Number.isFinite(x) ? String(x) : null);
const count = (x: unknown): number | null => {
  const n = typeof x === 'string' && /^\d+$/.test(x.trim()) ? Number(x) : x;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
};
const bool = (x: unknown): boolean => x === true || x === 1 || x === '1' || x === 'true';

/** Epoch milliseconds from what the site sent: ms (the documented form), seconds, a numeric string or ISO text. */
export function tsOf(x: unknown): number | null {
  if (typeof x === 'string' && /^\d+(\.\d+)?$/.test(x.trim())) return tsOf(Number(x));
  if (typeof x === 'number' && Number.isFinite(x) && x >= 0) return Math.trunc(x < 100_000_000_000 ? x * 1000 : x); // below 1973 in ms: seconds
  if (typeof x === 'string' && x.trim()) {
    const at = Date.parse(x);
    return Number.isNaN(at) ? null : at;
  }
  return null;
}

function contextOf(x: unknown): Record<string, unknown> | null | undefined {
  if (x === null || x === undefined || x === '') return null;
  if (Array.isArray(x)) return x.length === 0 ? null : undefined; // PHP's json_decode of "{}" comes back as []
  if (isPlainObject(x)) return x;
  if (typeof x === 'string') {
    try {
      return contextOf(JSON.parse(x));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const rolesOf = (x: unknown): string[] =>
  Array.isArray(x) ? x.filter((r): r is string => typeof r === 'string' && r !== '') : typeof x === 'string' ? x.split(',').map((r) => r.trim()).filter(Boolean) : [];

/** One event as the site sent it, or why it cannot be read. */
export function eventOf(raw: unknown): AuditEvent | { problem: string } {
  if (!isPlainObject(raw)) return { problem: 'not an event object' };
  const id = count(raw.id);
  if (id === null) return { problem: 'id: missing or not a whole number' };
  const ts = tsOf(raw.ts);
  if (ts === null) return { problem: 'ts: missing or not a time' };
  const event = text(raw.event);
  if (!event) return { problem: 'event: missing' };
  const context = contextOf(raw.context);
  if (context === undefined) return { problem: 'context: not an object' };
  return {
    id,
    ts,
    event,
    severity: text(raw.severity) ?? 'info',
    actorId: text(raw.actor_id),
    actorName: text(raw.actor_name),
    actorRoles: rolesOf(raw.actor_roles),
    authMethod: text(raw.auth_method),
    ip: text(raw.ip),
    userAgent: text(raw.user_agent),
    targetType: text(raw.target_type),
    targetId: text(raw.target_id),
    context,
  };
}

/** The documented query parameters of a filter (empty ones left out, as the site ignores them). */
export function filterQuery(f: AuditFilter): Record<string, string> {
  const q: Record<string, string> = {};
  const put = (k: string, val: string | number | undefined) => {
    if (val !== undefined && val !== '') q[k] = String(val);
  };
  put('event', f.event);
  put('actor', f.actor);
  put('target_type', f.targetType);
  put('severity', f.severity);
  put('from', f.from);
  put('to', f.to);
  put('q', f.q);
  return q;
}

export interface RawEventsPage {
  items: AuditEvent[];
  unreadable: { position: number; problem: string }[];
  total: number | null;
  page: number;
  perPage: number;
  next: number | null;
}

export const cmsAudit = {
  async status(t: Transport): Promise<Omit<AuditStatus, 'copiedAt'>> {
    const call: CallOptions = { path: '/audit/status' };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the audit trail status', callName(call)) as Record<string, unknown>;
    const retention = isPlainObject(d.retention) ? d.retention : {};
    const enabled = bool(d.enabled);
    const available = d.available === undefined ? true : bool(d.available);
    return {
      state: !available ? 'unavailable' : enabled ? 'on' : 'off',
      enabled,
      available,
      coverage: text(d.coverage),
      retentionDays: count(retention.days) ?? count(d.retention_days),
      retentionMaxRows: count(retention.max_rows) ?? count(d.retention_max_rows),
      total: count(d.total),
    };
  },

  async events(t: Transport, q: { filter: AuditFilter; page: number; perPage: number }): Promise<RawEventsPage> {
    const call: CallOptions = { path: '/audit/events', query: { ...filterQuery(q.filter), page: String(q.page), per_page: String(q.perPage) } };
    const { data, paging } = await listCall(t, call, 'the audit trail');
    const rows = parseAnswer(v.array(v.unknown()), data, t, 'the audit trail', callName(call));
    const page = paging.page ?? q.page;
    const perPage = paging.perPage ?? q.perPage;
    const items: AuditEvent[] = [];
    const unreadable: RawEventsPage['unreadable'] = [];
    rows.forEach((raw, i) => {
      const e = eventOf(raw);
      if ('problem' in e) unreadable.push({ position: (page - 1) * perPage + i, problem: e.problem });
      else items.push(e);
    });
    return { items, unreadable, total: paging.total, page, perPage, next: nextPage(paging, { page, perPage }, rows.length) };
  },

  async facets(t: Transport): Promise<{ events: string[]; actors: { id: string | null; name: string | null }[] }> {
    const call: CallOptions = { path: '/audit/facets' };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the audit trail facets', callName(call)) as Record<string, unknown>;
    const events = Array.isArray(d.events) ? [...new Set(d.events.map(text).filter((e): e is string => e !== null))] : [];
    const actors = Array.isArray(d.actors)
      ? d.actors.flatMap((a) => {
          if (isPlainObject(a)) {
            const id = text(a.id);
            const name = text(a.name);
            return id === null && name === null ? [] : [{ id, name }];
          }
          const name = text(a);
          return name ? [{ id: name, name }] : [];
        })
      : [];
    return { events, actors };
  },

  /**
   * The site's export of the filtered trail (`format` csv or json), each piece handed to `into`
   * as it arrives; nothing of it is kept here.
   */
  exportTo(t: Transport, q: { format: 'csv' | 'json'; filter: AuditFilter }, o: { signal?: AbortSignal; into: (piece: Uint8Array) => void | Promise<void> }) {
    return t.download({ path: '/audit/export', query: { ...filterQuery(q.filter), format: q.format }, idleMs: 60_000, into: o.into, ...(o.signal ? { signal: o.signal } : {}) });
  },
};
