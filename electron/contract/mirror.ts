/**
 * "Make available offline" (a site mirrored into the cache), the per-site offline settings, and
 * the `mirror.*` channels and progress event. Search over the copies is search.ts.
 */
import * as v from 'valibot';
import { SiteId } from './sites';
import { Route } from './pages';
import { channel, event } from './define';

/** How much of a site "Make available offline" copies. */
export type MirrorScope =
  /** every page of the site */
  | { kind: 'site' }
  /** the tree levels read before (the folders opened in the tree), each level whole */
  | { kind: 'levels' }
  /** one page and everything below it */
  | { kind: 'prefix'; route: string };

export interface OfflineSettings {
  scope: MirrorScope;
  /** 'all' of the site's languages, or these codes (the default language is always copied). */
  languages: 'all' | string[];
  /** Push the outbox when the site answers again after being offline. On by default. */
  autoSync: boolean;
}

export type MirrorState = 'running' | 'cancelled' | 'failed' | 'done';
/** listing: reading the site's page list; reading: each page; cleaning: removing what the site deleted. */
export type MirrorPhase = 'listing' | 'reading' | 'cleaning' | 'done';

/**
 * The time a running mirror has left. `siteLimit`: the site's rate limit is what bounds it (the
 * site allows `requests` every `perSeconds`), so the card can say why it takes that long.
 */
export interface MirrorEta {
  seconds: number;
  siteLimit: { requests: number; perSeconds: number } | null;
}

/**
 * One run of "Make available offline" (the `mirror.progress` event and `mirror.status`). Counts
 * are page × language reads. `done + failed + unreadable` reaches `total` when the run ends;
 * `unchanged` and `fetched` split `done`.
 */
export interface MirrorProgress {
  siteId: string;
  runId: number;
  state: MirrorState;
  phase: MirrorPhase;
  /** Reads known so far; final once `listed` is true. */
  total: number;
  /** The whole page list has been read (total no longer grows). */
  listed: boolean;
  /** Reads finished well: fetched + unchanged (+ pages found deleted on the way). */
  done: number;
  /** Read anew (the page changed, or was not cached). */
  fetched: number;
  /** The cached copy was current: the page list vouched for it (nothing was read). */
  unchanged: number;
  /** Reads that failed even after retries; the run can be started again to finish them. */
  failed: number;
  /**
   * Pages the site lists but its API cannot read by their route (GET /pages/docs/media is the
   * media list of /docs): the copy has their list row, not their text. Not a failure.
   */
  unreadable: number;
  /** Cached pages removed because the site no longer has them. */
  removed: number;
  /**
   * Removals held back because they would empty most of the cached site: start again with
   * `confirmRemoval: true` to apply them.
   */
  held: number;
  error: string | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** `mirror.start` goes on where this run stopped (cancelled, failed, or cut by a restart). */
  resumable: boolean;
  /** While reading: the time left, by the recent pace and the site's rate limit; null when not known yet. */
  eta: MirrorEta | null;
}

/** A page the latest run could not read, and why (`mirror.failures`). */
export interface MirrorFailure {
  /** null: a row of the site's page list that names no page it can be read by (see `row`) */
  route: string | null;
  /** with route null, the row's place in the site's page list, from 1 */
  row?: number;
  /** '' = the site's default language */
  lang: string;
  reason: string;
}

/**
 * The failed reads of the site's latest run: the first `items` (by route), `total` in all; and the
 * pages its API cannot read by their route (`unreadable`, with the reason; not failures).
 */
export interface MirrorFailures {
  runId: number | null;
  items: MirrorFailure[];
  total: number;
  unreadable: MirrorFailure[];
}

// ── inputs ──────────────────────────────────────────────────────────────────────────────────

const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'Not a language code.'));

export const MirrorScopeSchema = v.variant(
  'kind',
  [
    v.strictObject({ kind: v.literal('site') }),
    v.strictObject({ kind: v.literal('levels') }),
    v.strictObject({ kind: v.literal('prefix'), route: Route }),
  ],
  'Choose the whole site, the levels read, or a page and what is below it.',
);

export const MirrorStart = v.strictObject({
  siteId: SiteId,
  /** Ask the site about every page (If-None-Match), even those its page list vouches for. */
  revalidateAll: v.optional(v.boolean()),
  /** Apply removals that would empty most of the cached site (see MirrorProgress.held). */
  confirmRemoval: v.optional(v.boolean()),
  /** Start over instead of going on with an unfinished run (a run whose scope or languages the settings have changed since starts over anyway). */
  fresh: v.optional(v.boolean()),
});

export const MirrorSite = v.strictObject({ siteId: SiteId });

export const MirrorStatusQuery = v.optional(v.strictObject({ siteId: v.optional(SiteId) }), {});

export const OfflineSettingsUpdate = v.strictObject({
  siteId: SiteId,
  scope: v.optional(MirrorScopeSchema),
  languages: v.optional(v.union([v.literal('all'), v.pipe(v.array(Lang), v.maxLength(50))], "Give 'all' or a list of language codes.")),
  autoSync: v.optional(v.boolean()),
});

// ── channels and events ──────────────────────────────────────────────────────────────────────

export const mirrorChannels = {
  /** "Make available offline": starts a mirror of the site, or goes on with its unfinished one. Progress: `mirror.progress`. */
  'mirror.start': channel<MirrorProgress>()(MirrorStart),
  /** Stops the site's mirror (it stays resumable); `run: null` when none was running. */
  'mirror.cancel': channel<{ run: MirrorProgress | null }>()(MirrorSite),
  /** The latest run of each site that has one (or of `siteId`). */
  'mirror.status': channel<MirrorProgress[]>()(MirrorStatusQuery),
  /** Which pages the site's latest run could not read, with the reason (the first 50 by route). */
  'mirror.failures': channel<MirrorFailures>()(MirrorSite),
  'mirror.settings': channel<OfflineSettings>()(MirrorSite),
  'mirror.setSettings': channel<OfflineSettings>()(OfflineSettingsUpdate),
};

export const mirrorEvents = {
  /** A mirror run moved on (at most a few times a second, and at every phase or state change). */
  'mirror.progress': event<MirrorProgress>(),
};
