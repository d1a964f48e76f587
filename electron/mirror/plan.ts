/**
 * What a mirror run reads and what it may skip: pure functions over settings, list rows and what
 * the mirror saw before, so the rules are tested without a server.
 *
 * The real service never answers a page read with 304, so the mirror asks nothing about a page
 * whose list row vouches for the copy: the row carries the same things as when the copy was read
 * (a hash of the whole row: title, header, template, flags, order, dates, translation metadata…)
 * and that read was after the second of the page's `modified`. Translations are listed in their
 * own language (`lang=`: the site answers each page's row from that language's file, with its own
 * `modified`), so a German file that changed is seen even when the default row did not change.
 */
import { createHash } from 'node:crypto';
import type { MirrorScope, OfflineSettings } from '../contract';
import type { MirrorRow } from '../api/cms/pages';
import type { CleanupScope, SeenRow } from '../db/repos/mirror';

/** One list query of a run (GET /pages with these filters, paged); `lang`: the rows of that language. */
export interface ListQuery {
  parent?: string;
  childrenOf?: string;
  lang?: string;
}

export interface MirrorPlan {
  scope: MirrorScope;
  /** Languages besides the default to copy: 'all' that a page has, or these codes. */
  languages: 'all' | string[];
  /** The site's default language code (its reads are cached under ''); null on a one-language site. */
  defaultLanguage: string | null;
  /** Ask about every page, even those the list vouches for. */
  revalidateAll: boolean;
  /** Apply removals even when they would empty most of the cached site. */
  confirmRemoval: boolean;
  queries: ListQuery[];
  /** Pages read without a list row (the page a prefix scope starts at). */
  extra: string[];
  /**
   * Languages listed in their own language after the default one (their reads are decided by their
   * own rows). Absent in runs planned before there was such a listing: translations are all read.
   */
  listedLanguages?: string[];
}

/**
 * Where the listing goes on: the next query and page to read, the totals the site gave, and how
 * many of each query's rows were outside the scope (see inScope).
 */
export interface ListCursor {
  query: number;
  page: number;
  totals: number[];
  skipped?: number[];
}

/**
 * Whether a listed row belongs to its query's scope. The real service's `parent` filter is a bare
 * string prefix (a mirror of /blog is also sent /blog itself and /blog-archive/…); the scope is the
 * pages below the prefix (the prefix's own page is read as an extra). The documents' filter lists
 * exactly those.
 */
export function inScope(route: string, query: ListQuery): boolean {
  if (query.parent === undefined) return true;
  const base = query.parent.replace(/\/+$/, '');
  return base === '' || route.startsWith(`${base}/`);
}

export const DEFAULT_SETTINGS: OfflineSettings = { scope: { kind: 'site' }, languages: 'all', autoSync: true };

/** Settings as stored, completed with the defaults (an old or damaged value never breaks a site). */
export function settingsOf(stored: Partial<OfflineSettings> | undefined): OfflineSettings {
  const s = { ...DEFAULT_SETTINGS, ...(stored ?? {}) };
  const scopeOk = s.scope && (s.scope.kind === 'site' || s.scope.kind === 'levels' || (s.scope.kind === 'prefix' && typeof s.scope.route === 'string'));
  return {
    scope: scopeOk ? s.scope : DEFAULT_SETTINGS.scope,
    languages: s.languages === 'all' || Array.isArray(s.languages) ? s.languages : 'all',
    autoSync: typeof s.autoSync === 'boolean' ? s.autoSync : true,
  };
}

/**
 * A run's plan. `siteLanguages`: the codes the site has (none on a one-language site); each wanted
 * one besides the default is listed after the default listing, query by query.
 */
export function planFor(
  settings: OfflineSettings,
  defaultLanguage: string | null,
  cachedLevels: string[],
  opts: { revalidateAll?: boolean; confirmRemoval?: boolean } = {},
  siteLanguages: string[] = [],
): MirrorPlan {
  const listedLanguages = siteLanguages.filter((c) => c !== defaultLanguage && (settings.languages === 'all' || settings.languages.includes(c)));
  const base = {
    scope: settings.scope,
    languages: settings.languages,
    defaultLanguage,
    revalidateAll: opts.revalidateAll ?? false,
    confirmRemoval: opts.confirmRemoval ?? false,
    listedLanguages,
  };
  const withLanguages = (queries: ListQuery[]) => [...queries, ...listedLanguages.flatMap((lang) => queries.map((q) => ({ ...q, lang })))];
  switch (settings.scope.kind) {
    case 'site':
      return { ...base, queries: withLanguages([{}]), extra: [] };
    case 'prefix':
      return { ...base, queries: withLanguages([{ parent: settings.scope.route }]), extra: [settings.scope.route] };
    case 'levels':
      return { ...base, queries: withLanguages(cachedLevels.map((p) => ({ childrenOf: p }))), extra: [] };
  }
}

/** The cache keys a list row is read in: '' (the default language) and the wanted translations. */
export function langKeys(row: Pick<MirrorRow, 'translated'>, plan: Pick<MirrorPlan, 'languages' | 'defaultLanguage'>): string[] {
  const keys = [''];
  for (const code of row.translated) {
    if (code === plan.defaultLanguage || keys.includes(code)) continue;
    if (plan.languages === 'all' || plan.languages.includes(code)) keys.push(code);
  }
  return keys;
}

/** JSON with the keys of every object sorted, so equal rows hash alike whatever order the site sent. */
function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(x) ?? 'null';
}

/** A hash of everything a list row carries, as the site sent it. */
export function rowHash(raw: unknown): string {
  return createHash('sha1').update(canonical(raw)).digest('base64url');
}

/** Whole seconds: the resolution of `modified` (file times) and of HTTP's Date header. */
const second = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/**
 * True when the list row vouches that the cached full copy is current, so no request is needed:
 * the cache holds the whole page, the row carries exactly what the row seen before the last read
 * carried (its hash), and that read was made (by the server's clock, its Date header) after the
 * second of the page's last change had passed: a second change in that same second would not show
 * in `modified`. Media and the other languages' files count in `modified` on Grav's Flex pages
 * (the newest file of the page's folder). Anything short of this is read again.
 */
export function unchangedByRow(row: { hash: string; modified: string | null }, seen: SeenRow | undefined, cachedFull: boolean): boolean {
  if (!cachedFull || !seen || seen.readAt === null || seen.hash !== row.hash) return false;
  if (row.modified === null || Number.isNaN(Date.parse(row.modified)) || Number.isNaN(Date.parse(seen.readAt))) return false;
  return second(seen.readAt) >= second(row.modified) + 1000;
}

/** Where the cleanup looks for pages the site no longer has. */
export function cleanupScope(plan: MirrorPlan): CleanupScope {
  switch (plan.scope.kind) {
    case 'site':
      return { kind: 'site' };
    case 'prefix':
      return { kind: 'prefix', route: plan.scope.route };
    case 'levels':
      return { kind: 'levels', parents: plan.queries.map((q) => q.childrenOf!).filter((p) => p !== undefined) };
  }
}

/**
 * docs/architecture.md: "a pull that would remove most of a site's cache asks first". More than half of the
 * cached rows in the scope (and more than a handful) are held until the user confirms.
 */
export function holdRemoval(stale: number, cachedInScope: number, confirmed: boolean): boolean {
  return !confirmed && stale > 10 && stale * 2 > cachedInScope;
}

/**
 * The listing can be trusted for removals only when the default-language queries' rows in scope
 * add up to the totals the site gave, less the rows outside the scope (a page created or deleted
 * while the list was paged shifts rows between pages). A translation the default rows name but its own listing missed is read all the same
 * (see MirrorRepo.addMissingTranslations), so the language listings need no such check.
 */
export function listingConsistent(uniqueListed: number, cursor: ListCursor, queries: ListQuery[] = []): boolean {
  return uniqueListed === cursor.totals.reduce((a, b, i) => (queries[i]?.lang ? a : a + (b ?? 0) - (cursor.skipped?.[i] ?? 0)), 0);
}
