/**
 * What a mirror run reads and what it may skip: pure functions over settings, list rows and what
 * the cache holds, so the rules are tested without a server.
 */
import type { MirrorScope, OfflineSettings } from '../contract';
import type { MirrorRow } from '../api/cms/pages';
import { listSignature, type CacheCheck } from '../db/repos/pages';
import type { CleanupScope } from '../db/repos/mirror';

/** One list query of a run (GET /pages with these filters, paged). */
export interface ListQuery {
  parent?: string;
  childrenOf?: string;
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
}

/** Where the listing goes on: the next query and page to read, and the totals the site gave. */
export interface ListCursor {
  query: number;
  page: number;
  totals: number[];
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

export function planFor(
  settings: OfflineSettings,
  defaultLanguage: string | null,
  cachedLevels: string[],
  opts: { revalidateAll?: boolean; confirmRemoval?: boolean } = {},
): MirrorPlan {
  const base = {
    scope: settings.scope,
    languages: settings.languages,
    defaultLanguage,
    revalidateAll: opts.revalidateAll ?? false,
    confirmRemoval: opts.confirmRemoval ?? false,
  };
  switch (settings.scope.kind) {
    case 'site':
      return { ...base, queries: [{}], extra: [] };
    case 'prefix':
      return { ...base, queries: [{ parent: settings.scope.route }], extra: [settings.scope.route] };
    case 'levels':
      return { ...base, queries: cachedLevels.map((p) => ({ childrenOf: p })), extra: [] };
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

/** Whole seconds: the resolution of `modified` (file times) and of HTTP's Date header. */
const second = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/**
 * True when the list row vouches that the cached full copy is current, so no request is needed:
 * everything the row shows equals the copy, the copy has no media (media can change without the
 * page's `modified`), and the copy was known current (by the server's clock) after the second of
 * the page's last change had passed: a second change in that same second would not show in
 * `modified`. Anything short of that is asked with If-None-Match (a 304 when unchanged).
 */
export function unchangedByList(row: MirrorRow, cached: CacheCheck | undefined): boolean {
  if (!cached || !cached.full || !cached.etag || cached.hasMedia || cached.sig === null || cached.verifiedAt === null) return false;
  if (row.modified === null || Number.isNaN(Date.parse(row.modified)) || Number.isNaN(Date.parse(cached.verifiedAt))) return false;
  if (listSignature(row) !== cached.sig) return false;
  return second(cached.verifiedAt) >= second(row.modified) + 1000;
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
 * DESIGN.md: "a pull that would remove most of a site's cache asks first". More than half of the
 * cached rows in the scope (and more than a handful) are held until the user confirms.
 */
export function holdRemoval(stale: number, cachedInScope: number, confirmed: boolean): boolean {
  return !confirmed && stale > 10 && stale * 2 > cachedInScope;
}

/**
 * The listing can be trusted for removals only when every query's rows add up to the total the
 * site gave (a page created or deleted while the list was paged shifts rows between pages).
 */
export function listingConsistent(uniqueListed: number, cursor: ListCursor): boolean {
  return uniqueListed === cursor.totals.reduce((a, b) => a + b, 0);
}
