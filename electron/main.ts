/**
 * Electron main: one instance per data folder, one app:// origin, the window, the menu, the
 * updater, and the Host in a utility process (electron/utility.ts). Business logic lives in the
 * Host, never here.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session } from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileFor, mimeOf } from './web/static-files';
import { EXIT_FOLDER_IN_USE, folderInUseMessage, lockDataFolder, type LockResult } from './db/folder-lock';
import { installMenu } from './menu';
import { createUpdater } from './updater';
import { startHost, type HostSupervisor } from './utility';
import { contentSecurityPolicy, imageAllowed, PLUGIN_FRAME_CSP, PLUGIN_FRAME_PATH } from './common/csp';
import { HOST_PORT_REQUEST } from './host-messages';
import { APP_HOST, APP_SCHEME, createMainWindow, hardenSession, hardenWebContents, isTrustedSender } from './window';

const RENDERER_ROOT = join(__dirname, '..', 'renderer');

/**
 * No remote script, no plugins, no framing. Images and media may come from http(s) in the policy,
 * and each such request is then checked against the sites' origins as they are now (`imageOrigins`,
 * kept current by the Host): a policy fixed when the page loaded could not follow a site added later.
 */
const CSP = contentSecurityPolicy({ images: 'any-http' });

/** The configured sites' origins: the only places the window may load images and media from. */
let imageOrigins = new Set<string>();

/** Cancels image and media requests to anywhere but the sites (read receipts, the reader's address). */
function filterImages(ses: Electron.Session): void {
  ses.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*'] }, (details, callback) => {
    const loads = details.resourceType === 'image' || details.resourceType === 'media';
    callback({ cancel: loads && !imageAllowed(details.url, imageOrigins) });
  });
}

// Tests (and anyone running two copies side by side) point the app at a separate profile. Before
// the single-instance lock, which is taken per userData folder.
const userDataOverride = process.env.SITEDESK_USER_DATA_DIR;
if (userDataOverride) app.setPath('userData', userDataOverride);

// Must happen before 'ready'. `standard` gives app:// real origins and relative URL resolution;
// `secure` makes it a secure context; `supportFetchAPI` lets the page fetch its own assets.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

/** A refusal (404, 403, 400, 405…): under the same policy as a page, so no response of app:// goes without it. */
const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' } });

/** Serves out/app/renderer/ for app://sitedesk/…; nothing outside that folder, ever. */
async function serveRenderer(request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
  const url = new URL(request.url);
  if (url.host !== APP_HOST) return plain(404, 'Not found');
  // decoded and resolved first, so %2e%2e, %2f and backslashes cannot climb out (web/static-files.ts)
  const target = fileFor(RENDERER_ROOT, url.pathname);
  if ('status' in target) return target.status === 400 ? plain(400, 'Bad request') : plain(403, 'Forbidden');
  const { file } = target;
  let body: Buffer<ArrayBuffer>;
  try {
    body = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR' ? plain(404, 'Not found') : plain(500, 'Could not read the file');
  }
  const headers = {
    'Content-Type': mimeOf(file),
    'Content-Security-Policy': url.pathname === PLUGIN_FRAME_PATH ? PLUGIN_FRAME_CSP : CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}

function boot(): void {
  let host: HostSupervisor | null = null;
  let hostStopped = false;
  let mainWindow: BrowserWindow | null = null;

  const openWindow = () => {
    const win = createMainWindow();
    mainWindow = win;
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
    });
    return win;
  };

  const focusedWindow = () => BrowserWindow.getFocusedWindow() ?? mainWindow ?? BrowserWindow.getAllWindows()[0] ?? null;

  const stopHost = async () => {
    if (hostStopped) return;
    hostStopped = true;
    await host?.stop();
  };

  app.on('second-instance', () => {
    if (!app.isReady()) return; // the window is created on 'ready' anyway
    const win = mainWindow ?? openWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  // Let the Host close its database (PRAGMA optimize, WAL checkpoint) before the process goes.
  app.on('before-quit', (event) => {
    if (hostStopped || !host) return;
    event.preventDefault();
    void stopHost().finally(() => app.quit());
  });

  // The page asks for its port once per load (first load and every reload).
  ipcMain.on(HOST_PORT_REQUEST, (event) => {
    if (!isTrustedSender(event.senderFrame)) return;
    host?.connect(event.sender);
  });

  app
    .whenReady()
    .then(() => {
      if (process.platform === 'win32') app.setAppUserModelId('app.sitedesk.desktop');
      protocol.handle(APP_SCHEME, serveRenderer);
      hardenSession(session.defaultSession);
      filterImages(session.defaultSession);

      host = startHost({ onImageOrigins: (origins) => (imageOrigins = new Set(origins)) });
      const supervisor = host;
      const updater = createUpdater({
        onStatus: (status) => supervisor.emitUpdaterStatus(status),
        parentWindow: focusedWindow,
        beforeInstall: stopHost,
      });
      installMenu({
        isDev: !app.isPackaged,
        canCheckForUpdates: updater.enabled,
        onCheckForUpdates: () => updater.checkNow(),
      });

      openWindow();
      updater.start();
    })
    .catch((err: unknown) => {
      console.error('Sitedesk could not start:', err);
      dialog.showErrorBox('Sitedesk could not start', err instanceof Error ? err.message : String(err));
      app.exit(1);
    });
}

/**
 * One data folder, one app. Electron's single-instance lock brings the first window to the front
 * when the same profile is opened twice; the lock file in the folder (db/folder-lock.ts) also stops
 * browser mode, or a copy started with another profile path, from sharing it. Taken here, in the
 * process that lives as long as the app, never in the Host, which restarts.
 */
function takeFolderLock(): LockResult | null {
  try {
    return lockDataFolder(app.getPath('userData'), { mode: 'electron' });
  } catch (err) {
    console.error('Sitedesk could not take the lock of its data folder:', err); // a lock it cannot write must not keep the app closed
    return null;
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit(); // another Sitedesk is running: it gets 'second-instance' and comes to the front
} else {
  const locked = takeFolderLock();
  if (locked && !locked.ok) {
    const message = folderInUseMessage(app.getPath('userData'), locked.holder);
    console.error(message);
    void app.whenReady().then(() => {
      dialog.showErrorBox('Sitedesk is already open', message);
      app.exit(EXIT_FOLDER_IN_USE);
    });
  } else {
    if (locked?.ok) {
      const release = () => locked.lock.release();
      app.on('will-quit', release);
      process.on('exit', release);
    }
    boot();
  }
}
