/** Sites at a glance in words (views/overview/glance.ts): what counts as a problem, and the countdown. */
import { describe, expect, test } from 'vitest';
import type { SiteGlance } from '../../electron/contract';
import { countdown, glanceCells, secondsLeft } from '../../renderer/views/overview/glance';

const readAt = '2026-11-27T10:00:00.000Z';
const at = Date.parse(readAt);
const base: SiteGlance = {
  siteId: 's',
  reachable: true,
  version: '1.8.0',
  updates: { value: { total: 0, core: null }, copiedAt: null },
  scheduler: { value: { crontab: 'installed', health: 'healthy', message: 'No jobs currently due', failedJobs24h: 0, jobsDue: 0 }, copiedAt: null },
  webhooks: { value: { hooks: 2, enabled: 2, failedLastDay: 0, partial: false, unread: 0 }, copiedAt: null },
  demo: { value: { baseline: true, secondsUntilReset: 600, intervalMinutes: 30 }, copiedAt: null },
  mailer: { value: { subscribed: 12_400, net: 85, days: 30, errors: 0, warnings: 0, first: null }, copiedAt: null },
  readAt,
};
const ctx = { session: 'signed_in' as const, username: 'admin', unsynced: 0, conflicted: 0, now: at };

describe('glanceCells', () => {
  test('a well site: every cell ok or plain, nothing to open', () => {
    const c = glanceCells(base, ctx);
    expect(c.answers).toEqual({ text: 'Yes', tone: 'ok' });
    expect(c.signedIn.text).toBe('Yes, as admin');
    expect(c.updates).toMatchObject({ text: 'Up to date', tone: 'ok' });
    expect(c.scheduler).toMatchObject({ text: 'Healthy', tone: 'ok', detail: 'No jobs currently due.' });
    expect(c.webhooks).toMatchObject({ text: 'All delivered', tone: 'ok' });
    expect(c.changes).toEqual({ text: 'None', tone: 'ok' });
    expect(c.demo).toMatchObject({ text: 'in 10 min 00 s', tone: 'muted' });
    expect(c.mailer).toMatchObject({ text: `${(12_400).toLocaleString()} subscribers, +85 in 30 days`, tone: 'ok', area: 'mailer' });
  });

  test('the mailer: a problem outranks a warning, each said with the first one’s words; shrinking is a minus; a site without one is a dash', () => {
    const m = (over: Partial<{ subscribed: number; net: number; errors: number; warnings: number; first: string | null }>) =>
      glanceCells({ ...base, mailer: { value: { subscribed: 1, net: 0, days: 30, errors: 0, warnings: 0, first: null, ...over }, copiedAt: null } }, ctx).mailer;
    expect(m({ errors: 1, warnings: 2, first: 'Campaign not ready: “VIP evening” has no subject.' })).toMatchObject({
      text: '1 subscriber, +0 in 30 days; 1 problem',
      tone: 'danger',
      detail: '1 problem and 2 warnings. Campaign not ready: “VIP evening” has no subject.',
      area: 'mailer',
    });
    expect(m({ warnings: 1, net: -4, first: 'Failed sends: retry them.' })).toMatchObject({ text: '1 subscriber, −4 in 30 days; 1 warning', tone: 'warn' });
    expect(glanceCells({ ...base, mailer: { skipped: 'The site does not offer this.' } }, ctx).mailer).toMatchObject({ text: '—', tone: 'muted' });
  });

  test('problems say what and open their area', () => {
    const c = glanceCells(
      {
        ...base,
        reachable: false,
        updates: { value: { total: 3, core: '1.8.1' }, copiedAt: '2026-11-26T09:00:00.000Z' },
        scheduler: { value: { crontab: 'not_installed', health: null, message: null, failedJobs24h: null, jobsDue: null }, copiedAt: null },
        webhooks: { value: { hooks: 2, enabled: 1, failedLastDay: 1, partial: false, unread: 0 }, copiedAt: null },
      },
      { ...ctx, unsynced: 4, conflicted: 1 },
    );
    expect(c.answers).toMatchObject({ text: 'No', tone: 'danger' });
    expect(c.updates).toMatchObject({ text: '3 updates', tone: 'warn', area: 'packages' });
    expect(c.updates.detail).toMatch(/^Grav 1\.8\.1 is out\. 3 updates waiting \(Sitedesk’s copy of .+\)\.$/);
    expect(c.scheduler).toMatchObject({ text: 'Cron not installed', tone: 'danger', area: 'scheduler' });
    expect(c.webhooks).toMatchObject({ text: '1 failed delivery', tone: 'danger', area: 'webhooks' });
    expect(c.changes).toMatchObject({ text: '4 changes, 1 conflict', tone: 'danger', area: 'changes' });
  });

  test('webhooks: "at least" when not every delivery was looked at; hooks whose deliveries could not be read are said', () => {
    expect(glanceCells({ ...base, webhooks: { value: { hooks: 3, enabled: 3, failedLastDay: 200, partial: true, unread: 0 }, copiedAt: null } }, ctx).webhooks).toMatchObject({ text: 'At least 200 failed deliveries', tone: 'danger' });
    expect(glanceCells({ ...base, webhooks: { value: { hooks: 3, enabled: 3, failedLastDay: 0, partial: false, unread: 1 }, copiedAt: null } }, ctx).webhooks).toMatchObject({ text: 'Could not read all', tone: 'warn', detail: 'No failed delivery among those read. The deliveries of 1 webhook could not be read.' });
    expect(glanceCells({ ...base, webhooks: { value: { hooks: 0, enabled: 0, failedLastDay: 0, partial: false, unread: 0 }, copiedAt: null } }, ctx).webhooks).toMatchObject({ text: 'None', tone: 'muted' });
  });

  test('failed jobs outrank a healthy word; a site word other than healthy or warning is a danger', () => {
    expect(glanceCells({ ...base, scheduler: { value: { crontab: 'error', health: 'healthy', message: null, failedJobs24h: 2, jobsDue: 0 }, copiedAt: null } }, ctx).scheduler).toMatchObject({ text: '2 jobs failed', tone: 'danger' });
    expect(glanceCells({ ...base, scheduler: { value: { crontab: 'error', health: 'critical', message: 'Scheduler not running', failedJobs24h: 0, jobsDue: 0 }, copiedAt: null } }, ctx).scheduler).toMatchObject({ text: 'Critical', tone: 'danger', detail: 'Scheduler not running.' });
  });

  test('skipped parts are a quiet dash with the reason; a problem is a warning with the site’s words', () => {
    const c = glanceCells({ ...base, updates: { skipped: 'This account may not read it (api.gpm.read).' }, webhooks: { problem: 'Forbidden' } }, ctx);
    expect(c.updates).toEqual({ text: '—', tone: 'muted', detail: 'This account may not read it (api.gpm.read).' });
    expect(c.webhooks).toEqual({ text: 'Could not read', tone: 'warn', detail: 'Forbidden' });
  });

  test('not read yet: the Host’s cells say Reading…, what the renderer knows shows at once', () => {
    const c = glanceCells(null, { ...ctx, session: 'expired', unsynced: 2 });
    expect(c.answers.text).toBe('Reading…');
    expect(c.signedIn).toMatchObject({ text: 'Expired', tone: 'warn' });
    expect(c.changes).toMatchObject({ text: '2 changes', tone: 'warn' });
  });

  test('demo: the countdown runs from when it was read; none without a baseline; not from a copy', () => {
    expect(glanceCells(base, { ...ctx, now: at + 595_500 }).demo.text).toBe('in 5 s');
    expect(glanceCells(base, { ...ctx, now: at + 700_000 }).demo).toMatchObject({ text: 'due now', tone: 'warn' });
    expect(glanceCells({ ...base, demo: { value: { baseline: false, secondsUntilReset: null, intervalMinutes: 30 }, copiedAt: null } }, ctx).demo.text).toBe('No baseline');
    expect(glanceCells({ ...base, demo: { value: { baseline: true, secondsUntilReset: 60, intervalMinutes: 30 }, copiedAt: readAt } }, ctx).demo.text).toBe('Not known');
  });
});

test('countdown and secondsLeft', () => {
  expect(countdown(0)).toBe('due now');
  expect(countdown(59)).toBe('in 59 s');
  expect(countdown(61)).toBe('in 1 min 01 s');
  expect(countdown(7_260)).toBe('in 2 h 01 min');
  expect(secondsLeft(100, readAt, at + 30_000)).toBe(70);
  expect(secondsLeft(100, readAt, at + 300_000)).toBe(0);
});
