/**
 * What Electron's main process and the Host's utility process say to each other, and the names of
 * the IPC channels a page's port travels on: one typed module for electron/utility.ts (main),
 * electron/host-process.ts (the Host) and electron/preload.ts (the page). It imports only the
 * contract's types, so the Host and the sandboxed preload take it without Electron or main-process code.
 */
import type { EventName, UpdaterStatus } from './contract';
import { originOf } from './common/csp';

/** Main → preload: a port to the Host (in `ports[0]`), or `{state:'restarting'}` with none. */
export const HOST_PORT_CHANNEL = 'host-port';
/** Preload → main: "this page wants a port" (sent once per page load, so reloads reconnect). */
export const HOST_PORT_REQUEST = 'host-port-request';

/** Sent on HOST_PORT_CHANNEL without a port: the Host stopped, calls in flight will not be answered. */
export interface HostRestarting {
  state: 'restarting';
}

export const isHostRestarting = (data: unknown): data is HostRestarting =>
  typeof data === 'object' && data !== null && (data as { state?: unknown }).state === 'restarting';

/** Main → Host. */
export type ToHost =
  /** A window's port comes with it (`ports[0]`): serve the contract on it. */
  | { type: 'connect' }
  /** A shell event (updater status) for every connection. */
  | { type: 'emit'; event: Extract<EventName, 'updater.status'>; payload: UpdaterStatus }
  /** Close the Host cleanly and exit. */
  | { type: 'shutdown' }
  /** The answer to a FromHost `chooseFolder`: the folder picked in the system dialog, or null. */
  | { type: 'folderChosen'; id: number; folder: string | null }
  /** The answer to a FromHost `chooseSaveFile`: the file named in the system's save dialog, or null. */
  | { type: 'saveFileChosen'; id: number; file: string | null }
  /** The answer to a FromHost `chooseOpenFile`: the file picked in the system dialog, or null. */
  | { type: 'openFileChosen'; id: number; file: string | null };

/**
 * Host → main. `chooseFolder`: the system's folder dialog (saving a damaged database's unsynced
 * work), answered by `folderChosen`. `chooseOpenFile`: the system's open-file dialog (an audit
 * export to import), answered by `openFileChosen`. `image-origins`: the configured sites' origins, at start and
 * whenever the site list changes; main lets the window load images only from these
 * (electron/common/csp.ts), since a policy fixed at page load could not follow a site added later.
 */
export type FromHost =
  | { type: 'chooseFolder'; id: number; title: string }
  /** The system's save dialog (an audit export), answered by `saveFileChosen`; `extensions` without dots. */
  | { type: 'chooseSaveFile'; id: number; title: string; defaultName: string; filterName: string; extensions: string[] }
  /** The system's open-file dialog (an audit export to import), answered by `openFileChosen`. */
  | { type: 'chooseOpenFile'; id: number; title: string }
  | { type: 'image-origins'; origins: string[] };

/** A message the Host sent, as main reads it: its type and fields checked; origins only bare (`https://host:port`). */
export function readFromHost(data: unknown): FromHost | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as { type?: unknown; id?: unknown; title?: unknown; origins?: unknown; defaultName?: unknown; filterName?: unknown; extensions?: unknown };
  if (m.type === 'chooseFolder' && Number.isSafeInteger(m.id) && typeof m.title === 'string') return { type: 'chooseFolder', id: m.id as number, title: m.title };
  if (
    m.type === 'chooseSaveFile' &&
    Number.isSafeInteger(m.id) &&
    typeof m.title === 'string' &&
    typeof m.defaultName === 'string' &&
    !/[\\/]/.test(m.defaultName) &&
    typeof m.filterName === 'string' &&
    Array.isArray(m.extensions) &&
    m.extensions.every((x) => typeof x === 'string' && /^[a-z0-9]{1,10}$/.test(x))
  ) {
    return { type: 'chooseSaveFile', id: m.id as number, title: m.title, defaultName: m.defaultName, filterName: m.filterName, extensions: m.extensions as string[] };
  }
  if (m.type === 'chooseOpenFile' && Number.isSafeInteger(m.id) && typeof m.title === 'string') return { type: 'chooseOpenFile', id: m.id as number, title: m.title };
  if (m.type === 'image-origins' && Array.isArray(m.origins)) {
    const origins: string[] = [];
    for (const o of m.origins) {
      if (typeof o !== 'string' || originOf(o) !== o) return null;
      origins.push(o);
    }
    return { type: 'image-origins', origins };
  }
  return null;
}

/** A message main sent, as the Host reads it: its type checked, the event's payload left to the Host's own event check. */
export function readToHost(
  data: unknown,
):
  | { type: 'connect' }
  | { type: 'emit'; event: string; payload: unknown }
  | { type: 'shutdown' }
  | { type: 'folderChosen'; id: number; folder: string | null }
  | { type: 'saveFileChosen'; id: number; file: string | null }
  | { type: 'openFileChosen'; id: number; file: string | null }
  | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as { type?: unknown; event?: unknown; payload?: unknown; id?: unknown; folder?: unknown; file?: unknown };
  if (m.type === 'saveFileChosen' && Number.isSafeInteger(m.id) && (m.file === null || typeof m.file === 'string')) {
    return { type: 'saveFileChosen', id: m.id as number, file: m.file as string | null };
  }
  if (m.type === 'connect' || m.type === 'shutdown') return { type: m.type };
  if (m.type === 'folderChosen' && Number.isSafeInteger(m.id) && (m.folder === null || typeof m.folder === 'string')) {
    return { type: 'folderChosen', id: m.id as number, folder: m.folder as string | null };
  }
  if (m.type === 'openFileChosen' && Number.isSafeInteger(m.id) && (m.file === null || typeof m.file === 'string')) {
    return { type: 'openFileChosen', id: m.id as number, file: m.file as string | null };
  }
  if (m.type === 'emit' && typeof m.event === 'string') return { type: 'emit', event: m.event, payload: m.payload };
  return null;
}
