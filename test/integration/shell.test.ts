/**
 * The desktop shell as built: package.json's main (out/app/main/main.cjs), the preload beside it
 * and host/host.cjs run in Node with `require('electron')` answered by a recording stand-in
 * (test/support/electron-stand-in.ts).
 * Electron's binary cannot be downloaded on every machine, so without this the shell would never run
 * before a person installs it. What the shell promises is asserted through the calls it makes and
 * the answers it gives Electron: one instance, a locked-down window, the CSP on every response of
 * app://, navigation, pop-ups and permissions denied, links opened only when safe, the Host
 * supervised in its utility process (and, in the last test, the real Host answering a real page
 * call through the real ports), the preload's two functions, the menu and the updater.
 * Where Electron's binary exists, test/e2e/electron.spec.ts launches the real thing as well.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { contentSecurityPolicy, PLUGIN_FRAME_CSP } from '../../electron/common/csp';
import { MAX_RESTARTS_PER_MINUTE } from '../../electron/host-restarts';
import {
  createPageStandIn,
  createStandIn,
  FakeChild,
  FakeEvent,
  FakeWebContents,
  frame,
  loadBundle,
  runSandboxedPreload,
  type StandInOptions,
  WorkerChild,
} from '../support/electron-stand-in';
import { tempDir } from '../support/tmp';

const root = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; main: string };
const version = pkg.version;
/** What Electron starts: package.json's `main`, as scripts/build.mjs writes it. */
const MAIN = join(root, pkg.main);
/** Where the build puts the preload and the Host next to main (the shell finds them from its own folder). */
const PRELOAD = join(dirname(MAIN), 'preload.cjs');
const HOST = join(dirname(MAIN), '..', 'host', 'host.cjs');
const RENDERER = join(dirname(MAIN), '..', 'renderer');

beforeAll(() => {
  // The bundles under test are the app's own build; rebuilt only when a source is newer than out/.
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/build.mjs failed:\n${r.stdout}\n${r.stderr}`);
}, 300_000);

// ---------------------------------------------------------------------------------------------

type Run = ReturnType<typeof createStandIn> & { userData: string };
const cleanups: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Starts the built main as the app would start: a fresh profile and a fresh run of main.cjs's top level. */
function startMain(o: Omit<StandInOptions, 'userData'> & { userData?: string } = {}): Run {
  const dir = o.userData ? null : tempDir('sitedesk-shell-');
  const userData = o.userData ?? dir!.path;
  const s = createStandIn({ ...o, userData });
  const exitListeners = new Set(process.listeners('exit'));
  cleanups.push(async () => {
    // main releases its folder lock on process exit: those listeners belong to this run only
    for (const l of process.listeners('exit')) if (!exitListeners.has(l)) process.off('exit', l);
    for (const c of s.children) if (c instanceof WorkerChild) await c.worker.terminate();
    dir?.remove();
  });
  loadBundle(MAIN, { electron: s.electron, 'electron-updater': s.updaterModule });
  return Object.assign(s, { userData });
}

async function readyMain(o: Parameters<typeof startMain>[0] = {}) {
  const s = startMain(o);
  await s.ready();
  const win = s.BrowserWindow.all[0];
  if (!win) throw new Error('main opened no window');
  return { s, win, child: s.children[0] as FakeChild };
}

const settle = () => new Promise((r) => setImmediate(r));

/** Runs `fn` with process.platform reading `platform` (the menu and a few rules differ per OS). */
async function onPlatform<T>(platform: NodeJS.Platform, fn: () => Promise<T>): Promise<T> {
  const original = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { ...original, value: platform });
  try {
    return await fn();
  } finally {
    Object.defineProperty(process, 'platform', original);
  }
}

// ---------------------------------------------------------------------------------------------

describe('one instance per profile', () => {
  test('a second start finds the lock taken and quits before opening anything', async () => {
    const s = startMain({ singleInstance: false });
    expect(s.calls.map((c) => c.api)).toContain('app.requestSingleInstanceLock');
    expect(s.lifecycle.quitRequests).toBe(1);
    await s.ready();
    expect(s.BrowserWindow.all).toHaveLength(0);
    expect(s.children).toHaveLength(0);
    expect(s.protocolHandlers.size).toBe(0);
    expect(s.app.listenerCount('second-instance')).toBe(0);
  });

  test('the first copy brings its window back when a second one starts: restored, shown, focused', async () => {
    const early = startMain();
    early.app.emit('second-instance', new FakeEvent(), ['sitedesk'], '/'); // before ready: the window comes with 'ready' anyway
    expect(early.BrowserWindow.all).toHaveLength(0);
    await early.ready();
    expect(early.BrowserWindow.all).toHaveLength(1);

    const { s, win } = await readyMain();
    win.minimized = true;
    win.actions.length = 0;
    s.app.emit('second-instance', new FakeEvent(), ['sitedesk'], '/');
    expect(win.actions).toEqual(['restore', 'show', 'focus']);
    expect(s.BrowserWindow.all).toHaveLength(1);

    // macOS keeps the app running with no window: a second start opens one again
    await onPlatform('darwin', async () => {
      win.close();
      expect(s.lifecycle.quitRequests).toBe(0);
      s.app.emit('second-instance', new FakeEvent(), ['sitedesk'], '/');
    });
    expect(s.BrowserWindow.getAllWindows()).toHaveLength(1);
    expect(s.BrowserWindow.all[1]!.actions).toEqual(['show', 'focus']);
  });

  test('a data folder another copy is using: the copy says so and exits with its own code, nothing opens', async () => {
    const dir = tempDir('sitedesk-shell-');
    cleanups.push(() => dir.remove());
    // another live process (this test's parent) holds the folder
    writeFileSync(join(dir.path, 'sitedesk.lock'), JSON.stringify({ pid: process.ppid, mode: 'browser', port: 4321, startedAt: new Date().toISOString() }));
    const s = startMain({ userData: dir.path });
    await s.ready();
    expect(s.errorBoxes).toHaveLength(1);
    expect(s.errorBoxes[0]!.title).toBe('Sitedesk is already open');
    expect(s.lifecycle.exitCode).toBe(3);
    expect(s.BrowserWindow.all).toHaveLength(0);
    expect(s.children).toHaveLength(0);
  });

  test('a start that fails once ready is said in a dialog and ends the process, instead of a window that never comes', async () => {
    const s = startMain({ protocolHandleError: 'The scheme "app" is already handled.' });
    await s.ready();
    expect(s.errorBoxes).toEqual([{ title: 'Sitedesk could not start', content: 'The scheme "app" is already handled.' }]);
    expect(s.lifecycle.exitCode).toBe(1);
    expect(s.BrowserWindow.all).toHaveLength(0);
  });

  test('SITEDESK_USER_DATA_DIR points the profile elsewhere before the lock is taken', async () => {
    const other = tempDir('sitedesk-shell-other-');
    cleanups.push(() => other.remove());
    process.env.SITEDESK_USER_DATA_DIR = other.path;
    try {
      const s = startMain();
      const order = s.calls.map((c) => c.api);
      expect(order.indexOf('app.setPath')).toBeLessThan(order.indexOf('app.requestSingleInstanceLock'));
      expect(existsSync(join(other.path, 'sitedesk.lock'))).toBe(true);
    } finally {
      delete process.env.SITEDESK_USER_DATA_DIR;
    }
  });
});

describe('the window', () => {
  test('isolated, sandboxed, without Node, with web security, and with the built preload', async () => {
    const { s, win } = await readyMain();
    expect(s.calls.map((c) => c.api)).toContain('app.enableSandbox');
    // the whole set, so an added option (allowRunningInsecureContent, nodeIntegrationInSubFrames…) fails too
    expect(win.options.webPreferences).toEqual({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(existsSync(PRELOAD)).toBe(true);
    expect(win.loaded).toEqual(['app://sitedesk/index.html']);
    expect(win.options).toMatchObject({ show: false, title: 'Sitedesk', minWidth: 900, minHeight: 600 });
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
  });

  test('its size and place are kept owner-only, a damaged file ignored, and a place off every screen pulled back', async () => {
    const first = await readyMain();
    expect(first.win.options).toMatchObject({ width: 1280, height: 820 });
    expect(first.win.options).not.toHaveProperty('x');
    first.win.close();
    const file = join(first.s.userData, 'window-state.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: false });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    // a monitor that is gone: the window comes back onto the one there is (1920×1080 here), maximized as it was
    writeFileSync(file, JSON.stringify({ x: 5000, y: -3000, width: 3000, height: 500, maximized: true }));
    const second = await readyMain({ userData: first.s.userData });
    expect(second.win.options).toMatchObject({ x: 0, y: 0, width: 1920, height: 600 });
    second.win.emit('ready-to-show');
    expect(second.win.actions).toEqual(['maximize', 'show']);

    writeFileSync(file, '{"width": ');
    const third = await readyMain({ userData: first.s.userData });
    expect(third.win.options).toMatchObject({ width: 1280, height: 820 });
  });

  test('on Windows the app is named with the appId the installer registers (taskbar grouping, notifications)', async () => {
    const builderConfig = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    const appId = /^appId:\s*(\S+)\s*$/m.exec(builderConfig)?.[1];
    expect(appId).toBeDefined();
    const { s } = await onPlatform('win32', () => readyMain());
    expect(s.calls.filter((c) => c.api === 'app.setAppUserModelId').map((c) => c.args)).toEqual([[appId]]);
  });

  test('closing the last window quits on Windows and Linux, not on macOS', async () => {
    const { s, win } = await readyMain();
    await onPlatform('darwin', async () => win.close());
    expect(s.lifecycle.quitRequests).toBe(0);
    s.app.emit('activate');
    expect(s.BrowserWindow.getAllWindows()).toHaveLength(1);
    await onPlatform('linux', async () => s.BrowserWindow.all[1]!.close());
    expect(s.lifecycle.quitRequests).toBe(1);
  });
});

describe('the app:// protocol', () => {
  const CSP = contentSecurityPolicy({ images: 'any-http' });

  async function serve() {
    const { s } = await readyMain();
    const handler = s.protocolHandlers.get('app');
    if (!handler) throw new Error('main registered no handler for app://');
    return { s, get: (url: string, method = 'GET') => handler(new Request(url, { method })) };
  }

  test('registered as a standard, secure scheme before ready, and served once ready', async () => {
    const { s } = await serve();
    expect(s.schemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    expect([...s.protocolHandlers.keys()]).toEqual(['app']);
  });

  test('every response carries the policy: the page, its assets, the plugin frame, and every refusal', async () => {
    const { get } = await serve();
    const asset = readdirSync(join(RENDERER, 'assets')).find((f) => f.endsWith('.js'));
    expect(asset).toBeDefined();

    const cases: [url: string, status: number, type: RegExp, method?: string][] = [
      ['app://sitedesk/index.html', 200, /^text\/html/],
      ['app://sitedesk/', 200, /^text\/html/],
      [`app://sitedesk/assets/${asset}`, 200, /^text\/javascript/],
      ['app://sitedesk/index.html', 200, /^text\/html/, 'HEAD'],
      ['app://sitedesk/no-such-file.js', 404, /^text\/plain/],
      ['app://sitedesk/assets', 404, /^text\/plain/],
      ['app://sitedesk/../../etc/passwd', 404, /^text\/plain/], // the URL parser resolves the dots: /etc/passwd under the built renderer
      ['app://sitedesk/%2e%2e/%2e%2e/etc/passwd', 404, /^text\/plain/], // so are encoded dots standing as a segment
      ['app://sitedesk/%2e%2e%2f%2e%2e%2fpackage.json', 403, /^text\/plain/], // decoded by main: refused
      ['app://sitedesk/assets/..%2f..%2f..%2fpackage.json', 403, /^text\/plain/],
      // a backslash separates folders on Windows only; elsewhere it is part of a name that does not exist
      ['app://sitedesk/..%5c..%5cpackage.json', process.platform === 'win32' ? 403 : 404, /^text\/plain/],
      ['app://sitedesk/%E0%A4%A', 400, /^text\/plain/],
      ['app://sitedesk/index.html%00.js', 400, /^text\/plain/],
      ['app://elsewhere/index.html', 404, /^text\/plain/],
      ['app://sitedesk/index.html', 405, /^text\/plain/, 'POST'],
    ];
    for (const [url, status, type, method] of cases) {
      const r = await get(url, method);
      const what = `${method ?? 'GET'} ${url}`;
      expect(r.status, what).toBe(status);
      expect(r.headers.get('content-type'), what).toMatch(type);
      expect(r.headers.get('content-security-policy'), what).toBe(CSP);
      expect(r.headers.get('x-content-type-options'), what).toBe('nosniff');
      const body = await r.text();
      expect(body, what).not.toMatch(/root:|"name": "sitedesk"/);
      if (status === 200 && method !== 'HEAD') expect(body.length, what).toBeGreaterThan(0);
    }
    // the policy itself: nothing but our own scripts, no plugins, no framing, no <base>
    for (const rule of ["script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "default-src 'self'"]) expect(CSP).toContain(rule);

    const frameResponse = await get('app://sitedesk/plugin-frame.html');
    expect(frameResponse.status).toBe(200);
    expect(frameResponse.headers.get('content-security-policy')).toBe(PLUGIN_FRAME_CSP);
  });
});

describe('what a page may do', () => {
  test('navigation away from app:// is stopped, and a web link goes to the browser', async () => {
    const { s, win } = await readyMain();
    const contents = win.webContents;
    expect(contents.navigate('app://sitedesk/index.html#/sites')).toBe(true);
    expect(contents.navigate('https://example.com/docs')).toBe(false);
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    expect(contents.navigate('app://elsewhere/index.html')).toBe(false);
    expect(contents.navigate('javascript:alert(1)')).toBe(false);
    expect(contents.attachWebview()).toBe(false);
    expect(s.opened).toEqual(['https://example.com/docs']);
  });

  test('a frame inside the page (the plugin jail) cannot navigate itself away either: nothing leaves by its address', async () => {
    const { s, win } = await readyMain();
    const contents = win.webContents;
    expect(contents.navigateFrame('app://sitedesk/plugin-frame.html')).toBe(true);
    expect(contents.navigateFrame('https://attacker.example/?stolen=data')).toBe(false);
    expect(contents.navigateFrame('data:text/html,<script>parent.postMessage(1, "*")</script>')).toBe(false);
    expect(contents.navigateFrame('app://elsewhere/x')).toBe(false);
    expect(s.opened).toEqual([]); // a frame's navigation is never a link the person clicked
    // the main frame's own navigation is left to will-navigate (one decision, one browser tab)
    const main = new FakeEvent({ url: 'https://example.com/', isMainFrame: true });
    contents.emit('will-frame-navigate', main);
    expect(main.defaultPrevented).toBe(false);
  });

  test('no window ever opens: http(s) links without credentials go to the browser, nothing else anywhere', async () => {
    const { s, win } = await readyMain();
    const urls = [
      'https://example.com/a',
      'http://example.com/b',
      'https://user:secret@example.com/',
      'https://user@example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'mailto:someone@example.com',
      'app://sitedesk/index.html',
      'data:text/html,<script>alert(1)</script>',
      'not a url',
    ];
    for (const url of urls) expect(win.webContents.open(url), url).toEqual({ action: 'deny' });
    await settle();
    expect(s.opened).toEqual(['https://example.com/a', 'http://example.com/b']);
  });

  test('every web contents the app creates gets the same rules, not only the main window', async () => {
    const { s } = await readyMain();
    const other = new FakeWebContents();
    s.app.emit('web-contents-created', new FakeEvent(), other);
    expect(other.open('https://example.com/')).toEqual({ action: 'deny' });
    expect(other.navigate('https://example.com/')).toBe(false);
  });

  test('permissions are denied, but for copying to the clipboard from our own page', async () => {
    const { s } = await readyMain();
    const { request, check, device } = s.permissionHandlers;
    if (!request || !check || !device) throw new Error('a permission handler is missing');
    const ask = (permission: string, requestingUrl: string, isMainFrame = true) =>
      new Promise<boolean>((resolve) => request({}, permission, resolve, { requestingUrl, isMainFrame }));
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'pointerLock', 'clipboard-read', 'midiSysex']) {
      expect(await ask(permission, 'app://sitedesk/index.html'), permission).toBe(false);
      expect(check({}, permission, 'app://sitedesk', { requestingUrl: 'app://sitedesk/index.html', isMainFrame: true }), permission).toBe(false);
    }
    expect(await ask('clipboard-sanitized-write', 'app://sitedesk/index.html')).toBe(true);
    expect(await ask('clipboard-sanitized-write', 'app://sitedesk/plugin-frame.html', false)).toBe(false);
    expect(await ask('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(check({}, 'clipboard-sanitized-write', 'https://example.com', { isMainFrame: true })).toBe(false);
    expect(device({ deviceType: 'usb' })).toBe(false);
  });

  test('images and media load only from the sites the Host names, and follow the list as it changes', async () => {
    const { s, child } = await readyMain();
    const filter = s.beforeRequest;
    if (!filter) throw new Error('no request filter');
    expect(filter.filter.urls).toEqual(['http://*/*', 'https://*/*']);
    const cancelled = (url: string, resourceType: string) =>
      new Promise<boolean | undefined>((resolve) => filter.listener({ url, resourceType }, (r) => resolve(r.cancel)));
    expect(await cancelled('https://site.example/user/pages/a.png', 'image')).toBe(true);
    child.say({ type: 'image-origins', origins: ['https://site.example'] });
    expect(await cancelled('https://site.example/user/pages/a.png', 'image')).toBe(false);
    expect(await cancelled('https://site.example/video.mp4', 'media')).toBe(false);
    expect(await cancelled('https://tracker.example/pixel.gif', 'image')).toBe(true);
    child.say({ type: 'image-origins', origins: ['https://site.example', 'https://user@evil.example'] }); // not bare origins: ignored
    expect(await cancelled('https://site.example/user/pages/a.png', 'image')).toBe(false);
    child.say({ type: 'image-origins', origins: [] });
    expect(await cancelled('https://site.example/user/pages/a.png', 'image')).toBe(true);
  });
});

describe('the Host in its utility process', () => {
  test('started from the built host.cjs with the profile folder, and a page’s port forwarded both ways', async () => {
    const { s, win, child } = await readyMain();
    expect(s.children).toHaveLength(1);
    expect(child.modulePath).toBe(HOST);
    expect(existsSync(HOST)).toBe(true);
    expect(child.options.serviceName).toBe('Sitedesk Host');
    expect(child.options.env?.SITEDESK_DATA_DIR).toBe(s.userData);

    s.requestPort(win.webContents);
    expect(child.received.map((r) => r.message)).toEqual([{ type: 'connect' }]);
    const hostEnd = child.received[0]!.ports[0]!;
    const page = win.webContents.posted.at(-1)!;
    expect(page).toMatchObject({ channel: 'host-port', message: null });
    expect(page.ports).toHaveLength(1);
    const pageEnd = page.ports[0]!;

    const next = (port: MessagePort) => new Promise<unknown>((r) => port.once('message', r));
    const atHost = next(hostEnd);
    pageEnd.postMessage({ id: 1, channel: 'app.info', input: {} });
    expect(await atHost).toEqual({ id: 1, channel: 'app.info', input: {} });
    const atPage = next(pageEnd);
    hostEnd.postMessage({ id: 1, ok: true, value: { shell: 'electron' } });
    expect(await atPage).toEqual({ id: 1, ok: true, value: { shell: 'electron' } });
    hostEnd.close();

    // a reload asks again and gets a fresh port; the latest updater status follows it
    s.requestPort(win.webContents);
    expect(child.received.filter((r) => (r.message as { type: string }).type === 'connect')).toHaveLength(2);
  });

  test('only our own page’s main frame gets a port', async () => {
    const { s, win, child } = await readyMain();
    s.requestPort(win.webContents, frame('https://evil.example/'));
    s.requestPort(win.webContents, frame('app://sitedesk/plugin-frame.html', frame('app://sitedesk/index.html')));
    s.requestPort(win.webContents, { ...frame('app://sitedesk/index.html'), isDestroyed: () => true });
    expect(child.received).toHaveLength(0);
    expect(win.webContents.posted).toHaveLength(0);
  });

  test('what the Host asks of main (folder, save and open dialogs) is answered to it', async () => {
    const { s, child } = await readyMain();
    child.say({ type: 'chooseFolder', id: 7, title: 'Choose a folder' });
    child.say({ type: 'chooseSaveFile', id: 8, title: 'Export', defaultName: 'audit.csv', filterName: 'CSV', extensions: ['csv'] });
    child.say({ type: 'chooseOpenFile', id: 9, title: 'Import' });
    child.say({ type: 'chooseSaveFile', id: 10, title: 'Export', defaultName: '../../.bashrc', filterName: 'CSV', extensions: ['csv'] }); // refused
    await settle();
    expect(child.received.map((r) => r.message)).toEqual([
      { type: 'folderChosen', id: 7, folder: '/chosen/folder' },
      { type: 'saveFileChosen', id: 8, file: '/chosen/export.csv' },
      { type: 'openFileChosen', id: 9, file: '/chosen/folder' },
    ]);
    expect(s.calls.filter((c) => c.api.startsWith('dialog.'))).toHaveLength(3);
  });

  test('a Host that dies: pages told at once, restarted with backoff, ports handed again; past the limit the person decides', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const { s, win } = await readyMain({ messageBoxResponses: [0, 1] });
    s.requestPort(win.webContents);
    const restarting = () => win.webContents.posted.filter((p) => p.ports.length === 0);

    const delays = [250, 500, 1000, 2000, 4000];
    expect(delays).toHaveLength(MAX_RESTARTS_PER_MINUTE);
    for (const [i, delay] of delays.entries()) {
      const dying = s.children.at(-1) as FakeChild;
      dying.exit(1);
      expect(restarting(), `exit ${i + 1}`).toHaveLength(i + 1);
      expect(restarting().at(-1)!.message).toEqual({ state: 'restarting' });
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(s.children, `exit ${i + 1}: not before ${delay} ms`).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.children, `exit ${i + 1}: restarted after ${delay} ms`).toHaveLength(i + 2);
      const fresh = s.children.at(-1) as FakeChild;
      expect(fresh.received.map((r) => r.message)).toEqual([{ type: 'connect' }]);
      expect(win.webContents.posted.at(-1)!.ports).toHaveLength(1);
    }

    // the sixth exit within a minute: no more restarts by itself; the person is asked
    (s.children.at(-1) as FakeChild).exit(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.children).toHaveLength(delays.length + 2); // "Try Again" (the first answer) started one more at once
    expect(s.messageBoxes).toHaveLength(1);
    expect(s.messageBoxes[0]!.options).toMatchObject({ type: 'error', message: 'Sitedesk’s background service keeps stopping.', buttons: ['Try Again', 'Quit'] });
    expect(s.messageBoxes[0]!.options.detail).toMatch(/saved work is safe/);

    // the count started over: the next exit restarts after 250 ms again
    (s.children.at(-1) as FakeChild).exit(1);
    await vi.advanceTimersByTimeAsync(250);
    expect(s.children).toHaveLength(delays.length + 3);

    // and past the limit again, "Quit" (the second answer) quits
    for (let i = 0; i < MAX_RESTARTS_PER_MINUTE; i++) {
      (s.children.at(-1) as FakeChild).exit(1);
      await vi.advanceTimersByTimeAsync(8000);
    }
    expect(s.messageBoxes).toHaveLength(2);
    expect(s.lifecycle.quitDone).toBe(true);
  });

  test('quitting waits for the Host to close its database, and no longer than the grace period', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { s, child } = await readyMain();
    expect(existsSync(join(s.userData, 'sitedesk.lock'))).toBe(true);
    s.app.quit();
    expect(child.received.map((r) => r.message)).toEqual([{ type: 'shutdown' }]);
    expect(s.lifecycle.quitDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.lifecycle.quitDone).toBe(false);
    child.exit(0); // the Host closed its database and exited
    await vi.advanceTimersByTimeAsync(0);
    expect(s.lifecycle.quitDone).toBe(true);
    expect(s.children).toHaveLength(1); // an exit while quitting is not a crash: no restart
    expect(existsSync(join(s.userData, 'sitedesk.lock'))).toBe(false); // the folder is free again
  });

  test('a Host that does not close is killed after 3 s, and the quit goes on even if it never answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { s, child } = await readyMain();
    child.dieOnKill = false; // hung for good
    s.app.quit();
    await vi.advanceTimersByTimeAsync(2999);
    expect(child.kills).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(child.kills).toBe(1);
    expect(s.lifecycle.quitDone).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(s.lifecycle.quitDone).toBe(true);
  });
});

describe('the preload', () => {
  function loadPreload(ipcMain = new EventEmitter(), contents = new FakeWebContents()) {
    const page = createPageStandIn(contents, ipcMain);
    const { required } = runSandboxedPreload(readFileSync(PRELOAD, 'utf8'), page.electron);
    return { page, required, contents };
  }
  type Bridge = { invoke(channel: unknown, input: unknown): Promise<unknown>; on(event: unknown, cb: unknown): () => unknown };

  test('exposes exactly window.sitedesk with invoke and on, requires nothing but electron, and asks for its port', () => {
    const { page, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect(page.exposed.map((e) => e.key)).toEqual(['sitedesk']);
    const api = page.exposed[0]!.api as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.getOwnPropertyNames(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.values(api).map((v) => typeof v)).toEqual(['function', 'function']);
    expect(page.sent).toEqual([{ channel: 'host-port-request', args: [] }]);
  });

  test('calls wait for the port, travel over it, and fail plainly when the Host restarts', async () => {
    const { page, contents } = loadPreload();
    const api = page.exposed[0]!.api as Bridge;
    const statuses: unknown[] = [];
    api.on('host.status', (p: unknown) => statuses.push(p));

    const early = api.invoke('app.info', {});
    const { port1: hostEnd, port2: pageEnd } = new MessageChannel();
    const received: unknown[] = [];
    hostEnd.onmessage = (e) => {
      received.push(e.data);
      const m = e.data as { id: number };
      hostEnd.postMessage({ id: m.id, ok: true, value: { answered: m.id } });
    };
    contents.postMessage('host-port', null, [pageEnd as unknown as MessagePort]);
    expect(await early).toEqual({ ok: true, value: { answered: 1 } });
    expect(received).toEqual([{ id: 1, channel: 'app.info', input: {} }]);
    expect(statuses).toEqual([{ state: 'ready' }]);

    // events from the Host reach subscribers; unsubscribing returns nothing of the preload's internals
    const seen: unknown[] = [];
    const off = api.on('sync.status', (p: unknown) => seen.push(p));
    hostEnd.postMessage({ event: 'sync.status', payload: { pending: 2 } });
    await vi.waitFor(() => expect(seen).toEqual([{ pending: 2 }]));
    expect(off()).toBeUndefined();

    // the Host dies mid-call: the call is answered at once, and the page hears it
    hostEnd.onmessage = null;
    const inFlight = api.invoke('sites.list', {});
    await settle();
    contents.postMessage('host-port', { state: 'restarting' }, []);
    expect(await inFlight).toEqual({ ok: false, error: { code: 'host_unavailable', message: 'The background service restarted; try again.' } });
    expect(statuses).toEqual([{ state: 'ready' }, { state: 'restarting' }]);
    hostEnd.close();

    // the loss told a second time (the port's close, main's message) changes nothing: a call made
    // meanwhile waits for the new Host instead of failing
    const during = api.invoke('app.info', {});
    contents.postMessage('host-port', { state: 'restarting' }, []);
    await settle();
    const next = new MessageChannel();
    next.port1.onmessage = (e) => next.port1.postMessage({ id: (e.data as { id: number }).id, ok: true, value: 'new Host' });
    contents.postMessage('host-port', null, [next.port2 as unknown as MessagePort]);
    expect(await during).toEqual({ ok: true, value: 'new Host' });
    expect(statuses).toEqual([{ state: 'ready' }, { state: 'restarting' }, { state: 'ready' }]);
    next.port1.close();

    // what is not a call is refused in words, without throwing into the page
    expect(await api.invoke(42, {})).toEqual({ ok: false, error: { code: 'unknown_channel', message: 'The channel name must be a string.' } });
    expect(() => api.on('x', 'not a function')).toThrow(TypeError);
  });
});

describe('the menu', () => {
  type Item = { label?: string; role?: string; type?: string; enabled?: boolean; accelerator?: string; submenu?: Item[]; click?: () => void };
  /** One line per menu: its title, then each item (role, label, separator "-"; "(off)" when disabled). */
  const outline = (template: Item[]) =>
    template.map((m) => {
      const items = (m.submenu ?? []).map((i) => (i.type === 'separator' ? '-' : `${i.role ?? i.label}${i.enabled === false ? ' (off)' : ''}`));
      return [m.label ?? m.role, ...items].join(' | ');
    });
  const items = (template: Item[]): Item[] => template.flatMap((m) => [m, ...items(m.submenu ?? [])]);

  async function menuOn(platform: NodeJS.Platform, isPackaged: boolean) {
    return onPlatform(platform, async () => {
      const { s } = await readyMain({ isPackaged });
      expect(s.menus).toHaveLength(1);
      return { s, template: s.menus[0]!.template as Item[] };
    });
  }

  test('Windows and Linux, installed: standard roles (the platform’s accelerators), updates under Help', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    for (const platform of ['win32', 'linux'] as const) {
      const { template } = await menuOn(platform, true);
      expect(outline(template), platform).toEqual([
        'File | close | - | quit',
        'Edit | undo | redo | - | cut | copy | paste | selectAll',
        'View | resetZoom | zoomIn | zoomOut | - | togglefullscreen',
        'windowMenu',
        'help | Sitedesk on GitHub | Report a Problem… | - | Check for Updates…',
      ]);
      // no accelerator of our own overrides a role's (Ctrl+Z, Ctrl+Q, Ctrl+0… come with the roles)
      expect(items(template).filter((i) => i.accelerator !== undefined)).toEqual([]);
    }
  });

  test('macOS: the app menu with About, Services and Quit; development adds reload and the developer tools', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { template } = await menuOn('darwin', false);
    expect(outline(template)).toEqual([
      'Sitedesk | about | Check for Updates… (off) | - | services | - | hide | hideOthers | unhide | - | quit',
      'File | close',
      'Edit | undo | redo | - | cut | copy | paste | selectAll',
      'View | reload | forceReload | toggleDevTools | - | resetZoom | zoomIn | zoomOut | - | togglefullscreen',
      'windowMenu',
      'help | Sitedesk on GitHub | Report a Problem…',
    ]);
    expect(items(template).filter((i) => i.accelerator !== undefined)).toEqual([]);
  });

  test('Help opens the project’s pages in the browser', async () => {
    const { s } = await readyMain();
    const help = (s.menus[0]!.template as Item[]).find((m) => m.role === 'help')!;
    for (const item of help.submenu!.filter((i) => i.label?.startsWith('Sitedesk') || i.label?.startsWith('Report'))) item.click!();
    await settle();
    expect(s.opened).toEqual(['https://github.com/sitedesk/sitedesk', 'https://github.com/sitedesk/sitedesk/issues']);
  });
});

describe('the updater', () => {
  const checkItem = (s: Run) =>
    (s.menus[0]!.template as { submenu?: { label?: string; click?: () => void }[] }[]).flatMap((m) => m.submenu ?? []).find((i) => i.label === 'Check for Updates…')!;
  const statuses = (child: FakeChild) =>
    child.received.map((r) => r.message as { type: string; event?: string; payload?: unknown }).filter((m) => m.type === 'emit').map((m) => m.payload);

  test('a development run never touches the updater, checks nothing, and its menu item is off', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { s } = await readyMain({ isPackaged: false });
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    checkItem(s).click!();
    expect(s.updaterModule.touched).toBe(0);
    expect(s.autoUpdater.checks).toBe(0);
  });

  test('installed: checks 10 s after start and every 6 hours; a feed it cannot reach is said plainly, and in a dialog when asked for', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let updater: Run['autoUpdater'] | null = null;
    const unreachable = () => {
      // electron-updater reports a failed check as an 'error' event and a rejected promise
      const err = new Error('net::ERR_NAME_NOT_RESOLVED\n    at SimpleURLLoaderWrapper.<anonymous> (node:electron/js2c/browser_init:2:114729)');
      updater!.emit('error', err);
      return Promise.reject(err);
    };
    const { s, child } = await readyMain({ isPackaged: true, checkForUpdates: unreachable });
    updater = s.autoUpdater;
    expect(s.autoUpdater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(s.autoUpdater.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.autoUpdater.checks).toBe(1);
    const [status] = statuses(child) as { state: string; message: string }[];
    expect(status!.state).toBe('error');
    expect(status!.message).toMatch(/could not reach the update server/i);
    expect(status!.message).toMatch(/internet connection/i);
    expect(status!.message).not.toMatch(/\n|SimpleURLLoader/);
    expect(s.messageBoxes).toHaveLength(0); // a periodic check does not interrupt the person
    await vi.advanceTimersByTimeAsync(6 * 60 * 60 * 1000);
    expect(s.autoUpdater.checks).toBe(2);

    checkItem(s).click!();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.autoUpdater.checks).toBe(3);
    expect(s.messageBoxes).toHaveLength(1);
    expect(s.messageBoxes[0]!.options).toMatchObject({ type: 'error', message: 'Sitedesk could not check for updates.', detail: status!.message });
  });

  test('a check the person asked for says so when there is nothing new; a periodic one stays quiet', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let updater: Run['autoUpdater'] | null = null;
    const nothingNew = () => {
      updater!.emit('checking-for-update');
      updater!.emit('update-not-available', { version: '0.1.0' });
      return Promise.resolve(null);
    };
    const { s, child } = await readyMain({ isPackaged: true, checkForUpdates: nothingNew });
    updater = s.autoUpdater;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(statuses(child)).toEqual([{ state: 'checking' }, { state: 'none' }]);
    expect(s.messageBoxes).toHaveLength(0);
    checkItem(s).click!();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.messageBoxes.map((b) => b.options)).toEqual([{ type: 'info', message: 'Sitedesk is up to date.', detail: 'You have version 0.1.0.', buttons: ['OK'] }]);
  });

  test('any other failure keeps its first line; a downloaded update closes the Host before installing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { s, child } = await readyMain({ isPackaged: true, messageBoxResponses: [0] });
    s.autoUpdater.emit('error', new Error('Cannot find latest.yml in the latest release artifacts\nHttpError: 404'));
    expect((statuses(child).at(-1) as { message: string }).message).toBe('Could not update Sitedesk: Cannot find latest.yml in the latest release artifacts');

    s.autoUpdater.emit('update-downloaded', { version: '0.2.0' });
    expect(statuses(child).at(-1)).toEqual({ state: 'ready', version: '0.2.0' });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.messageBoxes[0]!.options).toMatchObject({ message: 'Sitedesk 0.2.0 is ready to install.', buttons: ['Restart Now', 'Later'] });
    expect(child.received.at(-1)!.message).toEqual({ type: 'shutdown' });
    expect(s.autoUpdater.installs).toEqual([]);
    child.exit(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.autoUpdater.installs).toEqual([[false, true]]);
  });
});

describe('the whole path, with the real Host', () => {
  test('a page call crosses the preload, main and the utility process and is answered by the Host; after a crash it is again', async () => {
    process.env.SITEDESK_SECRETS = 'memory'; // the Host's secrets stay in memory, never in this machine's keychain
    cleanups.push(() => void delete process.env.SITEDESK_SECRETS);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }); // the installed updater's 6-hour check never comes due here
    const { s, win } = await readyMain({ child: 'worker', isPackaged: true });
    const page = createPageStandIn(win.webContents, s.ipcMain);
    runSandboxedPreload(readFileSync(PRELOAD, 'utf8'), page.electron);
    const api = page.exposed[0]!.api as {
      invoke(channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
      on(event: string, cb: (payload: unknown) => void): () => void;
    };
    const hostStates: unknown[] = [];
    const updates: unknown[] = [];
    api.on('host.status', (p) => hostStates.push(p));
    api.on('updater.status', (p) => updates.push(p));

    const info = await api.invoke('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { shell: 'electron', version } });

    // main → Host → page: the updater's news travels the Host's event path to the page
    s.autoUpdater.emit('update-available', { version: '9.9.9' });
    await vi.waitFor(() => expect(updates).toEqual([{ state: 'available', version: '9.9.9' }]), { timeout: 5000 });

    const first = s.children[0] as WorkerChild;
    first.kill();
    await vi.waitFor(() => expect(s.children).toHaveLength(2), { timeout: 5000 });
    const again = await api.invoke('app.info', {});
    expect(again).toMatchObject({ ok: true, value: { shell: 'electron' } });
    expect(hostStates).toEqual([{ state: 'ready' }, { state: 'restarting' }, { state: 'ready' }]);
    // the new Host's page hears the latest updater state again, which it would have missed
    await vi.waitFor(() => expect(updates).toEqual([{ state: 'available', version: '9.9.9' }, { state: 'available', version: '9.9.9' }]), { timeout: 5000 });

    // quitting: the Host closes its database and exits by itself, and the app quits after it
    s.app.quit();
    await vi.waitFor(() => expect(s.lifecycle.quitDone).toBe(true), { timeout: 10_000 });
    const second = s.children[1] as WorkerChild;
    expect(second.kills).toBe(0);
    expect(second.exited).toBe(true);
    expect(s.children).toHaveLength(2);
  });
});
