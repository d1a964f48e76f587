/**
 * A CMS site's mailing plugin, its audience routes (document 2, "Mailing plugin routes";
 * docs/mailer-audience.md, the one written definition of what document 2 leaves "not shown"). One
 * reader for both plugins: document 2's `/mailer/…` and Grav's Mailroom `/mailroom/…` (every call
 * takes the site's base, found by `detect`). Tolerant:
 * - paging under `meta.pagination` (both) or flat in `meta` (document 2 repeats it), `links.next`;
 *   `meta.status_counts` and `meta.list_counts` beside it;
 * - times are UTC epoch seconds on the wire (numbers or numeric text), ISO text here;
 * - a row that cannot be read is set aside with its place and the field at fault — never its
 *   values, which are personal data (an address must not reach a message, let alone a log);
 * - problems keep the site's `detail` (scrubbed by the transport) and its `code` as the error's
 *   `reason`; the body fields it names (`list_id`, `definition.all.1.value`) are put under the
 *   channel's own input names (`listId`, `definition.all.1.value`) so a form shows them there.
 */
import * as v from 'valibot';
import type {
  ConsentEntry,
  EraseCounts,
  ImportCounts,
  ImportPage,
  ImportPreview,
  ListCounts,
  MailerBase,
  MailerImport,
  MailerList,
  MailerSegment,
  MailerTag,
  Membership,
  SegmentGroup,
  SegmentPreview,
  SegmentVocabulary,
  StatusCounts,
  Subscriber,
  SubscriberFilter,
  SubscriberRow,
  SubscriberSend,
  Suppression,
  SuppressionPage,
  UnreadableRow,
} from '../../contract';
import { isPlainObject, setField, SUBSCRIBER_STATUSES } from '../../contract';
import { AppError, isAppError } from '../../base/app-error';
import type { CallOptions, CallResult, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, listCall, nextPage, request, type Paging } from './envelope';
import { segment } from '../url-path';

// ── readers ──────────────────────────────────────────────────────────────────────────────────

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() !== '' ? x : typeof x === 'number' && Number.isFinite(x) ? String(x) : null);
const plain = (x: unknown): string => (typeof x === 'string' ? x : typeof x === 'number' && Number.isFinite(x) ? String(x) : '');
const int = (x: unknown): number | null => {
  const n = typeof x === 'string' && /^-?\d{1,16}$/.test(x.trim()) ? Number(x) : x;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};
const count = (x: unknown): number => {
  const n = int(x);
  return n !== null && n >= 0 ? n : 0;
};
const bool = (x: unknown): boolean => x === true || x === 1 || x === '1' || x === 'true';

/** UTC epoch seconds (a number or numeric text) as ISO text; ISO text kept; anything else null. */
export function isoOf(x: unknown): string | null {
  const n = typeof x === 'string' && /^\d{1,12}(\.\d+)?$/.test(x.trim()) ? Number(x) : x;
  if (typeof n === 'number' && Number.isFinite(n) && n > 0) return new Date(Math.trunc(n < 100_000_000_000 ? n * 1000 : n)).toISOString();
  if (typeof x === 'string' && x.trim() && !Number.isNaN(Date.parse(x))) return new Date(Date.parse(x)).toISOString();
  return null;
}

/** A record that cannot be read: which field, never its value. */
class Unreadable extends Error {
  constructor(readonly field: string) {
    super(field);
  }
}
const need = <T>(x: T | null, field: string): T => {
  if (x === null) throw new Unreadable(field);
  return x;
};

function membershipOf(raw: unknown): Membership | null {
  if (!isPlainObject(raw)) return null;
  const listId = int(raw.id ?? raw.list_id);
  if (listId === null) return null;
  const status = raw.status === 'pending' || raw.status === 'subscribed' || raw.status === 'unsubscribed' ? raw.status : 'subscribed';
  return { listId, code: plain(raw.code), name: plain(raw.name), status, since: isoOf(raw.since), leftBy: raw.left_by === 'self' || raw.left_by === 'site' ? raw.left_by : null };
}

const tagRef = (raw: unknown): { id: number; code: string; label: string } | null => {
  if (!isPlainObject(raw)) return null;
  const id = int(raw.id);
  return id === null ? null : { id, code: plain(raw.code), label: plain(raw.label) || plain(raw.code) };
};

/** A table row (and the start of one person's record); throws Unreadable naming the field. */
export function subscriberRowOf(raw: unknown): SubscriberRow {
  if (!isPlainObject(raw)) throw new Unreadable('(the row itself)');
  const status = typeof raw.status === 'string' && (SUBSCRIBER_STATUSES as readonly string[]).includes(raw.status) ? (raw.status as SubscriberRow['status']) : null;
  return {
    id: need(int(raw.id), 'id'),
    email: need(typeof raw.email === 'string' && raw.email.includes('@') ? raw.email : null, 'email'),
    name: plain(raw.name),
    status: need(status, 'status'),
    source: plain(raw.source) || 'admin',
    sourceRef: text(raw.source_ref),
    language: text(raw.language),
    suppressed: bool(raw.suppressed),
    importId: int(raw.import_id),
    lists: Array.isArray(raw.lists) ? raw.lists.map(membershipOf).filter((m): m is Membership => m !== null) : [],
    tags: Array.isArray(raw.tags) ? raw.tags.map(tagRef).filter((t): t is NonNullable<typeof t> => t !== null) : [],
    createdAt: isoOf(raw.created_at),
    updatedAt: isoOf(raw.updated_at),
    consentAt: isoOf(raw.consent_at),
    confirmedAt: isoOf(raw.confirmed_at),
    unsubscribedAt: isoOf(raw.unsubscribed_at),
  };
}

function consentEntryOf(raw: unknown, i: number): ConsentEntry | null {
  if (!isPlainObject(raw)) return null;
  return {
    id: int(raw.id) ?? i,
    at: isoOf(raw.at),
    action: plain(raw.action),
    listId: int(raw.list_id),
    listName: text(raw.list_name),
    by: text(raw.by),
    admin: text(raw.admin),
    note: text(raw.note),
    ip: text(raw.ip),
    via: text(raw.via),
  };
}

function sendOf(raw: unknown): SubscriberSend | null {
  if (!isPlainObject(raw)) return null;
  const campaignId = int(raw.campaign_id);
  if (campaignId === null) return null;
  return { campaignId, campaignName: text(raw.campaign_name), status: plain(raw.status) || 'sent', sentAt: isoOf(raw.sent_at), openedAt: isoOf(raw.opened_at), clickedAt: isoOf(raw.clicked_at) };
}

export function subscriberOf(raw: unknown): Subscriber {
  const row = subscriberRowOf(raw);
  const d = raw as Record<string, unknown>;
  const c = isPlainObject(d.consent) ? d.consent : {};
  const imp = isPlainObject(d.import) ? d.import : null;
  const sup = isPlainObject(d.suppression) ? d.suppression : null;
  return {
    ...row,
    consent: { agreedAt: isoOf(c.agreed_at), ip: text(c.ip), basis: text(c.basis), confirmedAt: isoOf(c.confirmed_at), leftAt: isoOf(c.left_at), leftBy: text(c.left_by), leftVia: text(c.left_via) },
    import: imp && int(imp.id) !== null ? { id: int(imp.id)!, fileName: text(imp.file_name), createdAt: isoOf(imp.created_at) } : null,
    suppression: sup ? { reason: plain(sup.reason) || 'manual', createdAt: isoOf(sup.created_at) } : null,
    sends: Array.isArray(d.sends) ? d.sends.map(sendOf).filter((s): s is SubscriberSend => s !== null) : [],
    sendsTotal: count(d.sends_total ?? (Array.isArray(d.sends) ? d.sends.length : 0)),
    consentLog: Array.isArray(d.consent_log) ? d.consent_log.map(consentEntryOf).filter((e): e is ConsentEntry => e !== null) : [],
  };
}

export function listOf(raw: unknown): MailerList {
  if (!isPlainObject(raw)) throw new Unreadable('(the list itself)');
  return {
    id: need(int(raw.id), 'id'),
    code: need(text(raw.code), 'code'),
    name: plain(raw.name) || plain(raw.code),
    description: text(raw.description),
    doubleOptIn: raw.double_opt_in === undefined ? true : bool(raw.double_opt_in),
    public: bool(raw.public),
    isDefault: bool(raw.is_default),
    position: int(raw.position) ?? 0,
    fromName: text(raw.from_name),
    fromEmail: text(raw.from_email),
    counts: { subscribed: count(raw.subscribed_count), pending: count(raw.pending_count), unsubscribed: count(raw.unsubscribed_count) },
    createdAt: isoOf(raw.created_at),
    updatedAt: isoOf(raw.updated_at),
  };
}

export function tagOf(raw: unknown): MailerTag {
  if (!isPlainObject(raw)) throw new Unreadable('(the tag itself)');
  const code = need(text(raw.code), 'code');
  return { id: need(int(raw.id), 'id'), code, label: plain(raw.label) || code, count: count(raw.count), createdAt: isoOf(raw.created_at) };
}

/** A definition as the site sent it: kept to the contract's shape (conditions and groups; anything else left out). */
export function definitionOf(raw: unknown, depth = 1): SegmentGroup {
  const out: SegmentGroup = {};
  if (!isPlainObject(raw) || depth > 8) return out;
  for (const key of ['all', 'any', 'none'] as const) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    out[key] = list.flatMap((item): NonNullable<SegmentGroup['all']> => {
      if (!isPlainObject(item)) return [];
      if (typeof item.field === 'string' && typeof item.op === 'string') {
        const value = item.value;
        return [{ field: item.field, op: item.op, ...(typeof value === 'number' || typeof value === 'string' || value === null ? { value } : {}) }];
      }
      return [definitionOf(item, depth + 1)];
    });
  }
  return out;
}

export function segmentOf(raw: unknown): MailerSegment {
  if (!isPlainObject(raw)) throw new Unreadable('(the segment itself)');
  const nullableCount = (x: unknown) => (x === null || x === undefined ? null : int(x));
  return {
    id: need(int(raw.id), 'id'),
    name: plain(raw.name),
    description: text(raw.description),
    listId: int(raw.list_id),
    definition: definitionOf(raw.definition),
    count: nullableCount(raw.count),
    leftOut: nullableCount(raw.left_out),
    countedAt: isoOf(raw.counted_at),
    campaigns: Array.isArray(raw.campaigns) ? raw.campaigns.length : count(raw.campaigns),
    createdAt: isoOf(raw.created_at),
    updatedAt: isoOf(raw.updated_at),
  };
}

const countsOf = (raw: unknown): ImportCounts => {
  const c = isPlainObject(raw) ? raw : {};
  return { new: count(c.new), updated: count(c.updated), invalid: count(c.invalid), duplicates: count(c.duplicates), suppressed: count(c.suppressed), unsubscribed: count(c.unsubscribed), skipped: count(c.skipped) };
};
const reasonsOf = (raw: unknown): Record<string, number> => {
  const out: Record<string, number> = {};
  if (isPlainObject(raw)) for (const [k, n] of Object.entries(raw)) if (/^[a-z][a-z0-9_]{0,63}$/.test(k)) out[k] = count(n);
  return out;
};

export function importOf(raw: unknown): MailerImport {
  if (!isPlainObject(raw)) throw new Unreadable('(the import itself)');
  const mapping: Record<string, string> = {};
  if (isPlainObject(raw.mapping)) for (const [k, col] of Object.entries(raw.mapping)) if (/^[a-z_]{1,32}$/.test(k) && text(col) !== null) mapping[k] = text(col)!;
  const rowsTotal = count(raw.rows_total);
  const rowsDone = count(raw.rows_done);
  const progress = typeof raw.progress === 'number' && Number.isFinite(raw.progress) ? Math.min(1, Math.max(0, raw.progress)) : rowsTotal > 0 ? Math.min(1, rowsDone / rowsTotal) : 0;
  return {
    id: need(int(raw.id), 'id'),
    fileName: plain(raw.file_name),
    status: plain(raw.status) || 'queued',
    listId: int(raw.list_id),
    tag: text(raw.tag),
    basis: text(raw.basis),
    asConfirmed: raw.as_confirmed === undefined ? true : bool(raw.as_confirmed),
    preset: text(raw.preset),
    mapping,
    rowsTotal,
    rowsDone,
    progress,
    counts: countsOf(raw.counts),
    reasons: reasonsOf(raw.reasons),
    createdBy: text(raw.created_by),
    queuedAt: isoOf(raw.queued_at),
    startedAt: isoOf(raw.started_at),
    finishedAt: isoOf(raw.finished_at),
    error: text(raw.error),
  };
}

export function suppressionOf(raw: unknown): Suppression {
  if (!isPlainObject(raw)) throw new Unreadable('(the suppression itself)');
  const hash = typeof raw.hash === 'string' ? raw.hash.toLowerCase() : '';
  return {
    hash: need(/^[0-9a-f]{64}$/.test(hash) ? hash : null, 'hash'),
    reason: plain(raw.reason) || 'manual',
    note: text(raw.note),
    emailMasked: text(raw.email_masked),
    erased: bool(raw.erased),
    subscriberId: int(raw.subscriber_id),
    createdAt: isoOf(raw.created_at),
  };
}

function vocabularyOf(raw: unknown): SegmentVocabulary {
  const d = isPlainObject(raw) ? raw : {};
  const groups = Array.isArray(d.groups) ? d.groups.flatMap((g) => (isPlainObject(g) && text(g.key) ? [{ key: text(g.key)!, label: plain(g.label) || text(g.key)! }] : [])) : [];
  const fields = Array.isArray(d.fields)
    ? d.fields.flatMap((f): SegmentVocabulary['fields'] => {
        if (!isPlainObject(f) || !text(f.key)) return [];
        const operators = Array.isArray(f.operators) ? f.operators.flatMap((o) => (isPlainObject(o) && text(o.key) ? [{ key: text(o.key)!, label: plain(o.label) || text(o.key)!, value: plain(o.value) || 'text' }] : [])) : [];
        const options = Array.isArray(f.options)
          ? f.options.flatMap((o) => (isPlainObject(o) && (typeof o.value === 'number' || typeof o.value === 'string') ? [{ value: o.value, label: plain(o.label) || String(o.value) }] : []))
          : null;
        return [{ key: text(f.key)!, label: plain(f.label) || text(f.key)!, group: plain(f.group), type: plain(f.type), operators, options }];
      })
    : [];
  return { groups, fields };
}

const STATUS_KEYS = SUBSCRIBER_STATUSES;

function statusCountsOf(raw: unknown): StatusCounts | null {
  if (!isPlainObject(raw)) return null;
  const out = {} as StatusCounts;
  for (const k of STATUS_KEYS) out[k] = count(raw[k]);
  return out;
}

function listCountsOf(raw: unknown): ListCounts | null {
  if (!isPlainObject(raw)) return null;
  const pending = count(raw.pending);
  const subscribed = count(raw.subscribed);
  const unsubscribed = count(raw.unsubscribed);
  return { pending, subscribed, unsubscribed, total: raw.total === undefined ? pending + subscribed + unsubscribed : count(raw.total) };
}

/** Rows read one by one: a row that cannot be read is set aside with its place and field. */
function rowsOf<T>(list: unknown[], read: (raw: unknown) => T, firstPosition: number): { items: T[]; unreadable: UnreadableRow[] } {
  const items: T[] = [];
  const unreadable: UnreadableRow[] = [];
  list.forEach((raw, i) => {
    try {
      items.push(read(raw));
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      unreadable.push({ position: firstPosition + i, problem: `${err.field}: missing or not what the site sends` });
    }
  });
  return { items, unreadable };
}

/** One record read, or bad_response naming the call and the field (never a value). */
function one<T>(t: Transport, what: string, call: CallOptions, raw: unknown, read: (raw: unknown) => T): T {
  try {
    return read(raw);
  } catch (err) {
    if (!(err instanceof Unreadable)) throw err;
    throw new AppError({ code: 'bad_response', message: `${t.host} sent ${what} Sitedesk cannot read (${callName(call)}, field ${err.field}).` });
  }
}

// ── requests ─────────────────────────────────────────────────────────────────────────────────

/** `list_id` → `listId`, `definition.all.1.value` as it is; `prefix` puts them under the input's own object (`changes.`). */
export const inputField = (field: string, prefix = ''): string =>
  prefix +
  field
    .split('.')
    .map((part) => part.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()))
    .join('.');

/**
 * The site's refusal with its fields under the channel's input names (`fields` as `inputField`
 * makes them, or as `rename` says: a filter's `list` is the input's `filter.list`). A field the
 * site names that the input has no place for stays under the site's own name.
 */
export function refusedFields(err: unknown, rename: (field: string) => string = (f) => inputField(f)): never {
  if (!isAppError(err) || !err.info.fields) throw err;
  const fields: Record<string, string> = {};
  for (const [k, m] of Object.entries(err.info.fields)) setField(fields, rename(k), m);
  throw new AppError({ ...err.info, fields }, { cause: err });
}

/** The query of the table's filter (empty ones left out). */
export function filterQuery(f: SubscriberFilter): Record<string, string> {
  const q: Record<string, string> = {};
  const put = (k: string, val: string | number | undefined) => {
    if (val !== undefined && val !== '') q[k] = String(val);
  };
  put('q', f.q);
  put('status', f.status);
  put('source', f.source);
  put('list', f.list);
  put('list_status', f.listStatus);
  put('tag', f.tag);
  put('campaign_id', f.campaignId);
  put('campaign_received', f.campaignReceived);
  return q;
}

/** The filter as a bulk body's `filter` object (the same keys as the query). */
export function filterBody(f: SubscriberFilter): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, val] of Object.entries(filterQuery(f))) out[k] = /^\d+$/.test(val) && (k === 'list' || k === 'tag' || k === 'campaign_id') ? Number(val) : val;
  return out;
}

const FILTER_FIELDS: Record<string, string> = { q: 'q', status: 'status', source: 'source', list: 'list', list_status: 'listStatus', tag: 'tag', campaign_id: 'campaignId', campaign_received: 'campaignReceived' };
/** A refusal of the table's query under `filter.<name>`. */
export const filterField = (prefix = 'filter.') => (field: string) => (FILTER_FIELDS[field] ? `${prefix}${FILTER_FIELDS[field]}` : inputField(field));

const p = (b: MailerBase, path: string) => `/${b}${path}`;
const id = (n: number, what: string) => segment(String(n), what);

/** A page of a paged list: rows read one by one, paging, and the answer's `meta`. */
async function paged<T>(t: Transport, call: CallOptions, what: string, read: (raw: unknown) => T, asked: { page: number; perPage: number }) {
  const { data, paging, result } = await listCall(t, call, what);
  const list = parseAnswer(v.array(v.unknown()), data, t, what, callName(call));
  const page = paging.page ?? asked.page;
  const perPage = paging.perPage ?? asked.perPage;
  const { items, unreadable } = rowsOf(list, read, (page - 1) * perPage);
  const body = result.data as Record<string, unknown>;
  const meta = isPlainObject(body.meta) ? body.meta : {};
  return { items, unreadable, paging, page, perPage, next: nextPage(paging, { page, perPage }, list.length), meta };
}

export interface RawSubscriberPage {
  items: SubscriberRow[];
  unreadable: UnreadableRow[];
  total: number;
  page: number;
  perPage: number;
  next: number | null;
  statusCounts: StatusCounts | null;
  listCounts: ListCounts | null;
}

export interface RawAdd {
  outcome: 'added' | 'invited' | 'already_on' | 'already_invited';
  subscriberId: number;
  listId: number;
  listStatus: 'pending' | 'subscribed' | 'unsubscribed' | null;
  subscriber: SubscriberRow | null;
  created: boolean;
}

export interface RawBulk {
  processed: number;
  done: Record<string, number>;
  skipped: Record<string, number>;
  finished: boolean;
  next: number | null;
  maxId: number | null;
  total: number | null;
  remaining: number | null;
}

const totalOf = (paging: Paging, rows: number): number => paging.total ?? rows;

const ADD_OUTCOMES = new Set(['added', 'invited', 'already_on', 'already_invited']);

export const cmsMailer = {
  /**
   * Which plugin the site runs: `GET /mailer/lists`, and on a 404 (a route the API does not know)
   * `GET /mailroom/lists`. Any other answer names the base (a 403 too: the route is there, the
   * account may not read it); null when both are 404. Other failures (no answer, signed out, a
   * rate limit) are thrown: they say nothing about the plugin.
   */
  async detect(t: Transport): Promise<MailerBase | null> {
    for (const b of ['mailer', 'mailroom'] as const) {
      try {
        await request(t, { path: p(b, '/lists') });
        return b;
      } catch (err) {
        if (isAppError(err) && (err.code === 'not_found' || err.info.status === 404)) continue;
        if (isAppError(err) && err.code === 'forbidden') return b;
        throw err;
      }
    }
    return null;
  },

  async subscribers(t: Transport, b: MailerBase, q: { filter: SubscriberFilter; page: number; perPage: number }): Promise<RawSubscriberPage> {
    const call: CallOptions = { path: p(b, '/subscribers'), query: { ...filterQuery(q.filter), page: String(q.page), per_page: String(q.perPage) } };
    const r = await paged(t, call, 'the subscribers', subscriberRowOf, q).catch((err: unknown) => refusedFields(err, filterField()));
    return {
      items: r.items,
      unreadable: r.unreadable,
      total: totalOf(r.paging, r.items.length),
      page: r.page,
      perPage: r.perPage,
      next: r.next,
      statusCounts: statusCountsOf(r.meta.status_counts),
      listCounts: listCountsOf(r.meta.list_counts),
    };
  },

  async subscriber(t: Transport, b: MailerBase, sid: number): Promise<Subscriber> {
    const call: CallOptions = { path: p(b, `/subscribers/${id(sid, 'subscriber id')}`) };
    const r = await request(t, call);
    return one(t, 'the subscriber', call, r.data, subscriberOf);
  },

  async add(t: Transport, b: MailerBase, body: Record<string, unknown>): Promise<RawAdd> {
    const call: CallOptions = { method: 'POST', path: p(b, '/subscribers'), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    const d = isPlainObject(r.data) ? r.data : {};
    const outcome = typeof d.outcome === 'string' && ADD_OUTCOMES.has(d.outcome) ? (d.outcome as RawAdd['outcome']) : null;
    const subscriberId = int(d.subscriber_id);
    const listId = int(d.list_id);
    if (!outcome || subscriberId === null || listId === null) throw new AppError({ code: 'bad_response', message: `${t.host} sent an add’s outcome Sitedesk cannot read (${callName(call)}).` });
    const status = d.list_status === 'pending' || d.list_status === 'subscribed' || d.list_status === 'unsubscribed' ? d.list_status : null;
    let subscriber: SubscriberRow | null = null;
    if (d.subscriber !== undefined && d.subscriber !== null) {
      try {
        subscriber = subscriberRowOf(d.subscriber);
      } catch {
        subscriber = null; // the outcome stands; the person is read from the table
      }
    }
    return { outcome, subscriberId, listId, listStatus: status, subscriber, created: r.status === 201 };
  },

  async update(t: Transport, b: MailerBase, sid: number, body: Record<string, unknown>): Promise<{ subscriber: SubscriberRow; keptOff: { listId: number; reason: string }[] }> {
    const call: CallOptions = { method: 'PATCH', path: p(b, `/subscribers/${id(sid, 'subscriber id')}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => inputField(f, 'changes.')));
    const subscriber = one(t, 'the subscriber', call, r.data, subscriberRowOf);
    const d = r.data as Record<string, unknown>;
    const keptOff = Array.isArray(d.kept_off) ? d.kept_off.flatMap((k) => (isPlainObject(k) && int(k.list_id) !== null ? [{ listId: int(k.list_id)!, reason: plain(k.reason) || 'not_held' }] : [])) : [];
    return { subscriber, keptOff };
  },

  async remove(t: Transport, b: MailerBase, sid: number): Promise<void> {
    await request(t, { method: 'DELETE', path: p(b, `/subscribers/${id(sid, 'subscriber id')}`) });
  },

  /** `unsubscribe`, `resubscribe` (body: note, list_id) or `confirm`. */
  async change(t: Transport, b: MailerBase, sid: number, what: 'unsubscribe' | 'resubscribe' | 'confirm', body: Record<string, unknown> = {}): Promise<{ changed: boolean; subscriber: SubscriberRow }> {
    const call: CallOptions = { method: 'POST', path: p(b, `/subscribers/${id(sid, 'subscriber id')}/${what}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    const d = isPlainObject(r.data) ? r.data : {};
    return { changed: d.changed === undefined ? true : bool(d.changed), subscriber: one(t, 'the subscriber', call, d.subscriber, subscriberRowOf) };
  },

  async bulk(t: Transport, b: MailerBase, body: Record<string, unknown>, rename: (field: string) => string): Promise<RawBulk> {
    // a walk's batch of 500 may take the site a while
    const call: CallOptions = { method: 'POST', path: p(b, '/subscribers/bulk'), body, timeoutMs: 60_000 };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, rename));
    const d = isPlainObject(r.data) ? r.data : null;
    if (!d || int(d.processed) === null) throw new AppError({ code: 'bad_response', message: `${t.host} sent a bulk action’s answer Sitedesk cannot read (${callName(call)}).` });
    const nullable = (x: unknown) => (x === null || x === undefined ? null : int(x));
    return {
      processed: count(d.processed),
      done: reasonsOf(d.done),
      skipped: reasonsOf(d.skipped),
      finished: d.finished === undefined ? true : bool(d.finished),
      next: nullable(d.next),
      maxId: nullable(d.max_id),
      total: nullable(d.total),
      remaining: nullable(d.remaining),
    };
  },

  /** One person's JSON document, handed on a piece at a time as it arrives. */
  exportPerson(t: Transport, b: MailerBase, sid: number, o: { signal?: AbortSignal; into: (piece: Uint8Array) => void | Promise<void> }) {
    return t.download({ path: p(b, `/subscribers/${id(sid, 'subscriber id')}/export`), idleMs: 60_000, into: o.into, ...(o.signal ? { signal: o.signal } : {}) });
  },

  /** The filtered table as the site's CSV, handed on a piece at a time. */
  exportTable(t: Transport, b: MailerBase, filter: SubscriberFilter, o: { signal?: AbortSignal; into: (piece: Uint8Array) => void | Promise<void> }) {
    return t.download({ path: p(b, '/subscribers/export'), query: filterQuery(filter), idleMs: 60_000, into: o.into, ...(o.signal ? { signal: o.signal } : {}) });
  },

  // ── lists and tags

  async lists(t: Transport, b: MailerBase): Promise<MailerList[]> {
    const call: CallOptions = { path: p(b, '/lists') };
    const r = await request(t, call);
    const list = parseAnswer(v.array(v.unknown()), r.data, t, 'the lists', callName(call));
    return rowsOf(list, listOf, 0).items.sort((a, c) => a.position - c.position || a.id - c.id);
  },

  async createList(t: Transport, b: MailerBase, body: Record<string, unknown>): Promise<MailerList> {
    const call: CallOptions = { method: 'POST', path: p(b, '/lists'), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    return one(t, 'the new list', call, r.data, listOf);
  },

  async updateList(t: Transport, b: MailerBase, lid: number, body: Record<string, unknown>): Promise<MailerList> {
    const call: CallOptions = { method: 'PATCH', path: p(b, `/lists/${id(lid, 'list id')}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => inputField(f, 'changes.')));
    return one(t, 'the list', call, r.data, listOf);
  },

  async tags(t: Transport, b: MailerBase): Promise<MailerTag[]> {
    const call: CallOptions = { path: p(b, '/tags') };
    const r = await request(t, call);
    const list = parseAnswer(v.array(v.unknown()), r.data, t, 'the tags', callName(call));
    return rowsOf(list, tagOf, 0).items;
  },

  async createTag(t: Transport, b: MailerBase, body: { code?: string; label?: string }): Promise<{ tag: MailerTag; created: boolean }> {
    const call: CallOptions = { method: 'POST', path: p(b, '/tags'), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    return { tag: one(t, 'the tag', call, r.data, tagOf), created: r.status === 201 };
  },

  async deleteTag(t: Transport, b: MailerBase, tid: number): Promise<number> {
    const r = await request(t, { method: 'DELETE', path: p(b, `/tags/${id(tid, 'tag id')}`) });
    return isPlainObject(r.data) ? count(r.data.removed_from) : 0;
  },

  // ── imports

  /** POST a multipart body (the file read from disk as it goes) to the preview or the run. */
  async upload(t: Transport, b: MailerBase, what: 'preview' | 'run', raw: NonNullable<CallOptions['raw']>): Promise<CallResult<unknown>> {
    // the site reads the whole file for a dry run (100,000 rows in seconds) before it answers
    const call: CallOptions = { method: 'POST', path: p(b, what === 'preview' ? '/imports/preview' : '/imports'), raw, timeoutMs: 300_000 };
    return request(t, call).catch((err: unknown) => refusedFields(err, (f) => (f === 'list_id' ? 'listId' : f === 'as_confirmed' ? 'asConfirmed' : inputField(f))));
  },

  previewOf(t: Transport, raw: unknown): ImportPreview {
    const call = { method: 'POST', path: '/imports/preview' } as const;
    const d = isPlainObject(raw) ? raw : null;
    if (!d) throw new AppError({ code: 'bad_response', message: `${t.host} sent an import preview Sitedesk cannot read (${callName(call)}).` });
    const f = isPlainObject(d.file) ? d.file : {};
    const FIELDS = new Set(['email', 'name', 'first_name', 'last_name', 'tags', 'status', 'subscribed_at', 'language']);
    const columns = Array.isArray(d.columns)
      ? d.columns.flatMap((c) => (isPlainObject(c) && int(c.index) !== null ? [{ index: int(c.index)!, header: plain(c.header), field: typeof c.field === 'string' && FIELDS.has(c.field) ? (c.field as ImportPreview['columns'][number]['field']) : null }] : []))
      : [];
    const mapping: ImportPreview['mapping'] = {};
    if (isPlainObject(d.mapping)) for (const [k, col] of Object.entries(d.mapping)) if (FIELDS.has(k) && text(col) !== null) mapping[k as keyof ImportPreview['mapping']] = text(col)!;
    const rows = Array.isArray(d.rows)
      ? d.rows.flatMap((row): ImportPreview['rows'] => {
          if (!isPlainObject(row)) return [];
          const vals = isPlainObject(row.values) ? row.values : {};
          return [
            {
              line: int(row.line) ?? 0,
              values: {
                email: text(vals.email),
                name: plain(vals.name),
                tags: Array.isArray(vals.tags) ? vals.tags.filter((x): x is string => typeof x === 'string') : [],
                status: text(vals.status),
                subscribedAt: isoOf(vals.subscribed_at),
                language: text(vals.language),
              },
              outcome: plain(row.outcome) || 'new',
              reason: text(row.reason),
            },
          ];
        })
      : [];
    const dry = isPlainObject(d.dry_run) ? d.dry_run : {};
    const preset = isPlainObject(d.preset) && text(d.preset.key) ? { key: text(d.preset.key)!, label: plain(d.preset.label) || text(d.preset.key)! } : null;
    return {
      file: { name: plain(f.name), bytes: count(f.bytes), rows: count(f.rows), delimiter: plain(f.delimiter) || ',', bom: bool(f.bom) },
      columns,
      preset,
      mapping,
      mappingSource: plain(d.mapping_source) || 'headings',
      rows,
      dryRun: { rows: count(dry.rows), ...countsOf(dry), reasons: reasonsOf(dry.reasons) },
    };
  },

  importOf(t: Transport, raw: unknown): MailerImport {
    return one(t, 'the import', { method: 'POST', path: '/imports' }, raw, importOf);
  },

  async imports(t: Transport, b: MailerBase, q: { page: number; perPage: number }): Promise<ImportPage> {
    const call: CallOptions = { path: p(b, '/imports'), query: { page: String(q.page), per_page: String(q.perPage) } };
    const r = await paged(t, call, 'the imports', importOf, q);
    return { items: r.items, total: r.paging.total, page: r.page, perPage: r.perPage, next: r.next };
  },

  async import(t: Transport, b: MailerBase, iid: number): Promise<MailerImport> {
    const call: CallOptions = { path: p(b, `/imports/${id(iid, 'import id')}`) };
    const r = await request(t, call);
    return one(t, 'the import', call, r.data, importOf);
  },

  // ── segments

  async vocabulary(t: Transport, b: MailerBase): Promise<SegmentVocabulary> {
    const call: CallOptions = { path: p(b, '/segments/vocabulary') };
    const r = await request(t, call);
    return vocabularyOf(parseAnswer(v.looseObject({}), r.data, t, 'the segment vocabulary', callName(call)));
  },

  async previewSegment(t: Transport, b: MailerBase, body: { definition: SegmentGroup; list_id?: number | null }): Promise<SegmentPreview> {
    const call: CallOptions = { method: 'POST', path: p(b, '/segments/preview'), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    const d = isPlainObject(r.data) ? r.data : {};
    const sample = Array.isArray(d.sample) ? d.sample.flatMap((s) => (isPlainObject(s) && int(s.id) !== null ? [{ id: int(s.id)!, email: plain(s.email), name: plain(s.name) }] : [])) : [];
    return { count: count(d.count), leftOut: count(d.left_out), sample, ignored: count(d.ignored) };
  },

  async segments(t: Transport, b: MailerBase): Promise<MailerSegment[]> {
    const call: CallOptions = { path: p(b, '/segments') };
    const r = await request(t, call);
    return rowsOf(parseAnswer(v.array(v.unknown()), r.data, t, 'the segments', callName(call)), segmentOf, 0).items;
  },

  async segment(t: Transport, b: MailerBase, sid: number): Promise<MailerSegment> {
    const call: CallOptions = { path: p(b, `/segments/${id(sid, 'segment id')}`) };
    const r = await request(t, call);
    return one(t, 'the segment', call, r.data, segmentOf);
  },

  async createSegment(t: Transport, b: MailerBase, body: Record<string, unknown>): Promise<MailerSegment> {
    const call: CallOptions = { method: 'POST', path: p(b, '/segments'), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    return one(t, 'the new segment', call, r.data, segmentOf);
  },

  async updateSegment(t: Transport, b: MailerBase, sid: number, body: Record<string, unknown>): Promise<MailerSegment> {
    const call: CallOptions = { method: 'PATCH', path: p(b, `/segments/${id(sid, 'segment id')}`), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err, (f) => inputField(f, 'changes.')));
    return one(t, 'the segment', call, r.data, segmentOf);
  },

  async deleteSegment(t: Transport, b: MailerBase, sid: number): Promise<void> {
    await request(t, { method: 'DELETE', path: p(b, `/segments/${id(sid, 'segment id')}`) });
  },

  async recountSegment(t: Transport, b: MailerBase, sid: number): Promise<MailerSegment> {
    const call: CallOptions = { method: 'POST', path: p(b, `/segments/${id(sid, 'segment id')}/count`), timeoutMs: 60_000 };
    const r = await request(t, call);
    return one(t, 'the segment', call, r.data, segmentOf);
  },

  // ── suppressions and erasure

  async suppressions(t: Transport, b: MailerBase, q: { reason?: string | undefined; page: number; perPage: number }): Promise<SuppressionPage> {
    const call: CallOptions = { path: p(b, '/suppressions'), query: { ...(q.reason ? { reason: q.reason } : {}), page: String(q.page), per_page: String(q.perPage) } };
    const r = await paged(t, call, 'the suppressions', suppressionOf, q);
    return { items: r.items, total: r.paging.total, page: r.page, perPage: r.perPage, next: r.next };
  },

  async suppress(t: Transport, b: MailerBase, body: { email: string; reason?: string; note?: string }): Promise<{ suppression: Suppression; created: boolean }> {
    const call: CallOptions = { method: 'POST', path: p(b, '/suppressions'), body };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    return { suppression: one(t, 'the suppression', call, r.data, suppressionOf), created: r.status === 201 };
  },

  async unsuppress(t: Transport, b: MailerBase, hash: string): Promise<void> {
    await request(t, { method: 'DELETE', path: p(b, `/suppressions/${segment(hash, 'hash')}`) });
  },

  async erase(t: Transport, b: MailerBase, email: string): Promise<{ erased: boolean; counts: EraseCounts }> {
    const call: CallOptions = { method: 'POST', path: p(b, '/erase'), body: { email } };
    const r = await request(t, call).catch((err: unknown) => refusedFields(err));
    const d = isPlainObject(r.data) ? r.data : {};
    const c = isPlainObject(d.counts) ? d.counts : {};
    const counts: EraseCounts = {
      subscribers: count(c.subscribers),
      memberships: count(c.memberships),
      tags: count(c.tags),
      sends: count(c.sends),
      clicks: count(c.clicks),
      suppressions: count(c.suppressions),
      enrolments: count(c.enrolments),
      consent: count(c.consent),
      events: count(c.events),
      messages: count(c.messages),
    };
    return { erased: d.erased === undefined ? Object.values(counts).some((n) => n > 0) : bool(d.erased), counts };
  },
};

export type { Paging };

/** The readers the mailer's other route files share (mailer-campaigns.ts). */
export const mailerWire = { text, plain, int, count, bool, need, one, paged, path: p, idSegment: id, Unreadable };
