/**
 * The mailer's deliverability and provider routes, spec flavour only (document 2 "Deliverability
 * and providers"; docs/mailer-campaigns.md, "Deliverability", "Providers"); the real flavour
 * (Mailroom) is left answering 404.
 *
 *   GET  deliverability                 SPF, DKIM, DMARC of every From domain; kept ten minutes (view)
 *   POST deliverability/recheck         looked up again now (manage)
 *   POST providers/{name}/secret        a new webhook secret kept, never answered; the webhook URL (manage)
 *   POST providers/{name}/setup         the webhook made through the provider's API where it has one (manage)
 *   GET  reports/{type}, reports/{type}.csv   the seven reports (registerReportRoutes, view)
 */
import { json, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { deliverability, mintSecret, providerNamed, providerRow, providerWire, setUp, webhookPath } from './deliverability';
import { buildReport, periodOf, reportCsv, reportType } from './reports';
import { siteFromEmail } from './settings';

export function registerDeliverabilityRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  const url = (name: string) => `${ctx.origin}${ctx.prefix}${webhookPath(name)}`;

  router.on('GET', '/mailer/deliverability', (req, res, _p, u) => {
    authorize(ctx, req, u, 'mailer.view');
    json(res, 200, { data: deliverability(world.store, siteFromEmail(world.store), world.nowSec(), false) });
  });

  router.on('POST', '/mailer/deliverability/recheck', (req, res, _p, u) => {
    authorize(ctx, req, u, 'mailer.manage');
    json(res, 200, { data: deliverability(world.store, siteFromEmail(world.store), world.nowSec(), true) });
  });

  router.on('POST', '/mailer/providers/{name}/secret', (req, res, params, u) => {
    authorize(ctx, req, u, 'mailer.manage');
    const p = providerNamed(params.name);
    const { rotated } = mintSecret(world.store, p.name, world.nowSec());
    json(res, 200, { data: { ...providerWire(p.name, providerRow(world.store, p.name), url(p.name)), rotated } });
  });

  router.on('POST', '/mailer/providers/{name}/setup', (req, res, params, u) => {
    authorize(ctx, req, u, 'mailer.manage');
    const p = providerNamed(params.name);
    const { created, row } = setUp(world.store, p.name, world.nowSec());
    json(res, created ? 201 : 200, { data: { ...providerWire(p.name, row, url(p.name)), created } });
  });
}

/**
 * The seven reports (reports.ts), spec flavour only: `GET reports/{type}` as JSON and
 * `GET reports/{type}.csv` as CSV (view); query `from`, `to`.
 */
export function registerReportRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  router.on('GET', '/mailer/reports/{type}', (req, res, params, u) => {
    authorize(ctx, req, u, 'mailer.view');
    // what the clock made due shows in the figures, as on the campaign and flow routes
    world.campaignsDue();
    world.flowsDue();
    const raw = params.type ?? '';
    const csv = raw.endsWith('.csv');
    const type = reportType(csv ? raw.slice(0, -4) : raw);
    const report = buildReport(world.store, type, periodOf((k) => u.searchParams.get(k), world.nowSec()));
    if (!csv) return json(res, 200, { data: { ...report, generated_at: world.nowSec() } });
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${type}-report.csv"`, 'Cache-Control': 'no-store' });
    res.end(reportCsv(report));
  });
}
