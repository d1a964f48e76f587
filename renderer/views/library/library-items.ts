/**
 * Pure pieces of the media library's screen: paths (parent, join, a new name's problems), the
 * Markdown link a page uses for a file, what kind of preview a file gets, and the folder tree as
 * the rows on screen (only what is expanded, each with its depth), with the keyboard's moves on it.
 */
import { libraryPathProblem, type LibraryFile, type LibraryFolder } from '../../../electron/contract/index';

/** What a file dragged from the files carries (its library path), for a folder to take it. */
export const DRAG_TYPE = 'application/x-sitedesk-library-file';

export const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
export const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
export const joinPath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** Why a name typed for a folder or file cannot be used, or null. */
export function nameProblem(name: string): string | null {
  const n = name.trim();
  if (n === '') return 'Enter a name.';
  if (n.includes('/') || n.includes('\\')) return 'A name cannot hold / or \\.';
  return libraryPathProblem(n);
}

/** A file's address in a page: the path part of the site's URL (`/user/media/a b.png` → `/user/media/a%20b.png`). */
export function linkTarget(file: Pick<LibraryFile, 'url'>): string {
  let path = file.url;
  try {
    path = new URL(file.url, 'http://site.invalid').pathname;
  } catch {
    // keep the URL as the site sent it
  }
  // a Markdown link ends at a space or an unbalanced parenthesis
  return path.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const escapeText = (s: string) => s.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');

/** `![alt](/user/media/…)` for an image (its alt text, else its name without the extension); `[name](…)` for anything else. */
export function markdownLink(file: Pick<LibraryFile, 'url' | 'name' | 'type' | 'alt'>): string {
  if (previewKind(file) === 'image') {
    const dot = file.name.lastIndexOf('.');
    const alt = file.alt?.trim() || (dot > 0 ? file.name.slice(0, dot) : file.name);
    return `![${escapeText(alt)}](${linkTarget(file)})`;
  }
  return `[${escapeText(file.name)}](${linkTarget(file)})`;
}

export type PreviewKind = 'image' | 'video' | 'audio' | 'document';

/** How a file is previewed: images, video and audio play from the site; anything else is a document. */
export function previewKind(file: Pick<LibraryFile, 'type'>): PreviewKind {
  // SVG is an image to show, but the browser treats it as one only in <img>, which is safe
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  if (file.type.startsWith('audio/')) return 'audio';
  return 'document';
}

// ── the folder tree ────────────────────────────────────────────────────────────────────────

export interface TreeRow {
  path: string;
  name: string;
  depth: number;
  /** The site says it has subfolders (or they were listed). */
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The rows of the tree on screen: the root, then each expanded folder's subfolders below it, in
 * the site's order. `children` holds what each listing said (path → its subfolders); a folder not
 * listed yet has children when the site's count says so.
 */
export function treeRows(children: ReadonlyMap<string, readonly LibraryFolder[]>, expanded: ReadonlySet<string>, rootLabel = 'Media library'): TreeRow[] {
  const rows: TreeRow[] = [{ path: '', name: rootLabel, depth: 0, hasChildren: (children.get('')?.length ?? 1) > 0, expanded: true }];
  const walk = (path: string, depth: number) => {
    for (const f of children.get(path) ?? []) {
      const known = children.get(f.path);
      const hasChildren = known ? known.length > 0 : f.folders === null || f.folders > 0;
      const open = expanded.has(f.path) && hasChildren;
      rows.push({ path: f.path, name: f.name, depth, hasChildren, expanded: open });
      if (open) walk(f.path, depth + 1);
    }
  };
  walk('', 1);
  return rows;
}

export type TreeKey = 'ArrowDown' | 'ArrowUp' | 'ArrowRight' | 'ArrowLeft' | 'Home' | 'End';

/**
 * What a key does on the tree (the WAI-ARIA tree pattern): the row to focus next, or a folder to
 * expand or collapse. Right opens a closed folder, or moves into an open one; Left closes an open
 * one, or moves to the parent.
 */
export function treeKey(rows: readonly TreeRow[], at: number, key: TreeKey): { focus: number } | { expand: string } | { collapse: string } | null {
  const row = rows[at];
  if (!row) return rows.length ? { focus: 0 } : null;
  switch (key) {
    case 'ArrowDown':
      return at + 1 < rows.length ? { focus: at + 1 } : null;
    case 'ArrowUp':
      return at > 0 ? { focus: at - 1 } : null;
    case 'Home':
      return { focus: 0 };
    case 'End':
      return { focus: rows.length - 1 };
    case 'ArrowRight':
      if (!row.hasChildren) return null;
      if (!row.expanded) return { expand: row.path };
      return rows[at + 1] && rows[at + 1]!.depth > row.depth ? { focus: at + 1 } : null;
    case 'ArrowLeft': {
      if (row.expanded && row.depth > 0) return { collapse: row.path };
      if (row.depth === 0) return null;
      const parent = parentOf(row.path);
      const i = rows.findIndex((r) => r.path === parent);
      return i >= 0 ? { focus: i } : null;
    }
  }
}

/** Every folder path the tree knows, for the Move… dialog's list (the root first). */
export function knownFolders(children: ReadonlyMap<string, readonly LibraryFolder[]>): string[] {
  const out = new Set<string>(['']);
  for (const [path, list] of children) {
    out.add(path);
    for (const f of list) out.add(f.path);
  }
  return [...out].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })));
}

/** A folder typed in Move… as a library path: no leading or trailing slashes ('' is the top). */
export const folderOf = (typed: string): string => typed.trim().replace(/^\/+|\/+$/g, '');
