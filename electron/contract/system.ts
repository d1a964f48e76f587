/**
 * The `system.*` channels: a CMS site's system information (versions, PHP and its settings, the
 * installed packages as the site reports them), its cache cleared per kind, and its reports (the
 * core's checks and the plugins'). The real SystemController and ReportsController give the shapes
 * (recordings 25 and 59); the documents only name these routes.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

export interface SystemInfo {
  cmsVersion: string | null;
  phpVersion: string | null;
  serverSoftware: string | null;
  environment: string | null;
  phpExtensions: string[];
  plugins: { name: string; version: string | null; enabled: boolean | null }[];
  themes: { name: string; version: string | null; active: boolean | null }[];
  /** PHP's settings in the site's groups ("Upload & POST" → {upload_max_filesize: "64M"}). */
  phpConfig: { group: string; values: { key: string; value: string }[] }[];
  copiedAt: string | null;
}

/** What a cache clear empties (Grav's scopes): standard is what the admin's button does. */
export const CACHE_SCOPES = ['standard', 'all', 'images', 'assets', 'tmp'] as const;
export type CacheScope = (typeof CACHE_SCOPES)[number];

export type ReportStatus = 'success' | 'warning' | 'error' | 'info';

/** One line of a report: its text and level, as far as the site gives them. */
export interface ReportLine {
  /** Plain text or the site's small HTML (shown sanitised). */
  text: string;
  level: 'ok' | 'warning' | 'error' | 'info';
  help: string | null;
  /** Further lines (a check's details). */
  details: string[];
}

export interface SiteReport {
  id: string;
  title: string;
  provider: string | null;
  status: ReportStatus;
  message: string | null;
  lines: ReportLine[];
  /** The report has a plugin script to draw it (run only where the person allows plugin scripts). */
  component: string | null;
}

export const systemChannels = {
  'system.info': channel<SystemInfo>()(v.strictObject({ siteId: SiteId })),
  'system.clearCache': channel<{ scope: CacheScope; message: string | null; details: string[] }>()(v.strictObject({ siteId: SiteId, scope: v.picklist(CACHE_SCOPES, 'Not a cache the site clears.') })),
  'system.reports': channel<{ reports: SiteReport[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
};

export const systemEvents = {};
