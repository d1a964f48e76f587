/** Drafts and the outbox: the two tables sync works on, behind one interface. */
import type { Header } from '../../contract';
import type { Db } from '../open';

export interface PageText {
  title: string;
  header: Header;
  content: string;
}

export interface Mine extends PageText {
  template?: string;
  published?: boolean;
  visible?: boolean;
}

export type DraftState = 'pending' | 'conflicted' | 'rejected';

export interface Draft {
  id: number;
  siteId: string;
  route: string;
  lang: string;
  state: DraftState;
  baseEtag: string | null;
  base: PageText;
  mine: Mine;
  theirs: PageText | null;
  theirsEtag: string | null;
  problem: { message: string; fields?: Record<string, string> } | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A change waiting in the outbox: what it does to which route, and what it carries — one shape per
 * kind. sites/calls.ts queues the structural ones (pages, translations) when the site does not
 * answer, the sync service queues a save with each draft, and sync/push.ts replays them: all three read this type.
 */
export type OutboxOp =
  | { op: 'save'; route: string; payload: { lang: string } }
  | { op: 'create'; route: string; payload: { route: string; title: string; template?: string; content?: string; header?: Header; order?: number; lang?: string } }
  | { op: 'delete'; route: string; payload: { lang?: string; children?: boolean } }
  | { op: 'move'; route: string; payload: { parent: string; slug?: string; order?: number } }
  | { op: 'translate'; route: string; payload: { lang: string; title?: string; content?: string; header?: Header } };
/** The writes made offline outside a draft: create, delete, move, translate. */
export type StructuralOp = Exclude<OutboxOp, { op: 'save' }>;
export type OutboxKind = OutboxOp['op'];
export type OutboxState = 'queued' | 'sending' | 'waiting' | 'parked';

export type OutboxItem = OutboxOp & {
  id: number;
  siteId: string;
  draftId: number | null;
  state: OutboxState;
  attempts: number;
  nextAt: string | null;
  lastError: string | null;
  createdAt: string;
};

interface DraftRow {
  id: number;
  site_id: string;
  route: string;
  lang: string;
  state: DraftState;
  base_etag: string | null;
  base: string;
  mine: string;
  theirs: string | null;
  theirs_etag: string | null;
  problem: string | null;
  created_at: string;
  updated_at: string;
}

interface OutboxRow {
  id: number;
  site_id: string;
  op: OutboxKind;
  route: string;
  payload: string;
  draft_id: number | null;
  state: OutboxState;
  attempts: number;
  next_at: string | null;
  last_error: string | null;
  created_at: string;
}

const toDraft = (r: DraftRow): Draft => ({
  id: r.id,
  siteId: r.site_id,
  route: r.route,
  lang: r.lang,
  state: r.state,
  baseEtag: r.base_etag,
  base: JSON.parse(r.base),
  mine: JSON.parse(r.mine),
  theirs: r.theirs ? JSON.parse(r.theirs) : null,
  theirsEtag: r.theirs_etag,
  problem: r.problem ? JSON.parse(r.problem) : null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

// the payload was written from an OutboxOp of the same kind (insertItem below): the row's op names its shape
const opOf = (r: OutboxRow): OutboxOp => ({ op: r.op, route: r.route, payload: JSON.parse(r.payload) }) as OutboxOp;

const toItem = (r: OutboxRow): OutboxItem => ({
  ...opOf(r),
  id: r.id,
  siteId: r.site_id,
  draftId: r.draft_id,
  state: r.state,
  attempts: r.attempts,
  nextAt: r.next_at,
  lastError: r.last_error,
  createdAt: r.created_at,
});

export function syncRepo(db: Db) {
  const q = {
    draftByKey: db.prepare<[string, string, string], DraftRow>('SELECT * FROM drafts WHERE site_id = ? AND route = ? AND lang = ?'),
    draft: db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE id = ?'),
    drafts: db.prepare<[string], DraftRow>('SELECT * FROM drafts WHERE site_id = ? ORDER BY updated_at'),
    allDrafts: db.prepare<[], DraftRow>('SELECT * FROM drafts ORDER BY site_id, updated_at'),
    insertDraft: db.prepare(
      `INSERT INTO drafts (site_id, route, lang, base_etag, base, mine, created_at, updated_at)
       VALUES (@site_id, @route, @lang, @base_etag, @base, @mine, @now, @now)`,
    ),
    updateMine: db.prepare<[string, string, number]>("UPDATE drafts SET mine = ?, updated_at = ?, state = CASE state WHEN 'rejected' THEN 'pending' ELSE state END, problem = CASE state WHEN 'rejected' THEN NULL ELSE problem END WHERE id = ?"),
    setDraftState: db.prepare(
      `UPDATE drafts SET state = @state, theirs = @theirs, theirs_etag = @theirs_etag, problem = @problem, updated_at = @now WHERE id = @id`,
    ),
    rebase: db.prepare(
      `UPDATE drafts SET base_etag = @base_etag, base = @base, mine = @mine, state = 'pending', theirs = NULL, theirs_etag = NULL, problem = NULL, updated_at = @now WHERE id = @id`,
    ),
    deleteDraft: db.prepare<[number]>('DELETE FROM drafts WHERE id = ?'),
    itemForDraft: db.prepare<[number], OutboxRow>('SELECT * FROM outbox WHERE draft_id = ?'),
    insertItem: db.prepare(
      `INSERT INTO outbox (site_id, op, route, payload, draft_id, created_at) VALUES (@site_id, @op, @route, @payload, @draft_id, @now)`,
    ),
    items: db.prepare<[string], OutboxRow>('SELECT * FROM outbox WHERE site_id = ? ORDER BY id'),
    item: db.prepare<[number], OutboxRow>('SELECT * FROM outbox WHERE id = ?'),
    setItem: db.prepare(
      `UPDATE outbox SET state = @state, attempts = @attempts, next_at = @next_at, last_error = @last_error WHERE id = @id`,
    ),
    deleteItem: db.prepare<[number]>('DELETE FROM outbox WHERE id = ?'),
    counts: db.prepare<[], { site_id: string; n: number; conflicted: number }>(
      `SELECT o.site_id AS site_id, count(*) AS n, sum(CASE WHEN d.state = 'conflicted' THEN 1 ELSE 0 END) AS conflicted
       FROM outbox o LEFT JOIN drafts d ON d.id = o.draft_id GROUP BY o.site_id`,
    ),
  };
  const now = () => new Date().toISOString();

  return {
    draft: (id: number): Draft | undefined => {
      const r = q.draft.get(id);
      return r && toDraft(r);
    },
    draftFor: (siteId: string, route: string, lang = ''): Draft | undefined => {
      const r = q.draftByKey.get(siteId, route, lang);
      return r && toDraft(r);
    },
    drafts: (siteId?: string): Draft[] => (siteId ? q.drafts.all(siteId) : q.allDrafts.all()).map(toDraft),

    /**
     * Saves an edit at once: a new draft (with its base) and its outbox item, or new text for the
     * existing draft. One transaction: after a crash either both exist or neither.
     */
    saveEdit(siteId: string, route: string, lang: string, base: { etag: string | null; text: PageText }, mine: Mine): Draft {
      return db.transaction(() => {
        const existing = q.draftByKey.get(siteId, route, lang);
        if (existing) {
          q.updateMine.run(JSON.stringify(mine), now(), existing.id);
          if (!q.itemForDraft.get(existing.id)) {
            q.insertItem.run({ site_id: siteId, op: 'save', route, payload: JSON.stringify({ lang }), draft_id: existing.id, now: now() });
          }
          return toDraft(q.draft.get(existing.id)!);
        }
        const { lastInsertRowid } = q.insertDraft.run({
          site_id: siteId,
          route,
          lang,
          base_etag: base.etag,
          base: JSON.stringify(base.text),
          mine: JSON.stringify(mine),
          now: now(),
        });
        const id = Number(lastInsertRowid);
        q.insertItem.run({ site_id: siteId, op: 'save', route, payload: JSON.stringify({ lang }), draft_id: id, now: now() });
        return toDraft(q.draft.get(id)!);
      })();
    },

    /** A create, move, delete or translate made offline, queued in order. */
    enqueue(siteId: string, { op, route, payload }: StructuralOp): OutboxItem {
      const { lastInsertRowid } = q.insertItem.run({ site_id: siteId, op, route, payload: JSON.stringify(payload), draft_id: null, now: now() });
      return toItem(q.item.get(Number(lastInsertRowid))!);
    },

    items: (siteId: string): OutboxItem[] => q.items.all(siteId).map(toItem),
    item: (id: number): OutboxItem | undefined => {
      const r = q.item.get(id);
      return r && toItem(r);
    },
    setItem(id: number, s: { state: OutboxState; attempts: number; nextAt: string | null; lastError: string | null }): void {
      q.setItem.run({ id, state: s.state, attempts: s.attempts, next_at: s.nextAt, last_error: s.lastError });
    },
    /** The write reached the site: the item and its draft go, in one transaction with `also` (the cache refresh). */
    done(item: OutboxItem, also?: () => void): void {
      db.transaction(() => {
        also?.();
        q.deleteItem.run(item.id);
        if (item.draftId !== null) q.deleteDraft.run(item.draftId);
      })();
    },
    conflict(draftId: number, theirs: PageText, theirsEtag: string | null): void {
      q.setDraftState.run({ id: draftId, state: 'conflicted', theirs: JSON.stringify(theirs), theirs_etag: theirsEtag, problem: null, now: now() });
    },
    reject(draftId: number, problem: { message: string; fields?: Record<string, string> }): void {
      q.setDraftState.run({ id: draftId, state: 'rejected', theirs: null, theirs_etag: null, problem: JSON.stringify(problem), now: now() });
    },
    /** After a merge: the server copy becomes the base, the merged text becomes mine. */
    rebase(draftId: number, baseEtag: string | null, base: PageText, mine: Mine): void {
      q.rebase.run({ id: draftId, base_etag: baseEtag, base: JSON.stringify(base), mine: JSON.stringify(mine), now: now() });
    },
    /**
     * The merge view's result: the site's copy becomes the base, the resolution becomes mine, and
     * the draft's outbox item is queued afresh (a backoff from before the conflict no longer holds).
     * One transaction: after a crash the draft is either still in conflict or ready to push.
     */
    resolve(draftId: number, baseEtag: string | null, base: PageText, mine: Mine): Draft {
      return db.transaction(() => {
        q.rebase.run({ id: draftId, base_etag: baseEtag, base: JSON.stringify(base), mine: JSON.stringify(mine), now: now() });
        const it = q.itemForDraft.get(draftId);
        if (it) q.setItem.run({ id: it.id, state: 'queued', attempts: 0, next_at: null, last_error: null });
        return toDraft(q.draft.get(draftId)!);
      })();
    },
    /** Discard one change: a draft takes its outbox item with it (cascade), an item alone just goes. */
    discard(itemId: number): void {
      db.transaction(() => {
        const it = q.item.get(itemId);
        if (!it) return;
        if (it.draft_id !== null) q.deleteDraft.run(it.draft_id);
        q.deleteItem.run(itemId);
      })();
    },
    /** Discard a draft: it goes with its outbox item, in one transaction. */
    discardDraft(draftId: number): void {
      db.transaction(() => {
        const it = q.itemForDraft.get(draftId);
        if (it) q.deleteItem.run(it.id);
        q.deleteDraft.run(draftId);
      })();
    },
    /** The site answers again: waits meant for an offline site are over (pushSite skips items still waiting). */
    clearBackoff(siteId: string): void {
      db.prepare("UPDATE outbox SET next_at = NULL WHERE site_id = ? AND next_at IS NOT NULL AND state IN ('queued', 'sending')").run(siteId);
    },
    counts(): Map<string, { pending: number; conflicted: number }> {
      return new Map(q.counts.all().map((r) => [r.site_id, { pending: r.n, conflicted: r.conflicted ?? 0 }]));
    },
  };
}

export type SyncRepo = ReturnType<typeof syncRepo>;
