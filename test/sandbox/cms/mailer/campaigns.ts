/**
 * The mailer's campaigns, spec flavour (document 2 "Campaigns"; docs/mailer-campaigns.md): the
 * fields a create or PATCH takes, checked; the record with its counters, rates and next moves;
 * the table with status counts; the audience a set of lists and a segment reach; and the moves,
 * asked of campaign-states.ts and written with their times. Sending itself is sending.ts's.
 */
import { isObj } from './audience';
import { CAMPAIGN_STATES, isState, move, nextMoves, type CampaignState, type Move } from './campaign-states';
import { checkDefinition, groupSql } from './segments';
import { STOP_REASONS } from './send-rules';
import { openRate, testOf, windowEndOf, type Variant, type VariantFigures } from './subject-test';
import type { MailerStore, RawCampaign, RawTemplate } from './store';
import { copyTemplate, templateForCampaign } from './templates';
import { invalid, refuse } from './wire';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TEXT_FIELDS = { subject: 998, preheader: 255, from_name: 200, subject_b: 998 } as const;
const UTM_KEYS = ['source', 'medium', 'campaign', 'content'] as const;
/** what a PATCH or create may not set: the state and times move only by the routes of the moves */
const READ_ONLY = ['status', 'scheduled_at', 'started_at', 'sent_at', 'paused_at', 'canceled_at', 'created_at', 'updated_at', 'id'];

export interface CampaignFields {
  subject?: string | null;
  preheader?: string | null;
  body_md?: string | null;
  layout?: 'store' | 'plain';
  from_name?: string | null;
  from_email?: string | null;
  reply_to?: string | null;
  track_opens?: boolean;
  track_clicks?: boolean;
  subject_b?: string | null;
  ab_sample_percent?: number | null;
  ab_window_minutes?: number | null;
  utm?: Partial<Record<(typeof UTM_KEYS)[number], string>> | null;
}

const DEFAULTS: Required<CampaignFields> = {
  subject: null, preheader: null, body_md: null, layout: 'store', from_name: null, from_email: null, reply_to: null,
  track_opens: true, track_clicks: true, subject_b: null, ab_sample_percent: null, ab_window_minutes: null, utm: null,
};

interface Checked {
  name?: string;
  /** create only: the template whose content it starts from */
  template?: RawTemplate;
  fields: CampaignFields;
  list_ids?: number[];
  segment_id?: number | null;
}

const optText = (body: Record<string, unknown>, key: string, max: number): string | null | undefined => {
  const v = body[key];
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > max) throw invalid(key, `${key} must be text of at most ${max} characters.`);
  return v;
};

/** The campaign fields of a create (`creating`) or PATCH body, checked against the store's lists and segments. */
export function checkFields(store: MailerStore, body: Record<string, unknown>, creating: boolean): Checked {
  for (const k of READ_ONLY) {
    if (k in body) throw invalid(k, k === 'status' || k === 'scheduled_at' ? `${k} is moved by start, pause, resume and cancel, not written.` : `${k} is kept by the server.`, 'field_read_only');
  }
  const out: Checked = { fields: {} };
  if (creating || body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 200) throw invalid('name', 'name is required: text of at most 200 characters.');
    out.name = body.name.trim();
  }
  for (const [k, max] of Object.entries(TEXT_FIELDS)) {
    const v = optText(body, k, max);
    if (v !== undefined) out.fields[k as keyof typeof TEXT_FIELDS] = v;
  }
  const md = optText(body, 'body_md', 200_000);
  if (md !== undefined) out.fields.body_md = md;
  for (const k of ['from_email', 'reply_to'] as const) {
    const v = optText(body, k, 254);
    if (v !== undefined && v !== null && !EMAIL.test(v.trim())) throw invalid(k, `${k} is not an email address.`, 'invalid_email');
    if (v !== undefined) out.fields[k] = v === null ? null : v.trim();
  }
  if (body.layout !== undefined) {
    if (body.layout !== 'store' && body.layout !== 'plain') throw invalid('layout', 'layout must be store (the branded layout) or plain.');
    out.fields.layout = body.layout;
  }
  for (const k of ['track_opens', 'track_clicks'] as const) {
    if (body[k] === undefined) continue;
    if (typeof body[k] !== 'boolean') throw invalid(k, `${k} must be true or false.`);
    out.fields[k] = body[k];
  }
  const int = (k: 'ab_sample_percent' | 'ab_window_minutes', lo: number, hi: number) => {
    const v = body[k];
    if (v === undefined) return;
    if (v !== null && (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)) throw invalid(k, `${k} must be a whole number from ${lo} to ${hi}.`);
    out.fields[k] = v;
  };
  int('ab_sample_percent', 10, 50);
  int('ab_window_minutes', 1, 10_080);
  if (body.utm !== undefined) {
    if (body.utm === null) out.fields.utm = null;
    else {
      if (!isObj(body.utm) || Object.keys(body.utm).some((k) => !(UTM_KEYS as readonly string[]).includes(k))) throw invalid('utm', `utm must be an object of ${UTM_KEYS.join(', ')}.`);
      const utm: Record<string, string> = {};
      for (const [k, v] of Object.entries(body.utm)) {
        if (typeof v !== 'string' || v.length > 200) throw invalid(`utm.${k}`, `utm.${k} must be text of at most 200 characters.`);
        utm[k] = v;
      }
      out.fields.utm = utm;
    }
  }
  if (body.template_id !== undefined) {
    if (!creating) throw invalid('template_id', 'template_id is read once, on create: the campaign keeps its own copy.', 'field_read_only');
    if (body.template_id !== null) out.template = templateForCampaign(store, body.template_id);
  }
  if (body.list_id !== undefined && body.list_ids !== undefined) throw invalid('list_ids', 'Give list_id or list_ids, not both.');
  const rawLists = body.list_ids !== undefined ? body.list_ids : body.list_id !== undefined ? (body.list_id === null ? [] : [body.list_id]) : undefined;
  if (rawLists !== undefined) {
    if (!Array.isArray(rawLists) || rawLists.some((v) => typeof v !== 'number' || !Number.isInteger(v))) throw invalid('list_ids', 'list_ids must be an array of list ids.');
    const ids = [...new Set(rawLists as number[])];
    for (const id of ids) if (!store.list(id)) throw invalid('list_ids', `list_ids: there is no list ${id}; GET mailer/lists names them.`, 'unknown_list');
    out.list_ids = ids;
  }
  if (body.segment_id !== undefined) {
    if (body.segment_id !== null && (typeof body.segment_id !== 'number' || !store.segment(body.segment_id))) throw invalid('segment_id', `segment_id: there is no segment ${String(body.segment_id)}.`, 'unknown_segment');
    out.segment_id = body.segment_id as number | null;
  }
  return out;
}

export const fieldsOf = (c: RawCampaign): Required<CampaignFields> => ({ ...DEFAULTS, ...(JSON.parse(c.fields) as CampaignFields) });
export const listIdsOf = (c: RawCampaign): number[] => JSON.parse(c.list_ids) as number[];
export const stateOf = (c: RawCampaign): CampaignState => (isState(c.status) ? c.status : 'draft');

/** What start still needs, by field: empty when the campaign is ready. */
export function missingOf(c: RawCampaign): string[] {
  const f = fieldsOf(c);
  const missing: string[] = [];
  if (!f.subject) missing.push('subject');
  if (!f.body_md) missing.push('body_md');
  if (!listIdsOf(c).length && c.segment_id === null) missing.push('list_ids');
  return missing;
}

export function insertCampaign(store: MailerStore, checked: Checked, nowSec: number): number {
  const info = store
    .prep('INSERT INTO campaigns (name, status, segment_id, list_ids, created_at, fields, updated_at, template_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(
      checked.name!,
      'draft',
      checked.segment_id ?? null,
      JSON.stringify(checked.list_ids ?? []),
      nowSec,
      JSON.stringify(checked.template ? copyTemplate(checked.template, checked.fields) : checked.fields),
      nowSec,
      checked.template?.id ?? null,
    );
  return Number(info.lastInsertRowid);
}

export function updateCampaign(store: MailerStore, c: RawCampaign, checked: Checked, nowSec: number): void {
  const fields = { ...(JSON.parse(c.fields) as CampaignFields), ...checked.fields };
  store
    .prep('UPDATE campaigns SET name = ?, segment_id = ?, list_ids = ?, fields = ?, updated_at = ? WHERE id = ?')
    .run(checked.name ?? c.name, checked.segment_id !== undefined ? checked.segment_id : c.segment_id, JSON.stringify(checked.list_ids ?? listIdsOf(c)), JSON.stringify(fields), nowSec, c.id);
}

/** The 409 of a move the state does not allow, with where the campaign stands (`campaign_status`: `status` is the HTTP code in a problem) and what it can do. */
export function stateRefusal(c: RawCampaign, reason: string, code = 'campaign_state', extra: Record<string, unknown> = {}) {
  const state = stateOf(c);
  return refuse(409, code, reason, { campaign_status: state, next_moves: nextMoves(state), ...extra });
}

/**
 * Moves a campaign: asks the state machine, then writes the next state and the time of the move.
 * `scheduledAt` is start's time (schedule) or the campaign's own (resume).
 */
export function moveCampaign(store: MailerStore, c: RawCampaign, m: Move, nowSec: number, scheduledAt?: number): CampaignState | 'removed' {
  const at = scheduledAt ?? c.scheduled_at;
  const r = move(stateOf(c), m, { now: nowSec, scheduledAt: at });
  if (!r.ok) {
    if (r.code === 'campaign_state') throw stateRefusal(c, r.reason);
    throw invalid('scheduled_at', r.reason, r.code);
  }
  if (r.next === 'removed') {
    store.prep('DELETE FROM campaigns WHERE id = ?').run(c.id);
    return r.next;
  }
  const set: Record<string, number | string | null> = { status: r.next, updated_at: nowSec };
  if (m === 'schedule') set.scheduled_at = scheduledAt!;
  // start now clears a time it had: it went out now, not then
  if (m === 'start') set.scheduled_at = null;
  if (r.next === 'sending' && c.started_at === null) set.started_at = nowSec;
  // the sending worker counts its allowance from here, and judges its bounce share from here
  if (r.next === 'sending') Object.assign(set, { send_mark: nowSec * 1000, sending_since: nowSec });
  if (r.next === 'stopped') set.stopped_at = nowSec;
  if (r.next === 'paused') set.paused_at = nowSec;
  if (r.next === 'canceled') set.canceled_at = nowSec;
  if (r.next === 'sent') set.sent_at = nowSec;
  const cols = Object.keys(set);
  store.prep(`UPDATE campaigns SET ${cols.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...set, id: c.id });
  return r.next;
}

/** The worker's job: scheduled campaigns whose time has come start sending. */
export function startDue(store: MailerStore, nowSec: number): number {
  const due = store.prep("SELECT * FROM campaigns WHERE status = 'scheduled' AND scheduled_at IS NOT NULL AND scheduled_at <= ?").all(nowSec) as RawCampaign[];
  for (const c of due) moveCampaign(store, c, 'due', nowSec);
  return due.length;
}

// ---- reads

/**
 * The sample's figures per subject: sent, delivered, and opened — up to `end` (the window's end:
 * an open is planned when its message is delivered, so the count is the same however late the
 * worker looks), or so far when `end` is null.
 */
export function sampleFigures(store: MailerStore, campaignId: number, end: number | null): Record<Variant, VariantFigures & { sent: number }> {
  const rows = store
    .prep(
      `SELECT ab.variant AS v, count(x.subscriber_id) AS sent, coalesce(sum(x.status NOT IN ('bounced', 'failed')), 0) AS delivered,
        coalesce(sum(CASE WHEN @end IS NULL THEN x.opened_at IS NOT NULL ELSE coalesce(x.opened_at, x.open_due) <= @end END), 0) AS opened
       FROM ab_sample ab LEFT JOIN sends x ON x.campaign_id = ab.campaign_id AND x.subscriber_id = ab.subscriber_id
       WHERE ab.campaign_id = @cid GROUP BY ab.variant`,
    )
    .all({ cid: campaignId, end }) as { v: Variant; sent: number; delivered: number; opened: number }[];
  const out = { a: { sent: 0, delivered: 0, opened: 0 }, b: { sent: 0, delivered: 0, opened: 0 } };
  for (const r of rows) out[r.v] = { sent: r.sent, delivered: r.delivered, opened: r.opened };
  return out;
}


function countersOf(store: MailerStore, id: number) {
  const r = store
    .prep(
      `SELECT count(*) AS sent, count(opened_at) AS opened, count(clicked_at) AS clicked,
        coalesce(sum(status = 'bounced'), 0) AS bounced, coalesce(sum(status = 'failed'), 0) AS failed FROM sends WHERE campaign_id = ?`,
    )
    .get(id) as { sent: number; opened: number; clicked: number; bounced: number; failed: number };
  const delivered = r.sent - r.bounced - r.failed;
  const rate = (n: number) => (delivered > 0 ? Math.round((n / delivered) * 10_000) / 10_000 : 0);
  return { counters: { ...r, delivered }, rates: { open: rate(r.opened), click: rate(r.clicked), bounce: r.sent > 0 ? Math.round((r.bounced / r.sent) * 10_000) / 10_000 : 0 } };
}

/** The record's `subject_test`: its settings (defaults filled in), where it is, the sample's figures so far, the pick and what it was made on. */
function subjectTestWire(store: MailerStore, c: RawCampaign, f: Required<CampaignFields>) {
  const test = testOf(f);
  if (!test) return null;
  const live = c.ab_sample_size ? sampleFigures(store, c.id, null) : null;
  const side = (v: Variant) => ({ subject: v === 'b' ? test.subjectB : f.subject, sent: live?.[v].sent ?? 0, delivered: live?.[v].delivered ?? 0, opened: live?.[v].opened ?? 0, open_rate: live ? openRate(live[v]) : 0 });
  const decided = c.ab_result ? (JSON.parse(c.ab_result) as Record<Variant, VariantFigures>) : null;
  const figures = (v: Variant) => (decided ? { delivered: decided[v].delivered, opened: decided[v].opened, open_rate: openRate(decided[v]) } : null);
  return {
    subject_b: test.subjectB,
    sample_percent: test.samplePercent,
    window_minutes: test.windowMinutes,
    phase: c.ab_phase ?? null,
    sample_size: c.ab_sample_size ?? null,
    sample_sent_at: c.ab_sample_done_at ?? null,
    window_ends_at: c.ab_sample_done_at != null ? windowEndOf(c.ab_sample_done_at, test.windowMinutes) : null,
    variants: { a: side('a'), b: side('b') },
    winner: c.ab_winner ?? null,
    winner_picked_at: c.ab_picked_at ?? null,
    decided_by: c.ab_decided_by ?? null,
    decision: decided ? { a: figures('a'), b: figures('b') } : null,
  };
}

export function campaignWire(store: MailerStore, c: RawCampaign) {
  const f = fieldsOf(c);
  const state = stateOf(c);
  const { counters, rates } = countersOf(store, c.id);
  return {
    id: c.id,
    name: c.name,
    status: state,
    ...f,
    list_ids: listIdsOf(c),
    segment_id: c.segment_id,
    template_id: c.template_id ?? null,
    subject_test: subjectTestWire(store, c, f),
    counters,
    rates,
    missing: missingOf(c),
    next_moves: nextMoves(state),
    scheduled_at: c.scheduled_at,
    started_at: c.started_at,
    paused_at: c.paused_at,
    sent_at: c.sent_at,
    canceled_at: c.canceled_at,
    stopped: state === 'stopped' ? { at: c.stopped_at, reason: c.stop_reason, detail: c.stop_reason ? (STOP_REASONS[c.stop_reason] ?? null) : null } : null,
    created_at: c.created_at,
    updated_at: c.updated_at ?? c.created_at,
  };
}

export function campaignTable(store: MailerStore, status: CampaignState | null, limit: number, offset: number) {
  const where = status ? 'WHERE status = ?' : '';
  const args = status ? [status] : [];
  const total = (store.prep(`SELECT count(*) AS n FROM campaigns ${where}`).get(...args) as { n: number }).n;
  const rows = store.prep(`SELECT * FROM campaigns ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as RawCampaign[];
  const counts = Object.fromEntries(CAMPAIGN_STATES.map((s) => [s, 0])) as Record<CampaignState, number>;
  for (const r of store.prep('SELECT status, count(*) AS n FROM campaigns GROUP BY status').all() as { status: string; n: number }[]) if (isState(r.status)) counts[r.status] = r.n;
  return { rows, total, counts };
}

type Known = Parameters<typeof checkDefinition>[1]['known'];

/**
 * The condition (over `s`, the subscribers) of being on one of the lists (any list when none is
 * given) and matching the segment; `joinedBy`: on one of them since that time or before (the
 * audience a campaign had when it went out).
 */
export function audienceWhere(store: MailerStore, listIds: number[], segmentId: number | null, nowSec: number, known: Known, params: Record<string, unknown>, joinedBy?: number): string {
  const since = joinedBy === undefined ? '' : ((params.joined_by = joinedBy), ' AND am.since <= @joined_by');
  const onList = listIds.length
    ? `EXISTS (SELECT 1 FROM memberships am WHERE am.subscriber_id = s.id AND am.status = 'subscribed'${since} AND am.list_id IN (${listIds.map((id, k) => ((params[`l${k}`] = id), `@l${k}`)).join(', ')}))`
    : `EXISTS (SELECT 1 FROM memberships am WHERE am.subscriber_id = s.id AND am.status = 'subscribed'${since})`;
  let cond = '1';
  if (segmentId !== null) {
    const seg = store.segment(segmentId);
    // a segment deleted under a campaign that is already out: its lists alone
    if (seg) cond = groupSql(checkDefinition(JSON.parse(seg.definition), { flavor: 'spec', lenient: true, known }).group, nowSec, params);
  }
  return `(${cond}) AND ${onList}`;
}

/** Who can be mailed at all: subscribed and not suppressed overall. */
export const MAILABLE = "s.status = 'subscribed' AND s.suppressed = 0";

/**
 * Who a campaign of these lists and segment would reach now: subscribed, not suppressed, subscribed
 * on one of the lists (any list when none is given), matching the segment when there is one.
 */
export function audienceCount(store: MailerStore, listIds: number[], segmentId: number | null, nowSec: number, known: Known) {
  const params: Record<string, unknown> = {};
  const base = `FROM subscribers s WHERE ${audienceWhere(store, listIds, segmentId, nowSec, known, params)}`;
  const matching = (store.db.prepare(`SELECT count(*) AS n ${base}`).get(params) as { n: number }).n;
  const count = (store.db.prepare(`SELECT count(*) AS n ${base} AND ${MAILABLE}`).get(params) as { n: number }).n;
  return { count, left_out: matching - count };
}
