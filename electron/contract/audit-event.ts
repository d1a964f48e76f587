/**
 * One audit event as Sitedesk holds it, and the filters over a trail: shared by the site's trail
 * (`audit.*`, read from the site) and the kept copy (`auditCopy.*`, read from SQLite), so a table,
 * a filter bar and a detail panel draw either. Fields are document 2's "Audit event" (and the real
 * AuditController's rows), in the app's camelCase; `ts` is Unix epoch milliseconds as the site sends it.
 */
import * as v from 'valibot';

export const AUDIT_SEVERITIES = ['info', 'notice', 'warning'] as const;
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

export interface AuditEvent {
  /** The site's id of the event (unique per site, growing). */
  id: number;
  /** Unix epoch milliseconds. */
  ts: number;
  /** `namespace.action`, e.g. `page.updated`. */
  event: string;
  /** `info`, `notice`, `warning`, or what the site sent when it is none of them. */
  severity: string;
  actorId: string | null;
  actorName: string | null;
  actorRoles: string[];
  /** `apikey`, `jwt`, `session`, or what the site sent. */
  authMethod: string | null;
  ip: string | null;
  userAgent: string | null;
  targetType: string | null;
  targetId: string | null;
  /** Scalar hints (`method`, `reason`, `old_route`, `new_route`, `lang`, `version`, `bytes`) and,
   * with detailed coverage, a page update's `changes` (before and after per field). */
  context: Record<string, unknown> | null;
}

const short = (max: number) => v.pipe(v.string(), v.maxLength(max, `At most ${max} characters.`));
const epochMs = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8_640_000_000_000_000));

/** Document 2's filters, combined with AND; `from`/`to` inclusive epoch milliseconds; `q` a
 * case-insensitive substring of actor name, target id, event code or IP. */
export const AuditFilter = v.strictObject({
  event: v.optional(short(200)),
  actor: v.optional(short(200)),
  targetType: v.optional(short(100)),
  severity: v.optional(short(50)),
  from: v.optional(epochMs),
  to: v.optional(epochMs),
  q: v.optional(short(500)),
});
export type AuditFilter = v.InferOutput<typeof AuditFilter>;
