/**
 * Drafts and sync for the renderer: an edit is saved locally at once (draft + outbox item), a push
 * replays a site's outbox (one push per site at a time), a conflict waits for the merge view.
 */
import type { ChannelParsed, DraftInfo, DraftDetail, OutboxEntry, SyncSiteStatus } from '../contract';
import { AppError } from '../base/app-error';
import type { PagesRepo } from '../db/repos/pages';
import type { Draft, SyncRepo } from '../db/repos/sync';
import type { SessionManager } from '../sites/sessions';
import type { SitesRepo } from '../db/repos/sites';
import { mergeHeader, mergeText } from '../common/merge';
import { pushSite, type PushSummary } from './push';

export interface SyncDeps {
  sites: SitesRepo;
  sessions: SessionManager;
  repo: SyncRepo;
  cache: PagesRepo;
  emit: (status: SyncSiteStatus[]) => void;
  /** Whether the site answers (sync/connectivity.ts); null when not known yet. */
  online?: (siteId: string) => boolean | null;
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

  function status(): SyncSiteStatus[] {
    const counts = repo.counts();
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

  return {
    status,
    /** Tells the renderer again (a site went online or offline). */
    changed,

    /** Saves an edit locally at once; the base is the draft's own, or the cached copy it was made from. */
    saveDraft(q: ChannelParsed<'drafts.save'>): DraftInfo {
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
      return info(d);
    },

    drafts: (siteId?: string): DraftInfo[] => repo.drafts(siteId).map(info),

    /** Everything the merge view needs: base, mine, theirs, and the hunks and field conflicts. */
    draft(id: number): DraftDetail {
      const d = repo.draft(id);
      if (!d) throw new AppError({ code: 'not_found', message: 'That draft is gone (pushed or discarded).' });
      const merge =
        d.state === 'conflicted' && d.theirs
          ? {
              text: mergeText(d.base.content, d.mine.content, d.theirs.content),
              header: mergeHeader({ ...d.base.header, title: d.base.title }, { ...d.mine.header, title: d.mine.title }, { ...d.theirs.header, title: d.theirs.title }),
            }
          : null;
      return { ...info(d), base: d.base, mine: d.mine, theirs: d.theirs, merge };
    },

    /** The merge view's result: the server copy becomes the base, the resolution is mine, queued again. */
    resolve(q: ChannelParsed<'drafts.resolve'>): DraftInfo {
      const d = repo.draft(q.draftId);
      if (!d) throw new AppError({ code: 'not_found', message: 'That draft is gone (pushed or discarded).' });
      if (d.state !== 'conflicted' || !d.theirs) throw new AppError({ code: 'invalid_input', message: 'This draft has no conflict to resolve.' });
      repo.rebase(d.id, d.theirsEtag, d.theirs, { ...d.mine, title: q.title, header: q.header, content: q.content });
      const item = repo.items(d.siteId).find((i) => i.draftId === d.id);
      if (item) repo.setItem(item.id, { state: 'queued', attempts: 0, nextAt: null, lastError: null });
      changed();
      return info(repo.draft(d.id)!);
    },

    outbox: (siteId: string): OutboxEntry[] =>
      repo.items(siteId).map((i) => ({ id: i.id, op: i.op, route: i.route, state: i.state, attempts: i.attempts, nextAt: i.nextAt, lastError: i.lastError, draftId: i.draftId, createdAt: i.createdAt })),

    /** A structural write made while the site was unreachable (create, delete, move, translate). */
    queue(siteId: string, op: 'create' | 'delete' | 'move' | 'translate', route: string, payload: Record<string, unknown>): void {
      repo.enqueue(siteId, op, route, payload);
      changed();
    },

    discard(itemId: number): { id: number } {
      repo.discard(itemId);
      changed();
      return { id: itemId };
    },

    /**
     * One push per site at a time: a second call joins the running one. `only` pushes the changes
     * of one page (the editor's Save) and what it depends on; the rest stay queued. `asked`: a
     * person asking (Save, Push now): items backing off after a failure are tried at once too.
     */
    push(siteId: string, o: { only?: string; asked?: boolean } = {}): Promise<PushSummary> {
      const current = running.get(siteId);
      if (current) return current;
      const p = (async () => {
        try {
          const summary = await pushSite(siteId, {
            // background work for the site's pacer, but the editor's Save of one page is a person waiting
            transport: deps.sessions.get(siteId).transport({ priority: o.only ? 'interactive' : 'background' }),
            repo,
            cache,
            ...(o.only ? { only: o.only } : {}),
            ...(o.asked ? { asked: true } : {}),
          });
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
    },
  };
}

export type SyncService = ReturnType<typeof syncService>;
