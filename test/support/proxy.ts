/**
 * A recording proxy in front of a sandbox, for Host tests that must see the wire or bend an answer:
 * every request is recorded as it arrived (method, path, headers, body size) and forwarded; a
 * `bend` hook may replace the answer of a chosen call (a field left out, a wrong type, a web page
 * instead of JSON), which is how a reply shape neither flavour sends is made. Answers are passed
 * on as text: it is for API calls, not media files.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  /** path and query as sent */
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
}

/** An answer the proxy sends instead of the sandbox's. */
export interface Bent {
  status?: number;
  contentType?: string;
  body: string;
}

/**
 * `bend(call, answer)`: `call` is `METHOD /path?query` (the path after the origin); `answer` the
 * sandbox's status and body text. Return a Bent answer to send that instead, or null to pass it on.
 */
export type Bend = (call: string, answer: { status: number; text: string; json: unknown }) => Bent | null;

export interface Proxy {
  origin: string;
  seen: Seen[];
  bend: Bend | null;
  close(): Promise<void>;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

export async function startProxy(target: string): Promise<Proxy> {
  const state: Proxy = { origin: '', seen: [], bend: null, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        state.seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, bytes: body.length });
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        const answer = await fetch(target + (req.url ?? '/'), {
          method: req.method ?? 'GET',
          headers,
          ...(body.length ? { body } : {}),
          redirect: 'manual',
        });
        const text = await answer.text();
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const bent = state.bend?.(`${req.method ?? 'GET'} ${req.url ?? '/'}`, { status: answer.status, text, json }) ?? null;
        if (bent) {
          res.writeHead(bent.status ?? answer.status, { 'Content-Type': bent.contentType ?? 'application/json' }).end(bent.body);
          return;
        }
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!HOP.has(k)) out[k] = v;
        });
        res.writeHead(answer.status, out).end(text);
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(err));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
