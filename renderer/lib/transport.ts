/**
 * How the renderer reaches the Host. Two transports speak the same protocol:
 * - Electron: the preload exposes `window.sitedesk` (a MessagePort behind it, see electron/preload.ts);
 * - browser mode: a WebSocket to `/bridge?token=…` on the server that served this page.
 * Nothing outside lib/client.ts should import this module.
 */
import { createPeer, type Peer } from '../../electron/contract/peer';
import type { ErrorInfo, Result } from '../../electron/contract/errors';
import { BRIDGE_CLOSE, frameTooLarge, type RequestMessage } from '../../electron/contract/protocol';

/** What the preload puts on `window` (contextBridge). */
export interface SitedeskBridge {
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  on(event: string, callback: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    sitedesk?: SitedeskBridge;
  }
}

export interface Transport {
  readonly kind: 'electron' | 'browser';
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  on(event: string, callback: (payload: unknown) => void): () => void;
  /** After `host.status {state:'stopped'}`: ask for the Host to be started again (browser mode). */
  retryHost?(): void;
}

export type TransportSetup = { ok: true; transport: Transport } | { ok: false; reason: 'missing_token' };

const HOST_GONE: ErrorInfo = {
  code: 'host_unavailable',
  message: 'Sitedesk lost its connection to the background service. It is reconnecting; try again in a moment.',
};

const HOST_STOPPED: ErrorInfo = {
  code: 'host_unavailable',
  message: 'Sitedesk’s background service keeps stopping. Your saved work is safe; start it again from the notice at the top of the window.',
};

const TOO_BIG: ErrorInfo = {
  code: 'invalid_input',
  message: 'A message was too large for the connection to the background service (over 64 MB), so it was closed; it reconnects by itself. Send less at once.',
};

/** Picks the transport for this window. Never throws. */
export function createTransport(): TransportSetup {
  const bridge = typeof window !== 'undefined' ? window.sitedesk : undefined;
  if (bridge) return { ok: true, transport: electronTransport(bridge) };
  const token = new URLSearchParams(location.search).get('token');
  if (!token) return { ok: false, reason: 'missing_token' };
  return { ok: true, transport: webSocketTransport(token) };
}

function electronTransport(bridge: SitedeskBridge): Transport {
  return {
    kind: 'electron',
    async invoke(channel, input) {
      try {
        return await bridge.invoke(channel, input);
      } catch {
        return { ok: false, error: HOST_GONE };
      }
    },
    on: (event, callback) => bridge.on(event, callback),
  };
}

export interface WebSocketTransportOptions {
  /** Backoff before reconnect attempt n (0-based), in ms. Default 1 s, 2 s, 4 s… capped at 10 s. */
  backoff?: (attempt: number) => number;
  /** Where to connect; defaults to this page's host. */
  url?: string;
}

export const defaultBackoff = (attempt: number): number => Math.min(1000 * 2 ** attempt, 10_000);

export function bridgeUrl(token: string, loc: Pick<Location, 'protocol' | 'host'> = location): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/bridge?token=${encodeURIComponent(token)}`;
}

/** The bridge URL that also asks the server to start a Host that kept stopping. */
const withRetry = (url: string) => `${url}${url.includes('?') ? '&' : '?'}retry=1`;

/**
 * Browser mode. Calls made while the socket is (re)connecting are queued and sent once it opens.
 * When an open socket closes, the calls in flight fail with `host_unavailable`, a local
 * `host.status {state:'restarting'}` event is dispatched, and the transport reconnects with
 * backoff; the next successful open dispatches `{state:'ready'}`. The server holds a reconnecting
 * socket until the restarted Host can answer. A close with `BRIDGE_CLOSE.stopped` (the Host keeps
 * stopping) dispatches `{state:'stopped'}` and stops reconnecting until `retryHost()`.
 */
export function webSocketTransport(token: string, options: WebSocketTransportOptions = {}): Transport {
  const url = options.url ?? bridgeUrl(token);
  const backoff = options.backoff ?? defaultBackoff;
  let socket: WebSocket | null = null;
  let queue: string[] = [];
  let attempt = 0;
  /** True once the socket has been open at least once and the Host has not been reported lost since. */
  let connected = false;
  /** True after `restarting` was dispatched and `ready` has not yet followed. */
  let reported = false;
  /** The server said the Host keeps stopping: no reconnecting until the person asks. */
  let stopped = false;

  const peer: Peer = createPeer((message: RequestMessage) => {
    const frame = JSON.stringify(message);
    // the server closes the socket on a frame over the limit (1009): refuse it here instead
    if (frameTooLarge(frame)) return 'too_large';
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(frame);
    else queue.push(frame);
  });

  const connect = (retry = false) => {
    const ws = new WebSocket(retry ? withRetry(url) : url);
    socket = ws;
    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      attempt = 0;
      connected = true;
      const pending = queue;
      queue = [];
      for (const frame of pending) ws.send(frame);
      if (reported) {
        reported = false;
        peer.dispatch('host.status', { state: 'ready' });
      }
    });
    ws.addEventListener('message', (event: MessageEvent) => {
      if (socket !== ws || typeof event.data !== 'string') return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not ours
      }
      peer.receive(message);
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      // Every call already handed to the socket (or queued for it) is answered now: the Host will
      // never answer it. Calls made from here on wait in the queue for the next socket. A close for
      // a message too big (1009) says so, though this side checks the size before sending.
      queue = [];
      peer.failPending(event.code === 1009 ? TOO_BIG : HOST_GONE);
      if (event.code === BRIDGE_CLOSE.stopped) {
        connected = false;
        reported = true;
        stopped = true;
        peer.dispatch('host.status', { state: 'stopped' });
        return;
      }
      if (connected || !reported) {
        connected = false;
        reported = true;
        peer.dispatch('host.status', { state: 'restarting' });
      }
      const delay = backoff(attempt++);
      setTimeout(connect, delay);
    });
  };

  connect();

  return {
    kind: 'browser',
    invoke: (channel, input) => {
      if (stopped) return Promise.resolve({ ok: false, error: HOST_STOPPED });
      return peer.invoke(channel, input);
    },
    on: (event, callback) => peer.on(event, callback),
    retryHost() {
      if (!stopped) return;
      stopped = false;
      attempt = 0;
      peer.dispatch('host.status', { state: 'restarting' });
      connect(true);
    },
  };
}
