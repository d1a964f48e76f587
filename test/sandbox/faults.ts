/**
 * Fault injection: rules that make chosen routes misbehave the way real hosts do — slow answers,
 * 500s, dropped connections (before the route, or after it did its work: the answer is lost), 429
 * with or without Retry-After, an HTML page where JSON was expected, the route's answer cut short,
 * an answer that never ends. Set
 * in-process (`sandbox.faults.set(...)`) or over HTTP (`POST /__sandbox/faults`) for a sandbox
 * running in another process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { problem, type ErrorWriter } from './http';

export interface FaultRule {
  /**
   * Which requests: `'*'` (all), `'METHOD /path'` relative to the API prefix (`'POST /auth/token'`),
   * `'* /path'` for any method, and a trailing `*` matches any rest (`'GET /pages/*'`).
   */
  route: string;
  /** wait this long before answering (alone: then answer normally) */
  latencyMs?: number;
  /** answer with this status and the server's own error body (500, 502, 503, …) */
  status?: number;
  /** destroy the connection without an answer: the client's fetch rejects */
  drop?: boolean;
  /**
   * let the route do its work (a write is applied), then destroy the connection instead of sending
   * its answer: the client cannot tell whether the write arrived
   */
  dropAfter?: boolean;
  /**
   * answer 429; with `retryAfter` (seconds) it sends `Retry-After` and X-RateLimit headers, without
   * it (`rateLimit: {}`) a bare 429 that says nothing of when to come back
   */
  rateLimit?: { retryAfter?: number };
  /** answer with an HTML page instead of JSON (status `status`, default 200) */
  html?: boolean;
  /**
   * let the route do its work, then send the first half of its answer's body with a Content-Length
   * that matches that half: a complete answer whose JSON is cut short (not a connection fault)
   */
  truncate?: boolean;
  /**
   * instead of the route, a 200 that starts as JSON and goes on past any size a client should read
   * (`bytes`, default 128 MiB), without a Content-Length; stops early when the client hangs up
   */
  oversized?: { bytes?: number };
  /** apply to this many matching requests, then retire (default: until cleared) */
  times?: number;
}

export interface FaultRecord extends FaultRule {
  /** matching requests the rule has answered so far */
  hits: number;
}

export const HTML_FAULT_BODY =
  '<!doctype html><html><head><title>Service temporarily unavailable</title></head>' +
  '<body><h1>Service temporarily unavailable</h1><p>The site is being updated. Please try again shortly.</p></body></html>';

export class Faults {
  private rules: FaultRecord[] = [];

  /** `writeError` shapes the injected error answers like the server's own (default problem+json). */
  constructor(private readonly writeError: ErrorWriter = problem) {}

  /** Replaces all rules. */
  set(...rules: (FaultRule | FaultRule[])[]): void {
    this.rules = rules.flat().map((r) => ({ ...validateRule(r), hits: 0 }));
  }

  /** Adds rules after the existing ones (the first matching rule wins). */
  add(...rules: FaultRule[]): void {
    this.rules.push(...rules.map((r) => ({ ...validateRule(r), hits: 0 })));
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRecord[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** The first live rule matching `method path` (path relative to the prefix), counted as used. */
  take(method: string, path: string): FaultRule | null {
    const rule = this.rules.find((r) => matches(r.route, method, path));
    if (!rule) return null;
    rule.hits++;
    if (rule.times !== undefined && rule.hits >= rule.times) this.rules = this.rules.filter((r) => r !== rule);
    return rule;
  }

  /**
   * Applies the matching rule, if any. Returns true when the request has been answered (or
   * dropped) and must not reach the routes; latency alone returns false after the wait.
   */
  async apply(req: IncomingMessage, res: ServerResponse, path: string, nowSec: number): Promise<boolean> {
    const rule = this.take(req.method ?? 'GET', path);
    if (!rule) return false;
    if (rule.latencyMs) await new Promise((r) => setTimeout(r, rule.latencyMs));
    if (rule.drop) {
      req.socket.destroy();
      return true;
    }
    if (rule.dropAfter) {
      holdAnswer(res, () => req.socket.destroy());
      return false;
    }
    if (rule.truncate) {
      holdAnswer(res, (status, body) => {
        const half = body.subarray(0, Math.floor(body.length / 2));
        res.setHeader('Content-Length', String(half.length));
        res.writeHead(status).end(half);
      });
      return false;
    }
    if (rule.oversized) {
      await streamOversized(res, rule.oversized.bytes ?? 128 * 1024 * 1024);
      return true;
    }
    if (rule.rateLimit) {
      if (rule.rateLimit.retryAfter !== undefined) {
        const retry = Math.max(0, Math.round(rule.rateLimit.retryAfter));
        res.setHeader('Retry-After', String(retry));
        res.setHeader('X-RateLimit-Limit', '60');
        res.setHeader('X-RateLimit-Remaining', '0');
        res.setHeader('X-RateLimit-Reset', String(nowSec + retry));
      }
      this.writeError(res, 429, 'Too Many Requests', 'Rate limit exceeded. Try again later.');
      return true;
    }
    if (rule.html) {
      res.writeHead(rule.status ?? 200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(HTML_FAULT_BODY) });
      res.end(HTML_FAULT_BODY);
      return true;
    }
    if (rule.status) {
      this.writeError(res, rule.status, rule.status >= 500 ? 'Internal Server Error' : 'Error', 'Injected fault.');
      return true;
    }
    return false;
  }
}

/**
 * Keeps the route's answer from going out: its status, headers set on `res` and body are gathered,
 * and `send` decides what the client gets (the answer's own methods are back in place by then).
 */
function holdAnswer(res: ServerResponse, send: (status: number, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  const own = { writeHead: res.writeHead, write: res.write, end: res.end };
  let status: number | undefined;
  const take = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
  };
  res.writeHead = ((code: number, ...rest: unknown[]) => {
    status = code;
    const headers = rest.find((x) => typeof x === 'object' && x !== null);
    if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string);
    else if (headers) for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v as string);
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, encoding?: unknown) => {
    take(chunk, encoding);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    take(chunk, encoding);
    Object.assign(res, own);
    send(status ?? res.statusCode, Buffer.concat(chunks));
    return res;
  }) as typeof res.end;
}

/** A JSON start and then rows, `bytes` in all or until the client goes, minding backpressure. */
async function streamOversized(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const row = Buffer.from(`{"route":"/filler","title":"${'x'.repeat(4000)}"},`);
  let sent = 0;
  const gone = () => res.destroyed || res.writableEnded || res.socket === null || res.socket.destroyed;
  if (!res.write('{"data":[')) await new Promise((r) => res.once('drain', r));
  while (sent < bytes && !gone()) {
    sent += row.length;
    if (!res.write(row)) {
      await new Promise<void>((r) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          r();
        };
        res.once('drain', done);
        res.once('close', done);
      });
    }
  }
  if (!gone()) res.end('{}]}');
}

function matches(route: string, method: string, path: string): boolean {
  if (route.trim() === '*') return true;
  const m = /^(\S+)\s+(\S+)$/.exec(route.trim());
  if (!m) return false;
  const [, rm, rp] = m as unknown as [string, string, string];
  if (rm !== '*' && rm.toUpperCase() !== method.toUpperCase()) return false;
  return rp.endsWith('*') ? path.startsWith(rp.slice(0, -1)) : path === rp;
}

function validateRule(r: FaultRule): FaultRule {
  if (!r || typeof r.route !== 'string' || r.route.trim() === '') throw new Error('A fault rule needs a route ("*" or "METHOD /path").');
  if (r.route.trim() !== '*' && !/^\S+\s+\/\S*$/.test(r.route.trim())) throw new Error(`Bad fault route: ${r.route}`);
  const kinds = (['drop', 'dropAfter', 'rateLimit', 'html', 'truncate', 'oversized'] as const).filter((k) => r[k] !== undefined && r[k] !== false);
  if (!r.latencyMs && !r.status && kinds.length === 0) throw new Error('A fault rule needs latencyMs, status, drop, dropAfter, rateLimit, html, truncate or oversized.');
  if (kinds.length > 1) throw new Error(`A fault rule does one thing: ${kinds.join(' and ')} cannot go together.`);
  if (r.status !== undefined && (!Number.isInteger(r.status) || r.status < 100 || r.status > 599)) throw new Error(`Bad fault status: ${r.status}`);
  if (r.rateLimit !== undefined) {
    const ra = (r.rateLimit as { retryAfter?: unknown } | null)?.retryAfter;
    if (typeof r.rateLimit !== 'object' || r.rateLimit === null || (ra !== undefined && (typeof ra !== 'number' || !Number.isFinite(ra) || ra < 0))) throw new Error('Bad fault rateLimit: {} or {retryAfter: seconds}.');
  }
  if (r.oversized !== undefined) {
    const b = (r.oversized as { bytes?: unknown } | null)?.bytes;
    if (typeof r.oversized !== 'object' || r.oversized === null || (b !== undefined && (typeof b !== 'number' || !Number.isInteger(b) || b < 1))) throw new Error('Bad fault oversized: {} or {bytes: a positive integer}.');
  }
  for (const k of ['drop', 'dropAfter', 'html', 'truncate'] as const) if (r[k] !== undefined && typeof r[k] !== 'boolean') throw new Error(`Bad fault ${k}: true or false.`);
  if ((r.dropAfter || r.truncate) && r.status !== undefined) throw new Error('A fault rule that keeps the route\'s answer takes no status.');
  return { ...r };
}
