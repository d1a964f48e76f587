/** Cron expressions as Grav's scheduler reads them: parsed, in words, and their next runs. */
import { describe, expect, test } from 'vitest';
import { describeCron, nextRuns, parseCron, type Cron } from '../../electron/scheduler/cron';

const cron = (e: string): Cron => {
  const c = parseCron(e);
  if ('error' in c) throw new Error(c.error);
  return c;
};
const iso = (ds: Date[]) => ds.map((d) => d.toISOString().slice(0, 16));

describe('cron', () => {
  test('the recorded jobs of a real Grav in words, with their next runs', () => {
    expect(describeCron(cron('0 4 * * *'))).toBe('At 04:00, every day (UTC)');
    expect(describeCron(cron('0 3 * * *'))).toBe('At 03:00, every day (UTC)');
    expect(iso(nextRuns(cron('0 3 * * *'), new Date('2026-11-23T20:09:44Z')))).toEqual(['2026-11-24T03:00', '2026-11-25T03:00', '2026-11-26T03:00']);
  });

  test('steps, lists, ranges, names and macros', () => {
    expect(describeCron(cron('*/15 * * * *'))).toBe('Every 15 minutes (UTC)');
    expect(describeCron(cron('* * * * *'))).toBe('Every minute (UTC)');
    expect(describeCron(cron('@hourly'))).toBe('Every hour, on the hour (UTC)');
    expect(describeCron(cron('30 4 * * mon,fri'))).toBe('At 04:30 on Monday and Friday (UTC)');
    expect(describeCron(cron('0 9 * * 1-5'))).toBe('At 09:00 on weekdays (UTC)');
    expect(describeCron(cron('0 0 1 jan,jul *'))).toBe('At 00:00 on day 1 of the month in January and July (UTC)');
    expect(describeCron(cron('0 */6 * * *'))).toBe('Every 6 hours at 00 past (UTC)');
    expect(iso(nextRuns(cron('*/15 * * * *'), new Date('2026-11-24T10:07:00Z'), 2))).toEqual(['2026-11-24T10:15', '2026-11-24T10:30']);
    expect(iso(nextRuns(cron('30 4 * * mon,fri'), new Date('2026-11-24T10:00:00Z'), 2))).toEqual(['2026-11-27T04:30', '2026-11-30T04:30']);
    expect(iso(nextRuns(cron('0 0 29 2 *'), new Date('2026-03-01T00:00:00Z'), 1))).toEqual(['2028-02-29T00:00']);
  });

  test('day of month and day of week: either matches when both are set; 7 is Sunday', () => {
    expect(iso(nextRuns(cron('0 12 1 * 0'), new Date('2026-11-24T00:00:00Z'), 3))).toEqual(['2026-11-29T12:00', '2026-12-01T12:00', '2026-12-06T12:00']);
    expect(iso(nextRuns(cron('0 12 * * 7'), new Date('2026-11-24T00:00:00Z'), 1))).toEqual(['2026-11-29T12:00']);
  });

  test('what cannot be read is said in words', () => {
    expect(parseCron('0 4 * *')).toEqual({ error: 'A cron expression has five fields (minute hour day month weekday); this one has 4.' });
    expect(parseCron('61 * * * *')).toEqual({ error: '61 is not a minute (0–59).' });
    expect(parseCron('0 4 * * funday')).toEqual({ error: '“funday” is not a day of week.' });
    expect(parseCron('*/0 * * * *')).toEqual({ error: '“/0” is not a step of the minute.' });
    expect(parseCron('0 5-2 * * *')).toEqual({ error: '5-2 runs backwards in the hour.' });
  });
});
