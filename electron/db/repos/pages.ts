/**
 * The page cache: list rows, full reads and translation metadata per site, route and language,
 * keyed by the page's structural route. Each tree level keeps the order the site gave it
 * (`position`), so the tree reads the same offline.
 */
import type { ChannelParsed, Page, PageList, PageSummary, TranslationRow } from '../../contract';
import type { Db } from '../open';
import { parentOf, slugOf } from '../../common/route';

interface Row {
  site_id: string;
  route: string;
  lang: string;
  title: string;
  slug: string;
  template: string;
  published: 0 | 1;
  visible: 0 | 1;
  routable: 0 | 1;
  sort_order: number | null;
  has_children: 0 | 1;
  parent: string;
  modified: string | null;
  date: string | null;
  translated: string | null;
  untranslated: string | null;
  header: string | null;
  content: string | null;
  media: string | null;
  language: string | null;
  etag: string | null;
  fetched_at: string;
  full_at: string | null;
  explicit: string | null;
  has_default_file: 0 | 1 | null;
  full_sig: string | null;
  verified_at: string | null;
  position: number | null;
  public_route: string | null;
}

/**
 * The fields of a page that its list row shows too. When a list row's signature equals the one of
 * the cached full copy, the list vouches that nothing it can see changed (see mirror/quick-check).
 */
export function listSignature(s: PageSummary): string {
  return JSON.stringify([s.modified, s.title, s.slug, s.template, s.published, s.visible, s.routable, s.order, s.hasChildren, s.date]);
}

/** The header's values (strings and numbers, nested too) as words for the search index. */
export function headerText(header: unknown): string | null {
  const words: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') words.push(v);
    else if (typeof v === 'number') words.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(header);
  return words.length ? words.join(' ') : null;
}

export interface CacheCheck {
  /** header and content are known (not only the list row) */
  full: boolean;
  etag: string | null;
  sig: string | null;
  verifiedAt: string | null;
  hasMedia: boolean;
}

export type CacheListQuery = Omit<ChannelParsed<'pages.list'>, 'siteId'>;

/** WHERE over the default-language rows for a list query; only fixed SQL, values as parameters. */
function listWhere(siteId: string, q: CacheListQuery): { where: string; params: Record<string, unknown> } {
  const clauses = ["site_id = @site", "lang = ''"];
  const params: Record<string, unknown> = { site: siteId };
  const flag = (name: 'published' | 'visible' | 'routable') => {
    if (q[name] === undefined) return;
    clauses.push(`${name} = @${name}`);
    params[name] = q[name] ? 1 : 0;
  };
  flag('published');
  flag('visible');
  flag('routable');
  if (q.template) {
    clauses.push('template = @template');
    params.template = q.template;
  }
  // prefix tests with substr, not LIKE: routes may hold % and _
  if (q.parent) {
    clauses.push("substr(route, 1, length(@parent) + 1) = @parent || '/'");
    params.parent = q.parent;
  }
  if (q.childrenOf) {
    clauses.push('parent = @childrenOf');
    params.childrenOf = q.childrenOf;
  }
  if (q.root === true) clauses.push("parent = '/'");
  if (q.root === false) clauses.push('0');
  if (q.search) {
    clauses.push('(instr(lower(title), lower(@search)) OR instr(lower(slug), lower(@search)) OR instr(lower(route), lower(@search)) OR instr(lower(coalesce(content, \'\')), lower(@search)))');
    params.search = q.search;
  }
  return { where: clauses.join(' AND '), params };
}

/** ORDER BY for a list query, as the site sorts: no sort = newest first; `default` = the site's order. */
function listOrder(q: CacheListQuery): string {
  const dir = q.sort ? (q.order === 'desc' ? 'DESC' : 'ASC') : 'DESC';
  const native = 'sort_order IS NULL, sort_order, lower(slug), route';
  switch (q.sort ?? 'date') {
    case 'date':
      return `coalesce(date, modified) ${dir}, route`;
    case 'modified':
      return `modified ${dir}, route`;
    case 'title':
      return `lower(title) ${dir}, route`;
    case 'slug':
      return `slug ${dir}, route`;
    case 'order':
      return `sort_order IS NULL, sort_order ${dir}, route`;
    case 'default':
      return native;
  }
}

export interface CachedPage {
  page: Page;
  fetchedAt: string;
}

const json = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function summaryOf(r: Row): PageSummary {
  return {
    route: r.route,
    ...(r.public_route !== null && r.public_route !== r.route ? { publicRoute: r.public_route } : {}),
    parentRoute: r.parent,
    slug: r.slug,
    title: r.title,
    template: r.template,
    published: r.published === 1,
    visible: r.visible === 1,
    routable: r.routable === 1,
    order: r.sort_order,
    hasChildren: r.has_children === 1,
    modified: r.modified,
    date: r.date,
    ...(r.translated ? { translatedLanguages: json<string[]>(r.translated, []) } : {}),
    ...(r.untranslated ? { untranslatedLanguages: json<string[]>(r.untranslated, []) } : {}),
  };
}

/** The page cache. One writer (the Host); bulk writes in one transaction. */
export function pagesRepo(db: Db) {
  const q = {
    // a row that changed parent loses its place: it has none among its new siblings until that level is read
    upsertSummary: db.prepare(
      `INSERT INTO pages (site_id, route, lang, title, slug, template, published, visible, routable, sort_order, has_children, parent, public_route, modified, date, translated, untranslated, explicit, has_default_file, fetched_at)
       VALUES (@site_id, @route, @lang, @title, @slug, @template, @published, @visible, @routable, @sort_order, @has_children, @parent, @public_route, @modified, @date, @translated, @untranslated, @explicit, @has_default_file, @now)
       ON CONFLICT (site_id, route, lang) DO UPDATE SET title = excluded.title, slug = excluded.slug, template = excluded.template,
         position = CASE WHEN pages.parent = excluded.parent THEN pages.position END, public_route = excluded.public_route,
         published = excluded.published, visible = excluded.visible, routable = excluded.routable, sort_order = excluded.sort_order,
         has_children = excluded.has_children, parent = excluded.parent, modified = excluded.modified, date = excluded.date,
         translated = coalesce(excluded.translated, pages.translated), untranslated = coalesce(excluded.untranslated, pages.untranslated),
         explicit = coalesce(excluded.explicit, pages.explicit), has_default_file = coalesce(excluded.has_default_file, pages.has_default_file),
         fetched_at = excluded.fetched_at`,
    ),
    // a full read in one statement (one B-tree write, one pass of the search index's trigger)
    upsertFull: db.prepare(
      `INSERT INTO pages (site_id, route, lang, title, slug, template, published, visible, routable, sort_order, has_children, parent, public_route, modified, date, translated, untranslated, explicit, has_default_file, fetched_at,
         header, header_text, content, media, language, etag, full_at, full_sig, verified_at)
       VALUES (@site_id, @route, @lang, @title, @slug, @template, @published, @visible, @routable, @sort_order, @has_children, @parent, @public_route, @modified, @date, @translated, @untranslated, @explicit, @has_default_file, @now,
         @header, @header_text, @content, @media, @language, @etag, @now, @full_sig, @verified_at)
       ON CONFLICT (site_id, route, lang) DO UPDATE SET title = excluded.title, slug = excluded.slug, template = excluded.template,
         position = CASE WHEN pages.parent = excluded.parent THEN pages.position END, public_route = excluded.public_route,
         published = excluded.published, visible = excluded.visible, routable = excluded.routable, sort_order = excluded.sort_order,
         has_children = excluded.has_children, parent = excluded.parent, modified = excluded.modified, date = excluded.date,
         translated = coalesce(excluded.translated, pages.translated), untranslated = coalesce(excluded.untranslated, pages.untranslated),
         fetched_at = excluded.fetched_at, header = excluded.header, header_text = excluded.header_text, content = excluded.content,
         media = excluded.media, language = excluded.language, etag = excluded.etag, full_at = excluded.full_at,
         full_sig = excluded.full_sig, verified_at = excluded.verified_at`,
    ),
    check: db.prepare<[string, string, string], { full: 0 | 1; etag: string | null; full_sig: string | null; verified_at: string | null; has_media: 0 | 1 }>(
      `SELECT full_at IS NOT NULL AS full, etag, full_sig, verified_at, (media IS NOT NULL AND media <> '[]') AS has_media
       FROM pages WHERE site_id = ? AND route = ? AND lang = ?`,
    ),
    verified: db.prepare<{ site_id: string; route: string; lang: string; now: string; verified_at: string | null }>(
      `UPDATE pages SET fetched_at = @now, full_at = @now, verified_at = coalesce(@verified_at, verified_at)
       WHERE site_id = @site_id AND route = @route AND lang = @lang AND full_at IS NOT NULL`,
    ),
    translations: db.prepare<{ site_id: string; route: string; translated: string; untranslated: string; explicit: string; has_default_file: number }>(
      `UPDATE pages SET translated = @translated, untranslated = @untranslated, explicit = @explicit, has_default_file = @has_default_file
       WHERE site_id = @site_id AND route = @route AND lang = ''`,
    ),
    removeId: db.prepare<[number]>('DELETE FROM pages WHERE id = ?'),
    matrix: db.prepare<[string], Row>("SELECT * FROM pages WHERE site_id = ? AND lang = '' AND translated IS NOT NULL ORDER BY route"),
    get: db.prepare<[string, string, string], Row>('SELECT * FROM pages WHERE site_id = ? AND route = ? AND lang = ?'),
    // the level's order as the site last gave it; rows it has not placed yet follow in the site's
    // folder order (numbered folders first by number, then the rest by name, as Grav lists them)
    children: db.prepare<[string, string, string], Row>(
      'SELECT * FROM pages WHERE site_id = ? AND lang = ? AND parent = ? ORDER BY position IS NULL, position, sort_order IS NULL, sort_order, lower(slug), route',
    ),
    placeLevel: db.prepare<{ site: string; parent: string }>("UPDATE pages SET position = NULL WHERE site_id = @site AND lang = '' AND parent = @parent"),
    place: db.prepare<{ site: string; route: string; position: number }>("UPDATE pages SET position = @position WHERE site_id = @site AND route = @route AND lang = ''"),
    // a prefix test, not LIKE: routes may hold % and _
    removeTree: db.prepare<{ site: string; route: string }>(
      "DELETE FROM pages WHERE site_id = @site AND (route = @route OR substr(route, 1, length(@route) + 1) = @route || '/')",
    ),
    removeLang: db.prepare<[string, string, string]>('DELETE FROM pages WHERE site_id = ? AND route = ? AND lang = ?'),
    moveRoot: db.prepare<{ site: string; from: string; to: string; parent: string; slug: string }>(
      'UPDATE pages SET route = @to, parent = @parent, slug = @slug, position = NULL, public_route = NULL WHERE site_id = @site AND route = @from',
    ),
    moveBelow: db.prepare<{ site: string; from: string; to: string }>(
      `UPDATE pages SET route = @to || substr(route, length(@from) + 1), parent = @to || substr(parent, length(@from) + 1)
       WHERE site_id = @site AND substr(route, 1, length(@from) + 1) = @from || '/'`,
    ),
  };

  const summaryParams = (siteId: string, lang: string, s: PageSummary, now: string) => ({
    site_id: siteId,
    route: s.route,
    lang,
    title: s.title,
    slug: s.slug,
    template: s.template,
    published: s.published ? 1 : 0,
    visible: s.visible ? 1 : 0,
    routable: s.routable ? 1 : 0,
    sort_order: s.order,
    has_children: s.hasChildren ? 1 : 0,
    parent: s.parentRoute ?? parentOf(s.route),
    public_route: s.publicRoute ?? null,
    modified: s.modified,
    date: s.date,
    translated: s.translatedLanguages ? JSON.stringify(s.translatedLanguages) : null,
    untranslated: s.untranslatedLanguages ? JSON.stringify(s.untranslatedLanguages) : null,
    explicit: null as string | null,
    has_default_file: null as number | null,
    now,
  });

  return {
    /** List rows; with `explicit` and `hasDefaultFile` (read with translations=true) the matrix's data too. */
    putSummaries(siteId: string, lang: string, rows: (PageSummary & { explicit?: string[]; hasDefaultFile?: boolean })[], now = new Date().toISOString()): void {
      db.transaction(() => {
        for (const s of rows) {
          const params = summaryParams(siteId, lang, s, now);
          if (s.explicit) params.explicit = JSON.stringify(s.explicit);
          if (s.hasDefaultFile !== undefined) params.has_default_file = s.hasDefaultFile ? 1 : 0;
          q.upsertSummary.run(params);
        }
      })();
    },
    /**
     * A whole tree level as the site ordered it: the rows, and their places, so the tree shows the
     * same order offline. Rows of that parent the site did not list lose their place (they follow).
     */
    putLevel(siteId: string, parent: string, rows: PageSummary[], now = new Date().toISOString()): void {
      db.transaction(() => {
        for (const s of rows) q.upsertSummary.run(summaryParams(siteId, '', s, now));
        q.placeLevel.run({ site: siteId, parent });
        rows.forEach((s, position) => q.place.run({ site: siteId, route: s.route, position }));
      })();
    },
    /**
     * A full read. `verifiedAt` is the server's time of the answer (its Date header) when the caller
     * knows it: the mirror's quick check trusts a copy only after the second of its last change.
     */
    putPage(siteId: string, lang: string, p: Page, now = new Date().toISOString(), verifiedAt: string | null = null): void {
      q.upsertFull.run({
        ...summaryParams(siteId, lang, p, now),
        header: JSON.stringify(p.header),
        header_text: headerText(p.header),
        content: p.content,
        media: JSON.stringify(p.media),
        language: p.language,
        etag: p.etag,
        full_sig: listSignature(p),
        verified_at: verifiedAt,
      });
    },
    /** A 304 (or the list vouching for it): the cached copy is current, as of the server's `verifiedAt`. */
    putVerified(siteId: string, lang: string, route: string, verifiedAt: string | null, now = new Date().toISOString()): void {
      q.verified.run({ site_id: siteId, route, lang, now, verified_at: verifiedAt });
    },
    /** Which languages have a file of their own, from list rows read with translations=true. */
    putTranslations(siteId: string, rows: { route: string; translated: string[]; untranslated: string[]; explicit: string[]; hasDefaultFile: boolean }[]): void {
      db.transaction(() => {
        for (const r of rows) {
          q.translations.run({
            site_id: siteId,
            route: r.route,
            translated: JSON.stringify(r.translated),
            untranslated: JSON.stringify(r.untranslated),
            explicit: JSON.stringify(r.explicit),
            has_default_file: r.hasDefaultFile ? 1 : 0,
          });
        }
      })();
    },
    /** What the mirror's quick check compares, without parsing the whole row into a page. */
    checkOf(siteId: string, route: string, lang: string): CacheCheck | undefined {
      const r = q.check.get(siteId, route, lang);
      if (!r) return undefined;
      return { full: r.full === 1, etag: r.etag, sig: r.full_sig, verifiedAt: r.verified_at, hasMedia: r.has_media === 1 };
    },
    removeIds(ids: number[]): void {
      db.transaction(() => {
        for (const id of ids) q.removeId.run(id);
      })();
    },
    /** A full page from the cache, or undefined when only its list row (or nothing) is known. */
    getPage(siteId: string, route: string, lang = ''): CachedPage | undefined {
      const r = q.get.get(siteId, route, lang);
      if (!r || r.full_at === null) return undefined;
      return {
        page: { ...summaryOf(r), header: json(r.header, {}), content: r.content ?? '', media: json(r.media, []), language: r.language, etag: r.etag },
        fetchedAt: r.full_at,
      };
    },
    children(siteId: string, parent: string, lang = ''): PageSummary[] {
      return q.children.all(siteId, lang, parent).map(summaryOf);
    },
    /** A tree level from the cache, each row marked with the time of its copy. */
    cachedChildren(siteId: string, parent: string, lang = ''): PageSummary[] {
      return q.children.all(siteId, lang, parent).map((r) => ({ ...summaryOf(r), cachedAt: r.fetched_at }));
    },
    /**
     * A tree level from the cache, split into the rows the site placed when it last listed the level
     * (in that order) and those it never placed (copied another way: their order is for the caller
     * to work out), each row marked with the time of its copy.
     */
    cachedLevel(siteId: string, parent: string, lang = ''): { placed: PageSummary[]; unplaced: PageSummary[] } {
      const placed: PageSummary[] = [];
      const unplaced: PageSummary[] = [];
      for (const r of q.children.all(siteId, lang, parent)) (r.position === null ? unplaced : placed).push({ ...summaryOf(r), cachedAt: r.fetched_at });
      return { placed, unplaced };
    },
    /** The cached list row of a page (hasChildren tells a leaf from a level never read). */
    summary(siteId: string, route: string, lang = ''): (PageSummary & { cachedAt: string }) | undefined {
      const r = q.get.get(siteId, route, lang);
      return r && { ...summaryOf(r), cachedAt: r.fetched_at };
    },
    /** The list view from the cache: the site's filters, sorts and paging, over what was read before. */
    list(siteId: string, query: CacheListQuery): PageList {
      const { where, params } = listWhere(siteId, query);
      const total = db.prepare(`SELECT count(*) AS n, min(fetched_at) AS oldest FROM pages WHERE ${where}`).get(params) as { n: number; oldest: string | null };
      const perPage = query.perPage ?? 50;
      const page = query.page ?? 1;
      const rows = db
        .prepare(`SELECT * FROM pages WHERE ${where} ORDER BY ${listOrder(query)} LIMIT @limit OFFSET @offset`)
        .all({ ...params, limit: perPage, offset: (page - 1) * perPage }) as Row[];
      return { items: rows.map((r) => ({ ...summaryOf(r), cachedAt: r.fetched_at })), total: total.n, page, perPage, ...(total.oldest ? { cachedAt: total.oldest } : {}) };
    },
    /** Rows of the translation matrix from the cache (pages whose translation metadata was read). */
    matrixRows(siteId: string): { rows: TranslationRow[]; cachedAt: string | null } {
      let oldest: string | null = null;
      const rows = q.matrix.all(siteId).map((r) => {
        if (oldest === null || r.fetched_at < oldest) oldest = r.fetched_at;
        return {
          route: r.route,
          title: r.title,
          explicit: json<string[]>(r.explicit, []),
          hasDefaultFile: r.has_default_file === 1,
          translated: json<string[]>(r.translated, []),
          untranslated: json<string[]>(r.untranslated, []),
        };
      });
      return { rows, cachedAt: oldest };
    },
    /** The page and everything under it (a delete or a move away). */
    removeTree(siteId: string, route: string): void {
      q.removeTree.run({ site: siteId, route });
    },
    /** A move queued offline: the cached page and everything under it take their new routes. */
    moveTree(siteId: string, from: string, to: string): void {
      db.transaction(() => {
        q.removeTree.run({ site: siteId, route: to });
        q.moveBelow.run({ site: siteId, from, to });
        q.moveRoot.run({ site: siteId, from, to, parent: parentOf(to), slug: slugOf(to) });
      })();
    },
    removeLang(siteId: string, route: string, lang: string): void {
      q.removeLang.run(siteId, route, lang);
    },
  };
}

export type PagesRepo = ReturnType<typeof pagesRepo>;
