/**
 * Pages, translations and page media of a CMS site (document 1, "Pages"). Routes are path-like
 * strings with a leading slash here (`/blog/post`); the API module encodes them for the URL.
 *
 * A page's `route` is its STRUCTURAL route: the real service's `raw_route` when it sends one (the
 * home page is `/home` there, while its public address is `/`), else `route`. It addresses the page
 * in every call, in the cache, in drafts and in the outbox; the public address rides along as
 * `publicRoute` when it differs.
 */
import * as v from 'valibot';
import { SiteId } from './sites';
import { channel } from './define';
import { AuthSite } from './auth';
import { HeaderInput, type Header } from './header';
import { pathName, segmentProblem } from './names';

/** A row of GET /pages. The real service also sends header, taxonomy, dates and has_children. */
export interface PageSummary {
  /** The structural route (`raw_route` when the site sends one, else `route`): what addresses the page. */
  route: string;
  /** The public address when it differs from `route` (the home page: `/`). */
  publicRoute?: string;
  /**
   * The structural route of the parent (`/` for a top-level page): the site's `parent_route` when
   * it sends one, else taken from `route`. Moves and tree levels go by this, never by string
   * arithmetic on a public route.
   */
  parentRoute?: string;
  slug: string;
  title: string;
  template: string;
  published: boolean;
  visible: boolean;
  routable: boolean;
  /** The folder's number prefix (`02.blog` → 2; the real service sends `"02."`), null when it has none. */
  order: number | null;
  hasChildren: boolean;
  modified: string | null;
  date: string | null;
  translatedLanguages?: string[];
  untranslatedLanguages?: string[];
  /** Set when the site could not be reached and this row is Sitedesk's copy from that time (ISO). */
  cachedAt?: string;
}

export interface PageMediaItem {
  filename: string;
  url: string | null;
  type: string;
  size: number;
  meta?: Record<string, unknown>;
}

export interface Page extends PageSummary {
  header: Header;
  content: string;
  /** Rendered HTML (render=true), sanitised before it is shown. */
  contentHtml?: string;
  media: PageMediaItem[];
  language: string | null;
  hasDefaultFile?: boolean;
  explicitLanguageFiles?: string[];
  /** The ETag of the plain read: the only one the server accepts for If-Match. */
  etag: string | null;
  /** Set when the site could not be reached and this is Sitedesk's copy from that time (ISO). */
  cachedAt?: string;
  /** The site was unreachable: this write waits in the outbox and goes out with the next push. */
  queued?: boolean;
}

/**
 * A list row the site sent that Sitedesk could not read (a field missing or of a kind neither the
 * documents nor the real service use). The rest of the list is read all the same; this row is
 * shown flagged with the reason, never cached, selected or acted on.
 */
export interface UnreadablePage {
  /** Its place among the rows as the site sent them (0-based, over the whole list or level). */
  position: number;
  /** The row's route, when it carried a readable one. */
  route: string | null;
  /** The row's title, when it carried a readable one. */
  title: string | null;
  /** What was wrong, naming the field: `order: …`. */
  problem: string;
}

export interface PageList {
  items: PageSummary[];
  total: number;
  page: number;
  perPage: number;
  /** Rows of this page of the list that could not be read (absent when there were none). */
  unreadable?: UnreadablePage[];
  /** Answered from the cache (the site did not answer): the time of the oldest copy listed. */
  cachedAt?: string;
  /** The site refused the search while the same query without it worked: listed without it. */
  searchUnavailable?: true;
}

/** One level of the tree: the children of a page in the site's own order (`pages.level`). */
export interface PageLevel {
  items: PageSummary[];
  /** Children the site sent that could not be read, at their place in the level (absent when none). */
  unreadable?: UnreadablePage[];
}

export interface SiteLanguages {
  enabled: boolean;
  languages: { code: string; name: string; nativeName: string; rtl: boolean; isDefault: boolean }[];
  default: string | null;
  active: string | null;
  /** Answered from the cache (the site did not answer): the time of the copy. */
  cachedAt?: string;
}

export interface PageLanguages {
  route: string;
  defaultLanguage: string | null;
  translated: Record<string, string>;
  untranslated: string[];
}

export interface TranslationSide {
  lang: string;
  exists: boolean;
  title: string | null;
  content: string | null;
  header: Header | null;
  modified: string | null;
}

export interface TranslationComparison {
  route: string;
  source: TranslationSide;
  target: TranslationSide;
}

export interface BatchResult {
  operation: string;
  results: { route: string; status: 'success' | 'error'; message?: string }[];
  total: number;
  successful: number;
  failed: number;
}

/** A batch over any number of routes, as the Host ran it: split to the site's limit, the results merged. */
export interface BatchRun extends BatchResult {
  /** How many requests the routes were split into (the site takes at most `limit` per request). */
  requests: number;
  limit: number;
}

export interface ReorganizedPage {
  /** Structural, like every `route` here (the real service answers the public one: `/` for home). */
  route: string;
  slug: string;
  title: string;
  order: number | null;
  parent: string;
}

/** One choice of a select field: the value written into the page, and the text shown for it. */
export interface BlueprintOption {
  value: string;
  label: string;
}

/** A form field of a page blueprint; `name` is dotted (`header.title`); tabs and sections nest `fields`. */
export interface BlueprintField {
  name: string;
  type: string;
  label?: string;
  default?: unknown;
  /** The choices in the blueprint's order (the real service sends `[{value,label}]`, the spec a `{value: label}` map). */
  options?: BlueprintOption[];
  validate?: Record<string, unknown>;
  /** A sentence under the field, from the blueprint. */
  help?: string;
  /** The site resolves this field's options (`data_options`: a `Class::method` the app asks `/data/resolve` for). */
  dataOptions?: string;
  placeholder?: string;
  fields?: BlueprintField[];
}

export interface PageBlueprint {
  name: string;
  title: string;
  fields: BlueprintField[];
}

/** One row of the site-wide translation matrix. */
export interface TranslationRow {
  route: string;
  title: string;
  /** Languages with a real `{template}.{lang}.md` file. */
  explicit: string[];
  /** True when an untyped `{template}.md` exists (it stands in for languages without a file). */
  hasDefaultFile: boolean;
  translated: string[];
  untranslated: string[];
}

export interface TranslationMatrix {
  languages: string[];
  defaultLanguage: string | null;
  /** Each language's name, by code (the site's own words for it). */
  names: Record<string, string>;
  rows: TranslationRow[];
  /** Answered from the cache (the site did not answer): the time of the oldest copy. */
  cachedAt?: string;
}

// ── inputs ──────────────────────────────────────────────────────────────────────────────────

/** `/a/b-c`: each segment a name that cannot climb (contract/names.ts); no empty segment. */
export const Route = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\/[^/]/, 'A route starts with / followed by a name, for example /blog/post.'),
  v.check((r) => !r.split('/').slice(1).some((s) => segmentProblem(s) !== null), 'A route cannot have empty, . or .. parts, backslashes or control characters.'),
  v.maxLength(1024),
);

const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'Not a language code.'));
const Bool = v.optional(v.boolean());

/**
 * Bounds of the page inputs (review L5): far above any real page, low enough that no single
 * call can make the Host hold or send an absurd amount. `list`: routes, slugs or operations in one
 * call (the Host splits a batch to the site's own limit).
 */
export const PAGE_LIMITS = { content: 8_000_000, title: 500, template: 100, list: 10_000 } as const;

const Content = v.pipe(v.string(), v.maxLength(PAGE_LIMITS.content, `A page's text is at most ${PAGE_LIMITS.content.toLocaleString('en')} characters.`));
const Title = v.pipe(v.string(), v.maxLength(PAGE_LIMITS.title, `A title is at most ${PAGE_LIMITS.title} characters.`));
const NewTitle = v.pipe(v.string(), v.trim(), v.minLength(1, 'Give the page a title.'), v.maxLength(PAGE_LIMITS.title, `A title is at most ${PAGE_LIMITS.title} characters.`));
/** A template's name; Grav's modular ones have parts (`modular/text`), each a name that cannot climb. */
export const Template = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Choose a template.'),
  v.maxLength(PAGE_LIMITS.template, `A template name is at most ${PAGE_LIMITS.template} characters.`),
  v.check((t) => t.split('/').every((part) => segmentProblem(part) === null), 'A template name cannot have empty, . or .. parts, backslashes or control characters.'),
);
/** A page's slug: one route segment. */
const Slug = v.pipe(v.string(), v.trim(), pathName('slug'));
const listOf = <T extends v.GenericSchema>(item: T, what: string) =>
  v.pipe(v.array(item), v.maxLength(PAGE_LIMITS.list, `At most ${PAGE_LIMITS.list.toLocaleString('en')} ${what} at a time.`));

export const PageListQuery = v.strictObject({
  siteId: SiteId,
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50),
  sort: v.optional(v.picklist(['date', 'title', 'slug', 'modified', 'order', 'default'])),
  order: v.optional(v.picklist(['asc', 'desc'])),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  published: Bool,
  visible: Bool,
  routable: Bool,
  template: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(PAGE_LIMITS.template))),
  parent: v.optional(Route),
  childrenOf: v.optional(v.union([Route, v.literal('/')])),
  root: Bool,
  translations: Bool,
});
export type PageListQuery = v.InferInput<typeof PageListQuery>;

export const PageRef = v.strictObject({ siteId: SiteId, route: Route, lang: v.optional(Lang) });

export const PageRead = v.strictObject({
  siteId: SiteId,
  route: Route,
  lang: v.optional(Lang),
  render: Bool,
  translations: Bool,
});

export const PageCreate = v.strictObject({
  siteId: SiteId,
  route: Route,
  title: NewTitle,
  template: v.optional(Template, 'default'),
  content: v.optional(Content),
  header: v.optional(HeaderInput),
  order: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  lang: v.optional(Lang),
});

export const PageDelete = v.strictObject({ siteId: SiteId, route: Route, lang: v.optional(Lang), children: Bool });

export const PageMove = v.strictObject({
  siteId: SiteId,
  route: Route,
  parent: v.union([Route, v.literal('/')]),
  slug: v.optional(Slug),
  order: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

/** Children of `route` in the order of their slugs. (Top-level pages are reordered with reorganize.) */
export const PageReorder = v.strictObject({ siteId: SiteId, route: Route, order: v.pipe(listOf(pathName('slug'), 'pages'), v.minLength(1)) });

export const PageCopy = v.strictObject({ siteId: SiteId, route: Route, destination: Route });

export const PageBatch = v.strictObject({
  siteId: SiteId,
  operation: v.picklist(['publish', 'unpublish', 'delete', 'copy']),
  routes: v.pipe(listOf(Route, 'pages'), v.minLength(1, 'Choose at least one page.')),
  options: v.optional(HeaderInput),
});

export const PageReorganize = v.strictObject({
  siteId: SiteId,
  operations: v.pipe(
    listOf(v.strictObject({ route: Route, parent: v.optional(v.union([Route, v.literal('/')])), position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) }), 'moves'),
    v.minLength(1),
  ),
});

export const PageTranslate = v.strictObject({
  siteId: SiteId,
  route: Route,
  lang: Lang,
  title: v.optional(Title),
  content: v.optional(Content),
  header: v.optional(HeaderInput),
});

export const PageAdopt = v.strictObject({ siteId: SiteId, route: Route, lang: Lang });
export const PageSync = v.strictObject({ siteId: SiteId, route: Route, sourceLang: Lang, targetLang: Lang });
export const PageCompare = v.strictObject({ siteId: SiteId, route: Route, source: Lang, target: Lang });

export const MediaList = v.strictObject({
  siteId: SiteId,
  route: Route,
  /** `field:op:value` clauses, at most 10 (the site's limit). */
  filter: v.optional(v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500, 'A filter clause is at most 500 characters.'))), v.maxLength(10, 'At most 10 filter clauses.'))),
  sort: v.optional(v.pipe(v.string(), v.maxLength(64, 'A sort field is at most 64 characters.'), v.regex(/^[a-z_]+$/))),
  order: v.optional(v.picklist(['asc', 'desc'])),
});

/** The site's limit per media file (spec, "Limits"). */
export const MAX_MEDIA_BYTES = 64 * 1024 * 1024;
/** Bytes per `media.uploadChunk`: small messages over the bridge, progress while they go. */
export const MEDIA_CHUNK_BYTES = 4 * 1024 * 1024;

/** A file's media type: it becomes a header line of the upload, so no line break or control character. */
export const UploadType = v.pipe(
  v.string(),
  v.maxLength(255),
  v.regex(/^[^\u0000-\u001f\u007f]*$/, 'A file type cannot hold line breaks or control characters.'),
);

export const MediaUpload = v.strictObject({
  siteId: SiteId,
  route: Route,
  /** Renderer-side id, echoed in `media.progress` events. */
  uploadId: v.pipe(v.string(), v.maxLength(64)),
  filename: v.pipe(v.string(), v.trim(), pathName('file name')),
  type: UploadType,
  /**
   * The file's bytes, base64 (the bridge carries JSON), for a file of at most one chunk. Without it,
   * the bytes are the ones staged for `uploadId` with `media.uploadChunk` (files of any size the
   * site takes, within the staging's bounds).
   */
  data: v.optional(v.pipe(v.string(), v.maxLength(Math.ceil(MEDIA_CHUNK_BYTES / 3) * 4, 'A file sent whole is at most 4 MB; larger files go in pieces.'))),
  avoidOverwriting: v.optional(v.boolean()),
});


export const MediaChunk = v.strictObject({
  uploadId: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  /** Where these bytes start in the file: chunks come in order, so it equals what was staged so far. */
  offset: v.pipe(v.number(), v.integer(), v.minValue(0)),
  data: v.pipe(v.string(), v.maxLength(Math.ceil(MEDIA_CHUNK_BYTES / 3) * 4, 'A chunk is at most 4 MB.')),
});

export const MediaDelete = v.strictObject({ siteId: SiteId, route: Route, filename: pathName('file name') });

// ── drafts and sync ─────────────────────────────────────────────────────────────────────────

export interface PageTextShape {
  title: string;
  header: Header;
  content: string;
}

export interface DraftInfo {
  id: number;
  siteId: string;
  route: string;
  lang: string;
  /** pending: waits for a push; conflicted: needs the merge view; rejected: the site refused fields. */
  state: 'pending' | 'conflicted' | 'rejected';
  title: string;
  problem: { message: string; fields?: Record<string, string> } | null;
  updatedAt: string;
}

/**
 * A stretch of the text in the merge: left alone by both sides; changed on the site only (`theirs`,
 * taken) or here only (`mine`, kept; `alsoTheirs` when the site made the same change), each with
 * the base it replaces so the merge view can show and undo it; or changed on both sides differently.
 */
export type MergeHunk =
  | { kind: 'same'; lines: string[] }
  | { kind: 'theirs'; base: string[]; lines: string[] }
  | { kind: 'mine'; base: string[]; lines: string[]; alsoTheirs?: true }
  | { kind: 'conflict'; base: string[]; mine: string[]; theirs: string[] };

/** A header field that merged cleanly but differs from the base (`value` undefined: removed; `base` undefined: added). */
export interface MergeFieldChange {
  /** The field's keys from the top (`['taxonomy', 'tag']`; a key may hold a dot: `['og.title']`). */
  path: string[];
  side: 'mine' | 'theirs';
  base: unknown;
  value: unknown;
  alsoTheirs?: true;
}

/** A header field both sides changed differently (`path`: its keys from the top; a value undefined: that side has no such field). */
export interface MergeFieldConflict {
  path: string[];
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/** The text's merge: its hunks, and the merged text when no hunk conflicts (with mine's line endings). */
export interface MergeText {
  clean: boolean;
  hunks: MergeHunk[];
  text: string | null;
  eol: '\n' | '\r\n';
}

/** The header's merge: clean fields merged (a conflicting field holds mine until resolved), the conflicts, the clean changes. */
export interface MergeHeader {
  merged: Header;
  conflicts: MergeFieldConflict[];
  changes: MergeFieldChange[];
}

export interface DraftDetail extends DraftInfo {
  base: PageTextShape;
  mine: PageTextShape & { template?: string; published?: boolean; visible?: boolean };
  theirs: PageTextShape | null;
  merge: { text: MergeText; header: MergeHeader } | null;
}

export interface OutboxEntry {
  id: number;
  op: 'save' | 'create' | 'delete' | 'move' | 'translate';
  route: string;
  state: 'queued' | 'sending' | 'waiting' | 'parked';
  attempts: number;
  nextAt: string | null;
  lastError: string | null;
  draftId: number | null;
  createdAt: string;
  /** The draft this change sends (a save, or a create with its text), as `drafts.list` describes it. */
  draft: DraftInfo | null;
}

export interface SyncSiteStatus {
  siteId: string;
  /** Changes not yet on the site. */
  pending: number;
  conflicted: number;
  syncing: boolean;
  /** null until a push has been tried. */
  online: boolean | null;
  lastPushAt: string | null;
  lastError: string | null;
}

export interface PushResult {
  pushed: number;
  conflicted: number;
  rejected: number;
  remaining: number;
  stopped?: { reason: 'offline' | 'signed_out'; message: string };
}

export const DraftSave = v.strictObject({
  siteId: SiteId,
  route: Route,
  lang: v.optional(Lang),
  title: Title,
  content: Content,
  header: HeaderInput,
  /** '' when the site's page names none (its reader keeps what the site sent) */
  template: v.optional(v.union([v.literal(''), Template], 'A template name cannot have empty, . or .. parts, backslashes or control characters.')),
  published: Bool,
  visible: Bool,
});

/**
 * What became of a Save (`drafts.submit`) or of a resolution (`drafts.resolve`), the page's own
 * changes pushed at once: on the site (`page`, its new copy); kept here for the next sync (the site
 * did not answer); waiting for the merge view; refused by the site (`problem`, with its fields); or
 * kept here until the person signs in again. Every outcome but `pushed` carries the draft that holds
 * the text.
 */
export type SaveOutcome =
  | { outcome: 'pushed'; page: Page }
  | { outcome: 'queued'; draft: DraftInfo; problem: { message: string } }
  | { outcome: 'conflicted'; draft: DraftInfo }
  | { outcome: 'rejected'; draft: DraftInfo; problem: { message: string; fields?: Record<string, string> } }
  | { outcome: 'signed_out'; draft: DraftInfo; problem: { message: string } };

/** A page opened in the editor: the site's copy (or Sitedesk's, offline) and the draft of it kept here, if any. */
export interface OpenedPage {
  page: Page;
  draft: DraftDetail | null;
}

export const DraftId = v.strictObject({ draftId: v.pipe(v.number(), v.integer(), v.minValue(1)) });

export const PageOpen = v.strictObject({ siteId: SiteId, route: Route, lang: v.optional(Lang) });

/** "Keep mine as a copy": my text as a new sibling page; the Host picks the free `-copy`, `-copy-2`, … name. */
export const PageCopyAsNew = v.strictObject({
  siteId: SiteId,
  route: Route,
  lang: v.optional(Lang),
  title: NewTitle,
  content: Content,
  header: HeaderInput,
  template: v.optional(Template, 'default'),
});

export const DraftResolve = v.strictObject({
  draftId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  title: Title,
  content: Content,
  header: HeaderInput,
});

// ── channels ─────────────────────────────────────────────────────────────────────────────────

/** The tree's level: direct children of a route, '/' for the top level. */
const Level = v.strictObject({ siteId: SiteId, route: v.union([Route, v.literal('/')]) });

export const pagesChannels = {
  'pages.list': channel<PageList>()(PageListQuery),
  /**
   * Direct children of a route ('/' for the top level), in the site's own order: the tree's lazy
   * level, with the rows the site sent that could not be read (the tree shows them flagged).
   */
  'pages.level': channel<PageLevel>()(Level),
  'pages.get': channel<Page>()(PageRead),
  /** The editor opening a page: the page and its draft kept here (if any), in one call. */
  'pages.open': channel<OpenedPage>()(PageOpen),
  /** Keep mine as a copy: creates my text beside the page under the first free `-copy-N` slug. */
  'pages.copyAsNew': channel<Page>()(PageCopyAsNew),
  'pages.create': channel<Page>()(PageCreate),
  'pages.delete': channel<{ route: string; queued?: boolean }>()(PageDelete),
  'pages.move': channel<{ route: string; queued?: boolean }>()(PageMove),
  /** Answers the parent's level as the site now orders it. */
  'pages.reorder': channel<PageLevel>()(PageReorder),
  'pages.copy': channel<{ route: string; slug?: string; title?: string }>()(PageCopy),
  /** Any number of routes: the Host splits them to the site's limit and merges the results. */
  'pages.batch': channel<BatchRun>()(PageBatch),
  /** Any number of operations: the Host splits them to the site's limit, in order. */
  'pages.reorganize': channel<ReorganizedPage[]>()(PageReorganize),
  'pages.taxonomy': channel<Record<string, string[]>>()(AuthSite),
};

export const pagesEvents = {};
