/**
 * The bits every sandbox server shares: a tiny router, JSON and problem+json answers, listening
 * on a free loopback port. The servers themselves implement the spec documents.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => void | Promise<void>;

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  constructor(private readonly prefix: string) {}

  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const source = path.replace(/\{(\w+)\}/g, (_, k: string) => (keys.push(k), '([^/]+)'));
    this.routes.push({ method, pattern: new RegExp(`^${this.prefix}${source}$`), keys, handler });
    return this;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.pattern.exec(url.pathname);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== req.method) continue;
      const params = Object.fromEntries(r.keys.map((k, i) => [k, decodeURIComponent(m[i + 1] ?? '')]));
      try {
        await r.handler(req, res, params, url);
      } catch (err) {
        problem(res, 500, 'Internal Server Error', err instanceof Error ? err.message : String(err));
      }
      return;
    }
    if (pathMatched) problem(res, 405, 'Method Not Allowed', `${req.method} is not allowed here.`);
    else problem(res, 404, 'Not Found', `No route for ${url.pathname}.`);
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** RFC 9457 problem details, as the real CMS API sends them. */
export function problem(res: ServerResponse, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
  const text = JSON.stringify({ status, title, detail, ...extra });
  res.writeHead(status, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export interface Listening {
  /** Origin, e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<Listening> {
  const server = createServer(handler);
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
