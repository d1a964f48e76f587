/**
 * Pages (spec section 4 "Pages"): list, read, create, update, delete, move, reorder, copy, and
 * GET /taxonomy. Status codes as the spec's table lists them; where the spec says "not shown" the
 * OpenAPI description and the real service decide, noted next to the code.
 *
 * What the real flavour answers differently (page JSON, listing, conditional requests, write
 * headers) comes from page-wire.ts; beyond that it follows
 * getgrav/grav-plugin-api:classes/Api/Controllers/PagesController.php here: a PATCH answers with
 * the page object it loaded before writing, so its `date` (without a header date) and `modified`
 * are those of before the write (recording 14: the ETag of that reply is not the next read's);
 * GET /taxonomy lists the terms of published pages as PHP array keys, so a numeric term is a
 * JSON number (taxonomy(), recording 41), in the order the pages first use them.
 *
 * Routes go in the URL without a leading slash, each segment percent-encoded
 * (`/pages/about/our%20team`); the Router hands them over decoded.
 */
import type { ServerResponse } from 'node:http';
import { header, HttpProblem, json, readBody, requireFields, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { boolText, checkLanguage, flagParam, invalid, isObject, langParam, mergeHeader, requirePage } from './common';
import { etagMatches, etagOf } from './etag';
import { SORTS, type SortField } from './list-spec';
import { paged, pagingOf } from './paging';
import { pageWire } from './page-wire';
import { loadPage, pageRef, taxonomyOf, titleOf, tryLoad, type LoadedPage } from './serialize';
import { realLoad, realOrder, realPublished, realRequireLoad, realSerializer, realTaxonomy, realTimes } from './serialize-real';
import { folderName, inSubtree, normalizeRoute, parentRoute, routeBasename, slugProblem, type PageFiles, type ContentTree } from './page-files';

const READ = 'api.pages.read';
const WRITE = 'api.pages.write';

function sendPage(res: ServerResponse, status: number, data: Record<string, unknown>, headers: Record<string, string> = {}) {
  json(res, status, { data }, { 'Cache-Control': 'no-store, max-age=0', ...headers });
}

export function registerPageRoutes(router: Router, ctx: CmsContext): void {
  const store = ctx.content;
  const events = ctx.events;
  const real = ctx.flavor === 'real';
  const wire = pageWire(ctx.flavor);
  const ser = wire.serializer;
  /** the plain read: what GET answers without options, and what PATCH's If-Match is checked against */
  const plain = (p: LoadedPage) => ser.page(store, p);
  let listMemo: { tree: ContentTree; key: string; rows: LoadedPage[] } | null = null;

  // ------------------------------------------------------------------------------------------
  // GET /pages

  router.on('GET', '/pages', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    const lang = langParam(ctx, url, 400);
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const q = url.searchParams;
    const sortParam = q.get('sort');
    if (sortParam !== null && sortParam !== '' && !SORTS.includes(sortParam as SortField)) {
      // the spec lists no 400 here; the real service answers 422 (OpenAPI: ValidationError)
      throw invalid(422, 'sort', `Invalid sort field '${sortParam}'. Allowed: ${SORTS.join(', ')}`);
    }
    const translations = flagParam(url, 'translations');

    const tree = store.tree();
    // under pages.check_method 'none' the scan is trusted until a write, and so is a query's
    // filtered, sorted list: paging through 10,000 pages does not sort them again for each page
    const memoKey = `${lang}|${[...q].filter(([k]) => k !== 'page' && k !== 'per_page' && k !== 'locate').map(([k, v]) => `${k}=${v}`).join('&')}`;
    const memo = store.checkMethod === 'none' && listMemo?.tree === tree && listMemo.key === memoKey ? listMemo.rows : null;
    let rows: LoadedPage[] = [];
    if (!memo) {
      for (const node of tree.pages) {
        const p = ser.load(store, node, lang);
        if (p) rows.push(p);
      }
      rows = wire.select(store, tree, rows, q, lang);
    }
    if (memo) rows = memo;
    else if (store.checkMethod === 'none') listMemo = { tree, key: memoKey, rows };

    let pageNo = page;
    const extra: Record<string, unknown> = {};
    const locate = q.get('locate');
    if (locate) {
      // the real service's `locate`: answer the chunk holding that route
      const idx = wire.locate(store, rows, locate);
      if (idx >= 0) {
        pageNo = Math.floor(idx / perPage) + 1;
        extra.located_at_index = idx;
      }
    }
    const slice = rows.slice((pageNo - 1) * perPage, pageNo * perPage);
    json(res, 200, paged(ctx.flavor, ctx.prefix, '/pages', slice.map((p) => ser.row(store, p, translations)), rows.length, pageNo, perPage, extra));
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
    sendPage(res, 201, plain(created), { Location: wire.location(ctx.prefix, route), ...wire.writeHeaders([['create', route]]) });
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
    const data = plain(moved);
    sendPage(res, 200, data, { ETag: etagOf(data), ...wire.writeHeaders([['move', `/${params.route}`], ['update', newRoute]]) });
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
      // the real service names each child by its public route and its folder prefix ("01.")
      return { route: real ? store.publicRoute(c) : c.route, slug: c.slug, title: p ? titleOf(p) : c.slug, order: real ? realOrder(c) : c.order };
    });
    json(res, 200, { data }, wire.writeHeaders([['reorder', `/${params.route}`]]));
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
    sendPage(res, 201, plain(copy), { Location: wire.location(ctx.prefix, dest), ...wire.writeHeaders([['create', dest]]) });
  });

  // ------------------------------------------------------------------------------------------
  // GET / PATCH / DELETE /pages/{route}

  router.on('GET', '/pages/{route+}', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const lang = langParam(ctx, url, 400);
    const childrenDepth = flagParam(url, 'children') ? Math.max(1, Math.trunc(Number(url.searchParams.get('children_depth') ?? 1)) || 1) : 0;
    const node = requirePage(ctx, params.route!, childrenDepth + 1);
    // the real service reads a page the language lacks through its content fallback
    const p = real ? realRequireLoad(store, node, lang) : loadPage(store, node, lang);
    const summarySize = Number(url.searchParams.get('summary_size'));
    const data = ser.page(store, p, {
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
    if (wire.notModified && etagMatches(header(req, 'if-none-match'), etag)) {
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
    if (ifMatch && !wire.ifMatch(ifMatch, etagOf(plain(p)))) {
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
    const loadedTimes = realTimes(store, p);
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
    // the real service answers with the page object it loaded before the write (recording 14)
    const data = real ? realSerializer.pageWithTimes(store, updated, loadedTimes) : plain(updated);
    sendPage(res, 200, data, { ETag: etagOf(data), ...wire.writeHeaders([['update', `/${params.route}`]]) });
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
      if (!file) throw new HttpProblem(404, 'Not Found', `No translation found for language '${lang}' at route: ${real ? store.publicRoute(node) : node.route}`);
      events.record('onApiBeforePageDelete', { page: pageRef(p), lang });
      // the only translation left: the whole page goes (as the real service does)
      if (Object.keys(translated).length <= 1) store.removeFolder(node.dir);
      else store.removeFile(`${node.dir}/${file}`);
      events.record('onApiPageDeleted', { route: node.route, lang });
      res.writeHead(204, wire.writeHeaders([['delete', `/${params.route}`]])).end();
      return;
    }
    const children = url.searchParams.get('children');
    if (children !== null && !boolText(children) && store.pageChildren(node).length > 0) {
      throw invalid(422, 'children', 'This page has children. Use ?children=true to confirm deletion of the page and all its children.');
    }
    events.record('onApiBeforePageDelete', { page: pageRef(p), lang: null });
    store.removeFolder(node.dir);
    events.record('onApiPageDeleted', { route: node.route, lang: null });
    res.writeHead(204, wire.writeHeaders([['delete', `/${params.route}`]])).end();
  });

  // ------------------------------------------------------------------------------------------
  // GET /taxonomy

  router.on('GET', '/taxonomy', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    if (real) {
      json(res, 200, { data: realTaxonomyTerms(store) });
      return;
    }
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

/**
 * GET /taxonomy as the real service answers it: every declared type, then the terms of published
 * pages (read in the default language) in the order pages first use them, each a PHP array key,
 * so a canonical integer such as 2024 arrives as a JSON number.
 */
function realTaxonomyTerms(store: PageFiles): Record<string, (string | number)[]> {
  const found = new Map<string, Map<string, string | number>>(store.site.taxonomies.map((t) => [t, new Map()]));
  for (const node of store.tree().pages) {
    const p = realLoad(store, node);
    if (!p || p.broken !== undefined || !realPublished(p)) continue;
    const taxonomy = realTaxonomy(p.header);
    if (!isObject(taxonomy)) continue;
    for (const [type, terms] of found) {
      const values = taxonomy[type];
      for (const v of Array.isArray(values) ? values : values === undefined ? [] : [values]) {
        const term = String(v);
        if (!terms.has(term)) terms.set(term, phpArrayKey(term));
      }
    }
  }
  return Object.fromEntries([...found].map(([type, terms]) => [type, [...terms.values()]]));
}

/** A PHP array key: a canonical decimal integer string becomes an integer. */
function phpArrayKey(term: string): string | number {
  return /^(0|-?[1-9]\d{0,17})$/.test(term) ? Number(term) : term;
}
