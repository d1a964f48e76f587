/**
 * A CMS site's mailing plugin, its campaign routes (document 2, "Mailing plugin routes" →
 * Campaigns; docs/mailer-campaigns.md). Tolerant as the audience's reader (mailer.ts): times in
 * epoch seconds or ISO text, counts as numbers or numeric text, a record without `next_moves`
 * given the moves its state allows, a row that cannot be read set aside with its place and field.
 */
import type { CallOptions, Transport } from '../transport';
import type { CampaignAudience, CampaignCounters, CampaignMove, CampaignPage, CampaignStatus, MailerBase, MailerCampaign } from '../../contract';
import { CAMPAIGN_MOVES, CAMPAIGN_STATUSES, isPlainObject, MOVES_OF } from '../../contract';
import { isoOf, mailerWire as w, refusedFields } from './mailer';
import { request } from './envelope';

const isStatus = (x: unknown): x is CampaignStatus => typeof x === 'string' && (CAMPAIGN_STATUSES as readonly string[]).includes(x);
const isMove = (x: unknown): x is CampaignMove => typeof x === 'string' && (CAMPAIGN_MOVES as readonly string[]).includes(x);
const rate = (x: unknown): number => {
  const n = typeof x === 'string' ? Number(x) : x;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.min(1, n) : 0;
};

export function campaignOf(raw: unknown): MailerCampaign {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the campaign itself)');
  const status = w.need(isStatus(raw.status) ? raw.status : null, 'status');
  const c = isPlainObject(raw.counters) ? raw.counters : {};
  const r = isPlainObject(raw.rates) ? raw.rates : {};
  const counters: CampaignCounters = { sent: w.count(c.sent), delivered: w.count(c.delivered), opened: w.count(c.opened), clicked: w.count(c.clicked), bounced: w.count(c.bounced), failed: w.count(c.failed) };
  const listIds = Array.isArray(raw.list_ids) ? raw.list_ids.map(w.int).filter((n): n is number => n !== null) : w.int(raw.list_id) !== null ? [w.int(raw.list_id)!] : [];
  return {
    id: w.need(w.int(raw.id), 'id'),
    name: w.plain(raw.name),
    status,
    subject: w.text(raw.subject),
    preheader: w.text(raw.preheader),
    layout: raw.layout === 'store' || raw.layout === 'plain' ? raw.layout : null,
    fromName: w.text(raw.from_name),
    fromEmail: w.text(raw.from_email),
    replyTo: w.text(raw.reply_to),
    listIds,
    segmentId: w.int(raw.segment_id),
    counters,
    rates: { open: rate(r.open), click: rate(r.click), bounce: rate(r.bounce) },
    missing: Array.isArray(raw.missing) ? raw.missing.filter((m): m is string => typeof m === 'string') : [],
    nextMoves: Array.isArray(raw.next_moves) ? raw.next_moves.filter(isMove) : [...MOVES_OF[status]],
    scheduledAt: isoOf(raw.scheduled_at),
    startedAt: isoOf(raw.started_at),
    pausedAt: isoOf(raw.paused_at),
    sentAt: isoOf(raw.sent_at),
    canceledAt: isoOf(raw.canceled_at),
    createdAt: isoOf(raw.created_at),
    updatedAt: isoOf(raw.updated_at),
  };
}

function statusCountsOf(raw: unknown): Record<CampaignStatus, number> | null {
  if (!isPlainObject(raw)) return null;
  return Object.fromEntries(CAMPAIGN_STATUSES.map((s) => [s, w.count(raw[s])])) as Record<CampaignStatus, number>;
}

const p = (b: MailerBase, path: string) => w.path(b, `/campaigns${path}`);
const cid = (n: number) => w.idSegment(n, 'campaign id');

export const cmsMailerCampaigns = {
  async campaigns(t: Transport, b: MailerBase, q: { status?: CampaignStatus | undefined; page: number; perPage: number }): Promise<Omit<CampaignPage, 'copiedAt'>> {
    const call: CallOptions = { path: p(b, ''), query: { ...(q.status ? { status: q.status } : {}), page: String(q.page), per_page: String(q.perPage) } };
    const r = await w.paged(t, call, 'the campaigns', campaignOf, q);
    return { items: r.items, unreadable: r.unreadable, total: r.paging.total ?? r.items.length, page: r.page, perPage: r.perPage, next: r.next, statusCounts: statusCountsOf(r.meta.status_counts) };
  },

  async campaign(t: Transport, b: MailerBase, id: number): Promise<MailerCampaign> {
    const call: CallOptions = { path: p(b, `/${cid(id)}`) };
    const r = await request(t, call);
    return w.one(t, 'the campaign', call, r.data, campaignOf);
  },

  async audience(t: Transport, b: MailerBase, q: { listIds: number[]; segmentId: number | null }): Promise<CampaignAudience> {
    const call: CallOptions = { path: p(b, '/audience'), query: { ...(q.listIds.length ? { lists: q.listIds.join(',') } : {}), ...(q.segmentId !== null ? { segment: String(q.segmentId) } : {}) } };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => (f === 'lists' ? 'listIds' : f === 'segment' ? 'segmentId' : f)));
    const d = isPlainObject(r.data) ? r.data : {};
    return w.one(t, 'the audience', call, d, (x) => ({ count: w.need(w.int((x as Record<string, unknown>).count), 'count'), leftOut: w.count((x as Record<string, unknown>).left_out) }));
  },

  async create(t: Transport, b: MailerBase, body: Record<string, unknown>): Promise<MailerCampaign> {
    const call: CallOptions = { method: 'POST', path: p(b, ''), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => (f === 'list_id' ? 'listIds' : f.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase()))));
    return w.one(t, 'the new campaign', call, r.data, campaignOf);
  },

  async move(t: Transport, b: MailerBase, id: number, move: 'start' | 'pause' | 'resume' | 'cancel', scheduledAt: string | null): Promise<MailerCampaign> {
    const body = move === 'start' && scheduledAt ? { scheduled_at: Math.floor(Date.parse(scheduledAt) / 1000) } : {};
    const call: CallOptions = { method: 'POST', path: p(b, `/${cid(id)}/${move}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => (f === 'scheduled_at' ? 'scheduledAt' : f)));
    return w.one(t, 'the campaign', call, r.data, campaignOf);
  },

  async remove(t: Transport, b: MailerBase, id: number): Promise<void> {
    await request(t, { method: 'DELETE', path: p(b, `/${cid(id)}`) });
  },
};
