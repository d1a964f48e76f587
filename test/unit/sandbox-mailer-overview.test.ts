/**
 * The CMS sandbox's mailer overview rules (test/sandbox/cms/mailer/overview.ts;
 * docs/mailer-campaigns.md, "Overview"): the daily growth series from what joined and left, and
 * the alerts from the facts, most pressing first, each saying what to do.
 */
import { describe, expect, test } from 'vitest';
import { alertsOf, DAY, growthSeries, type CampaignFacts } from '../sandbox/cms/mailer/overview';

describe('growth', () => {
  test('per day: who joined, who left, the net; subscribed carried on from the base with the confirmed joiners', () => {
    const from = 1_700_006_400 - (1_700_006_400 % DAY);
    const joined = new Map([
      [0, { all: 5, confirmed: 4 }],
      [2, { all: 2, confirmed: 2 }],
    ]);
    const left = new Map([
      [1, 3],
      [2, 1],
    ]);
    expect(growthSeries(from, 3, 100, joined, left)).toEqual([
      { day: from, joined: 5, left: 0, net: 5, subscribed: 104 },
      { day: from + DAY, joined: 0, left: 3, net: -3, subscribed: 101 },
      { day: from + 2 * DAY, joined: 2, left: 1, net: 1, subscribed: 102 },
    ]);
    expect(growthSeries(from, 2, 7, new Map(), new Map()).map((d) => d.subscribed)).toEqual([7, 7]);
  });
});

describe('alerts', () => {
  const now = 1_800_000_000;
  const c = (o: Partial<CampaignFacts>): CampaignFacts => ({ id: 1, name: 'C', status: 'sent', missing: [], failed: 0, sent: 100, bounced: 0, sent_at: now - DAY, stop_reason: null, ...o });

  test('nothing wrong: no alerts', () => {
    expect(alertsOf({ now, workerRunning: true, campaigns: [c({}), c({ id: 2, status: 'draft', missing: ['subject'] })], failedImports: [] })).toEqual([]);
  });

  test('each condition its alert, errors before warnings before information, each with what to do and what it is about', () => {
    const alerts = alertsOf({
      now,
      workerRunning: false,
      campaigns: [
        c({ id: 1, name: 'Paused one', status: 'paused' }),
        c({ id: 2, name: 'Retry me', failed: 3 }),
        c({ id: 3, name: 'Bouncy', bounced: 9 }),
        c({ id: 4, name: 'Halted', status: 'stopped', stop_reason: 'bounce_limit' }),
        c({ id: 5, name: 'Unready', status: 'scheduled', missing: ['subject', 'body_md'] }),
        // long ago: its bounces are no news
        c({ id: 6, name: 'Old bouncy', bounced: 30, sent_at: now - 90 * DAY }),
      ],
      failedImports: [
        { id: 9, file_name: 'people.csv', finished_at: now - 3600, error: 'The file could not be read to the end.' },
        { id: 8, file_name: 'old.csv', finished_at: now - 30 * DAY, error: null },
      ],
    });
    expect(alerts.map((a) => [a.code, a.severity, a.campaign_id ?? a.import_id ?? null])).toEqual([
      ['worker_stopped', 'error', null],
      ['campaign_stopped', 'error', 4],
      ['campaign_not_ready', 'error', 5],
      ['failed_sends', 'warning', 2],
      ['bounce_rate_high', 'warning', 3],
      ['import_failed', 'warning', 9],
      ['campaign_paused', 'info', 1],
    ]);
    expect(alerts.find((a) => a.code === 'campaign_not_ready')!.detail).toMatch(/“Unready” is scheduled but needs subject, body_md: write them before its time, or pause it/);
    expect(alerts.find((a) => a.code === 'failed_sends')!.detail).toMatch(/3 failed sends.*retry them/);
    expect(alerts.find((a) => a.code === 'bounce_rate_high')!.detail).toMatch(/^9 % of “Bouncy”/);
    expect(alerts.find((a) => a.code === 'campaign_stopped')!.detail).toMatch(/resume or cancel/);
    expect(alerts.every((a) => a.title && a.detail)).toBe(true);
  });

  test('the bounce alert: above 5 % only, a sent campaign only', () => {
    expect(alertsOf({ now, workerRunning: true, campaigns: [c({ bounced: 5 })], failedImports: [] })).toEqual([]);
    expect(alertsOf({ now, workerRunning: true, campaigns: [c({ bounced: 6 })], failedImports: [] }).map((a) => a.code)).toEqual(['bounce_rate_high']);
    expect(alertsOf({ now, workerRunning: true, campaigns: [c({ status: 'sending', bounced: 50 })], failedImports: [] })).toEqual([]);
  });
});
