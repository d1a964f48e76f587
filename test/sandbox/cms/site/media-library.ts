/**
 * The site's media library on disk (Grav's `user/media`): files in nested folders, each with an
 * optional `<file>.meta.yaml` sidecar (alt, title…), served at `/user/media/<path>`. It follows
 * getgrav/grav-plugin-api:MediaController.php's scans and serializeSiteFile(): hidden entries and
 * sidecars are never listed, files sort naturally and case-insensitively, a folder reports its
 * immediate subfolders and files, a raster image gets its `dimensions` and a thumbnail.
 *
 * Thumbnails (Services/ThumbnailService.php) are made when an image is serialised, named
 * `md5(path|mtime|500).<ext>` in `cache/thumbnails`, and only then served; a thumbnail that was
 * never made is a 404 ("cold"). The real service shrinks images over 500 px; the sandbox's copy is
 * the image itself (its seeded images are all smaller, which the real service also copies as is).
 *
 * Paths given to this class are already checked (media-routes.ts): relative, no empty, dot or
 * hidden segment.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, closeSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseYaml, type YamlMap } from '../content/frontmatter';
import { iso } from '../content/serialize';
import { isObject } from '../content/common';
import { imageSize, matchesType, sniffMime } from './image-info';

export const SIDECAR = '.meta.yaml';
const THUMB_MAX = 500;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
export const naturalSort = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

export interface Folder {
  name: string;
  path: string;
  children_count: number;
  file_count: number;
}

export class MediaLibrary {
  readonly root: string;
  readonly thumbs: string;
  /** MIME by `path|mtime|size`: listings sniff each file once, not on every request */
  #mimes = new Map<string, string>();
  /** an image's size and thumbnail by `path|mtime|size`, worked out once */
  #images = new Map<string, { size: { width: number; height: number } | null; thumb: string | null }>();
  #seed: ((lib: MediaLibrary) => void) | null;

  constructor(dataDir: string, seed: (lib: MediaLibrary) => void) {
    this.root = join(dataDir, 'media');
    this.thumbs = join(dataDir, 'cache', 'thumbnails');
    this.#seed = existsSync(this.root) ? null : seed;
  }

  /** Writes the starting files on first use. */
  ready(): this {
    if (this.#seed) {
      const seed = this.#seed;
      this.#seed = null;
      mkdirSync(this.root, { recursive: true });
      seed(this);
    }
    return this;
  }

  abs(rel: string): string {
    this.ready();
    return rel === '' ? this.root : join(this.root, ...rel.split('/'));
  }

  isDir(rel: string): boolean {
    const p = this.abs(rel);
    return existsSync(p) && statSync(p).isDirectory();
  }

  isFile(rel: string): boolean {
    const p = this.abs(rel);
    return existsSync(p) && statSync(p).isFile();
  }

  exists(rel: string): boolean {
    return existsSync(this.abs(rel));
  }

  /** A folder's files (names) and immediate subfolders. */
  scan(rel: string): { files: string[]; folders: Folder[] } {
    const dir = this.abs(rel);
    const files: string[] = [];
    const folders: Folder[] = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) {
        let children = 0;
        let count = 0;
        for (const child of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
          if (child.name.startsWith('.')) continue;
          if (child.isDirectory()) children++;
          else if (!child.name.endsWith(SIDECAR)) count++;
        }
        folders.push({ name: entry.name, path: rel ? `${rel}/${entry.name}` : entry.name, children_count: children, file_count: count });
      } else if (!entry.name.endsWith(SIDECAR)) files.push(entry.name);
    }
    files.sort(naturalSort);
    folders.sort((a, b) => naturalSort(a.name, b.name));
    return { files, folders };
  }

  /** Every file below the root whose name contains `needle` (case-insensitive), as `{dir, name}`, by name. */
  search(needle: string): { dir: string; name: string }[] {
    const lower = needle.toLowerCase();
    const out: { dir: string; name: string }[] = [];
    const walk = (rel: string) => {
      for (const entry of readdirSync(this.abs(rel), { withFileTypes: true })) {
        if (entry.name.startsWith('.')) continue;
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(child);
        else if (!entry.name.endsWith(SIDECAR) && entry.name.toLowerCase().includes(lower)) out.push({ dir: rel, name: entry.name });
      }
    };
    walk('');
    return out.sort((a, b) => naturalSort(a.name, b.name));
  }

  mimeOf(dir: string, name: string): string {
    const p = join(this.abs(dir), name);
    const st = statSync(p);
    const key = `${p}|${st.mtimeMs}|${st.size}`;
    let mime = this.#mimes.get(key);
    if (!mime) {
      mime = sniffMime(readHead(p, 64), name);
      this.#mimes.set(key, mime);
    }
    return mime;
  }

  ofType(dir: string, name: string, type: string | null): boolean {
    return !type || matchesType(this.mimeOf(dir, name), type);
  }

  /** What the metadata filter and sort look at: the file's size, time and sidecar. */
  filterable(dir: string, name: string): { filename: string; size: number; modified: number; meta: YamlMap | null } {
    const p = join(this.abs(dir), name);
    const st = statSync(p);
    const meta = readSidecar(p);
    return { filename: name, size: st.size, modified: st.mtimeMs, meta: Object.keys(meta).length ? (meta as YamlMap) : null };
  }

  /** serializeSiteFile(): the item the list, the upload and the rename answer. */
  item(dir: string, name: string, apiBase: string): Record<string, unknown> {
    const p = join(this.abs(dir), name);
    const st = statSync(p);
    const type = this.mimeOf(dir, name);
    const full = dir ? `${dir}/${name}` : name;
    const data: Record<string, unknown> = { filename: name, path: dir, url: `/user/media/${full}`, type, size: st.size };
    const meta = readSidecar(p);
    for (const key of ['alt', 'title'] as const) {
      const v = meta[key];
      if ((typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v) !== '') data[key] = String(v);
    }
    if (type.startsWith('image/') && type !== 'image/svg+xml') {
      const key = `${p}|${st.mtimeMs}|${st.size}`;
      let image = this.#images.get(key);
      if (!image) {
        // the start-of-frame of a JPEG with a large EXIF block can sit past the first 4 KB
        image = { size: imageSize(readHead(p, 4096)) ?? (type === 'image/jpeg' ? imageSize(readHead(p, 262144)) : null), thumb: this.thumbnailFor(p, st.mtimeMs, type) };
        this.#images.set(key, image);
      }
      if (image.size) data.dimensions = { ...image.size };
      if (image.thumb) data.thumbnail_url = `${apiBase}/thumbnails/${image.thumb}`;
    }
    data.modified = iso(st.mtimeMs);
    return data;
  }

  /** The thumbnail's name, made now when it is not cached yet. */
  private thumbnailFor(path: string, mtimeMs: number, mime: string): string | null {
    const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' }[mime];
    if (!ext) return null;
    const name = `${createHash('md5').update(`${path}|${Math.floor(mtimeMs / 1000)}|${THUMB_MAX}`).digest('hex')}.${ext}`;
    const target = join(this.thumbs, name);
    if (!existsSync(target)) {
      mkdirSync(this.thumbs, { recursive: true });
      copyFileSync(path, target);
    }
    return name;
  }

  /** A cached thumbnail's file (by its base name), or null while it has not been made. */
  thumbnail(file: string): string | null {
    const base = file.split('/').pop() ?? '';
    if (base === '' || base.startsWith('.')) return null;
    const p = join(this.thumbs, base);
    return existsSync(p) && statSync(p).isFile() ? p : null;
  }

  write(dir: string, name: string, data: Buffer | string): void {
    mkdirSync(this.abs(dir), { recursive: true });
    writeFileSync(join(this.abs(dir), name), data);
  }

  /** Removes a file and its sidecar. */
  remove(rel: string): void {
    const p = this.abs(rel);
    unlinkSync(p);
    if (existsSync(p + SIDECAR)) unlinkSync(p + SIDECAR);
  }

  mkdir(rel: string): void {
    mkdirSync(this.abs(rel), { recursive: true });
  }

  /** Whether a folder holds anything at all (hidden files and sidecars count). */
  isEmptyDir(rel: string): boolean {
    return readdirSync(this.abs(rel)).length === 0;
  }

  rmdir(rel: string): void {
    rmdirSync(this.abs(rel));
  }

  /** Moves a file (its sidecar follows), creating the destination folder. */
  moveFile(from: string, to: string): void {
    const a = this.abs(from);
    const b = this.abs(to);
    mkdirSync(dirname(b), { recursive: true });
    renameSync(a, b);
    if (existsSync(a + SIDECAR)) renameSync(a + SIDECAR, b + SIDECAR);
  }

  moveFolder(from: string, to: string): void {
    const b = this.abs(to);
    mkdirSync(dirname(b), { recursive: true });
    renameSync(this.abs(from), b);
  }

  /** Counts for the command line: files (not sidecars) and folders below the root. */
  counts(): { files: number; folders: number } {
    let files = 0;
    let folders = 0;
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name.startsWith('.')) continue;
        if (e.isDirectory()) {
          folders++;
          walk(join(dir, e.name));
        } else if (!e.name.endsWith(SIDECAR)) files++;
      }
    };
    walk(this.ready().root);
    return { files, folders };
  }
}

function readHead(file: string, bytes: number): Buffer {
  const head = Buffer.alloc(bytes);
  const fd = openSync(file, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

function readSidecar(file: string): Record<string, unknown> {
  if (!existsSync(file + SIDECAR)) return {};
  try {
    const parsed = parseYaml(readFileSync(file + SIDECAR, 'utf8'));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
