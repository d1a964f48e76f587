/**
 * "Make available offline" for the renderer: one mirror run per site at a time, resumed where it
 * stopped (a cancel, a failure, or a quit or crash of the Host), and the per-site offline settings.
 */
import type { ChannelParsed, MirrorFailures, MirrorProgress, OfflineSettings, SiteLanguages } from '../contract';
import { AppError } from '../base/app-error';
import { cmsPages } from '../api/cms/pages';
import type { PagesRepo } from '../db/repos/pages';
import type { MirrorRepo, RunRow } from '../db/repos/mirror';
import type { PrefsRepo } from '../db/repos/prefs';
import { LANGUAGES_KEY, type SiteCacheRepo } from '../db/repos/site-cache';
import type { SitesRepo } from '../db/repos/sites';
import type { SessionManager } from '../sessions/cms-session-manager';
import { itemAddress } from './list';
import { MirrorRun, progressOf } from './run';
import type { SiteRows } from '../sessions/site-rows';
import { planFor, settingsOf, type ListCursor, type MirrorPlan } from './plan';

export interface MirrorDeps {
  sites: SitesRepo;
  /** The Host's site rows (forgotten at every edit and removal). */
  rows: SiteRows;
  sessions: SessionManager;
  pages: PagesRepo;
  repo: MirrorRepo;
  prefs: PrefsRepo;
  siteCache: SiteCacheRepo;
  emit: (p: MirrorProgress) => void;
}

export const settingsKey = (siteId: string) => `offline:${siteId}`;

export function mirrorService(deps: MirrorDeps) {
  const { repo } = deps;
  const live = new Map<string, MirrorRun>();

  const cmsSite = (siteId: string) => deps.rows.ofKind(siteId, 'cms', 'only CMS sites are made available offline.');

  const settings = (siteId: string): OfflineSettings => settingsOf(deps.prefs.get<Partial<OfflineSettings>>(settingsKey(siteId)));

  function launch(run: RunRow): MirrorRun {
    const r = new MirrorRun(run, {
      transport: deps.sessions.get(run.siteId).transport({ priority: 'background' }),
      pages: deps.pages,
      repo,
      emit: deps.emit,
    });
    live.set(run.siteId, r);
    void r.finished.finally(() => {
      if (live.get(run.siteId) === r) live.delete(run.siteId);
    });
    return r;
  }

  /** The site's languages, read now (and kept for offline use). */
  async function languagesOf(siteId: string): Promise<SiteLanguages> {
    const langs = await cmsPages.siteLanguages(deps.sessions.get(siteId).transport({ priority: 'background' }));
    deps.siteCache.put(siteId, LANGUAGES_KEY, langs);
    return langs;
  }

  return {
    settings(siteId: string): OfflineSettings {
      cmsSite(siteId);
      return settings(siteId);
    },

    setSettings(q: ChannelParsed<'mirror.setSettings'>): OfflineSettings {
      cmsSite(q.siteId);
      const next = settingsOf({
        ...settings(q.siteId),
        ...(q.scope ? { scope: q.scope } : {}),
        ...(q.languages ? { languages: q.languages } : {}),
        ...(q.autoSync !== undefined ? { autoSync: q.autoSync } : {}),
      });
      deps.prefs.set(settingsKey(q.siteId), next);
      return next;
    },

    /** Starts a run, or goes on with the site's unfinished one; answers at once (progress follows as events). */
    async start(q: ChannelParsed<'mirror.start'>): Promise<MirrorProgress> {
      cmsSite(q.siteId);
      const running = live.get(q.siteId);
      if (running) return running.progress();
      const last = repo.latest(q.siteId);
      const wanted = settings(q.siteId);
      // an unfinished run goes on, unless the settings changed what it should copy
      const samePlan = (p: MirrorPlan) => JSON.stringify([p.scope, p.languages]) === JSON.stringify([wanted.scope, wanted.languages]);
      if (last && last.state !== 'done' && !q.fresh && samePlan(last.plan as MirrorPlan)) {
        const plan = last.plan as MirrorPlan;
        if (q.confirmRemoval) plan.confirmRemoval = true;
        if (q.revalidateAll) plan.revalidateAll = true;
        last.state = 'running';
        last.error = null;
        last.finishedAt = null;
        repo.save(last, repo.counts(last.id));
        return launch(last).progress();
      }
      const langs = await languagesOf(q.siteId);
      const plan = planFor(
        wanted,
        langs.enabled ? langs.default : null,
        repo.cachedLevels(q.siteId),
        {
          ...(q.revalidateAll ? { revalidateAll: true } : {}),
          ...(q.confirmRemoval ? { confirmRemoval: true } : {}),
        },
        langs.enabled ? langs.languages.map((l) => l.code) : [],
      );
      const cursor: ListCursor = { query: 0, page: 1, totals: [] };
      return launch(repo.create(q.siteId, plan, cursor)).progress();
    },

    /** Stops the site's run; it stays resumable. Null when none runs. */
    async cancel(siteId: string): Promise<MirrorProgress | null> {
      const r = live.get(siteId);
      if (!r) return null;
      await r.stop('cancel');
      return r.progress();
    },

    status(siteId?: string): MirrorProgress[] {
      const runs = siteId ? [repo.latest(siteId)].filter((r): r is RunRow => r !== undefined) : repo.latestAll();
      return runs.map((run) => live.get(run.siteId)?.progress() ?? progressOf(run, repo.counts(run.id)));
    },

    failures(siteId: string): MirrorFailures {
      cmsSite(siteId);
      const run = repo.latest(siteId);
      if (!run) return { runId: null, items: [], total: 0, unreadable: [] };
      const items = repo.failures(run.id).map((f) => ({ ...itemAddress(f.route), lang: f.lang, reason: f.error ?? 'The site did not answer.' }));
      const unreadable = repo.unreadable(run.id).map((f) => ({ route: f.route, lang: f.lang, reason: f.error ?? 'The site’s API cannot read this page by its address.' }));
      return { runId: run.id, items, total: repo.counts(run.id).failed, unreadable };
    },

    /** At Host start, and when a full disk has room again: runs a quit, a crash or the disk cut short go on. */
    resumeInterrupted(): void {
      for (const run of repo.interrupted()) {
        if (!deps.sites.get(run.siteId)) continue;
        const r = live.get(run.siteId);
        if (!r) launch(run);
        // a run the disk halted may still be winding down: it goes on once it has
        else if (r.halted) void r.finished.then(() => live.has(run.siteId) || launch(run)).catch(() => {}); // still no room: the next 'room again' tries
      }
    },

    /** The site is being removed: its run stops (its rows go with the site). */
    async dropped(siteId: string): Promise<void> {
      await live.get(siteId)?.stop('drop');
    },

    /** Host shutdown: every run stops where it is and goes on at the next start. */
    async close(): Promise<void> {
      await Promise.all([...live.values()].map((r) => r.stop('quit')));
    },
  };
}

export type MirrorService = ReturnType<typeof mirrorService>;
