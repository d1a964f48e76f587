/**
 * Campaigns and templates written here (contract/mail-drafts.ts): Save keeps the fields as the
 * record's draft in SQLite and sends them at once; a site that does not answer keeps them queued,
 * and the site's sync pushes them once it is back (sync/service.ts asks `push` after the pages).
 *
 * The site's records carry no ETag (document 2 has no If-Match for them), so a push reads the
 * record first and merges three ways: what only the site changed stays, what only this draft
 * changed is sent, a field changed on both sides or the same lines of the text make a conflict for
 * the merge view. Only the fields that differ from the site's are sent. A push only edits: nothing
 * is started, scheduled or sent, and a campaign that went out meanwhile refuses the draft, kept
 * here with the reason. A lost answer leaves the draft `sending`; the next push reads the record,
 * finds its fields there, and has nothing left to send (an edit is never applied twice).
 */
import { AppError, isAppError } from '../base/app-error';
import type { Transport } from '../api/transport';
import { cmsMailerCampaigns } from '../api/cms/mailer-campaigns';
import { mergeClean, mergePageText, same } from '../common/merge';
import { failedAttempt } from '../sync/order';
import type { PushSummary } from '../sync/push';
import type { MailDraft, MailDraftsRepo } from '../db/repos/mail-drafts';
import { campaignFields, fieldsFor, FIELDS_OF, templateFields } from '../contract';
import type { ChannelParsed, MailDraftDetail, MailDraftInfo, MailDraftKind, MailerBase, MailerCampaign, MailerTemplate, MailFields, MailSaveOutcome, PageTextShape } from '../contract';

export interface MailDraftDeps {
  repo: MailDraftsRepo;
  /** Runs a call on the site's mailer base (mailer/base.ts `on`). */
  on: <T>(siteId: string, call: (b: MailerBase) => Promise<T>) => Promise<T>;
  /** The transport of a push: interactive for a person's Save, background for the sync's. */
  t: (siteId: string, interactive: boolean) => Transport;
  /** A demo account's write is refused before anything is sent. */
  writable: (siteId: string, b: MailerBase) => void;
  /** The kept copies (the table, the templates) told what the site answered. */
  keepCampaign: (siteId: string, c: MailerCampaign) => void;
  keepTemplate: (siteId: string, x: MailerTemplate) => void;
  /** The site's sync counts changed (sync.status). */
  changed: () => void;
  /** Refuses a site that is not a CMS site of this app, before anything is kept for it. */
  known: (siteId: string) => void;
  now?: () => number;
}

/** The fields as the merge reads page text: the name as the title, the text as the content, the rest as the header. */
export function asText(f: MailFields): PageTextShape {
  const { name, bodyMd, ...rest } = f;
  return { title: name ?? '', content: bodyMd ?? '', header: rest as Record<string, unknown> };
}

const fromText = (kind: MailDraftKind, t: PageTextShape): MailFields => fieldsFor(kind, { ...(t.header as MailFields), name: t.title, bodyMd: t.content === '' ? null : t.content });

/** What `to` changes of `from`: the only fields a push sends. */
function changesOf(kind: MailDraftKind, from: MailFields, to: MailFields): Partial<MailFields> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS_OF[kind]) if (to[k] !== undefined && !same(from[k] ?? null, to[k] ?? null)) out[k] = to[k];
  return out as Partial<MailFields>;
}

/** Mine over theirs from the base; null when a field or the text needs a person. */
export function mergeFields(kind: MailDraftKind, base: MailFields, mine: MailFields, theirs: MailFields): MailFields | null {
  const merged = mergeClean(asText(base), asText(mine), asText(theirs));
  return merged ? fromText(kind, merged) : null;
}

const info = (d: MailDraft): MailDraftInfo => ({
  id: d.id,
  siteId: d.siteId,
  kind: d.kind,
  remoteId: d.remoteId,
  name: d.mine.name ?? d.base.name ?? '',
  state: d.state === 'sending' ? 'pending' : d.state,
  problem: d.problem,
  attempts: d.attempts,
  nextAt: d.nextAt,
  lastError: d.lastError,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

function detailOf(d: MailDraft): MailDraftDetail {
  const base = asText(d.base);
  const mine = asText(d.mine);
  const theirs = d.theirs ? asText(d.theirs) : null;
  const merge = d.state === 'conflicted' && theirs ? mergePageText(base, mine, theirs) : null;
  return { ...info(d), base: d.base, mine: d.mine, theirs: d.theirs, asText: { base, mine, theirs }, merge };
}

type MailRecord = MailerCampaign | MailerTemplate;

const readRecord = (t: Transport, b: MailerBase, kind: MailDraftKind, id: number): Promise<MailRecord> => (kind === 'campaign' ? cmsMailerCampaigns.campaign(t, b, id) : cmsMailerCampaigns.template(t, b, id));

const updateRecord = (t: Transport, b: MailerBase, kind: MailDraftKind, id: number, changes: Partial<MailFields>): Promise<MailRecord> =>
  kind === 'campaign' ? cmsMailerCampaigns.update(t, b, id, changes) : cmsMailerCampaigns.updateTemplate(t, b, id, changes);

type Sent = { outcome: 'done'; record: MailRecord } | { outcome: 'conflicted' | 'rejected' };

/** A record on the site as a Save's answer carries it. */
const pushedOf = (kind: MailDraftKind, r: MailRecord): MailSaveOutcome =>
  kind === 'campaign' ? { outcome: 'pushed', campaign: r as MailerCampaign, template: null } : { outcome: 'pushed', campaign: null, template: r as MailerTemplate };

export function mailDrafts(deps: MailDraftDeps) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;
  const running = new Map<string, Promise<PushSummary>>();

  const gone = (d: MailDraft) => `The site has no ${d.kind} “${d.base.name ?? ''}” any more: it was deleted, perhaps by someone else. Copy your text from here, or discard the draft.`;

  /** Reads the record, merges, sends what differs from the site's: one draft, one push. */
  async function send(d: MailDraft, t: Transport): Promise<Sent> {
    const theirsRecord = await deps.on(d.siteId, (b) => readRecord(t, b, d.kind, d.remoteId)).catch((err: unknown): null => {
      if (isAppError(err) && err.code === 'not_found' && err.info.reason) return null;
      throw err;
    });
    if (!theirsRecord) {
      repo.reject(d.id, { message: gone(d) });
      return { outcome: 'rejected' };
    }
    if (d.kind === 'campaign' && !(theirsRecord as MailerCampaign).nextMoves.includes('edit')) {
      const c = theirsRecord as MailerCampaign;
      repo.reject(d.id, { message: `“${c.name}” is ${c.status} on the site now: its text cannot change any more. Your text is kept here: copy it into a new campaign, or discard it.` });
      return { outcome: 'rejected' };
    }
    const theirs = d.kind === 'campaign' ? campaignFields(theirsRecord as MailerCampaign) : templateFields(theirsRecord as MailerTemplate);
    const wanted = same(theirs, d.base) ? d.mine : mergeFields(d.kind, d.base, d.mine, theirs);
    if (!wanted) {
      repo.conflict(d.id, theirs);
      return { outcome: 'conflicted' };
    }
    const changes = changesOf(d.kind, theirs, wanted);
    if (!Object.keys(changes).length) {
      // on the site already: sent before an answer was lost, or the same edit made there
      repo.remove(d.id);
      return { outcome: 'done', record: theirsRecord };
    }
    try {
      const saved = await deps.on(d.siteId, (b) => {
        deps.writable(d.siteId, b);
        return updateRecord(t, b, d.kind, d.remoteId, changes);
      });
      repo.remove(d.id);
      if (d.kind === 'campaign') deps.keepCampaign(d.siteId, saved as MailerCampaign);
      else deps.keepTemplate(d.siteId, saved as MailerTemplate);
      return { outcome: 'done', record: saved };
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (err.code === 'invalid_input') {
        repo.reject(d.id, { message: err.message, ...(err.info.fields ? { fields: err.info.fields } : {}) });
        return { outcome: 'rejected' };
      }
      if (err.code === 'not_found' && err.info.reason) {
        repo.reject(d.id, { message: gone(d) });
        return { outcome: 'rejected' };
      }
      if (err.code === 'conflict' && err.info.reason === 'campaign_state') {
        repo.reject(d.id, { message: `${err.message.replace(/\.$/, '')}. Your text is kept here: copy it into a new campaign, or discard it.` });
        return { outcome: 'rejected' };
      }
      throw err;
    }
  }

  /**
   * The site's drafts in the order they were made (one push per site at a time). A draft waiting
   * for a person (conflicted, refused) is left; one backing off waits unless a person asked. The
   * first that gets no answer (or a session that ended) stops the push: the rest wait with it.
   */
  function push(siteId: string, o: { only?: number; asked?: boolean; onDone?: (record: MailRecord) => void } = {}): Promise<PushSummary> {
    const current = running.get(siteId);
    if (current) return current.then(() => push(siteId, o));
    const run = (async (): Promise<PushSummary> => {
      const summary: PushSummary = { pushed: 0, conflicted: 0, rejected: 0, remaining: 0 };
      const drafts = repo.ofSite(siteId);
      for (let i = 0; i < drafts.length; i++) {
        const d = drafts[i]!;
        const later = !o.asked && d.nextAt !== null && Date.parse(d.nextAt) > now();
        if ((o.only !== undefined && d.id !== o.only) || d.state === 'conflicted' || d.state === 'rejected' || later) {
          summary.remaining++;
          continue;
        }
        repo.setState(d.id, { state: 'sending', attempts: d.attempts, nextAt: null, lastError: d.lastError });
        try {
          const r = await send(d, deps.t(siteId, o.only !== undefined));
          if (r.outcome === 'done') {
            summary.pushed++;
            o.onDone?.(r.record);
          } else {
            summary[r.outcome]++;
            summary.remaining++;
          }
        } catch (err) {
          const f = failedAttempt(err, d.attempts, now());
          repo.setState(d.id, { state: f.signedOut ? 'pending' : 'sending', attempts: f.attempts, nextAt: f.nextAt, lastError: f.lastError });
          summary.stopped = f.stopped;
          summary.remaining += drafts.length - i;
          break;
        }
      }
      return summary;
    })();
    const tracked = run.finally(() => {
      running.delete(siteId);
      deps.changed();
    });
    running.set(siteId, tracked);
    return tracked;
  }

  /** Pushes one draft now and says what became of it. */
  async function pushOne(d: MailDraft): Promise<MailSaveOutcome> {
    let pushed: MailRecord | null = null;
    const summary = await push(d.siteId, { only: d.id, asked: true, onDone: (record) => (pushed = record) });
    if (pushed) return pushedOf(d.kind, pushed);
    const after = repo.one(d.id);
    if (!after) {
      // sent by the push that was running when this one was asked: the record is read for the editor
      const record = await deps.on(d.siteId, (b) => readRecord(deps.t(d.siteId, true), b, d.kind, d.remoteId)).catch(() => null);
      return record ? pushedOf(d.kind, record) : { outcome: 'pushed', campaign: null, template: null };
    }
    const draft = info(after);
    if (after.state === 'conflicted') return { outcome: 'conflicted', draft, problem: { message: `The ${d.kind} was changed on the site too: choose what to keep.` } };
    if (after.state === 'rejected') return { outcome: 'rejected', draft, problem: after.problem ?? { message: `The site refused this ${d.kind}.` } };
    if (summary.stopped?.reason === 'signed_out') return { outcome: 'signed_out', draft, problem: { message: summary.stopped.message } };
    return { outcome: 'queued', draft, problem: { message: `${(summary.stopped?.message ?? 'The site did not answer.').replace(/\.$/, '')}. Your changes are kept on this computer and go to the site when it answers.` } };
  }

  const get = (draftId: number): MailDraft => {
    const d = repo.one(draftId);
    if (!d) throw new AppError({ code: 'not_found', message: 'That draft is gone (on the site now, or discarded).' });
    return d;
  };

  return {
    push,
    counts: () => repo.counts(),
    clearBackoff: (siteId: string) => repo.clearBackoff(siteId),

    forRecord(siteId: string, kind: MailDraftKind, id: number): MailDraftDetail | null {
      const d = repo.forRecord(siteId, kind, id);
      return d ? detailOf(d) : null;
    },

    list: (siteId: string): MailDraftInfo[] => repo.ofSite(siteId).map(info),

    get: (draftId: number): MailDraftDetail => detailOf(get(draftId)),

    /** Save: kept here first (nothing typed is lost whatever the site does), then sent. */
    async submit(q: ChannelParsed<'mailDrafts.submit'>): Promise<MailSaveOutcome> {
      deps.known(q.siteId);
      const existing = repo.forRecord(q.siteId, q.kind, q.id);
      // a conflicted draft keeps its conflict: Save over it would hide what the site changed
      if (existing?.state === 'conflicted') throw new AppError({ code: 'conflict', status: 409, reason: 'draft_conflicted', message: `Your earlier changes to this ${q.kind} conflict with the site’s: resolve them first (Changes, or the notice above the form).` });
      const d = repo.save(q.siteId, q.kind, q.id, fieldsFor(q.kind, q.base), fieldsFor(q.kind, q.fields));
      deps.changed();
      return pushOne(d);
    },

    discard(draftId: number): { id: number } {
      repo.remove(get(draftId).id);
      deps.changed();
      return { id: draftId };
    },

    /** The merge view's result over the site's fields (theirs becomes the base), pushed at once. */
    async resolve(q: ChannelParsed<'mailDrafts.resolve'>): Promise<MailSaveOutcome> {
      const d = get(q.draftId);
      if (d.state !== 'conflicted' || !d.theirs) throw new AppError({ code: 'invalid_input', message: 'This draft has no conflict to resolve.' });
      repo.rebase(d.id, d.theirs, fieldsFor(d.kind, { ...d.mine, ...q.fields }));
      deps.changed();
      return pushOne(get(d.id));
    },
  };
}

export type MailDraftsService = ReturnType<typeof mailDrafts>;
