/**
 * The app window and the rules every web contents lives by (docs/architecture.md, "Security"): isolated,
 * sandboxed, no Node, no pop-ups, no navigation away from app:// (of the page or a frame in it), no <webview>, no permissions.
 */
import { app, BrowserWindow, nativeTheme, screen, shell, type Rectangle, type Session, type WebContents, type WebFrameMain } from 'electron';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'sitedesk';
export const APP_ENTRY = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** The renderer's --bg-app (renderer/styles.css), so a window never flashes white in dark mode. */
const BACKGROUND = { light: '#f6f7f9', dark: '#16181c' } as const;

/**
 * True for URLs of our own app:// origin. Compared by parts: Node's URL gives non-special schemes
 * the origin "null", so `.origin` cannot be used.
 */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

/** http(s) only, parseable, and no user:password@ part (a classic way to disguise a host). */
export function isSafeExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
}

/** For ipcMain handlers: the message must come from the main frame of a page of our origin. */
export function isTrustedSender(frame: WebFrameMain | null | undefined): boolean {
  return !!frame && !frame.isDestroyed() && frame.parent === null && isAppUrl(frame.url);
}

function openExternally(url: string): void {
  if (isSafeExternalUrl(url)) shell.openExternal(url).catch((err: unknown) => console.error('openExternal failed:', err));
}

/** Applied to every web contents the app ever creates (app 'web-contents-created'). */
export function hardenWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    // A plain link to a web page is what the user meant to open: hand it to the browser.
    openExternally(event.url);
  });
  // will-navigate sees the main frame only: a frame inside the page (the plugin jail) could otherwise
  // navigate itself to any address and carry what it was shown out in the URL. Frames stay on app://.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Deny every permission. The one exception is writing to the clipboard from our own main frame,
 * which `navigator.clipboard.writeText` needs for "copy" buttons (e.g. a key shown once).
 */
export function hardenSession(ses: Session): void {
  const clipboardOk = (permission: string, url: string | undefined, isMainFrame: boolean) =>
    permission === 'clipboard-sanitized-write' && isMainFrame && url !== undefined && isAppUrl(url);
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(clipboardOk(permission, details.requestingUrl, details.isMainFrame)),
  );
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    clipboardOk(permission, details.requestingUrl ?? requestingOrigin, details.isMainFrame),
  );
  ses.setDevicePermissionHandler(() => false);
}

// ---------------------------------------------------------------------------------------------
// Window size, position and maximized state, kept in userData/window-state.json.

interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

const DEFAULT_STATE: WindowState = { width: 1280, height: 820, maximized: false };
const MIN_SIZE = { width: 900, height: 600 };
const stateFile = () => join(app.getPath('userData'), 'window-state.json');

function readState(): WindowState {
  try {
    const raw: unknown = JSON.parse(readFileSync(stateFile(), 'utf8'));
    if (typeof raw !== 'object' || raw === null) return DEFAULT_STATE;
    const r = raw as Record<string, unknown>;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);
    const width = num(r.width);
    const height = num(r.height);
    if (width === undefined || height === undefined) return DEFAULT_STATE;
    const x = num(r.x);
    const y = num(r.y);
    return { width, height, maximized: r.maximized === true, ...(x !== undefined && y !== undefined ? { x, y } : {}) };
  } catch {
    return DEFAULT_STATE; // first run, or a damaged file: start with the defaults
  }
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/** Displays change between runs (a monitor unplugged): pull the saved bounds onto a visible work area. */
function visibleBounds(state: WindowState): Partial<Rectangle> & { width: number; height: number } {
  const width = Math.max(state.width, MIN_SIZE.width);
  const height = Math.max(state.height, MIN_SIZE.height);
  if (state.x === undefined || state.y === undefined) return { width, height }; // centred by Electron
  const area = screen.getDisplayMatching({ x: state.x, y: state.y, width, height }).workArea;
  const w = Math.min(width, area.width);
  const h = Math.min(height, area.height);
  return {
    width: w,
    height: h,
    x: clamp(state.x, area.x, area.x + area.width - w),
    y: clamp(state.y, area.y, area.y + area.height - h),
  };
}

function writeState(win: BrowserWindow): void {
  if (win.isDestroyed()) return;
  const { x, y, width, height } = win.getNormalBounds();
  const state: WindowState = { x, y, width, height, maximized: win.isMaximized() };
  const file = stateFile();
  try {
    // write-then-rename so a crash mid-write never leaves half a file
    // owner-only, as every file in the data folder (docs/architecture.md, Security)
    writeFileSync(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch (err) {
    console.error('Could not save the window state:', err);
  }
}

function rememberState(win: BrowserWindow): void {
  let timer: NodeJS.Timeout | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => writeState(win), 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', () => {
    clearTimeout(timer);
    writeState(win);
  });
}

// ---------------------------------------------------------------------------------------------

export function createMainWindow(): BrowserWindow {
  const state = readState();
  const win = new BrowserWindow({
    ...visibleBounds(state),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Sitedesk',
    show: false,
    backgroundColor: nativeTheme.shouldUseDarkColors ? BACKGROUND.dark : BACKGROUND.light,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      navigateOnDragDrop: false,
    },
  });
  win.once('ready-to-show', () => {
    if (state.maximized) win.maximize();
    win.show();
  });
  rememberState(win);
  win.loadURL(APP_ENTRY).catch((err: unknown) => console.error('Could not load the app page:', err));
  return win;
}
