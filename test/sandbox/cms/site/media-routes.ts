/**
 * The site media library (document 1, "Media", the site rows). The document leaves methods and
 * codes "not shown", so both flavours follow getgrav/grav-plugin-api:MediaController.php
 * (recordings 40 and 75):
 *
 *   GET    /media                 api.media.read; page, per_page (≤ 100; real ≤ 1000), path, search (recursive,
 *                                 by file name), type (image|video|audio|document), filter/sort on
 *                                 the sidecar metadata (as page media; not with search) → paged
 *                                 files + meta {path, folders[, search]}; a missing path lists nothing
 *   POST   /media?path=           api.media.write; multipart, one or more files (any field), the
 *                                 folder created when absent, a file field's settings (random_name,
 *                                 avoid_overwriting, accept, filesize; upload-settings.ts) → 201
 *                                 {data: [items]}; 422 no file, a bad, dangerous or unaccepted name,
 *                                 a file over `settings.uploadMax` (64 MB) or the field's filesize
 *   DELETE /media/{path}          api.media.write; the file and its sidecar → 204; 404; 422 bad path
 *   POST   /media/folders         {path} (parents created) → 201 {name, path, children_count,
 *                                 file_count}; 422 missing, bad or existing
 *   DELETE /media/folders/{path}  → 204; 404; 422 not empty
 *   POST   /media/rename          {from, to}: a file renamed or moved (destination folder created,
 *                                 sidecar follows, the source's extension kept, the name cleaned)
 *                                 → 200 {data: item}; 404 no source; 422 missing, bad, taken
 *   POST   /media/folders/rename  {from, to} → 200 {name, path, children_count: 0, file_count: 0};
 *                                 404; 422 destination taken or not creatable
 *   GET    /thumbnails/{file}     a thumbnail made when an image was listed → the image; 404 while
 *                                 cold (real: public; spec: needs a credential like every route
 *                                 outside its public list)
 *
 * Every refusal is the real service's ValidationException (422 in both flavours; the path checks
 * name the path). The real flavour adds `X-Invalidates` on writes and `meta.ordered` to listings.
 * Uploads check the site's `security.uploads_dangerous_extensions` (every dotted part of the name).
 */
import type { ServerResponse } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { HttpProblem, json, readBody, type Router } from '../../http';
import { readMultipart } from '../../multipart';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { applyMediaQuery, parseMediaQuery } from '../content/filters';
import { paged, pagingOf } from '../content/paging';
import { mimeOf } from '../content/serialize';
import { invalidates } from '../real-wire';
import { checkUploadName, formatSize } from '../upload-names';
import { scopeInfo } from './config-store';
import { checkAccepted, checkFilesize, finalName, uploadSettings } from './upload-settings';

const unprocessable = (detail: string) => new HttpProblem(422, 'Unprocessable Entity', detail);

/** validateRelativePath(): '' for the root; a traversing, empty, dot or hidden segment is a 422. */
export function relativePath(raw: string, message = (p: string) => `Invalid path: '${p}'.`): string {
  const path = raw.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  if (path === '') return '';
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.' || seg === '..' || seg.includes('\0') || seg.startsWith('.')) throw unprocessable(message(path));
  }
  return path;
}

const parentOf = (rel: string) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
const baseOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

/** sanitizeMediaFilename(): a clean stem (spaces to dashes, odd characters dropped) plus the source's extension. */
export function cleanName(requested: string, extension: string): string {
  const dot = requested.lastIndexOf('.');
  let stem = dot > 0 ? requested.slice(0, dot) : requested;
  stem = stem.trim().replace(/\s+/gu, '-').replace(/[^\p{L}\p{N}._-]+/gu, '').replace(/-{2,}/g, '-').replace(/^[-_.]+|[-_.]+$/g, '');
  if (stem === '') throw unprocessable('The new name must contain at least one letter or number.');
  return extension !== '' ? `${stem}.${extension}` : stem;
}

/** PHP's urlencode(), for the new folder's Location. */
const urlencode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function registerSiteMediaRoutes(router: Router, ctx: CmsContext): void {
  const real = ctx.flavor === 'real';
  const lib = () => ctx.site.media.ready();
  const apiBase = ctx.prefix;
  const inv = (tags: string[]) => (real ? invalidates(tags) : {});

  router.on('GET', '/media', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.media.read');
    const q = url.searchParams;
    const rel = q.get('path') ? relativePath(q.get('path')!) : '';
    const hasMetaQuery = q.has('filter') || q.has('filter[]') || (q.get('sort') ?? '') !== '';
    const search = q.get('search') ?? '';
    if (search !== '' && hasMetaQuery) throw unprocessable('search cannot be combined with filter or sort.');
    const type = q.get('type') || null;
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const media = lib();
    const envelope = (items: Record<string, unknown>[], total: number, p: number, pp: number, meta: Record<string, unknown>) => {
      const body = paged(ctx.flavor, ctx.prefix, '/media', items, total, p, pp) as { meta: Record<string, unknown> };
      body.meta = { ...body.meta, ...meta };
      return body;
    };

    if (search !== '') {
      const matches = media.search(search).filter((m) => media.ofType(m.dir, m.name, type));
      const items = matches.slice((page - 1) * perPage, page * perPage).map((m) => media.item(m.dir, m.name, apiBase));
      json(res, 200, envelope(items, matches.length, page, perPage, { path: '', folders: [], search }));
      return;
    }
    if (!media.isDir(rel)) {
      // the real service answers a missing folder as an empty first page of 20
      json(res, 200, envelope([], 0, 1, 20, { path: rel, folders: [] }));
      return;
    }
    const { files: all, folders } = media.scan(rel);
    let files = all;
    if (hasMetaQuery) {
      const query = parseMediaQuery(url);
      const picked = applyMediaQuery(files.map((f) => media.filterable(rel, f)), query).map((f) => f.filename);
      if (query.sort) files = picked;
      else {
        const keep = new Set(picked);
        files = files.filter((f) => keep.has(f));
      }
    }
    files = files.filter((f) => media.ofType(rel, f, type));
    const items = files.slice((page - 1) * perPage, page * perPage).map((f) => media.item(rel, f, apiBase));
    json(res, 200, envelope(items, files.length, page, perPage, { path: rel, folders, ...(real ? { ordered: false } : {}) }));
  });

  router.on('POST', '/media', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const rel = url.searchParams.get('path') ? relativePath(url.searchParams.get('path')!) : '';
    const media = lib();
    if (fileOnTheWay(ctx, rel)) throw unprocessable('Unable to create upload directory.');
    const max = ctx.settings.uploadMax;
    const form = await readMultipart(req, max * 4 + 1024 * 1024);
    if (!form.files.length) throw unprocessable('No files were uploaded.');
    const settings = uploadSettings(form.fields);
    const dangerous = dangerousExtensions(ctx);
    const taken = new Set<string>();
    // every file is checked before any is written, so a refused one leaves nothing half-done
    const planned = form.files.map((f) => {
      if (f.data.length > max) throw unprocessable(`File exceeds maximum allowed size of ${formatSize(max)}.`);
      checkFilesize(settings, f.data.length);
      const name = checkUploadName(f.filename, { dangerous, fail: unprocessable, empty: 'Filename is required.' });
      checkAccepted(settings, name);
      const saved = finalName(settings, name, (n) => taken.has(n) || media.exists(rel ? `${rel}/${n}` : n), ctx.clock.now());
      taken.add(saved);
      return { data: f.data, name: saved };
    });
    for (const { data, name } of planned) media.write(rel, name, data);
    const created = planned.map(({ name }) => media.item(rel, name, apiBase));
    json(res, 201, { data: created }, { Location: `${ctx.prefix}/media`, ...inv([`media:update:${rel || '/'}`, 'media:list']) });
  });

  router.on('POST', '/media/folders', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const body = await readBody(req);
    if (typeof body.path !== 'string' || body.path === '') throw unprocessable('Folder path is required.');
    const rel = relativePath(body.path);
    const media = lib();
    if (rel === '' || media.isDir(rel)) throw unprocessable('Folder already exists.');
    if (media.exists(rel) || fileOnTheWay(ctx, rel)) throw unprocessable('Unable to create folder.');
    media.mkdir(rel);
    json(
      res,
      201,
      { data: { name: baseOf(rel), path: rel, children_count: 0, file_count: 0 } },
      { Location: `${ctx.prefix}/media?path=${urlencode(rel)}`, ...inv([`media:create:${rel}`, 'media:list']) },
    );
  });

  router.on('POST', '/media/folders/rename', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const body = await readBody(req);
    if (!nonEmpty(body.from) || !nonEmpty(body.to)) throw unprocessable("Both 'from' and 'to' paths are required.");
    const from = relativePath(body.from);
    const to = relativePath(body.to);
    const media = lib();
    if (from === '' || !media.isDir(from)) throw new HttpProblem(404, 'Not Found', 'Source folder not found.');
    if (to === '' || media.exists(to)) throw unprocessable('A folder already exists at the destination.');
    // rename() needs the destination's parent, and cannot move a folder into itself
    if (!media.isDir(parentOf(to)) || to.startsWith(`${from}/`)) throw unprocessable('Unable to rename folder.');
    media.moveFolder(from, to);
    json(res, 200, { data: { name: baseOf(to), path: to, children_count: 0, file_count: 0 } }, inv([`media:delete:${from}`, `media:create:${to}`, 'media:list']));
  });

  router.on('DELETE', '/media/folders/{path+}', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const rel = relativePath(params.path!);
    if (rel === '') throw unprocessable('Folder path is required.');
    const media = lib();
    if (!media.isDir(rel)) throw new HttpProblem(404, 'Not Found', 'Folder not found.');
    if (!media.isEmptyDir(rel)) throw unprocessable('Folder is not empty. Delete all files first.');
    media.rmdir(rel);
    res.writeHead(204, inv([`media:delete:${rel}`, 'media:list'])).end();
  });

  router.on('POST', '/media/rename', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const body = await readBody(req);
    if (!nonEmpty(body.from) || !nonEmpty(body.to)) throw unprocessable("Both 'from' and 'to' paths are required.");
    const from = relativePath(body.from);
    const name = baseOf(from);
    const ext = name.lastIndexOf('.') > 0 ? name.slice(name.lastIndexOf('.') + 1) : '';
    const rawTo = body.to.replace(/\\/g, '/');
    const toDir = rawTo.includes('/') ? rawTo.slice(0, rawTo.lastIndexOf('/')).replace(/^[/.]+|[/.]+$/g, '') : '';
    const toName = cleanName(baseOf(rawTo), ext);
    const to = relativePath(toDir ? `${toDir}/${toName}` : toName);
    const media = lib();
    if (from === '' || !media.isFile(from)) throw new HttpProblem(404, 'Not Found', 'Source file not found.');
    if (from === to) {
      json(res, 200, { data: media.item(parentOf(to), baseOf(to), apiBase) });
      return;
    }
    if (media.exists(to)) throw unprocessable('A file already exists at the destination.');
    if (fileOnTheWay(ctx, parentOf(to))) throw unprocessable('Unable to create destination directory.');
    media.moveFile(from, to);
    json(res, 200, { data: media.item(parentOf(to), baseOf(to), apiBase) }, inv([`media:delete:${from}`, `media:create:${to}`, 'media:list']));
  });

  router.on('DELETE', '/media/{filename+}', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.media.write');
    const rel = relativePath(params.filename!, () => 'Invalid filename.');
    if (rel === '') throw unprocessable('Filename is required.');
    const media = lib();
    if (!media.isFile(rel)) throw new HttpProblem(404, 'Not Found', 'Media file not found.');
    media.remove(rel);
    res.writeHead(204, inv([`media:delete:${rel}`, `media:update:${parentOf(rel) || '/'}`, 'media:list'])).end();
  });

  router.on('GET', '/thumbnails/{file+}', (req, res, params, url) => {
    if (!real) authorize(ctx, req, url, 'api.access');
    const path = lib().thumbnail(params.file!);
    if (!path) throw new HttpProblem(404, 'Not Found', 'Thumbnail not found.');
    sendFile(res, path, { 'Cache-Control': 'public, max-age=31536000, immutable' });
  });
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Whether some part of `rel` (or `rel` itself) is a file, so no folder can be made there. */
function fileOnTheWay(ctx: CmsContext, rel: string): boolean {
  const segs = rel ? rel.split('/') : [];
  return segs.some((_, i) => ctx.site.media.isFile(segs.slice(0, i + 1).join('/')));
}

function dangerousExtensions(ctx: CmsContext): string[] {
  const info = scopeInfo('security')!;
  const list = ctx.site.config.effective(info).uploads_dangerous_extensions;
  return Array.isArray(list) ? list.map((e) => String(e).toLowerCase()) : [];
}

export function sendFile(res: ServerResponse, path: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': mimeOf(path), 'Content-Length': statSync(path).size, ...headers });
  createReadStream(path).pipe(res);
}
