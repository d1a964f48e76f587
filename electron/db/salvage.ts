/**
 * Reads what a damaged database still gives up of the work the sites do not have yet: drafts and
 * outbox items (and the names of their sites, to file them by). Read-only, on a connection of its
 * own, and tolerant: a table that fails as a whole is read again row by row, so the damage costs
 * only the rows it hit, which are counted.
 */
import Database from 'better-sqlite3';

export interface SalvagedDraft {
  id: number;
  siteId: string;
  route: string;
  lang: string;
  state: string;
  /** The draft's own text, as saved ({title, header, content, template?…}); null when it was unreadable JSON. */
  mine: { title?: unknown; header?: unknown; content?: unknown; template?: unknown; [k: string]: unknown } | null;
  /** The raw text when `mine` was not readable JSON (kept rather than lost). */
  raw: string | null;
  updatedAt: string;
}

export interface SalvagedItem {
  id: number;
  siteId: string;
  op: string;
  route: string;
  payload: unknown;
  state: string;
  createdAt: string;
}

export interface Salvage {
  /** Site id → name, for the ones still readable. */
  sites: Map<string, string>;
  drafts: SalvagedDraft[];
  outbox: SalvagedItem[];
  unreadable: number;
}

type Row = Record<string, unknown>;

const str = (x: unknown, fallback = ''): string => (typeof x === 'string' ? x : x == null ? fallback : String(x));

/** Every row of `table` it can read: all at once, or rowid by rowid when the whole read fails. */
function readRows(db: Database.Database, table: string, columns: string): { rows: Row[]; unreadable: number } {
  try {
    return { rows: db.prepare(`SELECT ${columns} FROM ${table} ORDER BY rowid`).all() as Row[], unreadable: 0 };
  } catch {
    // the table's b-tree is damaged somewhere: walk its rowids and read each row alone
  }
  let ids: number[] = [];
  try {
    ids = (db.prepare(`SELECT rowid AS id FROM ${table}`).pluck().all() as number[]).sort((a, b) => a - b);
  } catch {
    // even the rowids fail: try the range the table's rowids can have been given (drafts and items are few)
    let max = 0;
    try {
      max = Number(db.prepare(`SELECT max(rowid) FROM ${table}`).pluck().get() ?? 0);
    } catch {
      max = 10_000;
    }
    ids = Array.from({ length: Math.min(max, 100_000) }, (_, i) => i + 1);
  }
  const one = db.prepare(`SELECT ${columns} FROM ${table} WHERE rowid = ?`);
  const rows: Row[] = [];
  let unreadable = 0;
  for (const id of ids) {
    try {
      const r = one.get(id) as Row | undefined;
      if (r) rows.push(r);
    } catch {
      unreadable++;
    }
  }
  return { rows, unreadable };
}

function parse(text: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(str(text)) };
  } catch {
    return { ok: false };
  }
}

/** Opens `file` read-only and reads drafts, outbox items and site names; throws only when the file cannot be opened at all. */
export function readUnsynced(file: string): Salvage {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const sites = new Map<string, string>();
    const s = readRows(db, 'sites', 'id, name');
    for (const r of s.rows) sites.set(str(r.id), str(r.name));
    const d = readRows(db, 'drafts', 'id, site_id, route, lang, state, mine, updated_at');
    const drafts = d.rows.map((r): SalvagedDraft => {
      const mine = parse(r.mine);
      const readable = mine.ok && mine.value !== null && typeof mine.value === 'object';
      return {
        id: Number(r.id),
        siteId: str(r.site_id),
        route: str(r.route, '/'),
        lang: str(r.lang),
        state: str(r.state),
        mine: readable ? (mine.value as SalvagedDraft['mine']) : null,
        raw: readable ? null : str(r.mine),
        updatedAt: str(r.updated_at),
      };
    });
    const o = readRows(db, 'outbox', 'id, site_id, op, route, payload, state, created_at');
    const outbox = o.rows.map((r): SalvagedItem => {
      const payload = parse(r.payload);
      return {
        id: Number(r.id),
        siteId: str(r.site_id),
        op: str(r.op),
        route: str(r.route, '/'),
        payload: payload.ok ? payload.value : str(r.payload),
        state: str(r.state),
        createdAt: str(r.created_at),
      };
    });
    return { sites, drafts, outbox, unreadable: s.unreadable + d.unreadable + o.unreadable };
  } finally {
    db.close();
  }
}
