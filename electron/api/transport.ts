/**
 * The transport every API module uses (DESIGN.md: one transport for every request): base URL and
 * prefix, credentials, X-Cms-Environment, the {data, meta} envelope, error bodies → AppError,
 * conditional requests, timeouts, retries of idempotent calls, and one retry after a token refresh.
 */
import { AppError } from '../core/app-error';
import { badResponse, errorFromResponse, retryAfterSeconds } from './errors';
import { parseJson, send, type FetchLike, type HttpResponse } from './http';

export interface CredentialSource {
  /** Headers that authenticate a call (may refresh an access token that is about to expire). */
  headers(): Promise<Record<string, string>>;
  /**
   * A 401 arrived for a call sent with `sent` headers: refresh if possible (or notice that another
   * call already did); true = try once more with new headers.
   */
  unauthorized(sent: Record<string, string>): Promise<boolean>;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path after the prefix, starting with '/'. */
  path: string;
  /** Arrays repeat the parameter (`filter[]=a&filter[]=b`). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  body?: unknown;
  /** A body that is not JSON (multipart uploads): sent as is, with its content type. */
  raw?: { bytes: Uint8Array; contentType: string; onProgress?: (sent: number, total: number) => void };
  /** false for the public auth routes. Default true. */
  auth?: boolean;
  ifNoneMatch?: string;
  ifMatch?: string;
  timeoutMs?: number;
  /** Envelope: 'data' unwraps {data, meta} (CMS); 'raw' returns the parsed body (store API); 'text' the body as sent (the store's login). */
  envelope?: 'data' | 'raw' | 'text';
}

export interface CallResult<T> {
  status: number;
  data: T;
  meta?: Record<string, unknown>;
  etag?: string;
  headers: Headers;
  /** True for a 304 answer to If-None-Match. */
  notModified: boolean;
}

export interface TransportOptions {
  baseUrl: string;
  environment?: string | null;
  fetch: FetchLike;
  credentials?: CredentialSource;
  timeoutMs?: number;
  /** Waits between retries of idempotent calls (network failure, 5xx, short 429). */
  retryDelaysMs?: number[];
  /** Longest Retry-After the transport waits out by itself; longer ones reach the caller. */
  maxAutoWaitS?: number;
  sleep?: (ms: number) => Promise<void>;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Transport {
  readonly host: string;

  constructor(private readonly opts: TransportOptions) {
    this.host = new URL(opts.baseUrl).host;
  }

  url(path: string, query?: CallOptions['query']): string {
    const u = new URL(this.opts.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) u.searchParams.append(k, item);
      else u.searchParams.set(k, String(v));
    }
    return u.toString();
  }

  async call<T = unknown>(o: CallOptions): Promise<CallResult<T>> {
    const method = o.method ?? 'GET';
    const idempotent = method === 'GET' || method === 'PUT' || method === 'DELETE';
    const delays = this.opts.retryDelaysMs ?? [250, 1000];
    const sleep = this.opts.sleep ?? defaultSleep;
    let refreshed = false;

    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {};
      if (o.raw) headers['Content-Type'] = o.raw.contentType;
      else if (o.body !== undefined) headers['Content-Type'] = 'application/json';
      if (this.opts.environment) headers['X-Cms-Environment'] = this.opts.environment;
      if (o.ifNoneMatch) headers['If-None-Match'] = o.ifNoneMatch;
      if (o.ifMatch) headers['If-Match'] = o.ifMatch;
      const credentialHeaders = o.auth !== false && this.opts.credentials ? await this.opts.credentials.headers() : {};
      Object.assign(headers, credentialHeaders);

      let res: HttpResponse;
      try {
        res = await send(this.opts.fetch, {
          url: this.url(o.path, o.query),
          method,
          headers,
          ...(o.raw
            ? { body: o.raw.bytes, ...(o.raw.onProgress ? { onProgress: o.raw.onProgress } : {}) }
            : o.body !== undefined
              ? { body: JSON.stringify(o.body) }
              : {}),
          timeoutMs: o.timeoutMs ?? this.opts.timeoutMs ?? 15_000,
        });
      } catch (err) {
        // a POST that may have arrived is never repeated here (the outbox checks first)
        if (idempotent && attempt < delays.length && err instanceof AppError && err.code !== 'tls') {
          await sleep(delays[attempt]!);
          continue;
        }
        throw err;
      }

      if (res.status === 401 && o.auth !== false && this.opts.credentials && !refreshed) {
        refreshed = true;
        if (await this.opts.credentials.unauthorized(credentialHeaders)) continue;
      }
      if (res.status === 429 && idempotent && attempt < delays.length) {
        const wait = retryAfterSeconds(res.headers.get('retry-after')) ?? 1;
        if (wait <= (this.opts.maxAutoWaitS ?? 5)) {
          await sleep(wait * 1000);
          continue;
        }
      }
      if (res.status >= 500 && idempotent && attempt < delays.length) {
        await sleep(delays[attempt]!);
        continue;
      }
      return this.read<T>(res, o.envelope ?? 'data');
    }
  }

  private read<T>(res: HttpResponse, envelope: 'data' | 'raw' | 'text'): CallResult<T> {
    const etag = res.headers.get('etag') ?? undefined;
    const base = { status: res.status, headers: res.headers, ...(etag ? { etag } : {}) };
    if (res.status === 304) return { ...base, data: undefined as T, notModified: true };
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, this.host);
    if (res.status === 204 || res.text === '') return { ...base, data: undefined as T, notModified: false };
    if (envelope === 'text') return { ...base, data: res.text as T, notModified: false };
    const body = parseJson(res);
    if (body === undefined) throw badResponse(res, this.host, 'JSON');
    if (envelope === 'raw') return { ...base, data: body as T, notModified: false };
    if (!isObject(body) || !('data' in body)) throw badResponse(res, this.host, 'a {"data": …} answer');
    return {
      ...base,
      data: body.data as T,
      ...(isObject(body.meta) ? { meta: body.meta } : {}),
      notModified: false,
    };
  }
}
