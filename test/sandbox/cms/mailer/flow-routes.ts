/**
 * The mailer's automation routes, spec flavour only (document 2 "Automations";
 * docs/mailer-automations.md); the real flavour (Mailroom) is left answering 404. Reads need
 * `mailer.view`, everything else `mailer.manage` (as the document's table has it). Before each
 * answer the flows' worker catches up to the clock, so what an answer says is what the clock made.
 *
 *   GET    flows/recipes                  the ready-made automations
 *   POST   flows/recipes/{key}            a draft from one (body: name, list_id, segment_id over the recipe's)
 *   GET    flows                          every flow with where its people are (whole, not paged)
 *   POST   flows                          name, trigger, trigger_json, list_id, segment_id, allow_reentry, steps: draft (201)
 *   GET    flows/{id}                     one with steps and a page of its people: status, step_id, page, per_page
 *   PATCH  flows/{id}                     edit; steps saved whole; a step sent back with its id keeps its people
 *   DELETE flows/{id}                     204; with people inside only with force=1
 *   POST   flows/{id}/activate | pause | resume
 *   POST   flows/{id}/enrol               subscriber_id (201 with the enrolment)
 *   POST   flows/{id}/enrolments/{eid}/exit
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import {
  checkFlow,
  deleteFlow,
  ENROLMENT_STATES,
  enrol,
  enrolmentById,
  enrolmentWire,
  exitEnrolment,
  flowById,
  flowWire,
  insertFlow,
  moveFlow,
  RECIPES,
  recipeWire,
  stepsOf,
  updateFlow,
  type RawEnrolment,
  type RawFlow,
} from './flows';
import { invalid, notFound, paged, pagingOf, refuse } from './wire';

type Handler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => void | Promise<void>;

export function registerFlowRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  const B = '/mailer/flows';
  const on = (method: string, path: string, handler: Handler) => router.on(method, `${B}${path}`, handler);
  const allow = (req: IncomingMessage, url: URL, level: 'view' | 'manage') => {
    authorize(ctx, req, url, `mailer.${level}`);
    world.flowsDue();
  };
  const idOf = (raw: string | undefined): number | null => (raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null);
  const need = (raw: string | undefined): RawFlow => {
    const id = idOf(raw);
    const f = id === null ? null : flowById(world.store, id);
    if (!f) throw notFound('flow');
    return f;
  };
  const answer = (res: ServerResponse, id: number, status = 200, headers: Record<string, string> = {}) => json(res, status, { data: flowWire(world.store, flowById(world.store, id)!) }, headers);
  const body = async (req: IncomingMessage) => {
    const b = await readBody(req);
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalid('body', 'The body must be a JSON object.');
    return b as Record<string, unknown>;
  };

  on('GET', '/recipes', (req, res, _p, url) => {
    allow(req, url, 'view');
    json(res, 200, { data: RECIPES.map(recipeWire) });
  });

  on('POST', '/recipes/{key}', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const r = RECIPES.find((x) => x.key === params.key);
    if (!r) throw refuse(404, 'unknown_recipe', `There is no recipe ${JSON.stringify(params.key ?? '')}: GET mailer/flows/recipes names them.`);
    const b = await body(req);
    for (const k of Object.keys(b)) if (!['name', 'list_id', 'segment_id'].includes(k)) throw invalid(k, `${k}: a recipe's draft takes name, list_id and segment_id; edit the rest afterwards.`);
    const f = checkFlow(world.store, { name: r.name, trigger: r.trigger, trigger_json: r.trigger_json, allow_reentry: r.allow_reentry, steps: r.steps, ...b }, true, new Set());
    const id = insertFlow(world.store, f, world.nowSec(), r.key);
    answer(res, id, 201, { Location: `${ctx.prefix}${B}/${id}` });
  });

  on('GET', '', (req, res, _p, url) => {
    allow(req, url, 'view');
    const rows = world.store.prep('SELECT * FROM flows ORDER BY id DESC').all() as RawFlow[];
    const data = rows.map((f) => flowWire(world.store, f, false));
    json(res, 200, { data, meta: { total: rows.length, status_counts: { draft: rows.filter((f) => f.status === 'draft').length, active: rows.filter((f) => f.status === 'active').length, paused: rows.filter((f) => f.status === 'paused').length } } });
  });

  on('POST', '', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const id = insertFlow(world.store, checkFlow(world.store, await body(req), true, new Set()), world.nowSec());
    answer(res, id, 201, { Location: `${ctx.prefix}${B}/${id}` });
  });

  on('GET', '/{id}', (req, res, params, url) => {
    allow(req, url, 'view');
    const f = need(params.id);
    const status = url.searchParams.get('status');
    if (status !== null && status !== '' && !(ENROLMENT_STATES as readonly string[]).includes(status)) throw invalid('status', `status must be one of ${ENROLMENT_STATES.join(', ')}.`, 'filter_invalid');
    const rawStep = url.searchParams.get('step_id');
    const step = rawStep === null || rawStep === '' ? null : idOf(rawStep);
    if (rawStep && (step === null || !stepsOf(f).some((s) => s.id === step))) throw invalid('step_id', 'step_id must be the id of one of this flow’s steps.', 'filter_invalid');
    const { page, perPage } = pagingOf('spec', url);
    const where = ['e.flow_id = @fid', status ? 'e.status = @status' : '', step !== null ? 'e.step_id = @step' : ''].filter(Boolean).join(' AND ');
    const p = { fid: f.id, status, step };
    const total = (world.store.prep(`SELECT count(*) AS n FROM enrolments e WHERE ${where}`).get(p) as { n: number }).n;
    const rows = world.store
      .prep(`SELECT e.*, s.email, s.name FROM enrolments e LEFT JOIN subscribers s ON s.id = e.subscriber_id WHERE ${where} ORDER BY e.id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...p, limit: perPage, offset: (page - 1) * perPage }) as (RawEnrolment & { email: string | null; name: string | null })[];
    const envelope = paged('spec', `${ctx.prefix}${B}/${f.id}`, rows.map(enrolmentWire), total, page, perPage);
    json(res, 200, { data: { ...flowWire(world.store, f), enrolments: envelope.data }, meta: envelope.meta, links: envelope.links });
  });

  on('PATCH', '/{id}', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const f = need(params.id);
    const fields = checkFlow(world.store, await body(req), false, new Set(stepsOf(f).map((s) => s.id)), f);
    world.store.tx(() => updateFlow(world.store, f, fields, world.nowSec()));
    // people handed to another step start it now (a wait begins, a send goes)
    world.flowsDue();
    answer(res, f.id);
  });

  on('DELETE', '/{id}', (req, res, params, url) => {
    allow(req, url, 'manage');
    const f = need(params.id);
    const force = url.searchParams.get('force');
    if (force !== null && force !== '' && force !== '1' && force !== '0') throw invalid('force', 'force must be 1 (take the people out first) or 0.', 'filter_invalid');
    world.store.tx(() => deleteFlow(world.store, f, force === '1'));
    res.writeHead(204).end();
  });

  for (const move of ['activate', 'pause', 'resume'] as const) {
    on('POST', `/{id}/${move}`, (req, res, params, url) => {
      allow(req, url, 'manage');
      const f = need(params.id);
      moveFlow(world.store, f, move, world.nowSec());
      // who is due at once (a first send, a trigger's newcomers) moves before the answer
      world.flowsDue();
      answer(res, f.id);
    });
  }

  on('POST', '/{id}/enrol', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const f = need(params.id);
    const b = await body(req);
    if (typeof b.subscriber_id !== 'number' || !Number.isInteger(b.subscriber_id) || b.subscriber_id < 1) throw invalid('subscriber_id', 'subscriber_id must be the id of a subscriber.');
    const eid = world.store.tx(() => enrol(world.store, f, b.subscriber_id as number, world.nowSec()));
    world.flowsDue();
    const e = world.store.prep('SELECT e.*, s.email, s.name FROM enrolments e LEFT JOIN subscribers s ON s.id = e.subscriber_id WHERE e.id = ?').get(eid) as RawEnrolment & { email: string; name: string };
    json(res, 201, { data: enrolmentWire(e) });
  });

  on('POST', '/{id}/enrolments/{eid}/exit', (req, res, params, url) => {
    allow(req, url, 'manage');
    const f = need(params.id);
    const eid = idOf(params.eid);
    const e = eid === null ? null : enrolmentById(world.store, eid);
    if (!e || e.flow_id !== f.id) throw notFound('enrolment in this flow');
    exitEnrolment(world.store, e, world.nowSec());
    const row = world.store.prep('SELECT e.*, s.email, s.name FROM enrolments e LEFT JOIN subscribers s ON s.id = e.subscriber_id WHERE e.id = ?').get(e.id) as RawEnrolment & { email: string; name: string };
    json(res, 200, { data: enrolmentWire(row) });
  });
}
