/**
 * The Demo mode card's state without a browser, on a fake clock: the countdown worked out from
 * seconds_until_reset as of when it was read, ticking each second, "due now" at 0 and the status
 * read again then (at most every half minute while it stays due); capture and reset taking the
 * answer's status, `done: false` kept in the site's words; who may manage (a super admin, never a
 * demo account, not from the copy).
 */
import { describe, expect, test } from 'vitest';
import type { DemoStatus, Me } from '../../electron/contract/index';
import { DemoState, formatCountdown, secondsLeft, type DemoClock } from '../../renderer/views/system/demo.svelte';
import { FakeHost, settle, type Handler } from './support/fake-host';

class FakeClock implements DemoClock {
  t = Date.parse('2026-11-24T10:00:00Z');
  ticks: (() => void)[] = [];
  now = () => this.t;
  every(_ms: number, tick: () => void) {
    this.ticks.push(tick);
    return () => (this.ticks = this.ticks.filter((x) => x !== tick));
  }
  /** `s` seconds pass, the second hand ticking each one. */
  async pass(s: number) {
    for (let i = 0; i < s; i++) {
      this.t += 1000;
      for (const tick of this.ticks) tick();
      await Promise.resolve();
    }
  }
}

class DemoHost extends FakeHost {
  constructor(private clock: FakeClock) {
    super();
  }
  baseline = true;
  /** the site's own countdown: the next reset at this instant (ms) */
  nextReset = Date.parse('2026-11-24T10:00:05Z');
  copiedAt: string | null = null;
  status = (): DemoStatus => ({
    baselineExists: this.baseline,
    writable: ['api.pages.write', 'api.media.write'],
    roots: ['pages', 'media'],
    resetInterval: 30,
    resetOnRequest: true,
    resetOnSchedule: true,
    lastReset: '2026-11-24T09:30:05.000Z',
    secondsUntilReset: this.baseline ? Math.max(0, Math.round((this.nextReset - this.clock.t) / 1000)) : null,
    readAt: new Date(this.clock.t).toISOString(),
  });
  handlers: Record<string, Handler> = {
    'demo.status': () => {
      // a request after the interval resets the stale demo first (reset on request)
      if (this.baseline && this.clock.t >= this.nextReset) this.nextReset = this.clock.t + 30 * 60_000;
      return { ...this.status(), copiedAt: this.copiedAt };
    },
    'demo.baseline': () => {
      this.baseline = true;
      this.nextReset = this.clock.t + 30 * 60_000;
      return { done: true, message: 'Demo baseline captured.', status: this.status() };
    },
    'demo.reset': () => (this.baseline ? { done: true, message: 'Demo content reset to baseline.', status: this.status() } : { done: false, message: 'Nothing to reset — capture a baseline first.', status: this.status() }),
  };
}

const me = (over: Partial<Me> = {}): Me => ({ username: 'a', fullname: '', email: '', avatarUrl: null, superAdmin: true, access: { 'api.super': true }, contentEditor: '', cmsVersion: null, adminVersion: null, ...over });

describe('the countdown’s arithmetic', () => {
  test('seconds left from the reading’s time; never below 0; none without a countdown', () => {
    const read = { secondsUntilReset: 90, readAt: '2026-11-24T10:00:00.000Z' };
    const at = (iso: string) => Date.parse(iso);
    expect(secondsLeft(read, at('2026-11-24T10:00:00Z'))).toBe(90);
    expect(secondsLeft(read, at('2026-11-24T10:00:30.400Z'))).toBe(60);
    expect(secondsLeft(read, at('2026-11-24T10:01:30Z'))).toBe(0);
    expect(secondsLeft(read, at('2026-11-24T11:00:00Z'))).toBe(0);
    expect(secondsLeft({ secondsUntilReset: null, readAt: read.readAt }, at('2026-11-24T10:00:00Z'))).toBeNull();
    expect(secondsLeft(null, 0)).toBeNull();
    expect(formatCountdown(75)).toBe('1:15');
    expect(formatCountdown(1800)).toBe('30:00');
    expect(formatCountdown(3725)).toBe('1:02:05');
  });
});

describe('the demo card’s state', () => {
  test('ticks each second to "due now", then reads the status again and counts from the fresh reading', async () => {
    const clock = new FakeClock();
    const host = new DemoHost(clock);
    const s = new DemoState('s1', clock);
    s.start();
    await settle();
    expect(s.countdown).toBe('0:05');
    await clock.pass(2);
    expect(s.countdown).toBe('0:03');
    const reads = () => host.calls.filter((c) => c.channel === 'demo.status').length;
    expect(reads()).toBe(1);
    await clock.pass(3);
    await settle();
    // at 0 it read again: the site reset on that request and the countdown starts over
    expect(reads()).toBe(2);
    expect(s.countdown).toBe('30:00');
    await clock.pass(1);
    expect(s.countdown).toBe('29:59');
    s.stop();
    expect(clock.ticks).toHaveLength(0);
  });

  test('a reset that stays due (no reset on request): "due now", read again as it passes 0, then at most every half minute', async () => {
    const clock = new FakeClock();
    const host = new DemoHost(clock);
    host.handlers['demo.status'] = () => ({ ...host.status(), copiedAt: null });
    const s = new DemoState('s1', clock);
    s.start();
    await settle();
    await clock.pass(6);
    await settle();
    expect(s.countdown).toBe('due now');
    const reads = () => host.calls.filter((c) => c.channel === 'demo.status').length;
    // read once as it passed 0; the site still says due: not again for half a minute
    expect(reads()).toBe(2);
    await clock.pass(10);
    expect(reads()).toBe(2);
    await clock.pass(20);
    await settle();
    expect(reads()).toBe(3);
    expect(s.countdown).toBe('due now');
    s.stop();
  });

  test('capture and reset take the answer’s status; reset false keeps the site’s words', async () => {
    const clock = new FakeClock();
    const host = new DemoHost(clock);
    host.baseline = false;
    const s = new DemoState('s1', clock);
    s.start();
    await settle();
    expect(s.countdown).toBeNull();
    const none = await s.act('reset');
    expect(none.done).toBe(false);
    expect(s.result).toEqual({ action: 'reset', done: false, message: 'Nothing to reset — capture a baseline first.' });
    await s.act('baseline');
    expect(s.status?.baselineExists).toBe(true);
    expect(s.countdown).toBe('30:00');
    await clock.pass(61);
    expect(s.countdown).toBe('28:59');
    s.stop();
  });

  test('who may capture and reset: a super admin, never a demo account, not from the copy', async () => {
    const clock = new FakeClock();
    const host = new DemoHost(clock);
    const s = new DemoState('s1', clock);
    await s.load();
    expect(s.mayManage(me())).toBe(true);
    expect(s.mayManage(me({ demoMode: { enabled: true, writable: [], resetInterval: 30, secondsUntilReset: 5 } }))).toBe(false);
    expect(s.mayManage(me({ superAdmin: false, access: { 'api.access': true, 'api.pages.write': true } }))).toBe(false);
    expect(s.mayManage(null)).toBe(false);
    host.copiedAt = '2026-11-24T09:00:00.000Z';
    await s.load();
    expect(s.mayManage(me())).toBe(false);
  });
});
