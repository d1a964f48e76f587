/**
 * The mailer's deliverability, providers and reports (document 2, "Deliverability and providers",
 * "Reports"; docs/mailer-campaigns.md, "Deliverability", "Providers", "The seven reports"): the
 * SPF, DKIM and DMARC checks of every From domain the site mails from (the site keeps its answer
 * ten minutes; Check again looks everything up now), the providers whose bounce and complaint
 * reports the site takes (the webhook URL to give them, whether a secret is set — never the secret
 * itself — a new one minted, the webhook set up through the provider's API), and the seven
 * reports over a period as a table, and as the site's CSV saved to a file the person chose.
 * Writes are sent now or refused, never queued.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { FilePath, JobId } from './mailer-common';
import type { SaveFileChoice } from './audit';
import type { MailerExportOutcome } from './mailer-subscribers';

export const DELIVERABILITY_CHECKS = ['spf', 'dkim', 'dmarc'] as const;
export type DeliverabilityCheckName = (typeof DELIVERABILITY_CHECKS)[number];
export type DeliverabilityStatus = 'pass' | 'warn' | 'fail';

export const DELIVERABILITY_CHECK_WORDS: Record<DeliverabilityCheckName, { name: string; what: string }> = {
  spf: { name: 'SPF', what: 'Which servers may send mail for the domain' },
  dkim: { name: 'DKIM', what: 'The key that signs each message' },
  dmarc: { name: 'DMARC', what: 'What receivers do with mail that fails the other two' },
};

export const DELIVERABILITY_STATUS_WORDS: Record<DeliverabilityStatus, string> = { pass: 'Passed', warn: 'Warning', fail: 'Failed' };

export interface DeliverabilityCheck {
  check: DeliverabilityCheckName | string;
  status: DeliverabilityStatus;
  /** The DNS name looked up (`_dmarc.site.example`). */
  name: string;
  /** The record found there, or null. */
  record: string | null;
  /** What it means and, unless it passed, what to add where — in the site's words. */
  detail: string;
  /** The record to add, when the site's words name one (quoted, or a mechanism to add); null otherwise. */
  fix: string | null;
}

export interface DeliverabilityDomain {
  domain: string;
  /** Who mails from it: the site's own From, and lists with their own From. */
  usedBy: { site: boolean; lists: number[] };
  status: DeliverabilityStatus;
  checks: DeliverabilityCheck[];
}

export interface MailerDeliverability {
  checkedAt: string | null;
  /** Until when the site answers the same looks-up (ten minutes) unless asked to check again. */
  freshUntil: string | null;
  /** The site answered what it had kept (not looked up now). */
  cached: boolean;
  /** The worst of every check. */
  status: DeliverabilityStatus;
  summary: { pass: number; warn: number; fail: number };
  domains: DeliverabilityDomain[];
  /** Sitedesk's copy's time when the site did not answer. */
  copiedAt: string | null;
}

export const MAILER_PROVIDERS = ['mailgun', 'postmark', 'sendgrid', 'ses'] as const;
export type MailerProviderName = (typeof MAILER_PROVIDERS)[number];

/** A mail provider whose bounce and complaint reports the site takes. No secret is ever answered. */
export interface MailerProvider {
  name: string;
  label: string;
  /** Where the provider posts its reports (the site says it once a secret is set). */
  webhookUrl: string | null;
  secretSet: boolean;
  /** The reports it sends (`bounce`, `complaint`). */
  reports: string[];
  /** Known after a secret was minted or a setup made here: */
  secretSetAt: string | null;
  /** The provider's API can create the webhook (Amazon SES: by hand). */
  setupByApi: boolean;
  webhookId: string | null;
  setupAt: string | null;
  /** A secret minted after the setup: the provider still signs with the old one. */
  setupNeeded: boolean;
}

export interface ProviderChange {
  provider: MailerProvider;
  /** A secret: one replaced (not the first). A setup: a webhook made now (false: the one there already). */
  rotated?: boolean;
  created?: boolean;
}

export const MAILER_REPORT_TYPES = ['campaigns', 'growth', 'lists', 'sources', 'engagement', 'deliverability', 'automations'] as const;
export type MailerReportType = (typeof MAILER_REPORT_TYPES)[number];

export const MAILER_REPORT_WORDS: Record<MailerReportType, { label: string; what: string }> = {
  campaigns: { label: 'Campaigns', what: 'Campaigns that went out in the period, with what became of their sends' },
  growth: { label: 'Growth', what: 'Day by day: who joined, who left, and the difference' },
  lists: { label: 'Lists', what: 'Each list now, and who joined or left it in the period' },
  sources: { label: 'Sources', what: 'How people came in the period, and how many are still subscribed' },
  engagement: { label: 'Engagement', what: 'Subscribed people by when they last opened a mailing' },
  deliverability: { label: 'Bounces and complaints', what: 'Day by day: the provider’s bounce and complaint reports, and the addresses suppressed' },
  automations: { label: 'Automations', what: 'Each automation: who entered, finished and left in the period, and what it mailed' },
};

/** How a column's values read: a day or a time (ISO text), a count, a percentage (0–100), an id, or text. */
export type MailerReportColumnKind = 'day' | 'time' | 'count' | 'percent' | 'id' | 'text';
export interface MailerReportColumn {
  key: string;
  label: string;
  kind: MailerReportColumnKind;
}

export interface MailerReport {
  type: MailerReportType;
  from: string | null;
  to: string | null;
  generatedAt: string | null;
  columns: MailerReportColumn[];
  /** One value per column, in the columns' order. */
  rows: (string | number | null)[][];
  /** The sums of the count columns, by key (null where the site sums nothing). */
  totals: Record<string, number> | null;
  /** Sitedesk's copy's time when the site did not answer (the default period is kept). */
  copiedAt: string | null;
}

const When = v.pipe(v.string(), v.isoTimestamp('A date and time.'));
const Period = { from: v.optional(When), to: v.optional(When) };
const Provider = v.picklist(MAILER_PROVIDERS, 'Not a provider the site takes reports from.');
const Type = v.picklist(MAILER_REPORT_TYPES, 'Not one of the seven reports.');

export const mailerReportChannels = {
  /** The checks of every From domain as the site last looked them up (kept ten minutes); kept as a copy. */
  'mailer.deliverability': channel<MailerDeliverability>()(v.strictObject({ siteId: SiteId })),
  /** Every domain looked up again now. */
  'mailer.recheckDeliverability': channel<MailerDeliverability>()(v.strictObject({ siteId: SiteId })),
  /** The providers with their webhook URL and whether a secret is set; kept as a copy. */
  'mailer.providers': channel<{ providers: MailerProvider[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  /**
   * A new webhook secret for the provider, kept by the site and never answered. Replacing one whose
   * answer was lost may already have happened: asked again it is refused saying so, unless `again`.
   */
  'mailer.providerSecret': channel<ProviderChange>()(v.strictObject({ siteId: SiteId, provider: Provider, again: v.optional(v.boolean()) })),
  /** The webhook made through the provider's API (asked again with the same secret: the same webhook). */
  'mailer.providerSetup': channel<ProviderChange>()(v.strictObject({ siteId: SiteId, provider: Provider })),
  /** One report over a period (default: the last 30 days, kept as a copy). */
  'mailer.report': channel<MailerReport>()(v.strictObject({ siteId: SiteId, type: Type, ...Period })),
  /** The system's save dialog for a report's CSV (Electron); browser mode answers `unsupported` and the screen asks for a path. */
  'mailer.chooseReportFile': channel<SaveFileChoice>()(v.strictObject({ type: Type })),
  /** The site's CSV of a report streamed into `file` (absolute, its folder there; an existing file only with `overwrite`), with `mailer.exportProgress` events; stopped by `mailer.cancelExport`. */
  'mailer.exportReport': channel<MailerExportOutcome>()(v.strictObject({ siteId: SiteId, type: Type, ...Period, exportId: JobId, file: FilePath, overwrite: v.optional(v.boolean()) })),
};
