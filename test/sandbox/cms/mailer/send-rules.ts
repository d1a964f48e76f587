/**
 * The sending worker's rules (docs/mailer-campaigns.md, "Sending"), pure: no store, no clock. How
 * many messages the clock allows since the worker's mark, what becomes of one message (delivered,
 * bounced, failed) and whether and when its reader opens and clicks, and when the sender stops a
 * campaign by itself. Every outcome is a hash of the recipient's id (and the attempt, or the
 * campaign), so a run is the same however the clock is moved and however often the worker looks.
 */

export interface SendKnobs {
  /** messages per second of the sandbox's clock; 0 = as fast as it can */
  sendRate: number;
  /** the share of recipients whose address bounces (hard), in percent */
  bouncePercent: number;
  /** the share of attempts the provider refuses for now (a retry may go through), in percent */
  failPercent: number;
  /** the bounce share of a run above which the sender stops the campaign, in percent (0 = never) */
  stopBouncePercent: number;
}

export const DEFAULT_SEND_KNOBS: SendKnobs = { sendRate: 50, bouncePercent: 2, failPercent: 3, stopBouncePercent: 10 };

/** sends of a run before its bounce share is judged: the first bounces of a run say little */
export const STOP_SAMPLE = 50;
/** the most one worker step sends, so a half-million campaign does not hold the server for seconds */
export const STEP_MAX = 20_000;
/** opens and clicks of a campaign's readers come within this of its message */
export const ENGAGEMENT_WINDOW_SECONDS = 24 * 3600;

export type Outcome = 'delivered' | 'bounced' | 'failed';

/** 0 … 9999 for `n` and question `k` (Knuth's multiplicative hash, one multiplier per question). */
const MULTIPLIERS = [2654435761, 2246822519, 3266489917, 668265263, 374761393, 1597334677, 2869860233];
export const bucket = (n: number, k: number): number => Number((BigInt(n) * BigInt(MULTIPLIERS[k % MULTIPLIERS.length]!) + BigInt(k)) % 1000003n) % 10_000;

const share = (percent: number) => Math.round(Math.max(0, Math.min(100, percent)) * 100);

/**
 * What becomes of attempt `attempt` (1 the first) to mail `subscriberId`. A bounce is the address's
 * (every attempt to it bounces); a failure is the attempt's (the provider's "try later").
 */
export function outcomeOf(subscriberId: number, attempt: number, k: Pick<SendKnobs, 'bouncePercent' | 'failPercent'>): Outcome {
  if (bucket(subscriberId, 0) < share(k.bouncePercent)) return 'bounced';
  if (bucket(subscriberId * 31 + attempt, 1) < share(k.failPercent)) return 'failed';
  return 'delivered';
}

export interface Engagement {
  /** when the reader opens it (epoch seconds), or null: never (or opens are not tracked) */
  openAt: number | null;
  clickAt: number | null;
  /** which of the message's links the reader clicks */
  url: string | null;
}

/**
 * Whether and when the reader of a delivered message opens it (about 40 %) and clicks one of its
 * links (about a quarter of openers), within a day of `sentAt`; per campaign, so a person is not
 * the same reader of every campaign.
 */
export function engagementOf(campaignId: number, subscriberId: number, sentAt: number, links: string[], track: { opens: boolean; clicks: boolean }): Engagement {
  const n = subscriberId * 7919 + campaignId;
  const opens = bucket(n, 2) < 4000;
  // most open within the first hours, a tail over the day
  const delay = 60 + Math.floor(((bucket(n, 3) / 10_000) ** 2) * (ENGAGEMENT_WINDOW_SECONDS - 600));
  const clicks = opens && links.length > 0 && bucket(n, 4) < 2500;
  return {
    openAt: opens && track.opens ? sentAt + delay : null,
    clickAt: clicks && track.clicks ? sentAt + delay + 120 : null,
    url: clicks && track.clicks ? links[bucket(n, 5) % links.length]! : null,
  };
}

/**
 * How many messages the clock allows since the worker's mark (epoch ms: where its last message
 * went), and the sent time of each: message i (0 the first) goes at mark + (i + 1) / rate, so the
 * times are the same whether the worker looks every 200 ms or once after an hour's `advance`.
 */
export function allowance(markMs: number, nowMs: number, rate: number): number {
  if (rate <= 0) return STEP_MAX;
  return Math.max(0, Math.min(STEP_MAX, Math.floor(((nowMs - markMs) * rate) / 1000)));
}

export const sentAtMs = (markMs: number, i: number, rate: number): number => (rate <= 0 ? markMs : markMs + ((i + 1) * 1000) / rate);

/** The mark after `sent` messages, and at most `nowMs` (a rate of 0 sends at once, at now). */
export const nextMark = (markMs: number, sent: number, rate: number, nowMs: number): number => (rate <= 0 ? nowMs : Math.min(nowMs, markMs + (sent * 1000) / rate));

/**
 * Whether the sender stops the run: its bounce share (bounced of sent, since it last started or
 * resumed) is above the limit once the run has `STOP_SAMPLE` sends.
 */
export function bounceStop(run: { sent: number; bounced: number }, stopBouncePercent: number): boolean {
  if (stopBouncePercent <= 0 || run.sent < STOP_SAMPLE) return false;
  return run.bounced / run.sent > stopBouncePercent / 100;
}

/** Why the sender stopped a campaign, said to the caller (the record's `stopped`). */
export const STOP_REASONS: Record<string, string> = {
  bounce_limit: "Too many of this run's messages bounced (a hard bounce each): check where the list came from, then resume or cancel the campaign.",
};
