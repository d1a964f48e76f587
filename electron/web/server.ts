/**
 * Browser mode: the built renderer over HTTP and the Host over a WebSocket, on loopback only.
 * A per-run token in the page URL is required to open the bridge, and the Origin and Host headers
 * must be our own, so no other local page (or DNS-rebound site) can drive the Host.
 *
 * Anyone who can reach the port can send anything, so nothing a request carries may take the
 * process down: every handler runs inside `guarded` (a throw or rejection answers that one request
 * or closes that one socket), a request the HTTP parser refuses gets 400/431 (`clientError`), and
 * a socket that never finishes its headers is closed after `HEADERS_TIMEOUT_MS`.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { HostEndpoint } from '../core/host-types';
import { CLOSE_HOST_RESTARTING, CLOSE_HOST_STOPPED, inProcessBridge, type BridgeLine, type HostBridge } from './bridge';
import { answerStatic } from './static-files';
import { contentSecurityPolicy, PLUGIN_FRAME_CSP, PLUGIN_FRAME_PATH } from '../common/csp';
import { MAX_MESSAGE_BYTES } from '../contract/protocol';

export interface WebServerOptions {
  /** The Host in this process; or give `bridge`. */
  host?: HostEndpoint;
  /** The Host behind a bridge (a supervised child process). */
  bridge?: HostBridge;
  staticDir: string;
  port?: number;
  token?: string;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** A request has this long to send its headers, and a whole request this long: half-open sockets go. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

function sameToken(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request target as a URL, or null when it is not one (`//[`, `http://[::1`). */
export function requestUrl(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://x');
  } catch {
    return null;
  }
}

/**
 * The one boundary every handler of the server runs behind: whatever `handler` throws or rejects
 * is logged and handed to `onError` for that request alone, never to the process.
 */
function guarded<A extends unknown[]>(what: string, handler: (...args: A) => unknown, onError: (...args: A) => void): (...args: A) => void {
  const fail = (err: unknown, args: A) => {
    console.error(`Sitedesk browser mode: ${what} failed:`, err);
    try {
      onError(...args);
    } catch {
      // the connection is already gone
    }
  };
  return (...args: A) => {
    try {
      const result = handler(...args);
      if (result instanceof Promise) result.catch((err: unknown) => fail(err, args));
    } catch (err) {
      fail(err, args);
    }
  };
}

/** Answers a raw socket (an upgrade we refuse, a request the parser refused) and closes it. */
function refuseSocket(socket: Duplex, status: number): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  setTimeout(() => socket.destroy(), 1000).unref();
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const bridge = opts.bridge ?? (opts.host ? inProcessBridge(opts.host) : null);
  if (!bridge) throw new Error('startWebServer needs a host or a bridge');
  let port = 0;
  const ownHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  // The app:// policy plus the bridge's own ws: origin and blob: previews, with images only from
  // the configured sites' origins as they are at this response (a page keeps the policy it loaded
  // with: a site added later shows its images after a reload). No Host, no remote images.
  const csp = async () =>
    contentSecurityPolicy({ images: [...(await bridge.imageOrigins())], blobImages: true, connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] });

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!ownHosts().has(req.headers.host ?? '')) {
      res.writeHead(421).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = requestUrl(req.url);
    const answer = url ? await answerStatic(opts.staticDir, url.pathname) : ({ status: 400, text: 'Bad request' } as const);
    if (answer.status !== 200) {
      res.writeHead(answer.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(answer.text);
      return;
    }
    res.writeHead(200, {
      'Content-Type': answer.type,
      // the plugin jail keeps its own policy (common/csp.ts): nothing in it may reach out
      'Content-Security-Policy': url!.pathname === PLUGIN_FRAME_PATH ? PLUGIN_FRAME_CSP : await csp(),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // Node hands the socket over without an error listener: a client that resets it would otherwise be an uncaught error.
    socket.on('error', () => socket.destroy());
    const url = requestUrl(req.url);
    if (!url) return refuseSocket(socket, 400);
    const origin = req.headers.origin ?? '';
    const allowedOrigin = [...ownHosts()].some((h) => origin === `http://${h}`);
    if (url.pathname !== '/bridge' || !ownHosts().has(req.headers.host ?? '') || !allowedOrigin || !sameToken(url.searchParams.get('token'), token)) {
      return refuseSocket(socket, 403);
    }
    // The page's "try again" after the Host kept stopping.
    if (url.searchParams.get('retry') === '1') bridge!.retry?.();
    // A page reconnecting while the Host restarts waits here, so its socket opens when the Host can answer.
    const availability = await bridge!.available();
    if (socket.destroyed) return;
    if (availability === 'unavailable') return refuseSocket(socket, 503);
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      if (availability === 'stopped') {
        ws.close(CLOSE_HOST_STOPPED, "Sitedesk's background service keeps stopping");
        return;
      }
      const line: BridgeLine | null = bridge!.open({
        send: (frame) => {
          if (ws.readyState === ws.OPEN) ws.send(frame);
        },
        end: (code, reason) => ws.close(code, reason),
      });
      if (!line) {
        ws.close(CLOSE_HOST_RESTARTING, 'Sitedesk is restarting its background service'); // the page retries
        return;
      }
      ws.on(
        'message',
        guarded(
          'a bridge frame',
          (data: WebSocket.RawData, isBinary: boolean) => {
            if (!isBinary) line.receive(data.toString());
          },
          () => ws.terminate(),
        ),
      );
      ws.on('close', () => line.close());
      ws.on('error', () => line.close());
    });
  }

  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
    guarded('a request', onRequest, (_req, res) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Something went wrong inside Sitedesk');
      else res.destroy();
    }),
  );
  // Node's header timeout misses a socket that never sends a byte once other requests come and go:
  // a socket silent in both directions this long is closed as well.
  server.timeout = HEADERS_TIMEOUT_MS;
  server.on('upgrade', guarded('an upgrade', onUpgrade, (_req, socket) => refuseSocket(socket, 500)));
  // A request the HTTP parser refuses (bad bytes, a header too large, a timeout) is that socket's problem only.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    refuseSocket(socket, status);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After listening, an error (too many open files on accept) is logged; the server keeps going.
  server.on('error', (err) => console.error('Sitedesk browser mode: the server reported an error:', err));
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
