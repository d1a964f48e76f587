/**
 * The mailer's test controls under `/__sandbox` (see ../control-routes.ts):
 *
 *   GET|POST  /__sandbox/mailer              the knobs {importRate, worker, workerEverySeconds,
 *                                            segmentRecountMinutes, sendRate, bouncePercent, failPercent,
 *                                            stopBouncePercent} (POST changes the ones sent), with
 *                                            whether the store is open, how many people it holds and
 *                                            what seeding took
 *   POST      /__sandbox/mailer/seed         {subscribers}: throws the audience away and seeds that many
 *                                            (the benchmarks' 500,000) → {subscribers, ms}
 *   POST      /__sandbox/mailer/worker       runs the worker now: its periodic jobs and every queued import to the end
 *   GET|POST  /__sandbox/mailer/campaigns    campaign rows in any state, past the state table (the spec flavour's
 *                                            routes are campaign-routes.ts): {name, status, segment_id?, list_ids?};
 *   PATCH|DELETE /__sandbox/mailer/campaigns/{id}   {status?, segment_id?}
 *   POST      /__sandbox/mailer/act          what a person or the mail provider does: {action: signup, email,
 *                                            list_id?} | {action: confirm | leave (list_id) | leave_all | bounce |
 *                                            complaint, subscriber_id}
 *   GET       /__sandbox/mailer/messages     the outbox: the message log (confirmation emails, campaign messages,
 *                                            test copies with their HTML), newest first; campaign_id, kind
 *                                            (confirmation | campaign | campaign_test), limit (default 100)
 */
import { badControl } from '../../control';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import type { MailerKnobs } from './world';

const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'paused', 'stopped', 'canceled'];

export function registerMailerControls(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  const view = () => ({
    ...world.knobs,
    opened: world.opened,
    subscribers: world.opened ? world.store.count({}) : null,
    seeded: world.seeded,
    peakUploadBuffered: world.peakUploadBuffered,
  });

  router.on('GET', '/mailer', (_req, res) => json(res, 200, { data: view() }));
  router.on('POST', '/mailer', async (req, res) => {
    const body = await readBody(req);
    const next: Partial<MailerKnobs> = {};
    if (body.worker !== undefined) {
      if (typeof body.worker !== 'boolean') throw badControl('worker must be a boolean.');
      next.worker = body.worker;
    }
    for (const k of ['importRate', 'workerEverySeconds', 'segmentRecountMinutes', 'sendRate'] as const) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'number' || !Number.isInteger(body[k]) || body[k] < 0) throw badControl(`${k} must be a whole number, 0 or more.`);
      next[k] = body[k];
    }
    for (const k of ['bouncePercent', 'failPercent', 'stopBouncePercent'] as const) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'number' || !(body[k] >= 0 && body[k] <= 100)) throw badControl(`${k} must be a percentage from 0 to 100.`);
      next[k] = body[k];
    }
    Object.assign(world.knobs, next);
    json(res, 200, { data: view() });
  });

  router.on('POST', '/mailer/seed', async (req, res) => {
    const body = await readBody(req);
    const n = body.subscribers;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 2_000_000) throw badControl('subscribers must be a whole number from 0 to 2,000,000.');
    // not in the middle of the worker's slice of an import
    await world.settled();
    json(res, 200, { data: world.reseed(n) });
  });

  router.on('POST', '/mailer/worker', async (_req, res) => {
    await world.drain();
    json(res, 200, { data: view() });
  });

  router.on('GET', '/mailer/campaigns', (_req, res) => json(res, 200, { data: world.store.campaigns() }));
  router.on('POST', '/mailer/campaigns', async (req, res) => {
    const body = await readBody(req);
    if (typeof body.name !== 'string' || !body.name.trim()) throw badControl('name is required.');
    const status = body.status ?? 'draft';
    if (typeof status !== 'string' || !CAMPAIGN_STATUSES.includes(status)) throw badControl(`status must be one of ${CAMPAIGN_STATUSES.join(', ')}.`);
    if (body.segment_id !== undefined && body.segment_id !== null && !world.store.segment(Number(body.segment_id))) throw badControl('segment_id names no segment.');
    const lists = Array.isArray(body.list_ids) ? body.list_ids.filter((x) => Number.isInteger(x)) : [];
    const now = world.nowSec();
    const info = world.store
      .prep('INSERT INTO campaigns (name, status, segment_id, list_ids, created_at, sent_at, scheduled_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(body.name.trim(), status, body.segment_id ?? null, JSON.stringify(lists), now, status === 'sent' ? now : null, status === 'scheduled' ? now + 86_400 : null);
    json(res, 201, { data: world.store.campaign(Number(info.lastInsertRowid)) });
  });
  router.on('PATCH', '/mailer/campaigns/{id}', async (req, res, params) => {
    const c = world.store.campaign(Number(params.id));
    if (!c) throw badControl('No such campaign.');
    const body = await readBody(req);
    if (body.status !== undefined && (typeof body.status !== 'string' || !CAMPAIGN_STATUSES.includes(body.status))) throw badControl(`status must be one of ${CAMPAIGN_STATUSES.join(', ')}.`);
    if (body.segment_id !== undefined && body.segment_id !== null && !world.store.segment(Number(body.segment_id))) throw badControl('segment_id names no segment.');
    world.store.prep('UPDATE campaigns SET status = coalesce(?, status), segment_id = CASE WHEN ? THEN ? ELSE segment_id END WHERE id = ?').run(body.status ?? null, body.segment_id !== undefined ? 1 : 0, body.segment_id ?? null, c.id);
    json(res, 200, { data: world.store.campaign(c.id) });
  });
  router.on('DELETE', '/mailer/campaigns/{id}', (_req, res, params) => {
    world.store.prep('DELETE FROM campaigns WHERE id = ?').run(Number(params.id));
    res.writeHead(204).end();
  });

  router.on('POST', '/mailer/act', async (req, res) => {
    const body = await readBody(req);
    json(res, 200, { data: world.audience.act(body) });
  });

  router.on('GET', '/mailer/messages', (_req, res, _p, url) => {
    const q = url.searchParams;
    const campaign = q.get('campaign_id');
    const limit = Number(q.get('limit') ?? 100);
    if (campaign !== null && !/^\d{1,15}$/.test(campaign)) throw badControl('campaign_id must be a campaign id.');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw badControl('limit must be a whole number from 1 to 100,000.');
    json(res, 200, { data: world.store.messages(limit, { ...(campaign !== null ? { campaign_id: Number(campaign) } : {}), ...(q.get('kind') ? { kind: q.get('kind')! } : {}) }) });
  });
}
