/**
 * App-wide state: what `app.info` says (secrets, database), the Host connection, the updater,
 * and the toasts. One instance each, imported where needed.
 */
import type { AppInfo, DatabaseStatus, SecretsStatus, UpdaterStatus } from '../../electron/contract/index';
import { invoke, on } from './client';
import { AppError } from './errors';

/** `stopped`: browser mode's Host kept stopping; it starts again only when the person asks. */
export type HostState = 'connecting' | 'ready' | 'restarting' | 'stopped';

class AppState {
  /** `app.info` once loaded. */
  info = $state<AppInfo | null>(null);
  /** Why the last `app.info` failed, while nothing has loaded yet. */
  loadError = $state<AppError | null>(null);
  secrets = $state<SecretsStatus | null>(null);
  host = $state<HostState>('connecting');
  updater = $state<UpdaterStatus>({ state: 'idle' });
  /** The user closed the session-only secrets banner (until the next start). */
  secretsNoticeDismissed = $state(false);
  /** While the disk holding the data is full: the Host's sentence saying so (no path in it). */
  diskFull = $state<string | null>(null);

  readonly database: DatabaseStatus | null = $derived(this.info?.database ?? null);
  /** Secrets are kept in memory for this session only (no keychain). */
  readonly sessionOnlySecrets: boolean = $derived(this.secrets?.mode === 'memory');
  /** Show the session-only banner: session-only secrets and not dismissed. */
  readonly showSecretsNotice: boolean = $derived(this.sessionOnlySecrets && !this.secretsNoticeDismissed);

  async load(): Promise<void> {
    try {
      const info = await invoke('app.info');
      this.info = info;
      this.secrets = info.secrets;
      this.loadError = null;
      this.host = 'ready';
    } catch (err) {
      this.loadError = AppError.from(err);
      if (this.loadError.code === 'host_unavailable' && this.host === 'connecting') this.host = 'restarting';
    }
  }

  /** Subscribes to the app-level events. `onReady` runs after the Host came back. */
  start(onReady: () => void): () => void {
    const offs = [
      on('secrets.status', (status) => {
        const wasMemory = this.secrets?.mode === 'memory';
        this.secrets = status;
        if (status.mode === 'memory' && !wasMemory) this.secretsNoticeDismissed = false;
      }),
      on('updater.status', (status) => {
        this.updater = status;
      }),
      on('database.status', (status) => {
        if (this.info) this.info = { ...this.info, database: status };
        if (status.ok) onReady(); // a fresh database after a damaged one: everything is loaded again
      }),
      on('database.space', (space) => {
        this.diskFull = space.full ? space.message : null;
      }),
      on('host.status', ({ state }) => {
        this.host = state;
        if (state === 'ready') onReady();
      }),
    ];
    return () => offs.forEach((off) => off());
  }
}

export const app = new AppState();

// ---------------------------------------------------------------- toasts

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Second line, smaller. */
  detail?: string | undefined;
}

const DURATION: Record<ToastKind, number> = { success: 4000, info: 5000, error: 8000 };

class Toasts {
  items = $state<Toast[]>([]);
  #next = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  show(kind: ToastKind, message: string, detail?: string): number {
    const id = this.#next++;
    this.items = [...this.items.slice(-4), { id, kind, message, detail }];
    this.#arm(id, DURATION[kind]);
    return id;
  }

  success(message: string, detail?: string): number {
    return this.show('success', message, detail);
  }

  info(message: string, detail?: string): number {
    return this.show('info', message, detail);
  }

  /** An error toast for a failure that is not tied to a field. */
  error(err: unknown, context?: string): number {
    const e = AppError.from(err);
    return context ? this.show('error', context, e.message) : this.show('error', e.message);
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.items = this.items.filter((t) => t.id !== id);
  }

  /** Stop the clock while the pointer or focus is on the toasts, so nobody loses a message mid-read. */
  pause(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  resume(): void {
    for (const t of this.items) if (!this.#timers.has(t.id)) this.#arm(t.id, 2500);
  }

  #arm(id: number, ms: number) {
    clearTimeout(this.#timers.get(id));
    this.#timers.set(
      id,
      setTimeout(() => this.dismiss(id), ms),
    );
  }
}

export const toasts = new Toasts();
