/**
 * Drafts and sync for the renderer: an edit is saved locally at once (draft + outbox item), a push
 * replays a site's outbox (one push per site at a time), a conflict waits for the merge view.
 */
import type { ChannelParsed, DraftInfo, DraftDetail, OutboxEntry, SaveOutcome, SyncSiteStatus } from '../contract';
import { cmsPages } from '../api/cms/pages';
import { AppError } from '../base/app-error';
import type { PagesRepo } from '../db/repos/pages';
import type { Draft, StructuralOp, SyncRepo } from '../db/repos/sync';
import type { SessionManager } from '../sessions/cms-session-manager';
import type { SitesRepo } from '../db/repos/sites';
import { mergePageText } from '../common/merge';
import { pushSite, type PushSummary } from './push';

export interface SyncDeps {
  sites: SitesRepo;
  sessions: SessionManager;
  repo: SyncRepo;
  cache: PagesRepo;
  emit: (status: SyncSiteStatus[]) => void;
  /** Whether the site answers (sync/connectivity.ts); null when not known yet. */
  online?: (siteId: string) => boolean | null;
  /**
   * Other changes kept here for the site and pushed with its pages (the mailer's drafts of
   * campaigns and templates): counted in the status, pushed after the pages by every full push.
   */
  also?: OutboxPart[];
}

/** Changes of another kind in the site's sync: its counts and its push. */
export interface OutboxPart {
  counts(): Map<string, { pending: number; conflicted: number }>;
  push(siteId: string, o: { asked?: boolean }): Promise<PushSummary>;
}

/** Two pushes of one site as one: counts added, the first stop kept. */
function joined(a: PushSummary, b: PushSummary): PushSummary {
  const out: PushSummary = { pushed: a.pushed + b.pushed, conflicted: a.conflicted + b.conflicted, rejected: a.rejected + b.rejected, remaining: a.remaining + b.remaining };
  const stopped = a.stopped ?? b.stopped;
  return stopped ? { ...out, stopped } : out;
}

const info = (d: Draft): DraftInfo => ({
  id: d.id,
  siteId: d.siteId,
  route: d.route,
  lang: d.lang,
  state: d.state,
  title: d.mine.title,
  problem: d.problem,
  updatedAt: d.updatedAt,
});

export function syncService(deps: SyncDeps) {
  const { repo, cache } = deps;
  const running = new Map<string, Promise<PushSummary>>();
  const lastPush = new Map<string, { at: string; summary: PushSummary }>();

  /** Every part's counts per site, the pages' first. */
  function allCounts(): Map<string, { pending: number; conflicted: number }> {
    const counts = repo.counts();
    for (const part of deps.also ?? []) {
      for (const [siteId, c] of part.counts()) {
        const had = counts.get(siteId) ?? { pending: 0, conflicted: 0 };
        counts.set(siteId, { pending: had.pending + c.pending, conflicted: had.conflicted + c.conflicted });
      }
    }
    return counts;
  }

  function status(): SyncSiteStatus[] {
    const counts = allCounts();
    return deps.sites
      .list()
      .filter((s) => s.kind === 'cms')
      .map((s) => {
        const c = counts.get(s.id) ?? { pending: 0, conflicted: 0 };
        const last = lastPush.get(s.id);
        return {
          siteId: s.id,
          pending: c.pending,
          conflicted: c.conflicted,
          syncing: running.has(s.id),
          online: deps.online?.(s.id) ?? (last ? !last.summary.stopped || last.summary.stopped.reason !== 'offline' : null),
          lastPushAt: last?.at ?? null,
          lastError: last?.summary.stopped?.message ?? null,
        };
      });
  }
  const changed = () => deps.emit(status());

  /** Saves an edit locally at once; the base is the draft's own, or the cached copy it was made from. */
  function saveDraft(q: ChannelParsed<'drafts.save'>): Draft {
    const lang = q.lang ?? '';
    const existing = repo.draftFor(q.siteId, q.route, lang);
    let base = existing ? { etag: existing.baseEtag, text: existing.base } : undefined;
    if (!base) {
      const cached = cache.getPage(q.siteId, q.route, lang);
      if (!cached) throw new AppError({ code: 'not_found', message: `Open ${q.route} once while online before editing it offline.` });
      base = { etag: cached.page.etag, text: { title: cached.page.title, header: cached.page.header, content: cached.page.content } };
    }
    const mine = {
      title: q.title,
      header: q.header,
      content: q.content,
      ...(q.template !== undefined ? { template: q.template } : {}),
      ...(q.published !== undefined ? { published: q.published } : {}),
      ...(q.visible !== undefined ? { visible: q.visible } : {}),
    };
    const d = repo.saveEdit(q.siteId, q.route, lang, base, mine);
    changed();
    return d;
  }

  /** Everything the merge view needs: base, mine, theirs, and the hunks and field conflicts. */
  function detailOf(d: Draft): DraftDetail {
    const merge = d.state === 'conflicted' && d.theirs ? mergePageText(d.base, d.mine, d.theirs) : null;
    return { ...info(d), base: d.base, mine: d.mine, theirs: d.theirs, merge };
  }

  /**
   * One push per site at a time: a second call joins the running one. `only` pushes the changes
   * of one page (the editor's Save) and what it depends on; the rest stay queued. `asked`: a
   * person asking (Save, Push now): items backing off after a failure are tried at once too.
   */
  function push(siteId: string, o: { only?: string; asked?: boolean } = {}): Promise<PushSummary> {
    const current = running.get(siteId);
    if (current) return current;
    const p = (async () => {
      try {
        let summary = await pushSite(siteId, {
          // background work for the site's pacer, but the editor's Save of one page is a person waiting
          transport: deps.sessions.get(siteId).transport({ priority: o.only ? 'interactive' : 'background' }),
          repo,
          cache,
          ...(o.only ? { only: o.only } : {}),
          ...(o.asked ? { asked: true } : {}),
        });
        // the other parts go after the pages, unless the site stopped answering or one page was asked
        if (!o.only && !summary.stopped) for (const part of deps.also ?? []) summary = joined(summary, await part.push(siteId, o.asked ? { asked: true } : {}));
        lastPush.set(siteId, { at: new Date().toISOString(), summary });
        return summary;
      } finally {
        running.delete(siteId);
        changed();
      }
    })();
    running.set(siteId, p);
    changed();
    return p;
  }

  /**
   * Pushes one page's changes now (after any push already running, which may not include them) and
   * says what became of its draft: gone means it is on the site, whose copy the push just read.
   */
  async function pushDraft(d: Draft): Promise<SaveOutcome> {
    await running.get(d.siteId)?.catch(() => undefined);
    const summary = await push(d.siteId, { only: d.route, asked: true });
    const after = repo.draft(d.id);
    if (!after) {
      const cached = cache.getPage(d.siteId, d.route, d.lang);
      if (cached) return { outcome: 'pushed', page: cached.page };
      const page = await cmsPages.get(deps.sessions.get(d.siteId).transport({ priority: 'interactive' }), d.route, d.lang ? { lang: d.lang } : {});
      return { outcome: 'pushed', page };
    }
    const draft = info(after);
    if (after.state === 'conflicted') return { outcome: 'conflicted', draft };
    if (after.state === 'rejected') return { outcome: 'rejected', draft, problem: after.problem ?? { message: 'The site refused this page.' } };
    if (summary.stopped?.reason === 'signed_out') return { outcome: 'signed_out', draft, problem: { message: summary.stopped.message } };
    // the site did not answer: the text is safe here and goes out with the next sync
    return { outcome: 'queued', draft, problem: { message: summary.stopped?.message ?? 'The site did not answer.' } };
  }

  return {
    status,
    /** Pending and conflicted changes per site, every part's. */
    counts: allCounts,
    /** Tells the renderer again (a site went online or offline). */
    changed,

    saveDraft: (q: ChannelParsed<'drafts.save'>): DraftInfo => info(saveDraft(q)),

    /** Save: the text becomes the page's draft, and that page's changes go to the site at once. */
    submit: (q: ChannelParsed<'drafts.submit'>): Promise<SaveOutcome> => pushDraft(saveDraft(q)),

    /** Drops a draft with its queued change (the site's copy stands). */
    discardDraft(draftId: number): { id: number } {
      repo.discardDraft(draftId);
      changed();
      return { id: draftId };
    },

    /** The draft of one page in one language kept here, if any, with what the merge view needs. */
    forPage(siteId: string, route: string, lang = ''): DraftDetail | null {
      const d = repo.draftFor(siteId, route, lang);
      return d ? detailOf(d) : null;
    },

    drafts: (siteId?: string): DraftInfo[] => repo.drafts(siteId).map(info),

    draft(id: number): DraftDetail {
      const d = repo.draft(id);
      if (!d) throw new AppError({ code: 'not_found', message: 'That draft is gone (pushed or discarded).' });
      return detailOf(d);
    },

    /** The merge view's result: the server copy becomes the base, the resolution is mine, and that page is pushed. */
    async resolve(q: ChannelParsed<'drafts.resolve'>): Promise<SaveOutcome> {
      const d = repo.draft(q.draftId);
      if (!d) throw new AppError({ code: 'not_found', message: 'That draft is gone (pushed or discarded).' });
      if (d.state !== 'conflicted' || !d.theirs) throw new AppError({ code: 'invalid_input', message: 'This draft has no conflict to resolve.' });
      const resolved = repo.resolve(d.id, d.theirsEtag, d.theirs, { ...d.mine, title: q.title, header: q.header, content: q.content });
      changed();
      return pushDraft(resolved);
    },

    /** The site's outbox in push order, each change with its draft, so the Changes area needs no second read. */
    outbox(siteId: string): OutboxEntry[] {
      const drafts = new Map(repo.drafts(siteId).map((d) => [d.id, info(d)]));
      return repo.items(siteId).map((i) => ({
        id: i.id,
        op: i.op,
        route: i.route,
        state: i.state,
        attempts: i.attempts,
        nextAt: i.nextAt,
        lastError: i.lastError,
        draftId: i.draftId,
        createdAt: i.createdAt,
        draft: i.draftId !== null ? (drafts.get(i.draftId) ?? null) : null,
      }));
    },

    /** A structural write made while the site was unreachable (create, delete, move, translate). */
    queue(siteId: string, op: StructuralOp): void {
      repo.enqueue(siteId, op);
      changed();
    },

    discard(itemId: number): { id: number } {
      repo.discard(itemId);
      changed();
      return { id: itemId };
    },

    push,
  };
}

export type SyncService = ReturnType<typeof syncService>;
