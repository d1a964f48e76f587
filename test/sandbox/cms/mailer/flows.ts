/**
 * The mailer's automations (flows), spec flavour (document 2 "Automations"; docs/mailer-automations.md):
 * a flow is a trigger and a list of steps — waits, sends, tag changes, conditions — that each
 * enrolled person walks through, one enrolment per person and pass. Steps are saved whole; a step
 * sent back with its id keeps its people, and the people of a step left out move to the next
 * step that stays. The worker (`stepFlows`) moves people on the sandbox's clock: a wait ends at
 * the time it began plus its minutes (not when the worker happens to look), so a clock moved far
 * ahead gives every message the time it would have had. Sends go into the outbox (`messages`,
 * kind `automation`). No clock of its own: every step is told the time.
 */
import { audienceWhere, MAILABLE } from './campaigns';
import { renderEmail } from './render';
import { normaliseTag } from './presets';
import type { MailerStore } from './store';
import { templateById } from './templates';
import { invalid, refuse } from './wire';

export const FLOW_STATES = ['draft', 'active', 'paused'] as const;
export type FlowState = (typeof FLOW_STATES)[number];
export const TRIGGERS = ['subscribed', 'confirmed', 'tag_added'] as const;
export type Trigger = (typeof TRIGGERS)[number];
export const ENROLMENT_STATES = ['active', 'waiting', 'done', 'exited'] as const;
export type EnrolmentState = (typeof ENROLMENT_STATES)[number];
export const STEP_TYPES = ['wait', 'send', 'tag', 'condition'] as const;
export const MAX_STEPS = 50;
export const MAX_WAIT_MINUTES = 365 * 24 * 60;
/** enrolments one worker pass moves at most, so the server answers in between */
export const FLOW_BATCH = 5000;

export type Step =
  | { id: number; type: 'wait'; minutes: number }
  | { id: number; type: 'send'; template_id: number | null; subject: string | null; body_md: string | null; layout: 'store' | 'plain' }
  | { id: number; type: 'tag'; action: 'add' | 'remove'; tag: string }
  | { id: number; type: 'condition'; check: 'has_tag' | 'lacks_tag' | 'on_list'; tag: string | null; list_id: number | null; otherwise: 'exit' | 'skip'; skip: number };

/** A step as a body gives it: with `id` when it is one the flow already has. */
export type StepIn = Step extends infer S ? (S extends Step ? Omit<S, 'id'> & { id: number | null } : never) : never;
/** A step's own fields, without an id (a recipe's). */
export type StepBody = Step extends infer S ? (S extends Step ? Omit<S, 'id'> : never) : never;

export interface RawFlow {
  id: number;
  name: string;
  status: FlowState;
  trigger: Trigger;
  trigger_json: string | null;
  list_id: number | null;
  segment_id: number | null;
  allow_reentry: number;
  steps: string;
  step_seq: number;
  recipe: string | null;
  created_at: number;
  updated_at: number;
  activated_at: number | null;
  paused_at: number | null;
  resumed_at: number | null;
}

export interface RawEnrolment {
  id: number;
  flow_id: number;
  subscriber_id: number;
  status: EnrolmentState;
  at: number;
  step_id: number | null;
  due_at: number | null;
  left_at: number | null;
  exit_reason: string | null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

export interface StepKnown {
  /** template ids and whether each is switched on */
  templates: Map<number, boolean>;
  lists: Set<number>;
}

/**
 * A body's `steps`, checked whole (pure): every step's fields by its type, the ids among `existing`
 * and each once. A refusal names the step by its place (`steps[2].minutes`), as a form would.
 */
export function checkSteps(raw: unknown, existing: Set<number>, known: StepKnown): StepIn[] {
  if (!Array.isArray(raw)) throw invalid('steps', 'steps must be a list of step objects (docs: wait, send, tag, condition).');
  if (raw.length > MAX_STEPS) throw invalid('steps', `A flow holds at most ${MAX_STEPS} steps.`);
  const seen = new Set<number>();
  return raw.map((s, k): StepIn => {
    const at = `steps[${k}]`;
    if (!isObj(s)) throw invalid(at, `${at} must be an object with a type.`);
    let id: number | null = null;
    if (s.id !== undefined && s.id !== null) {
      if (!posInt(s.id) || !existing.has(s.id)) throw invalid(`${at}.id`, `${at}.id: this flow has no step ${String(s.id)}; leave id out for a new step.`, 'unknown_step');
      if (seen.has(s.id)) throw invalid(`${at}.id`, `${at}.id: step ${s.id} is given twice; a step can stand in one place.`, 'duplicate_step');
      seen.add(s.id);
      id = s.id;
    }
    switch (s.type) {
      case 'wait': {
        if (!posInt(s.minutes) || s.minutes > MAX_WAIT_MINUTES) throw invalid(`${at}.minutes`, `${at}.minutes must be a whole number of minutes from 1 to ${MAX_WAIT_MINUTES} (a year).`);
        return { id, type: 'wait', minutes: s.minutes };
      }
      case 'send': {
        const layout = s.layout ?? 'store';
        if (layout !== 'store' && layout !== 'plain') throw invalid(`${at}.layout`, `${at}.layout must be store (the branded layout) or plain.`);
        if (s.template_id !== undefined && s.template_id !== null) {
          if (!posInt(s.template_id) || !known.templates.has(s.template_id)) throw invalid(`${at}.template_id`, `${at}.template_id: there is no such template; GET mailer/templates names them.`, 'unknown_template');
          if (s.subject !== undefined || s.body_md !== undefined) throw invalid(`${at}.template_id`, `${at}: a send takes a template_id or its own subject and body_md, not both.`);
          return { id, type: 'send', template_id: s.template_id, subject: null, body_md: null, layout };
        }
        if (typeof s.subject !== 'string' || !s.subject.trim() || s.subject.length > 998) throw invalid(`${at}.subject`, `${at}: a send needs a template_id, or a subject (at most 998 characters) and body_md.`);
        if (typeof s.body_md !== 'string' || !s.body_md.trim() || s.body_md.length > 200_000) throw invalid(`${at}.body_md`, `${at}: a send needs a template_id, or a subject and body_md (at most 200,000 characters).`);
        return { id, type: 'send', template_id: null, subject: s.subject.trim(), body_md: s.body_md, layout };
      }
      case 'tag': {
        if (s.action !== 'add' && s.action !== 'remove') throw invalid(`${at}.action`, `${at}.action must be add or remove.`);
        const tag = typeof s.tag === 'string' ? normaliseTag(s.tag) : '';
        if (!tag) throw invalid(`${at}.tag`, `${at}.tag must be a tag's code (one is made when added and missing).`);
        return { id, type: 'tag', action: s.action, tag };
      }
      case 'condition': {
        if (s.check !== 'has_tag' && s.check !== 'lacks_tag' && s.check !== 'on_list') throw invalid(`${at}.check`, `${at}.check must be has_tag, lacks_tag or on_list.`);
        let tag: string | null = null;
        let list: number | null = null;
        if (s.check === 'on_list') {
          if (!posInt(s.list_id) || !known.lists.has(s.list_id)) throw invalid(`${at}.list_id`, `${at}.list_id: on_list needs the id of a list; GET mailer/lists names them.`, 'unknown_list');
          list = s.list_id;
        } else {
          tag = typeof s.tag === 'string' ? normaliseTag(s.tag) : '';
          if (!tag) throw invalid(`${at}.tag`, `${at}.tag: ${s.check} needs a tag's code.`);
        }
        const otherwise = s.otherwise ?? 'exit';
        if (otherwise !== 'exit' && otherwise !== 'skip') throw invalid(`${at}.otherwise`, `${at}.otherwise must be exit (leave the flow) or skip (pass over the next steps).`);
        let skip = 0;
        if (otherwise === 'skip') {
          if (!posInt(s.skip) || k + s.skip >= raw.length) throw invalid(`${at}.skip`, `${at}.skip must be how many of the steps after it to pass over (1 to ${Math.max(1, raw.length - k - 1)}).`);
          skip = s.skip;
        }
        return { id, type: 'condition', check: s.check, tag, list_id: list, otherwise, skip };
      }
      default:
        throw invalid(`${at}.type`, `${at}.type must be one of ${STEP_TYPES.join(', ')}.`);
    }
  });
}

/** New ids for the steps without one, from the flow's own sequence (an id is never given twice in a flow). Pure. */
export function numberSteps(steps: StepIn[], seq: number): { steps: Step[]; seq: number } {
  let next = seq;
  return { steps: steps.map((s) => ({ ...s, id: s.id ?? ++next }) as Step), seq: next };
}

/**
 * Where the people of each old step go when steps are saved whole (pure): a kept step keeps its
 * people; a step left out hands them to the next old step after it that stays, or, with none,
 * they are done. Answers old step id → new step id, or null for done.
 */
export function movesOnSave(oldIds: number[], newIds: number[]): Map<number, number | null> {
  const kept = new Set(newIds);
  const moves = new Map<number, number | null>();
  oldIds.forEach((id, k) => {
    if (kept.has(id)) return;
    moves.set(id, oldIds.slice(k + 1).find((x) => kept.has(x)) ?? null);
  });
  return moves;
}

export const stepsOf = (f: Pick<RawFlow, 'steps'>): Step[] => JSON.parse(f.steps) as Step[];
export const flowById = (store: MailerStore, id: number): RawFlow | null => (store.prep('SELECT * FROM flows WHERE id = ?').get(id) as RawFlow | undefined) ?? null;
export const enrolmentById = (store: MailerStore, id: number): RawEnrolment | null => (store.prep('SELECT * FROM enrolments WHERE id = ?').get(id) as RawEnrolment | undefined) ?? null;

// ---- recipes

export interface Recipe {
  key: string;
  name: string;
  description: string;
  trigger: Trigger;
  trigger_json: { tag: string } | null;
  allow_reentry: boolean;
  steps: StepBody[];
}

const send = (subject: string, body_md: string) => ({ type: 'send' as const, template_id: null, subject, body_md, layout: 'store' as const });

export const RECIPES: Recipe[] = [
  {
    key: 'welcome',
    name: 'Welcome series',
    description: 'Greets a new subscriber at once, then tells them what to expect two days later.',
    trigger: 'subscribed',
    trigger_json: null,
    allow_reentry: false,
    steps: [
      send('Welcome aboard', 'Hello {{ name }},\n\nThank you for subscribing. [Start here](https://site.example/start).'),
      { type: 'wait', minutes: 2 * 24 * 60 },
      send('What to expect from us', 'One letter a month, with [the news](https://site.example/news) and nothing else.'),
      { type: 'tag', action: 'add', tag: 'welcomed' },
    ],
  },
  {
    key: 're-engagement',
    name: 'Re-engagement',
    description: 'Asks those tagged as quiet whether they still want the letters; a week later, those still quiet are tagged for a clean-up.',
    trigger: 'tag_added',
    trigger_json: { tag: 'quiet' },
    allow_reentry: true,
    steps: [
      send('Do you still want to hear from us?', 'We have not seen you in a while. [Stay subscribed](https://site.example/stay) or leave with the link below.'),
      { type: 'wait', minutes: 7 * 24 * 60 },
      { type: 'condition', check: 'has_tag', tag: 'quiet', list_id: null, otherwise: 'exit', skip: 0 },
      { type: 'tag', action: 'add', tag: 'sunset' },
    ],
  },
  {
    key: 'confirmed-thanks',
    name: 'Thank you for confirming',
    description: 'One letter when someone confirms their address, with a tag to mark it.',
    trigger: 'confirmed',
    trigger_json: null,
    allow_reentry: false,
    steps: [send('You are confirmed', 'Thank you for confirming your address. [Read the latest](https://site.example/news).'), { type: 'tag', action: 'add', tag: 'confirmed-thanked' }],
  },
];

export const recipeWire = (r: Recipe) => ({ ...r, steps: r.steps.map((s) => ({ ...s })) });

// ---- flow fields

export interface FlowFields {
  name?: string;
  trigger?: Trigger;
  trigger_json?: { tag: string } | null;
  list_id?: number | null;
  segment_id?: number | null;
  allow_reentry?: boolean;
  steps?: StepIn[];
}

const READ_ONLY = ['id', 'status', 'created_at', 'updated_at', 'activated_at', 'paused_at', 'resumed_at', 'people', 'recipe'];

/** A create (`creating`: name and trigger required) or PATCH body, checked against what the store holds. */
export function checkFlow(store: MailerStore, body: Record<string, unknown>, creating: boolean, existingSteps: Set<number>, current?: RawFlow): FlowFields {
  for (const k of READ_ONLY) if (k in body) throw invalid(k, `${k} is kept by the server.`, 'field_read_only');
  const out: FlowFields = {};
  if (creating || body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 200) throw invalid('name', 'name is required: text of at most 200 characters.');
    out.name = body.name.trim();
  }
  if (creating || body.trigger !== undefined) {
    if (!(TRIGGERS as readonly unknown[]).includes(body.trigger)) throw invalid('trigger', `trigger must be one of ${TRIGGERS.join(', ')}.`);
    out.trigger = body.trigger as Trigger;
  }
  const trigger = out.trigger ?? current?.trigger;
  if (body.trigger_json !== undefined || out.trigger !== undefined) {
    if (trigger === 'tag_added') {
      const tj = body.trigger_json ?? (current?.trigger_json ? JSON.parse(current.trigger_json) : null);
      const tag = isObj(tj) && typeof tj.tag === 'string' ? normaliseTag(tj.tag) : '';
      if (!tag) throw invalid('trigger_json', 'tag_added needs trigger_json {tag: <code>}: the tag whose adding enrols a person.');
      out.trigger_json = { tag };
    } else {
      if (body.trigger_json !== undefined && body.trigger_json !== null) throw invalid('trigger_json', `trigger ${trigger} takes no trigger_json (only tag_added names a tag).`);
      out.trigger_json = null;
    }
  }
  if (body.list_id !== undefined) {
    if (body.list_id !== null && (!posInt(body.list_id) || !store.list(body.list_id))) throw invalid('list_id', 'list_id: there is no such list; GET mailer/lists names them (null: any list).', 'unknown_list');
    out.list_id = body.list_id as number | null;
  }
  if (body.segment_id !== undefined) {
    if (body.segment_id !== null && (!posInt(body.segment_id) || !store.segment(body.segment_id))) throw invalid('segment_id', 'segment_id: there is no such segment; GET mailer/segments names them (null: everybody).', 'unknown_segment');
    out.segment_id = body.segment_id as number | null;
  }
  if (body.allow_reentry !== undefined) {
    if (typeof body.allow_reentry !== 'boolean') throw invalid('allow_reentry', 'allow_reentry must be true or false.');
    out.allow_reentry = body.allow_reentry;
  }
  if (body.steps !== undefined) out.steps = checkSteps(body.steps, existingSteps, stepKnown(store));
  return out;
}

export function stepKnown(store: MailerStore): StepKnown {
  const templates = new Map((store.prep('SELECT id, is_active FROM templates').all() as { id: number; is_active: number }[]).map((t) => [t.id, t.is_active === 1]));
  return { templates, lists: new Set(store.lists().map((l) => l.id)) };
}

export function insertFlow(store: MailerStore, f: FlowFields, nowSec: number, recipe: string | null = null): number {
  const { steps, seq } = numberSteps(f.steps ?? [], 0);
  const info = store
    .prep('INSERT INTO flows (name, status, trigger, trigger_json, list_id, segment_id, allow_reentry, steps, step_seq, recipe, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(f.name!, 'draft', f.trigger!, f.trigger_json ? JSON.stringify(f.trigger_json) : null, f.list_id ?? null, f.segment_id ?? null, f.allow_reentry ? 1 : 0, JSON.stringify(steps), seq, recipe, nowSec, nowSec);
  return Number(info.lastInsertRowid);
}

/** Saves an edit; new steps whole, with the people of steps left out moved on (movesOnSave) from now. */
export function updateFlow(store: MailerStore, flow: RawFlow, f: FlowFields, nowSec: number): void {
  let steps = flow.steps;
  let seq = flow.step_seq;
  if (f.steps) {
    const numbered = numberSteps(f.steps, flow.step_seq);
    steps = JSON.stringify(numbered.steps);
    seq = numbered.seq;
    const moves = movesOnSave(stepsOf(flow).map((s) => s.id), numbered.steps.map((s) => s.id));
    for (const [from, to] of moves) {
      if (to === null) store.prep("UPDATE enrolments SET status = 'done', step_id = NULL, due_at = NULL, left_at = ? WHERE flow_id = ? AND step_id = ? AND status IN ('active', 'waiting')").run(nowSec, flow.id, from);
      else store.prep("UPDATE enrolments SET status = 'active', step_id = ?, due_at = ? WHERE flow_id = ? AND step_id = ? AND status IN ('active', 'waiting')").run(to, nowSec, flow.id, from);
    }
  }
  const n = { ...flow, ...f };
  store
    .prep('UPDATE flows SET name = ?, trigger = ?, trigger_json = ?, list_id = ?, segment_id = ?, allow_reentry = ?, steps = ?, step_seq = ?, updated_at = ? WHERE id = ?')
    .run(
      n.name,
      n.trigger,
      f.trigger_json !== undefined ? (f.trigger_json ? JSON.stringify(f.trigger_json) : null) : flow.trigger_json,
      n.list_id,
      n.segment_id,
      f.allow_reentry === undefined ? flow.allow_reentry : f.allow_reentry ? 1 : 0,
      steps,
      seq,
      nowSec,
      flow.id,
    );
}

// ---- run state

export type FlowMove = 'activate' | 'pause' | 'resume';
const FROM: Record<FlowMove, FlowState> = { activate: 'draft', pause: 'active', resume: 'paused' };
const TO: Record<FlowMove, FlowState> = { activate: 'active', pause: 'paused', resume: 'active' };

/** What a flow must be before it runs: steps, and each send with content it can mail. Null when ready. Pure over the known templates. */
export function notReady(steps: Step[], templates: Map<number, boolean>): string | null {
  if (steps.length === 0) return 'The flow has no steps: add at least one before turning it on.';
  for (const [k, s] of steps.entries()) {
    if (s.type !== 'send' || s.template_id === null) continue;
    if (!templates.has(s.template_id)) return `steps[${k}] sends a template that was deleted: choose another or write the letter into the step.`;
    if (!templates.get(s.template_id)) return `steps[${k}] sends a template that is switched off: switch it on or choose another.`;
  }
  return null;
}

/** The moves a flow in this state can make (the record's `actions`). Pure. */
export const flowActions = (status: FlowState): FlowMove[] => (Object.keys(FROM) as FlowMove[]).filter((m) => FROM[m] === status);

export function moveFlow(store: MailerStore, flow: RawFlow, move: FlowMove, nowSec: number): void {
  if (flow.status !== FROM[move]) {
    const hint = move === 'activate' && flow.status === 'paused' ? ' resume it instead.' : flow.status === 'active' && move !== 'pause' ? ' it is already on.' : ` it can ${flowActions(flow.status).join(' or ') || 'only be edited'}.`;
    throw refuse(409, 'flow_state', `The flow is ${flow.status}: ${move} needs it ${FROM[move]};${hint}`, { flow_status: flow.status, actions: flowActions(flow.status) });
  }
  if (move !== 'pause') {
    const why = notReady(stepsOf(flow), stepKnown(store).templates);
    if (why) throw refuse(409, 'flow_not_ready', why, { flow_status: flow.status });
  }
  const col = move === 'activate' ? 'activated_at' : move === 'pause' ? 'paused_at' : 'resumed_at';
  store.prep(`UPDATE flows SET status = ?, ${col} = ?, updated_at = ? WHERE id = ?`).run(TO[move], nowSec, nowSec, flow.id);
}

// ---- enrolment

/** Puts one person on the flow's first step (a paused flow holds them there until it resumes). */
export function enrol(store: MailerStore, flow: RawFlow, subscriberId: number, nowSec: number): number {
  if (flow.status === 'draft') throw refuse(409, 'flow_state', 'The flow is a draft: activate it before enrolling anybody.', { flow_status: flow.status, actions: flowActions(flow.status) });
  const s = store.subscriber(subscriberId);
  if (!s) throw invalid('subscriber_id', 'subscriber_id: there is no such subscriber.', 'unknown_subscriber');
  if (s.status !== 'subscribed' || s.suppressed) throw refuse(409, 'not_mailable', `That subscriber is ${s.suppressed ? 'suppressed' : s.status}: only a subscribed, unsuppressed person can be enrolled.`, { subscriber_id: s.id });
  const last = store.prep('SELECT * FROM enrolments WHERE flow_id = ? AND subscriber_id = ? ORDER BY id DESC LIMIT 1').get(flow.id, s.id) as RawEnrolment | undefined;
  if (last && (last.status === 'active' || last.status === 'waiting')) throw refuse(409, 'already_enrolled', 'That subscriber is in this flow already: exit their enrolment first to start them again.', { enrolment_id: last.id });
  if (last && !flow.allow_reentry) throw refuse(409, 'no_reentry', 'That subscriber has been through this flow and it does not allow re-entry: set allow_reentry to true to let them in again.', { enrolment_id: last.id });
  return startEnrolment(store, flow, s.id, nowSec);
}

function startEnrolment(store: MailerStore, flow: RawFlow, subscriberId: number, at: number): number {
  const first = stepsOf(flow)[0];
  const info = store
    .prep('INSERT INTO enrolments (flow_id, subscriber_id, status, at, step_id, due_at, left_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(flow.id, subscriberId, first ? 'active' : 'done', at, first?.id ?? null, first ? at : null, first ? null : at);
  return Number(info.lastInsertRowid);
}

export function exitEnrolment(store: MailerStore, e: RawEnrolment, nowSec: number): void {
  if (e.status === 'done' || e.status === 'exited') throw refuse(409, 'enrolment_over', `That enrolment is ${e.status} already: nothing to take them out of.`, { enrolment_status: e.status });
  store.prep("UPDATE enrolments SET status = 'exited', step_id = NULL, due_at = NULL, left_at = ?, exit_reason = 'manual' WHERE id = ?").run(nowSec, e.id);
}

// ---- the worker

export interface FlowContext {
  store: MailerStore;
  known: Parameters<typeof audienceWhere>[4];
  siteName: string;
}

/**
 * Enrols the people a running flow's trigger found since it was turned on: subscribed (a
 * subscribed membership, on its list when it has one, begun since), confirmed (confirmed since);
 * each once (re-entry is for enrolling by hand), matching its segment, mailable.
 * tag_added has no time of the tag's adding in the store, so it enrols by hand alone (Not yet).
 */
function triggerEnrolments(ctx: FlowContext, flow: RawFlow, nowSec: number): number {
  if (flow.trigger === 'tag_added' || flow.activated_at === null) return 0;
  const first = stepsOf(flow)[0];
  if (!first) return 0;
  const params: Record<string, unknown> = { fid: flow.id, since: flow.activated_at, now: nowSec, step: first.id };
  const where = audienceWhere(ctx.store, flow.list_id ? [flow.list_id] : [], flow.segment_id, nowSec, ctx.known, params);
  const listCond = flow.list_id ? 'AND m.list_id = @flist' : '';
  if (flow.list_id) params.flist = flow.list_id;
  const atSql =
    flow.trigger === 'subscribed'
      ? `(SELECT min(m.since) FROM memberships m WHERE m.subscriber_id = s.id AND m.status = 'subscribed' ${listCond} AND m.since >= @since AND m.since <= @now)`
      : `(CASE WHEN s.confirmed_at >= @since AND s.confirmed_at <= @now THEN s.confirmed_at END)`;
  return ctx.store.db
    .prepare(
      `INSERT INTO enrolments (flow_id, subscriber_id, status, at, step_id, due_at)
       SELECT @fid, id, 'active', t, @step, t FROM (SELECT s.id, ${atSql} AS t FROM subscribers s
         WHERE ${where} AND ${MAILABLE} AND NOT EXISTS (SELECT 1 FROM enrolments e WHERE e.flow_id = @fid AND e.subscriber_id = s.id))
       WHERE t IS NOT NULL ORDER BY t, id`,
    )
    .run(params).changes;
}

function checkPasses(store: MailerStore, subscriberId: number, s: Extract<Step, { type: 'condition' }>): boolean {
  if (s.check === 'on_list') return store.membership(subscriberId, s.list_id!)?.status === 'subscribed';
  const tag = store.tagByCode(s.tag!);
  const has = tag ? store.hasTag(subscriberId, tag.id) : false;
  return s.check === 'has_tag' ? has : !has;
}

/**
 * Walks one enrolment from its step as far as the clock allows (pure over the store): a wait
 * ends at its start plus its minutes, every other step is done at the time the person reached it.
 * A person no longer mailable when a send comes leaves (`not_mailable`).
 */
export function walk(ctx: FlowContext, flow: RawFlow, steps: Step[], e: RawEnrolment, nowSec: number): void {
  const { store } = ctx;
  // a paused flow held everybody: what fell due while it was paused happens when it resumed
  let t = Math.max(e.due_at ?? nowSec, flow.resumed_at ?? 0);
  let k = steps.findIndex((s) => s.id === e.step_id);
  const put = (status: EnrolmentState, stepId: number | null, due: number | null, reason: string | null = null) =>
    store.prep('UPDATE enrolments SET status = ?, step_id = ?, due_at = ?, left_at = ?, exit_reason = coalesce(?, exit_reason) WHERE id = ?').run(status, stepId, due, status === 'done' || status === 'exited' ? t : null, reason, e.id);
  if (k < 0) return void put('done', null, null);
  if (e.status === 'waiting') k++;
  for (;;) {
    const s = steps[k];
    if (!s) return void put('done', null, null);
    if (t > nowSec) return void put('active', s.id, t);
    switch (s.type) {
      case 'wait': {
        const end = t + s.minutes * 60;
        if (end > nowSec) return void put('waiting', s.id, end);
        t = end;
        k++;
        break;
      }
      case 'send': {
        const who = store.subscriber(e.subscriber_id);
        if (!who || who.status !== 'subscribed' || who.suppressed) return void put('exited', null, null, 'not_mailable');
        const tpl = s.template_id === null ? null : templateById(store, s.template_id);
        const content = tpl ? { subject: tpl.subject ?? '', preheader: tpl.preheader, body_md: tpl.body_md ?? '', layout: tpl.layout } : { subject: s.subject ?? '', preheader: null, body_md: s.body_md ?? '', layout: s.layout };
        const mail = renderEmail(content, { name: ctx.siteName });
        const id = store.logMessage(who.id, who.email, 'automation', mail.subject, t, null, mail.html);
        store.prep('UPDATE messages SET flow_id = ? WHERE id = ?').run(flow.id, id);
        k++;
        break;
      }
      case 'tag': {
        if (s.action === 'add') store.addTag(e.subscriber_id, store.ensureTag(s.tag, null, t).tag.id);
        else {
          const tag = store.tagByCode(s.tag);
          if (tag) store.removeTag(e.subscriber_id, tag.id);
        }
        k++;
        break;
      }
      case 'condition': {
        if (checkPasses(store, e.subscriber_id, s)) k++;
        else if (s.otherwise === 'exit') return void put('exited', null, null, 'condition');
        else k += 1 + s.skip;
        break;
      }
    }
  }
}

/** The flows' worker, caught up to `nowSec`: running flows enrol what their trigger found and move everybody due. */
export function stepFlows(ctx: FlowContext, nowSec: number): { enrolled: number; moved: number } {
  const { store } = ctx;
  let enrolled = 0;
  let moved = 0;
  for (const flow of store.prep("SELECT * FROM flows WHERE status = 'active' ORDER BY id").all() as RawFlow[]) {
    enrolled += triggerEnrolments(ctx, flow, nowSec);
    const steps = stepsOf(flow);
    const due = store.prep("SELECT * FROM enrolments WHERE flow_id = ? AND status IN ('active', 'waiting') AND due_at <= ? ORDER BY due_at, id LIMIT ?").all(flow.id, nowSec, FLOW_BATCH - moved) as RawEnrolment[];
    for (const e of due) walk(ctx, flow, steps, e, nowSec);
    moved += due.length;
    if (moved >= FLOW_BATCH) break;
  }
  return { enrolled, moved };
}

// ---- records

export function flowPeople(store: MailerStore, flowId: number) {
  const status: Record<EnrolmentState, number> = { active: 0, waiting: 0, done: 0, exited: 0 };
  for (const r of store.prep('SELECT status, count(*) AS n FROM enrolments WHERE flow_id = ? GROUP BY status').all(flowId) as { status: EnrolmentState; n: number }[]) status[r.status] = r.n;
  const bySteps = new Map((store.prep("SELECT step_id, count(*) AS n FROM enrolments WHERE flow_id = ? AND status IN ('active', 'waiting') GROUP BY step_id").all(flowId) as { step_id: number; n: number }[]).map((r) => [r.step_id, r.n]));
  return { status, bySteps };
}

export function flowWire(store: MailerStore, f: RawFlow, withSteps = true) {
  const people = flowPeople(store, f.id);
  const sent = (store.prep("SELECT count(*) AS n FROM messages WHERE kind = 'automation' AND flow_id = ?").get(f.id) as { n: number }).n;
  const steps = stepsOf(f);
  return {
    id: f.id,
    name: f.name,
    status: f.status,
    trigger: f.trigger,
    trigger_json: f.trigger_json ? JSON.parse(f.trigger_json) : null,
    list_id: f.list_id,
    segment_id: f.segment_id,
    allow_reentry: f.allow_reentry === 1,
    recipe: f.recipe,
    ...(withSteps ? { steps: steps.map((s) => ({ ...s, people: people.bySteps.get(s.id) ?? 0 })) } : { step_count: steps.length }),
    people: { ...people.status, in_flow: people.status.active + people.status.waiting, total: people.status.active + people.status.waiting + people.status.done + people.status.exited },
    // where the people in it stand, step by step (every step, in order, even with nobody)
    on_steps: steps.map((s) => ({ step_id: s.id, type: s.type, people: people.bySteps.get(s.id) ?? 0 })),
    messages_sent: sent,
    actions: flowActions(f.status),
    created_at: f.created_at,
    updated_at: f.updated_at,
    activated_at: f.activated_at,
    paused_at: f.paused_at,
    resumed_at: f.resumed_at,
  };
}

export function enrolmentWire(e: RawEnrolment & { email: string | null; name: string | null }) {
  return { id: e.id, flow_id: e.flow_id, subscriber_id: e.subscriber_id, email: e.email, name: e.name, status: e.status, step_id: e.step_id, due_at: e.due_at, entered_at: e.at, left_at: e.left_at, exit_reason: e.exit_reason };
}

/** Deletes a flow and its enrolments; with people still in it only when `force` (they are taken out first). */
export function deleteFlow(store: MailerStore, flow: RawFlow, force: boolean): number {
  const inside = flowPeople(store, flow.id).status;
  const n = inside.active + inside.waiting;
  if (n > 0 && !force) throw refuse(409, 'flow_has_people', `${n} ${n === 1 ? 'person is' : 'people are'} still in this flow: pause it and wait, exit them, or delete with force=1 to take them out first.`, { people: n });
  store.prep('DELETE FROM enrolments WHERE flow_id = ?').run(flow.id);
  store.prep('DELETE FROM flows WHERE id = ?').run(flow.id);
  return n;
}
