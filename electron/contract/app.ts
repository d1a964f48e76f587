/**
 * The app itself: its facts (version, shell, keychain and database state), the updater's and the
 * keychain's status events, and the Host's own restart event.
 */
import { channel, event, None } from './define';

/** Facts about the running app that the renderer shows (never a secret; a path only in `database.location`). */
export interface AppInfo {
  version: string;
  /** 'electron' inside the desktop shell, 'browser' for browser mode. */
  shell: 'electron' | 'browser';
  platform: string;
  secrets: SecretsStatus;
  database: DatabaseStatus;
}

export interface SecretsStatus {
  /** 'keychain' = the OS keychain; 'memory' = kept for this session only. */
  mode: 'keychain' | 'memory';
  /** Why the keychain is not used, when mode is 'memory'. */
  reason?: string;
}

/**
 * Why the database cannot be used: not a Sitedesk file, written by a newer version, unreadable,
 * damaged (found at open, by the integrity check after start, or by a read that hit the damage:
 * the one a person recovers from in the app), or another cause (`message` says which).
 */
export type DatabaseProblem = 'foreign' | 'newer' | 'unreadable' | 'damaged' | 'other';

export type DatabaseStatus =
  | { ok: true }
  | {
      ok: false;
      problem: DatabaseProblem;
      message: string;
      /** Where the damaged file is: the person's own folder, shown on the damaged-database screen and nowhere else. */
      location?: { folder: string; file: string };
    };

export type UpdaterStatus =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'available'; version: string }
  | { state: 'none' }
  | { state: 'downloading'; percent: number; version?: string }
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

/** The open panes of the workspace; persisted so a restart reopens them. */
export interface Workspace {
  /** Site ids in tab order. */
  tabs: string[];
  /** The focused tab. */
  active: string | null;
  /** A second pane beside the active one, or null for a single pane. */
  split: string | null;
  /** Share of the width given to the left pane when split, 0.2–0.8. */
  ratio: number;
}

// ── channels and events ──────────────────────────────────────────────────────────────────────

export const appChannels = {
  'app.info': channel<AppInfo>()(None),
};

export const appEvents = {
  /** The keychain became unavailable (or available again). */
  'secrets.status': event<SecretsStatus>(),
  /** From the shell's updater (packaged builds only). */
  'updater.status': event<UpdaterStatus>(),
  /**
   * The Host went away and came back (a crashed Host is restarted; the client reconnects).
   * `stopped`: browser mode's Host kept stopping and is not restarted until the page asks.
   */
  'host.status': event<{ state: 'restarting' | 'ready' | 'stopped' }>(),
};
