/**
 * What every sandbox server does around its API, in one place: its data folder (a fresh temporary
 * one unless given; that one is removed at close), the test-only control routes under /__sandbox,
 * the requests outside the API prefix, the injected faults before the API sees a request, and one
 * answer to a route that threw: a 500 in the flavour's own error shape (an answer already under
 * way is cut instead). The CMS and the store sandboxes differ only in what they pass in.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from './clock';
import { CONTROL_PREFIX } from './control';
import type { Faults } from './faults';
import { listen, type ErrorWriter, type Listening } from './http';

/** The sandbox's data folder: `dataDir` as given (kept), or a new temporary one named `sitedesk-<kind>-…` (removed). */
export function dataFolder(dataDir: string | undefined, kind: string): { dataDir: string; remove(): void } {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), `sitedesk-${kind}-`));
  mkdirSync(dir, { recursive: true });
  return { dataDir: dir, remove: () => (dataDir ? undefined : rmSync(dir, { recursive: true, force: true })) };
}

export interface SandboxServing {
  prefix: string;
  /** default: a free port */
  port?: number | undefined;
  clock: Clock;
  faults: Faults;
  /** the /__sandbox routes; null when switched off */
  control: { handle(req: IncomingMessage, res: ServerResponse): Promise<void> } | null;
  /** the flavour's error answer (also a thrown route's 500) */
  writeError: ErrorWriter;
  /** sees every request first (`path` without the query) */
  observe?: (req: IncomingMessage, res: ServerResponse, path: string) => void;
  /** a request outside the API prefix and the control routes */
  outside(req: IncomingMessage, res: ServerResponse, path: string): void;
  /** an API request the faults let through */
  api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

export function serveSandbox(s: SandboxServing): Promise<Listening> {
  return listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    s.observe?.(req, res, path);
    if (s.control && path.startsWith(`${CONTROL_PREFIX}/`)) {
      void s.control.handle(req, res);
      return;
    }
    if (!path.startsWith(s.prefix + '/')) {
      s.outside(req, res, path);
      return;
    }
    void (async () => {
      // the network in front of the service misbehaves first
      if (await s.faults.apply(req, res, path.slice(s.prefix.length), s.clock.nowSec())) return;
      await s.api(req, res, path);
    })().catch((err: unknown) => {
      if (!res.headersSent) s.writeError(res, 500, 'Internal Server Error', err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  }, s.port);
}
