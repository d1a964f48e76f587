/**
 * Document 2's audit routes, both flavours (the real one after
 * getgrav/grav-plugin-api:classes/Api/Controllers/AuditController.php, recordings 55–57). Every
 * route needs `api.super` (`admin.super` alone is refused; spec: a scoped key needs the `admin.super`
 * scope, as document 1 says of super-only endpoints); spec: a demo account is told the trail
 * is hidden in demo mode (the real service refuses it as every demo write: its Demo Mode 403).
 * Except status, a route answers 503 without SQLite support and 404 while the trail is disabled.
 *
 *   GET /audit/status   {enabled, available, coverage, retention {days, max_rows}, total (null while disabled)}
 *   GET /audit/events   paged newest first (per_page default 50, capped at maxPerPage), the filters
 *   GET /audit/facets   {events, actors [{id, name}]}
 *   GET /audit/export   format csv (default; any other value) or json, the filters; a file, at most
 *                       100,000 rows, streamed
 */
import type { ServerResponse } from 'node:http';
import { HttpProblem, json, type Router } from '../../http';
import { isSuper, resolveExact, scopesAllow } from '../access';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { paged } from '../content/paging';
import type { AuditTrail } from './audit';
import { FILTERS, type AuditEvent, type AuditFilters } from './audit-store';

const EXPORT_CAP = 100_000;
export const CSV_COLUMNS = ['id', 'ts', 'event', 'severity', 'actor_id', 'actor_name', 'actor_roles', 'auth_method', 'ip', 'user_agent', 'target_type', 'target_id', 'status', 'context'] as const;

export function registerAuditRoutes(router: Router, ctx: CmsContext, trail: AuditTrail): void {
  const real = ctx.flavor === 'real';

  const allow = (req: Parameters<typeof authorize>[1], url: URL) => {
    if (real) return authorize(ctx, req, url, 'api.super');
    const caller = authorize(ctx, req, url, 'api.access');
    if (resolveExact(caller.account.access, 'api.demo') === true) throw new HttpProblem(403, 'Forbidden', 'The audit trail is hidden in demo mode.');
    // document 1 §5.6: a scoped key needs the `admin.super` scope for super-only endpoints
    if (!scopesAllow(caller.scopes, 'admin.super')) throw new HttpProblem(403, 'Forbidden', 'API key is not authorized for: admin.super');
    if (!isSuper(caller.account.access)) throw new HttpProblem(403, 'Forbidden', 'Missing required permission: api.super');
    return caller;
  };
  const assertOn = () => {
    if (!trail.knobs.available) throw new HttpProblem(503, 'Service Unavailable', 'The audit trail requires the SQLite PHP extension, which is not installed.');
    if (!trail.knobs.enabled) throw new HttpProblem(404, 'Not Found', 'The audit trail is not enabled.');
  };
  const filtersOf = (url: URL): AuditFilters => {
    const out: AuditFilters = {};
    for (const key of FILTERS) {
      const v = url.searchParams.get(key);
      if (v !== null && v !== '') out[key] = v;
    }
    return out;
  };

  router.on('GET', '/audit/status', (req, res, _p, url) => {
    allow(req, url);
    let total: number | null = null;
    if (trail.on) {
      try {
        total = trail.store.count();
      } catch {
        total = null;
      }
    }
    json(res, 200, {
      data: {
        enabled: trail.on,
        available: trail.knobs.available,
        coverage: trail.knobs.coverage,
        retention: { days: trail.knobs.retentionDays, max_rows: trail.knobs.retentionMaxRows },
        total,
      },
    });
  });

  router.on('GET', '/audit/events', (req, res, _p, url) => {
    allow(req, url);
    assertOn();
    const page = Math.max(1, Math.trunc(Number(url.searchParams.get('page') ?? 1)) || 1);
    const perPage = Math.min(trail.knobs.maxPerPage, Math.max(1, Math.trunc(Number(url.searchParams.get('per_page') ?? 50)) || 50));
    const { rows, total } = trail.store.query(filtersOf(url), perPage, (page - 1) * perPage);
    json(res, 200, paged(ctx.flavor, ctx.prefix, '/audit/events', rows, total, page, perPage));
  });

  router.on('GET', '/audit/facets', (req, res, _p, url) => {
    allow(req, url);
    assertOn();
    json(res, 200, { data: trail.store.facets() });
  });

  router.on('GET', '/audit/export', (req, res, _p, url) => {
    allow(req, url);
    assertOn();
    const format = (url.searchParams.get('format') ?? 'csv').toLowerCase();
    const rows = trail.store.iterate(filtersOf(url), EXPORT_CAP);
    if (format === 'json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="audit-log.json"', 'Cache-Control': 'no-store' });
      streamJson(res, rows);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="audit-log.csv"', 'Cache-Control': 'no-store' });
    res.write(csvLine([...CSV_COLUMNS]));
    for (const row of rows) res.write(csvLine(CSV_COLUMNS.map((c) => csvCell(row[c]))));
    res.end();
  });
}

function streamJson(res: ServerResponse, rows: Iterable<AuditEvent>): void {
  res.write('[');
  let first = true;
  for (const row of rows) {
    res.write((first ? '\n' : ',\n') + JSON.stringify(row));
    first = false;
  }
  res.end(first ? ']' : '\n]');
}

/** A cell's text: arrays and objects JSON-encoded, null empty, a formula-like start defused with an apostrophe. */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text !== '' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV record, quoting a field that holds a delimiter, quote, line break, tab or space (as PHP's fputcsv). */
export function csvLine(cells: string[]): string {
  return cells.map((c) => (/[",\n\r\t \\]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',') + '\n';
}
