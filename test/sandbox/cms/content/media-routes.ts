/**
 * Page media (spec section 4 "Media", the page rows): list with the filter grammar (filters.ts),
 * upload, delete. The spec leaves methods and codes of these endpoints "not shown"; they follow the
 * OpenAPI description and the real service:
 *
 *   GET    /pages/{route}/media             200 {data: [media items]} (not paged); 400 bad filter/sort; 404
 *   POST   /pages/{route}/media             multipart, every file part (field `file`, `files[]`, …);
 *                                           201 {data: all media of the page} + Location; 404;
 *                                           422 no file, a dangerous extension or none, a bad name,
 *                                           a file over `settings.uploadMax`; 413 a body far beyond it
 *   DELETE /pages/{route}/media/{filename}  204 (the file, its `@2x` variants, their sidecars); 404; 422 bad name
 *
 * A same-name upload overwrites the file, unless the form carries `avoid_overwriting=true`: then the
 * new file is saved as `YYYYMMDDHHMMSS-<name>` (the real service's field setting).
 *
 * The real flavour follows getgrav/grav-plugin-api:classes/Api/Controllers/MediaController.php
 * where it differs: a missing page is "Page '/{route}' not found.", every refusal a 422
 * (real-wire.ts), uploads and deletes carry `X-Invalidates` (`media:update:pages/{route}`,
 * `pages:update:/{route}`, a delete `media:delete:pages/{route}/{file}` first), the upload's
 * Location is `/pages/{route}/media` unencoded.
 */
import { fieldProblem, HttpProblem, json, type Router } from '../../http';
import { readMultipart } from '../../multipart';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { checkUploadName, DANGEROUS_EXTENSIONS, formatSize } from '../upload-names';
import { invalidates, rawHeader } from '../real-wire';
import { pageLocation, requirePage } from './common';
import { applyMediaQuery, parseMediaQuery } from './filters';
import { mediaItem, mimeOf, pageRef, tryLoad } from './serialize';

const unprocessable = (detail: string, field = 'file') => fieldProblem(422, detail, [{ field, message: detail }]);

/** A client file name made safe, or a 422; a markdown name is refused too. */
function checkPageUploadName(raw: string): string {
  return checkUploadName(raw, {
    dangerous: DANGEROUS_EXTENSIONS,
    fail: (detail) => unprocessable(detail),
    // a markdown file in a page folder is a page file, not a medium: refused rather than let it
    // replace or add a language of the page (the real service would accept it)
    refuse: (name) => (name.toLowerCase().endsWith('.md') ? `'${name}' would become a page file; markdown files cannot be uploaded as media.` : null),
  });
}

/** A media file name from the path: one plain name (no separators or traversal), else 422. */
function safeFilename(name: string): string {
  if (name === '' || /[/\\]/.test(name) || name.includes('..') || name.includes('\0') || name.startsWith('.')) {
    throw fieldProblem(422, 'Invalid filename.', [{ field: 'filename', message: 'Invalid filename.' }]);
  }
  return name;
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);

export function registerMediaRoutes(router: Router, ctx: CmsContext): void {
  const store = ctx.content;
  const real = ctx.flavor === 'real';
  /** the page of a media route, or the flavour's 404 */
  const pageOf = (route: string) => {
    if (!real) return requirePage(ctx, route);
    const node = store.find(route);
    if (!node) throw new HttpProblem(404, 'Not Found', `Page '/${route}' not found.`);
    return node;
  };

  router.on('GET', '/pages/{route+}/media', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.media.read');
    const node = pageOf(params.route!);
    const query = parseMediaQuery(url);
    const files = store.media(node).map((m) => ({ m, filename: m.name, size: m.size, modified: m.mtimeMs, meta: m.meta }));
    const picked = query.clauses.length || query.sort ? applyMediaQuery(files, query) : files;
    json(res, 200, { data: picked.map((f) => mediaItem(store, node, f.m)) });
  });

  router.on('POST', '/pages/{route+}/media', async (req, res, params, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const node = pageOf(params.route!);
    const max = ctx.settings.uploadMax;
    // a body far beyond the per-file limit is refused while reading (413); a file over the limit
    // inside an acceptable body is the documented 422
    const form = await readMultipart(req, max * 4 + 1024 * 1024);
    if (form.files.length === 0) throw unprocessable('No files were uploaded.');
    const avoidOverwriting = ['1', 'true', 'yes', 'on'].includes((form.fields.avoid_overwriting ?? '').toLowerCase());
    // validate every file first, so a refused file leaves nothing half-uploaded
    const planned = form.files.map((f) => {
      if (f.data.length > max) throw unprocessable(`File exceeds maximum allowed size of ${formatSize(max)}.`);
      let name = checkPageUploadName(f.filename);
      if (avoidOverwriting && node.media.includes(name)) name = `${stamp(ctx.clock.now())}-${name}`;
      return { f, name };
    });
    const page = pageRef(tryLoad(store, node));
    const names: string[] = [];
    for (const { f, name } of planned) {
      ctx.events.record('onApiBeforeMediaUpload', { page, filename: f.filename, type: f.type ?? mimeOf(f.filename), size: f.data.length });
      store.writeFile(`${node.dir}/${name}`, f.data);
      names.push(name);
    }
    ctx.events.record('onApiMediaUploaded', { page, filenames: names });
    const fresh = requirePage(ctx, node.route);
    const headers = real
      ? { Location: rawHeader(`${ctx.prefix}/pages/${params.route}/media`), ...invalidates([`media:update:pages/${params.route}`, `pages:update:/${params.route}`]) }
      : { Location: pageLocation(ctx.prefix, node.route, '/media') };
    json(res, 201, { data: store.media(fresh).map((m) => mediaItem(store, fresh, m)) }, headers);
  });

  router.on('DELETE', '/pages/{route+}/media/{filename}', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const node = pageOf(params.route!);
    const filename = safeFilename(params.filename!);
    const isMedium = !filename.toLowerCase().endsWith('.md') && !filename.endsWith('.meta.yaml');
    const targets = isMedium ? store.mediaVariants(node, filename) : [];
    if (!targets.length) throw new HttpProblem(404, 'Not Found', `Media file '${filename}' not found on this page.`);
    const page = pageRef(tryLoad(store, node));
    ctx.events.record('onApiBeforeMediaDelete', { page, filename });
    for (const t of targets) store.removeFile(t);
    ctx.events.record('onApiMediaDeleted', { page, filename });
    const route = params.route!;
    res.writeHead(204, real ? invalidates([`media:delete:pages/${route}/${filename}`, `media:update:pages/${route}`, `pages:update:/${route}`]) : {}).end();
  });
}
