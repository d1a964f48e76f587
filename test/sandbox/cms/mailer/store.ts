/**
 * The mailer's data (docs/mailer-audience.md, "Records"): reads in the answer shapes of the
 * definition, and the plain writes the rules in audience.ts and imports.ts are made of. SQLite
 * (schema.ts): every query is over indexed columns or one scan, so the benchmarks' half a million
 * people answer a page, its count and the status counts in tens of milliseconds.
 */
import type Database from 'better-sqlite3';
import { emailHash, maskEmail } from './schema';

export type Status = 'pending' | 'subscribed' | 'unsubscribed' | 'bounced' | 'complained';
export type Source = 'form' | 'import' | 'api' | 'admin' | 'automation';
export type MemberStatus = 'pending' | 'subscribed' | 'unsubscribed';

export interface RawSubscriber {
  id: number;
  email: string;
  email_hash: string;
  name: string;
  status: Status;
  source: Source;
  source_ref: string | null;
  language: string | null;
  import_id: number | null;
  suppressed: number;
  created_at: number;
  updated_at: number;
  consent_at: number | null;
  consent_ip: string | null;
  consent_basis: string | null;
  confirmed_at: number | null;
  unsubscribed_at: number | null;
  left_by: 'self' | 'site' | null;
  left_via: string | null;
}

export interface RawList {
  id: number;
  code: string;
  name: string;
  description: string | null;
  double_opt_in: number;
  public: number;
  is_default: number;
  position: number;
  from_name: string | null;
  from_email: string | null;
  created_at: number;
  updated_at: number;
}

export interface RawMembership {
  subscriber_id: number;
  list_id: number;
  status: MemberStatus;
  since: number;
  left_by: 'self' | 'site' | null;
  left_via: string | null;
}

export interface TagRow {
  id: number;
  code: string;
  label: string;
  created_at: number;
}

export interface SubscriberFilters {
  q?: string;
  status?: Status;
  source?: Source;
  list?: number;
  list_status?: MemberStatus | 'any';
  tag?: number;
  campaign_id?: number;
  campaign_received?: 'yes' | 'no';
  /** bulk walks: only ids after this, up to max_id */
  after?: number;
  max_id?: number;
  /** the CSV export's chunks: only ids below this */
  before?: number;
}

export interface RawCampaign {
  id: number;
  name: string;
  status: string;
  segment_id: number | null;
  list_ids: string;
  created_at: number;
  sent_at: number | null;
  scheduled_at: number | null;
  /** the content fields as JSON (docs/mailer-campaigns.md, "Record"); `{}` for the seed's references */
  fields: string;
  updated_at: number | null;
  started_at: number | null;
  paused_at: number | null;
  canceled_at: number | null;
  /** the sending worker's (sending.ts): where its last message went (epoch ms), the last subscriber id it passed */
  send_mark: number | null;
  send_cursor: number;
  /** when it last started or resumed sending: the bounce limit judges the sends since */
  sending_since: number | null;
  stopped_at: number | null;
  stop_reason: string | null;
  /** the template it was written from (its fields copied once); kept after the template is deleted */
  template_id: number | null;
  /** the subject test's (subject-test.ts): where it is, how big its sample, when the sample's last message went, the pick */
  ab_phase: 'sample' | 'window' | 'rest' | null;
  ab_sample_size: number | null;
  ab_sample_done_at: number | null;
  ab_winner: 'a' | 'b' | null;
  ab_picked_at: number | null;
  ab_decided_by: string | null;
  /** the figures the pick was made on, JSON */
  ab_result: string | null;
}

export interface RawTemplate {
  id: number;
  name: string;
  subject: string | null;
  preheader: string | null;
  body_md: string | null;
  layout: 'store' | 'plain';
  is_active: number;
  created_at: number;
  updated_at: number;
}

export interface RawSegment {
  id: number;
  name: string;
  description: string | null;
  list_id: number | null;
  definition: string;
  count: number | null;
  left_out: number | null;
  counted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface RawImport {
  id: number;
  file_name: string;
  status: 'queued' | 'running' | 'finished' | 'failed';
  list_id: number | null;
  tag: string | null;
  basis: string;
  as_confirmed: number;
  preset: string | null;
  mapping: string;
  rows_total: number;
  rows_done: number;
  counts: string;
  reasons: string;
  created_by: string | null;
  queued_at: number;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
  spool: string | null;
}

export const ids = (list: number[]) => JSON.stringify(list);

export class MailerStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  /** A prepared statement, compiled once per text (an import runs a dozen per row). */
  prep(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  /** Forgets the compiled statements (after the schema was rebuilt). */
  forgetStatements(): void {
    this.statements.clear();
  }

  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- lists

  lists(): RawList[] {
    return this.prep('SELECT * FROM lists ORDER BY position, id').all() as RawList[];
  }

  list(id: number): RawList | null {
    return (this.prep('SELECT * FROM lists WHERE id = ?').get(id) as RawList | undefined) ?? null;
  }

  listByCode(code: string): RawList | null {
    return (this.prep('SELECT * FROM lists WHERE code = ?').get(code) as RawList | undefined) ?? null;
  }

  defaultList(): RawList | null {
    return (this.prep('SELECT * FROM lists WHERE is_default = 1 ORDER BY id LIMIT 1').get() as RawList | undefined) ?? this.lists()[0] ?? null;
  }

  /** per list: how many are subscribed, waiting and off it */
  listCountsAll(): Map<number, Record<MemberStatus, number>> {
    const out = new Map<number, Record<MemberStatus, number>>();
    for (const l of this.lists()) out.set(l.id, { pending: 0, subscribed: 0, unsubscribed: 0 });
    for (const r of this.prep('SELECT list_id, status, count(*) AS n FROM memberships GROUP BY list_id, status').all() as { list_id: number; status: MemberStatus; n: number }[]) {
      const c = out.get(r.list_id);
      if (c) c[r.status] = r.n;
    }
    return out;
  }

  listCounts(listId: number): Record<MemberStatus, number> & { total: number } {
    const c = { pending: 0, subscribed: 0, unsubscribed: 0, total: 0 };
    for (const r of this.prep('SELECT status, count(*) AS n FROM memberships WHERE list_id = ? GROUP BY status').all(listId) as { status: MemberStatus; n: number }[]) {
      c[r.status] = r.n;
      c.total += r.n;
    }
    return c;
  }

  // ---- tags

  tags(): (TagRow & { count: number })[] {
    return this.prep('SELECT t.*, (SELECT count(*) FROM subscriber_tags st WHERE st.tag_id = t.id) AS count FROM tags t ORDER BY t.code').all() as (TagRow & { count: number })[];
  }

  tag(id: number): TagRow | null {
    return (this.prep('SELECT * FROM tags WHERE id = ?').get(id) as TagRow | undefined) ?? null;
  }

  tagByCode(code: string): TagRow | null {
    return (this.prep('SELECT * FROM tags WHERE code = ?').get(code) as TagRow | undefined) ?? null;
  }

  tagCount(id: number): number {
    return (this.prep('SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = ?').get(id) as { n: number }).n;
  }

  /** The tag with this (normalised) code, made when new. */
  ensureTag(code: string, label: string | null, now: number): { tag: TagRow; created: boolean } {
    const found = this.tagByCode(code);
    if (found) return { tag: found, created: false };
    const info = this.prep('INSERT INTO tags (code, label, created_at) VALUES (?, ?, ?)').run(code, label ?? labelOf(code), now);
    return { tag: this.tag(Number(info.lastInsertRowid))!, created: true };
  }

  deleteTag(id: number): number {
    const n = this.prep('DELETE FROM subscriber_tags WHERE tag_id = ?').run(id).changes;
    this.prep('DELETE FROM tags WHERE id = ?').run(id);
    return n;
  }

  // ---- subscribers: reads

  subscriber(id: number): RawSubscriber | null {
    return (this.prep('SELECT * FROM subscribers WHERE id = ?').get(id) as RawSubscriber | undefined) ?? null;
  }

  byEmail(email: string): RawSubscriber | null {
    return (this.prep('SELECT * FROM subscribers WHERE email = ?').get(email) as RawSubscriber | undefined) ?? null;
  }

  memberships(subscriberId: number): RawMembership[] {
    return this.prep('SELECT m.* FROM memberships m JOIN lists l ON l.id = m.list_id WHERE m.subscriber_id = ? ORDER BY l.position, l.id').all(subscriberId) as RawMembership[];
  }

  membership(subscriberId: number, listId: number): RawMembership | null {
    return (this.prep('SELECT * FROM memberships WHERE subscriber_id = ? AND list_id = ?').get(subscriberId, listId) as RawMembership | undefined) ?? null;
  }

  hasTag(subscriberId: number, tagId: number): boolean {
    return this.prep('SELECT 1 FROM subscriber_tags WHERE subscriber_id = ? AND tag_id = ?').get(subscriberId, tagId) !== undefined;
  }

  /** The WHERE clause of the table's filters over `s`. */
  where(f: SubscriberFilters, params: Record<string, unknown>): string {
    const c: string[] = [];
    if (f.q) {
      c.push("(s.email LIKE @q ESCAPE '\\' OR lower(s.name) LIKE @q ESCAPE '\\')");
      params.q = `%${f.q.trim().toLowerCase().replace(/[\\%_]/g, (x) => '\\' + x)}%`;
    }
    if (f.status) {
      c.push('s.status = @status');
      params.status = f.status;
    }
    if (f.source) {
      c.push('s.source = @source');
      params.source = f.source;
    }
    if (f.list !== undefined) {
      params.list = f.list;
      if (f.list_status && f.list_status !== 'any') {
        c.push('EXISTS (SELECT 1 FROM memberships m WHERE m.subscriber_id = s.id AND m.list_id = @list AND m.status = @list_status)');
        params.list_status = f.list_status;
      } else c.push('EXISTS (SELECT 1 FROM memberships m WHERE m.subscriber_id = s.id AND m.list_id = @list)');
    }
    if (f.tag !== undefined) {
      c.push('EXISTS (SELECT 1 FROM subscriber_tags st WHERE st.subscriber_id = s.id AND st.tag_id = @tag)');
      params.tag = f.tag;
    }
    if (f.campaign_id !== undefined) {
      params.campaign_id = f.campaign_id;
      c.push(`${f.campaign_received === 'no' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = @campaign_id)`);
    }
    if (f.after !== undefined) {
      c.push('s.id > @after');
      params.after = f.after;
    }
    if (f.max_id !== undefined) {
      c.push('s.id <= @max_id');
      params.max_id = f.max_id;
    }
    if (f.before !== undefined) {
      c.push('s.id < @before');
      params.before = f.before;
    }
    return c.length ? `WHERE ${c.join(' AND ')}` : '';
  }

  /** A page of the table, newest first, and how many match. */
  query(f: SubscriberFilters, limit: number, offset: number): { rows: RawSubscriber[]; total: number } {
    const params: Record<string, unknown> = {};
    const where = this.where(f, params);
    const total = this.count(f);
    const rows = this.prep(`SELECT s.* FROM subscribers s ${where} ORDER BY s.id DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as RawSubscriber[];
    return { rows, total };
  }

  count(f: SubscriberFilters): number {
    const params: Record<string, unknown> = {};
    // the list filter alone is counted from the memberships' own index
    const keys = Object.keys(f).filter((k) => f[k as keyof SubscriberFilters] !== undefined);
    if (keys.every((k) => k === 'list' || k === 'list_status') && f.list !== undefined) {
      const status = f.list_status && f.list_status !== 'any' ? ' AND status = @s' : '';
      return (this.prep(`SELECT count(*) AS n FROM memberships WHERE list_id = @l${status}`).get({ l: f.list, ...(status ? { s: f.list_status } : {}) }) as { n: number }).n;
    }
    if (keys.length === 0) return (this.prep('SELECT count(*) AS n FROM subscribers').get() as { n: number }).n;
    const where = this.where(f, params);
    return (this.prep(`SELECT count(*) AS n FROM subscribers s ${where}`).get(params) as { n: number }).n;
  }

  /** Ids matching, ascending by id (a bulk walk's next batch). */
  idsMatching(f: SubscriberFilters, limit: number): number[] {
    const params: Record<string, unknown> = {};
    const where = this.where(f, params);
    return (this.prep(`SELECT s.id FROM subscribers s ${where} ORDER BY s.id LIMIT @limit`).all({ ...params, limit }) as { id: number }[]).map((r) => r.id);
  }

  /**
   * The next chunk of matching rows, newest first, below `before` (the CSV export reads chunk by
   * chunk: an open statement cannot be held across the answer's waits for the network).
   */
  chunk(f: SubscriberFilters, before: number | null, limit: number): RawSubscriber[] {
    const params: Record<string, unknown> = {};
    const where = this.where({ ...f, ...(before === null ? {} : { before }) }, params);
    return this.prep(`SELECT s.* FROM subscribers s ${where} ORDER BY s.id DESC LIMIT @limit`).all({ ...params, limit }) as RawSubscriber[];
  }

  maxId(): number {
    return (this.prep('SELECT coalesce(max(id), 0) AS n FROM subscribers').get() as { n: number }).n;
  }

  statusCounts(): Record<Status, number> {
    const c: Record<Status, number> = { pending: 0, subscribed: 0, unsubscribed: 0, bounced: 0, complained: 0 };
    for (const r of this.prep('SELECT status, count(*) AS n FROM subscribers GROUP BY status').all() as { status: Status; n: number }[]) c[r.status] = r.n;
    return c;
  }

  /** Memberships of many people at once, in list order, with the list's code and name. */
  membershipsOf(subscriberIds: number[]): Map<number, (RawMembership & { code: string; list_name: string })[]> {
    const out = new Map<number, (RawMembership & { code: string; list_name: string })[]>();
    if (!subscriberIds.length) return out;
    const rows = this
      .prep('SELECT m.*, l.code, l.name AS list_name FROM memberships m JOIN lists l ON l.id = m.list_id WHERE m.subscriber_id IN (SELECT value FROM json_each(?)) ORDER BY l.position, l.id')
      .all(ids(subscriberIds)) as (RawMembership & { code: string; list_name: string })[];
    for (const r of rows) {
      let list = out.get(r.subscriber_id);
      if (!list) out.set(r.subscriber_id, (list = []));
      list.push(r);
    }
    return out;
  }

  tagsOf(subscriberIds: number[]): Map<number, TagRow[]> {
    const out = new Map<number, TagRow[]>();
    if (!subscriberIds.length) return out;
    const rows = this
      .prep('SELECT st.subscriber_id, t.* FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id IN (SELECT value FROM json_each(?)) ORDER BY t.code')
      .all(ids(subscriberIds)) as (TagRow & { subscriber_id: number })[];
    for (const { subscriber_id, ...t } of rows) {
      let list = out.get(subscriber_id);
      if (!list) out.set(subscriber_id, (list = []));
      list.push(t);
    }
    return out;
  }

  consentLog(subscriberId: number, oldestFirst = false) {
    return this
      .prep(`SELECT c.id, c.at, c.action, c.list_id, l.name AS list_name, c.by, c.admin, c.note, c.ip, c.via FROM consent c LEFT JOIN lists l ON l.id = c.list_id WHERE c.subscriber_id = ? ORDER BY c.at ${oldestFirst ? 'ASC' : 'DESC'}, c.id ${oldestFirst ? 'ASC' : 'DESC'}`)
      .all(subscriberId) as { id: number; at: number; action: string; list_id: number | null; list_name: string | null; by: string; admin: string | null; note: string | null; ip: string | null; via: string | null }[];
  }

  sendsOf(subscriberId: number, limit: number) {
    return this
      .prep('SELECT x.campaign_id, c.name AS campaign_name, x.status, x.sent_at, x.opened_at, x.clicked_at FROM sends x JOIN campaigns c ON c.id = x.campaign_id WHERE x.subscriber_id = ? ORDER BY x.sent_at DESC, x.campaign_id DESC LIMIT ?')
      .all(subscriberId, limit) as { campaign_id: number; campaign_name: string; status: string; sent_at: number; opened_at: number | null; clicked_at: number | null }[];
  }

  sendsTotal(subscriberId: number): number {
    return (this.prep('SELECT count(*) AS n FROM sends WHERE subscriber_id = ?').get(subscriberId) as { n: number }).n;
  }

  clicksOf(subscriberId: number) {
    return this.prep('SELECT campaign_id, url, at FROM clicks WHERE subscriber_id = ? ORDER BY at, id').all(subscriberId) as { campaign_id: number; url: string; at: number }[];
  }

  eventsOf(emailHashValue: string) {
    return this.prep('SELECT type, at FROM events WHERE email_hash = ? ORDER BY at, id').all(emailHashValue) as { type: string; at: number }[];
  }

  messagesOf(email: string) {
    return this.prep('SELECT kind, subject, at FROM messages WHERE email = ? ORDER BY at, id').all(email) as { kind: string; subject: string; at: number }[];
  }

  // ---- subscribers: writes

  insertSubscriber(s: Omit<RawSubscriber, 'id' | 'email_hash' | 'suppressed'>): number {
    const hash = emailHash(s.email);
    const info = this
      .prep(
        `INSERT INTO subscribers (email, email_hash, name, status, source, source_ref, language, import_id, suppressed, created_at, updated_at, consent_at, consent_ip, consent_basis, confirmed_at, unsubscribed_at, left_by, left_via)
         VALUES (@email, @hash, @name, @status, @source, @source_ref, @language, @import_id, @suppressed, @created_at, @updated_at, @consent_at, @consent_ip, @consent_basis, @confirmed_at, @unsubscribed_at, @left_by, @left_via)`,
      )
      .run({ ...s, hash, suppressed: this.suppression(hash) ? 1 : 0 });
    return Number(info.lastInsertRowid);
  }

  updateSubscriber(id: number, patch: Partial<RawSubscriber>, now: number): void {
    const keys = Object.keys(patch).filter((k) => k !== 'id' && k !== 'email' && k !== 'email_hash');
    if (!keys.length) return;
    this.prep(`UPDATE subscribers SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, updated_at = @updated_at WHERE id = @id`).run({ ...patch, id, updated_at: now });
  }

  setMembership(m: RawMembership): void {
    this
      .prep(
        `INSERT INTO memberships (subscriber_id, list_id, status, since, left_by, left_via) VALUES (@subscriber_id, @list_id, @status, @since, @left_by, @left_via)
         ON CONFLICT (subscriber_id, list_id) DO UPDATE SET status = excluded.status, since = excluded.since, left_by = excluded.left_by, left_via = excluded.left_via`,
      )
      .run(m);
  }

  addTag(subscriberId: number, tagId: number): boolean {
    return this.prep('INSERT OR IGNORE INTO subscriber_tags (subscriber_id, tag_id) VALUES (?, ?)').run(subscriberId, tagId).changes > 0;
  }

  removeTag(subscriberId: number, tagId: number): boolean {
    return this.prep('DELETE FROM subscriber_tags WHERE subscriber_id = ? AND tag_id = ?').run(subscriberId, tagId).changes > 0;
  }

  logConsent(e: { subscriber_id: number; at: number; action: string; list_id: number | null; by: string; admin?: string | null; note?: string | null; ip?: string | null; via?: string | null }): void {
    this
      .prep('INSERT INTO consent (subscriber_id, at, action, list_id, by, admin, note, ip, via) VALUES (@subscriber_id, @at, @action, @list_id, @by, @admin, @note, @ip, @via)')
      .run({ admin: null, note: null, ip: null, via: null, ...e });
  }

  logMessage(subscriberId: number | null, email: string, kind: string, subject: string, at: number, campaignId: number | null = null, bodyHtml: string | null = null): number {
    return Number(this.prep('INSERT INTO messages (subscriber_id, email, kind, subject, at, campaign_id, body_html) VALUES (?, ?, ?, ?, ?, ?, ?)').run(subscriberId, email, kind, subject, at, campaignId, bodyHtml).lastInsertRowid);
  }

  /** The outbox: what the site mailed, newest first; a campaign's messages, a kind. */
  messages(limit = 100, f: { campaign_id?: number; kind?: string } = {}) {
    const where = [f.campaign_id !== undefined ? 'campaign_id = @campaign_id' : '', f.kind !== undefined ? 'kind = @kind' : ''].filter(Boolean);
    return this.prep(`SELECT id, subscriber_id, email, kind, subject, at, campaign_id, body_html FROM messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`).all({ ...f, limit }) as {
      id: number;
      subscriber_id: number | null;
      email: string;
      kind: string;
      subject: string;
      at: number;
      campaign_id: number | null;
      body_html: string | null;
    }[];
  }

  /** Status from the memberships: subscribed on any, else waiting on any, else off every list; bounced and complained stay. */
  refreshStatus(id: number, now: number): Status {
    const s = this.subscriber(id)!;
    if (s.status === 'bounced' || s.status === 'complained') return s.status;
    const c = this.prep("SELECT count(*) AS n, coalesce(sum(status = 'subscribed'), 0) AS sub, coalesce(sum(status = 'pending'), 0) AS pen, coalesce(sum(left_by = 'self'), 0) AS own FROM memberships WHERE subscriber_id = ?").get(id) as { n: number; sub: number; pen: number; own: number };
    let next: Status = s.status;
    if (c.sub > 0) next = 'subscribed';
    else if (c.pen > 0) next = 'pending';
    else if (c.n > 0) next = 'unsubscribed';
    if (next !== s.status) {
      const patch: Partial<RawSubscriber> = { status: next };
      if (next === 'unsubscribed') {
        // off every list by their own hand only when every list was left that way
        const self = c.own === c.n;
        const via = self ? ((this.prep('SELECT left_via FROM memberships WHERE subscriber_id = ? ORDER BY since DESC LIMIT 1').get(id) as { left_via: string | null } | undefined)?.left_via ?? 'link') : 'site';
        Object.assign(patch, { unsubscribed_at: now, left_by: self ? 'self' : 'site', left_via: via });
      } else Object.assign(patch, { unsubscribed_at: null, left_by: null, left_via: null });
      this.updateSubscriber(id, patch, now);
    }
    return next;
  }

  /** Removes a person and what hangs off them; what is counted is what an erasure reports. */
  removeSubscriber(s: RawSubscriber, erase: boolean): Record<string, number> {
    const del = (sql: string, ...args: unknown[]) => this.prep(sql).run(...args).changes;
    const counts = {
      subscribers: 0,
      memberships: del('DELETE FROM memberships WHERE subscriber_id = ?', s.id),
      tags: del('DELETE FROM subscriber_tags WHERE subscriber_id = ?', s.id),
      sends: del('DELETE FROM sends WHERE subscriber_id = ?', s.id),
      clicks: del('DELETE FROM clicks WHERE subscriber_id = ?', s.id),
      enrolments: del('DELETE FROM enrolments WHERE subscriber_id = ?', s.id),
      consent: del('DELETE FROM consent WHERE subscriber_id = ?', s.id),
      // a delete leaves the message log and provider reports (Mailroom); an erasure takes them
      events: erase ? del('DELETE FROM events WHERE subscriber_id = ? OR email_hash = ?', s.id, s.email_hash) : 0,
      messages: erase ? del('DELETE FROM messages WHERE subscriber_id = ? OR email = ?', s.id, s.email) : 0,
    };
    if (!erase) this.prep('UPDATE events SET subscriber_id = NULL WHERE subscriber_id = ?').run(s.id);
    counts.subscribers = del('DELETE FROM subscribers WHERE id = ?', s.id);
    return counts;
  }

  // ---- suppressions

  suppression(hash: string): { id: number; hash: string; reason: string; note: string | null; email_masked: string | null; erased: number; created_at: number } | null {
    return (this.prep('SELECT * FROM suppressions WHERE hash = ?').get(hash) as ReturnType<MailerStore['suppression']> | undefined) ?? null;
  }

  suppressions(reason: string | null, limit: number, offset: number) {
    const where = reason ? 'WHERE x.reason = @reason' : '';
    const total = (this.prep(`SELECT count(*) AS n FROM suppressions x ${where}`).get(reason ? { reason } : {}) as { n: number }).n;
    const rows = this
      .prep(`SELECT x.*, (SELECT s.id FROM subscribers s WHERE s.email_hash = x.hash) AS subscriber_id FROM suppressions x ${where} ORDER BY x.created_at DESC, x.id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...(reason ? { reason } : {}), limit, offset }) as (NonNullable<ReturnType<MailerStore['suppression']>> & { subscriber_id: number | null })[];
    return { rows, total };
  }

  suppressionOut(hash: string) {
    const row = this.prep('SELECT x.*, (SELECT s.id FROM subscribers s WHERE s.email_hash = x.hash) AS subscriber_id FROM suppressions x WHERE x.hash = ?').get(hash) as
      | (NonNullable<ReturnType<MailerStore['suppression']>> & { subscriber_id: number | null })
      | undefined;
    return row ? suppressionWire(row) : null;
  }

  addSuppression(email: string, reason: string, note: string | null, now: number): { created: boolean; hash: string } {
    const hash = emailHash(email);
    if (this.suppression(hash)) return { created: false, hash };
    this.prep('INSERT INTO suppressions (hash, reason, note, email_masked, erased, created_at) VALUES (?, ?, ?, ?, 0, ?)').run(hash, reason, note, maskEmail(email), now);
    this.prep('UPDATE subscribers SET suppressed = 1 WHERE email_hash = ?').run(hash);
    return { created: true, hash };
  }

  removeSuppression(hash: string): boolean {
    const gone = this.prep('DELETE FROM suppressions WHERE hash = ?').run(hash).changes > 0;
    if (gone) this.prep('UPDATE subscribers SET suppressed = 0 WHERE email_hash = ?').run(hash);
    return gone;
  }

  // ---- campaigns (the references the audience needs)

  campaigns(): RawCampaign[] {
    return this.prep('SELECT * FROM campaigns ORDER BY id').all() as RawCampaign[];
  }

  campaign(id: number): RawCampaign | null {
    return (this.prep('SELECT * FROM campaigns WHERE id = ?').get(id) as RawCampaign | undefined) ?? null;
  }

  campaignsUsingSegment(segmentId: number): RawCampaign[] {
    return this.prep("SELECT * FROM campaigns WHERE segment_id = ? AND status IN ('draft', 'scheduled') ORDER BY id").all(segmentId) as RawCampaign[];
  }

  // ---- segments

  segments(): RawSegment[] {
    return this.prep('SELECT * FROM segments ORDER BY id').all() as RawSegment[];
  }

  segment(id: number): RawSegment | null {
    return (this.prep('SELECT * FROM segments WHERE id = ?').get(id) as RawSegment | undefined) ?? null;
  }

  // ---- imports

  imports(limit: number, offset: number): { rows: RawImport[]; total: number } {
    const total = (this.prep('SELECT count(*) AS n FROM imports').get() as { n: number }).n;
    return { rows: this.prep('SELECT * FROM imports ORDER BY id DESC LIMIT ? OFFSET ?').all(limit, offset) as RawImport[], total };
  }

  import(id: number): RawImport | null {
    return (this.prep('SELECT * FROM imports WHERE id = ?').get(id) as RawImport | undefined) ?? null;
  }
}

/** `Early access` from `early-access` */
export function labelOf(code: string): string {
  const t = code.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export function suppressionWire(row: { hash: string; reason: string; note: string | null; email_masked: string | null; erased: number; created_at: number; subscriber_id: number | null }) {
  return { hash: row.hash, reason: row.reason, note: row.note, email_masked: row.erased ? null : row.email_masked, erased: row.erased === 1, subscriber_id: row.subscriber_id, created_at: row.created_at };
}
