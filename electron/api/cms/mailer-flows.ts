/**
 * A CMS site's mailing plugin, its automation routes (document 2, "Automations";
 * docs/mailer-automations.md). Tolerant as the campaigns' reader: times in epoch seconds or ISO
 * text, counts as numbers or numeric text, a record without `actions` given the moves its state
 * allows, a step of a type Sitedesk does not know or an enrolment that cannot be read set aside
 * with its place and field (never a value). Steps go out in the site's spelling and come back in
 * the contract's; a refusal naming `steps[2].minutes` is put under `steps.2.minutes`.
 */
import type { CallOptions, Transport } from '../transport';
import type { EnrolmentStatus, FlowEnrolment, FlowEnrolmentPage, FlowMove, FlowRecipe, FlowStatus, FlowStep, MailerBase, MailerFlow, SavedFlowStep } from '../../contract';
import { ENROLMENT_STATUSES, FLOW_MOVES, FLOW_MOVES_OF, FLOW_STATUSES, FLOW_TRIGGERS, isPlainObject } from '../../contract';
import { inputField, isoOf, mailerWire as w, refusedFields } from './mailer';
import { request } from './envelope';
import { segment } from '../url-path';

const isStatus = (x: unknown): x is FlowStatus => typeof x === 'string' && (FLOW_STATUSES as readonly string[]).includes(x);
const isMove = (x: unknown): x is FlowMove => typeof x === 'string' && (FLOW_MOVES as readonly string[]).includes(x);
const isTrigger = (x: unknown): x is MailerFlow['trigger'] => typeof x === 'string' && (FLOW_TRIGGERS as readonly string[]).includes(x);
const isEnrolmentStatus = (x: unknown): x is EnrolmentStatus => typeof x === 'string' && (ENROLMENT_STATUSES as readonly string[]).includes(x);
const pick = <T extends string>(x: unknown, allowed: readonly T[], fallback: T): T => (typeof x === 'string' && (allowed as readonly string[]).includes(x) ? (x as T) : fallback);

/** One step in the contract's spelling; `at` names it in a refusal (`steps.2`). */
export function stepOf(raw: unknown, at: string, withId: boolean): FlowStep {
  if (!isPlainObject(raw)) throw new w.Unreadable(at);
  const id = withId ? w.need(w.int(raw.id), `${at}.id`) : w.int(raw.id);
  switch (raw.type) {
    case 'wait':
      return { id, type: 'wait', minutes: w.need(w.int(raw.minutes), `${at}.minutes`) };
    case 'send':
      return { id, type: 'send', templateId: w.int(raw.template_id), subject: w.text(raw.subject), bodyMd: typeof raw.body_md === 'string' && raw.body_md !== '' ? raw.body_md : null, layout: raw.layout === 'plain' ? 'plain' : 'store' };
    case 'tag':
      return { id, type: 'tag', action: raw.action === 'remove' ? 'remove' : 'add', tag: w.need(w.text(raw.tag), `${at}.tag`) };
    case 'condition':
      return {
        id,
        type: 'condition',
        check: pick(raw.check, ['has_tag', 'lacks_tag', 'on_list'] as const, 'has_tag'),
        tag: w.text(raw.tag),
        listId: w.int(raw.list_id),
        otherwise: raw.otherwise === 'skip' ? 'skip' : 'exit',
        skip: w.count(raw.skip),
      };
    default:
      throw new w.Unreadable(`${at}.type`);
  }
}

/** A step in the site's spelling (an unsaved one without its id). */
export function stepBody(s: FlowStep): Record<string, unknown> {
  const id = s.id === null ? {} : { id: s.id };
  switch (s.type) {
    case 'wait':
      return { ...id, type: 'wait', minutes: s.minutes };
    case 'send':
      return s.templateId !== null ? { ...id, type: 'send', template_id: s.templateId, layout: s.layout } : { ...id, type: 'send', subject: s.subject ?? '', body_md: s.bodyMd ?? '', layout: s.layout };
    case 'tag':
      return { ...id, type: 'tag', action: s.action, tag: s.tag };
    case 'condition':
      return { ...id, type: 'condition', check: s.check, ...(s.check === 'on_list' ? { list_id: s.listId } : { tag: s.tag ?? '' }), otherwise: s.otherwise, ...(s.otherwise === 'skip' ? { skip: s.skip } : {}) };
  }
}

const peopleOf = (raw: unknown): MailerFlow['people'] => {
  const p = isPlainObject(raw) ? raw : {};
  const active = w.count(p.active);
  const waiting = w.count(p.waiting);
  const done = w.count(p.done);
  const exited = w.count(p.exited);
  return { active, waiting, done, exited, inFlow: p.in_flow === undefined ? active + waiting : w.count(p.in_flow), total: p.total === undefined ? active + waiting + done + exited : w.count(p.total) };
};

export function flowOf(raw: unknown): MailerFlow {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the automation itself)');
  const status = w.need(isStatus(raw.status) ? raw.status : null, 'status');
  const steps: SavedFlowStep[] | null = Array.isArray(raw.steps) ? raw.steps.map((s, k) => ({ ...stepOf(s, `steps.${k}`, true), people: w.count((s as Record<string, unknown>).people) }) as SavedFlowStep) : null;
  const onSteps = Array.isArray(raw.on_steps)
    ? raw.on_steps.flatMap((o) => (isPlainObject(o) && w.int(o.step_id) !== null ? [{ stepId: w.int(o.step_id)!, type: w.plain(o.type), people: w.count(o.people) }] : []))
    : (steps ?? []).map((s) => ({ stepId: s.id, type: s.type, people: s.people }));
  const tj = isPlainObject(raw.trigger_json) ? raw.trigger_json : {};
  return {
    id: w.need(w.int(raw.id), 'id'),
    name: w.plain(raw.name),
    status,
    trigger: w.need(isTrigger(raw.trigger) ? raw.trigger : null, 'trigger'),
    triggerTag: w.text(tj.tag),
    listId: w.int(raw.list_id),
    segmentId: w.int(raw.segment_id),
    allowReentry: w.bool(raw.allow_reentry),
    recipe: w.text(raw.recipe),
    steps,
    stepCount: steps ? steps.length : w.count(raw.step_count),
    onSteps,
    people: peopleOf(raw.people),
    messagesSent: w.count(raw.messages_sent),
    actions: Array.isArray(raw.actions) ? raw.actions.filter(isMove) : [...FLOW_MOVES_OF[status]],
    createdAt: isoOf(raw.created_at),
    updatedAt: isoOf(raw.updated_at),
    activatedAt: isoOf(raw.activated_at),
    pausedAt: isoOf(raw.paused_at),
    resumedAt: isoOf(raw.resumed_at),
  };
}

function recipeOf(raw: unknown): FlowRecipe {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the recipe itself)');
  const tj = isPlainObject(raw.trigger_json) ? raw.trigger_json : {};
  return {
    key: w.need(w.text(raw.key), 'key'),
    name: w.need(w.text(raw.name), 'name'),
    description: w.plain(raw.description),
    trigger: w.need(isTrigger(raw.trigger) ? raw.trigger : null, 'trigger'),
    triggerTag: w.text(tj.tag),
    allowReentry: w.bool(raw.allow_reentry),
    steps: (Array.isArray(raw.steps) ? raw.steps : []).map((s, k) => stepOf(s, `steps.${k}`, false)),
  };
}

export function enrolmentOf(raw: unknown): FlowEnrolment {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the enrolment itself)');
  return {
    id: w.need(w.int(raw.id), 'id'),
    flowId: w.need(w.int(raw.flow_id), 'flow_id'),
    subscriberId: w.need(w.int(raw.subscriber_id), 'subscriber_id'),
    email: w.plain(raw.email),
    name: w.plain(raw.name),
    status: w.need(isEnrolmentStatus(raw.status) ? raw.status : null, 'status'),
    stepId: w.int(raw.step_id),
    dueAt: isoOf(raw.due_at),
    enteredAt: isoOf(raw.entered_at),
    leftAt: isoOf(raw.left_at),
    exitReason: w.text(raw.exit_reason),
  };
}

/** A flow's fields as the site names them. */
export function flowBody(f: { name?: string | undefined; trigger?: string | undefined; triggerTag?: string | null | undefined; listId?: number | null | undefined; segmentId?: number | null | undefined; allowReentry?: boolean | undefined; steps?: FlowStep[] | undefined }): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (f.name !== undefined) body.name = f.name;
  if (f.trigger !== undefined) body.trigger = f.trigger;
  // the tag goes with tag_added and only then (the site refuses it with another trigger)
  if (f.triggerTag !== undefined || f.trigger !== undefined) {
    if (f.trigger === 'tag_added' || (f.trigger === undefined && f.triggerTag)) body.trigger_json = f.triggerTag ? { tag: f.triggerTag } : null;
    else if (f.trigger !== undefined) body.trigger_json = null;
  }
  if (f.listId !== undefined) body.list_id = f.listId;
  if (f.segmentId !== undefined) body.segment_id = f.segmentId;
  if (f.allowReentry !== undefined) body.allow_reentry = f.allowReentry;
  if (f.steps !== undefined) body.steps = f.steps.map(stepBody);
  return body;
}

const STEP_FIELDS: Record<string, string> = { template_id: 'templateId', body_md: 'bodyMd', list_id: 'listId' };
/** `steps[2].body_md` → `<prefix>steps.2.bodyMd`; `trigger_json` → `<prefix>triggerTag`. */
export const flowField =
  (prefix = '') =>
  (f: string): string => {
    const step = /^steps\[(\d+)\](?:\.(\w+))?$/.exec(f);
    if (step) return `${prefix}steps.${step[1]}${step[2] ? `.${STEP_FIELDS[step[2]] ?? step[2]}` : ''}`;
    if (f === 'trigger_json') return `${prefix}triggerTag`;
    return inputField(f, prefix);
  };

const p = (b: MailerBase, path: string) => w.path(b, `/flows${path}`);
const fid = (n: number) => w.idSegment(n, 'automation id');

export const cmsMailerFlows = {
  async flows(t: Transport, b: MailerBase): Promise<{ flows: MailerFlow[]; statusCounts: Record<FlowStatus, number> | null }> {
    const call: CallOptions = { path: p(b, '') };
    const r = await request(t, call);
    const list = w.one(t, 'the automations', call, r.data, (d) => {
      if (!Array.isArray(d)) throw new w.Unreadable('data');
      return d.map((x, i) => {
        try {
          return flowOf(x);
        } catch (err) {
          if (err instanceof w.Unreadable) throw new w.Unreadable(`data.${i}.${err.field}`);
          throw err;
        }
      });
    });
    const meta = isPlainObject(r.meta) ? r.meta : {};
    const counts = isPlainObject(meta.status_counts) ? meta.status_counts : null;
    return { flows: list, statusCounts: counts ? (Object.fromEntries(FLOW_STATUSES.map((s) => [s, w.count(counts[s])])) as Record<FlowStatus, number>) : null };
  },

  async recipes(t: Transport, b: MailerBase): Promise<FlowRecipe[]> {
    const call: CallOptions = { path: p(b, '/recipes') };
    const r = await request(t, call);
    return w.one(t, 'the recipes', call, r.data, (d) => {
      if (!Array.isArray(d)) throw new w.Unreadable('data');
      return d.map(recipeOf);
    });
  },

  async flow(t: Transport, b: MailerBase, id: number, q: { status?: EnrolmentStatus | undefined; stepId?: number | undefined; page: number; perPage: number }): Promise<{ flow: MailerFlow; enrolments: FlowEnrolmentPage }> {
    const call: CallOptions = { path: p(b, `/${fid(id)}`), query: { ...(q.status ? { status: q.status } : {}), ...(q.stepId !== undefined ? { step_id: String(q.stepId) } : {}), page: String(q.page), per_page: String(q.perPage) } };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => (f === 'step_id' ? 'stepId' : f)));
    const flow = w.one(t, 'the automation', call, r.data, flowOf);
    const d = isPlainObject(r.data) ? r.data : {};
    const rows = Array.isArray(d.enrolments) ? d.enrolments : [];
    const meta = isPlainObject(r.meta) ? r.meta : {};
    const paging = isPlainObject(meta.pagination) ? meta.pagination : meta;
    const page = w.int(paging.page) ?? q.page;
    const perPage = w.int(paging.per_page) ?? q.perPage;
    const total = w.int(paging.total) ?? rows.length;
    const items: FlowEnrolment[] = [];
    const unreadable: FlowEnrolmentPage['unreadable'] = [];
    rows.forEach((x, i) => {
      try {
        items.push(enrolmentOf(x));
      } catch (err) {
        if (!(err instanceof w.Unreadable)) throw err;
        unreadable.push({ position: (page - 1) * perPage + i, problem: `${err.field}: missing or not what the site sends` });
      }
    });
    return { flow, enrolments: { items, unreadable, total, page, perPage, next: page * perPage < total ? page + 1 : null } };
  },

  async create(t: Transport, b: MailerBase, body: Record<string, unknown>): Promise<MailerFlow> {
    const call: CallOptions = { method: 'POST', path: p(b, ''), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, flowField()));
    return w.one(t, 'the new automation', call, r.data, flowOf);
  },

  async fromRecipe(t: Transport, b: MailerBase, key: string, body: Record<string, unknown>): Promise<MailerFlow> {
    const call: CallOptions = { method: 'POST', path: p(b, `/recipes/${segment(key, 'recipe')}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, flowField()));
    return w.one(t, 'the new automation', call, r.data, flowOf);
  },

  async update(t: Transport, b: MailerBase, id: number, body: Record<string, unknown>): Promise<MailerFlow> {
    const call: CallOptions = { method: 'PATCH', path: p(b, `/${fid(id)}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, flowField('changes.')));
    return w.one(t, 'the automation', call, r.data, flowOf);
  },

  async move(t: Transport, b: MailerBase, id: number, move: FlowMove): Promise<MailerFlow> {
    const call: CallOptions = { method: 'POST', path: p(b, `/${fid(id)}/${move}`), body: {} };
    const r = await request(t, call);
    return w.one(t, 'the automation', call, r.data, flowOf);
  },

  async remove(t: Transport, b: MailerBase, id: number, force: boolean): Promise<void> {
    await request(t, { method: 'DELETE', path: p(b, `/${fid(id)}`), ...(force ? { query: { force: '1' } } : {}) });
  },

  async enrol(t: Transport, b: MailerBase, id: number, subscriberId: number): Promise<FlowEnrolment> {
    const call: CallOptions = { method: 'POST', path: p(b, `/${fid(id)}/enrol`), body: { subscriber_id: subscriberId } };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    return w.one(t, 'the enrolment', call, r.data, enrolmentOf);
  },

  async exit(t: Transport, b: MailerBase, id: number, enrolmentId: number): Promise<FlowEnrolment> {
    const call: CallOptions = { method: 'POST', path: p(b, `/${fid(id)}/enrolments/${w.idSegment(enrolmentId, 'enrolment id')}/exit`), body: {} };
    const r = await request(t, call);
    return w.one(t, 'the enrolment', call, r.data, enrolmentOf);
  },
};
