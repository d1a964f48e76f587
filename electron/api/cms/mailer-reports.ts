/**
 * A CMS site's mailing plugin, its deliverability, provider and report routes (document 2,
 * "Deliverability and providers", "Reports"; docs/mailer-campaigns.md). Tolerant as the other
 * mailer readers: times in epoch seconds or ISO text, counts as numbers or numeric text, a check
 * or provider that cannot be read left out; an answer without the parts every screen needs (the
 * domains' list, a report's columns and rows) is a clear `bad_response` naming the field.
 */
import type { CallOptions, Transport } from '../transport';
import type { DeliverabilityCheck, DeliverabilityDomain, DeliverabilityStatus, MailerBase, MailerDeliverability, MailerProvider, MailerReport, MailerReportColumn, MailerReportColumnKind, MailerReportType } from '../../contract';
import { isPlainObject } from '../../contract';
import { isoOf, mailerWire as w, refusedFields } from './mailer';
import { request } from './envelope';

const STATUSES = new Set(['pass', 'warn', 'fail']);
const statusOf = (x: unknown): DeliverabilityStatus | null => (typeof x === 'string' && STATUSES.has(x) ? (x as DeliverabilityStatus) : null);

/**
 * The record the site's words tell the person to add, when they name one: a quoted record, a
 * mechanism to add to the record found ("add include:mail.example to it"), or a policy to move to
 * ("move to p=quarantine"). Null when the words name none (a key only the provider can give).
 */
export function fixOf(detail: string, record: string | null): string | null {
  const quoted = /"([^"]{3,500})"/.exec(detail)?.[1];
  if (quoted) return quoted;
  const add = /\badd (\S+:\S+?) to it\b/i.exec(detail)?.[1];
  if (add && record) return record.replace(/^(v=spf1)(\s|$)/i, `$1 ${add}$2`);
  const policy = /\bmove to (p=\w+)/i.exec(detail)?.[1];
  if (policy && record) return /;\s*p=\w+/i.test(record) ? record.replace(/(;\s*)p=\w+/i, `$1${policy}`) : `${record.replace(/;?\s*$/, '')}; ${policy}`;
  return null;
}

function checkOf(raw: unknown): DeliverabilityCheck | null {
  if (!isPlainObject(raw)) return null;
  const status = statusOf(raw.status);
  const check = w.text(raw.check);
  if (!status || !check) return null;
  const record = w.text(raw.record);
  const detail = w.plain(raw.detail);
  return { check: check.toLowerCase(), status, name: w.plain(raw.name), record, detail, fix: status === 'pass' ? null : fixOf(detail, record) };
}

const worst = (all: { status: DeliverabilityStatus }[]): DeliverabilityStatus => (all.some((c) => c.status === 'fail') ? 'fail' : all.some((c) => c.status === 'warn') ? 'warn' : 'pass');

function domainOf(raw: unknown): DeliverabilityDomain | null {
  if (!isPlainObject(raw)) return null;
  const domain = w.text(raw.domain);
  if (!domain) return null;
  const checks = (Array.isArray(raw.checks) ? raw.checks : []).map(checkOf).filter((c): c is DeliverabilityCheck => c !== null);
  const used = isPlainObject(raw.used_by) ? raw.used_by : {};
  return {
    domain,
    usedBy: { site: w.bool(used.site), lists: (Array.isArray(used.lists) ? used.lists : []).map(w.int).filter((n): n is number => n !== null) },
    status: statusOf(raw.status) ?? worst(checks),
    checks,
  };
}

function deliverabilityOf(raw: unknown): Omit<MailerDeliverability, 'copiedAt'> {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the checks themselves)');
  const domains = w.need(Array.isArray(raw.domains) ? raw.domains : null, 'domains').map(domainOf).filter((d): d is DeliverabilityDomain => d !== null);
  const all = domains.flatMap((d) => d.checks);
  const s = isPlainObject(raw.summary) ? raw.summary : null;
  return {
    checkedAt: isoOf(raw.checked_at),
    freshUntil: isoOf(raw.fresh_until),
    cached: w.bool(raw.cached),
    status: statusOf(raw.status) ?? worst(all),
    summary: s ? { pass: w.count(s.pass), warn: w.count(s.warn), fail: w.count(s.fail) } : { pass: all.filter((c) => c.status === 'pass').length, warn: all.filter((c) => c.status === 'warn').length, fail: all.filter((c) => c.status === 'fail').length },
    domains,
  };
}

const PROVIDER_LABELS: Record<string, string> = { mailgun: 'Mailgun', postmark: 'Postmark', sendgrid: 'SendGrid', ses: 'Amazon SES' };

/** A provider as settings list it (`name`) or as a secret's or setup's answer says it (`provider`). */
export function providerOf(raw: unknown): MailerProvider | null {
  if (!isPlainObject(raw)) return null;
  const name = w.text(raw.name ?? raw.provider);
  if (!name) return null;
  const secretSet = w.bool(raw.secret_set);
  return {
    name,
    label: w.text(raw.label) ?? PROVIDER_LABELS[name] ?? name,
    webhookUrl: w.text(raw.webhook_url),
    secretSet,
    reports: (Array.isArray(raw.reports) ? raw.reports : Array.isArray(raw.events) ? raw.events : []).filter((x): x is string => typeof x === 'string'),
    secretSetAt: isoOf(raw.secret_set_at),
    // settings do not say: the design's rule (Amazon SES is set up by hand)
    setupByApi: raw.setup_by_api === undefined ? name !== 'ses' : w.bool(raw.setup_by_api),
    webhookId: w.text(raw.webhook_id),
    setupAt: isoOf(raw.setup_at),
    setupNeeded: w.bool(raw.setup_needed),
  };
}

const COLUMN_LABELS: Record<string, string> = {
  campaign_id: 'Id',
  list_id: 'Id',
  flow_id: 'Id',
  name: 'Name',
  sent_at: 'First sent',
  day: 'Day',
  open_rate: 'Opened (%)',
  click_rate: 'Clicked (%)',
  still_subscribed: 'Still subscribed',
  in_flow: 'In it now',
  band: 'Last opened',
};
const labelOf = (key: string) => COLUMN_LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');

function kindOf(key: string, values: unknown[]): MailerReportColumnKind {
  if (key === 'day') return 'day';
  if (key.endsWith('_at')) return 'time';
  if (key === 'id' || key.endsWith('_id')) return 'id';
  if (key.endsWith('_rate') || key.endsWith('_percent')) return 'percent';
  return values.every((x) => x === null || w.int(x) !== null) && values.some((x) => x !== null) ? 'count' : 'text';
}

function reportOf(raw: unknown, type: MailerReportType): Omit<MailerReport, 'copiedAt'> {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the report itself)');
  const keys = w.need(Array.isArray(raw.columns) && raw.columns.length > 0 && raw.columns.every((c) => typeof c === 'string' && c !== '') ? (raw.columns as string[]) : null, 'columns');
  const objects = w.need(Array.isArray(raw.rows) ? raw.rows : null, 'rows');
  if (!objects.every(isPlainObject)) throw new w.Unreadable('rows');
  const rows = objects as Record<string, unknown>[];
  const columns: MailerReportColumn[] = keys.map((key) => ({ key, label: labelOf(key), kind: kindOf(key, rows.map((r) => r[key] ?? null)) }));
  const cell = (c: MailerReportColumn, x: unknown): string | number | null => {
    if (x === null || x === undefined || x === '') return null;
    if (c.kind === 'day' || c.kind === 'time') return isoOf(x);
    if (c.kind === 'percent') {
      const n = typeof x === 'string' ? Number(x) : x;
      return typeof n === 'number' && Number.isFinite(n) ? n : null;
    }
    if (c.kind === 'count' || c.kind === 'id') return w.int(x);
    return w.plain(x);
  };
  const totals = isPlainObject(raw.totals) ? Object.fromEntries(Object.entries(raw.totals).flatMap(([k, n]) => (w.int(n) !== null ? [[k, w.int(n)!]] : []))) : null;
  return {
    type,
    from: isoOf(raw.from),
    to: isoOf(raw.to),
    generatedAt: isoOf(raw.generated_at),
    columns,
    rows: rows.map((r) => columns.map((c) => cell(c, r[c.key]))),
    totals,
  };
}

/** A period as the site takes it (epoch seconds); omitted: the site's default (the last 30 days). */
const periodQuery = (q: { from?: string | undefined; to?: string | undefined }): Record<string, string> => ({
  ...(q.from ? { from: String(Math.floor(Date.parse(q.from) / 1000)) } : {}),
  ...(q.to ? { to: String(Math.floor(Date.parse(q.to) / 1000)) } : {}),
});

export const cmsMailerReports = {
  async deliverability(t: Transport, b: MailerBase, recheck: boolean): Promise<Omit<MailerDeliverability, 'copiedAt'>> {
    const call: CallOptions = recheck ? { method: 'POST', path: w.path(b, '/deliverability/recheck'), body: {} } : { path: w.path(b, '/deliverability') };
    const r = await request(t, call);
    return w.one(t, 'the deliverability checks', call, r.data, deliverabilityOf);
  },

  /** The providers of `GET settings` (the rest of the settings is not read here). */
  async providers(t: Transport, b: MailerBase): Promise<MailerProvider[]> {
    const call: CallOptions = { path: w.path(b, '/settings') };
    const r = await request(t, call);
    const d = isPlainObject(r.data) ? r.data : null;
    const list = w.one(t, 'the mailer’s settings', call, d, (x) => w.need(isPlainObject(x) && Array.isArray(x.providers) ? x.providers : null, 'providers'));
    return list.map(providerOf).filter((p): p is MailerProvider => p !== null);
  },

  async providerWrite(t: Transport, b: MailerBase, name: string, what: 'secret' | 'setup'): Promise<{ provider: MailerProvider; rotated: boolean; created: boolean }> {
    const call: CallOptions = { method: 'POST', path: w.path(b, `/providers/${encodeURIComponent(name)}/${what}`), body: {} };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    const d = isPlainObject(r.data) ? r.data : null;
    return w.one(t, what === 'secret' ? 'the new secret’s answer' : 'the webhook’s setup', call, d, (x) => {
      const provider = w.need(providerOf(x), 'provider');
      const o = x as Record<string, unknown>;
      return { provider, rotated: w.bool(o.rotated), created: w.bool(o.created) };
    });
  },

  async report(t: Transport, b: MailerBase, type: MailerReportType, q: { from?: string | undefined; to?: string | undefined }): Promise<Omit<MailerReport, 'copiedAt'>> {
    const call: CallOptions = { path: w.path(b, `/reports/${type}`), query: periodQuery(q) };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    return w.one(t, 'the report', call, r.data, (x) => reportOf(x, type));
  },

  reportCsv(t: Transport, b: MailerBase, type: MailerReportType, q: { from?: string | undefined; to?: string | undefined }, o: { signal?: AbortSignal; into: (piece: Uint8Array) => void | Promise<void> }) {
    return t.download({ path: w.path(b, `/reports/${type}.csv`), query: periodQuery(q), idleMs: 60_000, into: o.into, ...(o.signal ? { signal: o.signal } : {}) });
  },
};
