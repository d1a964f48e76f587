/**
 * The mailer's campaign routes, spec flavour only (document 2 "Campaigns"; docs/mailer-campaigns.md);
 * the real flavour (Mailroom) is left answering as it did. Reads need `mailer.view`, writes
 * `mailer.manage`, and start and resume, which send mail, `mailer.send` as well.
 *
 *   GET    campaigns                 newest first; status, page, per_page; meta.status_counts over the whole table
 *   POST   campaigns                 create a draft (201, Location)
 *   GET    campaigns/audience        lists (comma separated ids), segment: {count, left_out}
 *   GET    campaigns/{id}            the record: counters, rates, subject test, missing, next_moves
 *   PATCH  campaigns/{id}            draft or scheduled
 *   DELETE campaigns/{id}            draft or canceled (204)
 *   POST   campaigns/{id}/start      now (→ sending), or body scheduled_at (→ scheduled)
 *   POST   campaigns/{id}/pause | resume | cancel
 *
 * Scheduled campaigns whose time has passed on the sandbox's clock start sending at the worker's
 * next run (world.ts), and before any of these routes answers, so a read never shows one overdue.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize, requirePermission, type Principal } from '../credentials';
import { isState, CAMPAIGN_STATES, type Move } from './campaign-states';
import { audienceCount, campaignTable, campaignWire, checkFields, insertCampaign, missingOf, moveCampaign, stateOf, stateRefusal, updateCampaign } from './campaigns';
import { invalid, notFound, paged, pagingOf } from './wire';

type Handler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => void | Promise<void>;

export function registerCampaignRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  const B = '/mailer/campaigns';
  const selfPath = (path: string) => `${ctx.prefix}${B}${path}`;
  // the worker's due starts, caught up before every answer
  const on = (method: string, path: string, handler: Handler) =>
    router.on(method, `${B}${path}`, (req, res, params, url) => {
      world.campaignsDue();
      return handler(req, res, params, url);
    });
  const allow = (req: IncomingMessage, url: URL, level: 'view' | 'manage' | 'send'): Principal => {
    if (level !== 'send') return authorize(ctx, req, url, `mailer.${level}`);
    return requirePermission(ctx, authorize(ctx, req, url, 'mailer.manage'), 'mailer.send');
  };
  const need = (raw: string | undefined) => {
    const c = raw && /^\d{1,15}$/.test(raw) ? world.store.campaign(Number(raw)) : null;
    if (!c) throw notFound('campaign');
    return c;
  };
  const answer = (res: ServerResponse, id: number, status = 200) => json(res, status, { data: campaignWire(world.store, world.store.campaign(id)!) });

  on('GET', '', (req, res, _p, url) => {
    allow(req, url, 'view');
    const status = url.searchParams.get('status') || null;
    if (status !== null && !isState(status)) throw invalid('status', `status must be one of ${CAMPAIGN_STATES.join(', ')}.`, 'filter_invalid');
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const { rows, total, counts } = campaignTable(world.store, status, perPage, (page - 1) * perPage);
    json(res, 200, paged(ctx.flavor, selfPath(''), rows.map((c) => campaignWire(world.store, c)), total, page, perPage, { status_counts: counts }));
  });

  on('POST', '', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const body = await readBody(req);
    const id = insertCampaign(world.store, checkFields(world.store, body, true), world.nowSec());
    json(res, 201, { data: campaignWire(world.store, world.store.campaign(id)!) }, { Location: selfPath(`/${id}`) });
  });

  on('GET', '/audience', (req, res, _p, url) => {
    allow(req, url, 'view');
    const rawLists = (url.searchParams.get('lists') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (rawLists.some((s) => !/^\d{1,15}$/.test(s))) throw invalid('lists', 'lists must be list ids separated by commas.', 'filter_invalid');
    const lists = [...new Set(rawLists.map(Number))];
    for (const id of lists) if (!world.store.list(id)) throw invalid('lists', `lists: there is no list ${id}.`, 'unknown_list');
    const rawSeg = url.searchParams.get('segment') || null;
    if (rawSeg !== null && (!/^\d{1,15}$/.test(rawSeg) || !world.store.segment(Number(rawSeg)))) throw invalid('segment', `segment: there is no segment ${rawSeg}.`, 'unknown_segment');
    json(res, 200, { data: { lists, segment_id: rawSeg === null ? null : Number(rawSeg), ...audienceCount(world.store, lists, rawSeg === null ? null : Number(rawSeg), world.nowSec(), world.knownIds()) } });
  });

  on('GET', '/{id}', (req, res, params, url) => {
    allow(req, url, 'view');
    answer(res, need(params.id).id);
  });

  on('PATCH', '/{id}', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const c = need(params.id);
    const body = await readBody(req);
    const checked = checkFields(world.store, body, false);
    // the state is asked after the body is checked: a bad field is a 422 whatever the state
    moveCampaign(world.store, c, 'edit', world.nowSec());
    updateCampaign(world.store, c, checked, world.nowSec());
    answer(res, c.id);
  });

  on('DELETE', '/{id}', (req, res, params, url) => {
    allow(req, url, 'manage');
    moveCampaign(world.store, need(params.id), 'delete', world.nowSec());
    res.writeHead(204).end();
  });

  on('POST', '/{id}/start', async (req, res, params, url) => {
    allow(req, url, 'send');
    const c = need(params.id);
    const body = await readBody(req);
    const at = body.scheduled_at;
    if (at !== undefined && at !== null && (typeof at !== 'number' || !Number.isInteger(at) || at < 0)) throw invalid('scheduled_at', 'scheduled_at must be a time in epoch seconds (UTC).');
    const m: Move = typeof at === 'number' ? 'schedule' : 'start';
    // the state first (a sent campaign is not "not ready"), then readiness
    const s = stateOf(c);
    if (!['draft', 'scheduled'].includes(s)) moveCampaign(world.store, c, m, world.nowSec());
    const missing = missingOf(c);
    if (missing.length) throw stateRefusal(c, `The campaign is not ready to start: it needs ${missing.join(', ')}.`, 'campaign_not_ready', { missing });
    moveCampaign(world.store, c, m, world.nowSec(), typeof at === 'number' ? at : undefined);
    answer(res, c.id);
  });

  const simple = (m: Move, level: 'manage' | 'send'): Handler => (req, res, params, url) => {
    allow(req, url, level);
    const c = need(params.id);
    moveCampaign(world.store, c, m, world.nowSec());
    answer(res, c.id);
  };
  on('POST', '/{id}/pause', simple('pause', 'manage'));
  on('POST', '/{id}/resume', simple('resume', 'send'));
  on('POST', '/{id}/cancel', simple('cancel', 'manage'));
}
