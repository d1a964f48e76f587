/**
 * The audit trail's storage: a real SQLite file in the sandbox's data folder (`audit.sqlite`), as
 * the real service keeps one (getgrav/grav-plugin-api:classes/Api/Audit/AuditStore.php): the
 * same columns, roles stored comma-joined and context as JSON, newest first by time then id. The
 * filters, facets, retention and export are SQL over indexed columns, so a trail of a million
 * rows answers quickly and is never held in memory as objects (`seed` writes in batches,
 * `iterate` streams).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';

export interface AuditRow {
  ts: number;
  event: string;
  severity: 'info' | 'notice' | 'warning';
  actor_id: string | null;
  actor_name: string | null;
  actor_roles: string[];
  auth_method: string | null;
  ip: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  status: null;
  context: Record<string, unknown> | null;
}

export type AuditEvent = AuditRow & { id: number };

export const FILTERS = ['event', 'actor', 'target_type', 'severity', 'from', 'to', 'q'] as const;
export type AuditFilters = Partial<Record<(typeof FILTERS)[number], string>>;

export const COLUMNS = ['ts', 'event', 'severity', 'actor_id', 'actor_name', 'actor_roles', 'auth_method', 'ip', 'user_agent', 'target_type', 'target_id', 'status', 'context'] as const;

/** the columns the filters and the ordering look up */
const INDEXED = ['ts', 'event', 'actor_id', 'target_type'] as const;

type StoredRow = Record<(typeof COLUMNS)[number], string | number | null> & { id: number };

export class AuditStore {
  private db: Database.Database | null = null;

  constructor(private readonly dataDir: string) {}

  private open(): Database.Database {
    if (this.db) return this.db;
    const db = new Database(join(this.dataDir, 'audit.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE IF NOT EXISTS events (
      id INTEGER PRIMARY KEY AUTOINCREMENT, ts INTEGER NOT NULL, event TEXT NOT NULL,
      severity TEXT NOT NULL DEFAULT 'info', actor_id TEXT, actor_name TEXT, actor_roles TEXT,
      auth_method TEXT, ip TEXT, user_agent TEXT, target_type TEXT, target_id TEXT,
      status INTEGER, context TEXT)`);
    this.index(db);
    this.db = db;
    return db;
  }

  append(row: AuditRow): number {
    const info = this.open().prepare(`INSERT INTO events (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`).run(toStored(row));
    return Number(info.lastInsertRowid);
  }

  /**
   * Appends `count` generated rows in one statement: `select` gives each column as an SQL
   * expression over the row number `i` (0 … count-1) and the named `params`, so SQLite makes the
   * rows itself — the benchmarks' million-event trail in seconds, none of it held in memory.
   */
  seed(count: number, select: Record<(typeof COLUMNS)[number], string>, params: Record<string, number | string>): void {
    const db = this.open();
    const exprs = COLUMNS.map((c) => select[c]).join(',\n ');
    // a bulk load: indexes rebuilt once afterwards, no fsync per page (a sandbox's trail is disposable)
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536');
    for (const col of INDEXED) db.exec(`DROP INDEX IF EXISTS idx_events_${col}`);
    db.prepare(
      `INSERT INTO events (${COLUMNS.join(', ')})
       WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < @count)
       SELECT ${exprs} FROM seq`,
    ).run({ ...params, count });
    this.index(db);
    db.pragma('synchronous = NORMAL');
  }

  private index(db: Database.Database): void {
    for (const col of INDEXED) db.exec(`CREATE INDEX IF NOT EXISTS idx_events_${col} ON events (${col})`);
  }

  count(): number {
    return (this.open().prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  }

  query(filters: AuditFilters, limit: number, offset: number): { rows: AuditEvent[]; total: number } {
    const [where, params] = whereOf(filters);
    const db = this.open();
    const total = (db.prepare(`SELECT COUNT(*) AS n FROM events ${where}`).get(params) as { n: number }).n;
    const rows = db.prepare(`SELECT * FROM events ${where} ORDER BY ts DESC, id DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as StoredRow[];
    return { rows: rows.map(hydrate), total };
  }

  /** The filtered rows, newest first, one at a time (the export), at most `cap`. */
  *iterate(filters: AuditFilters, cap: number): Generator<AuditEvent> {
    const [where, params] = whereOf(filters);
    for (const row of this.open().prepare(`SELECT * FROM events ${where} ORDER BY ts DESC, id DESC LIMIT @cap`).iterate({ ...params, cap })) yield hydrate(row as StoredRow);
  }

  facets(): { events: string[]; actors: { id: string | null; name: string | null }[] } {
    const db = this.open();
    const events = (db.prepare('SELECT DISTINCT event FROM events ORDER BY event').all() as { event: string }[]).map((r) => r.event).filter(Boolean);
    const actors = db.prepare('SELECT actor_id, actor_name FROM events GROUP BY actor_id, actor_name ORDER BY actor_name').all() as { actor_id: string | null; actor_name: string | null }[];
    return { events, actors: actors.map((a) => ({ id: a.actor_id, name: a.actor_name })) };
  }

  /** Deletes rows older than `days` (relative to `nowMs`) and all but the newest `maxRows`; 0 turns a bound off. */
  prune(nowMs: number, days: number, maxRows: number): number {
    const db = this.open();
    let deleted = 0;
    if (days > 0) deleted += db.prepare('DELETE FROM events WHERE ts < ?').run(nowMs - days * 86_400_000).changes;
    if (maxRows > 0) {
      // the first row past the newest `maxRows`, and everything older than it
      const edge = db.prepare('SELECT ts, id FROM events ORDER BY ts DESC, id DESC LIMIT 1 OFFSET ?').get(maxRows) as { ts: number; id: number } | undefined;
      if (edge) deleted += db.prepare('DELETE FROM events WHERE ts < @ts OR (ts = @ts AND id <= @id)').run(edge).changes;
    }
    return deleted;
  }

  clear(): void {
    this.open().exec('DELETE FROM events');
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}

function toStored(row: AuditRow): Record<string, string | number | null> {
  return {
    ...row,
    actor_roles: row.actor_roles.join(','),
    context: row.context && Object.keys(row.context).length ? JSON.stringify(row.context) : null,
  };
}

function hydrate(row: StoredRow): AuditEvent {
  return {
    id: Number(row.id),
    ts: Number(row.ts),
    event: String(row.event),
    severity: String(row.severity) as AuditRow['severity'],
    actor_id: row.actor_id as string | null,
    actor_name: row.actor_name as string | null,
    actor_roles: row.actor_roles ? String(row.actor_roles).split(',').filter(Boolean) : [],
    auth_method: row.auth_method as string | null,
    ip: row.ip as string | null,
    user_agent: row.user_agent as string | null,
    target_type: row.target_type as string | null,
    target_id: row.target_id as string | null,
    status: null,
    context: row.context ? (JSON.parse(String(row.context)) as Record<string, unknown>) : null,
  };
}

/** The WHERE clause of the documented filters (all exact but `q`, a case-insensitive substring). */
function whereOf(f: AuditFilters): [string, Record<string, string | number>] {
  const clauses: string[] = [];
  const params: Record<string, string | number> = {};
  for (const key of ['event', 'severity', 'target_type'] as const) {
    if (f[key]) {
      clauses.push(`${key} = @${key}`);
      params[key] = f[key]!;
    }
  }
  if (f.actor) {
    clauses.push('(actor_id = @actor OR actor_name = @actor)');
    params.actor = f.actor;
  }
  if (f.from) {
    clauses.push('ts >= @from');
    params.from = Math.trunc(Number(f.from)) || 0;
  }
  if (f.to) {
    clauses.push('ts <= @to');
    params.to = Math.trunc(Number(f.to)) || 0;
  }
  if (f.q) {
    clauses.push("(actor_name LIKE @q ESCAPE '\\' OR target_id LIKE @q ESCAPE '\\' OR event LIKE @q ESCAPE '\\' OR ip LIKE @q ESCAPE '\\')");
    params.q = `%${f.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
  }
  return [clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params];
}
