/**
 * Drafts and sync: edits saved here first (`drafts.*`), the outbox that sends them (`sync.*`) and
 * the sync status event. The types and input schemas sit with the pages (pages.ts).
 */
import * as v from 'valibot';
import { channel, event, None } from './define';
import { SiteId } from './sites';
import { AuthSite } from './auth';
import { DraftId, DraftResolve, DraftSave, Route, type DraftDetail, type DraftInfo, type OutboxEntry, type PushResult, type SaveOutcome, type SyncSiteStatus } from './pages';

const Id = v.pipe(v.number(), v.integer(), v.minValue(1));

export const draftsChannels = {
  /** Saves an edit locally at once (a draft with its base); nothing is sent until a push. */
  'drafts.save': channel<DraftInfo>()(DraftSave),
  'drafts.list': channel<DraftInfo[]>()(v.strictObject({ siteId: v.optional(SiteId) })),
  'drafts.get': channel<DraftDetail>()(v.strictObject({ draftId: Id })),
  /** Save: keeps the text as the page's draft and pushes that page's changes at once; answers what became of it. */
  'drafts.submit': channel<SaveOutcome>()(DraftSave),
  /** Drops a draft and its queued change: the site's copy stands. */
  'drafts.discard': channel<{ id: number }>()(DraftId),
  /** The merge view's result: the draft goes on top of the site's copy and that page is pushed at once. */
  'drafts.resolve': channel<SaveOutcome>()(DraftResolve),
  'sync.status': channel<SyncSiteStatus[]>()(None),
  'sync.outbox': channel<OutboxEntry[]>()(AuthSite),
  'sync.discard': channel<{ id: number }>()(v.strictObject({ itemId: Id })),
  /** Replays the site's outbox; with `route`, only that page's changes (and the creates above it). */
  'sync.push': channel<PushResult>()(v.strictObject({ siteId: SiteId, route: v.optional(Route) })),
};

export const draftsEvents = {
  /** Unsynced counts, pushes running, online or not, per CMS site. */
  'sync.status': event<SyncSiteStatus[]>(),
};
