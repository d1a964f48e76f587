/**
 * The site media library (document 1, "Media", the `/media` rows; methods and codes as the real
 * service's MediaController has them): a folder's files paged with `meta.folders`, a recursive
 * search, uploads into a folder, deletes, renames and moves of files and folders.
 *
 * Tolerant of both servers: the document promises an item's `filename`, `url`, `type` and `size`
 * only, the real service adds `path`, `modified`, `dimensions`, `alt`, `title` (recording 40). A
 * row whose name or path could climb out of the library, or that is not a file at all, is set aside
 * with its reason and the others are shown; paging is read flat or under `meta.pagination`.
 */
import * as v from 'valibot';
import { libraryPathProblem, segmentProblem, type LibraryFile, type LibraryFolder, type LibraryType } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer, parseRows, unreadable } from '../parse';
import { multipartFile } from '../multipart';
import { callName, listCall, nextPage, request } from './envelope';
import { Label } from './fields';
import { segment } from '../url-path';

const Name = v.pipe(
  v.string(),
  v.check((s) => segmentProblem(s) === null && !s.startsWith('.'), 'not a file name the library can hold'),
);
const RelPath = v.pipe(
  v.string(),
  v.transform((s) => s.replace(/^\/+|\/+$/g, '')),
  v.check((s) => libraryPathProblem(s) === null, 'a path that climbs out of the library'),
);
const Count = v.pipe(
  v.optional(v.unknown()),
  v.transform((x) => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : null)),
);

const Item = v.looseObject({
  filename: Name,
  path: v.optional(v.nullable(RelPath)),
  url: v.optional(v.nullable(v.string())),
  type: v.optional(v.string(), 'application/octet-stream'),
  size: v.optional(v.pipe(v.number(), v.minValue(0)), 0),
  modified: Label,
  dimensions: v.optional(v.unknown()),
  alt: Label,
  title: Label,
});

const FolderRow = v.looseObject({ name: Name, path: v.optional(v.nullable(RelPath)), children_count: Count, file_count: Count });

const join = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** `/user/media/a/b.jpg` → `a`, when the URL is the library's own; null otherwise. */
function folderFromUrl(url: string | null | undefined, name: string): string | null {
  if (!url) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://site.invalid').pathname);
  } catch {
    return null;
  }
  const i = pathname.indexOf('/user/media/');
  if (i < 0 || !pathname.endsWith(`/${name}`)) return null;
  const folder = pathname.slice(i + '/user/media/'.length, pathname.length - name.length - 1);
  return libraryPathProblem(folder) === null ? folder : null;
}

const dimensionsOf = (d: unknown): LibraryFile['dimensions'] => {
  if (typeof d !== 'object' || d === null) return null;
  const { width, height } = d as { width?: unknown; height?: unknown };
  return typeof width === 'number' && typeof height === 'number' ? { width, height } : null;
};

/** One item as the app sees it; `folder` is where it was listed when the row does not say. */
export function toFile(m: v.InferOutput<typeof Item>, listed: string): LibraryFile {
  const folder = m.path ?? folderFromUrl(m.url, m.filename) ?? listed;
  const path = join(folder, m.filename);
  return {
    path,
    name: m.filename,
    folder,
    // a server that sends no URL serves the library where Grav does
    url: m.url && m.url !== '' ? m.url : `/user/media/${path.split('/').map(encodeURIComponent).join('/')}`,
    type: m.type,
    size: m.size,
    modified: m.modified ?? null,
    dimensions: dimensionsOf(m.dimensions),
    alt: m.alt ?? null,
    title: m.title ?? null,
  };
}

export function toFolder(f: v.InferOutput<typeof FolderRow>, parent: string): LibraryFolder {
  return { name: f.name, path: f.path ?? join(parent, f.name), folders: f.children_count ?? null, files: f.file_count ?? null };
}

/** A library path as URL path segments, each checked (url-path.ts) and encoded. */
const pathSegments = (path: string) => path.split('/').map((s) => segment(s, 'folder or file name')).join('/');

export interface LibraryPage {
  files: LibraryFile[];
  folders: LibraryFolder[];
  page: number;
  perPage: number;
  total: number | null;
  next: number | null;
  problems: string[];
}

export interface LibraryQuery {
  path: string;
  page: number;
  perPage: number;
  search?: string | undefined;
  type?: LibraryType | undefined;
}

/** The rows of a list answer and `meta.folders`: what a listing holds, each row read on its own. */
export function readListing(t: Transport, where: string, q: LibraryQuery, data: unknown, meta: unknown): Omit<LibraryPage, 'page' | 'perPage' | 'total' | 'next'> {
  const files = parseRows(Item, data, t, 'a media library listing', where);
  const listed = q.search ? '' : q.path;
  const problems = files.problems.map((p) => `Row ${p.index + 1}${typeof (p.raw as { filename?: unknown })?.filename === 'string' ? ` (${(p.raw as { filename: string }).filename})` : ''}: ${p.problem}`);
  let folders: LibraryFolder[] = [];
  const rawFolders = typeof meta === 'object' && meta !== null ? (meta as { folders?: unknown }).folders : undefined;
  if (rawFolders !== undefined && rawFolders !== null) {
    const read = parseRows(FolderRow, rawFolders, t, 'a media library listing', `${where}, meta.folders`);
    folders = read.rows.map((r) => toFolder(r.value, q.path));
    problems.push(...read.problems.map((p) => `Folder ${p.index + 1}: ${p.problem}`));
  }
  return { files: files.rows.map((r) => toFile(r.value, listed)), folders, problems };
}

export const cmsLibrary = {
  async list(t: Transport, q: LibraryQuery): Promise<LibraryPage> {
    const call: CallOptions = {
      path: '/media',
      query: { page: q.page, per_page: q.perPage, ...(q.search ? { search: q.search } : q.path ? { path: q.path } : {}), ...(q.type ? { type: q.type } : {}) },
    };
    const { data, paging, result } = await listCall(t, call, 'a media library listing');
    const body = result.data as { meta?: unknown };
    const read = readListing(t, callName(call), q, data, body.meta);
    const rows = Array.isArray(data) ? data.length : 0;
    return {
      ...read,
      page: paging.page ?? q.page,
      perPage: paging.perPage ?? q.perPage,
      total: paging.total,
      next: nextPage(paging, { page: q.page, perPage: q.perPage }, rows),
    };
  },

  /**
   * One file into `folder` (created by the site when absent); answers the file as the site stored
   * it. Unless `replace`, the upload asks the site to keep a file of the same name (the field
   * setting `avoid_overwriting`: the new one gets a dated prefix).
   */
  async upload(
    t: Transport,
    folder: string,
    file: { name: string; type: string; bytes: Uint8Array },
    o: { replace?: boolean; onProgress?: (sent: number, total: number) => void } = {},
  ): Promise<LibraryFile> {
    const body = multipartFile('file', file, o.replace ? {} : { avoid_overwriting: 'true' });
    const onProgress = o.onProgress;
    const call: CallOptions = {
      method: 'POST',
      path: '/media',
      query: folder ? { path: folder } : {},
      raw: { ...body, ...(onProgress ? { onProgress } : {}) },
      timeoutMs: 10 * 60_000,
    };
    const r = await request(t, call);
    const list = parseRows(Item, r.data, t, 'the uploaded files', callName(call));
    const first = list.rows[0];
    if (!first) throw unreadable(t, 'the uploaded files', { where: callName(call), field: 'data.0', detail: list.problems[0]?.problem ?? 'no file in the answer' });
    return toFile(first.value, folder);
  },

  async remove(t: Transport, path: string): Promise<void> {
    await t.call({ method: 'DELETE', path: `/media/${pathSegments(path)}` });
  },

  /** Renames or moves a file; the site keeps the source's extension and cleans the new name. */
  async move(t: Transport, from: string, to: string): Promise<LibraryFile> {
    const call: CallOptions = { method: 'POST', path: '/media/rename', body: { from, to } };
    const r = await request(t, call);
    const toFolder = to.includes('/') ? to.slice(0, to.lastIndexOf('/')) : '';
    return toFile(parseAnswer(Item, r.data, t, 'a renamed file', callName(call)), toFolder);
  },

  async createFolder(t: Transport, path: string): Promise<LibraryFolder> {
    const call: CallOptions = { method: 'POST', path: '/media/folders', body: { path } };
    return folderAnswer(t, call, path, await request(t, call));
  },

  async renameFolder(t: Transport, from: string, to: string): Promise<LibraryFolder> {
    const call: CallOptions = { method: 'POST', path: '/media/folders/rename', body: { from, to } };
    return folderAnswer(t, call, to, await request(t, call));
  },

  async removeFolder(t: Transport, path: string): Promise<void> {
    await t.call({ method: 'DELETE', path: `/media/folders/${pathSegments(path)}` });
  },
};

function folderAnswer(t: Transport, call: CallOptions, path: string, r: { data: unknown }): LibraryFolder {
  const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  // the real service's answer names the folder; one that sends nothing still made it
  if (r.data === undefined || r.data === null) return { name: path.slice(parent.length ? parent.length + 1 : 0), path, folders: null, files: null };
  return toFolder(parseAnswer(FolderRow, r.data, t, 'a media folder', callName(call)), parent);
}
