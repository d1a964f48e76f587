/**
 * What the mailer's answers look like on the wire, both flavours (docs/mailer-audience.md,
 * "Conventions", "Records"): where the routes live and what the permissions are called (`/mailer`
 * and `mailer.*` in the documents; `/mailroom` and `mailroom.*` on the real plugin, Mailroom), the
 * paged envelope with its extra `meta`, paging capped at 200, the problems with their `code`, and
 * the records.
 */
import type { Flavor } from '../../flavor';
import { HttpProblem } from '../../http';
import type { MailerStore, RawImport, RawList, RawMembership, RawSegment, RawSubscriber, TagRow } from './store';

export interface MailerWire {
  /** the path segment under the API prefix: `mailer` or `mailroom` */
  base: string;
  /** the permission prefix: `mailer` or `mailroom` */
  perm: string;
}

export const wireOf = (flavor: Flavor): MailerWire => (flavor === 'real' ? { base: 'mailroom', perm: 'mailroom' } : { base: 'mailer', perm: 'mailer' });

export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 200;

/** PHP's `(int)` of a query value: the leading integer, 0 when there is none. */
function phpInt(value: string): number {
  const m = /^\s*([+-]?\d+)/.exec(value);
  return m ? Number(m[1]) : 0;
}

/** `page` and `per_page`: per_page at most 200; nonsense reads as the defaults (spec) or as PHP reads numbers (real). */
export function pagingOf(flavor: Flavor, url: URL): { page: number; perPage: number } {
  const rawPage = url.searchParams.get('page');
  const rawPer = url.searchParams.get('per_page');
  if (flavor === 'real') {
    const page = Math.max(1, phpInt(rawPage ?? '1'));
    const perPage = Math.min(PER_PAGE_MAX, Math.max(1, rawPer === null ? PER_PAGE_DEFAULT : phpInt(rawPer)));
    return { page, perPage };
  }
  const p = Math.trunc(Number(rawPage ?? 1));
  const n = rawPer === null || rawPer.trim() === '' ? PER_PAGE_DEFAULT : Math.trunc(Number(rawPer));
  return { page: Number.isFinite(p) && p >= 1 ? p : 1, perPage: Number.isFinite(n) && n >= 1 ? Math.min(PER_PAGE_MAX, n) : PER_PAGE_DEFAULT };
}

/**
 * The paged envelope (the API plugin's ApiResponse::paginated(): `meta.pagination` and links,
 * extra keys merged into `meta`); the spec flavour repeats the paging flat in `meta` too.
 */
export function paged(flavor: Flavor, selfPath: string, data: unknown[], total: number, page: number, perPage: number, extraMeta: Record<string, unknown> = {}) {
  const totalPages = Math.max(0, Math.ceil(total / perPage));
  const link = (p: number) => `${selfPath}?page=${p}&per_page=${perPage}`;
  const links: Record<string, string> = { self: link(page) };
  if (page > 1) Object.assign(links, { first: link(1), prev: link(page - 1) });
  if (page < totalPages) Object.assign(links, { next: link(page + 1), last: link(totalPages) });
  const pagination = { page, per_page: perPage, total, total_pages: totalPages };
  const meta = flavor === 'real' ? { pagination, ...extraMeta } : { total, page, per_page: perPage, total_pages: totalPages, pagination, ...extraMeta };
  return { data, meta, links };
}

const TITLES: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Entity', 503: 'Service Unavailable' };

/** A problem the caller can act on: `detail` says what to do, `code` is the word the app branches on. No address ever goes in. */
export function refuse(status: number, code: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpProblem {
  return new HttpProblem(status, TITLES[status] ?? 'Error', detail, { code, ...extra }, headers);
}

/** 422 naming the body field at fault. */
export function invalid(field: string, detail: string, code = 'invalid_field'): HttpProblem {
  return refuse(422, code, detail, { errors: [{ field, message: detail }] });
}

export const notFound = (what: string) => refuse(404, 'not_found', `No ${what} has that id.`);

// ---- records

export function listWire(l: RawList, counts: { pending: number; subscribed: number; unsubscribed: number }) {
  return {
    id: l.id,
    code: l.code,
    name: l.name,
    description: l.description,
    double_opt_in: l.double_opt_in === 1,
    public: l.public === 1,
    is_default: l.is_default === 1,
    position: l.position,
    from_name: l.from_name,
    from_email: l.from_email,
    subscribed_count: counts.subscribed,
    pending_count: counts.pending,
    unsubscribed_count: counts.unsubscribed,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

export const tagWire = (t: TagRow, count: number) => ({ id: t.id, code: t.code, label: t.label, count, created_at: t.created_at });

type MembershipRow = RawMembership & { code: string; list_name: string };

const membershipWire = (m: MembershipRow) => ({ id: m.list_id, code: m.code, name: m.list_name, status: m.status, since: m.since, left_by: m.status === 'unsubscribed' ? (m.left_by ?? 'site') : null });

export function subscriberWire(s: RawSubscriber, lists: MembershipRow[], tags: TagRow[]) {
  return {
    id: s.id,
    email: s.email,
    name: s.name,
    status: s.status,
    source: s.source,
    source_ref: s.source_ref,
    language: s.language || null,
    suppressed: s.suppressed === 1,
    import_id: s.import_id,
    lists: lists.map(membershipWire),
    tags: tags.map((t) => ({ id: t.id, code: t.code, label: t.label })),
    created_at: s.created_at,
    updated_at: s.updated_at,
    consent_at: s.consent_at,
    confirmed_at: s.confirmed_at,
    unsubscribed_at: s.unsubscribed_at,
  };
}

/** Table rows with their lists and tags, read in two queries for the page. */
export function subscriberRows(store: MailerStore, rows: RawSubscriber[]) {
  const ids = rows.map((r) => r.id);
  const lists = store.membershipsOf(ids);
  const tags = store.tagsOf(ids);
  return rows.map((r) => subscriberWire(r, lists.get(r.id) ?? [], tags.get(r.id) ?? []));
}

export function subscriberSummary(store: MailerStore, id: number) {
  const s = store.subscriber(id);
  return s ? subscriberRows(store, [s])[0]! : null;
}

/** GET /subscribers/{id}: everything the person's page shows. */
export function subscriberDetail(store: MailerStore, id: number) {
  const s = store.subscriber(id);
  if (!s) return null;
  const base = subscriberRows(store, [s])[0]!;
  const imp = s.import_id ? store.import(s.import_id) : null;
  const sup = store.suppression(s.email_hash);
  return {
    ...base,
    consent: { agreed_at: s.consent_at, ip: s.consent_ip, basis: s.consent_basis, confirmed_at: s.confirmed_at, left_at: s.unsubscribed_at, left_by: s.left_by, left_via: s.left_via },
    import: imp ? { id: imp.id, file_name: imp.file_name, created_at: imp.queued_at } : null,
    suppression: sup ? { reason: sup.reason, created_at: sup.created_at } : null,
    sends: store.sendsOf(s.id, 50),
    sends_total: store.sendsTotal(s.id),
    consent_log: store.consentLog(s.id),
  };
}

/** GET /subscribers/{id}/export: everything an erasure would delete, nothing about anybody else, no admin names or hashes. */
export function subscriberExport(store: MailerStore, id: number, nowSec: number) {
  const s = store.subscriber(id);
  if (!s) return null;
  const lists = store.membershipsOf([id]).get(id) ?? [];
  const imp = s.import_id ? store.import(s.import_id) : null;
  const sup = store.suppression(s.email_hash);
  return {
    exported_at: nowSec,
    profile: {
      email: s.email,
      name: s.name,
      language: s.language || null,
      status: s.status,
      source: s.source,
      source_ref: s.source_ref,
      created_at: s.created_at,
      consent: { agreed_at: s.consent_at, ip: s.consent_ip, basis: s.consent_basis, confirmed_at: s.confirmed_at, left_at: s.unsubscribed_at, left_by: s.left_by, left_via: s.left_via },
    },
    lists: lists.map((m) => ({ code: m.code, name: m.list_name, status: m.status, since: m.since, left_by: m.status === 'unsubscribed' ? (m.left_by ?? 'site') : null, left_via: m.left_via })),
    tags: (store.tagsOf([id]).get(id) ?? []).map((t) => t.code),
    consent_log: store.consentLog(id, true).map(({ admin: _admin, id: _id, ...e }) => e),
    sends: store.sendsOf(id, 1_000_000),
    clicks: store.clicksOf(id),
    provider_reports: store.eventsOf(s.email_hash),
    suppression: sup ? { reason: sup.reason, created_at: sup.created_at } : null,
    import: imp ? { file_name: imp.file_name, created_at: imp.queued_at } : null,
    messages: store.messagesOf(s.email),
  };
}

export function segmentWire(store: MailerStore, s: RawSegment) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    list_id: s.list_id,
    definition: JSON.parse(s.definition) as unknown,
    count: s.count,
    left_out: s.left_out,
    counted_at: s.counted_at,
    campaigns: store.campaignsUsingSegment(s.id).length,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function importWire(i: RawImport) {
  return {
    id: i.id,
    file_name: i.file_name,
    status: i.status,
    list_id: i.list_id,
    tag: i.tag,
    basis: i.basis,
    as_confirmed: i.as_confirmed === 1,
    preset: i.preset,
    mapping: JSON.parse(i.mapping) as unknown,
    rows_total: i.rows_total,
    rows_done: i.rows_done,
    progress: i.rows_total > 0 ? Math.min(1, Math.round((i.rows_done / i.rows_total) * 10_000) / 10_000) : i.status === 'finished' ? 1 : 0,
    counts: JSON.parse(i.counts) as unknown,
    reasons: JSON.parse(i.reasons) as unknown,
    created_by: i.created_by,
    queued_at: i.queued_at,
    started_at: i.started_at,
    finished_at: i.finished_at,
    error: i.error,
  };
}
