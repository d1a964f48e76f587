import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { serveConnection } from '../core/connection';
import type { HostEndpoint } from '../core/host-types';
import { contentSecurityPolicy, siteOrigins } from '../common/csp';

/**
 * Browser mode: the built renderer over HTTP and the Host over a WebSocket, on loopback only.
 * A per-run token in the page URL is required to open the bridge, and the Origin and Host headers
 * must be our own, so no other local page (or DNS-rebound site) can drive the Host.
 */
export interface WebServerOptions {
  host: HostEndpoint;
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

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

function sameToken(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const ownHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  // The app:// policy plus the bridge's own ws: origin and blob: previews, with images only from
  // the configured sites' origins as they are at this response (a page keeps the policy it loaded
  // with: a site added later shows its images after a reload). No site list, no remote images.
  const csp = async () => {
    const sites = await opts.host.invoke('sites.list', undefined).catch(() => null);
    const origins = sites?.ok ? siteOrigins(sites.value as { baseUrl: string }[]) : [];
    return contentSecurityPolicy({ images: origins, blobImages: true, connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] });
  };

  const server: Server = createServer(async (req, res) => {
    if (!ownHosts().has(req.headers.host ?? '')) {
      res.writeHead(421).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(opts.staticDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(normalize(opts.staticDir) + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const target = (await stat(file)).isFile() ? file : join(opts.staticDir, 'index.html');
      const body = await readFile(target);
      res.writeHead(200, {
        'Content-Type': MIME[extname(target)] ?? 'application/octet-stream',
        'Content-Security-Policy': await csp(),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found (was the renderer built? run npm run build)');
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = req.headers.origin ?? '';
    const allowedOrigin = [...ownHosts()].some((h) => origin === `http://${h}`);
    if (url.pathname !== '/bridge' || !ownHosts().has(req.headers.host ?? '') || !allowedOrigin || !sameToken(url.searchParams.get('token'), token)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const conn = serveConnection(opts.host, (msg) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        let msg: unknown;
        try {
          msg = JSON.parse(data.toString());
        } catch {
          return; // not JSON: ignored, like any malformed frame
        }
        void conn.receive(msg);
      });
      ws.on('close', () => conn.close());
      ws.on('error', () => conn.close());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
