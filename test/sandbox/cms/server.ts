/**
 * The CMS sandbox (documents 1 and 2 of ../shared/spec), grown issue by issue. For now it serves
 * the public health check. Routes live under the configurable prefix, default /api/v1.
 */
import { json, listen, Router } from '../http';

export interface CmsSandboxOptions {
  port?: number;
  prefix?: string;
}

export interface CmsSandbox {
  /** Base URL including the API prefix: http://127.0.0.1:PORT/api/v1 */
  url: string;
  origin: string;
  close(): Promise<void>;
}

export async function startCmsSandbox(opts: CmsSandboxOptions = {}): Promise<CmsSandbox> {
  const prefix = opts.prefix ?? '/api/v1';
  const router = new Router(prefix).on('GET', '/ping', (_req, res) => json(res, 200, { data: { pong: true } }));
  const server = await listen((req, res) => {
    // outside the API prefix a CMS serves its web pages: HTML, like a real site would
    if (!(req.url ?? '').startsWith(prefix + '/')) {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    void router.handle(req, res);
  }, opts.port);
  return { url: `${server.origin}${prefix}`, origin: server.origin, close: server.close };
}
