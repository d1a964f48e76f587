/**
 * The CMS sandbox's cron evaluator (test/sandbox/cms/ops/cron.ts), which the scheduler's due jobs
 * rest on: the five fields, lists, ranges, steps, names, macros, the day-field rule, and errors.
 */
import { describe, expect, test } from 'vitest';
import { cronMatches, CronError, nextRun, parseCron } from '../sandbox/cms/ops/cron';

const at = (iso: string) => Date.parse(iso);
const next = (expr: string, from: string) => {
  const n = nextRun(parseCron(expr), at(from));
  return n === null ? null : new Date(n).toISOString();
};

describe('cron evaluator', () => {
  test('every minute and a fixed time', () => {
    expect(next('* * * * *', '2026-11-24T10:00:30Z')).toBe('2026-11-24T10:01:00.000Z');
    expect(next('0 3 * * *', '2026-11-24T10:00:00Z')).toBe('2026-11-25T03:00:00.000Z');
    expect(next('0 3 * * *', '2026-11-24T02:59:59Z')).toBe('2026-11-24T03:00:00.000Z');
  });

  test('lists, ranges and steps', () => {
    expect([...parseCron('1,5,10-12 * * * *').minutes]).toEqual([1, 5, 10, 11, 12]);
    expect([...parseCron('*/15 * * * *').minutes]).toEqual([0, 15, 30, 45]);
    expect([...parseCron('10-30/10 * * * *').minutes]).toEqual([10, 20, 30]);
    expect([...parseCron('5/20 * * * *').minutes]).toEqual([5, 25, 45]);
    expect(next('*/15 * * * *', '2026-11-24T10:16:00Z')).toBe('2026-11-24T10:30:00.000Z');
    expect(next('0 9-17/4 * * *', '2026-11-24T14:00:00Z')).toBe('2026-11-24T17:00:00.000Z');
  });

  test('month and day names, Sunday as 0 or 7', () => {
    // 2026-11-24 is a Tuesday
    expect(next('30 */6 * * mon-fri', '2026-11-28T00:00:00Z')).toBe('2026-11-30T00:30:00.000Z');
    expect(next('0 0 * * 7', '2026-11-24T00:00:00Z')).toBe('2026-11-29T00:00:00.000Z');
    expect(next('0 0 * * SUN', '2026-11-24T00:00:00Z')).toBe('2026-11-29T00:00:00.000Z');
    expect(next('0 0 1 jan *', '2026-11-24T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('0 12 * feb,mar *', '2026-11-24T00:00:00Z')).toBe('2027-02-01T12:00:00.000Z');
  });

  test('both day fields restricted: either matches', () => {
    // the 1st of the month or any Friday
    expect(next('0 0 1 * fri', '2026-11-24T00:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(next('0 0 1 * fri', '2026-11-28T00:00:00Z')).toBe('2026-12-01T00:00:00.000Z');
    // only the day of month restricted
    expect(next('0 0 31 * *', '2026-11-24T00:00:00Z')).toBe('2026-12-31T00:00:00.000Z');
  });

  test('macros and matching a minute', () => {
    expect(next('@hourly', '2026-11-24T10:20:00Z')).toBe('2026-11-24T11:00:00.000Z');
    expect(next('@daily', '2026-11-24T10:20:00Z')).toBe('2026-11-25T00:00:00.000Z');
    expect(next('@weekly', '2026-11-24T10:20:00Z')).toBe('2026-11-29T00:00:00.000Z');
    expect(cronMatches(parseCron('0 4 * * *'), at('2026-11-24T04:00:59Z'))).toBe(true);
    expect(cronMatches(parseCron('0 4 * * *'), at('2026-11-24T04:01:00Z'))).toBe(false);
  });

  test('a date that never comes gives null', () => {
    expect(next('0 0 30 feb *', '2026-11-24T00:00:00Z')).toBeNull();
  });

  test.each(['', '* * * *', '* * * * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '* * * 13 *', '* * * * 8', '*/0 * * * *', '5-1 * * * *', 'a * * * *', '1-2-3 * * * *', '*/5/2 * * * *'])(
    'refuses %j',
    (expr) => {
      expect(() => parseCron(expr)).toThrow(CronError);
    },
  );
});
