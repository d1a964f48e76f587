/** The Offline copy card's words for a run's time left and the site's rate limit (renderer/views/offline/mirror-text.ts). */
import { describe, expect, test } from 'vitest';
import { allowanceText, etaText, timeLeftText } from '../../renderer/views/offline/mirror-text';
import type { MirrorProgress } from '../../electron/contract';

const running = (eta: MirrorProgress['eta'], state: MirrorProgress['state'] = 'running'): MirrorProgress => ({
  siteId: 's',
  runId: 1,
  state,
  phase: 'reading',
  total: 300,
  listed: true,
  done: 60,
  fetched: 60,
  unchanged: 0,
  failed: 0,
  unreadable: 0,
  removed: 0,
  held: 0,
  error: null,
  startedAt: '2026-11-22T22:30:00.000Z',
  updatedAt: '2026-11-22T22:31:00.000Z',
  finishedAt: null,
  resumable: true,
  eta,
});

describe('the time a copy has left', () => {
  test('with the reason when the site’s limit bounds it', () => {
    expect(etaText(running({ seconds: 125, siteLimit: { requests: 120, perSeconds: 60 } }))).toBe('about 2 min left — the site allows 120 requests a minute');
    expect(etaText(running({ seconds: 40, siteLimit: { requests: 30, perSeconds: 10 } }))).toBe('about 40 s left — the site allows 30 requests every 10 s');
    expect(etaText(running({ seconds: 5400, siteLimit: null }))).toBe('about 1 h 30 min left');
    expect(etaText(running(null))).toBeNull();
    expect(etaText(running({ seconds: 60, siteLimit: null }, 'cancelled'))).toBeNull();
  });

  test('times and allowances in words', () => {
    expect(timeLeftText(3)).toBe('a few seconds left');
    expect(timeLeftText(14)).toBe('about 10 s left');
    expect(timeLeftText(7200)).toBe('about 2 h left');
    expect(allowanceText({ requests: 1, perSeconds: 1 })).toBe('1 request a second');
    expect(allowanceText({ requests: 1000, perSeconds: 3600 })).toBe('1,000 requests an hour');
    expect(allowanceText({ requests: 600, perSeconds: 300 })).toBe('600 requests every 5 minutes');
  });
});
