/**
 * The mailer's seven reports, spec flavour (document 2 "Reports"; docs/mailer-campaigns.md,
 * "Reports"): each a table of columns and rows over a period (`from`, `to`, epoch seconds; the
 * last 30 days by default, at most 366), answered as JSON or as CSV with the same columns. Figures
 * only: no report names an address, so any `mailer.view` caller may read every one.
 */
import { csvCell, csvLine } from './csv';
import { SOURCES } from './segments';
import type { MailerStore } from './store';
import { invalid, refuse } from './wire';

export const REPORT_TYPES = ['campaigns', 'growth', 'lists', 'sources', 'engagement', 'deliverability', 'automations'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
const DAY = 86_400;

export interface Period {
  from: number;
  to: number;
}

/** `from` and `to` of a query (pure): whole epoch seconds, from before to, at most 366 days; the last 30 days by default. */
export function periodOf(get: (k: string) => string | null, nowSec: number): Period {
  const num = (k: string): number | null => {
    const v = get(k);
    if (v === null || v === '') return null;
    if (!/^\d{1,12}$/.test(v)) throw invalid(k, `${k} must be a time in epoch seconds.`, 'filter_invalid');
    return Number(v);
  };
  const to = num('to') ?? nowSec;
  const from = num('from') ?? to - DEFAULT_DAYS * DAY;
  if (from >= to) throw invalid('from', 'from must be before to.', 'filter_invalid');
  if (to - from > MAX_DAYS * DAY) throw invalid('from', `A report covers at most ${MAX_DAYS} days: move from or to closer.`, 'filter_invalid');
  return { from, to };
}

export const reportType = (raw: string | undefined): ReportType => {
  if (!(REPORT_TYPES as readonly string[]).includes(raw ?? '')) throw refuse(404, 'unknown_report', `There is no report ${JSON.stringify(raw ?? '')}: it is one of ${REPORT_TYPES.join(', ')}.`);
  return raw as ReportType;
};

type Cell = string | number | null;
export interface Report {
  type: ReportType;
  from: number;
  to: number;
  columns: string[];
  rows: Record<string, Cell>[];
  totals: Record<string, number> | null;
}

const rate = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10_000) / 100 : null);
const sum = (rows: Record<string, Cell>[], keys: string[]) => Object.fromEntries(keys.map((k) => [k, rows.reduce((a, r) => a + (Number(r[k]) || 0), 0)]));

export function buildReport(store: MailerStore, type: ReportType, p: Period): Report {
  const all = <T>(sql: string, args: Record<string, unknown> = {}) => store.prep(sql).all({ from: p.from, to: p.to, ...args }) as T[];
  const make = (columns: string[], rows: Record<string, Cell>[], totals: string[] | null): Report => ({ type, from: p.from, to: p.to, columns, rows, totals: totals ? sum(rows, totals) : null });
  switch (type) {
    // campaigns whose first send fell in the period, with their outcomes
    case 'campaigns': {
      const rows = all<{ id: number; name: string; first: number; sent: number; delivered: number; bounced: number; failed: number; opened: number; clicked: number }>(
        `SELECT c.id, c.name, min(x.sent_at) AS first, count(*) AS sent, sum(x.status IN ('delivered', 'opened', 'clicked')) AS delivered,
           sum(x.status = 'bounced') AS bounced, sum(x.status = 'failed') AS failed, sum(x.opened_at IS NOT NULL) AS opened, sum(x.clicked_at IS NOT NULL) AS clicked
         FROM campaigns c JOIN sends x ON x.campaign_id = c.id GROUP BY c.id HAVING first >= @from AND first < @to ORDER BY first, c.id`,
      ).map((r) => ({ campaign_id: r.id, name: r.name, sent_at: r.first, sent: r.sent, delivered: r.delivered, bounced: r.bounced, failed: r.failed, opened: r.opened, clicked: r.clicked, open_rate: rate(r.opened, r.delivered), click_rate: rate(r.clicked, r.delivered) }));
      return make(['campaign_id', 'name', 'sent_at', 'sent', 'delivered', 'bounced', 'failed', 'opened', 'clicked', 'open_rate', 'click_rate'], rows, ['sent', 'delivered', 'bounced', 'failed', 'opened', 'clicked']);
    }
    // day by day (UTC days from `from`): who joined, who left, the net
    case 'growth': {
      const days = Math.ceil((p.to - p.from) / DAY);
      const byDay = (col: string, extra = '') => new Map(all<{ d: number; n: number }>(`SELECT CAST((${col} - @from) / ${DAY} AS INTEGER) AS d, count(*) AS n FROM subscribers WHERE ${col} >= @from AND ${col} < @to ${extra} GROUP BY d`).map((r) => [r.d, r.n]));
      const joined = byDay('created_at');
      const left = byDay('unsubscribed_at');
      const rows = Array.from({ length: days }, (_, d) => ({ day: p.from + d * DAY, joined: joined.get(d) ?? 0, left: left.get(d) ?? 0, net: (joined.get(d) ?? 0) - (left.get(d) ?? 0) }));
      return make(['day', 'joined', 'left', 'net'], rows, ['joined', 'left', 'net']);
    }
    // each list now, and its joins and leaves in the period
    case 'lists': {
      const rows = all<Record<string, Cell>>(
        `SELECT l.id AS list_id, l.name, sum(m.status = 'subscribed') AS subscribed, sum(m.status = 'pending') AS pending, sum(m.status = 'unsubscribed') AS unsubscribed,
           sum(m.since >= @from AND m.since < @to AND m.status <> 'unsubscribed') AS joined, sum(m.since >= @from AND m.since < @to AND m.status = 'unsubscribed') AS left
         FROM lists l LEFT JOIN memberships m ON m.list_id = l.id GROUP BY l.id ORDER BY l.position, l.id`,
      ).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? 0])));
      return make(['list_id', 'name', 'subscribed', 'pending', 'unsubscribed', 'joined', 'left'], rows, ['subscribed', 'pending', 'unsubscribed', 'joined', 'left']);
    }
    // how people came in the period, and how many of them are still subscribed
    case 'sources': {
      const found = new Map(all<{ source: string; joined: number; subscribed: number }>(`SELECT source, count(*) AS joined, sum(status = 'subscribed') AS subscribed FROM subscribers WHERE created_at >= @from AND created_at < @to GROUP BY source`).map((r) => [r.source, r]));
      const rows = SOURCES.map((s) => ({ source: s, joined: found.get(s)?.joined ?? 0, still_subscribed: found.get(s)?.subscribed ?? 0 }));
      return make(['source', 'joined', 'still_subscribed'], rows, ['joined', 'still_subscribed']);
    }
    // subscribed people by their last open up to `to`: the period, before it, never (of those mailed), not mailed
    case 'engagement': {
      const r = store
        .prep(
          `SELECT sum(last >= @from) AS active, sum(last < @from) AS lapsed, sum(last IS NULL AND mailed) AS never_opened, sum(NOT mailed) AS not_mailed FROM (
             SELECT (SELECT max(x.opened_at) FROM sends x WHERE x.subscriber_id = s.id AND x.opened_at < @to) AS last,
                    EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.sent_at < @to) AS mailed
             FROM subscribers s WHERE s.status = 'subscribed')`,
        )
        .get({ from: p.from, to: p.to }) as Record<string, number | null>;
      const rows = [
        { band: 'opened_in_period', people: r.active ?? 0 },
        { band: 'opened_before', people: r.lapsed ?? 0 },
        { band: 'never_opened', people: r.never_opened ?? 0 },
        { band: 'not_mailed', people: r.not_mailed ?? 0 },
      ];
      return make(['band', 'people'], rows, ['people']);
    }
    // the provider's reports and the suppressions made, day by day
    case 'deliverability': {
      const days = Math.ceil((p.to - p.from) / DAY);
      const ev = all<{ d: number; type: string; n: number }>(`SELECT CAST((at - @from) / ${DAY} AS INTEGER) AS d, type, count(*) AS n FROM events WHERE at >= @from AND at < @to GROUP BY d, type`);
      const sup = new Map(all<{ d: number; n: number }>(`SELECT CAST((created_at - @from) / ${DAY} AS INTEGER) AS d, count(*) AS n FROM suppressions WHERE created_at >= @from AND created_at < @to GROUP BY d`).map((r) => [r.d, r.n]));
      const rows = Array.from({ length: days }, (_, d) => ({
        day: p.from + d * DAY,
        bounces: ev.filter((e) => e.d === d && e.type === 'bounce').reduce((a, e) => a + e.n, 0),
        complaints: ev.filter((e) => e.d === d && e.type === 'complaint').reduce((a, e) => a + e.n, 0),
        suppressed: sup.get(d) ?? 0,
      }));
      return make(['day', 'bounces', 'complaints', 'suppressed'], rows, ['bounces', 'complaints', 'suppressed']);
    }
    // each flow: who entered, finished and left in the period, who is in it now, what it mailed
    case 'automations': {
      const rows = all<Record<string, Cell>>(
        `SELECT f.id AS flow_id, f.name, f.status,
           (SELECT count(*) FROM enrolments e WHERE e.flow_id = f.id AND e.at >= @from AND e.at < @to) AS entered,
           (SELECT count(*) FROM enrolments e WHERE e.flow_id = f.id AND e.status = 'done' AND e.left_at >= @from AND e.left_at < @to) AS finished,
           (SELECT count(*) FROM enrolments e WHERE e.flow_id = f.id AND e.status = 'exited' AND e.left_at >= @from AND e.left_at < @to) AS exited,
           (SELECT count(*) FROM enrolments e WHERE e.flow_id = f.id AND e.status IN ('active', 'waiting')) AS in_flow,
           (SELECT count(*) FROM messages m WHERE m.kind = 'automation' AND m.flow_id = f.id AND m.at >= @from AND m.at < @to) AS messages
         FROM flows f ORDER BY f.id`,
      );
      return make(['flow_id', 'name', 'status', 'entered', 'finished', 'exited', 'in_flow', 'messages'], rows, ['entered', 'finished', 'exited', 'in_flow', 'messages']);
    }
  }
}

/** The report as CSV: a header of its columns, a record per row; numbers as they are, text defused (csv.ts). */
export function reportCsv(r: Report): string {
  const cell = (v: Cell) => (typeof v === 'number' ? String(v) : csvCell(v));
  return '\ufeff' + csvLine(r.columns) + r.rows.map((row) => csvLine(r.columns.map((c) => cell(row[c] ?? null)))).join('');
}
