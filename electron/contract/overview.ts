/**
 * The `overview.*` channels: every site at a glance. For one CMS site, what only the site can say —
 * whether it answers, its version, pending updates, the scheduler's health, failed webhook
 * deliveries of the last day, when demo mode resets next, the mailer's audience and alerts — each part read on its own, so one the
 * site refuses (or this account may not read) is said while the others show. What Sitedesk knows
 * itself (signed in, unsynced changes) the renderer has already; it is not asked again here.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

/**
 * One part of a site's health: its value (`copiedAt` when it comes from Sitedesk's copy because
 * the site is away), `skipped` when it does not apply (signed out, the account may not read it,
 * the site has no such thing), or the `problem` the site answered.
 */
export type Glimpse<T> = { value: T; copiedAt: string | null } | { skipped: string } | { problem: string };

export interface UpdatesGlimpse {
  /** Updates waiting, the core counting as one. */
  total: number;
  /** The newer core version, when one is out. */
  core: string | null;
}

export interface SchedulerGlimpse {
  crontab: 'not_installed' | 'installed' | 'error' | 'unknown';
  /** The site's own word on the scheduler's health (`healthy`, `warning`, …) and its message. */
  health: string | null;
  message: string | null;
  failedJobs24h: number | null;
  jobsDue: number | null;
}

export interface WebhooksGlimpse {
  hooks: number;
  enabled: number;
  /** Deliveries that failed in the 24 hours before `readAt`. */
  failedLastDay: number;
  /** More deliveries than were looked at: `failedLastDay` is "at least". */
  partial: boolean;
  /** Hooks whose deliveries could not be read (not counted). */
  unread: number;
}

export interface DemoGlimpse {
  /** Demo mode's baseline exists, so resets happen. */
  baseline: boolean;
  /** Seconds to the next reset when it was read (0: due now); null without a baseline. */
  secondsUntilReset: number | null;
  /** The interval between resets, in minutes. */
  intervalMinutes: number | null;
}

export interface MailerGlimpse {
  /** People subscribed now. */
  subscribed: number;
  /** Joined minus left over the last `days` days. */
  net: number;
  days: number;
  /** The mailer's alerts by severity: errors (a campaign stopped, not ready to go) and warnings (failed sends, bounces). */
  errors: number;
  warnings: number;
  /** The first error's or warning's words, for the tooltip. */
  first: string | null;
}

export interface SiteGlance {
  siteId: string;
  /** Whether the site answered just now (null: not asked, e.g. no address to ask). */
  reachable: boolean | null;
  /** The CMS version the site reports to this account (from /me), null when not known. */
  version: string | null;
  updates: Glimpse<UpdatesGlimpse>;
  scheduler: Glimpse<SchedulerGlimpse>;
  webhooks: Glimpse<WebhooksGlimpse>;
  demo: Glimpse<DemoGlimpse>;
  mailer: Glimpse<MailerGlimpse>;
  /** When this glance was read (ISO): the countdowns run from here. */
  readAt: string;
}

export const overviewChannels = {
  /** One CMS site's health at a glance; every part on its own. */
  'overview.site': channel<SiteGlance>()(v.strictObject({ siteId: SiteId })),
};

export const overviewEvents = {};
