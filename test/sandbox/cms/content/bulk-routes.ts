/**
 * POST /pages/batch and POST /pages/reorganize (spec section 4 "Pages", limit from section 8: at
 * most `settings.batchMax` routes or operations, default 50). Every bad request is a 400 problem,
 * as the spec lists them (the real service uses 422 for most of these).
 *
 * The real flavour follows getgrav/grav-plugin-api:classes/Api/Controllers/PagesController.php
 * batch() and reorganize(): every bad request is a 422 (real-wire.ts turns them), the answers
 * carry `X-Invalidates` (`pages:list` first, then one tag per page done: `pages:update:`,
 * `pages:delete:` or `pages:create:` for a batch, `pages:move:` for a reorganize), and reorganize
 * names each child by its public route and its folder prefix (`"01."` or false).
 */
import { HttpProblem, json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { invalidates } from '../real-wire';
import { isObject } from './common';
import { titleOf, tryLoad } from './serialize';
import { realOrder } from './serialize-real';
import { folderName, inSubtree, normalizeRoute, parentRoute, type PageNode } from './page-files';

const OPERATIONS = ['publish', 'unpublish', 'delete', 'copy'] as const;
type Operation = (typeof OPERATIONS)[number];

const bad = (detail: string, extra: Record<string, unknown> = {}) => new HttpProblem(400, 'Bad Request', detail, extra);

interface BatchResult {
  route: string;
  status: 'success' | 'error';
  message?: string;
}

/** A planned reorganize step, validated before anything moves. */
interface Step {
  index: number;
  route: string;
  node: PageNode;
  slug: string;
  oldDir: string;
  currentParent: string;
  newParent: string;
  newParentDir: string;
  position: number | null;
  moves: boolean;
  tempDir?: string;
  finalDir?: string;
}

export function registerBulkRoutes(router: Router, ctx: CmsContext): void {
  const store = ctx.content;
  const real = ctx.flavor === 'real';
  /** the real service's X-Invalidates: the list first, then a tag per page */
  const tagged = (tags: string[]) => (real ? invalidates(['pages:list', ...tags]) : {});

  router.on('POST', '/pages/batch', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.pages.write');
    const body = await readBody(req);
    const operation = body.operation;
    if (typeof operation !== 'string' || !OPERATIONS.includes(operation as Operation)) {
      throw bad(`Invalid operation '${String(operation ?? '')}'. Allowed: ${OPERATIONS.join(', ')}`, { errors: [{ field: 'operation', message: 'Unknown or missing operation.' }] });
    }
    const routes = body.routes;
    if (!Array.isArray(routes) || routes.length === 0 || routes.some((r) => typeof r !== 'string')) {
      throw bad("The 'routes' field must be a non-empty array of routes.", { errors: [{ field: 'routes', message: 'A non-empty array of routes is required.' }] });
    }
    const max = ctx.settings.batchMax;
    if (routes.length > max) throw bad(`Batch operations are limited to ${max} items.`, { limit: max });
    const options = isObject(body.options) ? body.options : {};

    // every route must exist before anything is done (the same route twice counts once)
    const pages = new Map<string, PageNode>();
    for (const raw of routes as string[]) {
      const route = normalizeRoute(raw);
      const node = store.find(route);
      if (!node) throw bad(`Page not found at route: ${route}`);
      pages.set(route, node);
    }

    const results: BatchResult[] = [];
    for (const [route, node] of pages) {
      try {
        runBatchStep(operation as Operation, route, node, options);
        results.push({ route, status: 'success' });
      } catch (err) {
        results.push({ route, status: 'error', message: err instanceof Error ? err.message : String(err) });
      }
    }
    const successful = results.filter((r) => r.status === 'success').length;
    const kind = operation === 'delete' ? 'delete' : operation === 'copy' ? 'create' : 'update';
    const tags = results.filter((r) => r.status === 'success').map((r) => `pages:${kind}:${r.route}`);
    json(res, 200, { data: { operation, results, total: results.length, successful, failed: results.length - successful } }, tagged(tags));
  });

  router.on('POST', '/pages/reorganize', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.pages.write');
    const body = await readBody(req);
    const operations = body.operations;
    if (!Array.isArray(operations) || operations.length === 0) throw bad("The 'operations' field must be a non-empty array.");
    const max = ctx.settings.batchMax;
    if (operations.length > max) throw bad(`Reorganize operations are limited to ${max} items.`, { limit: max });

    // ---- phase 1: validate everything; nothing on disk changes before this loop ends
    const tree = store.tree();
    const steps: Step[] = [];
    const affected = new Set<string>();
    operations.forEach((op: unknown, index) => {
      if (!isObject(op) || typeof op.route !== 'string') throw bad(`Operation at index ${index} must have a 'route' field.`);
      const route = normalizeRoute(op.route);
      if (steps.some((s) => s.route === route)) throw bad(`Duplicate route '${route}' in operations.`);
      const node = tree.byRoute.get(route);
      if (!node || !node.files.length) throw bad(`Page not found at route: ${route}`);
      const currentParent = parentRoute(route);
      let newParent = currentParent;
      let newParentNode: PageNode | undefined = node.parent ?? tree.root;
      if (op.parent !== undefined && op.parent !== null) {
        if (typeof op.parent !== 'string') throw bad(`Operation index ${index}: 'parent' must be a route.`);
        newParent = normalizeRoute(op.parent);
        if (inSubtree(newParent, route)) throw bad(`Cannot move '${route}' into its own subtree '${newParent}'.`);
        newParentNode = newParent === '/' ? tree.root : tree.byRoute.get(newParent);
        if (!newParentNode || (newParent !== '/' && !newParentNode.files.length)) throw bad(`Destination parent not found at route: ${newParent} (operation index ${index}).`);
      }
      let position: number | null = null;
      if (op.position !== undefined && op.position !== null) {
        if (!Number.isInteger(op.position) || (op.position as number) < 0) throw bad(`Operation index ${index}: 'position' must be a non-negative integer.`);
        position = op.position as number;
        const clash = steps.find((s) => s.newParent === newParent && s.position === position);
        if (clash) throw bad(`Position conflict: both '${clash.route}' and '${route}' target position ${position} under '${newParent}'.`);
      }
      const moves = newParent !== currentParent || (position !== null && position !== node.order);
      steps.push({ index, route, node, slug: node.slug.replace(/^\.+/, ''), oldDir: node.dir, currentParent, newParent, newParentDir: newParentNode!.dir, position, moves });
      affected.add(currentParent).add(newParent);
    });
    // a destination parent (or one of its ancestors) that moves in the same batch would leave the
    // step pointing at a folder that is gone by then
    const moving = new Set(steps.filter((s) => s.moves).map((s) => s.route));
    for (const s of steps) {
      for (let check = s.newParent; check !== '/'; check = parentRoute(check)) {
        if (moving.has(check)) throw bad(`Operation index ${s.index} targets parent '${s.newParent}', but '${check}' is also being moved in the same batch. Reorganize the parent first, or drop one of the ops.`);
      }
    }
    // no two pages may end up with the same slug under one parent
    for (const s of steps.filter((x) => x.newParent !== x.currentParent)) {
      const target = s.newParent === '/' ? tree.root : tree.byRoute.get(s.newParent)!;
      const stays = target.children.filter((c) => c.slug === s.slug && !steps.some((o) => o.node === c && o.newParent !== s.newParent));
      const arrives = steps.filter((o) => o !== s && o.newParent === s.newParent && o.slug === s.slug);
      if (stays.length || arrives.length) throw bad(`A page with slug '${s.slug}' already exists under '${s.newParent}'.`);
    }

    ctx.events.record('onApiBeforePagesReorganize', { operations: steps.map(describe) });

    // ---- phases 2 and 3: every page to a temporary name in its destination, then to its final
    // name; on any failure the completed renames are undone, newest first (best effort)
    const done: { from: string; to: string }[] = [];
    try {
      for (const s of steps) {
        s.tempDir = `${s.newParentDir}/_reorg_temp_${s.index}_${s.slug}`;
        store.moveFolder(s.oldDir, s.tempDir);
        done.push({ from: s.oldDir, to: s.tempDir });
      }
      for (const s of steps) {
        // an omitted position keeps the page's current prefix (OpenAPI: "Omit to keep the current order value")
        s.finalDir = `${s.newParentDir}/${folderName(s.slug, s.position ?? s.node.order, 2)}`;
        store.moveFolder(s.tempDir!, s.finalDir);
        done.push({ from: s.tempDir!, to: s.finalDir });
      }
    } catch (err) {
      for (const r of done.reverse()) {
        try {
          store.moveFolder(r.to, r.from);
        } catch {
          /* can't recover further */
        }
      }
      throw bad(`Reorganize failed during filesystem operations: ${err instanceof Error ? err.message : String(err)}`);
    }

    ctx.events.record('onApiPagesReorganized', { operations: steps.map(describe) });

    // every child of every affected parent, in native order
    const after = store.tree();
    const data: Record<string, unknown>[] = [];
    for (const parent of affected) {
      const node = parent === '/' ? after.root : after.byRoute.get(parent);
      if (!node) continue;
      for (const child of node.children.filter((c) => c.files.length)) {
        const p = tryLoad(store, child);
        data.push({ route: real ? store.publicRoute(child) : child.route, slug: child.slug, title: p ? titleOf(p) : child.slug, order: real ? realOrder(child) : child.order, parent });
      }
    }
    json(res, 200, { data }, tagged(steps.map((s) => `pages:move:${s.route}`)));
  });

  /** One batch step; throws with the message the result row carries. */
  function runBatchStep(op: Operation, route: string, node: PageNode, options: Record<string, unknown>): void {
    const current = store.find(route);
    if (!current || current.dir !== node.dir) throw new Error(`Page not found at route: ${route}`);
    if (op === 'delete') {
      store.removeFolder(current.dir);
      return;
    }
    if (op === 'publish' || op === 'unpublish') {
      const p = tryLoad(store, current);
      if (!p) throw new Error(`Page not found at route: ${route}`);
      if (p.broken !== undefined) throw new Error(`Invalid front matter: ${p.broken}`);
      store.writePage(current.dir, p.file.name, { ...p.header, published: op === 'publish' }, p.content);
      return;
    }
    // copy: next to the original (or under options.destination / options.parent) as `<slug><suffix>`
    const destParent = normalizeRoute(String(options.destination ?? options.parent ?? parentRoute(route)));
    const suffix = typeof options.suffix === 'string' ? options.suffix : '-copy';
    const slug = current.slug + suffix;
    const parent = store.folderAt(destParent, 1);
    if (!parent || (destParent !== '/' && !parent.files.length)) throw new Error(`Destination parent not found: ${destParent}`);
    if (inSubtree(destParent, route)) throw new Error(`Cannot copy '${route}' into itself.`);
    if (parent.children.some((c) => c.slug === slug)) throw new Error(`A page already exists at the copy destination for: ${route}`);
    store.copyFolder(current.dir, `${parent.dir}/${slug}`);
  }
}

function describe(s: Step) {
  return { route: s.route, parent: s.newParent, position: s.position, from_parent: s.currentParent };
}
