/**
 * The recorded replies of a real Grav + API plugin (test/unit/fixtures/real-grav) as fetch
 * answers, and a scripted fetch that hands them out by request: the true edge of the app, so the
 * API modules, the transport and the parsers run as they do against the real service.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Transport } from '../../../electron/api/transport';

const DIR = fileURLToPath(new URL('../fixtures/real-grav/', import.meta.url));

export interface Recorded {
  method: string;
  /** Path and query after the API prefix, e.g. `/pages?translations=true`. */
  path: string;
  status: number;
  headers: Record<string, string>;
  /** The body as sent (text). */
  text: string;
  /** The body parsed (null when it is not JSON). */
  json: unknown;
}

/** One recorded file, e.g. `11-pages`. */
export function recorded(name: string): Recorded {
  const raw = readFileSync(`${DIR}${name}.txt`, 'utf8');
  const request = /^### REQUEST: (\w+) (\S+)/m.exec(raw);
  if (!request) throw new Error(`${name}: no request line`);
  const url = new URL(request[2]!);
  const response = raw.slice(raw.indexOf('### RESPONSE:') + '### RESPONSE:'.length).replace(/^\r?\n/, '');
  const [head, ...rest] = response.split(/\r?\n\r?\n/);
  const lines = head!.split(/\r?\n/);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0]!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const text = rest.join('\n\n').replace(/\s+$/, '');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { method: request[1]!, path: url.pathname.replace(/^\/api\/v1/, '') + url.search, status, headers, text, json };
}

/** The `data` of a recorded JSON reply (for bodies to vary in a test). */
export function recordedData<T = unknown>(name: string): T {
  return (recorded(name).json as { data: T }).data;
}

export type Answer = { status: number; body?: unknown; text?: string; headers?: Record<string, string> } | Recorded | Error;

export interface SeenRequest {
  method: string;
  /** Path and query after the API prefix. */
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * A fetch for `https://cms.example.com/api/v1`: `answer` picks the reply for each request (a
 * recorded one, a body of the test's own, or an Error for a network failure); every request is kept.
 */
export function fakeFetch(answer: (req: SeenRequest) => Answer | undefined) {
  const seen: SeenRequest[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const bodyText = typeof init?.body === 'string' ? init.body : undefined;
    const req: SeenRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1/, '') + url.search,
      headers,
      body: bodyText === undefined ? undefined : (JSON.parse(bodyText) as unknown),
    };
    seen.push(req);
    const a = answer(req);
    if (a === undefined) throw new Error(`no answer scripted for ${req.method} ${req.path}`);
    if (a instanceof Error) throw a;
    if ('text' in a && 'json' in a) {
      return new Response(a.status === 204 ? null : a.text, { status: a.status, headers: a.headers });
    }
    const body = a.text ?? (a.body === undefined ? '' : JSON.stringify(a.body));
    return new Response(a.status === 204 || a.status === 304 ? null : body, {
      status: a.status,
      headers: { 'content-type': a.text !== undefined ? 'text/html' : 'application/json', ...(a.headers ?? {}) },
    });
  }) as typeof fetch;
  return { fetchImpl, seen };
}

/** A fetch failure as undici reports a refused connection (the site is offline). */
export const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });

/** A JSON answer of the test's own. */
export const reply = (body: unknown, status = 200, headers: Record<string, string> = {}): Answer => ({ status, body, headers });

/** The Host's transport to `https://cms.example.com/api/v1` over `fakeFetch(answer)`, without retry delays; `seen` keeps every request. */
export function transport(answer: (req: SeenRequest) => Answer | undefined): { t: Transport; seen: SeenRequest[] } {
  const f = fakeFetch(answer);
  return { t: new Transport({ baseUrl: 'https://cms.example.com/api/v1', fetch: f.fetchImpl, retryDelaysMs: [] }), seen: f.seen };
}
