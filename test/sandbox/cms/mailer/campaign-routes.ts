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
 *   GET    campaigns/{id}/sends      recipients and outcomes in the order mailed; status, page, per_page; meta.status_counts
 *   GET    campaigns/{id}/links      the body's links and clicked ones with clicks and people
 *   GET    campaigns/{id}/timeline   sent, opened, clicked per hour from the start, the first 48 hours
 *   GET    campaigns/{id}/preview    the saved content rendered; POST (manage): unsaved subject, preheader, body_md, layout
 *   POST   campaigns/{id}/test       body email, variant (a | b): one test copy into the outbox (send)
 *   GET    campaigns/{id}/catch-up   how many joined since and were not mailed; POST (send): mail them
 *   POST   campaigns/{id}/retry-failed   every failed send, or body send_id (send)
 *
 * The campaigns' worker (world.ts, sending.ts) runs before any of these routes answers, as well as
 * on its timer, so a read after the clock moved shows the starts, sends, finishes and stops due.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize, requirePermission, type Principal } from '../credentials';
import { allows, isState, CAMPAIGN_STATES, type Move, type SendAction } from './campaign-states';
import { campaignLinks, SEND_STATUSES, sendsPage, timeline, type SendStatus } from './campaign-reports';
import { audienceCount, type CampaignFields, campaignTable, campaignWire, checkFields, fieldsOf, insertCampaign, listIdsOf, missingOf, moveCampaign, stateOf, stateRefusal, updateCampaign } from './campaigns';
import { normaliseEmail } from './presets';
import { renderEmail } from './render';
import { catchUpCount, failedSends, retrySends, sendCatchUp, sendTest } from './sending';
import { emailHash } from './schema';
import type { RawCampaign } from './store';
import { invalid, notFound, paged, pagingOf, refuse } from './wire';

const PREVIEW_FIELDS = ['subject', 'preheader', 'body_md', 'layout'] as const;

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

  // ---- sending: reports, preview, test, catch-up, retry

  const permitted = (c: RawCampaign, action: SendAction) => {
    const r = allows(stateOf(c), action);
    if (!r.ok) throw stateRefusal(c, r.reason);
  };
  const intId = (raw: string | null, field: string) => {
    if (raw === null || raw === '') return null;
    if (!/^\d{1,15}$/.test(raw)) throw invalid(field, `${field} must be an id.`, 'filter_invalid');
    return Number(raw);
  };

  on('GET', '/{id}/sends', (req, res, params, url) => {
    allow(req, url, 'view');
    const c = need(params.id);
    const status = url.searchParams.get('status') || null;
    if (status !== null && !(SEND_STATUSES as readonly string[]).includes(status)) throw invalid('status', `status must be one of ${SEND_STATUSES.join(', ')}.`, 'filter_invalid');
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const { rows, total, counts } = sendsPage(world.store, c.id, status as SendStatus | null, perPage, (page - 1) * perPage);
    json(res, 200, paged(ctx.flavor, selfPath(`/${c.id}/sends`), rows, total, page, perPage, { status_counts: counts }));
  });

  on('GET', '/{id}/links', (req, res, params, url) => {
    allow(req, url, 'view');
    const { rows, ...totals } = campaignLinks(world.store, need(params.id));
    json(res, 200, { data: rows, meta: totals });
  });

  on('GET', '/{id}/timeline', (req, res, params, url) => {
    allow(req, url, 'view');
    json(res, 200, { data: timeline(world.store, need(params.id), world.nowSec()) });
  });

  const preview = (c: RawCampaign, over: CampaignFields) => {
    const f = { ...fieldsOf(c), ...over };
    return { ...renderEmail(f, { name: world.siteName }), missing: (['subject', 'body_md'] as const).filter((k) => !f[k]) };
  };
  on('GET', '/{id}/preview', (req, res, params, url) => {
    allow(req, url, 'view');
    json(res, 200, { data: preview(need(params.id), {}) });
  });
  on('POST', '/{id}/preview', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const c = need(params.id);
    const body = await readBody(req);
    // the fields a preview renders, checked as an edit would check them; others are not its business
    const picked = Object.fromEntries(PREVIEW_FIELDS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
    json(res, 200, { data: preview(c, checkFields(world.store, picked, false).fields) });
  });

  on('POST', '/{id}/test', async (req, res, params, url) => {
    allow(req, url, 'send');
    const c = need(params.id);
    const body = await readBody(req);
    const email = normaliseEmail(body.email);
    if (!email) throw invalid('email', body.email === undefined || body.email === '' ? 'email is required: the address the test copy goes to.' : 'email is not an email address.', 'invalid_email');
    const missing = missingOf(c).filter((k) => k !== 'list_ids');
    if (missing.length) throw stateRefusal(c, `A test copy needs ${missing.join(' and ')}: write them first.`, 'campaign_not_ready', { missing });
    const variant = body.variant ?? 'a';
    if (variant !== 'a' && variant !== 'b') throw invalid('variant', 'variant must be a (the subject) or b (the subject test’s subject_b).');
    if (variant === 'b' && !fieldsOf(c).subject_b) throw invalid('variant', 'This campaign has no subject B: write subject_b first, or send the test copy of subject A.');
    if (world.store.suppression(emailHash(email))) throw refuse(409, 'suppressed', 'That address is on the suppression list (a bounce, a complaint or a request): send the test copy to another address.');
    json(res, 200, { data: { ...world.store.tx(() => sendTest(world.store, c, email, world.nowSec(), world.siteName, variant)), variant, test: true } });
  });

  on('GET', '/{id}/catch-up', (req, res, params, url) => {
    allow(req, url, 'view');
    const c = need(params.id);
    permitted(c, 'catch_up_count');
    json(res, 200, { data: { count: catchUpCount(world.sendContext(), c, world.nowSec()), since: c.started_at ?? c.sent_at, list_ids: listIdsOf(c), segment_id: c.segment_id, can_send: allows(stateOf(c), 'catch_up').ok } });
  });
  on('POST', '/{id}/catch-up', (req, res, params, url) => {
    allow(req, url, 'send');
    const c = need(params.id);
    permitted(c, 'catch_up');
    const tally = world.store.tx(() => sendCatchUp(world.sendContext(), c, world.nowSec()));
    json(res, 200, { data: { ...tally, campaign: campaignWire(world.store, world.store.campaign(c.id)!) } });
  });

  on('POST', '/{id}/retry-failed', async (req, res, params, url) => {
    allow(req, url, 'send');
    const c = need(params.id);
    const body = await readBody(req);
    const raw = body.send_id;
    if (raw !== undefined && raw !== null && (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1)) throw invalid('send_id', 'send_id must be the id of one of the campaign’s sends (GET …/sends?status=failed lists them).');
    permitted(c, 'retry_failed');
    let sends = failedSends(world.store, c.id);
    if (typeof raw === 'number') {
      const one = world.store.prep('SELECT id, subscriber_id, attempts, status FROM sends WHERE campaign_id = ? AND id = ?').get(c.id, raw) as { id: number; subscriber_id: number; attempts: number; status: string } | undefined;
      if (!one) throw refuse(404, 'not_found', 'No send of this campaign has that id: GET …/sends?status=failed lists the failed ones.');
      if (one.status !== 'failed') throw refuse(409, 'send_not_failed', `That send did not fail (it is ${one.status}): only failed sends are retried.`, { send_status: one.status });
      sends = [one];
    }
    const tally = world.store.tx(() => retrySends(world.sendContext(), c, sends, world.nowSec()));
    if (typeof raw === 'number' && tally.skipped) throw refuse(409, 'not_mailable', 'That person can no longer be mailed (they left, bounced or were suppressed since): nothing was sent.');
    json(res, 200, { data: { retried: sends.length, ...tally, campaign: campaignWire(world.store, world.store.campaign(c.id)!) } });
  });
}
