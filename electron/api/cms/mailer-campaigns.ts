/**
 * A CMS site's mailing plugin, its campaign routes (document 2, "Mailing plugin routes" →
 * Campaigns; docs/mailer-campaigns.md). Tolerant as the audience's reader (mailer.ts): times in
 * epoch seconds or ISO text, counts as numbers or numeric text, a record without `next_moves`
 * given the moves its state allows, a row that cannot be read set aside with its place and field.
 */
import type { CallOptions, Transport } from '../transport';
import type { MailerOverview, MailerTemplate, CampaignAudience, CampaignCatchUp, CampaignCounters, CampaignResend, CampaignLink, CampaignMove, CampaignPage, CampaignPreview, CampaignSend, CampaignSendPage, CampaignStatus, CampaignTimeline, MailerBase, MailerCampaign, SubjectTest, SubjectVariant } from '../../contract';
import { CAMPAIGN_MOVES, CAMPAIGN_STATUSES, isPlainObject, MOVES_OF, SUBJECT_TEST_PHASES } from '../../contract';
import { isoOf, mailerWire as w, refusedFields } from './mailer';
import { request } from './envelope';

const isStatus = (x: unknown): x is CampaignStatus => typeof x === 'string' && (CAMPAIGN_STATUSES as readonly string[]).includes(x);
const isMove = (x: unknown): x is CampaignMove => typeof x === 'string' && (CAMPAIGN_MOVES as readonly string[]).includes(x);
const rate = (x: unknown): number => {
  const n = typeof x === 'string' ? Number(x) : x;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.min(1, n) : 0;
};

const variantOf = (raw: unknown): SubjectVariant => {
  const x = isPlainObject(raw) ? raw : {};
  return { subject: w.text(x.subject), sent: w.count(x.sent), delivered: w.count(x.delivered), opened: w.count(x.opened), openRate: rate(x.open_rate) };
};
const decidedOf = (raw: unknown) => {
  const x = isPlainObject(raw) ? raw : {};
  return { delivered: w.count(x.delivered), opened: w.count(x.opened), openRate: rate(x.open_rate) };
};

/** The record's `subject_test` (null without one); a winner other than a or b is no winner. */
export function subjectTestOf(raw: unknown): SubjectTest | null {
  if (!isPlainObject(raw)) return null;
  const v = isPlainObject(raw.variants) ? raw.variants : {};
  const d = isPlainObject(raw.decision) ? raw.decision : null;
  return {
    subjectB: w.text(raw.subject_b),
    samplePercent: w.int(raw.sample_percent),
    windowMinutes: w.int(raw.window_minutes),
    phase: (SUBJECT_TEST_PHASES as readonly unknown[]).includes(raw.phase) ? (raw.phase as SubjectTest['phase']) : null,
    sampleSize: w.int(raw.sample_size),
    sampleSentAt: isoOf(raw.sample_sent_at),
    windowEndsAt: isoOf(raw.window_ends_at),
    variants: { a: variantOf(v.a), b: variantOf(v.b) },
    winner: raw.winner === 'a' || raw.winner === 'b' ? raw.winner : null,
    winnerPickedAt: isoOf(raw.winner_picked_at),
    decidedBy: w.text(raw.decided_by),
    decision: d ? { a: decidedOf(d.a), b: decidedOf(d.b) } : null,
  };
}

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
    bodyMd: typeof raw.body_md === 'string' && raw.body_md !== '' ? raw.body_md : null,
    trackOpens: raw.track_opens === undefined ? true : w.bool(raw.track_opens),
    trackClicks: raw.track_clicks === undefined ? true : w.bool(raw.track_clicks),
    subjectB: w.text(raw.subject_b),
    abSamplePercent: w.int(raw.ab_sample_percent),
    abWindowMinutes: w.int(raw.ab_window_minutes),
    subjectTest: subjectTestOf(raw.subject_test),
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

function sendOf(raw: unknown): CampaignSend {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the send itself)');
  return {
    id: w.need(w.int(raw.id), 'id'),
    subscriberId: w.int(raw.subscriber_id),
    email: w.plain(raw.email),
    name: w.plain(raw.name),
    status: w.need(w.text(raw.status), 'status'),
    attempts: Math.max(1, w.count(raw.attempts)),
    sentAt: isoOf(raw.sent_at),
    openedAt: isoOf(raw.opened_at),
    clickedAt: isoOf(raw.clicked_at),
    error: w.text(raw.error),
  };
}

function linkOf(raw: unknown): CampaignLink {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the link itself)');
  return { url: w.need(w.text(raw.url), 'url'), clicks: w.count(raw.clicks), uniqueClicks: w.count(raw.unique_clicks), inBody: w.bool(raw.in_body) };
}

function previewOf(raw: unknown): CampaignPreview {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the preview itself)');
  return {
    subject: w.text(raw.subject),
    preheader: w.text(raw.preheader),
    layout: raw.layout === 'store' || raw.layout === 'plain' ? raw.layout : null,
    html: w.need(typeof raw.html === 'string' ? raw.html : null, 'html'),
    text: w.plain(raw.text),
    missing: Array.isArray(raw.missing) ? raw.missing.filter((m): m is string => typeof m === 'string') : [],
  };
}

function timelineOf(raw: unknown): CampaignTimeline {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the timeline itself)');
  const hours = Array.isArray(raw.hours) ? raw.hours : [];
  return {
    startedAt: isoOf(raw.started_at),
    hours: hours.slice(0, 48).flatMap((h, i) => (isPlainObject(h) ? [{ hour: w.int(h.hour) ?? i, from: isoOf(h.from), sent: w.count(h.sent), opened: w.count(h.opened), clicked: w.count(h.clicked) }] : [])),
  };
}

/** An edit's changes as the site names them. */
const FIELD_NAMES: Record<string, string> = {
  bodyMd: 'body_md',
  fromName: 'from_name',
  fromEmail: 'from_email',
  replyTo: 'reply_to',
  trackOpens: 'track_opens',
  trackClicks: 'track_clicks',
  subjectB: 'subject_b',
  abSamplePercent: 'ab_sample_percent',
  abWindowMinutes: 'ab_window_minutes',
  listIds: 'list_ids',
  segmentId: 'segment_id',
  templateId: 'template_id',
  isActive: 'is_active',
};
export const campaignBody = (changes: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(changes).map(([k, val]) => [FIELD_NAMES[k] ?? k, val]));
/** The site's field names back as the channel's (`changes.bodyMd`). */
const INPUT_NAMES: Record<string, string> = Object.fromEntries(Object.entries(FIELD_NAMES).map(([k, val]) => [val, k]));
const inputOf = (prefix: string) => (f: string) => `${prefix}${INPUT_NAMES[f] ?? (f === 'list_id' ? 'listIds' : f)}`;

export function templateOf(raw: unknown): MailerTemplate {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the template itself)');
  return {
    id: w.need(w.int(raw.id), 'id'),
    name: w.need(w.text(raw.name), 'name'),
    subject: w.text(raw.subject),
    preheader: w.text(raw.preheader),
    bodyMd: typeof raw.body_md === 'string' && raw.body_md !== '' ? raw.body_md : null,
    layout: raw.layout === 'plain' ? 'plain' : 'store',
    isActive: raw.is_active === undefined ? true : w.bool(raw.is_active),
    campaigns: w.count(raw.campaigns),
    missing: Array.isArray(raw.missing) ? raw.missing.filter((m): m is string => typeof m === 'string') : [],
    createdAt: isoOf(raw.created_at),
    updatedAt: isoOf(raw.updated_at),
  };
}

const SEVERITIES = new Set(['error', 'warning', 'info']);

function overviewOf(raw: unknown): Omit<MailerOverview, 'copiedAt'> {
  if (!isPlainObject(raw)) throw new w.Unreadable('(the overview itself)');
  const counts = isPlainObject(raw.counts) ? raw.counts : {};
  const subs = isPlainObject(counts.subscribers) ? counts.subscribers : {};
  const camps = isPlainObject(counts.campaigns) ? counts.campaigns : {};
  const g = isPlainObject(raw.growth) ? raw.growth : {};
  const series = Array.isArray(g.series) ? g.series : [];
  const subscribers = { pending: w.count(subs.pending), subscribed: w.count(subs.subscribed), unsubscribed: w.count(subs.unsubscribed), bounced: w.count(subs.bounced), complained: w.count(subs.complained), total: 0 };
  subscribers.total = subs.total === undefined ? subscribers.pending + subscribers.subscribed + subscribers.unsubscribed + subscribers.bounced + subscribers.complained : w.count(subs.total);
  const campaigns = Object.fromEntries(CAMPAIGN_STATUSES.map((st) => [st, w.count(camps[st])])) as Record<CampaignStatus, number> & { total: number };
  campaigns.total = camps.total === undefined ? CAMPAIGN_STATUSES.reduce((a, st) => a + campaigns[st], 0) : w.count(camps.total);
  return {
    subscribers,
    campaigns,
    growth: {
      days: w.count(g.days) || series.length,
      joined: w.count(g.joined),
      left: w.count(g.left),
      net: w.int(g.net) ?? 0,
      series: series.flatMap((d) => (isPlainObject(d) && isoOf(d.day) ? [{ day: isoOf(d.day)!, joined: w.count(d.joined), left: w.count(d.left), net: w.int(d.net) ?? 0, subscribed: w.count(d.subscribed) }] : [])),
    },
    recent: (Array.isArray(raw.recent_campaigns) ? raw.recent_campaigns : []).flatMap((c) => {
      if (!isPlainObject(c) || w.int(c.id) === null || !isStatus(c.status)) return [];
      const counters = isPlainObject(c.counters) ? c.counters : {};
      const rates = isPlainObject(c.rates) ? c.rates : {};
      return [{ id: w.int(c.id)!, name: w.plain(c.name), status: c.status, sentAt: isoOf(c.sent_at), scheduledAt: isoOf(c.scheduled_at), sent: w.count(counters.sent), openRate: rate(rates.open), clickRate: rate(rates.click) }];
    }),
    alerts: (Array.isArray(raw.alerts) ? raw.alerts : []).flatMap((a) =>
      isPlainObject(a) && typeof a.code === 'string'
        ? [{ code: a.code, severity: (SEVERITIES.has(a.severity as string) ? a.severity : 'info') as 'error' | 'warning' | 'info', title: w.plain(a.title) || a.code, detail: w.plain(a.detail), campaignId: w.int(a.campaign_id) }]
        : [],
    ),
  };
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

  async update(t: Transport, b: MailerBase, id: number, changes: Record<string, unknown>): Promise<MailerCampaign> {
    const call: CallOptions = { method: 'PATCH', path: p(b, `/${cid(id)}`), body: campaignBody(changes) };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, inputOf('changes.')));
    return w.one(t, 'the campaign', call, r.data, campaignOf);
  },

  async preview(t: Transport, b: MailerBase, id: number, draft: Record<string, unknown> | null): Promise<CampaignPreview> {
    const call: CallOptions = draft ? { method: 'POST', path: p(b, `/${cid(id)}/preview`), body: campaignBody(draft) } : { path: p(b, `/${cid(id)}/preview`) };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, inputOf('draft.')));
    return w.one(t, 'the preview', call, r.data, previewOf);
  },

  async test(t: Transport, b: MailerBase, id: number, email: string): Promise<{ subject: string; sentAt: string | null }> {
    const call: CallOptions = { method: 'POST', path: p(b, `/${cid(id)}/test`), body: { email } };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    const d = isPlainObject(r.data) ? r.data : {};
    return { subject: w.plain(d.subject), sentAt: isoOf(d.sent_at) };
  },

  async sends(t: Transport, b: MailerBase, id: number, q: { status?: string | undefined; page: number; perPage: number }): Promise<CampaignSendPage> {
    const call: CallOptions = { path: p(b, `/${cid(id)}/sends`), query: { ...(q.status ? { status: q.status } : {}), page: String(q.page), per_page: String(q.perPage) } };
    const r = await w.paged(t, call, 'the sends', sendOf, q);
    const counts = isPlainObject(r.meta.status_counts) ? Object.fromEntries(Object.entries(r.meta.status_counts).map(([k, n]) => [k, w.count(n)])) : null;
    return { items: r.items, unreadable: r.unreadable, total: r.paging.total ?? r.items.length, page: r.page, perPage: r.perPage, next: r.next, statusCounts: counts };
  },

  async links(t: Transport, b: MailerBase, id: number): Promise<{ links: CampaignLink[]; totalClicks: number; uniqueClickers: number }> {
    const call: CallOptions = { path: p(b, `/${cid(id)}/links`) };
    const r = await request(t, call);
    const list = Array.isArray(r.data) ? r.data : [];
    const meta = isPlainObject(r.meta) ? r.meta : {};
    const links = list.flatMap((x) => {
      try {
        return [linkOf(x)];
      } catch {
        return [];
      }
    });
    return { links, totalClicks: w.count(meta.total_clicks), uniqueClickers: w.count(meta.unique_clickers) };
  },

  async timeline(t: Transport, b: MailerBase, id: number): Promise<CampaignTimeline> {
    const call: CallOptions = { path: p(b, `/${cid(id)}/timeline`) };
    const r = await request(t, call);
    return w.one(t, 'the timeline', call, r.data, timelineOf);
  },

  async catchUp(t: Transport, b: MailerBase, id: number): Promise<CampaignCatchUp> {
    const call: CallOptions = { path: p(b, `/${cid(id)}/catch-up`) };
    const r = await request(t, call);
    const d = isPlainObject(r.data) ? r.data : {};
    return w.one(t, 'the catch-up', call, d, (x) => {
      const o = x as Record<string, unknown>;
      return { count: w.need(w.int(o.count), 'count'), since: isoOf(o.since), canSend: o.can_send === undefined ? true : w.bool(o.can_send) };
    });
  },

  async resend(t: Transport, b: MailerBase, id: number, what: 'catch-up' | 'retry-failed', body: Record<string, unknown>): Promise<CampaignResend> {
    const call: CallOptions = { method: 'POST', path: p(b, `/${cid(id)}/${what}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => (f === 'send_id' ? 'sendId' : f)));
    const d = isPlainObject(r.data) ? r.data : {};
    let campaign: MailerCampaign | null = null;
    try {
      campaign = d.campaign === undefined ? null : campaignOf(d.campaign);
    } catch {
      campaign = null;
    }
    return { sent: w.count(d.sent), delivered: w.count(d.delivered), bounced: w.count(d.bounced), failed: w.count(d.failed), retried: w.count(d.retried), skipped: w.count(d.skipped), campaign };
  },

  async overview(t: Transport, b: MailerBase, days: number | undefined): Promise<Omit<MailerOverview, 'copiedAt'>> {
    const call: CallOptions = { path: w.path(b, '/overview'), ...(days ? { query: { days: String(days) } } : {}) };
    const r = await request(t, call);
    return w.one(t, 'the mailer’s overview', call, r.data, overviewOf);
  },

  async templates(t: Transport, b: MailerBase): Promise<MailerTemplate[]> {
    const call: CallOptions = { path: w.path(b, '/templates') };
    const r = await request(t, call);
    const list = Array.isArray(r.data) ? r.data : [];
    return list.flatMap((x) => {
      try {
        return [templateOf(x)];
      } catch {
        return [];
      }
    });
  },

  async template(t: Transport, b: MailerBase, id: number): Promise<MailerTemplate> {
    const call: CallOptions = { path: w.path(b, `/templates/${w.idSegment(id, 'template id')}`) };
    const r = await request(t, call);
    return w.one(t, 'the template', call, r.data, templateOf);
  },

  async createTemplate(t: Transport, b: MailerBase, body: Record<string, unknown>): Promise<MailerTemplate> {
    const call: CallOptions = { method: 'POST', path: w.path(b, '/templates'), body: campaignBody(body) };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, inputOf('')));
    return w.one(t, 'the new template', call, r.data, templateOf);
  },

  async updateTemplate(t: Transport, b: MailerBase, id: number, changes: Record<string, unknown>): Promise<MailerTemplate> {
    const call: CallOptions = { method: 'PATCH', path: w.path(b, `/templates/${w.idSegment(id, 'template id')}`), body: campaignBody(changes) };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, inputOf('changes.')));
    return w.one(t, 'the template', call, r.data, templateOf);
  },

  async deleteTemplate(t: Transport, b: MailerBase, id: number): Promise<void> {
    await request(t, { method: 'DELETE', path: w.path(b, `/templates/${w.idSegment(id, 'template id')}`) });
  },

  async previewTemplate(t: Transport, b: MailerBase, id: number, draft: Record<string, unknown> | null): Promise<CampaignPreview> {
    const path = w.path(b, `/templates/${w.idSegment(id, 'template id')}/preview`);
    const call: CallOptions = draft ? { method: 'POST', path, body: campaignBody(draft) } : { path };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, inputOf('draft.')));
    return w.one(t, 'the preview', call, r.data, previewOf);
  },

  async remove(t: Transport, b: MailerBase, id: number): Promise<void> {
    await request(t, { method: 'DELETE', path: p(b, `/${cid(id)}`) });
  },
};
