/**
 * Pages (spec section 4 "Pages"): list, read, create, update, delete, move, reorder, copy, and
 * GET /taxonomy. Status codes as the spec's table lists them; where the spec says "not shown" the
 * OpenAPI description and the real service decide, noted next to the code.
 *
 * Routes go in the URL without a leading slash, each segment percent-encoded
 * (`/pages/about/our%20team`); the Router hands them over decoded.
 */
import type { ServerResponse } from 'node:http';
import { HttpProblem, json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import {
  boolText,
  checkLanguage,
  flagParam,
  header,
  invalid,
  isBoolText,
  isObject,
  langParam,
  mergeHeader,
  pageLocation,
  requireFields,
  requirePage,
} from './common';
import { etagMatches, etagOf } from './etag';
import {
  dateMs,
  loadPage,
  pageData,
  pageRef,
  plainData,
  published,
  routable,
  summaryFields,
  titleOf,
  tryLoad,
  visible,
  taxonomyOf,
  type LoadedPage,
} from './serialize';
import { folderName, inSubtree, nativeOrder, normalizeRoute, parentRoute, routeBasename, slugProblem, type ContentTree } from './store';

const READ = 'api.pages.read';
const WRITE = 'api.pages.write';

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;
const SORTS = ['date', 'title', 'slug', 'modified', 'order', 'default'] as const;
type SortField = (typeof SORTS)[number];

/** `page` / `per_page` as the real service reads them: bad or small values clamp, never fail. */
export function paging(url: URL): { page: number; perPage: number } {
  const page = Math.max(1, Math.trunc(Number(url.searchParams.get('page') ?? 1)) || 1);
  const raw = url.searchParams.get('per_page');
  const n = raw === null || raw.trim() === '' ? PER_PAGE_DEFAULT : Math.trunc(Number(raw));
  const perPage = Number.isNaN(n) ? PER_PAGE_DEFAULT : Math.min(PER_PAGE_MAX, Math.max(1, n));
  return { page, perPage };
}

/**
 * The paged envelope. The spec says `meta` carries `total`, `page`, `per_page`; the real service
 * nests them in `meta.pagination` (with `total_pages`) and adds `links`. Both are sent, so a client
 * written against either finds them. `links` carry only page and per_page, like the real service.
 */
export function paged(ctx: CmsContext, path: string, data: unknown[], total: number, page: number, perPage: number, extra: Record<string, unknown> = {}) {
  const totalPages = Math.max(0, Math.ceil(total / perPage));
  const link = (p: number) => `${ctx.prefix}${path}?page=${p}&per_page=${perPage}`;
  const links: Record<string, string> = { self: link(page) };
  if (page > 1) Object.assign(links, { first: link(1), prev: link(page - 1) });
  if (page < totalPages) Object.assign(links, { next: link(page + 1), last: link(totalPages) });
  const pagination = { page, per_page: perPage, total, total_pages: totalPages, ...extra };
  return { data, meta: { total, page, per_page: perPage, total_pages: totalPages, pagination }, links };
}

function sendPage(res: ServerResponse, status: number, data: Record<string, unknown>, headers: Record<string, string> = {}) {
  json(res, status, { data }, { 'Cache-Control': 'no-store, max-age=0', ...headers });
}

export function registerPageRoutes(router: Router, ctx: CmsContext): void {
  const store = ctx.content;
  const events = ctx.events;
  let listMemo: { tree: ContentTree; key: string; rows: LoadedPage[] } | null = null;

  // ------------------------------------------------------------------------------------------
  // GET /pages

  router.on('GET', '/pages', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    const lang = langParam(ctx, url, 400);
    const { page, perPage } = paging(url);
    const q = url.searchParams;
    const sortParam = q.get('sort');
    if (sortParam !== null && sortParam !== '' && !SORTS.includes(sortParam as SortField)) {
      // the spec lists no 400 here; the real service answers 422 (OpenAPI: ValidationError)
      throw invalid(422, 'sort', `Invalid sort field '${sortParam}'. Allowed: ${SORTS.join(', ')}`);
    }
    const orderParam = (q.get('order') ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
    const translations = flagParam(url, 'translations');

    const tree = store.tree();
    // under pages.check_method 'none' the scan is trusted until a write, and so is a query's
    // filtered, sorted list: paging through 10,000 pages does not sort them again for each page
    const memoKey = `${lang}|${[...q].filter(([k]) => k !== 'page' && k !== 'per_page' && k !== 'locate').map(([k, v]) => `${k}=${v}`).join('&')}`;
    const memo = store.checkMethod === 'none' && listMemo?.tree === tree && listMemo.key === memoKey ? listMemo.rows : null;
    let rows: LoadedPage[] = [];
    if (!memo) {
      for (const node of tree.pages) {
        const p = tryLoad(store, node, lang);
        if (p) rows.push(p);
      }
    }

    // filters (the real service's published, visible, routable, template, parent, children_of, root)
    const boolFilter = (name: string, test: (p: LoadedPage) => boolean) => {
      const v = q.get(name);
      if (v !== null) rows = rows.filter((p) => test(p) === boolText(v));
    };
    boolFilter('published', published);
    boolFilter('visible', visible);
    boolFilter('routable', routable);
    const template = q.get('template');
    if (template !== null) rows = rows.filter((p) => p.file.template === template);
    const parent = q.get('parent');
    // spec: "descendants whose route starts with it" (the parent itself is not its own descendant)
    if (parent !== null) {
      const pr = normalizeRoute(parent);
      rows = rows.filter((p) => p.node.route !== pr && inSubtree(p.node.route, pr));
    }
    const childrenOf = q.get('children_of');
    if (childrenOf !== null) {
      const pr = normalizeRoute(childrenOf);
      rows = rows.filter((p) => parentRoute(p.node.route) === pr);
    }
    const root = q.get('root');
    if (root !== null) {
      // The spec calls `root` a subtree root; the OpenAPI and the real service treat it as a
      // boolean "top-level pages only". Both: a boolean-looking value filters to top-level pages
      // (or nothing, when false); a route keeps that page and everything below it.
      if (isBoolText(root)) {
        if (boolText(root)) rows = rows.filter((p) => parentRoute(p.node.route) === '/');
      } else {
        const rr = normalizeRoute(root);
        rows = rows.filter((p) => inSubtree(p.node.route, rr));
      }
    }
    const search = q.get('search');
    if (search !== null && search.trim() !== '') {
      // full text over title, slug, route and markdown, case-insensitive (the real service needs
      // its indexed backend for this; the sandbox always has it)
      const needle = search.trim().toLowerCase();
      rows = rows.filter((p) => [titleOf(p), p.node.slug, p.node.route, p.content].some((t) => t.toLowerCase().includes(needle)));
    }

    // sort: omitted = date, newest first (real service); `default` with children_of = native order
    // (or the parent's collection order from its header), `default` alone = order ascending
    let field: SortField = (sortParam as SortField | null) || 'date';
    let dir: 'asc' | 'desc' = sortParam ? orderParam : 'desc';
    if (field === 'default' && childrenOf !== null) {
      const parentNode = tree.byRoute.get(normalizeRoute(childrenOf));
      const by = collectionOrder(parentNode ? tryLoad(store, parentNode, lang) : null);
      if (by) {
        field = by.field;
        dir = by.dir;
      } else rows.sort((a, b) => nativeOrder(a.node, b.node));
    } else if (field === 'default') {
      field = 'order';
      dir = 'asc';
    }
    if (field !== 'default') sortRows(rows, field, dir);
    if (memo) rows = memo;
    else if (store.checkMethod === 'none') listMemo = { tree, key: memoKey, rows };

    let pageNo = page;
    const extra: Record<string, unknown> = {};
    const locate = q.get('locate');
    if (locate) {
      // the real service's `locate`: answer the chunk holding that route
      const idx = rows.findIndex((p) => p.node.route === normalizeRoute(locate));
      if (idx >= 0) {
        pageNo = Math.floor(idx / perPage) + 1;
        extra.located_at_index = idx;
      }
    }
    const slice = rows.slice((pageNo - 1) * perPage, pageNo * perPage);
    json(res, 200, paged(ctx, '/pages', slice.map((p) => summaryFields(store, p, translations)), rows.length, pageNo, perPage, extra));
  });

  // ------------------------------------------------------------------------------------------
  // POST /pages

  router.on('POST', '/pages', async (req, res, _p, url) => {
    authorize(ctx, req, url, WRITE);
    const body = await readBody(req);
    requireFields(body, ['route', 'title'], 422);
    if (typeof body.route !== 'string') throw invalid(422, 'route', "The 'route' field must be a string.");
    if (typeof body.title !== 'string') throw invalid(422, 'title', "The 'title' field must be a string.");
    const route = normalizeRoute(body.route);
    if (route === '/') throw invalid(422, 'route', 'The route must name a page below the site root.');
    const slug = routeBasename(route);
    const bad = slugProblem(slug);
    if (bad) throw invalid(422, 'route', `Invalid slug '${slug}': ${bad}.`);
    const template = body.template === undefined || body.template === null ? 'default' : body.template;
    if (typeof template !== 'string' || slugProblem(template) || template.includes('.')) throw invalid(422, 'template', 'The template must be a plain template name.');
    if (body.header !== undefined && body.header !== null && !isObject(body.header)) throw invalid(422, 'header', "The 'header' field must be an object.");
    if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') throw invalid(422, 'content', "The 'content' field must be a string.");
    let lang: string | null = null;
    if (body.lang !== undefined && body.lang !== null && body.lang !== '' && store.multilang) {
      checkLanguage(ctx, body.lang, 422);
      lang = body.lang;
    }
    let order = body.order ?? null;
    if (order !== null && order !== 'auto' && !(Number.isInteger(order) && (order as number) >= 0)) {
      throw invalid(422, 'order', "The 'order' field must be a non-negative integer, \"auto\" or null.");
    }

    const parentRt = parentRoute(route);
    const parent = store.folderAt(parentRt, 1);
    if (!parent || (parentRt !== '/' && !parent.files.length)) throw invalid(422, 'route', `Parent page not found at route: ${parentRt}`);
    if (parent.children.some((c) => c.slug === slug)) throw invalid(422, 'route', `A page already exists at route: ${route}`);
    if (order === 'auto') {
      // next free prefix when any sibling is ordered, else unordered (the real service's "auto")
      const ordered = parent.children.filter((c) => c.order !== null);
      order = ordered.length ? Math.max(...ordered.map((c) => c.order!)) + 1 : null;
    }
    const digits = Math.max(2, ...parent.children.map((c) => c.orderDigits));
    const content = typeof body.content === 'string' ? body.content : '';
    // the title first, then whatever header the client sent on top (as the real service merges it)
    const head: Record<string, unknown> = { title: body.title, ...(isObject(body.header) ? body.header : {}) };

    events.record('onApiBeforePageCreate', { route, header: head, content, template, lang });
    const dir = `${parent.dir}/${folderName(slug, order as number | null, digits)}`;
    // without `lang` the real service writes the untyped `{template}.md`, also on multilanguage sites
    const fileName = store.fileNameFor(template, lang);
    store.createFolder(dir);
    store.writePage(dir, fileName, head, content);
    const node = requirePage(ctx, route);
    const created = loadPage(store, node, lang);
    events.record('onAdminSave', { page: pageRef(created) });
    events.record('onAdminAfterSave', { page: pageRef(created) });
    events.record('onApiPageCreated', { page: pageRef(created), route, lang });
    sendPage(res, 201, plainData(store, created), { Location: pageLocation(ctx.prefix, route) });
  });

  // ------------------------------------------------------------------------------------------
  // Sub-resources first: the Router tries routes in order, and `{route+}` would swallow them.

  router.on('POST', '/pages/{route+}/move', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const body = await readBody(req);
    requireFields(body, ['parent'], 422);
    if (typeof body.parent !== 'string') throw invalid(422, 'parent', "The 'parent' field must be a route.");
    const newParentRt = normalizeRoute(body.parent);
    const newSlug = body.slug === undefined || body.slug === null ? node.slug : body.slug;
    if (typeof newSlug !== 'string' || slugProblem(newSlug.replace(/^\.+/, ''))) throw invalid(422, 'slug', 'Invalid slug: must be a single path segment.');
    const slug = newSlug.replace(/^\.+/, '');
    let order: number | null = node.order;
    if (body.order !== undefined) {
      if (body.order !== null && !(Number.isInteger(body.order) && (body.order as number) >= 0)) throw invalid(422, 'order', "The 'order' field must be a non-negative integer or null.");
      order = body.order as number | null;
    }
    if (inSubtree(newParentRt, node.route)) throw invalid(422, 'parent', `Cannot move '${node.route}' into its own subtree '${newParentRt}'.`);
    const parent = store.folderAt(newParentRt, 1);
    if (!parent || (newParentRt !== '/' && !parent.files.length)) throw invalid(422, 'parent', `Destination parent not found at route: ${newParentRt}`);
    const newDir = `${parent.dir}/${folderName(slug, order)}`;
    if (newDir === node.dir) throw invalid(422, 'parent', 'Source and destination paths are identical.');
    const newRoute = (newParentRt === '/' ? '' : newParentRt) + '/' + slug;
    if (parent.children.some((c) => c.dir !== node.dir && (c.slug === slug || c.dir === newDir))) {
      throw invalid(422, 'parent', 'A page already exists at the destination path.');
    }
    store.moveFolder(node.dir, newDir);
    const moved = loadPage(store, requirePage(ctx, newRoute));
    events.record('onApiPageMoved', { page: pageRef(moved), old_route: node.route, new_route: newRoute });
    const data = plainData(store, moved);
    sendPage(res, 200, data, { ETag: etagOf(data) });
  });

  router.on('POST', '/pages/{route+}/reorder', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const parent = ctx.content.find(params.route!, 2);
    if (!parent) throw new HttpProblem(404, 'Not Found', `Page not found at route: /${params.route}`);
    const body = await readBody(req);
    requireFields(body, ['order'], 422);
    const order = body.order;
    if (!Array.isArray(order) || order.some((s) => typeof s !== 'string')) throw invalid(422, 'order', "The 'order' field must be an array of child slugs.");
    const children = store.pageChildren(parent);
    const bySlug = new Map(children.map((c) => [c.slug, c]));
    for (const slug of order as string[]) {
      if (!bySlug.has(slug)) throw invalid(422, 'order', `Child page with slug '${slug}' not found under '${parent.route}'.`);
    }
    if (new Set(order).size !== order.length) throw invalid(422, 'order', 'Each child slug may appear only once.');
    const before = loadPage(store, parent);
    events.record('onApiBeforePagesReorder', { parent: pageRef(before), order });
    // listed children get prefixes 1..n (the widest existing prefix width, at least 2); the rest
    // keep theirs. Two phases through temporary names, so no rename ever meets an existing folder.
    const digits = Math.max(2, ...children.map((c) => c.orderDigits));
    const renames = (order as string[])
      .map((slug, i) => ({ node: bySlug.get(slug)!, final: `${parent.dir}/${folderName(slug, i + 1, digits)}`, temp: `${parent.dir}/_temp_${i + 1}_${slug}` }))
      .filter((r) => r.final !== r.node.dir);
    for (const r of renames) store.moveFolder(r.node.dir, r.temp);
    for (const r of renames) store.moveFolder(r.temp, r.final);
    const after = ctx.content.find(parent.route, 2)!;
    events.record('onApiPagesReordered', { parent: pageRef(before), order });
    const data = store.pageChildren(after).map((c) => {
      const p = tryLoad(store, c);
      return { route: c.route, slug: c.slug, title: p ? titleOf(p) : c.slug, order: c.order };
    });
    json(res, 200, { data });
  });

  router.on('POST', '/pages/{route+}/copy', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const body = await readBody(req);
    // spec: 400 for a missing destination, a missing destination parent or an existing destination
    requireFields(body, ['route'], 400);
    if (typeof body.route !== 'string') throw invalid(400, 'route', "The 'route' field must be the destination route.");
    const dest = normalizeRoute(body.route);
    if (dest === '/') throw invalid(400, 'route', 'The destination must name a page below the site root.');
    const slug = routeBasename(dest);
    const bad = slugProblem(slug);
    if (bad) throw invalid(400, 'route', `Invalid destination slug '${slug}': ${bad}.`);
    if (inSubtree(dest, node.route)) throw invalid(400, 'route', `Cannot copy '${node.route}' into itself ('${dest}').`);
    const parentRt = parentRoute(dest);
    const parent = store.folderAt(parentRt, 1);
    if (!parent || (parentRt !== '/' && !parent.files.length)) throw invalid(400, 'route', `Destination parent not found at route: ${parentRt}`);
    if (parent.children.some((c) => c.slug === slug)) throw invalid(400, 'route', `A page already exists at route: ${dest}`);
    // like the real service: the copy's folder is the bare slug (no order prefix); content, media,
    // translations and children come along
    store.copyFolder(node.dir, `${parent.dir}/${slug}`);
    const copy = loadPage(store, requirePage(ctx, dest));
    sendPage(res, 201, plainData(store, copy), { Location: pageLocation(ctx.prefix, dest) });
  });

  // ------------------------------------------------------------------------------------------
  // GET / PATCH / DELETE /pages/{route}

  router.on('GET', '/pages/{route+}', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const lang = langParam(ctx, url, 400);
    const childrenDepth = flagParam(url, 'children') ? Math.max(1, Math.trunc(Number(url.searchParams.get('children_depth') ?? 1)) || 1) : 0;
    const node = requirePage(ctx, params.route!, childrenDepth + 1);
    const p = loadPage(store, node, lang);
    const summarySize = Number(url.searchParams.get('summary_size'));
    const data = pageData(store, p, {
      render: flagParam(url, 'render'),
      summary: flagParam(url, 'summary'),
      summarySize: Number.isInteger(summarySize) && summarySize > 0 ? summarySize : undefined,
      childrenDepth,
      translations: flagParam(url, 'translations'),
    });
    // each representation has its own ETag (a hash of what is sent), so a conditional read of a
    // render/children/translations read revalidates that read; only the plain read's ETag is
    // accepted by PATCH's If-Match
    const etag = etagOf(data);
    if (etagMatches(header(req, 'if-none-match'), etag)) {
      res.writeHead(304, { ETag: etag, 'Cache-Control': 'no-store, max-age=0' }).end();
      return;
    }
    sendPage(res, 200, data, { ETag: etag });
  });

  router.on('PATCH', '/pages/{route+}', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    const lang = langParam(ctx, url, 422);
    let p: LoadedPage;
    if (lang !== null) {
      // never write a language through the untyped fallback: the translation must exist first
      const r = store.resolve(node, lang);
      const own = r && (r.language === lang || (r.language === null && lang === store.site.defaultLanguage));
      if (!own) throw invalid(422, 'lang', `No '${lang}' translation exists for this page. Use POST /pages/${params.route}/translate to create it first.`);
      p = loadPage(store, node, lang);
    } else p = loadPage(store, node);

    // optimistic concurrency: If-Match is compared with the ETag of the plain read of this language
    const ifMatch = header(req, 'if-match');
    if (ifMatch && !etagMatches(ifMatch, etagOf(plainData(store, p)))) {
      throw new HttpProblem(409, 'Conflict', 'The resource has been modified since you last retrieved it. Please fetch the latest version and try again.');
    }

    const body = await readBody(req);
    const errors: { field: string; message: string }[] = [];
    if (body.title !== undefined && typeof body.title !== 'string') errors.push({ field: 'title', message: "The 'title' field must be a string." });
    if (body.content !== undefined && typeof body.content !== 'string') errors.push({ field: 'content', message: "The 'content' field must be a string." });
    if (body.header !== undefined && !isObject(body.header)) errors.push({ field: 'header', message: "The 'header' field must be an object." });
    if (body.template !== undefined && (typeof body.template !== 'string' || slugProblem(body.template) !== null || body.template.includes('.'))) {
      errors.push({ field: 'template', message: 'The template must be a plain template name.' });
    }
    if (body.published !== undefined && typeof body.published !== 'boolean') errors.push({ field: 'published', message: "The 'published' field must be a boolean." });
    if (body.visible !== undefined && typeof body.visible !== 'boolean') errors.push({ field: 'visible', message: "The 'visible' field must be a boolean." });
    if (body.title !== undefined && typeof body.title === 'string' && body.title.trim() === '') errors.push({ field: 'title', message: 'The title must not be empty.' });
    if (errors.length) throw new HttpProblem(422, 'Unprocessable Entity', 'The submitted data did not pass validation.', { errors });

    events.record('onApiBeforePageUpdate', { page: pageRef(p), data: body });
    let head: Record<string, unknown> = { ...p.header };
    let content = p.content;
    if (typeof body.content === 'string') content = body.content;
    if (typeof body.title === 'string') head.title = body.title;
    if (isObject(body.header)) {
      // `header_mode: replace` (the real service's raw-frontmatter mode) swaps the header whole
      head = body.header_mode === 'replace' ? mergeHeader({}, body.header) : mergeHeader(head, body.header);
    }
    if (typeof body.published === 'boolean') head.published = body.published;
    if (typeof body.visible === 'boolean') head.visible = body.visible;

    let fileName = p.file.name;
    if (typeof body.template === 'string' && body.template !== p.file.template) {
      // the template is the file name: default.en.md → blog.en.md (only this language's file)
      fileName = p.file.lang ? `${body.template}.${p.file.lang}.md` : `${body.template}.md`;
      if (node.files.some((f) => f.name === fileName)) throw invalid(422, 'template', `A file named ${fileName} already exists in this page.`);
    }
    events.record('onAdminSave', { page: pageRef(p) });
    store.writePage(node.dir, fileName, head, content);
    if (fileName !== p.file.name) store.removeFile(`${node.dir}/${p.file.name}`);
    const updated = loadPage(store, requirePage(ctx, node.route), lang);
    events.record('onAdminAfterSave', { page: pageRef(updated) });
    events.record('onApiPageUpdated', { page: pageRef(updated) });
    const data = plainData(store, updated);
    sendPage(res, 200, data, { ETag: etagOf(data) });
  });

  router.on('DELETE', '/pages/{route+}', (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const node = requirePage(ctx, params.route!);
    // spec: DELETE answers 204, 401, 404, 422, so a bad language is a 422 here
    const lang = langParam(ctx, url, 422);
    const p = tryLoad(store, node, lang);
    if (lang !== null) {
      const translated = store.translated(node);
      const file = translated[lang];
      if (!file) throw new HttpProblem(404, 'Not Found', `No translation found for language '${lang}' at route: ${node.route}`);
      events.record('onApiBeforePageDelete', { page: pageRef(p), lang });
      // the only translation left: the whole page goes (as the real service does)
      if (Object.keys(translated).length <= 1) store.removeFolder(node.dir);
      else store.removeFile(`${node.dir}/${file}`);
      events.record('onApiPageDeleted', { route: node.route, lang });
      res.writeHead(204).end();
      return;
    }
    const children = url.searchParams.get('children');
    if (children !== null && !boolText(children) && store.pageChildren(node).length > 0) {
      throw invalid(422, 'children', 'This page has children. Use ?children=true to confirm deletion of the page and all its children.');
    }
    events.record('onApiBeforePageDelete', { page: pageRef(p), lang: null });
    store.removeFolder(node.dir);
    events.record('onApiPageDeleted', { route: node.route, lang: null });
    res.writeHead(204).end();
  });

  // ------------------------------------------------------------------------------------------
  // GET /taxonomy

  router.on('GET', '/taxonomy', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    const lang = langParam(ctx, url, 400);
    const found = new Map<string, Set<string>>(store.site.taxonomies.map((t) => [t, new Set<string>()]));
    for (const node of store.tree().pages) {
      const p = tryLoad(store, node, lang);
      if (!p) continue;
      for (const [type, values] of Object.entries(taxonomyOf(p.header))) {
        if (!found.has(type)) found.set(type, new Set());
        for (const v of values) found.get(type)!.add(v);
      }
    }
    // spec: a map of taxonomy type to its term values (file paths stripped), declared types always present
    const data = Object.fromEntries([...found].map(([type, values]) => [type, [...values].sort((a, b) => a.localeCompare(b))]));
    json(res, 200, { data });
  });
}

/** The parent's collection order (`content.order.by/dir` in its header), when it sets one. */
function collectionOrder(parent: LoadedPage | null): { field: Exclude<SortField, 'default'>; dir: 'asc' | 'desc' } | null {
  if (!parent) return null;
  const admin = parent.header.admin;
  if (isObject(admin) && admin.children_display_order !== undefined && admin.children_display_order !== 'collection') return null;
  const content = parent.header.content;
  const order = isObject(content) ? content.order : undefined;
  const by = isObject(order) ? order.by : undefined;
  if (typeof by !== 'string' || by === '') return null;
  const field = ({ title: 'title', date: 'date', modified: 'modified', timestamp: 'modified', slug: 'slug', basename: 'slug' } as const)[by as 'title'] ?? 'order';
  const dir = isObject(order) && String(order.dir).toLowerCase() === 'desc' ? 'desc' : 'asc';
  return { field, dir };
}

/** Sorts in place, stable: ties keep the incoming (native) order in either direction. */
function sortRows(rows: LoadedPage[], field: Exclude<SortField, 'default'>, dir: 'asc' | 'desc'): void {
  const key = (p: LoadedPage): number | string => {
    switch (field) {
      case 'date':
        return dateMs(p);
      case 'modified':
        return p.mtimeMs;
      case 'title':
        return titleOf(p).toLowerCase();
      case 'slug':
        return p.node.slug;
      case 'order':
        return p.node.order ?? Number.MAX_SAFE_INTEGER;
    }
  };
  const keyed = rows.map((p, i) => ({ p, i, k: key(p) }));
  keyed.sort((a, b) => {
    const c = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return (dir === 'desc' ? -c : c) || a.i - b.i;
  });
  keyed.forEach((x, i) => (rows[i] = x.p));
}
