/**
 * The audit trail kept offline (migration 12): the copies, their events, the full-text index over
 * them (external content, audit_words) and the tally that answers totals and facets.
 *
 * An event's key (its rowid) is its time × 1000 plus a slot within the millisecond, so every copy
 * shares one timeline: newest first is key order in the table and in the full-text index, and a
 * page of results is a key range. An event row holds its kind (event code, severity, target type)
 * and its actor (id, name, roles, sign-in, user agent) as numbers into two small tables, whose
 * words are said once per entry (audit_labels). Filters have no index of their own: the tally
 * (counts per copy, hour, kind and actor) says which hours hold what a filter matches, so a
 * filtered page reads only those hours' key ranges, and totals and facets add up the tally. A batch
 * is written in key order (the table's pages fill, and FTS5 keeps its pending words in memory only
 * while rowids grow). Writes happen in batches, each one transaction with the caller's own state,
 * so a batch is all there or not at all. No statement here ever logs a value: they are personal data.
 */
import { statSync } from 'node:fs';
import type { Db } from '../open';
import { startCheckpointer, type Checkpointer } from '../checkpointer';
import type { AuditCopy, AuditRetention, KeptAuditEvent } from '../../contract';
import { ACTOR_WIDTH, AuditPacker, KIND_WIDTH, P_ACTOR, P_CONTEXT, P_ID, P_IP, P_KIND, P_STATUS, P_TARGET, P_TS, PACKED_WIDTH, type PackedBatch, type PackInput } from './audit-pack';

/** Keys per hour (the tally's unit). */
export const HOUR_KEYS = 3_600_000 * 1000;
/** The first key of a time (epoch ms). */
export const keyOf = (ts: number): number => ts * 1000;

/** An event as written: AuditEvent's fields with the reserved `status` (the packer's, with roles and context as values). */
export type EventInput = Omit<PackInput, 'roles' | 'context'> & { actorRoles: string[]; context: Record<string, unknown> | null };

export type StoredEvent = KeptAuditEvent & { status: number | null };

export interface CopyRow {
  id: number;
  kind: 'site' | 'file';
  siteId: string | null;
  name: string;
  retention: AuditRetention;
  keptAt: string | null;
  throughId: number | null;
  throughTs: number | null;
  windowCount: number | null;
  run: unknown;
  forgotten: boolean;
}

interface RawCopy {
  id: number;
  kind: 'site' | 'file';
  site_id: string | null;
  name: string;
  keep_kind: 'all' | 'days' | 'count';
  keep_value: number | null;
  kept_at: string | null;
  through_id: number | null;
  through_ts: number | null;
  window_count: number | null;
  run: string | null;
  forgotten: number;
}

interface RawEvent {
  id: number;
  copy_id: number;
  event_id: number;
  ts: number;
  event: string;
  severity: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_roles: string | null;
  auth_method: string | null;
  ip: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  status: number | null;
  context: string | null;
}

/** A key range of a copy whose events' words are not in the index yet (audit_unindexed). */
interface Pending {
  copy_id: number;
  lo: number;
  hi: number;
  n: number;
}

/** What a search asks of the table (the service resolves the person's input into this). */
export interface SearchSpec {
  /** null: every copy (none is being forgotten). */
  copies: number[] | null;
  event?: string;
  severity?: string;
  targetType?: string;
  /** The actor's id or name (the site's filter: either matches). */
  actor?: string;
  /** Inclusive key range (from, to). */
  fromKey?: number;
  toKey?: number;
  /** An FTS5 expression of quoted words (db/fts-query.ts). */
  match?: string;
  /** Keyset paging: only events older than this key. */
  before?: number;
  limit: number;
}

type Filter = Omit<SearchSpec, 'limit' | 'before'>;

/** A search's total: exact, or (words matching very many events, with other filters) estimated from the newest of them. */
export interface Total {
  total: number;
  exact: boolean;
}

/** Words matching more events than this have their total estimated (counting each would read that many rows). */
export const TEXT_EXACT_LIMIT = 20_000;
const TEXT_SAMPLE = 10_000;

/** An event's columns, its kind's and actor's joined in (`e`, `k`, `a`), and the joins (CROSS: the events stay the outer loop). */
const E_COLUMNS =
  'e.id, e.copy_id, e.event_id, coalesce(e.ts, e.id / 1000) AS ts, k.event, k.severity, a.actor_id, a.actor_name, a.actor_roles, a.auth_method, e.ip, a.user_agent, k.target_type, e.target_id, e.status, e.context';
const LABEL_JOINS = 'CROSS JOIN audit_kinds k CROSS JOIN audit_actors a';
const LABEL_ON = 'k.id = e.kind AND a.id = e.actor';

function retentionOf(kind: RawCopy['keep_kind'], value: number | null): AuditRetention {
  if (kind === 'days' && value) return { kind: 'days', days: value };
  if (kind === 'count' && value) return { kind: 'count', events: value };
  return { kind: 'all' };
}

function copyOf(r: RawCopy): CopyRow {
  let run: unknown = null;
  if (r.run) {
    try {
      run = JSON.parse(r.run) as unknown;
    } catch {
      run = null; // an unreadable run is started again
    }
  }
  return {
    id: r.id,
    kind: r.kind,
    siteId: r.site_id,
    name: r.name,
    retention: retentionOf(r.keep_kind, r.keep_value),
    keptAt: r.kept_at,
    throughId: r.through_id,
    throughTs: r.through_ts,
    windowCount: r.window_count,
    run,
    forgotten: r.forgotten === 1,
  };
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const orNull = (s: string | null): string | null => (s === '' ? null : s);

function eventOf(r: RawEvent): StoredEvent {
  const roles = parseJson<unknown>(r.actor_roles, []);
  const context = parseJson<unknown>(r.context, null);
  return {
    key: r.id,
    copyId: r.copy_id,
    id: r.event_id,
    ts: r.ts,
    event: r.event,
    severity: r.severity,
    actorId: orNull(r.actor_id),
    actorName: orNull(r.actor_name),
    actorRoles: Array.isArray(roles) ? roles.filter((x): x is string => typeof x === 'string') : [],
    authMethod: orNull(r.auth_method),
    ip: r.ip,
    userAgent: orNull(r.user_agent),
    targetType: orNull(r.target_type),
    targetId: r.target_id,
    status: r.status,
    context: context !== null && typeof context === 'object' && !Array.isArray(context) ? (context as Record<string, unknown>) : null,
  };
}

/**
 * The filters of a spec on audit_events or audit_tally (`alias` before each column: both have
 * copy_id, kind and actor), with their parameters: the kinds and actors a filter matches are
 * looked up in their tables (a few dozen rows).
 */
function conditions(spec: Filter, alias: string): { where: string[]; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (spec.copies) {
    where.push(`${alias}copy_id IN (SELECT value FROM json_each(@copies))`);
    params.copies = JSON.stringify(spec.copies);
  }
  const kind: string[] = [];
  for (const [field, col] of [
    ['event', 'event'],
    ['severity', 'severity'],
    ['targetType', 'target_type'],
  ] as const) {
    const value = spec[field];
    if (value !== undefined) {
      kind.push(`${col} = @${field}`);
      params[field] = value;
    }
  }
  if (kind.length) where.push(`${alias}kind IN (SELECT id FROM audit_kinds WHERE ${kind.join(' AND ')})`);
  if (spec.actor !== undefined) {
    where.push(`${alias}actor IN (SELECT id FROM audit_actors WHERE actor_id = @actor OR actor_name = @actor)`);
    params.actor = spec.actor;
  }
  return { where, params };
}

/** Label rowids: a kind's is even, an actor's odd (audit_labels, migration 12). */
const kindLabel = (id: number) => id * 2;
const actorLabel = (id: number) => id * 2 + 1;
/** The word an event's index holds for its kind or actor (audit_words). */
export const labelWord = (rowid: number): string => (rowid % 2 === 0 ? `zzk${rowid / 2}` : `zza${(rowid - 1) / 2}`);

/** A kind's or actor's label words: what full text finds it by (the event code; the name and user agent). */
const kindWords = (event: string) => event;
const actorWords = (name: string, userAgent: string) => [name, userAgent].filter(Boolean).join(' ');

/** The writer's side of a producer's refs (audit-pack.ts): ref → the kind's and actor's ids here. */
export interface PackRefs {
  kinds: number[];
  actors: number[];
}
export const packRefs = (): PackRefs => ({ kinds: [], actors: [] });

/** WAL pages a long job lets pile up before it waits for them to be written back (40 MB, as SQLite's own write-back during a job). */
const WAL_LIMIT = 10_000;

/** Kind and actor ids below this make one number of a tally group (kind × span + actor). */
const ACTOR_SPAN = 2 ** 26;

export interface AuditCopyRepoOptions {
  /** WAL pages a long job lets pile up before it waits for their write-back (tests lower it). */
  walLimit?: number;
}

/** How long one step of the background indexing may hold the Host's thread (it adjusts its size to it). */
const INDEX_STEP_MS = 8;
const INDEX_STEP_MIN = 100;
const INDEX_STEP_MAX = 20_000;

/** Where the background indexing is, for who waits for it: events still to index. */
export type IndexProgress = (left: number) => void;

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function auditCopyRepo(db: Db, options: AuditCopyRepoOptions = {}) {
  const walLimit = options.walLimit ?? WAL_LIMIT;
  const q = {
    copies: db.prepare<[], RawCopy>('SELECT * FROM audit_copies ORDER BY id'),
    copy: db.prepare<[number], RawCopy>('SELECT * FROM audit_copies WHERE id = ?'),
    siteCopy: db.prepare<[string], RawCopy>('SELECT * FROM audit_copies WHERE site_id = ? AND forgotten = 0'),
    namedCopy: db.prepare<[string], RawCopy>("SELECT * FROM audit_copies WHERE kind = 'file' AND forgotten = 0 AND lower(trim(name)) = lower(trim(?))"),
    create: db.prepare<[string, string | null, string, string]>('INSERT INTO audit_copies (kind, site_id, name, created_at) VALUES (?, ?, ?, ?)'),
    setRetention: db.prepare<[string, number | null, number]>('UPDATE audit_copies SET keep_kind = ?, keep_value = ? WHERE id = ?'),
    setKept: db.prepare<[string, number]>('UPDATE audit_copies SET kept_at = ? WHERE id = ?'),
    setRun: db.prepare<[string | null, number]>('UPDATE audit_copies SET run = ? WHERE id = ?'),
    setThrough: db.prepare<[number | null, number | null, number | null, number]>('UPDATE audit_copies SET through_id = ?, through_ts = ?, window_count = ?, run = NULL WHERE id = ?'),
    forget: db.prepare<[number]>('UPDATE audit_copies SET forgotten = 1, run = NULL WHERE id = ?'),
    removeCopy: db.prepare<[number]>('DELETE FROM audit_copies WHERE id = ?'),
    counts: db.prepare<[], { copy_id: number; n: number; first: number; last: number }>('SELECT copy_id, sum(n) AS n, min(hour) AS first, max(hour) AS last FROM audit_tally GROUP BY copy_id'),
    oldestIn: db.prepare<[number, number, number], { id: number; ts: number }>('SELECT id, coalesce(ts, id / 1000) AS ts FROM audit_events WHERE id BETWEEN ? AND ? AND copy_id = ? ORDER BY id LIMIT 1'),
    newestIn: db.prepare<[number, number, number], { id: number; ts: number }>('SELECT id, coalesce(ts, id / 1000) AS ts FROM audit_events WHERE id BETWEEN ? AND ? AND copy_id = ? ORDER BY id DESC LIMIT 1'),
    copyHours: db.prepare<[number], { hour: number; n: number }>('SELECT hour, sum(n) AS n FROM audit_tally WHERE copy_id = ? GROUP BY hour ORDER BY hour DESC'),
    nthIn: db.prepare<[number, number, number, number], { id: number }>('SELECT id FROM audit_events WHERE id BETWEEN ? AND ? AND copy_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?'),
    insert: db.prepare('INSERT OR IGNORE INTO audit_events (id, copy_id, event_id, kind, actor, ip, target_id, status, context, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    // the copy's event of this site id at this millisecond (migration 14): in the millisecond's
    // keys, or kept past them with its time
    has: db
      .prepare<{ ts: number; copy: number; event: number }>(
        'SELECT 1 FROM audit_events WHERE id BETWEEN :ts * 1000 AND :ts * 1000 + 999 AND ts IS NULL AND copy_id = :copy AND event_id = :event UNION ALL SELECT 1 FROM audit_events WHERE ts = :ts AND copy_id = :copy AND event_id = :event LIMIT 1',
      )
      .pluck(),
    movedIn: db.prepare<[number, number]>('SELECT 1 FROM audit_events WHERE ts BETWEEN ? AND ? LIMIT 1').pluck(),
    lastInRange: db.prepare<[number, number], { k: number | null }>('SELECT max(id) AS k FROM audit_events WHERE id >= ? AND id < ?'),
    ftsAdd: db.prepare<[string]>('INSERT INTO audit_fts (rowid, words) SELECT id, words FROM audit_words WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id'),
    ftsAddRange: db.prepare<[number, number]>('INSERT INTO audit_fts (rowid, words) SELECT id, words FROM audit_words WHERE id BETWEEN ? AND ? ORDER BY id'),
    countRange: db.prepare<[number, number]>('SELECT count(*) FROM audit_events WHERE id BETWEEN ? AND ?').pluck(),
    tallyAdd: db.prepare<[number, number, number, number, number]>('INSERT INTO audit_tally (copy_id, hour, kind, actor, n) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n'),
    tallySub: db.prepare<[number, number, number, number, number]>('UPDATE audit_tally SET n = n - ? WHERE copy_id = ? AND hour = ? AND kind = ? AND actor = ?'),
    tallyClean: db.prepare<[number]>('DELETE FROM audit_tally WHERE copy_id = ? AND n <= 0'),
    tallyForget: db.prepare<[number]>('DELETE FROM audit_tally WHERE copy_id = ?'),
    // two lookups at the ends of the key order (min() and max() in one query would read every row)
    keyBounds: db.prepare<[], { lo: number | null; hi: number | null }>('SELECT (SELECT id FROM audit_events ORDER BY id LIMIT 1) AS lo, (SELECT id FROM audit_events ORDER BY id DESC LIMIT 1) AS hi'),
    groupsOf: db.prepare<[string], { copy_id: number; hour: number; kind: number; actor: number; n: number }>(
      `SELECT copy_id, id / ${HOUR_KEYS} AS hour, kind, actor, count(*) AS n FROM audit_events WHERE id IN (SELECT value FROM json_each(?)) GROUP BY 1, 2, 3, 4`,
    ),
    ftsRemove: db.prepare<[string]>('DELETE FROM audit_fts WHERE rowid IN (SELECT value FROM json_each(?))'),
    eventsRemove: db.prepare<[string]>('DELETE FROM audit_events WHERE id IN (SELECT value FROM json_each(?))'),
    // the key range, not the copy's index: only the old rows are read
    olderKeys: db.prepare<[number, number, number]>('SELECT id FROM audit_events NOT INDEXED WHERE id < ? AND copy_id = ? ORDER BY id LIMIT ?').pluck(),
    anyKeys: db.prepare<[number, number]>('SELECT id FROM audit_events WHERE copy_id = ? LIMIT ?').pluck(),
    // kinds and actors
    kindGet: db.prepare<[string, string, string]>('SELECT id FROM audit_kinds WHERE event = ? AND severity = ? AND target_type = ?').pluck(),
    kindAdd: db.prepare<[string, string, string]>('INSERT INTO audit_kinds (event, severity, target_type) VALUES (?, ?, ?)'),
    actorGet: db.prepare<[string, string, string, string, string]>('SELECT id FROM audit_actors WHERE actor_id = ? AND actor_name = ? AND actor_roles = ? AND auth_method = ? AND user_agent = ?').pluck(),
    actorAdd: db.prepare<[string, string, string, string, string]>('INSERT INTO audit_actors (actor_id, actor_name, actor_roles, auth_method, user_agent) VALUES (?, ?, ?, ?, ?)'),
    labelAdd: db.prepare<[number, string]>('INSERT INTO audit_labels (rowid, words) VALUES (?, ?)'),
    labelsMatching: db.prepare<[string, number]>('SELECT rowid FROM audit_labels WHERE audit_labels MATCH ? ORDER BY rowid LIMIT ?').pluck(),
    anyForgotten: db.prepare<[]>('SELECT 1 FROM audit_copies WHERE forgotten = 1 LIMIT 1').pluck(),
    kindsUnused: db.prepare<[]>('DELETE FROM audit_kinds WHERE id NOT IN (SELECT kind FROM audit_tally) RETURNING id').pluck(),
    actorsUnused: db.prepare<[]>('DELETE FROM audit_actors WHERE id NOT IN (SELECT actor FROM audit_tally) RETURNING id').pluck(),
    labelRemove: db.prepare<[string]>('DELETE FROM audit_labels WHERE rowid IN (SELECT value FROM json_each(?))'),
    // an import's events whose words are not indexed yet (audit_unindexed): ranges of a copy's keys
    pendingOver: db.prepare<[number, number, number], Pending>('SELECT copy_id, lo, hi, n FROM audit_unindexed WHERE copy_id = ? AND lo <= ? AND hi >= ?'),
    pendingAdd: db.prepare<[number, number, number, number]>('INSERT INTO audit_unindexed (copy_id, lo, hi, n) VALUES (?, ?, ?, ?)'),
    pendingDrop: db.prepare<[number, number]>('DELETE FROM audit_unindexed WHERE copy_id = ? AND lo = ?'),
    pendingSet: db.prepare<[number, number, number, number]>('UPDATE audit_unindexed SET hi = ?, n = ? WHERE copy_id = ? AND lo = ?'),
    pendingCount: db.prepare<[number, number, number]>('UPDATE audit_unindexed SET n = max(0, n + ?) WHERE copy_id = ? AND lo = ?'),
    pendingForget: db.prepare<[number]>('DELETE FROM audit_unindexed WHERE copy_id = ?'),
    // the newest range first: the newest events become searchable first
    pendingNewest: db.prepare<[], Pending>('SELECT copy_id, lo, hi, n FROM audit_unindexed ORDER BY hi DESC LIMIT 1'),
    pendingLeft: db.prepare<[]>('SELECT coalesce(sum(n), 0) FROM audit_unindexed').pluck(),
    pendingLeftOf: db.prepare<[string]>('SELECT coalesce(sum(n), 0) FROM audit_unindexed WHERE copy_id IN (SELECT value FROM json_each(?))').pluck(),
    // the key of the range's n-th newest event of the copy (a step's oldest)
    pendingNth: db.prepare<[number, number, number, number]>('SELECT id FROM audit_events NOT INDEXED WHERE id BETWEEN ? AND ? AND copy_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?').pluck(),
    ftsAddCopyRange: db.prepare<[number, number, number]>('INSERT INTO audit_fts (rowid, words) SELECT id, words FROM audit_words WHERE id BETWEEN ? AND ? AND +copy_id = ? ORDER BY id'),
    keyAfter: db.prepare<[number]>('SELECT id FROM audit_events WHERE id > ? ORDER BY id LIMIT 1').pluck(),
    keyBefore: db.prepare<[number]>('SELECT id FROM audit_events WHERE id < ? ORDER BY id DESC LIMIT 1').pluck(),
  };

  /** Kinds and actors resolved to their ids (key: their values as JSON); forgotten when entries go (prune) or a transaction fails. */
  const labelIds = new Map<string, number>();
  const MAX_LABEL_IDS = 20_000;

  function kindId(event: string, severity: string, targetType: string): number {
    const k = JSON.stringify(['k', event, severity, targetType]);
    let id = labelIds.get(k);
    if (id !== undefined) return id;
    id = q.kindGet.get(event, severity, targetType) as number | undefined;
    if (id === undefined) {
      id = Number(q.kindAdd.run(event, severity, targetType).lastInsertRowid);
      q.labelAdd.run(kindLabel(id), kindWords(event));
    }
    if (labelIds.size >= MAX_LABEL_IDS) labelIds.clear();
    labelIds.set(k, id);
    return id;
  }

  function actorRowId(actorId: string, name: string, roles: string, auth: string, userAgent: string): number {
    const k = JSON.stringify(['a', actorId, name, roles, auth, userAgent]);
    let id = labelIds.get(k);
    if (id !== undefined) return id;
    id = q.actorGet.get(actorId, name, roles, auth, userAgent) as number | undefined;
    if (id === undefined) {
      id = Number(q.actorAdd.run(actorId, name, roles, auth, userAgent).lastInsertRowid);
      const words = actorWords(name, userAgent);
      q.labelAdd.run(actorLabel(id), words);
    }
    if (labelIds.size >= MAX_LABEL_IDS) labelIds.clear();
    labelIds.set(k, id);
    return id;
  }

  let bulkJobs = 0;
  /** Which run of bulk jobs a checkpointer belongs to (one that starts after its run ended is stopped). */
  let bulkRound = 0;
  let checkpointer: Checkpointer | null = null;
  /** journal_size_limit before a run of bulk jobs set it (set back after). */
  let sizeLimitBefore = -1;
  // The WAL's bytes past its header for `walLimit` frames. While a job writes, journal_size_limit
  // cuts the WAL file back to this when it starts again from its beginning, so the file's size says
  // how much the WAL holds now (up to the limit: at least this much), at the cost of one stat.
  const walFile = db.name && db.name !== ':memory:' && !db.memory ? `${db.name}-wal` : null;
  const walLimitBytes = () => 32 + walLimit * ((db.pragma('page_size', { simple: true }) as number) + 24);
  let walBytesAllowed = 0;
  const walBytes = () => (walFile ? (statSync(walFile, { throwIfNoEntry: false })?.size ?? 0) : 0);
  // prepared once: a batch sets them twice (pragma() prepares its statement every time)
  const setNormal = db.prepare('PRAGMA synchronous = NORMAL');
  const setFull = db.prepare('PRAGMA synchronous = FULL');

  /** Prepared once per distinct SQL (a search's shape), so a repeated search costs no parse. */
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size > 500) statements.clear();
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };

  const EVENT_COLUMNS = '(id, copy_id, event_id, kind, actor, ip, target_id, status, context, ts)';
  const EVENT_WIDTH = 10;
  const ROWS_PER_INSERT = 32;
  const insertRows = db.prepare(`INSERT INTO audit_events ${EVENT_COLUMNS} VALUES ${Array(ROWS_PER_INSERT).fill(`(${Array(EVENT_WIDTH).fill('?').join(', ')})`).join(', ')}`);
  const insertRow = db.prepare(`INSERT INTO audit_events ${EVENT_COLUMNS} VALUES (${Array(EVENT_WIDTH).fill('?').join(', ')})`);
  const rowValues = new Array<string | number | null>(EVENT_WIDTH * ROWS_PER_INSERT).fill(null);

  /** One event's columns into `to` from `at`. */
  function eventValues(to: (string | number | null)[], at: number, copyId: number, rows: PackedBatch['rows'], o: number, key: number, refs: PackRefs): void {
    const ts = rows[o + P_TS] as number;
    to[at] = key;
    to[at + 1] = copyId;
    to[at + 2] = rows[o + P_ID]!;
    to[at + 3] = refs.kinds[rows[o + P_KIND] as number]!;
    to[at + 4] = refs.actors[rows[o + P_ACTOR] as number]!;
    to[at + 5] = rows[o + P_IP] ?? null;
    to[at + 6] = rows[o + P_TARGET] ?? null;
    to[at + 7] = rows[o + P_STATUS] ?? null;
    to[at + 8] = rows[o + P_CONTEXT] ?? null;
    // the time is kept only where the key is outside its millisecond
    to[at + 9] = key - (key % 1000) === ts * 1000 ? null : ts;
  }

  /** Whether an event repeats in a batch (oldest first): the same site id twice in one millisecond. */
  function repeats(rows: PackedBatch['rows']): boolean {
    let seen: Set<number> | null = null;
    for (let o = PACKED_WIDTH; o < rows.length; o += PACKED_WIDTH) {
      if (rows[o + P_TS] !== rows[o - PACKED_WIDTH + P_TS]) {
        seen = null;
        continue;
      }
      if (!seen) seen = new Set([rows[o - PACKED_WIDTH + P_ID] as number]);
      const id = rows[o + P_ID] as number;
      if (seen.has(id)) return true;
      seen.add(id);
    }
    return false;
  }

  /** A batch none of whose keys the database holds, each event once, at the keys given. */
  function insertFresh(copyId: number, rows: PackedBatch['rows'], keys: readonly number[], refs: PackRefs): void {
    const n = keys.length;
    let i = 0;
    for (; i + ROWS_PER_INSERT <= n; i += ROWS_PER_INSERT) {
      for (let j = 0; j < ROWS_PER_INSERT; j++) eventValues(rowValues, j * EVENT_WIDTH, copyId, rows, (i + j) * PACKED_WIDTH, keys[i + j]!, refs);
      insertRows.run(rowValues);
    }
    const one = rowValues.slice(0, EVENT_WIDTH);
    for (; i < n; i++) {
      eventValues(one, 0, copyId, rows, i * PACKED_WIDTH, keys[i]!, refs);
      insertRow.run(one);
    }
  }

  /**
   * A batch one event at a time: one the copy already has (the same site id at the same
   * millisecond) left alone, the others each at the first free slot of its millisecond. Answers
   * the keys given and which events they are.
   */
  function insertOneByOne(copyId: number, rows: PackedBatch['rows'], refs: PackRefs): { keys: number[]; added: number[]; duplicates: number } {
    const keys: number[] = [];
    const added: number[] = [];
    let duplicates = 0;
    let prev = -1;
    const row = new Array<string | number | null>(EVENT_WIDTH).fill(null);
    const kept = { ts: 0, copy: copyId, event: 0 };
    for (let o = 0; o < rows.length; o += PACKED_WIDTH) {
      const ts = rows[o + P_TS] as number;
      kept.ts = ts;
      kept.event = rows[o + P_ID] as number;
      if (q.has.get(kept)) {
        duplicates++;
        continue;
      }
      let key = Math.max(ts * 1000, prev + 1);
      eventValues(row, 0, copyId, rows, o, key, refs);
      if (q.insert.run(row).changes === 0) {
        // the slot is another event's: the one after the last taken from here on (rare: the same
        // millisecond in two copies, or more than 1,000 events in one)
        let placed = false;
        for (let attempt = 0; attempt < 100 && !placed; attempt++) {
          key = Math.max(key, q.lastInRange.get(key, key + 1000)?.k ?? key) + 1;
          eventValues(row, 0, copyId, rows, o, key, refs);
          placed = q.insert.run(row).changes === 1;
        }
        if (!placed) throw new Error('no free key for an audit event');
      }
      prev = key;
      keys.push(key);
      added.push(o / PACKED_WIDTH);
    }
    return { keys, added, duplicates };
  }

  /** Removes events by key (their index words, tally counts and rows); `tally: false` when the copy's tally is already gone. */
  function removeKeys(copyId: number, keys: number[], tally = true): number {
    if (!keys.length) return 0;
    const json = JSON.stringify(keys);
    if (tally) {
      for (const g of q.groupsOf.all(json)) q.tallySub.run(g.n, g.copy_id, g.hour, g.kind, g.actor);
      q.tallyClean.run(copyId);
    }
    // words are removed only of events that have them in the index: not those still to index
    const { outside } = splitPending(copyId, keys, -1);
    q.ftsRemove.run(outside === keys ? json : JSON.stringify(outside));
    return q.eventsRemove.run(json).changes;
  }

  /**
   * The keys (of the copy, in any order) outside its ranges still to index; those inside are
   * counted into their range's n (`sign`: +1 added, -1 removed).
   */
  function splitPending(copyId: number, keys: number[], sign: 1 | -1): { outside: number[] } {
    let lo = Infinity;
    let hi = -Infinity;
    for (const k of keys) {
      if (k < lo) lo = k;
      if (k > hi) hi = k;
    }
    const ranges = q.pendingOver.all(copyId, hi, lo);
    if (!ranges.length) return { outside: keys };
    const outside: number[] = [];
    const inside = new Map<number, number>();
    for (const k of keys) {
      const r = ranges.find((x) => k >= x.lo && k <= x.hi);
      if (r) inside.set(r.lo, (inside.get(r.lo) ?? 0) + 1);
      else outside.push(k);
    }
    for (const [lo, n] of inside) q.pendingCount.run(sign * n, copyId, lo);
    return { outside };
  }

  /**
   * Keys lo..hi of the copy, holding only the batch's `n` new events, are to be indexed later: a
   * range of its own, joined with the copy's ranges it overlaps and those next to it with no event
   * between (an import's batches make one range).
   */
  function addPending(copyId: number, lo: number, hi: number, n: number): void {
    let a = lo;
    let b = hi;
    let count = n;
    const take = (r: Pending) => {
      a = Math.min(a, r.lo);
      b = Math.max(b, r.hi);
      count += r.n;
      q.pendingDrop.run(copyId, r.lo);
    };
    for (const r of q.pendingOver.all(copyId, hi, lo)) take(r);
    const next = q.keyAfter.get(b) as number | undefined;
    if (next !== undefined) for (const r of q.pendingOver.all(copyId, next, next)) take(r);
    const prev = q.keyBefore.get(a) as number | undefined;
    if (prev !== undefined) for (const r of q.pendingOver.all(copyId, prev, prev)) take(r);
    q.pendingAdd.run(copyId, a, b, count);
  }

  /** Indexes up to `max` events of the newest range still to index, in one transaction; false when none is left. */
  function indexStep(max: number): { indexed: number; more: boolean } {
    return transaction(() => {
      const r = q.pendingNewest.get();
      if (!r) return { indexed: 0, more: false };
      const from = max >= r.n ? r.lo : ((q.pendingNth.get(r.lo, r.hi, r.copy_id, max - 1) as number | undefined) ?? r.lo);
      const indexed = q.ftsAddCopyRange.run(from, r.hi, r.copy_id).changes;
      if (from <= r.lo) q.pendingDrop.run(r.copy_id, r.lo);
      else q.pendingSet.run(from - 1, Math.max(0, r.n - indexed), r.copy_id, r.lo);
      return { indexed, more: true };
    });
  }

  /** A transaction of copy data (see `transaction` below). */
  function transaction<T>(fn: () => T): T {
    if (db.inTransaction) return fn();
    setNormal.run();
    try {
      return db.transaction(fn)();
    } catch (err) {
      labelIds.clear(); // kinds and actors it added are gone with it
      throw err;
    } finally {
      setFull.run();
    }
  }

  /** Jobs storing rows at full speed (imports): the background indexing waits for them. */
  let storing = 0;
  let storingEnded: (() => void)[] = [];
  let indexing: Promise<void> | null = null;
  const indexWatchers = new Set<IndexProgress>();
  let stepEvents = 1_000;

  /** Runs the background indexing until no event is left to index (one run at a time). */
  function runIndexing(): Promise<void> {
    indexing ??= (async () => {
      try {
        for (;;) {
          await yieldLoop();
          while (storing > 0) await new Promise<void>((resolve) => storingEnded.push(resolve));
          if (!db.open) return;
          const t = performance.now();
          const { indexed, more } = indexStep(stepEvents);
          const ms = performance.now() - t;
          if (!more) return;
          // the next step sized to hold the thread about INDEX_STEP_MS (at most twice or half the last)
          if (indexed >= stepEvents / 2) stepEvents = Math.round(Math.min(INDEX_STEP_MAX, 2 * stepEvents, Math.max(INDEX_STEP_MIN, stepEvents / 2, (stepEvents * INDEX_STEP_MS) / Math.max(ms, 0.5))));
          if (indexWatchers.size) {
            const left = q.pendingLeft.get() as number;
            for (const w of indexWatchers) w(left);
          }
          await walPause();
        }
      } catch (err) {
        if (db.open) throw err;
        // the database closed: the next start goes on
      } finally {
        indexing = null;
      }
    })();
    return indexing;
  }

  /** Between two batches of a long job: see bulkPause. */
  async function walPause(): Promise<void> {
    const c = checkpointer;
    // measured here, after this writer's last commit: the worker's own count is up to a period old,
    // and a writer going on by an old count grew the WAL past any limit on a machine short of CPU
    if (c && walBytes() > walBytesAllowed) await c.catchUp();
  }

  /** The total of a search without words: the tally's full hours, the cut hours counted in the table. */
  function tallyTotal(spec: Filter): number {
    const lo = spec.fromKey;
    const hi = spec.toKey;
    const tableCount = (a: number, b: number) => {
      if (a > b) return 0;
      const { where, params } = conditions(spec, '');
      const sql = `SELECT count(*) AS n FROM audit_events NOT INDEXED WHERE id BETWEEN @a AND @b${where.length ? ` AND ${where.join(' AND ')}` : ''}`;
      return (prepared(sql).get({ ...params, a, b }) as { n: number }).n;
    };
    const firstHour = lo === undefined ? null : Math.ceil(lo / HOUR_KEYS);
    const lastHour = hi === undefined ? null : Math.floor((hi + 1) / HOUR_KEYS) - 1;
    if (firstHour !== null && lastHour !== null && firstHour > lastHour) return tableCount(lo!, hi!);
    let total = 0;
    if (lo !== undefined) total += tableCount(lo, firstHour! * HOUR_KEYS - 1);
    if (hi !== undefined) total += tableCount((lastHour! + 1) * HOUR_KEYS, hi);
    const { where, params } = conditions(spec, '');
    if (firstHour !== null) where.push('hour >= @firstHour');
    if (lastHour !== null) where.push('hour <= @lastHour');
    const sql = `SELECT coalesce(sum(n), 0) AS n FROM audit_tally${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    return total + (prepared(sql).get({ ...params, firstHour, lastHour }) as { n: number }).n;
  }

  return {
    // ── copies ────────────────────────────────────────────────────────────────────────────
    copies: (): CopyRow[] => q.copies.all().map(copyOf),
    copy: (id: number): CopyRow | undefined => {
      const r = q.copy.get(id);
      return r ? copyOf(r) : undefined;
    },
    siteCopy: (siteId: string): CopyRow | undefined => {
      const r = q.siteCopy.get(siteId);
      return r ? copyOf(r) : undefined;
    },
    namedCopy: (name: string): CopyRow | undefined => {
      const r = q.namedCopy.get(name);
      return r ? copyOf(r) : undefined;
    },
    createCopy(kind: 'site' | 'file', siteId: string | null, name: string, now = new Date().toISOString()): number {
      return Number(q.create.run(kind, siteId, name, now).lastInsertRowid);
    },
    setRetention(id: number, r: AuditRetention): void {
      q.setRetention.run(r.kind, r.kind === 'days' ? r.days : r.kind === 'count' ? r.events : null, id);
    },
    setKept: (id: number, at: string) => void q.setKept.run(at, id),
    setRun: (id: number, run: unknown) => void q.setRun.run(run === null ? null : JSON.stringify(run), id),
    /** A keep finished: where the next one goes on from (the run is done). */
    setThrough: (id: number, throughId: number | null, throughTs: number | null, windowCount: number | null) => void q.setThrough.run(throughId, throughTs, windowCount, id),
    /** Hides the copy at once (its events go in batches, `forgetChunk`); its tally goes now. */
    markForgotten(id: number): void {
      q.forget.run(id);
      q.tallyForget.run(id);
    },
    /** Removes up to `limit` events of a forgotten copy; 0 when none is left (then the row goes too). */
    forgetChunk(id: number, limit: number): number {
      const removed = removeKeys(id, q.anyKeys.all(id, limit) as number[], false);
      if (removed === 0) {
        q.tallyForget.run(id); // a batch a stopping keep wrote after the copy was hidden counted itself again
        q.pendingForget.run(id);
        q.removeCopy.run(id);
      }
      return removed;
    },

    /** Writes the WAL back into the file and empties it, so removed events are overwritten there too (secure_delete covers the file's pages). */
    checkpoint(): void {
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // busy (a reader): the next checkpoint does it
      }
    },

    /** Per copy: events, oldest and newest time (the tally's first and last hour, then the rows of those hours). */
    stats(): Map<number, Pick<AuditCopy, 'events' | 'oldest' | 'newest'>> {
      const out = new Map<number, Pick<AuditCopy, 'events' | 'oldest' | 'newest'>>();
      for (const { copy_id, n, first, last } of q.counts.all()) {
        const oldest = q.oldestIn.get(first * HOUR_KEYS, (first + 1) * HOUR_KEYS - 1, copy_id)?.ts ?? null;
        const newest = q.newestIn.get(last * HOUR_KEYS, (last + 1) * HOUR_KEYS - 1, copy_id)?.ts ?? null;
        out.set(copy_id, { events: n, oldest, newest });
      }
      return out;
    },
    /** Events of the copy from `key` on. */
    countFrom: (copyId: number, key: number): number => tallyTotal({ copies: [copyId], fromKey: key }),

    // ── writing ───────────────────────────────────────────────────────────────────────────
    /** Adds events to a copy (inside the caller's transaction): packed and written as `insertPacked`. */
    insertBatch(copyId: number, events: readonly EventInput[]): { added: number; duplicates: number } {
      const packer = new AuditPacker();
      for (const e of events) {
        packer.add({ ...e, roles: rolesText(e.actorRoles), context: e.context ? JSON.stringify(e.context) : null });
      }
      return this.insertPacked(copyId, packer.take(), packRefs());
    },

    /**
     * Adds a packed batch (audit-pack.ts, oldest first) to a copy, inside the caller's transaction:
     * each event at the first free slot of its millisecond, one the copy already has (by the
     * site's id) left alone; then their words and their tally. `refs` carries the producer's kinds
     * and actors from batch to batch. Answers what was added.
     */
    insertPacked(copyId: number, batch: PackedBatch, refs: PackRefs, opts: { deferText?: boolean } = {}): { added: number; duplicates: number } {
      if (batch.reset) {
        refs.kinds.length = 0;
        refs.actors.length = 0;
      }
      const { kinds, actors, rows } = batch;
      for (let i = 0; i < kinds.length; i += KIND_WIDTH) refs.kinds[kinds[i] as number] = kindId(kinds[i + 1] as string, kinds[i + 2] as string, kinds[i + 3] as string);
      for (let i = 0; i < actors.length; i += ACTOR_WIDTH) {
        refs.actors[actors[i] as number] = actorRowId(actors[i + 1] as string, actors[i + 2] as string, actors[i + 3] as string, actors[i + 4] as string, actors[i + 5] as string);
      }
      const n = rows.length / PACKED_WIDTH;
      // each event at the first free slot of its millisecond after the one before
      let keys: number[] = new Array(n);
      let prev = -1;
      for (let i = 0, o = 0; i < n; i++, o += PACKED_WIDTH) keys[i] = prev = Math.max((rows[o + P_TS] as number) * 1000, prev + 1);
      let duplicates = 0;
      // added events by their index in the batch (every one unless some were duplicates)
      let added: number[] | null = null;
      // no event in the batch's key range nor any kept past its millisecond in its time range, and
      // none twice in the batch (a new time range, the usual case): nothing in it can be kept
      // already, and the rows go in 32 to a statement (a third less per event than one by one)
      const fresh = n > 0 && q.countRange.get(keys[0]!, keys[n - 1]!) === 0 && !q.movedIn.get(rows[P_TS] as number, rows[rows.length - PACKED_WIDTH + P_TS] as number) && !repeats(rows);
      if (fresh) insertFresh(copyId, rows, keys, refs);
      else {
        const slow = insertOneByOne(copyId, rows, refs);
        keys = slow.keys;
        added = slow.added;
        duplicates = slow.duplicates;
      }
      // the tally of each hour written: kind and actor → events
      let hour = -1;
      const counts = new Map<number | string, number>();
      const tallyHour = () => {
        for (const [ka, c] of counts) {
          const [kind, actor] = typeof ka === 'number' ? [Math.floor(ka / ACTOR_SPAN), ka % ACTOR_SPAN] : (ka.split(':').map(Number) as [number, number]);
          q.tallyAdd.run(copyId, hour, kind, actor, c);
        }
        counts.clear();
      };
      for (let j = 0; j < keys.length; j++) {
        const o = (added ? added[j]! : j) * PACKED_WIDTH;
        const kind = refs.kinds[rows[o + P_KIND] as number]!;
        const actor = refs.actors[rows[o + P_ACTOR] as number]!;
        const h = Math.floor(keys[j]! / HOUR_KEYS);
        if (h !== hour) {
          if (counts.size) tallyHour();
          hour = h;
        }
        const ka = actor < ACTOR_SPAN && kind < ACTOR_SPAN ? kind * ACTOR_SPAN + actor : `${kind}:${actor}`;
        counts.set(ka, (counts.get(ka) ?? 0) + 1);
      }
      if (counts.size) tallyHour();
      if (keys.length) {
        // the batch's key range holding only its own rows (a new time range, the usual case) is
        // indexed as a range (a fifth of the index's cost per event), or, for an import
        // (`deferText`) or inside a range of the copy still to index, left to the background
        // indexing; otherwise by each key, those inside a range still to index left to it
        const lo = keys[0]!;
        const hi = keys[keys.length - 1]!;
        if (q.countRange.get(lo, hi) === keys.length) {
          if (opts.deferText || q.pendingOver.get(copyId, hi, lo)) addPending(copyId, lo, hi, keys.length);
          else q.ftsAddRange.run(lo, hi);
        } else {
          const { outside } = splitPending(copyId, keys, 1);
          if (outside.length) q.ftsAdd.run(JSON.stringify(outside));
        }
      }
      return { added: keys.length, duplicates };
    },

    /**
     * While a long job writes (an import, a keep), the WAL is written back by a worker thread
     * (db/checkpointer.ts) instead of by this connection at a commit: each write-back waits for the
     * disk, and held the Host's event loop for up to 200 ms (a sixth of an import). Until the
     * worker is there, and if it cannot start, SQLite writes it back itself every 40 MB instead of
     * every 4 MB. Nested jobs share it; the last to end sets it back and, once its answer is out,
     * writes the rest back.
     */
    bulk<T>(fn: () => Promise<T>): Promise<T> {
      if (bulkJobs++ === 0) {
        db.pragma('wal_autocheckpoint = 10000');
        walBytesAllowed = walLimitBytes();
        sizeLimitBefore = db.pragma('journal_size_limit', { simple: true }) as number;
        db.pragma(`journal_size_limit = ${walBytesAllowed}`);
        const round = ++bulkRound;
        if (walFile) {
          const c = startCheckpointer(db.name);
          checkpointer = c;
          const current = () => round === bulkRound && bulkJobs > 0 && db.open;
          void c.started.then((ok) => {
            if (!ok || !current()) return;
            db.pragma('wal_autocheckpoint = 0');
            // a worker that ends on its own leaves the write-back to SQLite again
            void c.ended.then(() => {
              if (current()) db.pragma('wal_autocheckpoint = 10000');
            });
          });
        }
      }
      return fn().finally(() => {
        if (--bulkJobs > 0) return;
        bulkRound++;
        const c = checkpointer;
        checkpointer = null;
        try {
          db.pragma('wal_autocheckpoint = 1000');
          db.pragma(`journal_size_limit = ${sizeLimitBefore}`);
        } catch {
          // the database went away: nothing to set back
        }
        void c?.stop().then(() => {
          try {
            if (bulkJobs === 0 && db.open) db.pragma('wal_checkpoint(PASSIVE)');
          } catch {
            // busy or gone: SQLite writes it back at a later commit
          }
        });
      });
    },

    /**
     * Between two batches of a long job: once the WAL holds more than `walLimit` pages, waits for
     * the worker to write it back (all of it: nothing is committed meanwhile), so the next batch
     * starts the WAL from its beginning. The Host's loop answers other calls meanwhile. A reader
     * holding an older state keeps part of the WAL: then each batch asks again, and the WAL grows
     * only by what that reader holds.
     */
    bulkPause: walPause,

    /**
     * A transaction of copy data: committed without waiting for the disk (synchronous=NORMAL under
     * WAL, as the mirror's batches: the copy can be kept again; a power cut may undo the last
     * batches, never corrupt them).
     */
    transaction,

    /**
     * While `fn` stores an import's rows (`insertPacked` with `deferText`), the background
     * indexing waits: the rows go in at full speed, their words after.
     */
    async storing<T>(fn: () => Promise<T>): Promise<T> {
      storing++;
      try {
        return await fn();
      } finally {
        if (--storing === 0) {
          const ended = storingEnded;
          storingEnded = [];
          for (const w of ended) w();
        }
      }
    },

    /**
     * The words of events stored without them (an import's, or left by a quit or crash) added to
     * the full-text index in the background: in steps of a few milliseconds of the Host's thread,
     * newest events first, each one transaction (the range still to index shrinks with it, so a
     * quit loses nothing). Resolves when none is left; `progress` hears how many are left after
     * each step; `signal` stops the waiting (not the indexing).
     */
    indexText(opts: { progress?: IndexProgress; signal?: AbortSignal } = {}): Promise<void> {
      if (!q.pendingLeft.get() && !indexing) return Promise.resolve();
      const run = runIndexing();
      const { progress, signal } = opts;
      if (progress) indexWatchers.add(progress);
      const done = () => {
        if (progress) indexWatchers.delete(progress);
      };
      if (!signal) return run.finally(done);
      return new Promise<void>((resolve, reject) => {
        const stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? 'stopped')));
        if (signal.aborted) return stop();
        signal.addEventListener('abort', stop, { once: true });
        run.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
      }).finally(done);
    },

    /** Events of the copies (null: all) whose words are not in the full-text index yet. */
    unindexed(copies: number[] | null): number {
      return (copies ? q.pendingLeftOf.get(JSON.stringify(copies)) : q.pendingLeft.get()) as number;
    },

    /** Events of the copies (null: all): the tally. */
    eventCount: (copies: number[] | null): number => tallyTotal({ copies }),

    /**
     * Removes the kinds and actors no kept event uses any more, with their words (names and user
     * agents are personal data). Only the tally says what is used, so not while a forgotten copy's
     * events are still being removed (its tally went first); the caller runs it when no keep or
     * import is writing. Answers how many went.
     */
    pruneLabels(): number {
      if (q.anyForgotten.get()) return 0;
      return this.transaction(() => {
        const gone = [...(q.kindsUnused.all() as number[]).map(kindLabel), ...(q.actorsUnused.all() as number[]).map(actorLabel)];
        if (gone.length) {
          q.labelRemove.run(JSON.stringify(gone));
          labelIds.clear();
        }
        return gone.length;
      });
    },

    /**
     * The words of kinds and actors that one part of a MATCH expression (a quoted word or phrase,
     * perhaps a prefix) finds in audit_labels: the events' index holds one word per kind and
     * actor (zzk<id>, zza<id>) instead of their code, name and user agent. At most `limit`.
     */
    labelWords(part: string, limit = 1000): string[] {
      try {
        return (q.labelsMatching.all(part, limit) as number[]).map(labelWord);
      } catch {
        return []; // not an expression FTS5 reads: the events' index says so in the search itself
      }
    },

    /** The key of the copy's n-th newest event (the oldest "at most n events" keeps); null when it holds fewer. */
    edgeKey(copyId: number, n: number): number | null {
      let before = 0;
      for (const { hour, n: inHour } of q.copyHours.all(copyId)) {
        if (before + inHour >= n) return q.nthIn.get(hour * HOUR_KEYS, (hour + 1) * HOUR_KEYS - 1, copyId, n - before - 1)?.id ?? null;
        before += inHour;
      }
      return null;
    },
    /** Removes up to `limit` of the copy's events older than `key`; answers how many (0: none left). */
    removeOlder(copyId: number, key: number, limit: number): number {
      return removeKeys(copyId, q.olderKeys.all(key, copyId, limit) as number[]);
    },

    // ── reading ───────────────────────────────────────────────────────────────────────────
    /**
     * A page of events newest first (`before` excluded). With words: the full-text index newest
     * first, each match's filters checked. With filters: the hours the tally says hold matches,
     * newest first, each hour's key range read until the page is full. Otherwise a key range.
     */
    page(spec: SearchSpec): StoredEvent[] {
      const hi = spec.before !== undefined ? Math.min(spec.before - 1, spec.toKey ?? Infinity) : spec.toKey;
      const lo = spec.fromKey;
      if (spec.match) {
        const { where, params } = conditions(spec, 'e.');
        if (lo !== undefined) where.push('f.rowid >= @lo');
        if (hi !== undefined) where.push('f.rowid <= @hi');
        const sql = `SELECT ${E_COLUMNS} FROM audit_fts f CROSS JOIN audit_events e NOT INDEXED ${LABEL_JOINS} WHERE audit_fts MATCH @match AND e.id = f.rowid AND ${LABEL_ON}${where.length ? ` AND ${where.join(' AND ')}` : ''} ORDER BY f.rowid DESC LIMIT @limit`;
        return (prepared(sql).all(pick(sql, { ...params, lo, hi, limit: spec.limit, match: spec.match })) as RawEvent[]).map(eventOf);
      }
      const { where, params } = conditions(spec, 'e.');
      if (!where.length) {
        const range = [...(lo !== undefined ? ['e.id >= @lo'] : []), ...(hi !== undefined ? ['e.id <= @hi'] : [])];
        const sql = `SELECT ${E_COLUMNS} FROM audit_events e NOT INDEXED ${LABEL_JOINS} WHERE ${[LABEL_ON, ...range].join(' AND ')} ORDER BY e.id DESC LIMIT @limit`;
        return (prepared(sql).all(pick(sql, { lo, hi, limit: spec.limit })) as RawEvent[]).map(eventOf);
      }
      const hourWhere = conditions(spec, '').where;
      if (lo !== undefined) hourWhere.push('hour >= @firstHour');
      if (hi !== undefined) hourWhere.push('hour <= @lastHour');
      // NOT INDEXED: in the table's own (hour) order, so the newest hours come first without a sort
      const hoursSql = `SELECT hour, sum(n) AS n FROM audit_tally NOT INDEXED WHERE ${hourWhere.join(' AND ')} GROUP BY hour HAVING sum(n) > 0 ORDER BY hour DESC`;
      const hourParams = pick(hoursSql, { ...params, firstHour: lo === undefined ? undefined : Math.floor(lo / HOUR_KEYS), lastHour: hi === undefined ? undefined : Math.floor(hi / HOUR_KEYS) });
      // the hour's key range (NOT INDEXED: the copy's index would read all of the copy's rows)
      const rowsSql = `SELECT ${E_COLUMNS} FROM audit_events e NOT INDEXED ${LABEL_JOINS} WHERE e.id BETWEEN @a AND @b AND ${LABEL_ON} AND ${where.join(' AND ')} ORDER BY e.id DESC LIMIT @limit`;
      const rows = prepared(rowsSql);
      const out: StoredEvent[] = [];
      // the tally is in hour order: its newest hours are read first, and no further than the page needs
      for (const { hour } of prepared(hoursSql).iterate(hourParams) as IterableIterator<{ hour: number; n: number }>) {
        const a = Math.max(hour * HOUR_KEYS, lo ?? -Infinity);
        const b = Math.min((hour + 1) * HOUR_KEYS - 1, hi ?? Infinity);
        for (const r of rows.all({ ...params, a, b, limit: spec.limit - out.length }) as RawEvent[]) out.push(eventOf(r));
        if (out.length >= spec.limit) break;
      }
      return out;
    },

    /**
     * Every match of the spec (paging aside). Without words: the tally, exact. With words: counted
     * newest first up to TEXT_EXACT_LIMIT, exact below it; past it, estimated from how much of the
     * time span those newest matches took (and, with other filters, the share of the newest
     * TEXT_SAMPLE matches they keep), so a word in every fourth event is not counted one by one.
     */
    total(spec: Filter): Total {
      if (!spec.match) return { total: tallyTotal(spec), exact: true };
      const range: string[] = [];
      if (spec.fromKey !== undefined) range.push('f.rowid >= @fromKey');
      if (spec.toKey !== undefined) range.push('f.rowid <= @toKey');
      const base = { fromKey: spec.fromKey, toKey: spec.toKey, match: spec.match };
      const textSql = `SELECT count(*) AS n, min(id) AS last FROM (SELECT f.rowid AS id FROM audit_fts f WHERE audit_fts MATCH @match${range.length ? ` AND ${range.join(' AND ')}` : ''} ORDER BY f.rowid DESC LIMIT ${TEXT_EXACT_LIMIT + 1})`;
      const counted = prepared(textSql).get(pick(textSql, base)) as { n: number; last: number | null };
      let text = counted.n;
      const exactText = counted.n <= TEXT_EXACT_LIMIT;
      if (!exactText) {
        const bounds = q.keyBounds.get()!;
        const hi = Math.min(spec.toKey ?? Infinity, bounds.hi ?? 0);
        const lo = Math.max(spec.fromKey ?? -Infinity, bounds.lo ?? 0);
        text = Math.max(counted.n, Math.round((TEXT_EXACT_LIMIT * (hi - lo + 1)) / Math.max(1, hi - counted.last! + 1)));
      }
      const { where, params } = conditions(spec, 'e.');
      if (!where.length || text === 0) return { total: text, exact: exactText };
      if (exactText) {
        const sql = `SELECT count(*) AS n FROM audit_fts f JOIN audit_events e NOT INDEXED ON e.id = f.rowid WHERE audit_fts MATCH @match AND ${[...range, ...where].join(' AND ')}`;
        return { total: (prepared(sql).get(pick(sql, { ...params, ...base })) as { n: number }).n, exact: true };
      }
      // the newest matches of the words, their share that the filters keep, over all of them
      const sql = `SELECT count(*) AS n FROM (SELECT f.rowid AS id FROM audit_fts f WHERE audit_fts MATCH @match${range.length ? ` AND ${range.join(' AND ')}` : ''} ORDER BY f.rowid DESC LIMIT ${TEXT_SAMPLE}) s JOIN audit_events e NOT INDEXED ON e.id = s.id WHERE ${where.join(' AND ')}`;
      const hits = (prepared(sql).get(pick(sql, { ...params, ...base })) as { n: number }).n;
      return { total: Math.round((hits / TEXT_SAMPLE) * text), exact: false };
    },

    /** The values of the copies with their counts (the tally). */
    facets(copies: number[] | null) {
      const where = copies ? 'WHERE t.copy_id IN (SELECT value FROM json_each(@copies))' : '';
      const p = copies ? { copies: JSON.stringify(copies) } : {};
      const values = (col: string) =>
        (prepared(`SELECT k.${col} AS value, sum(t.n) AS count FROM audit_tally t JOIN audit_kinds k ON k.id = t.kind ${where} GROUP BY k.${col} ORDER BY count DESC, value`).all(p) as { value: string; count: number }[]).filter(
          (r) => r.value !== '',
        );
      const actors = (
        prepared(`SELECT a.actor_id, a.actor_name, sum(t.n) AS count FROM audit_tally t JOIN audit_actors a ON a.id = t.actor ${where} GROUP BY a.actor_id, a.actor_name ORDER BY count DESC, a.actor_name`).all(p) as {
          actor_id: string;
          actor_name: string;
          count: number;
        }[]
      ).map((a) => ({
        id: a.actor_id || null,
        name: a.actor_name || null,
        count: a.count,
      }));
      const perCopy = prepared(`SELECT t.copy_id AS copyId, sum(t.n) AS count FROM audit_tally t ${where} GROUP BY t.copy_id ORDER BY count DESC`).all(p) as { copyId: number; count: number }[];
      return { events: values('event'), actors, targetTypes: values('target_type'), severities: values('severity'), copies: perCopy };
    },
  };
}

/** A role list as stored (JSON; null when empty), each list written once (readers share one list per text). */
const rolesStored = new WeakMap<readonly string[], string>();
function rolesText(roles: readonly string[]): string | null {
  if (!roles.length) return null;
  let t = rolesStored.get(roles);
  if (t === undefined) {
    t = JSON.stringify(roles);
    if (Object.isFrozen(roles)) rolesStored.set(roles, t);
  }
  return t;
}

/** Only the parameters the statement names (better-sqlite3 refuses unknown named parameters). */
function pick(sql: string, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && sql.includes(`@${k}`)) out[k] = v;
  return out;
}

export type AuditCopyRepo = ReturnType<typeof auditCopyRepo>;
