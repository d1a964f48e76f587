/**
 * The CMS sandbox's reports (test/sandbox/cms/mailer/reports.ts; docs/mailer-campaigns.md,
 * "Reports"): the period of a query and the CSV of a report.
 */
import { describe, expect, test } from 'vitest';
import { periodOf, reportCsv, reportType } from '../sandbox/cms/mailer/reports';

const q = (o: Record<string, string>) => (k: string) => o[k] ?? null;
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { status: number; extra: { code: string } }).status + ' ' + (e as { extra: { code: string } }).extra.code;
  }
  return 'accepted';
};

describe('reports', () => {
  test('the period: the last 30 days by default; from before to; at most 366 days; whole seconds', () => {
    expect(periodOf(q({}), 1_000_000_000)).toEqual({ from: 1_000_000_000 - 30 * 86_400, to: 1_000_000_000 });
    expect(periodOf(q({ to: '500000000' }), 1)).toEqual({ from: 500_000_000 - 30 * 86_400, to: 500_000_000 });
    expect(periodOf(q({ from: '10', to: String(10 + 366 * 86_400) }), 1)).toEqual({ from: 10, to: 10 + 366 * 86_400 });
    expect(code(() => periodOf(q({ from: '10', to: String(11 + 366 * 86_400) }), 1))).toBe('422 filter_invalid');
    expect(code(() => periodOf(q({ from: '10', to: '10' }), 1))).toBe('422 filter_invalid');
    expect(code(() => periodOf(q({ from: '1.5' }), 100))).toBe('422 filter_invalid');
    expect(code(() => reportType('opens'))).toBe('404 unknown_report');
    expect(reportType('growth')).toBe('growth');
  });

  test('CSV: the columns as header, numbers as they are (a negative net too), text defused and quoted', () => {
    const csv = reportCsv({ type: 'campaigns', from: 0, to: 1, columns: ['name', 'net', 'rate'], rows: [{ name: '=cmd, "x"', net: -3, rate: null }], totals: null });
    expect(csv).toBe('\ufeffname,net,rate\r\n"\'=cmd, ""x""",-3,\r\n');
  });
});
