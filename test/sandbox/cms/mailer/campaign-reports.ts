/**
 * What a campaign's reports read (docs/mailer-campaigns.md, "Sends, links, timeline"): its sends
 * page by page with their outcomes, its links with their clicks, and its first 48 hours hour by
 * hour. Reads only; the sends are the worker's (sending.ts) or the seed's.
 */
import { fieldsOf } from './campaigns';
import { linksOf } from './render';
import type { MailerStore, RawCampaign } from './store';

/** A send's furthest outcome: delivered (arrived, not opened yet), opened, clicked; bounced; failed (to retry). */
export const SEND_STATUSES = ['delivered', 'opened', 'clicked', 'bounced', 'failed'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

export const TIMELINE_HOURS = 48;

export function sendsPage(store: MailerStore, campaignId: number, status: SendStatus | null, limit: number, offset: number) {
  const where = `WHERE x.campaign_id = @cid${status ? ' AND x.status = @status' : ''}`;
  const args = { cid: campaignId, ...(status ? { status } : {}) };
  const total = (store.prep(`SELECT count(*) AS n FROM sends x ${where}`).get(args) as { n: number }).n;
  // the order they were mailed: a retry keeps its place; `variant` is the subject a subject test gave them
  const rows = store
    .prep(
      `SELECT x.id, x.subscriber_id, s.email, s.name, x.status, x.attempts, x.sent_at, x.opened_at, x.clicked_at, x.error, x.variant
       FROM sends x JOIN subscribers s ON s.id = x.subscriber_id ${where} ORDER BY x.id LIMIT @limit OFFSET @offset`,
    )
    .all({ ...args, limit, offset });
  const counts = Object.fromEntries(SEND_STATUSES.map((s) => [s, 0])) as Record<SendStatus, number>;
  for (const r of store.prep('SELECT status, count(*) AS n FROM sends WHERE campaign_id = ? GROUP BY status').all(campaignId) as { status: SendStatus; n: number }[]) if (r.status in counts) counts[r.status] = r.n;
  return { rows, total, counts };
}

/** The body's links (with no clicks yet too) and any other clicked address, most clicked first. */
export function campaignLinks(store: MailerStore, c: RawCampaign) {
  const body = linksOf(fieldsOf(c).body_md);
  const clicked = store.prep('SELECT url, count(*) AS clicks, count(DISTINCT subscriber_id) AS unique_clicks FROM clicks WHERE campaign_id = ? GROUP BY url').all(c.id) as { url: string; clicks: number; unique_clicks: number }[];
  const byUrl = new Map(clicked.map((r) => [r.url, r]));
  const rows = [...body, ...clicked.map((r) => r.url).filter((u) => !body.includes(u)).sort()].map((url) => ({
    url,
    clicks: byUrl.get(url)?.clicks ?? 0,
    unique_clicks: byUrl.get(url)?.unique_clicks ?? 0,
    in_body: body.includes(url),
  }));
  // stable: equal counts keep the body's order
  rows.sort((a, b) => b.clicks - a.clicks);
  const totals = store.prep('SELECT count(*) AS clicks, count(DISTINCT subscriber_id) AS people FROM clicks WHERE campaign_id = ?').get(c.id) as { clicks: number; people: number };
  return { rows, total_clicks: totals.clicks, unique_clickers: totals.people };
}

/**
 * Sent, opened and clicked per hour from the campaign's start (its `started_at`, or its first
 * send's time for a campaign that carries none): the hours begun by now, at most 48.
 */
export function timeline(store: MailerStore, c: RawCampaign, nowSec: number) {
  const first = (store.prep('SELECT min(sent_at) AS t FROM sends WHERE campaign_id = ?').get(c.id) as { t: number | null }).t;
  const start = c.started_at ?? first;
  if (start === null) return { started_at: null, hours: [] };
  const begun = Math.max(0, Math.min(TIMELINE_HOURS, Math.floor((nowSec - start) / 3600) + 1));
  const hours = Array.from({ length: begun }, (_, h) => ({ hour: h, from: start + h * 3600, sent: 0, opened: 0, clicked: 0 }));
  const end = start + TIMELINE_HOURS * 3600;
  for (const col of ['sent', 'opened', 'clicked'] as const) {
    const at = `${col}_at`;
    // parameters are bound as reals: the hour cast back to a whole number
    const rows = store.prep(`SELECT CAST((${at} - @start) / 3600 AS INTEGER) AS h, count(*) AS n FROM sends WHERE campaign_id = @cid AND ${at} >= @start AND ${at} < @end GROUP BY h`).all({ cid: c.id, start, end }) as { h: number; n: number }[];
    for (const r of rows) if (hours[r.h]) hours[r.h]![col] = r.n;
  }
  return { started_at: start, hours };
}
