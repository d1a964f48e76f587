/**
 * Uploads, one file after another, for every place files go (a page's media, the site's media
 * library): each file is handed to the Host in 4 MB pieces ("Preparing n%"), then sent to the site,
 * with the Host's progress events carrying its bytes on their way. A file the site refuses keeps the
 * site's message beside it; the others go on. A file whose name is taken where it goes asks first:
 * Replace, Keep both (the site gives the new one another name) or Skip, optionally for the rest of
 * the batch. Where the places differ (the channels, what "taken" means, what the answer brings) is
 * the target's.
 */
import { MAX_MEDIA_BYTES, MEDIA_CHUNK_BYTES } from '../../electron/contract/index';
import { AppError } from './errors';
import { fileToBase64, formatBytes } from './base64';

/** The site's limit per file: larger ones are refused here, before any byte travels. */
export const MAX_UPLOAD_BYTES = MAX_MEDIA_BYTES;

export type UploadState = 'waiting' | 'asking' | 'preparing' | 'uploading' | 'done' | 'error' | 'skipped';
export type SameNameChoice = 'replace' | 'keep' | 'skip';

export interface Upload {
  id: string;
  file: File;
  name: string;
  /** Where it goes (a page's route, a library folder), as it was when the file was added. */
  where: string;
  size: number;
  state: UploadState;
  sent: number;
  total: number;
  error: string | null;
  /** The name the site stored it under, when it differs (keep both). */
  storedAs: string | null;
}

export interface UploadTarget {
  /** Where a file added now goes. */
  where(): string;
  /** Hands the Host one piece of a file; answers how many bytes it holds now. */
  stage(uploadId: string, offset: number, data: string): Promise<{ received: number }>;
  /** Follows the Host's progress events for uploads; answers the unsubscribe function. */
  follow(listener: (p: { uploadId: string; sent: number; total: number }) => void): () => void;
  /** Whether a file of this name is known where it goes (the list on screen). */
  taken(where: string, name: string): boolean;
  /** Sends the staged file (`choice` when its name was taken); answers the name the site stored it under. */
  send(u: Upload, choice: Exclude<SameNameChoice, 'skip'> | null): Promise<string>;
  /** The batch is over (every waiting file went, failed or was skipped). */
  idle?(): void;
}

let counter = 0;
const newId = () => `up-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export class UploadQueue {
  items = $state<Upload[]>([]);
  /** The file waiting for an answer about its name. */
  asking = $state<Upload | null>(null);
  running = $state(false);
  #answer: ((c: SameNameChoice) => void) | null = null;
  /** A choice for every further name clash of this batch. */
  #sticky: SameNameChoice | null = null;

  constructor(private readonly target: UploadTarget) {}

  /** Follows progress events; returns the unsubscribe function. */
  start(): () => void {
    return this.target.follow(({ uploadId, sent, total }) => {
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

  add(files: Iterable<File>): void {
    const where = this.target.where();
    const added: Upload[] = [...files].map((file) => ({ id: newId(), file, name: file.name, where, size: file.size, state: 'waiting', sent: 0, total: file.size, error: null, storedAs: null }));
    if (!added.length) return;
    this.items = [...this.items, ...added];
    if (!this.running) void this.#run();
  }

  /** The answer to the same-name question (`forAll`: for the batch's other clashes too). */
  answer(choice: SameNameChoice, forAll = false): void {
    if (forAll) this.#sticky = choice;
    const resolve = this.#answer;
    this.#answer = null;
    this.asking = null;
    resolve?.(choice);
  }

  dismiss(id: string): void {
    this.items = this.items.filter((u) => u.id !== id);
  }

  clearFinished(): void {
    this.items = this.items.filter((u) => u.state !== 'done' && u.state !== 'skipped' && u.state !== 'error');
  }

  /** Tries a failed file again. */
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
      this.target.idle?.();
    }
  }

  async #ask(u: Upload): Promise<SameNameChoice> {
    if (this.#sticky) return this.#sticky;
    u.state = 'asking';
    this.asking = u;
    return new Promise((resolve) => (this.#answer = resolve));
  }

  async #one(u: Upload): Promise<void> {
    if (u.size > MAX_UPLOAD_BYTES) {
      u.state = 'error';
      u.error = `${formatBytes(u.size)} is more than the site accepts per file (${formatBytes(MAX_UPLOAD_BYTES)}).`;
      return;
    }
    let choice: Exclude<SameNameChoice, 'skip'> | null = null;
    if (this.target.taken(u.where, u.name)) {
      const c = await this.#ask(u);
      if (c === 'skip') {
        u.state = 'skipped';
        return;
      }
      choice = c;
    }
    u.state = 'preparing';
    u.sent = 0;
    u.total = u.size;
    try {
      for (let offset = 0; offset < u.size || offset === 0; offset += MEDIA_CHUNK_BYTES) {
        const data = await fileToBase64(u.file.slice(offset, offset + MEDIA_CHUNK_BYTES));
        const { received } = await this.target.stage(u.id, offset, data);
        u.sent = received;
        if (u.size === 0) break;
      }
      u.state = 'uploading';
      u.sent = 0;
      const stored = await this.target.send(u, choice);
      u.sent = u.total;
      u.state = 'done';
      if (stored !== u.name) u.storedAs = stored;
    } catch (err) {
      const e = AppError.from(err);
      u.state = 'error';
      // the site's own sentence ("File extension '.php' is not allowed…"), else the Host's
      u.error = e.fields?.file ?? e.fields?.filename ?? e.message;
    }
  }
}
