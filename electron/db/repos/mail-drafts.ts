/**
 * Drafts of campaigns and templates (migration 15): one per record, holding its base, mine and,
 * in a conflict, theirs, and its place in the site's sync (state, attempts, next try). Every change
 * is one statement, so a process killed at any instant leaves the draft as it was or as it became.
 */
import type { MailDraftKind, MailDraftState, MailFields } from '../../contract';
import type { Db } from '../open';

/** `sending`: a push sent it and has not heard back (the site may have it: it is read before it is sent again). */
export type MailDraftRowState = MailDraftState | 'sending';

export interface MailDraft {
  id: number;
  siteId: string;
  kind: MailDraftKind;
  remoteId: number;
  base: MailFields;
  mine: MailFields;
  theirs: MailFields | null;
  state: MailDraftRowState;
  problem: { message: string; fields?: Record<string, string> } | null;
  attempts: number;
  nextAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  site_id: string;
  kind: MailDraftKind;
  remote_id: number;
  base: string;
  mine: string;
  theirs: string | null;
  state: MailDraftRowState;
  problem: string | null;
  attempts: number;
  next_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

const toDraft = (r: Row): MailDraft => ({
  id: r.id,
  siteId: r.site_id,
  kind: r.kind,
  remoteId: r.remote_id,
  base: JSON.parse(r.base),
  mine: JSON.parse(r.mine),
  theirs: r.theirs ? JSON.parse(r.theirs) : null,
  state: r.state,
  problem: r.problem ? JSON.parse(r.problem) : null,
  attempts: r.attempts,
  nextAt: r.next_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function mailDraftsRepo(db: Db, clock: () => number = Date.now) {
  const q = {
    one: db.prepare<[number], Row>('SELECT * FROM mail_drafts WHERE id = ?'),
    forRecord: db.prepare<[string, string, number], Row>('SELECT * FROM mail_drafts WHERE site_id = ? AND kind = ? AND remote_id = ?'),
    ofSite: db.prepare<[string], Row>('SELECT * FROM mail_drafts WHERE site_id = ? ORDER BY id'),
    // a new draft, or new text for the record's draft: a refused one is tried again with it
    save: db.prepare(
      `INSERT INTO mail_drafts (site_id, kind, remote_id, base, mine, created_at, updated_at)
       VALUES (@site_id, @kind, @remote_id, @base, @mine, @now, @now)
       ON CONFLICT (site_id, kind, remote_id) DO UPDATE SET
         mine = excluded.mine, updated_at = excluded.updated_at,
         state = CASE state WHEN 'rejected' THEN 'pending' ELSE state END,
         problem = CASE state WHEN 'rejected' THEN NULL ELSE problem END`,
    ),
    setState: db.prepare(`UPDATE mail_drafts SET state = @state, attempts = @attempts, next_at = @next_at, last_error = @last_error WHERE id = @id`),
    conflict: db.prepare(`UPDATE mail_drafts SET state = 'conflicted', theirs = @theirs, problem = NULL, next_at = NULL, updated_at = @now WHERE id = @id`),
    reject: db.prepare(`UPDATE mail_drafts SET state = 'rejected', problem = @problem, next_at = NULL, updated_at = @now WHERE id = @id`),
    rebase: db.prepare(`UPDATE mail_drafts SET base = @base, mine = @mine, theirs = NULL, state = 'pending', problem = NULL, attempts = 0, next_at = NULL, last_error = NULL, updated_at = @now WHERE id = @id`),
    remove: db.prepare<[number]>('DELETE FROM mail_drafts WHERE id = ?'),
    clearBackoff: db.prepare<[string]>('UPDATE mail_drafts SET next_at = NULL WHERE site_id = ?'),
    counts: db.prepare<[], { site_id: string; n: number; conflicted: number }>(
      `SELECT site_id, count(*) AS n, sum(CASE WHEN state = 'conflicted' THEN 1 ELSE 0 END) AS conflicted FROM mail_drafts GROUP BY site_id`,
    ),
  };
  const now = () => new Date(clock()).toISOString();
  const one = (id: number): MailDraft | undefined => {
    const r = q.one.get(id);
    return r && toDraft(r);
  };

  return {
    one,
    forRecord(siteId: string, kind: MailDraftKind, remoteId: number): MailDraft | undefined {
      const r = q.forRecord.get(siteId, kind, remoteId);
      return r && toDraft(r);
    },
    ofSite: (siteId: string): MailDraft[] => q.ofSite.all(siteId).map(toDraft),

    /** Keeps the fields as the record's draft; `base` is taken only by a new draft (an existing one keeps its own). */
    save(siteId: string, kind: MailDraftKind, remoteId: number, base: MailFields, mine: MailFields): MailDraft {
      q.save.run({ site_id: siteId, kind, remote_id: remoteId, base: JSON.stringify(base), mine: JSON.stringify(mine), now: now() });
      return toDraft(q.forRecord.get(siteId, kind, remoteId)!);
    },
    setState(id: number, s: { state: MailDraftRowState; attempts: number; nextAt: string | null; lastError: string | null }): void {
      q.setState.run({ id, state: s.state, attempts: s.attempts, next_at: s.nextAt, last_error: s.lastError });
    },
    conflict(id: number, theirs: MailFields): void {
      q.conflict.run({ id, theirs: JSON.stringify(theirs), now: now() });
    },
    reject(id: number, problem: { message: string; fields?: Record<string, string> }): void {
      q.reject.run({ id, problem: JSON.stringify(problem), now: now() });
    },
    /** The site's fields become the base and `mine` what goes over them (a clean merge, or a person's resolution). */
    rebase(id: number, base: MailFields, mine: MailFields): void {
      q.rebase.run({ id, base: JSON.stringify(base), mine: JSON.stringify(mine), now: now() });
    },
    remove: (id: number): void => void q.remove.run(id),
    clearBackoff: (siteId: string): void => void q.clearBackoff.run(siteId),
    counts(): Map<string, { pending: number; conflicted: number }> {
      return new Map(q.counts.all().map((r) => [r.site_id, { pending: r.n, conflicted: r.conflicted }]));
    },
  };
}

export type MailDraftsRepo = ReturnType<typeof mailDraftsRepo>;
