/**
 * The lister of a mirror run: the site's page list, query by query and page by page, into the
 * cache and the run's items, and the reads it finds to make handed on as it goes (the readers start
 * before the list ends). The cursor moves with each list page's last rows, so a restart lists again
 * from the page it had not finished and never skips one. Rows written a few at a time, each batch in
 * a turn of the event loop of its own. MirrorRun (run.ts) owns the run's state and phases; this
 * module reaches it only through `ListerRun`.
 */
import type { UnreadablePage } from '../contract';
import { isUnreachable } from '../base/app-error';
import { cmsPages, type MirrorRow } from '../api/cms/pages';
import { PaceCancelled } from '../api/pacer';
import type { Transport } from '../api/transport';
import type { PagesRepo } from '../db/repos/pages';
import type { ItemCounts, ItemState, MirrorRepo, RunRow } from '../db/repos/mirror';
import { inScope, langKeys, rowHash, unchangedByRow, type ListCursor, type ListQuery, type MirrorPlan } from './plan';

/** A read to make. */
export type ReadItem = { route: string; lang: string };

/** What the lister reads and moves of the run it lists for. */
export interface ListerRun {
  readonly run: RunRow;
  readonly siteId: string;
  readonly plan: MirrorPlan;
  /** The run's live counts, moved in place. */
  counts(): ItemCounts;
  /** Background work, through the site's pacer. */
  readonly transport: Transport;
  readonly repo: MirrorRepo;
  readonly pages: PagesRepo;
  /** Rows per list request. */
  readonly perPage: number;
  stopped(): boolean;
  /** A list page came back (the site answers; the time estimate's throughput). */
  answered(): void;
  save(): void;
  emit(force?: boolean): void;
  /** Reads found to make. */
  enqueue(items: ReadItem[]): void;
  /** The run cannot go on (the first reason given stays). */
  /** `cause`: the error, so a full disk or a damaged file halts the run (to go on later) instead of failing it. */
  fail(reason: string, cause?: unknown): void;
}

/** List rows written per transaction (a list page is 100). */
const ROWS_PER_WRITE = 25;
/** The route a list row without a readable address is kept under (with its place in the list). */
const UNREADABLE_ROW = 'list row ';

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A run item's route as the renderer is told it: a list row without an address is no page to open. */
export function itemAddress(route: string): { route: string | null; row?: number } {
  if (!route.startsWith(UNREADABLE_ROW)) return { route };
  const row = Number(route.slice(UNREADABLE_ROW.length));
  return Number.isInteger(row) ? { route: null, row } : { route: null };
}

/** An item that names a list row without an address (see failUnreadable), not a page to read. */
export const isUnreadableRow = (item: ReadItem) => item.route.startsWith(UNREADABLE_ROW);

/**
 * Lists the site from the run's cursor to the end (or a stop), then adds the extra routes and the
 * translations the listing named but did not show, and moves the run to its reading phase. A
 * failure other than a stop fails the run through `r.fail`.
 */
export async function list(r: ListerRun): Promise<void> {
  const { repo, plan, run } = r;
  const cursor = (run.cursor as ListCursor | null) ?? { query: 0, page: 1, totals: [], skipped: [] };
  try {
    while (cursor.query < plan.queries.length && !r.stopped()) {
      const qi = cursor.query;
      const query = plan.queries[qi]!;
      // the pages of the list one after the other, each answer naming the page after it (null
      // after the last: by the site's links, its total, or a page that is not full); the cursor is
      // the page to take next, so a restart never skips one
      for (let page: number | null = cursor.page; page !== null && !r.stopped(); ) {
        page = await takePage(r, query, qi, page, cursor);
      }
      if (r.stopped()) break;
      Object.assign(cursor, { query: qi + 1, page: 1 });
      repo.transaction(() => {
        run.cursor = { ...cursor };
        r.save();
      });
    }
    if (r.stopped()) return;
    const fresh = repo.transaction(() => {
      const items: { route: string; lang: string; state: ItemState }[] = plan.extra.map((route) => ({ route, lang: '', state: 'todo' as ItemState }));
      // translations the default rows name that their own listing did not show: read them anyway
      for (const m of repo.missingTranslations(run.id, r.siteId, plan.listedLanguages ?? [])) items.push({ ...m, state: 'todo' });
      const added = repo.addItems(run.id, items);
      r.counts().total += added.todo;
      r.counts().todo += added.todo;
      run.phase = 'reading';
      r.save();
      return added.fresh;
    });
    r.enqueue(fresh);
    r.emit(true);
  } catch (err) {
    if (!(err instanceof PaceCancelled)) {
      r.fail(isUnreachable(err) ? `The site stopped answering while its page list was read: ${err.message}` : message(err), err);
    }
  }
}

/**
 * One page of a query's list into the cache and the run; answers the page to take next, or null
 * when this was the last (or the run stopped). A next page that is not further on ends the list
 * (a site that repeats a page would otherwise never end).
 */
async function takePage(r: ListerRun, query: ListQuery, qi: number, page: number, cursor: ListCursor): Promise<number | null> {
  const answer = await listPage(r, query, page);
  // the real service's parent filter is a bare prefix: rows outside the scope are counted, not kept
  const rows = answer.rows.filter((row) => inScope(row.route, query));
  const unreadable = answer.unreadable.filter((u) => u.route === null || inScope(u.route, query));
  const outside = answer.rows.length + answer.unreadable.length - rows.length - unreadable.length;
  const following = answer.next !== null && answer.next > page ? answer.next : null;
  r.answered();
  // written a few rows at a time, each in a turn of the event loop of its own (answers resolve
  // as chains of microtasks): timers and other calls to the Host go on meanwhile
  for (let i = 0; i < rows.length || i === 0; i += ROWS_PER_WRITE) {
    await yieldToLoop();
    if (r.stopped()) return null;
    let next: ListCursor | null = null;
    const last = i + ROWS_PER_WRITE >= rows.length;
    if (last) {
      // the cursor moves on with the page's last rows: a page cut short is listed again
      cursor.totals[qi] = answer.total;
      (cursor.skipped ??= [])[qi] = (cursor.skipped[qi] ?? 0) + outside;
      next = following === null ? { query: qi + 1, page: 1, totals: cursor.totals, skipped: cursor.skipped } : { query: qi, page: following, totals: cursor.totals, skipped: cursor.skipped };
    }
    const fresh = r.repo.transaction(() => takeRows(r, rows.slice(i, i + ROWS_PER_WRITE), last ? unreadable : [], query, next));
    if (next) cursor.page = next.page;
    r.enqueue(fresh);
  }
  r.emit();
  return following;
}

/** One list page of a query, in its language. */
function listPage(r: ListerRun, query: ListQuery, page: number) {
  return cmsPages.mirrorRows(r.transport, {
    page,
    perPage: r.perPage,
    ...(query.parent !== undefined ? { parent: query.parent } : {}),
    ...(query.childrenOf !== undefined ? { childrenOf: query.childrenOf } : {}),
    ...(query.lang ? { lang: query.lang } : {}),
  });
}

/**
 * List rows into the cache and the run (one transaction; `next` moves the cursor when they are a
 * list page's last); answers the reads to make. Rows of the default language decide the default
 * reads (and, for runs planned without language listings, every translation); rows of another
 * language decide the reads of that language's own files.
 */
function takeRows(r: ListerRun, rows: MirrorRow[], unreadable: UnreadablePage[], query: ListQuery, next: ListCursor | null): ReadItem[] {
  const { repo, pages, plan, siteId, run } = r;
  const counts = r.counts();
  const now = new Date().toISOString();
  const listed = plan.listedLanguages ?? [];
  const items: { route: string; lang: string; state: ItemState }[] = [];
  const vouched: { route: string; lang: string }[] = [];
  const decide = (route: string, lang: string, hash: string, modified: string | null) => {
    const skip = !plan.revalidateAll && unchangedByRow({ hash, modified }, repo.seenOf(siteId, route, lang), pages.checkOf(siteId, route, lang)?.full ?? false);
    items.push({ route, lang, state: skip ? 'unchanged' : 'todo' });
    if (skip) vouched.push({ route, lang });
    else repo.saw(siteId, route, lang, hash);
  };
  if (!query.lang) {
    pages.putSummaries(siteId, '', rows, now); // with the translation metadata (the offline matrix)
    rows.forEach((row) => {
      decide(row.route, '', rowHash(row.sent), row.modified);
      for (const lang of langKeys(row, plan)) if (lang !== '' && !listed.includes(lang)) items.push({ route: row.route, lang, state: 'todo' });
    });
  } else {
    const lang = query.lang;
    rows.forEach((row) => {
      // a page without a file of this language is listed from its fallback: nothing of its own to copy
      if (!repo.translatedOf(siteId, row.route).includes(lang)) return;
      const sent = row.sent as { language?: unknown } | undefined;
      const own = sent?.language === undefined || sent.language === lang;
      if (own) decide(row.route, lang, rowHash(row.sent), row.modified);
      else items.push({ route: row.route, lang, state: 'todo' }); // named a translation, listed as a fallback: read it to be sure
    });
  }
  const added = repo.addItems(run.id, items);
  // the list vouched for these copies: they are current now (the time shown offline)
  for (const v of vouched) pages.putVerified(siteId, v.lang, v.route, null, now);
  counts.total += added.todo + added.unchanged;
  counts.todo += added.todo;
  counts.unchanged += added.unchanged;
  failUnreadable(r, unreadable, query.lang ?? '');
  run.listed += rows.length + unreadable.length;
  if (next) run.cursor = next;
  r.save();
  // only what this page added: a row listed again (a page cut short by a stop, listed anew on resume) is queued already
  return added.fresh;
}

/**
 * Rows of the list that could not be read: failed reads of the run, with the reason (shown under
 * the Offline copy card), never skipped in silence. A row of another language's list whose page
 * has no file of that language is its fallback (nothing of its own to copy). A row without a
 * readable address is named by its place in the list.
 */
function failUnreadable(r: ListerRun, unreadable: UnreadablePage[], lang: string): void {
  const { repo, siteId, run } = r;
  const counts = r.counts();
  for (const u of unreadable) {
    if (lang && u.route !== null && !repo.translatedOf(siteId, u.route).includes(lang)) continue;
    const route = u.route ?? `${UNREADABLE_ROW}${u.position + 1}`;
    if (repo.addItems(run.id, [{ route, lang, state: 'todo' }]).todo === 0) continue;
    repo.setItem(run.id, route, lang, 'failed', `Its row in the site's page list cannot be read (${u.problem}).`, false);
    counts.total++;
    counts.failed++;
  }
}
