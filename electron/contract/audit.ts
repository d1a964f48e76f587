/**
 * The `audit.*` channels: a CMS site's audit trail as the site serves it (document 2, "Audit
 * trail"; the real AuditController, recordings 55–57). Its status and retention, its events paged
 * newest first with every filter, the facets for the pickers, and an export of the filtered trail
 * streamed by the Host into a file the person chose (CSV or JSON as the site writes it), with
 * progress and cancel. Every route needs `api.super` on the site: an account with only
 * `admin.super` is refused, and so is a demo account. The rows are `AuditEvent`s
 * (contract/audit-event.ts), shared with the kept copy.
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import { AuditFilter, type AuditEvent } from './audit-event';

/** The target types the site's trail names (document 2 lists the first six; the real service adds the rest). */
export const AUDIT_TARGET_TYPES = ['page', 'media', 'user', 'group', 'config', 'package', 'demo', 'grav', 'cms'] as const;

/** The trail's states and refusals in words, the same in the Host's errors and on the screen. */
export const AUDIT_WORDS = {
  off: 'The audit trail is off on this site: turn on plugins.api.audit.enabled in its API plugin’s settings to record and read it.',
  unavailable: 'The audit trail cannot run on this site: its PHP has no SQLite support (the pdo_sqlite extension), which the trail needs.',
  demo: 'The audit trail is hidden from demo accounts.',
  notSuper: 'Only an account with api.super may read the audit trail; admin.super alone is not enough.',
} as const;

/** Where the trail stands on the site: `off` (404: plugins.api.audit.enabled is off), `unavailable` (503: no SQLite), `on`. */
export type AuditState = 'on' | 'off' | 'unavailable';

export interface AuditStatus {
  state: AuditState;
  enabled: boolean;
  /** SQLite support loaded on the site. */
  available: boolean;
  /** `standard` or `detailed` (a page update's before/after), or what the site sent. */
  coverage: string | null;
  /** Events older than this many days are removed; 0 = no bound by age; null = not said. */
  retentionDays: number | null;
  /** Only this many newest events are kept; 0 = no bound by count; null = not said. */
  retentionMaxRows: number | null;
  /** Events stored now; null while the trail is off, or when the site could not count them. */
  total: number | null;
  /** The copy's time while the site is away; null for the site's answer. */
  copiedAt: string | null;
}

/** A row the site sent that could not be read: set aside with the reason, never the whole answer. */
export interface UnreadableAuditRow {
  /** Its place in the whole list (0-based, newest first). */
  position: number;
  problem: string;
}

export interface AuditEventsPage {
  items: AuditEvent[];
  unreadable: UnreadableAuditRow[];
  /** Events matching the filters, as the site counts them. */
  total: number | null;
  page: number;
  /** The page size the site used (it caps what was asked at its own limit). */
  perPage: number;
  next: number | null;
  /** The copy's time (first page only, while the site is away); null for the site's answer. */
  copiedAt: string | null;
}

export interface AuditFacets {
  /** Event codes the trail holds. */
  events: string[];
  /** Who acted, as the trail names them. */
  actors: { id: string | null; name: string | null }[];
  copiedAt: string | null;
}

export const AUDIT_EXPORT_FORMATS = ['csv', 'json'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** The file picked in the system's save dialog (Electron; it asked before replacing one), or why there is none. */
export type SaveFileChoice = { file: string; confirmed: true } | { cancelled: true } | { unsupported: true };

/** What an export did: the file written whole, or stopped by the person (no file left behind). */
export type AuditExportOutcome = ({ outcome: 'written' } & AuditExportResult) | { outcome: 'cancelled'; rows: number; bytes: number };

export interface AuditExportResult {
  /** Where the file was written (the path the person chose). */
  file: string;
  format: AuditExportFormat;
  /** Events in the file. */
  rows: number;
  bytes: number;
  /** Events matching the filters when the export began, when the site said (the site writes at most 100,000). */
  matched: number | null;
}

export interface AuditExportProgress {
  exportId: string;
  siteId: string;
  bytes: number;
  rows: number;
}

const ExportId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'Not an export id.'));
const FilePath = v.pipe(v.string(), v.trim(), v.nonEmpty('Enter where to save the file.'), v.maxLength(4096, 'That path is too long.'));

export const auditChannels = {
  /** Whether the trail is on, its coverage, retention and size; kept as a copy for offline reading. */
  'audit.status': channel<AuditStatus>()(v.strictObject({ siteId: SiteId })),
  /** One page of events, newest first, with the filters; the first page is kept as a copy. */
  'audit.events': channel<AuditEventsPage>()(
    v.strictObject({
      siteId: SiteId,
      filter: v.optional(AuditFilter, {}),
      page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000_000)), 1),
      perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000, 'At most 1000 a page.')), 50),
    }),
  ),
  /** The event codes and actors the trail holds, for the pickers; kept as a copy. */
  'audit.facets': channel<AuditFacets>()(v.strictObject({ siteId: SiteId })),
  /** The system's save dialog (Electron); browser mode answers `unsupported` and the area asks for a path. */
  'audit.chooseFile': channel<SaveFileChoice>()(v.strictObject({ format: v.picklist(AUDIT_EXPORT_FORMATS) })),
  /**
   * Streams the site's export of the filtered trail into `file` (absolute; its folder must exist;
   * an existing file is replaced only with `overwrite`), 0600, with `audit.exportProgress` events;
   * answers when the file is whole. A cut or cancelled export leaves no file behind.
   */
  'audit.export': channel<AuditExportOutcome>()(
    v.strictObject({
      siteId: SiteId,
      exportId: ExportId,
      format: v.picklist(AUDIT_EXPORT_FORMATS),
      filter: v.optional(AuditFilter, {}),
      file: FilePath,
      overwrite: v.optional(v.boolean()),
    }),
  ),
  /** Stops an export under way (its partial file is removed); false when none runs by that id. */
  'audit.cancelExport': channel<{ cancelled: boolean }>()(v.strictObject({ exportId: ExportId })),
};

export const auditEvents = {
  /** Bytes and events written so far by an export under way. */
  'audit.exportProgress': event<AuditExportProgress>(),
};
