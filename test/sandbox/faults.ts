/**
 * Fault injection: rules that make chosen routes misbehave the way real hosts do — slow answers,
 * 500s, dropped connections, 429 with Retry-After, an HTML page where JSON was expected. Set
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
  /** answer 429 with `Retry-After: retryAfter` (seconds) and X-RateLimit headers */
  rateLimit?: { retryAfter: number };
  /** answer with an HTML page instead of JSON (status `status`, default 200) */
  html?: boolean;
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
    if (rule.rateLimit) {
      const retry = Math.max(0, Math.round(rule.rateLimit.retryAfter));
      res.setHeader('Retry-After', String(retry));
      res.setHeader('X-RateLimit-Limit', '60');
      res.setHeader('X-RateLimit-Remaining', '0');
      res.setHeader('X-RateLimit-Reset', String(nowSec + retry));
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
  if (!r.latencyMs && !r.status && !r.drop && !r.rateLimit && !r.html) throw new Error('A fault rule needs latencyMs, status, drop, rateLimit or html.');
  if (r.status !== undefined && (!Number.isInteger(r.status) || r.status < 100 || r.status > 599)) throw new Error(`Bad fault status: ${r.status}`);
  return { ...r };
}
