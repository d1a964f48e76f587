/**
 * The whole bridge (docs/architecture.md): `window.sitedesk.invoke(channel, input)` and
 * `window.sitedesk.on(event, cb)`. Requests travel over a MessagePort straight to the Host;
 * main only hands the port over. The raw IPC event and the port never reach the page.
 *
 * Runs sandboxed, so it is bundled to one CommonJS file and may only require 'electron'.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ErrorInfo, Result } from './contract/errors';
import { createPeer } from './contract/peer';
import { frameTooLarge, type RequestMessage } from './contract/protocol';
import { HOST_PORT_CHANNEL, HOST_PORT_REQUEST, isHostRestarting } from './host-messages';

const RESTARTED: ErrorInfo = { code: 'host_unavailable', message: 'The background service restarted; try again.' };

let port: MessagePort | null = null;
/** Requests made while there is no port (before the first one, or during a Host restart). */
const queue: RequestMessage[] = [];

const peer = createPeer((message) => {
  // the port takes any size: a message over the limit browser mode's socket has is refused here too
  if (frameTooLarge(JSON.stringify(message))) return 'too_large';
  if (port) port.postMessage(message);
  else queue.push(message);
});

/**
 * The Host's loss is told twice in Electron: the port's 'close' and main's `{state:'restarting'}`.
 * The first one counts; the second would fail calls made since, which the new Host will answer.
 */
let lost = false;

function hostLost(): void {
  if (lost && !port) return;
  lost = true;
  if (port) {
    port.onmessage = null;
    port.close();
    port = null;
  }
  queue.length = 0; // their calls are answered by failPending below
  peer.failPending(RESTARTED);
  peer.dispatch('host.status', { state: 'restarting' });
}

function attach(next: MessagePort): void {
  if (port) {
    // A new port while the old one looked alive: the Host was replaced, so nothing sent on the old
    // port will be answered.
    port.onmessage = null;
    port.close();
    peer.failPending(RESTARTED);
  }
  port = next;
  lost = false;
  next.onmessage = (event: MessageEvent<unknown>) => peer.receive(event.data);
  next.addEventListener('close', () => {
    if (port === next) hostLost();
  });
  for (const message of queue.splice(0)) next.postMessage(message);
  peer.dispatch('host.status', { state: 'ready' });
}

// Only the main process can send on ipcRenderer (renderer-to-renderer sendTo is gone since
// Electron 28), so the sender is main by construction; the shape is still checked.
ipcRenderer.on(HOST_PORT_CHANNEL, (event: IpcRendererEvent, data: unknown) => {
  const next = event.ports[0];
  if (event.ports.length === 1 && next) attach(next);
  else if (event.ports.length === 0 && isHostRestarting(data)) hostLost();
});
ipcRenderer.send(HOST_PORT_REQUEST);

const NOT_A_CHANNEL: Result<unknown> = { ok: false, error: { code: 'unknown_channel', message: 'The channel name must be a string.' } };

contextBridge.exposeInMainWorld('sitedesk', {
  invoke: (channel: string, input: unknown): Promise<Result<unknown>> =>
    typeof channel === 'string' ? peer.invoke(channel, input) : Promise.resolve(NOT_A_CHANNEL),
  on: (event: string, callback: (payload: unknown) => void): (() => void) => {
    if (typeof event !== 'string' || typeof callback !== 'function') throw new TypeError('sitedesk.on(event, callback) needs a name and a function.');
    const off = peer.on(event, callback);
    return () => {
      off();
    };
  },
});
