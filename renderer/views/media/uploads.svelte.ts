/**
 * Uploads of one page's media, one file after another: each file is handed to the Host in 4 MB
 * pieces (`media.uploadChunk`, "Preparing n%"), then sent to the site with `media.upload`, followed
 * by `media.progress` events carrying its uploadId. A file the site refuses shows the site's message next to it; the rest go on.
 * A file whose name is taken asks first: replace it, or keep both (the site renames the new one).
 */
import { MAX_MEDIA_BYTES, MEDIA_CHUNK_BYTES, type PageMediaItem, type Site } from '../../../electron/contract/index';
import { invoke, on } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { fileToBase64, formatBytes } from '../../lib/base64';

/** The site's limit per file: larger ones are refused here, before any byte travels. */
export const MAX_UPLOAD_BYTES = MAX_MEDIA_BYTES;

export type UploadState = 'waiting' | 'asking' | 'preparing' | 'uploading' | 'done' | 'error' | 'skipped';

export interface Upload {
  id: string;
  file: File;
  name: string;
  size: number;
  state: UploadState;
  sent: number;
  total: number;
  error: string | null;
  /** The name the site stored it under, when it differs (keep both). */
  storedAs: string | null;
}

export type SameNameChoice = 'replace' | 'keep' | 'skip';

let counter = 0;
const newId = () => `up-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export class UploadQueue {
  items = $state<Upload[]>([]);
  /** The file waiting for an answer about its name. */
  asking = $state<Upload | null>(null);
  running = $state(false);
  #answer: ((c: SameNameChoice) => void) | null = null;
  /** A choice to apply to every further name clash of this batch. */
  #sticky: SameNameChoice | null = null;

  constructor(
    private readonly site: () => Site,
    private readonly route: () => string,
    /** The page's media as last listed (for name clashes), and where the fresh list goes. */
    private readonly media: () => PageMediaItem[],
    private readonly onListed: (items: PageMediaItem[]) => void,
  ) {}

  /** Follow progress events; returns the unsubscribe function. */
  start(): () => void {
    return on('media.progress', ({ uploadId, sent, total }) => {
      const u = this.items.find((x) => x.id === uploadId);
      if (u && u.state !== 'done' && u.state !== 'error') {
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
    const added = [...files].map((file) => ({
      id: newId(),
      file,
      name: file.name,
      size: file.size,
      state: 'waiting' as UploadState,
      sent: 0,
      total: file.size,
      error: null,
      storedAs: null,
    }));
    if (!added.length) return;
    this.items = [...this.items, ...added];
    if (!this.running) void this.#run();
  }

  /** The answer of the same-name question. */
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

  /** Try a failed file again. */
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
    let avoidOverwriting = false;
    if (this.media().some((m) => m.filename === u.name)) {
      const choice = await this.#ask(u);
      if (choice === 'skip') {
        u.state = 'skipped';
        return;
      }
      avoidOverwriting = choice === 'keep';
    }
    u.state = 'preparing';
    u.sent = 0;
    u.total = u.size;
    try {
      for (let offset = 0; offset < u.size || offset === 0; offset += MEDIA_CHUNK_BYTES) {
        const data = await fileToBase64(u.file.slice(offset, offset + MEDIA_CHUNK_BYTES));
        const { received } = await invoke('media.uploadChunk', { uploadId: u.id, offset, data });
        u.sent = received;
        if (u.size === 0) break;
      }
      u.state = 'uploading';
      u.sent = 0;
      const before = new Set(this.media().map((m) => m.filename));
      const list = await invoke('media.upload', {
        siteId: this.site().id,
        route: this.route(),
        uploadId: u.id,
        filename: u.name,
        type: u.file.type || 'application/octet-stream',
        ...(avoidOverwriting ? { avoidOverwriting: true } : {}),
      });
      u.sent = u.total;
      u.state = 'done';
      if (avoidOverwriting) u.storedAs = list.find((m) => !before.has(m.filename) && m.filename.endsWith(u.name))?.filename ?? null;
      this.onListed(list);
    } catch (err) {
      const e = AppError.from(err);
      u.state = 'error';
      // the site's own sentence ("File extension '.php' is not allowed…"), else the Host's
      u.error = e.fields?.file ?? e.fields?.filename ?? e.message;
    }
  }
}
