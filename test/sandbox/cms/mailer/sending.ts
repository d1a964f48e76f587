/**
 * The sending worker (docs/mailer-campaigns.md, "Sending"): each `sending` campaign mails its
 * audience — who was on its lists when it went out, subscribed, not suppressed, matching its
 * segment — in subscriber id order at the clock's rate, into the outbox (the message log,
 * `messages`), one send per person with its outcome (send-rules.ts); a hard bounce suppresses the
 * address as the provider's report does. When nobody is left it finishes (→ `sent`, `sent_at` the
 * last message's time); when a run's bounce share passes the limit the sender stops it (→
 * `stopped`). Readers open and click on the clock too. A campaign with a subject test mails its
 * sample first (A and B by turns), waits the window, picks the winner (subject-test.ts) and mails
 * the rest with it. The same store calls make catch-up, retry and the test copy. No clock of its
 * own: every step is told the time.
 */
import { audienceWhere, fieldsOf, listIdsOf, MAILABLE, moveCampaign, sampleFigures } from './campaigns';
import { renderEmail, linksOf } from './render';
import { allowance, bounceStop, engagementOf, nextMark, outcomeOf, sentAtMs, type Outcome, type SendKnobs } from './send-rules';
import type { checkDefinition } from './segments';
import { MIN_SAMPLE, pickWinner, sampleRankSql, sampleSize, subjectOf, testOf, variantAt, windowEndOf, type Variant } from './subject-test';
import type { MailerStore, RawCampaign } from './store';

export interface SendContext {
  store: MailerStore;
  knobs: SendKnobs;
  known: Parameters<typeof checkDefinition>[1]['known'];
  /** what the provider's hard-bounce report does to a person (Audience.act 'bounce') */
  bounce: (subscriberId: number) => void;
}

interface Recipient {
  id: number;
  email: string;
  /** the subject it gets: a sample's own, the winner's, or none (no subject test) */
  variant?: Variant | null;
}

export interface Tally {
  sent: number;
  delivered: number;
  bounced: number;
  failed: number;
}

const emptyTally = (): Tally => ({ sent: 0, delivered: 0, bounced: 0, failed: 0 });

const FAILED_ERROR = 'The mail provider did not take the message this time (a temporary refusal): retry the failed sends.';

/** Who the worker has still to mail: the audience when it went out, past its cursor, not sent yet. */
function remainingWhere(ctx: SendContext, c: RawCampaign, nowSec: number, params: Record<string, unknown>): string {
  Object.assign(params, { cid: c.id, cursor: c.send_cursor });
  return `${audienceWhere(ctx.store, listIdsOf(c), c.segment_id, nowSec, ctx.known, params, c.started_at ?? nowSec)} AND ${MAILABLE}
    AND s.id > @cursor AND NOT EXISTS (SELECT 1 FROM sends x WHERE x.campaign_id = @cid AND x.subscriber_id = s.id)`;
}

export function remainingCount(ctx: SendContext, c: RawCampaign, nowSec: number): number {
  const params: Record<string, unknown> = {};
  return (ctx.store.db.prepare(`SELECT count(*) AS n FROM subscribers s WHERE ${remainingWhere(ctx, c, nowSec, params)}`).get(params) as { n: number }).n;
}

/**
 * Who catch-up would mail: in the audience now and never sent this campaign, and not still ahead
 * of the worker (a campaign that is out for good has nobody ahead).
 */
function catchUpWhere(ctx: SendContext, c: RawCampaign, nowSec: number, params: Record<string, unknown>): string {
  params.cid = c.id;
  const now = `${audienceWhere(ctx.store, listIdsOf(c), c.segment_id, nowSec, ctx.known, params)} AND ${MAILABLE}
    AND NOT EXISTS (SELECT 1 FROM sends x WHERE x.campaign_id = @cid AND x.subscriber_id = s.id)`;
  if (c.status === 'sent' || c.started_at === null) return now;
  params.cursor = c.send_cursor;
  // before a subject test's winner, everybody of the audience it went out to is still ahead (the rest)
  const ahead = c.ab_phase === 'sample' || c.ab_phase === 'window' ? '' : 's.id > @cursor AND ';
  return `${now} AND NOT (${ahead}${audienceWhere(ctx.store, listIdsOf(c), c.segment_id, nowSec, ctx.known, params, c.started_at)})`;
}

export function catchUpCount(ctx: SendContext, c: RawCampaign, nowSec: number): number {
  const params: Record<string, unknown> = {};
  return (ctx.store.db.prepare(`SELECT count(*) AS n FROM subscribers s WHERE ${catchUpWhere(ctx, c, nowSec, params)}`).get(params) as { n: number }).n;
}

/** One attempt to mail one person: the outbox message (unless the provider refused it), the send row, a bounce's report. */
function deliver(ctx: SendContext, c: RawCampaign, r: Recipient, attempt: number, sentAt: number, ids: { next: number }, links: string[]): Outcome {
  const f = fieldsOf(c);
  const outcome = outcomeOf(r.id, attempt, ctx.knobs);
  const variant = r.variant ?? null;
  if (outcome !== 'failed') ctx.store.logMessage(r.id, r.email, 'campaign', subjectOf(variant, f.subject, f.subject_b), sentAt, c.id);
  const e = outcome === 'delivered' ? engagementOf(c.id, r.id, sentAt, links, { opens: f.track_opens, clicks: f.track_clicks }) : { openAt: null, clickAt: null, url: null };
  ctx.store
    .prep(
      `INSERT INTO sends (campaign_id, subscriber_id, status, sent_at, id, attempts, error, open_due, click_due, click_url, variant)
       VALUES (@cid, @sid, @status, @at, @id, @attempt, @error, @open, @click, @url, @variant)
       ON CONFLICT (campaign_id, subscriber_id) DO UPDATE SET status = excluded.status, sent_at = excluded.sent_at, attempts = excluded.attempts,
         error = excluded.error, open_due = excluded.open_due, click_due = excluded.click_due, click_url = excluded.click_url`,
    )
    .run({ cid: c.id, sid: r.id, status: outcome, at: sentAt, id: ids.next, attempt, error: outcome === 'failed' ? FAILED_ERROR : null, open: e.openAt, click: e.clickAt, url: e.url, variant });
  // a new row took the id; a retry kept its own
  if (attempt === 1) ids.next++;
  if (outcome === 'bounced') ctx.bounce(r.id);
  return outcome;
}

const nextSendId = (store: MailerStore) => ({ next: (store.prep('SELECT coalesce(max(id), 0) + 1 AS n FROM sends').get() as { n: number }).n });

function runSoFar(store: MailerStore, c: RawCampaign) {
  return store.prep("SELECT count(*) AS sent, coalesce(sum(status = 'bounced'), 0) AS bounced FROM sends WHERE campaign_id = ? AND sent_at >= ?").get(c.id, c.sending_since ?? 0) as { sent: number; bounced: number };
}

/**
 * A subject test's first step: its sample drawn from the audience it went out to (sampleRankSql's
 * order, A and B by turns), or, with too few people to compare, A for everybody at once.
 */
function beginTest(ctx: SendContext, c: RawCampaign, samplePercent: number, nowSec: number): void {
  const { store } = ctx;
  const params: Record<string, unknown> = {};
  const where = remainingWhere(ctx, c, nowSec, params);
  const audience = (store.db.prepare(`SELECT count(*) AS n FROM subscribers s WHERE ${where}`).get(params) as { n: number }).n;
  const size = sampleSize(audience, samplePercent);
  if (size < MIN_SAMPLE) {
    store.prep("UPDATE campaigns SET ab_phase = 'rest', ab_sample_size = 0, ab_winner = 'a', ab_decided_by = 'too_few', ab_picked_at = ? WHERE id = ?").run(nowSec, c.id);
    return;
  }
  const ids = store.db.prepare(`SELECT s.id FROM subscribers s WHERE ${where} ORDER BY ${sampleRankSql('s.id', '@cid')}, s.id LIMIT @n`).pluck().all({ ...params, n: size }) as number[];
  const put = store.prep('INSERT OR IGNORE INTO ab_sample (campaign_id, subscriber_id, variant) VALUES (?, ?, ?)');
  ids.forEach((id, k) => put.run(c.id, id, variantAt(k)));
  store.prep("UPDATE campaigns SET ab_phase = 'sample', ab_sample_size = ? WHERE id = ?").run(ids.length, c.id);
}

/** The window has passed: the winner by the sample's opens up to its end, and the rest goes from there (or from a later resume). */
function pickAndGoOn(store: MailerStore, c: RawCampaign, end: number): void {
  const figures = sampleFigures(store, c.id, end);
  const pick = pickWinner(figures.a, figures.b);
  store
    .prep("UPDATE campaigns SET ab_phase = 'rest', ab_winner = ?, ab_decided_by = ?, ab_picked_at = ?, ab_result = ?, send_cursor = 0, send_mark = max(send_mark, ?) WHERE id = ?")
    .run(pick.winner, pick.decidedBy, end, JSON.stringify(figures), end * 1000, c.id);
}

/** One step of one sending campaign at `nowMs`: what the clock allows since its mark, then finish or stop. */
function stepCampaign(ctx: SendContext, c: RawCampaign, nowMs: number): 'sending' | 'sent' | 'stopped' {
  const { store, knobs } = ctx;
  const nowSec = Math.floor(nowMs / 1000);
  if (c.send_mark === null) {
    // made `sending` past the moves (the controls): it starts counting now
    store.prep('UPDATE campaigns SET send_mark = ?, sending_since = ?, started_at = coalesce(started_at, ?) WHERE id = ?').run(nowMs, nowSec, nowSec, c.id);
    return 'sending';
  }
  const test = testOf(fieldsOf(c));
  if (test && c.ab_phase === null) {
    beginTest(ctx, c, test.samplePercent, nowSec);
    c = store.campaign(c.id)!;
  }
  if (test && c.ab_phase === 'window') {
    const end = windowEndOf(c.ab_sample_done_at!, test.windowMinutes);
    if (nowSec < end) return 'sending';
    pickAndGoOn(store, c, end);
    c = store.campaign(c.id)!;
  }
  const inSample = c.ab_phase === 'sample';
  const can = allowance(c.send_mark!, nowMs, knobs.sendRate);
  const params: Record<string, unknown> = {};
  const pick = inSample
    ? 'SELECT s.id, s.email, ab.variant FROM subscribers s JOIN ab_sample ab ON ab.campaign_id = @cid AND ab.subscriber_id = s.id'
    : `SELECT s.id, s.email, ${c.ab_winner ? `'${c.ab_winner === 'b' ? 'b' : 'a'}'` : 'NULL'} AS variant FROM subscribers s`;
  const rows = store.db.prepare(`${pick} WHERE ${remainingWhere(ctx, c, nowSec, params)} ORDER BY s.id LIMIT @limit`).all({ ...params, limit: can + 1 }) as Recipient[];
  const ids = nextSendId(store);
  const links = linksOf(fieldsOf(c).body_md);
  const run = runSoFar(store, c);
  let sent = 0;
  let stopped = false;
  for (const r of rows.slice(0, can)) {
    const at = Math.floor(sentAtMs(c.send_mark!, sent, knobs.sendRate) / 1000);
    const outcome = deliver(ctx, c, r, 1, at, ids, links);
    sent++;
    run.sent++;
    if (outcome === 'bounced') run.bounced++;
    // judged after every message, so the stop falls on the same one however big the step
    if (bounceStop(run, knobs.stopBouncePercent)) {
      stopped = true;
      break;
    }
  }
  const mark = nextMark(c.send_mark!, sent, knobs.sendRate, nowMs);
  const cursor = sent > 0 ? rows[sent - 1]!.id : c.send_cursor;
  store.prep('UPDATE campaigns SET send_mark = ?, send_cursor = ? WHERE id = ?').run(mark, cursor, c.id);
  // the time of its last message, not of the step that noticed
  const at = Math.floor(mark / 1000);
  const fresh = store.campaign(c.id)!;
  if (stopped) {
    moveCampaign(store, fresh, 'stop', at);
    store.prep("UPDATE campaigns SET stop_reason = 'bounce_limit' WHERE id = ?").run(c.id);
    return 'stopped';
  }
  if (rows.length <= can && inSample) {
    // the sample is out: the window runs from its last message
    store.prep("UPDATE campaigns SET ab_phase = 'window', ab_sample_done_at = ? WHERE id = ?").run(at, c.id);
    return stepCampaign(ctx, store.campaign(c.id)!, nowMs);
  }
  if (rows.length <= can) {
    moveCampaign(store, fresh, 'finish', at);
    return 'sent';
  }
  return 'sending';
}

/** One run of the worker at `nowMs`: every sending campaign's step (oldest first), then readers' opens and clicks. */
export function stepSending(ctx: SendContext, nowMs: number): { finished: number[]; stopped: number[] } {
  const out = { finished: [] as number[], stopped: [] as number[] };
  for (const c of ctx.store.prep("SELECT * FROM campaigns WHERE status = 'sending' ORDER BY id").all() as RawCampaign[]) {
    const r = stepCampaign(ctx, c, nowMs);
    if (r === 'sent') out.finished.push(c.id);
    if (r === 'stopped') out.stopped.push(c.id);
  }
  engage(ctx.store, Math.floor(nowMs / 1000));
  return out;
}

/** Opens and clicks whose time has come (planned when each message was delivered). */
export function engage(store: MailerStore, nowSec: number): void {
  store.prep("UPDATE sends SET opened_at = open_due, status = CASE WHEN status = 'delivered' THEN 'opened' ELSE status END WHERE opened_at IS NULL AND open_due IS NOT NULL AND open_due <= ?").run(nowSec);
  store.prep('INSERT INTO clicks (campaign_id, subscriber_id, url, at) SELECT campaign_id, subscriber_id, click_url, click_due FROM sends WHERE clicked_at IS NULL AND click_due IS NOT NULL AND click_due <= ?').run(nowSec);
  store.prep("UPDATE sends SET clicked_at = click_due, status = 'clicked' WHERE clicked_at IS NULL AND click_due IS NOT NULL AND click_due <= ?").run(nowSec);
}

const tallied = (t: Tally, o: Outcome) => {
  t.sent++;
  t[o]++;
};

/** Catch-up: mails now everybody `catchUpCount` counts (the campaign is out; no rate: they are few). */
export function sendCatchUp(ctx: SendContext, c: RawCampaign, nowSec: number): Tally {
  const params: Record<string, unknown> = {};
  const rows = (ctx.store.db.prepare(`SELECT s.id, s.email FROM subscribers s WHERE ${catchUpWhere(ctx, c, nowSec, params)} ORDER BY s.id`).all(params) as Recipient[]).map((r) => ({ ...r, variant: c.ab_winner }));
  const ids = nextSendId(ctx.store);
  const links = linksOf(fieldsOf(c).body_md);
  const t = emptyTally();
  for (const r of rows) tallied(t, deliver(ctx, c, r, 1, nowSec, ids, links));
  return t;
}

export interface FailedSend {
  id: number;
  subscriber_id: number;
  attempts: number;
  /** the subject it had: a retry keeps it */
  variant?: Variant | null;
}

/** The failed sends of a campaign, or the one with `sendId`. */
export function failedSends(store: MailerStore, campaignId: number): FailedSend[] {
  return store.prep("SELECT id, subscriber_id, attempts, variant FROM sends WHERE campaign_id = ? AND status = 'failed' ORDER BY id").all(campaignId) as FailedSend[];
}

/**
 * Tries failed sends again now, each its next attempt; somebody who can no longer be mailed (left,
 * suppressed, bounced since) is skipped and their send stays failed.
 */
export function retrySends(ctx: SendContext, c: RawCampaign, sends: FailedSend[], nowSec: number): Tally & { skipped: number } {
  const t = { ...emptyTally(), skipped: 0 };
  const links = linksOf(fieldsOf(c).body_md);
  const ids = { next: 0 };
  for (const x of sends) {
    const r = ctx.store.prep(`SELECT s.id, s.email FROM subscribers s WHERE s.id = ? AND ${MAILABLE}`).get(x.subscriber_id) as Recipient | undefined;
    if (!r) {
      t.skipped++;
      continue;
    }
    tallied(t, deliver(ctx, c, { ...r, variant: x.variant ?? null }, x.attempts + 1, nowSec, ids, links));
  }
  return t;
}

/** A test copy into the outbox: marked as a test, no send, not counted. */
export function sendTest(store: MailerStore, c: RawCampaign, email: string, nowSec: number, siteName: string, variant: Variant = 'a'): { message_id: number; subject: string; sent_at: number } {
  const f = fieldsOf(c);
  // a subject test's B copy reads subject B, so each subject can be seen in an inbox
  const rendered = renderEmail({ ...f, subject: subjectOf(variant, f.subject, f.subject_b) }, { name: siteName });
  const subject = `[Test] ${rendered.subject}`;
  const id = store.logMessage(store.byEmail(email)?.id ?? null, email, 'campaign_test', subject, nowSec, c.id, rendered.html);
  return { message_id: id, subject, sent_at: nowSec };
}
