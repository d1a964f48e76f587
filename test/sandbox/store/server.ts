/**
 * The store sandbox (document 3 of ../shared/spec) under /api/v3, grown issue by issue.
 * For now: the public inventory map.
 */
import { json, listen, Router } from '../http';

export interface StoreSandbox {
  url: string;
  origin: string;
  close(): Promise<void>;
}

export async function startStoreSandbox(opts: { port?: number } = {}): Promise<StoreSandbox> {
  const prefix = '/api/v3';
  const inventory = { available: 7, pending: 2, sold: 3 };
  const router = new Router(prefix).on('GET', '/store/inventory', (_req, res) => json(res, 200, inventory));
  const server = await listen((req, res) => void router.handle(req, res), opts.port);
  return { url: `${server.origin}${prefix}`, origin: server.origin, close: server.close };
}
