/**
 * The `demo.*` channels: a CMS site's demo mode (document 2, "Demo mode" and its state table; the
 * real DemoController and DemoManager, recording 58): its status (a baseline captured or not, the
 * permissions a demo account may still write with, the content roots, the reset interval and
 * triggers, the last reset and the seconds until the next), capturing the baseline and resetting
 * the content to it now. Both writes are for super admins and never for demo accounts (the site
 * refuses them); the status is kept as a copy for offline reading.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

export interface DemoStatus {
  /** A baseline has been captured: resets restore it. Nothing is reset until one exists. */
  baselineExists: boolean;
  /** Permissions a demo account may still write with (`plugins.api.demo.writable`). */
  writable: string[];
  /** The content roots the baseline holds (`pages`, `media`, `data`…). */
  roots: string[];
  /** Minutes between resets. */
  resetInterval: number | null;
  /** The content is reset by the first request after the interval ran out. */
  resetOnRequest: boolean;
  /** The site's scheduler resets it too (`api-demo-reset`). */
  resetOnSchedule: boolean;
  /** When it was last reset (or the baseline captured), ISO. */
  lastReset: string | null;
  /** Seconds until the next reset as of `readAt`; 0 = due now; null without a baseline. */
  secondsUntilReset: number | null;
  /** When the site gave this status (ISO): the countdown runs from here. */
  readAt: string;
}

/** What a capture or a reset did: `done` false when the site did nothing (its words in `message`). */
export interface DemoActionResult {
  done: boolean;
  message: string | null;
  status: DemoStatus;
}

export const demoChannels = {
  'demo.status': channel<DemoStatus & { copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  /** Captures the writable content as the new baseline (replacing one that exists); never queued. */
  'demo.baseline': channel<DemoActionResult>()(v.strictObject({ siteId: SiteId })),
  /** Restores the content from the baseline now (edits since are lost); never queued. */
  'demo.reset': channel<DemoActionResult>()(v.strictObject({ siteId: SiteId })),
};

export const demoEvents = {};
