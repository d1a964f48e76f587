/**
 * What the media library area holds and reads: the folder open (its files, page after page as the
 * site serves them, and its subfolders), the tree of folders seen so far with what is expanded, the
 * search and the type filter, grid or list, the copy's time while the site is away; and the writes
 * (folders created, renamed, deleted; files deleted, renamed, moved), each re-reading what it
 * changed. Uploads are an UploadQueue into the open folder.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { LibraryFile, LibraryFolder, LibraryListing, LibraryType } from '../../../electron/contract/index';
import { invoke, on } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { baseOf, joinPath, parentOf } from './library-items';
import { UploadQueue } from '../../lib/upload-queue.svelte';

export const PAGE_SIZE = 100;
export type LibraryView = 'grid' | 'list';

export class LibraryState {
  folder = $state('');
  /** The search being shown (applied), and what is typed. */
  search = $state('');
  type = $state<LibraryType | ''>('');
  view = $state<LibraryView>('grid');
  files = $state<LibraryFile[]>([]);
  total = $state<number | null>(null);
  next = $state<number | null>(null);
  problems = $state<string[]>([]);
  copiedAt = $state<string | null>(null);
  loading = $state(false);
  loadingMore = $state(false);
  error = $state<AppError | null>(null);
  /** Subfolders of each folder listed, by its path. */
  readonly children = new SvelteMap<string, LibraryFolder[]>();
  readonly expanded = new SvelteSet<string>();
  /** Files whose thumbnail did not load (by path): their icon instead. */
  readonly failedThumbs = new SvelteSet<string>();
  readonly uploads: UploadQueue;
  #seq = 0;

  constructor(private readonly siteId: () => string) {
    this.uploads = new UploadQueue({
      where: () => this.folder,
      stage: (uploadId, offset, data) => invoke('library.uploadChunk', { uploadId, offset, data }),
      follow: (listener) => on('library.progress', listener),
      taken: (folder, name) => !this.searching && folder === this.folder && this.files.some((f) => f.name === name),
      // without Replace the site keeps both (a dated name for the new one): no upload overwrites silently
      send: async (u, choice) => {
        const stored = await invoke('library.upload', { siteId: siteId(), path: u.where, uploadId: u.id, filename: u.name, type: u.file.type || 'application/octet-stream', ...(choice === 'replace' ? { replace: true } : {}) });
        this.#uploaded(stored);
        return stored.name;
      },
      // the batch is over: the folder's counts in the tree are read again
      idle: () => void this.afterUploads(),
    });
  }

  get searching(): boolean {
    return this.search !== '';
  }

  #query(page: number) {
    return {
      siteId: this.siteId(),
      path: this.folder,
      page,
      perPage: PAGE_SIZE,
      ...(this.search ? { search: this.search } : {}),
      ...(this.type ? { type: this.type } : {}),
    };
  }

  #take(l: LibraryListing, append: boolean): void {
    this.files = append ? [...this.files, ...l.files.filter((f) => !this.files.some((x) => x.path === f.path))] : l.files;
    this.total = l.total;
    this.next = l.next;
    this.problems = append ? [...this.problems, ...l.problems] : l.problems;
    this.copiedAt = l.copiedAt;
    if (!l.search) this.children.set(l.path, l.folders);
  }

  /** Reads the open folder (or the search) from its first page. */
  async load(): Promise<void> {
    const mine = ++this.#seq;
    this.loading = true;
    this.error = null;
    try {
      const l = await invoke('library.list', this.#query(1));
      if (mine !== this.#seq) return;
      this.#take(l, false);
    } catch (err) {
      if (mine !== this.#seq) return;
      this.error = AppError.from(err);
      this.files = [];
      this.total = null;
      this.next = null;
    } finally {
      if (mine === this.#seq) this.loading = false;
    }
  }

  /** The next page of the listing, after the files shown. */
  async loadMore(): Promise<void> {
    if (this.next === null || this.loadingMore || this.loading) return;
    const mine = this.#seq;
    this.loadingMore = true;
    try {
      const l = await invoke('library.list', this.#query(this.next));
      if (mine === this.#seq) this.#take(l, true);
    } catch (err) {
      if (mine === this.#seq) this.error = AppError.from(err);
    } finally {
      this.loadingMore = false;
    }
  }

  /** Opens a folder (leaving a search), expanding the tree down to it. */
  async openFolder(path: string): Promise<void> {
    this.folder = path;
    this.search = '';
    let p = parentOf(path);
    while (p !== '') {
      this.expanded.add(p);
      p = parentOf(p);
    }
    await this.load();
  }

  async applySearch(text: string): Promise<void> {
    this.search = text.trim();
    await this.load();
  }

  /** Learns a folder's subfolders for the tree (the site lists them with its files). */
  async expand(path: string): Promise<void> {
    this.expanded.add(path);
    if (this.children.has(path)) return;
    try {
      const l = await invoke('library.list', { siteId: this.siteId(), path, page: 1, perPage: 1 });
      this.children.set(path, l.folders);
    } catch {
      // the tree shows it without children; opening the folder says what went wrong
      this.children.set(path, []);
    }
  }

  collapse(path: string): void {
    this.expanded.delete(path);
  }

  /** Re-reads a folder's subfolders (after a folder write) and the listing on screen. */
  async #refresh(...folders: string[]): Promise<void> {
    await Promise.all(
      [...new Set(folders)].map(async (f) => {
        try {
          const l = await invoke('library.list', { siteId: this.siteId(), path: f, page: 1, perPage: 1 });
          this.children.set(f, l.folders);
        } catch {
          this.children.delete(f);
        }
      }),
    );
    await this.load();
  }

  #uploaded(file: LibraryFile): void {
    if (this.searching || file.folder !== this.folder) return;
    const i = this.files.findIndex((f) => f.path === file.path);
    if (i >= 0) this.files[i] = file;
    else {
      this.files = [...this.files, file];
      if (this.total !== null) this.total++;
    }
  }

  /** Called when an upload batch ends: the folder (new, maybe) joins the tree. */
  async afterUploads(): Promise<void> {
    await this.#refresh(parentOf(this.folder), this.folder);
  }

  async createFolder(name: string): Promise<LibraryFolder> {
    const made = await invoke('library.createFolder', { siteId: this.siteId(), path: joinPath(this.folder, name.trim()) });
    this.expanded.add(this.folder);
    await this.#refresh(this.folder);
    return made;
  }

  async renameFolder(path: string, name: string): Promise<LibraryFolder> {
    const to = joinPath(parentOf(path), name.trim());
    const made = await invoke('library.renameFolder', { siteId: this.siteId(), from: path, to });
    // what was below the old path is not known by that name any more
    for (const key of [...this.children.keys()]) if (key === path || key.startsWith(`${path}/`)) this.children.delete(key);
    if (this.folder === path || this.folder.startsWith(`${path}/`)) this.folder = made.path + this.folder.slice(path.length);
    await this.#refresh(parentOf(path));
    return made;
  }

  /** The site refuses a folder that is not empty, with its reason (thrown, for the dialog to show). */
  async deleteFolder(path: string): Promise<void> {
    await invoke('library.deleteFolder', { siteId: this.siteId(), path });
    this.children.delete(path);
    this.expanded.delete(path);
    if (this.folder === path || this.folder.startsWith(`${path}/`)) this.folder = parentOf(path);
    await this.#refresh(parentOf(path));
  }

  async deleteFile(file: LibraryFile): Promise<void> {
    await invoke('library.delete', { siteId: this.siteId(), path: file.path });
    this.files = this.files.filter((f) => f.path !== file.path);
    if (this.total !== null) this.total = Math.max(0, this.total - 1);
  }

  /** A new name in the same folder (the site keeps the extension). */
  async renameFile(file: LibraryFile, name: string): Promise<LibraryFile> {
    const moved = await invoke('library.move', { siteId: this.siteId(), from: file.path, to: joinPath(file.folder, name.trim()) });
    this.files = this.files.map((f) => (f.path === file.path ? moved : f));
    return moved;
  }

  /** Into another folder, under the same name. */
  async moveFile(file: LibraryFile, folder: string): Promise<LibraryFile> {
    const moved = await invoke('library.move', { siteId: this.siteId(), from: file.path, to: joinPath(folder, baseOf(file.path)) });
    if (!this.searching) this.files = this.files.filter((f) => f.path !== file.path);
    else this.files = this.files.map((f) => (f.path === file.path ? moved : f));
    if (!this.searching && this.total !== null) this.total = Math.max(0, this.total - 1);
    await this.#refresh(folder, file.folder).catch(() => undefined);
    return moved;
  }
}
