/**
 * The CMS sandbox's campaign sending (test/sandbox/cms/mailer/send-rules.ts, sending.ts, render.ts;
 * docs/mailer-campaigns.md, "Sending"): the outcomes and their shares, the clock's allowance and
 * each message's time, the bounce limit, readers' opens and clicks, the rendered email; and the
 * worker's step over a store on a clock that only moves when told: the rate, pause and resume
 * without anyone mailed twice, finish with the last message's time, the stop, and the same run
 * whether the worker looks every 200 ms or once.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Clock } from '../sandbox/clock';
import { insertCampaign, moveCampaign, audienceCount } from '../sandbox/cms/mailer/campaigns';
import { linksOf, renderEmail, UNSUBSCRIBE_TAG } from '../sandbox/cms/mailer/render';
import { allowance, bounceStop, DEFAULT_SEND_KNOBS, engagementOf, ENGAGEMENT_WINDOW_SECONDS, nextMark, outcomeOf, sentAtMs, STOP_SAMPLE } from '../sandbox/cms/mailer/send-rules';
import { catchUpCount, stepSending } from '../sandbox/cms/mailer/sending';
import { MailerWorld, type MailerOptions } from '../sandbox/cms/mailer/world';
import { tempDir } from '../support/tmp';

describe('outcomes', () => {
  const ids = Array.from({ length: 20_000 }, (_, i) => i + 1);
  test('about the knobs’ shares bounce and fail, the same every time', () => {
    const first = ids.map((id) => outcomeOf(id, 1, DEFAULT_SEND_KNOBS));
    expect(ids.map((id) => outcomeOf(id, 1, DEFAULT_SEND_KNOBS))).toEqual(first);
    const share = (o: string) => first.filter((x) => x === o).length / ids.length;
    expect(share('bounced')).toBeGreaterThan(0.015);
    expect(share('bounced')).toBeLessThan(0.025);
    expect(share('failed')).toBeGreaterThan(0.022);
    expect(share('failed')).toBeLessThan(0.038);
    expect(ids.every((id) => outcomeOf(id, 1, { bouncePercent: 0, failPercent: 0 }) === 'delivered')).toBe(true);
    expect(ids.every((id) => outcomeOf(id, 1, { bouncePercent: 100, failPercent: 0 }) === 'bounced')).toBe(true);
  });

  test('a bounce is the address’s (every attempt), a failure the attempt’s (most retries go through)', () => {
    const bouncers = ids.filter((id) => outcomeOf(id, 1, DEFAULT_SEND_KNOBS) === 'bounced');
    expect(bouncers.every((id) => outcomeOf(id, 2, DEFAULT_SEND_KNOBS) === 'bounced')).toBe(true);
    const failed = ids.filter((id) => outcomeOf(id, 1, DEFAULT_SEND_KNOBS) === 'failed');
    const again = failed.filter((id) => outcomeOf(id, 2, DEFAULT_SEND_KNOBS) === 'failed');
    expect(again.length).toBeLessThan(failed.length * 0.1);
  });

  test('readers: about 40 % open within a day, a quarter of them click one of the links, after opening; nothing untracked', () => {
    const links = ['https://site.example/a', 'https://site.example/b'];
    const es = ids.map((id) => engagementOf(3, id, 1000, links, { opens: true, clicks: true }));
    const opened = es.filter((e) => e.openAt !== null);
    expect(opened.length / ids.length).toBeGreaterThan(0.37);
    expect(opened.length / ids.length).toBeLessThan(0.43);
    expect(opened.every((e) => e.openAt! > 1000 && e.openAt! < 1000 + ENGAGEMENT_WINDOW_SECONDS)).toBe(true);
    const clicked = es.filter((e) => e.clickAt !== null);
    expect(clicked.length / opened.length).toBeGreaterThan(0.2);
    expect(clicked.length / opened.length).toBeLessThan(0.3);
    expect(clicked.every((e) => e.openAt !== null && e.clickAt! > e.openAt! && links.includes(e.url!))).toBe(true);
    expect(new Set(clicked.map((e) => e.url)).size).toBe(2);
    expect(ids.map((id) => engagementOf(3, id, 1000, links, { opens: true, clicks: true }))).toEqual(es);
    // another campaign, other readers
    expect(ids.map((id) => engagementOf(4, id, 1000, links, { opens: true, clicks: true }).openAt !== null)).not.toEqual(es.map((e) => e.openAt !== null));
    expect(ids.some((id) => engagementOf(3, id, 1000, [], { opens: true, clicks: true }).clickAt !== null)).toBe(false);
    expect(ids.some((id) => engagementOf(3, id, 1000, links, { opens: false, clicks: false }).openAt !== null)).toBe(false);
  });
});

describe('the clock’s allowance', () => {
  test('messages since the mark at the rate; each message’s time; the mark after them', () => {
    expect(allowance(0, 1000, 50)).toBe(50);
    expect(allowance(0, 999, 50)).toBe(49);
    expect(allowance(5000, 1000, 50)).toBe(0);
    expect(allowance(0, 3_600_000, 50)).toBe(20_000); // a step's most
    expect(sentAtMs(0, 0, 50)).toBe(20);
    expect(sentAtMs(0, 49, 50)).toBe(1000);
    expect(nextMark(0, 50, 50, 1500)).toBe(1000);
    // a rate of 0: as fast as it can, all at now
    expect(allowance(0, 1, 0)).toBe(20_000);
    expect(nextMark(0, 7, 0, 1500)).toBe(1500);
  });

  test('the bounce limit: judged once a run has its sample, above the limit only; 0 never stops', () => {
    expect(bounceStop({ sent: STOP_SAMPLE - 1, bounced: STOP_SAMPLE - 1 }, 10)).toBe(false);
    expect(bounceStop({ sent: 100, bounced: 10 }, 10)).toBe(false);
    expect(bounceStop({ sent: 100, bounced: 11 }, 10)).toBe(true);
    expect(bounceStop({ sent: 100, bounced: 100 }, 0)).toBe(false);
  });
});

describe('the rendered email', () => {
  const body = '# Spring\n\nSee [the shop](https://site.example/shop), https://site.example/news and [again](https://site.example/shop).\n\n[mail](mailto:x@example.com)';
  test('store: the site’s frame, the preheader hidden first, the subject escaped, the footer’s unsubscribe', () => {
    const r = renderEmail({ subject: 'Hi <you>', preheader: 'The short line', body_md: body, layout: 'store' }, { name: 'Sandbox Shop' });
    expect(r.html).toContain('<title>Hi &lt;you&gt;</title>');
    expect(r.html).toContain('<h1>Spring</h1>');
    expect(r.html).toContain('<a href="https://site.example/shop">the shop</a>');
    expect(r.html).toContain('Sandbox Shop');
    expect(r.html.indexOf('The short line')).toBeLessThan(r.html.indexOf('<h1>'));
    expect(r.html).toContain(UNSUBSCRIBE_TAG);
    expect(r.text).toContain('# Spring');
    expect(r.links).toEqual(['https://site.example/shop', 'https://site.example/news']);
  });

  test('plain: the body alone, no frame', () => {
    const r = renderEmail({ subject: 'Hi', preheader: null, body_md: body, layout: 'plain' }, { name: 'Sandbox Shop' });
    expect(r.html).toContain('<h1>Spring</h1>');
    expect(r.html).not.toContain('Sandbox Shop');
    expect(r.html).toContain(UNSUBSCRIBE_TAG);
    expect(linksOf(null)).toEqual([]);
  });
});

/** A clock that moves only when told. */
class StillClock extends Clock {
  at = 1_800_000_000_000;
  override now(): number {
    return this.at;
  }
}

describe('the worker’s step', () => {
  const dirs: { remove(): void }[] = [];
  const worlds: MailerWorld[] = [];
  afterEach(() => {
    for (const w of worlds.splice(0)) w.close();
    for (const d of dirs.splice(0)) d.remove();
  });

  const world = (opts: MailerOptions = {}) => {
    const dir = tempDir();
    dirs.push(dir);
    const clock = new StillClock();
    const w = new MailerWorld('spec', clock, dir.path, { subscribers: 600, ...opts });
    worlds.push(w);
    return { w, clock, store: w.store };
  };
  const campaign = (store: MailerWorld['store'], nowSec: number, fields: Record<string, unknown> = {}) =>
    insertCampaign(store, { name: 'Run', fields: { subject: 'Hi', body_md: 'Hello [shop](https://site.example/shop)', ...fields }, list_ids: [1] }, nowSec);
  const sec = (clock: StillClock) => Math.floor(clock.at / 1000);
  const step = (w: MailerWorld, clock: StillClock) => stepSending(w.sendContext(), clock.now());
  const sendsOf = (w: MailerWorld, id: number) => w.store.prep('SELECT subscriber_id, status, sent_at, attempts FROM sends WHERE campaign_id = ? ORDER BY subscriber_id').all(id) as { subscriber_id: number; status: string; sent_at: number }[];
  const twice = (w: MailerWorld, id: number) => w.store.prep("SELECT count(*) AS n FROM (SELECT subscriber_id FROM messages WHERE campaign_id = ? AND kind = 'campaign' GROUP BY subscriber_id HAVING count(*) > 1)").get(id) as { n: number };

  test('the rate on the clock; pause halts, resume goes on from where it was; finish at the last message’s time', () => {
    const { w, clock, store } = world();
    const audience = audienceCount(store, [1], null, sec(clock), w.knownIds()).count;
    expect(audience).toBeGreaterThan(200);
    const id = campaign(store, sec(clock));
    moveCampaign(store, store.campaign(id)!, 'start', sec(clock));
    clock.at += 1000;
    step(w, clock);
    expect(sendsOf(w, id)).toHaveLength(50);
    clock.at += 2000;
    step(w, clock);
    expect(sendsOf(w, id)).toHaveLength(150);
    moveCampaign(store, store.campaign(id)!, 'pause', sec(clock));
    clock.at += 60_000;
    step(w, clock);
    expect(sendsOf(w, id)).toHaveLength(150);
    moveCampaign(store, store.campaign(id)!, 'resume', sec(clock));
    const resumed = sec(clock);
    clock.at += 1000;
    step(w, clock);
    expect(sendsOf(w, id)).toHaveLength(200);
    expect(sendsOf(w, id).filter((s) => s.sent_at >= resumed)).toHaveLength(50);
    clock.at += 3_600_000;
    step(w, clock);
    const c = store.campaign(id)!;
    expect(c.status).toBe('sent');
    const sends = sendsOf(w, id);
    expect(sends).toHaveLength(audience);
    // the last message went (audience − 200) / 50 seconds after the resume's second
    expect(c.sent_at).toBe(Math.max(...sends.map((s) => s.sent_at)));
    expect(c.sent_at).toBe(resumed + Math.floor((audience - 150) / 50));
    expect(twice(w, id).n).toBe(0);
    // failed attempts left no message; everything else one
    const messages = (store.prep("SELECT count(*) AS n FROM messages WHERE campaign_id = ? AND kind = 'campaign'").get(id) as { n: number }).n;
    expect(messages).toBe(sends.filter((s) => s.status !== 'failed').length);
    expect(sends.some((s) => s.status === 'failed')).toBe(true);
    expect(sends.some((s) => s.status === 'bounced')).toBe(true);
    // a bounce is reported: the address is suppressed
    const bounced = sends.find((s) => s.status === 'bounced')!;
    expect(store.subscriber(bounced.subscriber_id)).toMatchObject({ status: 'bounced', suppressed: 1 });
    // readers open and click on the clock
    clock.at += 2 * 86_400_000;
    step(w, clock);
    const opened = (store.prep('SELECT count(opened_at) AS o, count(clicked_at) AS c FROM sends WHERE campaign_id = ?').get(id) as { o: number; c: number });
    expect(opened.o).toBeGreaterThan(audience * 0.3);
    expect(opened.c).toBeGreaterThan(0);
    expect((store.prep('SELECT count(*) AS n FROM clicks WHERE campaign_id = ?').get(id) as { n: number }).n).toBe(opened.c);
  });

  test('the same run whether the worker looks every 200 ms or once at the end', () => {
    const a = world();
    const b = world();
    for (const { w, clock, store } of [a, b]) {
      const id = campaign(store, sec(clock));
      moveCampaign(store, store.campaign(id)!, 'start', sec(clock));
      expect(id).toBe(7);
    }
    for (let t = 0; t < 20_000; t += 200) {
      a.clock.at += 200;
      step(a.w, a.clock);
    }
    b.clock.at += 20_000;
    step(b.w, b.clock);
    expect(sendsOf(a.w, 7)).toEqual(sendsOf(b.w, 7));
    expect(a.store.campaign(7)).toMatchObject({ status: 'sent', sent_at: b.store.campaign(7)!.sent_at });
  });

  test('the bounce limit: the sender stops the run on the message that passed it; a resumed run is judged afresh', () => {
    const { w, clock, store } = world({ bouncePercent: 30, stopBouncePercent: 10 });
    const start = sec(clock);
    const id = campaign(store, start);
    moveCampaign(store, store.campaign(id)!, 'start', sec(clock));
    clock.at += 3_600_000;
    step(w, clock);
    const c = store.campaign(id)!;
    expect(c).toMatchObject({ status: 'stopped', stop_reason: 'bounce_limit' });
    const n = sendsOf(w, id).length;
    expect(n).toBe(STOP_SAMPLE);
    // the 50th message, at 50 a second
    expect(c.stopped_at).toBe(start + 1);
    // a stopped campaign sends nothing more
    clock.at += 60_000;
    step(w, clock);
    expect(sendsOf(w, id)).toHaveLength(n);
    moveCampaign(store, store.campaign(id)!, 'resume', sec(clock));
    clock.at += 3_600_000;
    step(w, clock);
    expect(store.campaign(id)!.status).toBe('stopped');
    expect(sendsOf(w, id)).toHaveLength(2 * STOP_SAMPLE);
    expect(twice(w, id).n).toBe(0);
  });

  test('catch-up: people who joined after it went out are not the worker’s; they are counted once it is sent', () => {
    const { w, clock, store } = world({ bouncePercent: 0, failPercent: 0 });
    const id = campaign(store, sec(clock));
    moveCampaign(store, store.campaign(id)!, 'start', sec(clock));
    clock.at += 1000;
    step(w, clock);
    const ctx = w.sendContext();
    expect(catchUpCount(ctx, store.campaign(id)!, sec(clock))).toBe(0);
    // two people join the list (no confirmation for this test) after the start
    for (const email of ['late1@example.com', 'late2@example.com']) {
      w.audience.act({ action: 'signup', email, list_id: 2 });
      const s = store.byEmail(email)!;
      store.setMembership({ subscriber_id: s.id, list_id: 1, status: 'subscribed', since: sec(clock), left_by: null, left_via: null });
      store.refreshStatus(s.id, sec(clock));
    }
    expect(catchUpCount(ctx, store.campaign(id)!, sec(clock))).toBe(2);
    clock.at += 3_600_000;
    step(w, clock);
    expect(store.campaign(id)!.status).toBe('sent');
    const late = store.byEmail('late1@example.com')!;
    expect(store.prep('SELECT 1 FROM sends WHERE campaign_id = ? AND subscriber_id = ?').get(id, late.id)).toBeUndefined();
    expect(catchUpCount(ctx, store.campaign(id)!, sec(clock))).toBe(2);
  });

  const ab = { subject: 'Subject A', subject_b: 'Subject B', ab_sample_percent: 20, ab_window_minutes: 60 };
  const subjects = (w: MailerWorld, id: number) => w.store.prep("SELECT subscriber_id, subject, at FROM messages WHERE campaign_id = ? AND kind = 'campaign' ORDER BY subscriber_id").all(id) as { subscriber_id: number; subject: string; at: number }[];

  test('the subject test: the sample first, A and B by turns; the window on the clock; the winner to the rest; nobody twice', () => {
    const { w, clock, store } = world({ failPercent: 0 });
    const id = campaign(store, sec(clock), ab);
    const audience = audienceCount(store, [1], null, sec(clock), w.knownIds()).count;
    moveCampaign(store, store.campaign(id)!, 'start', sec(clock));
    clock.at += 200;
    step(w, clock);
    const size = Math.floor(audience * 0.2 + 0.5);
    expect(store.campaign(id)).toMatchObject({ ab_phase: 'sample', ab_sample_size: size });
    const sample = store.prep('SELECT variant, count(*) AS n FROM ab_sample WHERE campaign_id = ? GROUP BY variant ORDER BY variant').all(id) as { variant: string; n: number }[];
    expect(sample.map((r) => r.variant)).toEqual(['a', 'b']);
    expect(Math.abs(sample[0]!.n - sample[1]!.n)).toBeLessThanOrEqual(1);
    // spread over the audience, not its oldest ids
    const sampled = store.prep('SELECT subscriber_id FROM ab_sample WHERE campaign_id = ? ORDER BY subscriber_id').pluck().all(id) as number[];
    expect(sampled.at(-1)! - sampled[0]!).toBeGreaterThan(300);
    clock.at += 60_000;
    step(w, clock);
    const inWindow = store.campaign(id)!;
    expect(inWindow.ab_phase).toBe('window');
    expect(sendsOf(w, id)).toHaveLength(size);
    expect(inWindow.ab_sample_done_at).toBe(Math.max(...sendsOf(w, id).map((s) => s.sent_at)));
    const bySubject = (rows: { subject: string }[], x: string) => rows.filter((r) => r.subject === x).length;
    expect(bySubject(subjects(w, id), 'Subject A') + bySubject(subjects(w, id), 'Subject B')).toBe(subjects(w, id).length);
    expect(bySubject(subjects(w, id), 'Subject B')).toBeGreaterThan(0);
    // the window has not passed: nothing more goes out
    clock.at += 59 * 60_000 - 60_000;
    step(w, clock);
    expect(sendsOf(w, id)).toHaveLength(size);
    expect(store.campaign(id)!.ab_winner).toBeNull();
    clock.at += 2 * 3_600_000;
    step(w, clock);
    const done = store.campaign(id)!;
    const end = inWindow.ab_sample_done_at! + 3600;
    expect(done).toMatchObject({ status: 'sent', ab_phase: 'rest', ab_picked_at: end });
    expect(['a', 'b']).toContain(done.ab_winner);
    // the rest started at the window's end, with the winner's subject only
    const winner = done.ab_winner === 'b' ? 'Subject B' : 'Subject A';
    const rest = subjects(w, id).filter((m) => !sampled.includes(m.subscriber_id));
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((m) => m.subject === winner && m.at >= end)).toBe(true);
    expect(sendsOf(w, id)).toHaveLength(audience);
    expect(twice(w, id).n).toBe(0);
    // the pick is the rule's over the sample's opens up to the window's end
    const figures = JSON.parse(done.ab_result!) as Record<'a' | 'b', { delivered: number; opened: number }>;
    const rate = (v: 'a' | 'b') => figures[v].opened / figures[v].delivered;
    expect(done.ab_winner).toBe(rate('b') > rate('a') ? 'b' : 'a');
    const openedBy = store.prep("SELECT count(*) AS n FROM sends x JOIN ab_sample ab ON ab.campaign_id = x.campaign_id AND ab.subscriber_id = x.subscriber_id WHERE x.campaign_id = ? AND x.opened_at <= ?").get(id, end) as { n: number };
    expect(figures.a.opened + figures.b.opened).toBe(openedBy.n);
  });

  test('the subject test: the same run whether the worker looks every 200 ms or once; paused through the window, the rest goes on resume', () => {
    const a = world();
    const b = world();
    for (const { clock, store } of [a, b]) moveCampaign(store, store.campaign(campaign(store, sec(clock), ab))!, 'start', sec(clock));
    for (let t = 0; t < 2 * 3_600_000; t += 200) {
      a.clock.at += 200;
      // every 200 ms through the sample, then every minute: 36,000 steps would only slow the test
      if (t % 60_000 === 0 || t < 30_000) step(a.w, a.clock);
    }
    step(a.w, a.clock);
    b.clock.at += 2 * 3_600_000;
    step(b.w, b.clock);
    expect(sendsOf(a.w, 7)).toEqual(sendsOf(b.w, 7));
    expect(subjects(a.w, 7)).toEqual(subjects(b.w, 7));
    const [ca, cb] = [a.store.campaign(7)!, b.store.campaign(7)!];
    expect(ca).toMatchObject({ status: 'sent', ab_winner: cb.ab_winner, ab_picked_at: cb.ab_picked_at, sent_at: cb.sent_at });

    // paused in the window and resumed after its end: picked at the window's end, the rest from the resume
    const p = world();
    const id = campaign(p.store, sec(p.clock), ab);
    moveCampaign(p.store, p.store.campaign(id)!, 'start', sec(p.clock));
    p.clock.at += 60_000;
    step(p.w, p.clock);
    const sampleDone = p.store.campaign(id)!.ab_sample_done_at!;
    moveCampaign(p.store, p.store.campaign(id)!, 'pause', sec(p.clock));
    p.clock.at += 3 * 3_600_000;
    step(p.w, p.clock);
    expect(p.store.campaign(id)).toMatchObject({ status: 'paused', ab_phase: 'window', ab_winner: null });
    const resumed = sec(p.clock);
    moveCampaign(p.store, p.store.campaign(id)!, 'resume', resumed);
    p.clock.at += 3_600_000;
    step(p.w, p.clock);
    const c = p.store.campaign(id)!;
    expect(c).toMatchObject({ status: 'sent', ab_picked_at: sampleDone + 3600 });
    // the same pick as the run that was never paused (opens up to the window's end decide)
    expect(c.ab_winner).toBe(cb.ab_winner);
    const after = p.store.prep('SELECT min(sent_at) AS t FROM sends WHERE campaign_id = ? AND subscriber_id NOT IN (SELECT subscriber_id FROM ab_sample WHERE campaign_id = ?)').get(id, id) as { t: number };
    expect(after.t).toBeGreaterThanOrEqual(resumed);
    expect(twice(p.w, id).n).toBe(0);
  });

  test('the subject test with too few people: no sample, A to everybody at once', () => {
    const { w, clock, store } = world({ subscribers: 12 });
    const id = insertCampaign(store, { name: 'Tiny', fields: { subject: 'Subject A', body_md: 'Hi', subject_b: 'Subject B', ab_sample_percent: 10 }, list_ids: [1] }, sec(clock));
    moveCampaign(store, store.campaign(id)!, 'start', sec(clock));
    clock.at += 60_000;
    step(w, clock);
    expect(store.campaign(id)).toMatchObject({ status: 'sent', ab_phase: 'rest', ab_winner: 'a', ab_decided_by: 'too_few', ab_sample_size: 0 });
    expect(subjects(w, id).every((m) => m.subject === 'Subject A')).toBe(true);
  });
});
