/**
 * Main's side of the Host: runs it (out/app/host/host.cjs, built from this file) in an
 * Electron utilityProcess and hands every window a MessagePort to it. A Host that dies is restarted
 * with backoff (electron/host-restarts.ts, the rule browser mode's server follows too) and every
 * window gets a fresh port, so windows stay open through a crash. The messages and channel names
 * are electron/host-messages.ts.
 *
 * This file is also the utility process's entry (its last lines): there it starts the Host with
 * Electron's `net.fetch` (system proxies, PAC). A function cannot cross the process boundary, so
 * it is taken inside the utility process, and the Host itself never imports Electron.
 */
import { app, BrowserWindow, dialog, MessageChannelMain, net, utilityProcess, type UtilityProcess, type WebContents } from 'electron';
import { join } from 'node:path';
import type { UpdaterStatus } from './contract/app';
import { HOST_PORT_CHANNEL, readFromHost, type FromHost, type HostRestarting, type ToHost } from './host-messages';
import { RestartLog } from './host-restarts';

const SHUTDOWN_GRACE_MS = 3000;

export interface HostSupervisor {
  /** Give this page a port to the Host now, and a fresh one after every Host restart. */
  connect(contents: WebContents): void;
  /** Publish an updater status to every connection, through the Host's event path. */
  emitUpdaterStatus(status: UpdaterStatus): void;
  /** Ask the Host to close its database cleanly; kill it if it takes too long. */
  stop(): Promise<void>;
}

export interface HostEvents {
  /** The configured sites' origins, at the Host's start and whenever the site list changes. */
  onImageOrigins?: (origins: string[]) => void;
}

export function startHost(events: HostEvents = {}): HostSupervisor {
  const modulePath = join(__dirname, '..', 'host', 'host.cjs');
  const clients = new Set<WebContents>();
  const restarts = new RestartLog();
  let child: UtilityProcess | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let lastUpdaterStatus: UpdaterStatus | null = null;

  const post = (message: ToHost, transfer?: Electron.MessagePortMain[]) => {
    try {
      child?.postMessage(message, transfer);
    } catch (err) {
      console.error('Could not reach the Sitedesk Host:', err); // it is exiting; 'exit' follows
    }
  };

  function sendPort(contents: WebContents): void {
    if (!child || contents.isDestroyed()) return;
    const { port1, port2 } = new MessageChannelMain();
    post({ type: 'connect' }, [port1]);
    contents.postMessage(HOST_PORT_CHANNEL, null, [port2]);
    // A newly connected page missed earlier broadcasts; the latest updater state is all it needs.
    if (lastUpdaterStatus) post({ type: 'emit', event: 'updater.status', payload: lastUpdaterStatus });
  }

  function spawn(): void {
    const proc = utilityProcess.fork(modulePath, [], {
      serviceName: 'Sitedesk Host',
      env: { ...process.env, SITEDESK_DATA_DIR: app.getPath('userData') },
    });
    child = proc;
    proc.once('exit', (code) => onExit(proc, code));
    proc.on('message', (data: unknown) => {
      const m = readFromHost(data);
      if (m?.type === 'image-origins') events.onImageOrigins?.(m.origins);
      else if (m?.type === 'chooseFolder') void answerHost(proc, m);
      else if (m?.type === 'chooseSaveFile') void answerSave(proc, m);
      else if (m?.type === 'chooseOpenFile') void answerOpenFile(proc, m);
    });
    for (const contents of clients) sendPort(contents);
  }

  function onExit(proc: UtilityProcess, code: number): void {
    if (child !== proc) return;
    child = null;
    if (stopping) return;
    console.error(`The Sitedesk Host stopped unexpectedly (exit code ${code}); restarting it.`);
    // Tell each page now, so calls in flight fail at once instead of waiting for the restart.
    for (const contents of clients) {
      if (!contents.isDestroyed()) contents.postMessage(HOST_PORT_CHANNEL, { state: 'restarting' } satisfies HostRestarting);
    }
    const next = restarts.exited();
    if (!next.restart) {
      void giveUp();
      return;
    }
    restartTimer = setTimeout(spawn, next.delayMs);
  }

  /** The Host asks for what only main has: the system's folder dialog, over the focused window. */
  async function answerHost(proc: UtilityProcess, ask: Extract<FromHost, { type: 'chooseFolder' }>): Promise<void> {
    const options = { title: ask.title, properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[] };
    const parent = BrowserWindow.getFocusedWindow();
    let folder: string | null = null;
    try {
      const r = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      folder = r.canceled ? null : (r.filePaths[0] ?? null);
    } catch (err) {
      console.error('The folder dialog failed:', err);
    }
    if (child === proc) post({ type: 'folderChosen', id: ask.id, folder });
  }

  /** The system's save dialog, over the focused window; it asks before replacing a file itself. */
  async function answerSave(proc: UtilityProcess, ask: Extract<FromHost, { type: 'chooseSaveFile' }>): Promise<void> {
    const options = {
      title: ask.title,
      defaultPath: ask.defaultName,
      filters: [{ name: ask.filterName, extensions: ask.extensions }],
      properties: ['createDirectory', 'showOverwriteConfirmation'] as ('createDirectory' | 'showOverwriteConfirmation')[],
    };
    const parent = BrowserWindow.getFocusedWindow();
    let file: string | null = null;
    try {
      const r = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      file = r.canceled ? null : (r.filePath ?? null) || null;
    } catch (err) {
      console.error('The save dialog failed:', err);
    }
    if (child === proc) post({ type: 'saveFileChosen', id: ask.id, file });
  }

  /** The open-file dialog for an audit export to import (CSV or JSON), over the focused window. */
  async function answerOpenFile(proc: UtilityProcess, ask: Extract<FromHost, { type: 'chooseOpenFile' }>): Promise<void> {
    const options = {
      title: ask.title,
      properties: ['openFile'] as 'openFile'[],
      filters: [
        { name: 'Audit trail exports', extensions: ['csv', 'json'] },
        { name: 'All files', extensions: ['*'] },
      ],
    };
    const parent = BrowserWindow.getFocusedWindow();
    let file: string | null = null;
    try {
      const r = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      file = r.canceled ? null : (r.filePaths[0] ?? null);
    } catch (err) {
      console.error('The file dialog failed:', err);
    }
    if (child === proc) post({ type: 'openFileChosen', id: ask.id, file });
  }

  async function giveUp(): Promise<void> {
    const { response } = await dialog.showMessageBox({
      type: 'error',
      message: 'Sitedesk’s background service keeps stopping.',
      detail: 'Your saved work is safe. You can try starting the service again, or quit and reopen Sitedesk.',
      buttons: ['Try Again', 'Quit'],
      defaultId: 0,
      cancelId: 1,
    });
    if (stopping) return;
    if (response === 0) {
      restarts.reset();
      spawn();
    } else {
      app.quit();
    }
  }

  spawn();

  return {
    connect(contents) {
      if (!clients.has(contents)) {
        clients.add(contents);
        contents.once('destroyed', () => clients.delete(contents));
      }
      sendPort(contents); // while the Host is restarting there is no child: the port follows spawn()
    },
    emitUpdaterStatus(status) {
      lastUpdaterStatus = status;
      post({ type: 'emit', event: 'updater.status', payload: status });
    },
    stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const proc = child;
      if (!proc) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => proc.kill(), SHUTDOWN_GRACE_MS);
        const giveUpWaiting = setTimeout(resolve, SHUTDOWN_GRACE_MS + 2000);
        proc.once('exit', () => {
          clearTimeout(kill);
          clearTimeout(giveUpWaiting);
          resolve();
        });
        post({ type: 'shutdown' });
      });
    },
  };
}

// Inside the utility process: start the Host (loaded lazily so main never evaluates it).
if ((process as NodeJS.Process & { parentPort?: unknown }).parentPort) {
  void import('./host-process').then((m) => m.runHostProcess({ fetch: net.fetch.bind(net) as typeof fetch }));
}
