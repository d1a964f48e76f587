/**
 * Tree levels through the pages service, against answers shaped like the real service's (a real
 * SQLite cache on disk, the real transport; the fetch is the edge): the home page is addressed by
 * its structural route, a level is read past its first 100 rows, the site's own order is asked for
 * and kept, so the tree shows the same order offline, and an unreadable row is flagged, never cached.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../electron/db/open';
import { sitesRepo } from '../../electron/db/repos/sites';
import { sessionsRepo } from '../../electron/db/repos/sessions';
import { pagesRepo } from '../../electron/db/repos/pages';
import { SiteRows } from '../../electron/sessions/site-rows';
import { ApiKeys } from '../../electron/sessions/api-keys';
import { sessionManager } from '../../electron/sessions/cms-session-manager';
import { pagesService, type PagesService } from '../../electron/pages/service';
import { siteAccount } from '../../electron/secrets/secret-store';
import { FileSecretStore } from '../support/file-secrets';
import { tempDir } from '../support/tmp';
import { fakeFetch, recordedData, refused, reply, type Answer, type SeenRequest } from './support/recorded-replies';

const SITE = '7f0c6c1e-3d1b-4a8e-9a57-1f2d3c4b5a69';
const BASE = 'https://cms.example.com/api/v1';
type Row = Record<string, unknown>;

let dir: ReturnType<typeof tempDir>;
let db: Db;
let online = true;
let answer: (r: SeenRequest) => Answer | undefined;
let seen: SeenRequest[];
let pages: PagesService;

beforeEach(async () => {
  dir = tempDir();
  db = openDatabase(`${dir.path}/app.db`);
  const sites = sitesRepo(db);
  sites.insert({ id: SITE, name: 'Grav', kind: 'cms', baseUrl: BASE, environment: null, authMode: 'apikey', hasApiKey: true });
  const secrets = new FileSecretStore(`${dir.path}/secrets.json`);
  await secrets.set(siteAccount.apiKey(SITE), 'grav_key');
  online = true;
  const f = fakeFetch((r) => (online ? answer(r) : refused()));
  seen = f.seen;
  const sessions = sessionManager({ sites, rows: new SiteRows(sites), apiKeys: new ApiKeys(secrets), repo: sessionsRepo(db), secrets, fetch: f.fetchImpl, emit: () => {} });
  pages = pagesService({ sessions, cache: pagesRepo(db) });
});
afterEach(() => {
  db.close();
  dir.remove();
});

/** A row as the real service lists it. */
function row(parent: string, slug: string, order: string | false, title = slug, extra: Row = {}): Row {
  const raw = `${parent === '/' ? '' : parent}/${slug}`;
  return { ...recordedData<Row[]>('11-pages')[1]!, route: raw, raw_route: raw, parent_route: parent, slug, folder: order ? `${order}${slug}` : slug, title, menu: title, order, ...extra };
}

/** The real envelope for one page of a level. */
function paged(rows: Row[], page: number, perPage: number, total: number): Answer {
  const last = Math.ceil(total / perPage);
  const link = (p: number) => `/api/v1/pages?page=${p}&per_page=${perPage}`;
  return reply({
    data: rows,
    meta: { pagination: { page, per_page: perPage, total, total_pages: last } },
    links: { self: link(page), ...(page < last ? { next: link(page + 1), last: link(last) } : {}) },
  });
}

const query = (r: SeenRequest) => new URL(r.path, BASE).searchParams;

describe('tree levels against the real service’s answers', () => {
  test('the home page is /home: it opens and its level is its own children, never the top level again', async () => {
    const [home, typography] = recordedData<Row[]>('11-pages');
    answer = (r) => {
      const q = query(r);
      if (q.get('children_of') === '/') return paged([{ ...home!, has_children: true }, typography!], 1, 100, 2);
      if (q.get('children_of') === '/home') return paged([row('/home', 'welcome', '01.', 'Welcome')], 1, 100, 1);
      return undefined;
    };
    const top = await pages.level(SITE, '/');
    expect(top.items.map((p) => [p.route, p.publicRoute])).toEqual([
      ['/home', '/'],
      ['/typography', undefined],
    ]);
    const below = await pages.level(SITE, top.items[0]!.route);
    expect(below.items.map((p) => p.route)).toEqual(['/home/welcome']);
    expect(seen.map((r) => query(r).get('children_of'))).toEqual(['/', '/home']);
    // the site's own order is asked for explicitly (without a sort the real one lists newest first)
    expect(seen.every((r) => query(r).get('sort') === 'default')).toBe(true);
  });

  test('a level of 150 is read whole, following links.next', async () => {
    const all = Array.from({ length: 150 }, (_, i) => row('/blog', `post-${i + 1}`, `${String(i + 1).padStart(3, '0')}.`));
    answer = (r) => {
      const page = Number(query(r).get('page'));
      return paged(all.slice((page - 1) * 100, page * 100), page, 100, 150);
    };
    const level = await pages.level(SITE, '/blog');
    expect(level.items).toHaveLength(150);
    expect(seen.map((r) => query(r).get('page'))).toEqual(['1', '2']);
  });

  test('offline, a level comes back in the order the site gave it online (not by folder number)', async () => {
    // /blog orders its children by date, newest first (its collection settings): not by folder number
    const rows = [row('/blog', 'gamma', false, 'Gamma'), row('/blog', 'alpha', '01.', 'Alpha'), row('/blog', 'beta', '02.', 'Beta'), row('/blog', 'delta', false, 'Delta')];
    answer = () => paged(rows, 1, 100, rows.length);
    const onlineLevel = await pages.level(SITE, '/blog');
    online = false;
    const offlineLevel = await pages.level(SITE, '/blog');
    expect(offlineLevel.items.map((p) => p.route)).toEqual(onlineLevel.items.map((p) => p.route));
    expect(offlineLevel.items.map((p) => p.title)).toEqual(['Gamma', 'Alpha', 'Beta', 'Delta']);
    expect(offlineLevel.items.every((p) => typeof p.cachedAt === 'string')).toBe(true);
    expect((await pages.level(SITE, '/blog')).items).toEqual(offlineLevel.items);
  });

  test('the top level keeps its order offline too, home with its public address', async () => {
    const [home, typography] = recordedData<Row[]>('11-pages');
    const blog = row('/', 'blog', false, 'Blog');
    answer = () => paged([home!, typography!, blog], 1, 100, 3);
    const onlineTop = await pages.level(SITE, '/');
    online = false;
    const offlineTop = await pages.level(SITE, '/');
    expect(offlineTop.items.map((p) => [p.route, p.publicRoute, p.order])).toEqual(onlineTop.items.map((p) => [p.route, p.publicRoute, p.order]));
  });

  test('a row that cannot be read is flagged in its place online and left out of the cache', async () => {
    const rows = [row('/docs', 'a', '01.'), row('/docs', 'b', '02.', 'B', { order: ['x'] }), row('/docs', 'c', '03.')];
    answer = () => paged(rows, 1, 100, 3);
    const level = await pages.level(SITE, '/docs');
    expect(level.items.map((p) => p.route)).toEqual(['/docs/a', '/docs/c']);
    expect(level.unreadable).toEqual([{ position: 1, route: '/docs/b', title: 'B', problem: expect.stringMatching(/^order: /) }]);
    online = false;
    const offline = await pages.level(SITE, '/docs');
    expect(offline.items.map((p) => p.route)).toEqual(['/docs/a', '/docs/c']);
    expect(offline.unreadable).toBeUndefined();
  });

  test('a level the site re-orders is re-ordered in the cache; a row it no longer lists loses its place', async () => {
    let rows = [row('/a', 'x', '01.'), row('/a', 'y', '02.'), row('/a', 'z', '03.'), row('/a', 'v', '04.')];
    answer = () => paged(rows, 1, 100, rows.length);
    await pages.level(SITE, '/a');
    rows = [rows[2]!, rows[3]!, rows[0]!];
    await pages.level(SITE, '/a');
    online = false;
    // y (gone from the site's answer, still in the cache) comes after the rows the site placed
    expect((await pages.level(SITE, '/a')).items.map((p) => p.slug)).toEqual(['z', 'v', 'x', 'y']);
  });
});
