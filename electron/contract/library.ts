/**
 * The `library.*` channels: a CMS site's media library (Grav's `user/media`), folders of files that
 * belong to no page. A listing is one folder (paged by the site) or a search of every folder; files
 * arrive in pieces like page media and go to the site with `library.progress` events. Paths are
 * relative to the library (`''` is its root), each part checked like any name that ends up in a URL
 * path (names.ts), so nothing can climb out of it.
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import { segmentProblem } from './names';
import { MEDIA_CHUNK_BYTES, UploadType } from './pages';

export const LIBRARY_LIMITS = { path: 1024, perPage: 100, search: 200 } as const;

/** Why `path` cannot be a path in the library, or null when it can (`''` is the root). */
export function libraryPathProblem(path: string): string | null {
  if (path === '') return null;
  for (const part of path.split('/')) {
    const problem = segmentProblem(part);
    if (problem) return problem.replace('A name', 'A folder or file name');
    // the site refuses hidden entries (validateRelativePath), and never lists them
    if (part.startsWith('.')) return 'A folder or file name cannot start with a dot.';
  }
  return null;
}

const pathOf = (what: string, allowRoot: boolean) =>
  v.pipe(
    v.string(),
    v.maxLength(LIBRARY_LIMITS.path, `A ${what} is at most ${LIBRARY_LIMITS.path} characters.`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      if (dataset.value === '' && !allowRoot) return addIssue({ message: `Enter the ${what}.` });
      const problem = libraryPathProblem(dataset.value);
      if (problem) addIssue({ message: problem });
    }),
  );

/** A folder of the library: `photos/2024`; `''` for the root. */
export const LibraryFolderPath = pathOf('folder', true);
/** A folder that is not the root (it can be created, renamed, deleted). */
export const LibrarySubfolder = pathOf('folder', false);
/** A file with its folders: `photos/2024/beach.jpg`. */
export const LibraryFilePath = pathOf('file path', false);

/** The site's type filter (document 1: image, video, audio, document). */
export const LIBRARY_TYPES = ['image', 'video', 'audio', 'document'] as const;
export type LibraryType = (typeof LIBRARY_TYPES)[number];

export const LibraryList = v.strictObject({
  siteId: SiteId,
  path: LibraryFolderPath,
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1),
  perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIBRARY_LIMITS.perPage, `At most ${LIBRARY_LIMITS.perPage} files a page.`)), 100),
  /** Every folder's files whose name holds this text (the site searches recursively; `path` is then ignored). */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(LIBRARY_LIMITS.search, `A search is at most ${LIBRARY_LIMITS.search} characters.`))),
  type: v.optional(v.picklist(LIBRARY_TYPES)),
});

export const LibraryUpload = v.strictObject({
  siteId: SiteId,
  /** The folder the file goes into; the site creates it when absent. */
  path: LibraryFolderPath,
  /** Renderer-side id, echoed in `library.progress` events; the bytes staged under it with `library.uploadChunk`. */
  uploadId: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  filename: v.pipe(v.string(), v.trim(), v.maxLength(255, 'A file name is at most 255 characters.'), pathOf('file name', false), v.check((s) => !s.includes('/'), 'A file name cannot hold / or \\.')),
  type: UploadType,
  /**
   * Replace a file of the same name (true only when the person chose Replace). Otherwise the site
   * keeps both: a taken name gets a dated prefix, so no upload silently overwrites a file.
   */
  replace: v.optional(v.boolean()),
});

export const LibraryChunk = v.strictObject({
  uploadId: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  offset: v.pipe(v.number(), v.integer(), v.minValue(0)),
  data: v.pipe(v.string(), v.maxLength(Math.ceil(MEDIA_CHUNK_BYTES / 3) * 4, 'A chunk is at most 4 MB.')),
});

export const LibraryMove = v.strictObject({ siteId: SiteId, from: LibraryFilePath, to: LibraryFilePath });
export const LibraryFolderMove = v.strictObject({ siteId: SiteId, from: LibrarySubfolder, to: LibrarySubfolder });

export interface LibraryFile {
  /** The file's path in the library (`photos/beach.jpg`): what the writes take. */
  path: string;
  name: string;
  /** Its folder (`''` for the root). */
  folder: string;
  /** Where the site serves it, from the site's root (`/user/media/photos/beach.jpg`). */
  url: string;
  type: string;
  size: number;
  modified: string | null;
  dimensions: { width: number; height: number } | null;
  alt: string | null;
  title: string | null;
}

export interface LibraryFolder {
  name: string;
  path: string;
  /** Subfolders and files right inside it, when the site says. */
  folders: number | null;
  files: number | null;
}

export interface LibraryListing {
  /** The folder listed (`''` for the root, or for a search). */
  path: string;
  search: string | null;
  type: LibraryType | null;
  files: LibraryFile[];
  /** The folder's own subfolders (none for a search). */
  folders: LibraryFolder[];
  page: number;
  perPage: number;
  /** Files in the whole listing, when the site says. */
  total: number | null;
  /** The next page's number, or null on the last. */
  next: number | null;
  /** Rows of the answer that could not be read, each with its reason; the others are shown. */
  problems: string[];
  /** When the listing came from the copy (the site is away, nothing can be changed): the time it was read. */
  copiedAt: string | null;
}

export const libraryChannels = {
  'library.list': channel<LibraryListing>()(LibraryList),
  /** Stages the next piece of a file for `library.upload` (answers the bytes staged so far). */
  'library.uploadChunk': channel<{ received: number }>()(LibraryChunk),
  /** Sends the staged file into the folder; progress arrives as `library.progress`. Answers the file as stored. */
  'library.upload': channel<LibraryFile>()(LibraryUpload),
  'library.delete': channel<{ path: string }>()(v.strictObject({ siteId: SiteId, path: LibraryFilePath })),
  /** Renames or moves a file (another folder in `to`); the site keeps its extension and cleans the name. */
  'library.move': channel<LibraryFile>()(LibraryMove),
  'library.createFolder': channel<LibraryFolder>()(v.strictObject({ siteId: SiteId, path: LibrarySubfolder })),
  'library.renameFolder': channel<LibraryFolder>()(LibraryFolderMove),
  /** Refused by the site while the folder holds anything, with its reason. */
  'library.deleteFolder': channel<{ path: string }>()(v.strictObject({ siteId: SiteId, path: LibrarySubfolder })),
};

export const libraryEvents = {
  /** Bytes of an upload sent to the site so far. */
  'library.progress': event<{ uploadId: string; sent: number; total: number }>(),
};
