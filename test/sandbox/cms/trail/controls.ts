/**
 * The webhooks' and the audit trail's test controls under `/__sandbox` (see ../control-routes.ts):
 *
 *   GET|POST  /__sandbox/audit         the trail's knobs {enabled, available, coverage,
 *                                      retentionDays, retentionMaxRows, anonymizeIp, maxPerPage,
 *                                      pruneEvery} (POST changes the ones sent) and its `total`
 *   DELETE    /__sandbox/audit         empties the trail
 *   POST      /__sandbox/audit/seed    {count, days?}: appends `count` generated events spread over
 *                                      the last `days` (default 30) days → {total, ms}
 *   POST      /__sandbox/audit/prune   applies the retention now → {deleted, total}
 *   GET|POST  /__sandbox/webhooks      {allowPrivate} (real flavour: let hooks target loopback
 *                                      receivers, which the real service refuses)
 *   POST      /__sandbox/webhooks/settled  waits for deliveries under way → {}
 */
import { badControl } from '../../control';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import type { AuditKnobs } from './audit';
import { seedTrail } from './seed-trail';

export function registerTrailControls(router: Router, ctx: CmsContext): void {
  const audit = ctx.trail.audit;
  const view = () => ({ ...audit.knobs, total: audit.store.count() });

  router.on('GET', '/audit', (_req, res) => json(res, 200, { data: view() }));
  router.on('POST', '/audit', async (req, res) => {
    const body = await readBody(req);
    const next: Partial<AuditKnobs> = {};
    for (const k of ['enabled', 'available', 'anonymizeIp'] as const) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'boolean') throw badControl(`${k} must be a boolean.`);
      next[k] = body[k];
    }
    for (const k of ['retentionDays', 'retentionMaxRows', 'maxPerPage', 'pruneEvery'] as const) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'number' || !Number.isInteger(body[k]) || body[k] < 0) throw badControl(`${k} must be a whole number, 0 or more.`);
      next[k] = body[k];
    }
    if (body.coverage !== undefined) {
      if (body.coverage !== 'standard' && body.coverage !== 'detailed') throw badControl("coverage must be 'standard' or 'detailed'.");
      next.coverage = body.coverage;
    }
    Object.assign(audit.knobs, next);
    json(res, 200, { data: view() });
  });
  router.on('DELETE', '/audit', (_req, res) => {
    audit.store.clear();
    json(res, 200, { data: view() });
  });
  router.on('POST', '/audit/seed', async (req, res) => {
    const body = await readBody(req);
    const count = body.count;
    const days = body.days ?? 30;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 5_000_000) throw badControl('count must be a whole number from 1 to 5,000,000.');
    if (typeof days !== 'number' || !(days > 0)) throw badControl('days must be a positive number.');
    const started = performance.now();
    seedTrail(audit.store, ctx.clock.now(), count, days);
    json(res, 200, { data: { total: audit.store.count(), ms: Math.round(performance.now() - started) } });
  });
  router.on('POST', '/audit/prune', (_req, res) => {
    const deleted = audit.prune();
    json(res, 200, { data: { deleted, total: audit.store.count() } });
  });

  router.on('GET', '/webhooks', (_req, res) => json(res, 200, { data: { allowPrivate: ctx.trail.webhooks.allowPrivate } }));
  router.on('POST', '/webhooks', async (req, res) => {
    const body = await readBody(req);
    if (body.allowPrivate !== undefined) {
      if (typeof body.allowPrivate !== 'boolean') throw badControl('allowPrivate must be a boolean.');
      ctx.trail.webhooks.allowPrivate = body.allowPrivate;
    }
    json(res, 200, { data: { allowPrivate: ctx.trail.webhooks.allowPrivate } });
  });
  router.on('POST', '/webhooks/settled', async (_req, res) => {
    await ctx.trail.webhooks.settled();
    json(res, 200, { data: {} });
  });
}
