/**
 * Auto-update through electron-updater (GitHub releases, see electron-builder.yml `publish`).
 * Only packaged builds check: a dev run has no update feed and no signature to verify.
 * Every state change becomes an UpdaterStatus, which main forwards to the renderer as the
 * `updater.status` event; until the renderer can ask main to install, a native dialog offers it.
 */
import { app, dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { autoUpdater } from 'electron-updater';
import type { UpdaterStatus } from './contract/app';

const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
const FIRST_CHECK_AFTER_MS = 10_000;

export interface UpdaterOptions {
  onStatus(status: UpdaterStatus): void;
  /** The window dialogs attach to, if any is open. */
  parentWindow(): BrowserWindow | null;
  /** Runs before the app quits to install (closes the Host cleanly). */
  beforeInstall(): Promise<void>;
}

export interface Updater {
  /** False in development builds: the menu item is disabled and nothing is checked. */
  readonly enabled: boolean;
  /** Check on start and then periodically. */
  start(): void;
  /** A check the user asked for: says so when there is nothing new or the check failed. */
  checkNow(): void;
  quitAndInstall(): Promise<void>;
}

/**
 * The feed could not be reached at all (offline, no DNS, a proxy or firewall in the way, a timeout):
 * Chromium's network error codes, as Electron's net module reports them, and Node's socket errors.
 */
const UNREACHABLE =
  /\bnet::ERR_(?:INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|ADDRESS_UNREACHABLE|CONNECTION_[A-Z_]+|TIMED_OUT|NETWORK_[A-Z_]+|PROXY_[A-Z_]+|TUNNEL_CONNECTION_FAILED)\b|\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

/** One line a person can read; the updater's errors can be multi-line stack-like text. */
function shortMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const unreachable = UNREACHABLE.exec(text)?.[0];
  if (unreachable) return `Could not reach the update server: check the internet connection. Sitedesk tries again later (${unreachable}).`;
  const first = text.split('\n', 1)[0]?.trim() || 'Unknown error.';
  return `Could not update Sitedesk: ${first.length > 200 ? `${first.slice(0, 197)}…` : first}`;
}

export function createUpdater(options: UpdaterOptions): Updater {
  const enabled = app.isPackaged;
  let manual = false;
  let offeredVersion: string | null = null;
  let downloadingVersion: string | undefined;

  const showBox = (box: MessageBoxOptions) => {
    const parent = options.parentWindow();
    return parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box);
  };

  const quitAndInstall = async () => {
    await options.beforeInstall();
    // isForceRunAfter: reopen Sitedesk once the installer is done.
    autoUpdater.quitAndInstall(false, true);
  };

  const check = () => {
    if (!enabled) return;
    // Failures also arrive as the 'error' event, which reports them; this only stops an unhandled rejection.
    autoUpdater.checkForUpdates().catch(() => undefined);
  };

  if (enabled) {
    // Touching `autoUpdater` instantiates the platform updater, so dev runs never do.
    autoUpdater.autoDownload = true;
    autoUpdater.autoInstallOnAppQuit = true;

    autoUpdater.on('checking-for-update', () => options.onStatus({ state: 'checking' }));
    autoUpdater.on('update-available', (info) => {
      downloadingVersion = info.version;
      options.onStatus({ state: 'available', version: info.version });
    });
    autoUpdater.on('update-not-available', () => {
      options.onStatus({ state: 'none' });
      if (manual) {
        manual = false;
        void showBox({ type: 'info', message: 'Sitedesk is up to date.', detail: `You have version ${app.getVersion()}.`, buttons: ['OK'] });
      }
    });
    autoUpdater.on('download-progress', (progress) => {
      const percent = Math.round(progress.percent * 10) / 10;
      options.onStatus(downloadingVersion ? { state: 'downloading', percent, version: downloadingVersion } : { state: 'downloading', percent });
    });
    autoUpdater.on('update-downloaded', (info) => {
      manual = false;
      options.onStatus({ state: 'ready', version: info.version });
      if (offeredVersion === info.version) return; // ask once per version, not at every periodic check
      offeredVersion = info.version;
      void showBox({
        type: 'info',
        message: `Sitedesk ${info.version} is ready to install.`,
        detail: 'Restart now to update, or later: the update is installed when you quit Sitedesk.',
        buttons: ['Restart Now', 'Later'],
        defaultId: 0,
        cancelId: 1,
      }).then(({ response }) => {
        if (response === 0) void quitAndInstall();
      });
    });
    autoUpdater.on('error', (err) => {
      const message = shortMessage(err);
      options.onStatus({ state: 'error', message });
      if (manual) {
        manual = false;
        void showBox({ type: 'error', message: 'Sitedesk could not check for updates.', detail: message, buttons: ['OK'] });
      }
    });
  }

  return {
    enabled,
    start() {
      if (!enabled) return;
      setTimeout(check, FIRST_CHECK_AFTER_MS);
      setInterval(check, CHECK_EVERY_MS);
    },
    checkNow() {
      if (!enabled) return;
      manual = true;
      check();
    },
    quitAndInstall,
  };
}
