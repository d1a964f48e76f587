/**
 * A site's mailer reports (contract/mailer-reports.ts; docs/mailer-campaigns.md, "The seven
 * reports"): one report over a period, read again when either changes (the answer to an older
 * question that comes late is dropped). The last 30 days is the site's default and Sitedesk's
 * kept copy, read with its time while the site is away; other periods need the site. Values are
 * said in words here: days and times in the person's locale, rates in percent, the site's codes
 * (a source, an engagement band) by name.
 */
import { MAILER_REPORT_TYPES, SOURCE_WORDS, type MailerReport, type MailerReportColumn, type MailerReportType } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';

export const PERIODS = [
  { days: 7, label: 'the last 7 days' },
  { days: 30, label: 'the last 30 days' },
  { days: 90, label: 'the last 90 days' },
  { days: 365, label: 'the last year' },
] as const;
export type PeriodDays = (typeof PERIODS)[number]['days'];

const DAY_MS = 86_400_000;

export class ReportsState {
  readonly siteId: string;
  type = $state<MailerReportType>('campaigns');
  days = $state<PeriodDays>(30);
  report = $state.raw<MailerReport | null>(null);
  error = $state.raw<AppError | null>(null);
  loading = $state(false);
  #asked = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  async load(): Promise<void> {
    const n = ++this.#asked;
    this.loading = true;
    const type = this.type;
    const period = this.days === 30 ? {} : { from: new Date(Date.now() - this.days * DAY_MS).toISOString(), to: new Date().toISOString() };
    try {
      const r = await invoke('mailer.report', { siteId: this.siteId, type, ...period });
      if (n !== this.#asked) return;
      this.report = r;
      this.error = null;
    } catch (err) {
      if (n !== this.#asked) return;
      this.error = AppError.from(err);
      // a report of another type must not stand under this one's name
      if (this.report?.type !== type) this.report = null;
    } finally {
      if (n === this.#asked) this.loading = false;
    }
  }
}

export const isReportType = (x: string): x is MailerReportType => (MAILER_REPORT_TYPES as readonly string[]).includes(x);

const BANDS: Record<string, string> = {
  opened_in_period: 'Opened in the period',
  opened_before: 'Opened only before it',
  never_opened: 'Mailed, never opened',
  not_mailed: 'Never mailed',
};

export const dayWords = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
export const shortDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A cell as a person reads it. */
export function cellWords(c: MailerReportColumn, x: string | number | null): string {
  if (x === null) return '—';
  switch (c.kind) {
    case 'day':
      return dayWords(String(x));
    case 'time':
      return new Date(String(x)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    case 'percent':
      return `${Number(x).toLocaleString(undefined, { maximumFractionDigits: 2 })} %`;
    case 'count':
      return Number(x).toLocaleString();
    case 'id':
      return String(x);
    default:
      if (c.key === 'band') return BANDS[String(x)] ?? String(x);
      if (c.key === 'source') return SOURCE_WORDS[String(x) as keyof typeof SOURCE_WORDS] ?? String(x);
      return String(x);
  }
}

/** What a report draws: the series over its days, or one figure per row; null where a table says it all. */
export const CHARTED: Partial<Record<MailerReportType, { by: 'day' | 'row'; series: { key: string; color: string }[] }>> = {
  growth: { by: 'day', series: [{ key: 'joined', color: 'var(--success-text, #15803d)' }, { key: 'left', color: 'var(--danger-text, #b91c1c)' }] },
  deliverability: { by: 'day', series: [{ key: 'bounces', color: 'var(--warning-text, #b45309)' }, { key: 'complaints', color: 'var(--danger-text, #b91c1c)' }, { key: 'suppressed', color: 'var(--accent)' }] },
  sources: { by: 'row', series: [{ key: 'joined', color: 'var(--accent)' }, { key: 'still_subscribed', color: 'var(--success-text, #15803d)' }] },
  engagement: { by: 'row', series: [{ key: 'people', color: 'var(--accent)' }] },
};
