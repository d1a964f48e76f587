/**
 * The mailer's overview, settings and labels, spec flavour only (document 2 "Overview and
 * settings"; docs/mailer-campaigns.md, "Overview", "Settings", "Labels"); the real flavour
 * (Mailroom) is left answering 404. All three are reads: `mailer.view`.
 *
 *   GET overview   counts by status, growth over `days` (7–90, default 30), recent campaigns, alerts
 *   GET settings   transport (no secrets), worker, From address, providers
 *   GET labels     the admin's strings; `lang` (the sandbox has en alone)
 */
import { json, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { LABEL_LANGUAGES, LABELS } from './labels';
import { GROWTH_DAYS_DEFAULT, GROWTH_DAYS_MAX, GROWTH_DAYS_MIN, overviewOf } from './overview';
import { webhookPath } from './deliverability';
import { settingsOf } from './settings';
import { invalid } from './wire';

export function registerOverviewRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;

  router.on('GET', '/mailer/overview', (req, res, _p, url) => {
    authorize(ctx, req, url, 'mailer.view');
    // what the clock made due shows in the counts and alerts, as on the campaign routes
    world.campaignsDue();
    const raw = url.searchParams.get('days');
    const days = raw === null || raw === '' ? GROWTH_DAYS_DEFAULT : /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(days >= GROWTH_DAYS_MIN && days <= GROWTH_DAYS_MAX)) throw invalid('days', `days must be a whole number from ${GROWTH_DAYS_MIN} to ${GROWTH_DAYS_MAX}.`, 'filter_invalid');
    json(res, 200, { data: overviewOf(world.store, world.nowSec(), days, world.knobs.worker) });
  });

  router.on('GET', '/mailer/settings', (req, res, _p, url) => {
    authorize(ctx, req, url, 'mailer.view');
    json(res, 200, { data: settingsOf(world.store, { knobs: world.knobs, siteName: world.siteName, workerLastRunAt: world.workerLastRunAt, webhookUrl: (name) => `${ctx.origin}${ctx.prefix}${webhookPath(name)}` }) });
  });

  router.on('GET', '/mailer/labels', (req, res, _p, url) => {
    authorize(ctx, req, url, 'mailer.view');
    const asked = url.searchParams.get('lang');
    // a language the plugin has no strings for is answered in its default, and says so
    const language = asked && (LABEL_LANGUAGES as readonly string[]).includes(asked) ? asked : LABEL_LANGUAGES[0];
    json(res, 200, { data: { language, languages: LABEL_LANGUAGES, labels: LABELS } });
  });
}
