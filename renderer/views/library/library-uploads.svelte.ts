/**
 * Uploads into the library's open folder, one file after another, as page media go: each file is
 * handed to the Host in 4 MB pieces (`library.uploadChunk`, "Preparing n%"), then sent with
 * `library.upload`, and `library.progress` events carry its bytes on their way. A file the site
 * refuses keeps the site's message beside it; the others go on. The folder is the one open when
 * the file was added. A file whose name is taken there (as far as the listing on screen shows) asks
 * first: Replace, Keep both or Skip; without Replace the site keeps both (a dated name for the new
 * one), so an upload never overwrites a file silently, even one not listed yet.
 */
import { MAX_MEDIA_BYTES, MEDIA_CHUNK_BYTES, type LibraryFile } from '../../../electron/contract/index';
import { invoke, on } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { fileToBase64, formatBytes } from '../../lib/base64';

export type LibraryUploadState = 'waiting' | 'asking' | 'preparing' | 'uploading' | 'done' | 'error' | 'skipped';
export type SameNameChoice = 'replace' | 'keep' | 'skip';

export interface LibraryUpload {
  id: string;
  file: File;
  name: string;
  folder: string;
  size: number;
  state: LibraryUploadState;
  sent: number;
  total: number;
  error: string | null;
  /** The name the site stored it under, when it differs. */
  storedAs: string | null;
}

let counter = 0;
const newId = () => `lib-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export class LibraryUploads {
  items = $state<LibraryUpload[]>([]);
  running = $state(false);
  /** The file waiting for an answer about its name. */
  asking = $state<LibraryUpload | null>(null);
  #answer: ((c: SameNameChoice) => void) | null = null;
  /** A choice for every further name clash of this batch. */
  #sticky: SameNameChoice | null = null;

  constructor(
    private readonly siteId: () => string,
    private readonly folder: () => string,
    private readonly onUploaded: (file: LibraryFile) => void,
    /** Whether a file of this name is known in this folder (the listing on screen). */
    private readonly taken: (folder: string, name: string) => boolean = () => false,
    /** The batch is over (every waiting file went or failed). */
    public onIdle: () => void = () => undefined,
  ) {}

  /** Follows progress events; returns the unsubscribe function. */
  start(): () => void {
    return on('library.progress', ({ uploadId, sent, total }) => {
      const u = this.items.find((x) => x.id === uploadId);
      if (u && (u.state === 'preparing' || u.state === 'uploading')) {
        u.sent = sent;
        u.total = total;
        u.state = 'uploading';
      }
    });
  }

  get active(): boolean {
    return this.items.some((u) => u.state === 'waiting' || u.state === 'asking' || u.state === 'preparing' || u.state === 'uploading');
  }

  /** The answer to the same-name question (`forAll`: for the batch's other clashes too). */
  answer(choice: SameNameChoice, forAll = false): void {
    if (forAll) this.#sticky = choice;
    const resolve = this.#answer;
    this.#answer = null;
    this.asking = null;
    resolve?.(choice);
  }

  async #ask(u: LibraryUpload): Promise<SameNameChoice> {
    if (this.#sticky) return this.#sticky;
    u.state = 'asking';
    this.asking = u;
    return new Promise((resolve) => (this.#answer = resolve));
  }

  add(files: Iterable<File>): void {
    const folder = this.folder();
    const added: LibraryUpload[] = [...files].map((file) => ({ id: newId(), file, name: file.name, folder, size: file.size, state: 'waiting', sent: 0, total: file.size, error: null, storedAs: null }));
    if (!added.length) return;
    this.items = [...this.items, ...added];
    if (!this.running) void this.#run();
  }

  dismiss(id: string): void {
    this.items = this.items.filter((u) => u.id !== id);
  }

  clearFinished(): void {
    this.items = this.items.filter((u) => u.state !== 'done' && u.state !== 'error' && u.state !== 'skipped');
  }

  retry(id: string): void {
    const u = this.items.find((x) => x.id === id);
    if (!u || u.state !== 'error') return;
    u.state = 'waiting';
    u.error = null;
    u.sent = 0;
    if (!this.running) void this.#run();
  }

  async #run(): Promise<void> {
    this.running = true;
    this.#sticky = null;
    try {
      for (;;) {
        const u = this.items.find((x) => x.state === 'waiting');
        if (!u) break;
        await this.#one(u);
      }
    } finally {
      this.running = false;
      this.#sticky = null;
      this.onIdle();
    }
  }

  async #one(u: LibraryUpload): Promise<void> {
    if (u.size > MAX_MEDIA_BYTES) {
      u.state = 'error';
      u.error = `${formatBytes(u.size)} is more than the site accepts per file (${formatBytes(MAX_MEDIA_BYTES)}).`;
      return;
    }
    let replace = false;
    if (this.taken(u.folder, u.name)) {
      const choice = await this.#ask(u);
      if (choice === 'skip') {
        u.state = 'skipped';
        return;
      }
      replace = choice === 'replace';
    }
    u.state = 'preparing';
    u.sent = 0;
    u.total = u.size;
    try {
      for (let offset = 0; offset < u.size || offset === 0; offset += MEDIA_CHUNK_BYTES) {
        const data = await fileToBase64(u.file.slice(offset, offset + MEDIA_CHUNK_BYTES));
        const { received } = await invoke('library.uploadChunk', { uploadId: u.id, offset, data });
        u.sent = received;
        if (u.size === 0) break;
      }
      u.state = 'uploading';
      u.sent = 0;
      const stored = await invoke('library.upload', { siteId: this.siteId(), path: u.folder, uploadId: u.id, filename: u.name, type: u.file.type || 'application/octet-stream', ...(replace ? { replace: true } : {}) });
      u.sent = u.total;
      u.state = 'done';
      if (stored.name !== u.name) u.storedAs = stored.name;
      this.onUploaded(stored);
    } catch (err) {
      const e = AppError.from(err);
      u.state = 'error';
      u.error = e.fields?.file ?? e.fields?.filename ?? e.message;
    }
  }
}
