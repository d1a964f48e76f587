/**
 * The bits every sandbox server shares: a tiny router, JSON and problem+json answers, a request's
 * headers and body fields, listening on a free loopback port. The servers themselves implement the
 * spec documents.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => void | Promise<void>;

/**
 * Thrown by a handler to answer with a problem+json body; the Router turns it into the response.
 * `extra` lands in the body (e.g. `errors: [{field, message}]`), `headers` on the response.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** A 400/422 problem naming the fields, in the `errors: [{field, message}]` form of the real service. */
export function fieldProblem(status: 400 | 422, detail: string, errors: { field: string; message: string }[]): HttpProblem {
  return new HttpProblem(status, status === 400 ? 'Bad Request' : 'Unprocessable Entity', detail, { errors });
}

/**
 * 400/422 naming every field that is absent or blank (the real CMS plugin's `requireFields`: a
 * field is there unless it is missing, null or a blank string). `text`: a field that is not a
 * string is missing too (the auth endpoints read every field as text).
 */
export function requireFields(body: Record<string, unknown>, fields: string[], status: 400 | 422, o: { text?: boolean } = {}): void {
  const missing = fields.filter((f) => {
    const v = body[f];
    if (typeof v === 'string') return v.trim() === '';
    return o.text || v === undefined || v === null;
  });
  if (missing.length) {
    throw fieldProblem(status, `Missing required fields: ${missing.join(', ')}`, missing.map((f) => ({ field: f, message: `The '${f}' field is required.` })));
  }
}

/** A request header's value, trimmed; '' when absent (a repeated one, which Node joins for most headers, as one list). */
export function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v.join(', ') : (v ?? '')).trim();
}

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

/** Writes an error answer in a server's own shape (problem+json for the CMS, ApiResponse for the store). */
export type ErrorWriter = (res: ServerResponse, status: number, title: string, detail: string, extra?: Record<string, unknown>) => void;

export class Router {
  private readonly routes: Route[] = [];

  constructor(
    private readonly prefix: string,
    private readonly writeError: ErrorWriter = problem,
  ) {}

  /**
   * `{name}` matches one path segment; `{name+}` matches one or more (slashes included), for
   * page routes such as `/pages/{route+}/media`. Parameters arrive percent-decoded.
   */
  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const source = path.replace(/\{(\w+)(\+?)\}/g, (_, k: string, many: string) => (keys.push(k), many ? '(.+)' : '([^/]+)'));
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
      try {
        const params = Object.fromEntries(r.keys.map((k, i) => [k, decodeParam(m[i + 1] ?? '')]));
        await r.handler(req, res, params, url);
      } catch (err) {
        if (res.headersSent) res.destroy();
        else if (err instanceof HttpProblem) {
          for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
          this.writeError(res, err.status, err.title, err.message, err.extra);
        } else this.writeError(res, 500, 'Internal Server Error', err instanceof Error ? err.message : String(err));
      }
      return;
    }
    if (pathMatched) this.writeError(res, 405, 'Method Not Allowed', `${req.method} is not allowed here.`);
    else this.writeError(res, 404, 'Not Found', `No route for ${url.pathname}.`);
  }
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpProblem(400, 'Bad Request', `Malformed percent-encoding in the path: ${raw}`);
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': bytes.length, ...headers });
  // bytes, not a string: Node writes the headers in the encoding of a string body, which would
  // re-encode a header holding raw UTF-8 bytes (the CMS real flavour's Location, X-Invalidates)
  res.end(bytes);
}

/** RFC 9457 problem details, as the real CMS API sends them. */
export function problem(res: ServerResponse, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
  const text = JSON.stringify({ status, title, detail, ...extra });
  res.writeHead(status, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The raw request body as text; over `maxBytes` is a 413 problem. */
export async function readText(req: IncomingMessage, maxBytes = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpProblem(413, 'Payload Too Large', `The request body is larger than ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The raw request body as bytes (uploads). Past `maxBytes` the rest is read and dropped, so the
 * client gets the 413 answer instead of a reset connection.
 */
export async function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const tooLarge = () => new HttpProblem(413, 'Payload Too Large', `The request body is larger than ${maxBytes} bytes.`);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes) throw tooLarge();
  return Buffer.concat(chunks);
}

/** Any JSON value the body holds (`undefined` when empty); malformed JSON is a 400 problem. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readText(req);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpProblem(400, 'Bad Request', 'The request body is not valid JSON.');
  }
}

/**
 * The request body as an object: JSON (any or no Content-Type) or an HTML form. An empty body is
 * `{}`; malformed JSON or a non-object is a 400 problem.
 */
export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(await readText(req)));
  }
  const parsed = await readJson(req);
  if (parsed === undefined) return {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpProblem(400, 'Bad Request', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
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
