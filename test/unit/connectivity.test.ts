/**
 * Which sites answer, and the probes of those that do not: a site known to be away is probed with a
 * growing wait, and a read answered from the copy meanwhile nudges a probe at once, never more
 * than one at a time nor two within a second.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { connectivity, NUDGE_GAP_MS } from '../../electron/sync/connectivity';

let probes: string[];
let answer: (siteId: string) => Promise<unknown>;
let changes: [string, boolean, boolean][];
let conn: ReturnType<typeof connectivity>;

beforeEach(() => {
  vi.useFakeTimers();
  probes = [];
  changes = [];
  answer = () => Promise.reject(new Error('refused'));
  conn = connectivity({
    probe: (id) => {
      probes.push(id);
      return answer(id);
    },
    changed: (id, online, back) => changes.push([id, online, back]),
    delayMs: () => 10_000,
    now: () => Date.now(),
  });
});
afterEach(() => {
  conn.close();
  vi.useRealTimers();
});

describe('connectivity', () => {
  test('a site that stops answering is offline and probed after a wait', async () => {
    conn.unreachable('a');
    expect(conn.state('a')).toBe(false);
    expect(changes).toEqual([['a', false, false]]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(probes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(probes).toEqual(['a']);
  });

  test('a nudge probes at once, but not within a second of the last probe, and not twice at a time', async () => {
    conn.unreachable('a');
    conn.nudge('a'); // the failed request itself was the last probe: too soon
    expect(probes).toEqual([]);
    await vi.advanceTimersByTimeAsync(NUDGE_GAP_MS);
    let settle!: () => void;
    answer = () => new Promise((_, reject) => (settle = () => reject(new Error('refused'))));
    conn.nudge('a');
    conn.nudge('a');
    expect(probes).toEqual(['a']); // one probe in flight
    await vi.advanceTimersByTimeAsync(2 * NUDGE_GAP_MS);
    conn.nudge('a');
    expect(probes).toEqual(['a']);
    settle();
    await vi.advanceTimersByTimeAsync(NUDGE_GAP_MS);
    conn.nudge('a');
    expect(probes).toEqual(['a', 'a']);
  });

  test('the site answering again ends the probes; a nudge of a site not known away does nothing', async () => {
    conn.unreachable('a');
    await vi.advanceTimersByTimeAsync(NUDGE_GAP_MS);
    answer = (id) => {
      conn.reachable(id);
      return Promise.resolve();
    };
    conn.nudge('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(conn.state('a')).toBe(true);
    expect(changes.at(-1)).toEqual(['a', true, true]);
    await vi.advanceTimersByTimeAsync(60_000);
    conn.nudge('a');
    conn.nudge('b');
    expect(probes).toEqual(['a']);
  });
});
