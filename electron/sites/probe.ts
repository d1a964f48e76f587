/**
 * "Test connection": one unauthenticated request to the route each kind of service answers
 * without a credential, judged into an outcome with one sentence for the person (and, for a wrong
 * prefix, the prefix that does answer).
 */
import type { ConnectionOutcome, ConnectionReport, SiteKind } from '../contract';
import { parseJson, send, type FetchLike, type HttpResponse } from '../api/http';
import { isAppError } from '../base/app-error';
import { serverText } from '../api/scrub';
import { defaultBaseOf } from './url';
import { isPlainObject } from '../contract';

export interface ProbeTarget {
  kind: SiteKind;
  baseUrl: string;
  environment: string | null;
}

/** The public route each kind of service answers without a credential. */
const PROBE_PATH: Record<SiteKind, string> = { cms: '/ping', store: '/store/inventory' };
const KIND_NAME: Record<SiteKind, string> = { cms: 'CMS API', store: 'store API' };


/** Does this body look like the answer the kind's probe route promises? */
export function looksLikeService(kind: SiteKind, body: unknown): boolean {
  if (kind === 'cms') {
    // spec: GET /ping, shape "not shown"; the real service answers {"data":{"pong":true}}
    return isPlainObject(body) && isPlainObject(body.data) && body.data.pong === true;
  }
  // store: the inventory map, status → integer quantity
  return isPlainObject(body) && Object.values(body).every((n) => typeof n === 'number' && Number.isInteger(n));
}

/** An API error body (problem+json, {error}, {message}) — a sign that *an* API answered. */
function looksLikeApiError(res: HttpResponse): boolean {
  const type = res.headers.get('content-type') ?? '';
  const body = parseJson(res);
  return type.includes('json') && isPlainObject(body) && ('title' in body || 'error' in body || 'message' in body || 'detail' in body);
}

type Verdict = { outcome: ConnectionOutcome; message: string };

/** Pure: what one probe response means. Exported for unit tests. */
export function judge(kind: SiteKind, res: HttpResponse): Verdict {
  const name = KIND_NAME[kind];
  const body = parseJson(res);
  if (res.status >= 200 && res.status < 300) {
    if (looksLikeService(kind, body)) return { outcome: 'reachable', message: `Reachable: the ${name} answered in ${res.ms} ms.` };
    if (body === undefined) {
      return { outcome: 'wrong_prefix', message: `A web server answered, but with a page instead of the ${name}. Check the API prefix.` };
    }
    return { outcome: 'wrong_service', message: `Something answered at this address, but it is not a ${name}. Check the kind of site.` };
  }
  if (res.status >= 300 && res.status < 400) {
    // a redirect's target may carry a token in its query: said as any server text is (api/scrub.ts)
    const found = res.headers.get('location');
    const where = found === null ? null : serverText(found);
    return {
      outcome: 'wrong_prefix',
      message: `The server redirects this address${where ? ` to ${where}` : ''}. Use the final address (https, exact prefix).`,
    };
  }
  if (res.status === 401 || res.status === 403) {
    return looksLikeApiError(res)
      ? { outcome: 'needs_auth', message: `The ${name} is there and asks for credentials (HTTP ${res.status}). Sign in to use it.` }
      : { outcome: 'wrong_service', message: `The server refused the request (HTTP ${res.status}) and does not look like a ${name}.` };
  }
  if (res.status === 404 || res.status === 405) {
    return { outcome: 'wrong_prefix', message: `The server answered, but there is no ${name} at this prefix (HTTP ${res.status}).` };
  }
  if (res.status === 429) {
    const after = res.headers.get('retry-after');
    return {
      outcome: 'reachable',
      message: `Reachable, but the ${name} is rate-limiting requests right now${after ? ` (try again in ${after} s)` : ''}.`,
    };
  }
  if (res.status >= 500) return { outcome: 'server_error', message: `The server has a problem (HTTP ${res.status}). Try again later.` };
  return { outcome: 'wrong_service', message: `Unexpected answer (HTTP ${res.status}); this does not look like a ${name}.` };
}

const OK: ReadonlySet<ConnectionOutcome> = new Set(['reachable', 'needs_auth']);

/** Reaches the site once (and, for a wrong prefix, the default prefix on the same server). Never throws. */
export async function probeSite(fetchImpl: FetchLike, target: ProbeTarget, timeoutMs = 8000): Promise<ConnectionReport> {
  const url = `${target.baseUrl}${PROBE_PATH[target.kind]}`;
  // Grav reads X-Grav-Environment; the spec names X-Cms-Environment: both go, so either server takes it
  const headers: Record<string, string> = target.environment ? { 'X-Grav-Environment': target.environment, 'X-Cms-Environment': target.environment } : {};
  const started = performance.now();
  let res: HttpResponse;
  try {
    res = await send(fetchImpl, { url, headers, timeoutMs });
  } catch (err) {
    const ms = Math.round(performance.now() - started);
    if (isAppError(err)) {
      const outcome: ConnectionOutcome = err.code === 'tls' ? 'tls' : err.code === 'timeout' ? 'timeout' : 'unreachable';
      return { outcome, ok: false, message: err.message, url, ms };
    }
    return { outcome: 'unreachable', ok: false, message: String(err), url, ms };
  }
  const verdict = judge(target.kind, res);
  const report: ConnectionReport = { ...verdict, ok: OK.has(verdict.outcome), url, status: res.status, ms: res.ms };

  if (verdict.outcome === 'wrong_prefix') {
    const alt = defaultBaseOf(target.baseUrl, target.kind);
    if (alt !== target.baseUrl) {
      try {
        const second = await send(fetchImpl, { url: `${alt}${PROBE_PATH[target.kind]}`, headers, timeoutMs });
        if (OK.has(judge(target.kind, second).outcome)) {
          report.suggestedBaseUrl = alt;
          report.message += ` The ${KIND_NAME[target.kind]} answers at ${alt}.`;
        }
      } catch {
        // the hint is a bonus; the first verdict stands
      }
    }
  }
  return report;
}
