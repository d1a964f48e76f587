/**
 * The Host's side of Electron's utilityProcess: `runHostProcess` is called by
 * electron/utility.ts, which is also that process's entry (out/app/host/host.cjs). Plain Node: this file must
 * not import Electron; what Electron adds to the process (`process.parentPort`, MessagePortMain) is
 * described by the small interfaces below. The messages main sends are electron/host-messages.ts.
 *
 * Networking: utility.ts passes Electron's `net.fetch`, which honours system proxies and PAC
 * files; a function cannot cross processes, so it is taken there, inside this process, not in main.
 */
import { join } from 'node:path';
import { isEventName, type EventName, type EventPayload } from './contract';
import { serveConnection } from './core/connection';
import { createHost } from './core/host';
import { openSecretStore } from './secrets/keychain';
import { secretsOptionsFromEnv } from './secrets/options';
import { readToHost, type FromHost } from './host-messages';
import { followImageOrigins } from './core/image-origins';
import type { FetchLike } from './api/http';

/** Electron's MessagePortMain, as far as this file uses it. */
interface PortMain {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  postMessage(message: unknown): void;
  start(): void;
}

/** Electron's `process.parentPort` in a utility process. */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown; ports: PortMain[] }) => void): unknown;
  postMessage(message: unknown): void;
}

export interface HostProcessOptions {
  /** Electron's net.fetch; Node's fetch when absent. */
  fetch?: FetchLike;
}

/** Serves the Host to every port main sends. Called once, by utility.ts, inside the utility process. */
export function runHostProcess(options: HostProcessOptions = {}): void {
  const parentPort = (process as NodeJS.Process & { parentPort?: ParentPort }).parentPort;
  const dataDir = process.env.SITEDESK_DATA_DIR;
  if (!parentPort || !dataDir) {
    console.error('host-process runs only inside Sitedesk’s Electron utility process (SITEDESK_DATA_DIR and parentPort are missing).');
    process.exit(1);
  }
  const port0: ParentPort = parentPort;
  const dir: string = dataDir;

  // The system's folder dialog belongs to main: asked for by id, answered by a `folderChosen`.
  const folderAsks = new Map<number, (folder: string | null) => void>();
  let nextAsk = 1;
  const chooseFolder = () =>
    new Promise<string | null>((resolve) => {
      const id = nextAsk++;
      folderAsks.set(id, resolve);
      port0.postMessage({ type: 'chooseFolder', id, title: 'Choose a folder for the unsynced work' } satisfies FromHost);
    });

  // The system's save dialog likewise (an audit export), answered by a `saveFileChosen`.
  const saveAsks = new Map<number, (file: string | null) => void>();
  const chooseSaveFile = (o: { title: string; defaultName: string; format: 'csv' | 'json' }) =>
    new Promise<string | null>((resolve) => {
      const id = nextAsk++;
      saveAsks.set(id, resolve);
      const filterName = o.format === 'csv' ? 'CSV' : 'JSON';
      port0.postMessage({ type: 'chooseSaveFile', id, title: o.title, defaultName: o.defaultName, filterName, extensions: [o.format] } satisfies FromHost);
    });

  // The system's open-file dialog likewise (an audit export to import, a mailer CSV), answered by `openFileChosen`.
  const fileAsks = new Map<number, (file: string | null) => void>();
  const chooseOpenFile = (o: { title?: string } = {}) =>
    new Promise<string | null>((resolve) => {
      const id = nextAsk++;
      fileAsks.set(id, resolve);
      port0.postMessage({ type: 'chooseOpenFile', id, title: o.title ?? 'Choose an audit trail export (CSV or JSON)' } satisfies FromHost);
    });

  // Same switches as browser mode (electron/web/cli.ts), so tests never touch the real keychain.
  const secretsOptions = secretsOptionsFromEnv();
  const hostReady = (async () => {
    const secrets = secretsOptions ? await openSecretStore(secretsOptions) : undefined; // createHost opens the OS keychain itself
    // the build's licence notices: out/app/licences.json, one folder up from this bundle (out/app/host/host.cjs)
    const noticesFile = join(__dirname, '..', 'licences.json');
    return createHost({ dataDir: dir, shell: 'electron', version: __APP_VERSION__, noticesFile, chooseFolder, chooseSaveFile, chooseOpenFile, ...(secrets ? { secrets } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) });
  })();
  hostReady.catch((err: unknown) => {
    console.error('The Sitedesk Host could not start:', err);
    process.exit(1); // main restarts it with backoff
  });

  let closing: Promise<void> | undefined;
  function shutdown(): Promise<void> {
    closing ??= hostReady
      .then((host) => host.close())
      .catch((err: unknown) => console.error('The Sitedesk Host did not close cleanly:', err))
      .finally(() => process.exit(0));
    return closing;
  }

  function serve(port: PortMain): void {
    hostReady.then(
      (host) => {
        const conn = serveConnection(host, (message) => port.postMessage(message));
        port.on('message', (event) => void conn.receive(event.data));
        port.on('close', () => conn.close());
        port.start(); // messages sent before now were queued by the port, none are lost
      },
      () => undefined, // reported above; the process is exiting
    );
  }

  // main filters the window's image requests by the sites' origins: tell it now and on every change
  void hostReady.then(
    (host) => followImageOrigins(host, (origins) => port0.postMessage({ type: 'image-origins', origins } satisfies FromHost)),
    () => undefined,
  );

  port0.on('message', ({ data, ports }) => {
    const message = readToHost(data);
    if (message?.type === 'connect') {
      const port = ports[0];
      if (port) serve(port);
    } else if (message?.type === 'emit') {
      const { event, payload } = message;
      if (!isEventName(event)) return;
      void hostReady.then((host) => host.emit(event, payload as EventPayload<EventName>), () => undefined);
    } else if (message?.type === 'shutdown') {
      void shutdown();
    } else if (message?.type === 'folderChosen') {
      folderAsks.get(message.id)?.(message.folder);
      folderAsks.delete(message.id);
    } else if (message?.type === 'saveFileChosen') {
      saveAsks.get(message.id)?.(message.file);
      saveAsks.delete(message.id);
    } else if (message?.type === 'openFileChosen') {
      fileAsks.get(message.id)?.(message.file);
      fileAsks.delete(message.id);
    }
  });

  process.on('SIGTERM', () => void shutdown());
}
