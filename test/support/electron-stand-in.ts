/**
 * A recording stand-in for the part of Electron's API the shell uses (electron/main.ts, window.ts,
 * menu.ts, updater.ts, utility.ts, preload.ts), and for electron-updater's `autoUpdater`. Electron's
 * binary cannot be downloaded on every machine, so the shell's built bundles (out/app/main/main.cjs,
 * out/app/main/preload.cjs, out/app/host/host.cjs) are loaded in Node with `require('electron')`
 * answered by this module: the one place where a stand-in is right, because Electron is the true edge of the
 * app. Everything behind the edge is the real built code; the stand-in only records what the shell
 * asks of Electron and lets a test play Electron's part (the app becoming ready, a second instance,
 * a navigation, a permission request, the utility process dying).
 *
 * Only what the shell touches is here: a new Electron API the shell starts to use fails loudly
 * ("not a function") instead of passing unnoticed.
 */
import { EventEmitter } from 'node:events';
import Module from 'node:module';
import { createRequire } from 'node:module';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

const nodeRequire = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// What Electron hands to the shell's callbacks, as far as the shell reads it.

/** An Electron event object: only `preventDefault` is used by the shell. */
export class FakeEvent {
  defaultPrevented = false;
  constructor(readonly fields: Record<string, unknown> = {}) {
    Object.assign(this, fields);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
  isDestroyed(): boolean;
}

export const frame = (url: string, parent: FakeFrame | null = null): FakeFrame => ({ url, parent, isDestroyed: () => false });

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

/** A page's message on a channel main sent it (`webContents.postMessage`). */
export interface PostedToPage {
  channel: string;
  message: unknown;
  ports: MessagePort[];
}

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  windowOpenHandler: WindowOpenHandler | null = null;
  readonly posted: PostedToPage[] = [];
  destroyed = false;
  /** The page's preload, once one is attached: it receives what main posts to the page. */
  page: { deliver(channel: string, message: unknown, ports: MessagePort[]): void } | null = null;

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  postMessage(channel: string, message: unknown, ports: MessagePort[] = []): void {
    this.posted.push({ channel, message, ports });
    // IPC between processes is never synchronous: the page hears it on a later turn
    setImmediate(() => this.page?.deliver(channel, message, ports));
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
  /** Plays Chromium asking to navigate: returns whether the shell let it happen. */
  navigate(url: string): boolean {
    const event = new FakeEvent({ url });
    this.emit('will-navigate', event);
    return !event.defaultPrevented;
  }
  /** Plays a frame inside the page (the plugin jail) navigating itself: whether the shell let it happen. */
  navigateFrame(url: string): boolean {
    const event = new FakeEvent({ url, isMainFrame: false, frame: frame(url, frame('app://sitedesk/index.html')) });
    this.emit('will-frame-navigate', event);
    return !event.defaultPrevented;
  }
  /** Plays `window.open` / target=_blank: what the shell answered. */
  open(url: string): { action: 'allow' | 'deny' } {
    if (!this.windowOpenHandler) return { action: 'allow' }; // Electron's default: a new window opens
    return this.windowOpenHandler({ url });
  }
  /** Plays a page adding a <webview>: whether the shell let it attach. */
  attachWebview(): boolean {
    const event = new FakeEvent({});
    this.emit('will-attach-webview', event, {}, {});
    return !event.defaultPrevented;
  }
}

// ---------------------------------------------------------------------------------------------
// The utility process.

/** What a forked utility process is asked and does; a test plays the child's part. */
export interface ChildLike extends EventEmitter {
  readonly modulePath: string;
  readonly options: { serviceName?: string; env?: Record<string, string | undefined> };
  readonly received: { message: unknown; ports: MessagePort[] }[];
  readonly kills: number;
  postMessage(message: unknown, transfer?: MessagePort[]): void;
  kill(): boolean;
}

/** A utility process whose part the test plays: it records what main sends and emits what the test says. */
export class FakeChild extends EventEmitter implements ChildLike {
  readonly received: { message: unknown; ports: MessagePort[] }[] = [];
  kills = 0;
  exited = false;
  /** Whether kill() ends the process (emits 'exit'); a hung Host ignores it. */
  dieOnKill = true;
  constructor(
    readonly modulePath: string,
    readonly options: { serviceName?: string; env?: Record<string, string | undefined> },
  ) {
    super();
  }
  postMessage(message: unknown, transfer: MessagePort[] = []): void {
    if (this.exited) throw new Error('The utility process has exited.');
    this.received.push({ message, ports: transfer });
  }
  kill(): boolean {
    this.kills++;
    if (this.dieOnKill) this.exit(-1);
    return true;
  }
  /** The Host speaking to main (`process.parentPort.postMessage`). */
  say(message: unknown): void {
    this.emit('message', message);
  }
  exit(code: number): void {
    if (this.exited) return;
    this.exited = true;
    this.emit('exit', code);
  }
}

/**
 * The Host's side run for real: host.cjs in a worker thread, with `process.parentPort`
 * played over the worker's own port (ports travel in it as they do between Electron's processes)
 * and the utility process's `require('electron')` answered with `net.fetch` only, as the utility
 * process has no windows or dialogs.
 */
export class WorkerChild extends EventEmitter implements ChildLike {
  readonly received: { message: unknown; ports: MessagePort[] }[] = [];
  kills = 0;
  readonly worker: Worker;
  exited = false;
  constructor(
    readonly modulePath: string,
    readonly options: { serviceName?: string; env?: Record<string, string | undefined> },
  ) {
    super();
    this.worker = new Worker(UTILITY_PROCESS_PRELUDE, { eval: true, workerData: { modulePath }, env: { ...options.env } as Record<string, string> });
    this.worker.on('message', (message: unknown) => this.emit('message', message));
    this.worker.on('error', (err) => console.error('The Host worker failed:', err));
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.emit('exit', code);
    });
  }
  postMessage(message: unknown, transfer: MessagePort[] = []): void {
    if (this.exited) throw new Error('The utility process has exited.');
    this.received.push({ message, ports: transfer });
    this.worker.postMessage({ data: message, ports: transfer }, transfer);
  }
  kill(): boolean {
    this.kills++;
    void this.worker.terminate();
    return true;
  }
}

/** Runs in the worker before host.cjs: Electron's utility-process globals, as far as the Host reads them. */
const UTILITY_PROCESS_PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
const Module = require('node:module');
// Electron's MessagePortMain: 'message' listeners get { data, ports }, and start() begins delivery.
const portMain = (port) => ({
  on(event, listener) {
    if (event === 'message') port.on('message', (data) => listener({ data, ports: [] }));
    else port.on(event, listener);
    return this;
  },
  postMessage: (message) => port.postMessage(message),
  start: () => port.start(),
  close: () => port.close(),
});
process.parentPort = {
  on(event, listener) {
    if (event === 'message') parentPort.on('message', ({ data, ports }) => listener({ data, ports: ports.map(portMain) }));
    return this;
  },
  postMessage: (message) => parentPort.postMessage(message),
};
const electronInUtility = { net: { fetch: (...args) => globalThis.fetch(...args) } };
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'electron' ? electronInUtility : load.call(this, request, ...rest);
};
require(workerData.modulePath);
`;

// ---------------------------------------------------------------------------------------------
// The stand-in for one run of main (a fresh one per load of main.cjs).

export interface MessageBoxCall {
  parent: unknown;
  options: { type?: string; message: string; detail?: string; buttons?: string[] };
}

export interface StandInOptions {
  userData: string;
  /** `app.requestSingleInstanceLock()`'s answer: false when another copy holds the lock. */
  singleInstance?: boolean;
  isPackaged?: boolean;
  /** How a forked utility process behaves: a child the test plays (default) or the real Host. */
  child?: 'fake' | 'worker';
  /** The answers of `dialog.showMessageBox`, in order (button index); 0 when none is left. */
  messageBoxResponses?: number[];
  /** Makes `protocol.handle` throw this message (a start that fails once the app is ready). */
  protocolHandleError?: string;
  /** What `autoUpdater.checkForUpdates()` does. */
  checkForUpdates?: () => Promise<unknown>;
}

export type Electronish = ReturnType<typeof createStandIn>;

export function createStandIn(o: StandInOptions) {
  const calls: { api: string; args: unknown[] }[] = [];
  const record = (api: string, ...args: unknown[]) => void calls.push({ api, args });
  const paths = new Map<string, string>([['userData', o.userData]]);
  const messageBoxResponses = [...(o.messageBoxResponses ?? [])];
  const messageBoxes: MessageBoxCall[] = [];
  const errorBoxes: { title: string; content: string }[] = [];
  const children: ChildLike[] = [];
  const opened: string[] = [];

  let ready = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));
  let quitting = false;
  const lifecycle = { quitRequests: 0, quitDone: false, exitCode: null as number | null };

  class App extends EventEmitter {
    name = 'Sitedesk';
    isPackaged = o.isPackaged ?? false;
    setPath(name: string, path: string) {
      record('app.setPath', name, path);
      paths.set(name, path);
    }
    getPath(name: string) {
      const p = paths.get(name);
      if (!p) throw new Error(`The stand-in has no path for "${name}".`);
      return p;
    }
    getVersion() {
      return '0.1.0';
    }
    requestSingleInstanceLock() {
      record('app.requestSingleInstanceLock');
      return o.singleInstance ?? true;
    }
    enableSandbox() {
      record('app.enableSandbox');
    }
    setAppUserModelId(id: string) {
      record('app.setAppUserModelId', id);
    }
    isReady() {
      return ready;
    }
    whenReady() {
      return readyPromise;
    }
    /** Electron's order: 'before-quit' (which may be prevented), then 'will-quit' and 'quit'. */
    quit() {
      lifecycle.quitRequests++;
      record('app.quit');
      if (quitting || lifecycle.quitDone) return;
      const before = new FakeEvent();
      this.emit('before-quit', before);
      if (before.defaultPrevented) return;
      quitting = true;
      const will = new FakeEvent();
      this.emit('will-quit', will);
      if (will.defaultPrevented) {
        quitting = false;
        return;
      }
      lifecycle.quitDone = true;
      this.emit('quit', new FakeEvent(), 0);
    }
    exit(code = 0) {
      record('app.exit', code);
      lifecycle.exitCode = code;
    }
  }
  const app = new App();

  class FakeBrowserWindow extends EventEmitter {
    static all: FakeBrowserWindow[] = [];
    static focused: FakeBrowserWindow | null = null;
    static getAllWindows() {
      return FakeBrowserWindow.all.filter((w) => !w.destroyed);
    }
    static getFocusedWindow() {
      return FakeBrowserWindow.focused && !FakeBrowserWindow.focused.destroyed ? FakeBrowserWindow.focused : null;
    }
    readonly webContents = new FakeWebContents();
    readonly loaded: string[] = [];
    minimized = false;
    maximized = false;
    visible = false;
    destroyed = false;
    readonly actions: string[] = [];
    constructor(readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> }) {
      super();
      if (!ready) throw new Error('Cannot create BrowserWindow before app is ready');
      record('new BrowserWindow', options);
      FakeBrowserWindow.all.push(this);
      app.emit('web-contents-created', new FakeEvent(), this.webContents);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    isMinimized() {
      return this.minimized;
    }
    isMaximized() {
      return this.maximized;
    }
    isDestroyed() {
      return this.destroyed;
    }
    restore() {
      this.actions.push('restore');
      this.minimized = false;
    }
    show() {
      this.actions.push('show');
      this.visible = true;
    }
    focus() {
      this.actions.push('focus');
      FakeBrowserWindow.focused = this;
    }
    maximize() {
      this.actions.push('maximize');
      this.maximized = true;
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 1000, height: 700 };
    }
    /** The person closes the window. */
    close() {
      this.emit('close', new FakeEvent());
      this.destroyed = true;
      this.webContents.destroy();
      this.emit('closed');
      if (FakeBrowserWindow.getAllWindows().length === 0) app.emit('window-all-closed');
    }
  }

  const permissionHandlers = {
    request: null as null | ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: Record<string, unknown>) => void),
    check: null as null | ((contents: unknown, permission: string, requestingOrigin: string, details: Record<string, unknown>) => boolean),
    device: null as null | ((details: unknown) => boolean),
  };
  let beforeRequest: { filter: { urls: string[] }; listener: (details: Record<string, unknown>, callback: (r: { cancel?: boolean }) => void) => void } | null = null;
  const defaultSession = {
    setPermissionRequestHandler: (h: typeof permissionHandlers.request) => void (permissionHandlers.request = h),
    setPermissionCheckHandler: (h: typeof permissionHandlers.check) => void (permissionHandlers.check = h),
    setDevicePermissionHandler: (h: typeof permissionHandlers.device) => void (permissionHandlers.device = h),
    webRequest: {
      onBeforeRequest: (filter: { urls: string[] }, listener: NonNullable<typeof beforeRequest>['listener']) => void (beforeRequest = { filter, listener }),
    },
  };

  const schemes: unknown[] = [];
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const menus: { template: unknown[] }[] = [];
  const ipcMain = new EventEmitter();

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    session: { defaultSession },
    protocol: {
      registerSchemesAsPrivileged: (list: unknown[]) => {
        if (ready) throw new Error('registerSchemesAsPrivileged must be called before the app is ready.');
        schemes.push(...list);
      },
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
        if (!ready) throw new Error('protocol.handle needs the app to be ready.');
        if (o.protocolHandleError) throw new Error(o.protocolHandleError);
        protocolHandlers.set(scheme, handler);
      },
    },
    ipcMain,
    dialog: {
      showErrorBox: (title: string, content: string) => void errorBoxes.push({ title, content }),
      showMessageBox: (...args: unknown[]) => {
        const [parent, options] = args.length === 2 ? (args as [unknown, MessageBoxCall['options']]) : [null, args[0] as MessageBoxCall['options']];
        messageBoxes.push({ parent, options });
        return Promise.resolve({ response: messageBoxResponses.shift() ?? 0, checkboxChecked: false });
      },
      showOpenDialog: (...args: unknown[]) => {
        record('dialog.showOpenDialog', ...args);
        return Promise.resolve({ canceled: false, filePaths: ['/chosen/folder'] });
      },
      showSaveDialog: (...args: unknown[]) => {
        record('dialog.showSaveDialog', ...args);
        return Promise.resolve({ canceled: false, filePath: '/chosen/export.csv' });
      },
    },
    shell: {
      openExternal: (url: string) => {
        opened.push(url);
        return Promise.resolve();
      },
    },
    screen: {
      getDisplayMatching: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
    },
    nativeTheme: { shouldUseDarkColors: false },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: { template: unknown[] }) => void menus.push(menu),
    },
    MessageChannelMain: class {
      readonly port1: MessagePort;
      readonly port2: MessagePort;
      constructor() {
        const channel = new MessageChannel();
        this.port1 = channel.port1;
        this.port2 = channel.port2;
      }
    },
    utilityProcess: {
      fork: (modulePath: string, args: string[], options: ChildLike['options']) => {
        record('utilityProcess.fork', modulePath, args, options);
        const child = o.child === 'worker' ? new WorkerChild(modulePath, options) : new FakeChild(modulePath, options);
        children.push(child);
        return child;
      },
    },
  };

  // electron-updater: `autoUpdater` is a getter, as the real one builds the platform's updater on first touch.
  class FakeAutoUpdater extends EventEmitter {
    autoDownload = false;
    autoInstallOnAppQuit = false;
    checks = 0;
    installs: unknown[][] = [];
    checkForUpdates() {
      this.checks++;
      return (o.checkForUpdates ?? (() => Promise.resolve(null)))();
    }
    quitAndInstall(...args: unknown[]) {
      this.installs.push(args);
    }
  }
  const autoUpdater = new FakeAutoUpdater();
  const updaterModule = { touched: 0 } as { touched: number; autoUpdater: FakeAutoUpdater };
  Object.defineProperty(updaterModule, 'autoUpdater', {
    enumerable: true,
    get() {
      updaterModule.touched++;
      return autoUpdater;
    },
  });

  return {
    electron,
    updaterModule,
    autoUpdater,
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain,
    calls,
    lifecycle,
    schemes,
    protocolHandlers,
    permissionHandlers,
    get beforeRequest() {
      return beforeRequest;
    },
    menus,
    messageBoxes,
    errorBoxes,
    children,
    opened,
    /** Electron fires 'ready': whenReady() resolves, and what waits on it runs. */
    async ready() {
      ready = true;
      markReady();
      app.emit('ready');
      await new Promise((r) => setImmediate(r));
    },
    /** The app's page asks main for its port (ipcRenderer.send(HOST_PORT_REQUEST) in the preload). */
    requestPort(contents: FakeWebContents, from: FakeFrame = frame('app://sitedesk/index.html')) {
      ipcMain.emit('host-port-request', { sender: contents, senderFrame: from });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Loading the built bundles with the stand-in answering `require('electron')`.

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleInternals = Module as unknown as { _load: Loader };

/**
 * Requires `file` (a built CommonJS bundle) afresh with 'electron' and 'electron-updater' answered
 * by `modules`. Each load is a new run of the bundle's top level, as a new app start would be.
 */
export function loadBundle(file: string, modules: Record<string, unknown>): unknown {
  const original = moduleInternals._load;
  moduleInternals._load = function (request, parent, isMain) {
    if (Object.hasOwn(modules, request)) return modules[request];
    if (request === 'electron' || request === 'electron-updater') throw new Error(`The bundle asked for "${request}", which this load does not provide.`);
    return original.call(this, request, parent, isMain);
  };
  try {
    delete nodeRequire.cache[nodeRequire.resolve(file)];
    return nodeRequire(file);
  } finally {
    moduleInternals._load = original;
  }
}

/**
 * What a sandboxed preload may `require`: Electron's renderer modules and three of Node's (Electron's
 * sandbox rules). Anything else throws, as it would in the app.
 */
export const SANDBOXED_PRELOAD_MODULES = ['electron', 'events', 'timers', 'url'] as const;

/** The page's side: the preload's `electron` (contextBridge and ipcRenderer) wired to one web contents and main's ipcMain. */
export function createPageStandIn(contents: FakeWebContents, ipcMain: EventEmitter, senderFrame: FakeFrame = frame('app://sitedesk/index.html')) {
  const listeners = new Map<string, ((event: { ports: MessagePort[]; sender: unknown }, message: unknown) => void)[]>();
  const exposed: { key: string; api: unknown }[] = [];
  const sent: { channel: string; args: unknown[] }[] = [];
  contents.page = {
    deliver(channel, message, ports) {
      for (const l of listeners.get(channel) ?? []) l({ ports, sender: {} }, message);
    },
  };
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => void exposed.push({ key, api }),
    },
    ipcRenderer: {
      on(channel: string, listener: (event: { ports: MessagePort[]; sender: unknown }, message: unknown) => void) {
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
        return this;
      },
      send(channel: string, ...args: unknown[]) {
        sent.push({ channel, args });
        setImmediate(() => ipcMain.emit(channel, { sender: contents, senderFrame }, ...args));
      },
    },
  };
  return { electron, exposed, sent, listeners };
}

/**
 * Runs the built preload as Electron runs a sandboxed one: a CommonJS function whose `require`
 * answers only the sandbox's modules ('electron' from `electron`), so a preload that reached for
 * anything else (node:path, a second file) would fail here as it fails in the app.
 */
export function runSandboxedPreload(source: string, electron: unknown): { required: string[] } {
  const required: string[] = [];
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name === 'electron') return electron;
    if ((SANDBOXED_PRELOAD_MODULES as readonly string[]).includes(name)) return nodeRequire(name);
    throw new Error(`Cannot find module '${name}' (a sandboxed preload may require only ${SANDBOXED_PRELOAD_MODULES.join(', ')})`);
  };
  const module = { exports: {} };
  const run = new Function('require', 'module', 'exports', source) as (r: typeof sandboxRequire, m: typeof module, e: unknown) => void;
  run(sandboxRequire, module, module.exports);
  return { required };
}
