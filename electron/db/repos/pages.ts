import type { Page, PageSummary } from '../../contract';
import type { Db } from '../open';

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
}

export interface CachedPage {
  page: Page;
  fetchedAt: string;
}

const parentOf = (route: string) => route.slice(0, route.lastIndexOf('/')) || '/';
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
    upsertSummary: db.prepare(
      `INSERT INTO pages (site_id, route, lang, title, slug, template, published, visible, routable, sort_order, has_children, parent, modified, date, translated, untranslated, fetched_at)
       VALUES (@site_id, @route, @lang, @title, @slug, @template, @published, @visible, @routable, @sort_order, @has_children, @parent, @modified, @date, @translated, @untranslated, @now)
       ON CONFLICT (site_id, route, lang) DO UPDATE SET title = excluded.title, slug = excluded.slug, template = excluded.template,
         published = excluded.published, visible = excluded.visible, routable = excluded.routable, sort_order = excluded.sort_order,
         has_children = excluded.has_children, parent = excluded.parent, modified = excluded.modified, date = excluded.date,
         translated = coalesce(excluded.translated, pages.translated), untranslated = coalesce(excluded.untranslated, pages.untranslated),
         fetched_at = excluded.fetched_at`,
    ),
    setFull: db.prepare(
      `UPDATE pages SET header = @header, content = @content, media = @media, language = @language, etag = @etag, full_at = @now
       WHERE site_id = @site_id AND route = @route AND lang = @lang`,
    ),
    get: db.prepare<[string, string, string], Row>('SELECT * FROM pages WHERE site_id = ? AND route = ? AND lang = ?'),
    children: db.prepare<[string, string, string], Row>(
      'SELECT * FROM pages WHERE site_id = ? AND lang = ? AND parent = ? ORDER BY sort_order IS NULL, sort_order, slug',
    ),
    // a prefix test, not LIKE: routes may hold % and _
    removeTree: db.prepare<{ site: string; route: string }>(
      "DELETE FROM pages WHERE site_id = @site AND (route = @route OR substr(route, 1, length(@route) + 1) = @route || '/')",
    ),
    removeLang: db.prepare<[string, string, string]>('DELETE FROM pages WHERE site_id = ? AND route = ? AND lang = ?'),
    moveRoot: db.prepare<{ site: string; from: string; to: string; parent: string; slug: string }>(
      'UPDATE pages SET route = @to, parent = @parent, slug = @slug WHERE site_id = @site AND route = @from',
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
    parent: parentOf(s.route),
    modified: s.modified,
    date: s.date,
    translated: s.translatedLanguages ? JSON.stringify(s.translatedLanguages) : null,
    untranslated: s.untranslatedLanguages ? JSON.stringify(s.untranslatedLanguages) : null,
    now,
  });

  return {
    putSummaries(siteId: string, lang: string, rows: PageSummary[], now = new Date().toISOString()): void {
      db.transaction(() => {
        for (const s of rows) q.upsertSummary.run(summaryParams(siteId, lang, s, now));
      })();
    },
    putPage(siteId: string, lang: string, p: Page, now = new Date().toISOString()): void {
      db.transaction(() => {
        q.upsertSummary.run(summaryParams(siteId, lang, p, now));
        q.setFull.run({
          site_id: siteId,
          route: p.route,
          lang,
          header: JSON.stringify(p.header),
          content: p.content,
          media: JSON.stringify(p.media),
          language: p.language,
          etag: p.etag,
          now,
        });
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
    /** The page and everything under it (a delete or a move away). */
    removeTree(siteId: string, route: string): void {
      q.removeTree.run({ site: siteId, route });
    },
    /** A move queued offline: the cached page and everything under it take their new routes. */
    moveTree(siteId: string, from: string, to: string): void {
      db.transaction(() => {
        q.removeTree.run({ site: siteId, route: to });
        q.moveBelow.run({ site: siteId, from, to });
        q.moveRoot.run({ site: siteId, from, to, parent: parentOf(to), slug: to.split('/').at(-1)! });
      })();
    },
    removeLang(siteId: string, route: string, lang: string): void {
      q.removeLang.run(siteId, route, lang);
    },
  };
}

export type PagesRepo = ReturnType<typeof pagesRepo>;
