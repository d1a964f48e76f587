/**
 * The IPC contract: every channel the renderer may invoke and every event the Host may emit,
 * declared once here and imported by both sides. Nothing in this folder may use Node or the DOM.
 */
import * as v from 'valibot';
import { channel, event, type ChannelDef, type EventDef } from './define';
import { storeChannels, storeEvents } from './store';
import type { AppInfo, SecretsStatus, UpdaterStatus, Workspace } from './app';
import { SiteDraft, SiteFields, SiteId, SiteUpdate, type ConnectionReport, type Site } from './sites';
import { AuthSite, Forgot, Reset, Setup, SignIn, Verify2fa, type SessionInfo, type SetupStatus } from './auth';
import {
  DraftResolve,
  DraftSave,
  MediaChunk,
  MediaDelete,
  MediaList,
  MediaUpload,
  PageAdopt,
  PageBatch,
  PageCompare,
  PageCopy,
  PageCreate,
  PageDelete,
  PageListQuery,
  PageMove,
  PageRead,
  PageReorder,
  PageReorganize,
  PageSync,
  PageTranslate,
  PageUpdate,
  Route,
  type BatchResult,
  type Page,
  type PageLanguages,
  type PageLevel,
  type PageList,
  type PageSummary,
  type ReorganizedPage,
  type SiteLanguages,
  type TranslationComparison,
  type PageBlueprint,
  type PageMediaItem,
  type TranslationMatrix,
  type DraftDetail,
  type DraftInfo,
  type OutboxEntry,
  type PushResult,
  type SyncSiteStatus,
} from './pages';
import {
  MirrorSite,
  MirrorStart,
  MirrorStatusQuery,
  OfflineSettingsUpdate,
  SearchQuery,
  type MirrorProgress,
  type MirrorFailures,
  type OfflineSettings,
  type SearchHit,
} from './mirror';

export * from './errors';
export * from './app';
export * from './sites';
export * from './auth';
export * from './permissions';
export * from './header-patch';
export * from './pages';
export * from './mirror';
export * from './store';
export type { ChannelDef, EventDef } from './define';

const None = v.optional(v.strictObject({}));

const ProbeTarget = v.strictObject({
  kind: SiteFields.kind,
  baseUrl: SiteFields.baseUrl,
  environment: SiteFields.environment,
});

export const WorkspaceSchema = v.strictObject({
  tabs: v.pipe(v.array(SiteId), v.maxLength(64)),
  active: v.nullable(SiteId),
  split: v.nullable(SiteId),
  ratio: v.pipe(v.number(), v.minValue(0.2), v.maxValue(0.8)),
});

export const channels = {
  'app.info': channel<AppInfo>()(None),

  'sites.list': channel<Site[]>()(None),
  'sites.add': channel<Site>()(SiteDraft),
  'sites.update': channel<Site>()(SiteUpdate),
  'sites.remove': channel<{ id: string }>()(v.strictObject({ id: SiteId })),
  /** The full list of site ids in their new order. */
  'sites.reorder': channel<Site[]>()(v.strictObject({ ids: v.pipe(v.array(SiteId), v.minLength(1)) })),
  /** Probe a saved site (`id`) or the values in an unsaved form (`target`). */
  'sites.test': channel<ConnectionReport>()(
    v.union([v.strictObject({ id: SiteId }), v.strictObject({ target: ProbeTarget })], 'Give a site id or a target to test.'),
  ),

  /** The session of every CMS site (state, account, /me), for the rail and the panes. */
  'auth.sessions': channel<SessionInfo[]>()(None),
  /** Whether the site still needs its first account, and the rules it gives for its password (GET /auth/setup). */
  'auth.setupStatus': channel<SetupStatus>()(AuthSite),
  'auth.setup': channel<SessionInfo>()(Setup),
  /** Password sign-in; answers state needs_2fa when the account has two-factor. */
  'auth.signIn': channel<SessionInfo>()(SignIn),
  'auth.verify2fa': channel<SessionInfo>()(Verify2fa),
  /** Leaves the code step without signing in (the waiting challenge is dropped in the Host). */
  'auth.cancel2fa': channel<SessionInfo>()(AuthSite),
  /**
   * Revokes the refresh token and forgets the tokens; API-key sites just stop using the key.
   * `revoked: false` = signed out here, but the site could not be told (offline).
   */
  'auth.signOut': channel<SessionInfo & { revoked: boolean }>()(AuthSite),
  /** Reads /me again (the info panel's refresh). */
  'auth.refreshMe': channel<SessionInfo>()(AuthSite),
  'auth.forgotPassword': channel<{ message: string }>()(Forgot),
  'auth.resetPassword': channel<{ message: string }>()(Reset),

  'pages.list': channel<PageList>()(PageListQuery),
  /** Direct children of a route ('/' for the top level), in the site's own order: the tree's lazy level. */
  'pages.children': channel<PageSummary[]>()(v.strictObject({ siteId: SiteId, route: v.union([Route, v.literal('/')]) })),
  /** The same level with the rows the site sent that could not be read (the tree shows them flagged). */
  'pages.level': channel<PageLevel>()(v.strictObject({ siteId: SiteId, route: v.union([Route, v.literal('/')]) })),
  'pages.get': channel<Page>()(PageRead),
  'pages.create': channel<Page>()(PageCreate),
  /** PATCH with If-Match: a page changed on the site since it was read answers `conflict`. */
  'pages.save': channel<Page>()(PageUpdate),
  'pages.delete': channel<{ route: string; queued?: boolean }>()(PageDelete),
  'pages.move': channel<{ route: string; queued?: boolean }>()(PageMove),
  'pages.reorder': channel<PageSummary[]>()(PageReorder),
  'pages.copy': channel<{ route: string; slug?: string; title?: string }>()(PageCopy),
  'pages.batch': channel<BatchResult>()(PageBatch),
  'pages.reorganize': channel<ReorganizedPage[]>()(PageReorganize),
  'pages.taxonomy': channel<Record<string, string[]>>()(AuthSite),

  'translations.siteLanguages': channel<SiteLanguages>()(AuthSite),
  'translations.languages': channel<PageLanguages>()(v.strictObject({ siteId: SiteId, route: Route })),
  'translations.translate': channel<{ route: string; lang: string; title?: string; content?: string; queued?: boolean }>()(PageTranslate),
  'translations.adopt': channel<{ route: string; lang: string }>()(PageAdopt),
  'translations.sync': channel<{ route: string; lang: string; title?: string; content?: string }>()(PageSync),
  'translations.compare': channel<TranslationComparison>()(PageCompare),

  /** Pages × languages of the whole site (reads every page's translation metadata). */
  'translations.matrix': channel<TranslationMatrix>()(AuthSite),

  'media.list': channel<PageMediaItem[]>()(MediaList),
  /** Stages the next piece of a file for `media.upload` (answers the bytes staged so far). */
  'media.uploadChunk': channel<{ received: number }>()(MediaChunk),
  /** Progress arrives as `media.progress` events with the same uploadId; answers the page's media after the upload. */
  'media.upload': channel<PageMediaItem[]>()(MediaUpload),
  'media.delete': channel<{ filename: string }>()(MediaDelete),

  'blueprints.templates': channel<{ type: string; label: string }[]>()(AuthSite),
  'blueprints.page': channel<PageBlueprint>()(v.strictObject({ siteId: SiteId, template: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) })),

  /** Saves an edit locally at once (a draft with its base); nothing is sent until a push. */
  'drafts.save': channel<DraftInfo>()(DraftSave),
  'drafts.list': channel<DraftInfo[]>()(v.strictObject({ siteId: v.optional(SiteId) })),
  'drafts.get': channel<DraftDetail>()(v.strictObject({ draftId: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
  /** The merge view's result; the draft is queued again on top of the site's copy. */
  'drafts.resolve': channel<DraftInfo>()(DraftResolve),
  'sync.status': channel<SyncSiteStatus[]>()(None),
  'sync.outbox': channel<OutboxEntry[]>()(AuthSite),
  'sync.discard': channel<{ id: number }>()(v.strictObject({ itemId: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
  /** Replays the site's outbox; with `route`, only that page's changes (and the creates above it). */
  'sync.push': channel<PushResult>()(v.strictObject({ siteId: SiteId, route: v.optional(Route) })),

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
  /** Full-text search over the cached pages of every site (or one), best first. */
  'search.query': channel<SearchHit[]>()(SearchQuery),

  'workspace.get': channel<Workspace>()(None),
  'workspace.set': channel<Workspace>()(WorkspaceSchema),

  /** Store sites (document 3): contract/store.ts. */
  ...storeChannels,
} satisfies Record<string, ChannelDef<v.GenericSchema, unknown>>;

export const events = {
  /** The whole list, after any add, edit, removal or reorder (from any window). */
  'sites.changed': event<Site[]>(),
  /** A site's session changed: signed in or out, expired, /me re-read. */
  'auth.session': event<SessionInfo>(),
  /** Unsynced counts, pushes running, online or not, per CMS site. */
  'sync.status': event<SyncSiteStatus[]>(),
  /** A mirror run moved on (at most a few times a second, and at every phase or state change). */
  'mirror.progress': event<MirrorProgress>(),
  /** Bytes of an upload sent to the site so far. */
  'media.progress': event<{ uploadId: string; sent: number; total: number }>(),
  /** The keychain became unavailable (or available again). */
  'secrets.status': event<SecretsStatus>(),
  /** From the shell's updater (packaged builds only). */
  'updater.status': event<UpdaterStatus>(),
  /** The Host went away and came back (Electron restarts a crashed Host; the client reconnects). */
  'host.status': event<{ state: 'restarting' | 'ready' }>(),
  ...storeEvents,
} satisfies Record<string, EventDef<unknown>>;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelInput<K extends ChannelName> = v.InferInput<Channels[K]['input']>;
/** What the handler receives: the schema's output (trimmed strings, defaults applied). */
export type ChannelParsed<K extends ChannelName> = v.InferOutput<Channels[K]['input']>;
export type ChannelOutput<K extends ChannelName> = NonNullable<Channels[K]['__output']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = NonNullable<Events[K]['__payload']>;

export const isChannelName = (name: string): name is ChannelName => Object.hasOwn(channels, name);
export const isEventName = (name: string): name is EventName => Object.hasOwn(events, name);
