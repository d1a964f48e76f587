/**
 * The offline copy of a site's mailing audience (migration 13): people as the table last read
 * them, their page when it was opened, keyed by the site's id and found by the SHA-256 of their
 * address. Only the mailer's offline copy (mailer/offline-copy.ts) writes here, and only for a site
 * where the person chose it. Read back with the table's filters (those a copy can apply), newest
 * first (the site's ids only grow). Nothing of it is ever logged.
 */
import type { ListCounts, StatusCounts, Subscriber, SubscriberFilter, SubscriberRow } from '../../contract';
import { SUBSCRIBER_STATUSES } from '../../contract';
import type { Db } from '../open';

export interface CopyPage {
  items: SubscriberRow[];
  total: number;
  statusCounts: StatusCounts;
  listCounts: ListCounts | null;
}

/** The filter as SQL over the row's JSON (the campaign's reach cannot be: the caller says so). */
function where(f: SubscriberFilter): { sql: string; params: unknown[] } {
  const parts = ['site_id = ?'];
  const params: unknown[] = [];
  if (f.q) {
    // words in the address or the name, as the site reads `q`: a substring, any case
    parts.push("(instr(lower(json_extract(row, '$.email')), ?) > 0 OR instr(lower(json_extract(row, '$.name')), ?) > 0)");
    params.push(f.q.toLowerCase(), f.q.toLowerCase());
  }
  if (f.status) {
    parts.push("json_extract(row, '$.status') = ?");
    params.push(f.status);
  }
  if (f.source) {
    parts.push("json_extract(row, '$.source') = ?");
    params.push(f.source);
  }
  if (f.list !== undefined) {
    const standing = f.listStatus && f.listStatus !== 'any' ? " AND json_extract(m.value, '$.status') = ?" : '';
    parts.push(`EXISTS (SELECT 1 FROM json_each(row, '$.lists') m WHERE json_extract(m.value, '$.listId') = ?${standing})`);
    params.push(f.list);
    if (standing) params.push(f.listStatus);
  }
  if (f.tag !== undefined) {
    parts.push("EXISTS (SELECT 1 FROM json_each(row, '$.tags') t WHERE json_extract(t.value, '$.id') = ?)");
    params.push(f.tag);
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * A stored row read back; a row that does not parse (a damaged file) is left out rather than thrown:
 * the parser's message would quote the text, an address with it, into whatever logs the error.
 */
function parsed<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function mailerRepo(db: Db) {
  const upsert = db.prepare<[string, number, string, string, number]>(
    'INSERT INTO mailer_people (site_id, id, email_hash, row, gen) VALUES (?, ?, ?, ?, ?) ON CONFLICT (site_id, id) DO UPDATE SET email_hash = excluded.email_hash, row = excluded.row, gen = max(gen, excluded.gen)',
  );
  const setDetail = db.prepare<[string, string, string, number]>('UPDATE mailer_people SET detail = ?, row = ? WHERE site_id = ? AND id = ?');
  const getOne = db.prepare<[string, number], { row: string; detail: string | null }>('SELECT row, detail FROM mailer_people WHERE site_id = ? AND id = ?');
  const removeOne = db.prepare<[string, number]>('DELETE FROM mailer_people WHERE site_id = ? AND id = ?');
  const removeHash = db.prepare<[string, string]>('DELETE FROM mailer_people WHERE site_id = ? AND email_hash = ?');
  const removeAll = db.prepare<[string]>('DELETE FROM mailer_people WHERE site_id = ?');
  const sweep = db.prepare<[string, number]>('DELETE FROM mailer_people WHERE site_id = ? AND gen < ?');
  const counted = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM mailer_people WHERE site_id = ?');
  const maxGen = db.prepare<[string], { g: number | null }>('SELECT max(gen) AS g FROM mailer_people WHERE site_id = ?');
  const statuses = db.prepare<[string], { status: string; n: number }>("SELECT json_extract(row, '$.status') AS status, count(*) AS n FROM mailer_people WHERE site_id = ? GROUP BY 1");
  const onList = db.prepare<[string, number], { status: string; n: number }>(
    "SELECT json_extract(m.value, '$.status') AS status, count(*) AS n FROM mailer_people, json_each(row, '$.lists') m WHERE site_id = ? AND json_extract(m.value, '$.listId') = ? GROUP BY 1",
  );

  return {
    /** People as a page of the table read them (`gen`: the fill they belong to; 0 for a page read on its way). */
    put(siteId: string, rows: readonly { row: SubscriberRow; hash: string }[], gen = 0): void {
      db.transaction(() => {
        for (const r of rows) upsert.run(siteId, r.row.id, r.hash, JSON.stringify(r.row), gen);
      })();
    },

    /** A person's page, read from the site (their row follows it). */
    putDetail(siteId: string, subscriber: Subscriber, hash: string): void {
      const { consent: _c, import: _i, suppression: _s, sends: _se, sendsTotal: _st, consentLog: _l, ...row } = subscriber;
      db.transaction(() => {
        upsert.run(siteId, subscriber.id, hash, JSON.stringify(row), 0);
        setDetail.run(JSON.stringify(subscriber), JSON.stringify(row), siteId, subscriber.id);
      })();
    },

    get(siteId: string, id: number): { row: SubscriberRow; detail: Subscriber | null } | null {
      const r = getOne.get(siteId, id);
      const row = r ? parsed<SubscriberRow>(r.row) : null;
      return r && row ? { row, detail: parsed<Subscriber>(r.detail) } : null;
    },

    remove(siteId: string, id: number): number {
      return removeOne.run(siteId, id).changes;
    },

    removeByHash(siteId: string, hash: string): number {
      return removeHash.run(siteId, hash).changes;
    },

    /** Every person of the site's copy. */
    clear(siteId: string): number {
      return removeAll.run(siteId).changes;
    },

    /** After a whole fill: the people it did not see are gone from the site (or past the copy's bound). */
    sweep(siteId: string, gen: number): number {
      return sweep.run(siteId, gen).changes;
    },

    nextGen(siteId: string): number {
      return (maxGen.get(siteId)?.g ?? 0) + 1;
    },

    count(siteId: string): number {
      return counted.get(siteId)?.n ?? 0;
    },

    /** A page of the copy with the filters a copy can apply, newest first, and its counts. */
    page(siteId: string, f: SubscriberFilter, page: number, perPage: number): CopyPage {
      const w = where(f);
      const total = (db.prepare(`SELECT count(*) AS n FROM mailer_people WHERE ${w.sql}`).get(siteId, ...w.params) as { n: number }).n;
      const rows = db.prepare(`SELECT row FROM mailer_people WHERE ${w.sql} ORDER BY id DESC LIMIT ? OFFSET ?`).all(siteId, ...w.params, perPage, (page - 1) * perPage) as { row: string }[];
      const statusCounts = Object.fromEntries(SUBSCRIBER_STATUSES.map((s) => [s, 0])) as StatusCounts;
      for (const s of statuses.all(siteId)) if (s.status in statusCounts) statusCounts[s.status as keyof StatusCounts] = s.n;
      let listCounts: ListCounts | null = null;
      if (f.list !== undefined) {
        listCounts = { pending: 0, subscribed: 0, unsubscribed: 0, total: 0 };
        for (const s of onList.all(siteId, f.list)) {
          if (s.status === 'pending' || s.status === 'subscribed' || s.status === 'unsubscribed') listCounts[s.status] = s.n;
          listCounts.total += s.n;
        }
      }
      return { items: rows.map((r) => parsed<SubscriberRow>(r.row)).filter((r): r is SubscriberRow => r !== null), total, statusCounts, listCounts };
    },

    /** Writes the WAL back into the file and empties it, so removed people are overwritten there too (secure_delete covers the file's pages). */
    checkpoint(): void {
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // busy (a reader): the next checkpoint does it
      }
    },
  };
}

export type MailerRepo = ReturnType<typeof mailerRepo>;
