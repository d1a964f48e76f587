/**
 * The mailer's overview (document 2 `GET mailer/overview`: counts by status, growth, recent
 * campaigns, alerts; docs/mailer-campaigns.md, "Overview"): the rules are pure (`growthSeries`,
 * `alertsOf`), the facts they need are read from the store by `overviewOf`.
 */
import { CAMPAIGN_STATES, type CampaignState } from './campaign-states';
import { campaignWire, missingOf, stateOf } from './campaigns';
import { LABELS, type AlertCode } from './labels';
import { STOP_REASONS } from './send-rules';
import type { MailerStore, RawCampaign } from './store';

export const DAY = 86_400;
export const GROWTH_DAYS_DEFAULT = 30;
export const GROWTH_DAYS_MIN = 7;
export const GROWTH_DAYS_MAX = 90;
export const RECENT_CAMPAIGNS = 5;
/** a sent campaign's bounce share above this is worth a look (the sender's stop limit is higher) */
export const BOUNCE_ALERT_RATE = 0.05;
/** how far back a sent campaign's bounces or an import's failure is still news */
export const ALERT_LOOKBACK_DAYS = { bounces: 30, imports: 7 } as const;

export interface GrowthDay {
  /** the UTC day's first second */
  day: number;
  joined: number;
  left: number;
  net: number;
  /** subscribed at the day's end: joined by then, not left by then, not waiting to confirm */
  subscribed: number;
}

/**
 * The daily series from `from` (a UTC midnight), `days` long: `base` subscribed before it, and per
 * day index those who joined (`joined`, everybody new; `joinedConfirmed`, those not waiting to
 * confirm) and those who left. Pure.
 */
export function growthSeries(from: number, days: number, base: number, joined: Map<number, { all: number; confirmed: number }>, left: Map<number, number>): GrowthDay[] {
  let subscribed = base;
  return Array.from({ length: days }, (_, d) => {
    const j = joined.get(d) ?? { all: 0, confirmed: 0 };
    const l = left.get(d) ?? 0;
    subscribed += j.confirmed - l;
    return { day: from + d * DAY, joined: j.all, left: l, net: j.all - l, subscribed };
  });
}

export interface CampaignFacts {
  id: number;
  name: string;
  status: CampaignState;
  missing: string[];
  failed: number;
  sent: number;
  bounced: number;
  sent_at: number | null;
  stop_reason: string | null;
}

export interface AlertFacts {
  now: number;
  workerRunning: boolean;
  campaigns: CampaignFacts[];
  failedImports: { id: number; file_name: string; finished_at: number | null; error: string | null }[];
}

export interface Alert {
  code: AlertCode;
  severity: 'error' | 'warning' | 'info';
  title: string;
  detail: string;
  campaign_id?: number;
  import_id?: number;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * What needs the admin's attention, most pressing first (errors, warnings, then information; by
 * campaign or import id within each). Each `detail` says what to do, as a problem's does. Pure.
 */
export function alertsOf(f: AlertFacts): Alert[] {
  const out: Alert[] = [];
  const add = (code: AlertCode, severity: Alert['severity'], detail: string, ref: { campaign_id?: number; import_id?: number } = {}) => out.push({ code, severity, title: LABELS.alert[code], detail, ...ref });
  if (!f.workerRunning) add('worker_stopped', 'error', "The site's job queue is not running: scheduled campaigns will not start, sending ones will not go on and imports cannot start. Run the scheduler on the site.");
  for (const c of f.campaigns) {
    const name = `“${c.name}”`;
    if (c.status === 'stopped') add('campaign_stopped', 'error', `${name} was stopped by the sender. ${c.stop_reason ? (STOP_REASONS[c.stop_reason] ?? '') : 'Resume or cancel it.'}`.trim(), { campaign_id: c.id });
    if (c.status === 'scheduled' && c.missing.length) add('campaign_not_ready', 'error', `${name} is scheduled but needs ${c.missing.join(', ')}: write them before its time, or pause it.`, { campaign_id: c.id });
    if ((c.status === 'sending' || c.status === 'sent') && c.failed > 0) add('failed_sends', 'warning', `${name} has ${c.failed} failed ${c.failed === 1 ? 'send' : 'sends'} (the provider refused them for now): retry them.`, { campaign_id: c.id });
    if (c.status === 'sent' && c.sent > 0 && c.bounced / c.sent > BOUNCE_ALERT_RATE && c.sent_at !== null && c.sent_at >= f.now - ALERT_LOOKBACK_DAYS.bounces * DAY)
      add('bounce_rate_high', 'warning', `${Math.round((c.bounced / c.sent) * 1000) / 10} % of ${name}'s messages bounced: check where its lists' addresses came from before the next campaign.`, { campaign_id: c.id });
    if (c.status === 'paused') add('campaign_paused', 'info', `${name} is paused: resume or cancel it.`, { campaign_id: c.id });
  }
  for (const i of f.failedImports) {
    if (i.finished_at !== null && i.finished_at < f.now - ALERT_LOOKBACK_DAYS.imports * DAY) continue;
    add('import_failed', 'warning', `The import of ${i.file_name} failed${i.error ? ` (${i.error.replace(/\.$/, '')})` : ''}: fix the file and import it again; rows already read were kept.`, { import_id: i.id });
  }
  return out
    .map((a, k) => ({ a, k }))
    .sort((x, y) => SEVERITY_ORDER[x.a.severity] - SEVERITY_ORDER[y.a.severity] || x.k - y.k)
    .map((x) => x.a);
}

const utcMidnight = (t: number) => t - (((t % DAY) + DAY) % DAY);

/** Everything `GET overview` answers, read now. */
export function overviewOf(store: MailerStore, nowSec: number, days: number, workerRunning: boolean) {
  const campaignCounts = Object.fromEntries(CAMPAIGN_STATES.map((s) => [s, 0])) as Record<CampaignState, number>;
  for (const r of store.prep('SELECT status, count(*) AS n FROM campaigns GROUP BY status').all() as { status: CampaignState; n: number }[]) if (r.status in campaignCounts) campaignCounts[r.status] = r.n;
  const subscriberCounts = store.statusCounts();

  const from = utcMidnight(nowSec) - (days - 1) * DAY;
  const to = from + days * DAY;
  // parameters are bound as reals: the day cast back to a whole number
  const joined = new Map(
    (store.prep("SELECT CAST((created_at - @from) / 86400 AS INTEGER) AS d, count(*) AS n, coalesce(sum(status <> 'pending'), 0) AS c FROM subscribers WHERE created_at >= @from AND created_at < @to GROUP BY d").all({ from, to }) as { d: number; n: number; c: number }[]).map((r) => [r.d, { all: r.n, confirmed: r.c }]),
  );
  const left = new Map((store.prep('SELECT CAST((unsubscribed_at - @from) / 86400 AS INTEGER) AS d, count(*) AS n FROM subscribers WHERE unsubscribed_at >= @from AND unsubscribed_at < @to GROUP BY d').all({ from, to }) as { d: number; n: number }[]).map((r) => [r.d, r.n]));
  const base = (store.prep("SELECT count(*) AS n FROM subscribers WHERE created_at < @from AND status <> 'pending' AND (unsubscribed_at IS NULL OR unsubscribed_at >= @from)").get({ from }) as { n: number }).n;
  const series = growthSeries(from, days, base, joined, left);
  const sum = (k: 'joined' | 'left') => series.reduce((a, d) => a + d[k], 0);

  const campaigns = store.prep('SELECT * FROM campaigns ORDER BY id').all() as RawCampaign[];
  const sendCounts = new Map(
    (store.prep("SELECT campaign_id AS id, count(*) AS sent, coalesce(sum(status = 'failed'), 0) AS failed, coalesce(sum(status = 'bounced'), 0) AS bounced FROM sends GROUP BY campaign_id").all() as { id: number; sent: number; failed: number; bounced: number }[]).map((r) => [r.id, r]),
  );
  const activity = (c: RawCampaign) => c.sent_at ?? c.stopped_at ?? c.paused_at ?? c.started_at ?? c.updated_at ?? c.created_at;
  const facts: CampaignFacts[] = campaigns.map((c) => {
    const n = sendCounts.get(c.id);
    return { id: c.id, name: c.name, status: stateOf(c), missing: missingOf(c), failed: n?.failed ?? 0, sent: n?.sent ?? 0, bounced: n?.bounced ?? 0, sent_at: c.sent_at, stop_reason: c.stop_reason };
  });
  const recent = [...campaigns].sort((a, b) => activity(b) - activity(a) || b.id - a.id).slice(0, RECENT_CAMPAIGNS);
  const failedImports = store.prep("SELECT id, file_name, finished_at, error FROM imports WHERE status = 'failed' ORDER BY id").all() as AlertFacts['failedImports'];

  return {
    counts: {
      subscribers: { ...subscriberCounts, total: Object.values(subscriberCounts).reduce((a, b) => a + b, 0) },
      campaigns: { ...campaignCounts, total: campaigns.length },
    },
    growth: { days, from, to, joined: sum('joined'), left: sum('left'), net: sum('joined') - sum('left'), series },
    recent_campaigns: recent.map((c) => {
      const w = campaignWire(store, c);
      return { id: w.id, name: w.name, status: w.status, scheduled_at: w.scheduled_at, started_at: w.started_at, sent_at: w.sent_at, counters: w.counters, rates: w.rates, last_activity_at: activity(c) };
    }),
    alerts: alertsOf({ now: nowSec, workerRunning, campaigns: facts, failedImports }),
  };
}
