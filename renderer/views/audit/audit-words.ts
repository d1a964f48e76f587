/**
 * An audit event put in words for the table, the filter bar and the detail (pure; shared by the
 * site's trail and the kept copy): times, who and what, the context's hints, and a page update's
 * changes as before/after per field.
 */
import type { AuditEvent, AuditFilter } from '../../../electron/contract/index';

/** A row's key in a table of one or several sites. */
export const eventKey = (e: AuditEvent & { siteId?: string }) => `${e.siteId ?? ''}:${e.id}`;

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-23 20:09:45` in the person's time zone: sortable, the same length on every row. */
export function eventTime(ts: number): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return String(ts);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export type SeverityTone = 'info' | 'notice' | 'warning';
export const severityTone = (s: string): SeverityTone => (s === 'warning' || s === 'notice' ? s : 'info');

/** "Ada Admin (admin)", the id alone, or "nobody known". */
export function actorText(e: Pick<AuditEvent, 'actorId' | 'actorName'>): string {
  if (e.actorName && e.actorId && e.actorName !== e.actorId) return `${e.actorName} (${e.actorId})`;
  return e.actorName ?? e.actorId ?? 'nobody known';
}

/** "page /blog", "config site", or "—". */
export function targetText(e: Pick<AuditEvent, 'targetType' | 'targetId'>): string {
  const parts = [e.targetType, e.targetId].filter((x): x is string => Boolean(x));
  return parts.length ? parts.join(' ') : '—';
}

const HINT_WORDS: Record<string, string> = {
  method: 'How',
  reason: 'Reason',
  old_route: 'From route',
  new_route: 'To route',
  lang: 'Language',
  version: 'Version',
  bytes: 'Size',
};

/** A value as text: scalars as they are, null as "(none)", anything else as indented JSON. */
export function valueText(x: unknown): string {
  if (x === null || x === undefined) return '(none)';
  if (typeof x === 'string') return x === '' ? '(empty)' : x;
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  return JSON.stringify(x, null, 2);
}

/** The context's entries other than `changes`, labelled in words where the document names them. */
export function contextHints(context: Record<string, unknown> | null): { key: string; label: string; value: string; block: boolean }[] {
  if (!context) return [];
  return Object.entries(context)
    .filter(([k]) => k !== 'changes')
    .map(([key, x]) => {
      const value = key === 'bytes' && typeof x === 'number' ? `${x.toLocaleString()} bytes` : valueText(x);
      return { key, label: HINT_WORDS[key] ?? key, value, block: typeof x === 'object' && x !== null };
    });
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  /** Long or several-line text on either side: shown as a diff; else before → after. */
  asText: boolean;
}

const isLongText = (x: unknown) => typeof x === 'string' && (x.length > 80 || x.includes('\n'));

/**
 * A page update's `changes`, field by field: `{field: {old, new}}` as the real service writes it,
 * `{before, after}` or `{from, to}` too, or a list of `{field, old, new}`. Anything else: none.
 */
export function changesOf(context: Record<string, unknown> | null): FieldChange[] {
  const raw = context?.changes;
  const pair = (x: unknown): [unknown, unknown] | null => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
    const o = x as Record<string, unknown>;
    if ('old' in o || 'new' in o) return [o.old ?? null, o.new ?? null];
    if ('before' in o || 'after' in o) return [o.before ?? null, o.after ?? null];
    if ('from' in o || 'to' in o) return [o.from ?? null, o.to ?? null];
    return null;
  };
  const out: FieldChange[] = [];
  const add = (field: string, p: [unknown, unknown] | null) => {
    if (p) out.push({ field, before: p[0], after: p[1], asText: isLongText(p[0]) || isLongText(p[1]) });
  };
  if (Array.isArray(raw)) {
    for (const x of raw) if (typeof x === 'object' && x !== null && typeof (x as { field?: unknown }).field === 'string') add((x as { field: string }).field, pair(x));
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [field, x] of Object.entries(raw)) add(field, pair(x));
  }
  // the content last: it is the longest
  return out.sort((a, b) => Number(a.field === 'content') - Number(b.field === 'content'));
}

/** Whether any filter is set. */
export const isFiltered = (f: AuditFilter): boolean => Object.values(f).some((x) => x !== undefined && x !== '');

/** A filter without its empty values (what is sent, and what is compared). */
export function cleanFilter(f: AuditFilter): AuditFilter {
  const out: Record<string, string | number> = {};
  for (const [k, x] of Object.entries(f)) if (x !== undefined && x !== '') out[k] = x as string | number;
  return out as AuditFilter;
}

/** Epoch ms → the value of an `<input type="datetime-local">` in the person's time zone. */
export function toLocalInput(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of a datetime-local input → epoch ms (the start of that minute; `end`: its last millisecond). */
export function fromLocalInput(value: string, end = false): number | undefined {
  if (!value) return undefined;
  const at = new Date(value).getTime();
  return Number.isNaN(at) ? undefined : end ? at + 59_999 : at;
}

/** Retention in words: "90 days", "the newest 100,000 events", 0 as no bound. */
export function retentionWords(days: number | null, maxRows: number | null): string {
  const d = days === null ? 'not said' : days === 0 ? 'no limit by age' : `${days.toLocaleString()} day${days === 1 ? '' : 's'}`;
  const r = maxRows === null ? 'not said' : maxRows === 0 ? 'no limit by count' : maxRows === 1 ? 'the newest event' : `the newest ${maxRows.toLocaleString()} events`;
  return `${d}; ${r}`;
}
