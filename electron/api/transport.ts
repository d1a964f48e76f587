/**
 * The transport every API module uses (docs/architecture.md: one transport for every request): base URL and
 * prefix, credentials, the environment header, the {data, meta} envelope, error bodies → AppError,
 * conditional requests, timeouts, retries of idempotent calls, one retry after a token refresh,
 * and the site's pacer (pacer.ts): every request waits for its turn in the site's rate limit, as a
 * person's (interactive) or as background work.
 */
import { AppError } from '../base/app-error';
import { assertNoClimb } from './url-path';
import { badResponse, errorFromResponse, retryAfterSeconds, type ServerTextRules } from './errors';
import { scrubSecrets } from './scrub';
import { classifyFetchError, parseJson, readLimited, REPLY_LIMITS, send, type FetchLike, type HttpResponse, type ReplyKind } from './http';
import type { Pacer, Priority } from './pacer';
import { readingOf, retryWaitMs } from './rate-bucket';
import { isPlainObject } from '../contract';

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
  /** A body that is not JSON (multipart uploads): sent as is, with its content type; a Blob is read as it is sent (a file from disk). */
  raw?: { bytes: Uint8Array | Blob; contentType: string; onProgress?: (sent: number, total: number) => void };
  /** false for the public auth routes. Default true. */
  auth?: boolean;
  ifNoneMatch?: string;
  ifMatch?: string;
  timeoutMs?: number;
  /** The kind of answer due, for its size cap (http.ts REPLY_LIMITS): a page with content, media; default 'json'. */
  reply?: ReplyKind;
  /**
   * Statuses besides 2xx whose body is the answer when it is the API's envelope (a webhook test's
   * 502 carries its delivery in `data`); such a status without a readable envelope is an error as usual.
   */
  answers?: readonly number[];
  /** Envelope: 'data' unwraps {data, meta} (CMS); 'raw' returns the parsed body (store API); 'text' the body as sent (the store's login). */
  envelope?: 'data' | 'raw' | 'text';
  /** Who waits for the answer: a person (default) or background work; see pacer.ts. */
  priority?: Priority;
  /** Gives the call up while it waits for its turn (PaceCancelled); a request already sent runs on. */
  signal?: AbortSignal;
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
  /** Waits between retries of idempotent calls (network failure, 5xx). */
  retryDelaysMs?: number[];
  /**
   * false: a call that gets no answer at all (refused, unreachable, timed out) is not tried again;
   * the caller has an answer of its own (the copy) and would rather give it at once.
   */
  networkRetries?: boolean;
  /**
   * Longest wait for the site's rate limit (a Retry-After, or the pacer's estimate) that a person's
   * call sits out by itself; longer ones reach the caller as rate_limited with the seconds.
   * Background calls wait as long as the site asks.
   */
  maxAutoWaitS?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The site's pacer (or how to find the current one: it is per account). None: calls go at once. */
  pacer?: Pacer | (() => Pacer | null) | null;
  /** The priority of calls that do not name one (default interactive). */
  priority?: Priority;
  /** Gives up every call of this transport that still waits for its turn (a cancelled run). */
  signal?: AbortSignal;
  /**
   * The secrets the app holds for this site now (its key, its tokens): no text taken from the
   * site's answers carries them on (api/scrub.ts).
   */
  secrets?: () => readonly (string | null | undefined)[];
  /**
   * This transport calls the public auth routes only (sign-in, 2FA, refresh, setup, the store's
   * login): their answers carry tokens, so no value read from them is ever quoted in an error.
   */
  authRoutes?: boolean;
}

/** 429s an idempotent call waits out before the caller hears of it. */
const LIMITED_RETRIES = 3;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * How long a 429 asks to wait: its Retry-After, or else the time its X-RateLimit-* headers say a
 * token is back (Grav sends no Retry-After). `known: false`: the answer said nothing; a second.
 */
function limitWait(res: HttpResponse): { ms: number; known: boolean } {
  const s = retryAfterSeconds(res.headers.get('retry-after'));
  if (s !== undefined) return { ms: s * 1000, known: true };
  const reading = readingOf(res.headers, Date.now());
  if (reading) return { ms: retryWaitMs(reading), known: true };
  return { ms: 1000, known: false };
}

export class Transport {
  readonly host: string;

  constructor(private readonly opts: TransportOptions) {
    this.host = new URL(opts.baseUrl).host;
  }

  /** This transport with some options changed: a priority, a signal, no network retries. */
  derive(change: Pick<TransportOptions, 'priority' | 'signal' | 'networkRetries'>): Transport {
    return new Transport({ ...this.opts, ...change });
  }

  /**
   * Text from this site's answers as it may be passed on: every secret held for the site and
   * anything token-shaped hidden. Every error made from an answer goes through it.
   */
  scrub(text: string): string {
    return scrubSecrets(text, (this.opts.secrets?.() ?? []).filter((s): s is string => typeof s === 'string'));
  }

  /** Whether values read from this transport's answers may be quoted in an error (never for the auth routes). */
  get quotesAnswers(): boolean {
    return this.opts.authRoutes !== true;
  }

  /** How an answer's text may appear in an error: scrubbed, and for the public auth routes never echoed. */
  private textRules(o: CallOptions): ServerTextRules {
    return { scrub: (t) => this.scrub(t), echo: o.auth !== false && this.quotesAnswers };
  }

  /** The site's pacer for the account signed in now, if the transport has one. */
  get pacer(): Pacer | null {
    const p = this.opts.pacer;
    return typeof p === 'function' ? p() : (p ?? null);
  }

  url(path: string, query?: CallOptions['query']): string {
    assertNoClimb(path);
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
    const priority = o.priority ?? this.opts.priority ?? 'interactive';
    const signal = o.signal ?? this.opts.signal;
    const maxWaitMs = (this.opts.maxAutoWaitS ?? 5) * 1000;
    const pacer = this.pacer;
    let refreshed = false;
    let failures = 0;
    let limited = 0;

    for (;;) {
      // credentials first: a refresh they may need goes to the public auth route, not through the pacer
      const credentialHeaders = o.auth !== false && this.opts.credentials ? await this.opts.credentials.headers() : {};
      const ticket = pacer ? await pacer.acquire(priority, { ...(signal ? { signal } : {}), ...(priority === 'interactive' ? { maxWaitMs } : {}) }) : null;
      const headers: Record<string, string> = {};
      if (o.raw) headers['Content-Type'] = o.raw.contentType;
      else if (o.body !== undefined) headers['Content-Type'] = 'application/json';
      if (this.opts.environment) {
        // the real service reads X-Grav-Environment; the documents name X-Cms-Environment
        headers['X-Grav-Environment'] = this.opts.environment;
        headers['X-Cms-Environment'] = this.opts.environment;
      }
      if (o.ifNoneMatch) headers['If-None-Match'] = o.ifNoneMatch;
      if (o.ifMatch) headers['If-Match'] = o.ifMatch;
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
          ...(o.reply ? { reply: o.reply } : {}),
        });
      } catch (err) {
        ticket?.done(null);
        // a POST that may have arrived is never repeated here (the outbox checks first)
        if (idempotent && this.opts.networkRetries !== false && failures < delays.length && err instanceof AppError && err.code !== 'tls') {
          await sleep(delays[failures++]!);
          continue;
        }
        throw err;
      }
      ticket?.done(res);

      if (res.status === 401 && o.auth !== false && this.opts.credentials && !refreshed) {
        refreshed = true;
        if (await this.opts.credentials.unauthorized(credentialHeaders)) continue;
      }
      if (res.status === 429) {
        const wait = limitWait(res);
        // a 429 is the site refusing before it does anything, so a write may wait it out and go
        // again too (unlike a lost answer, nothing can have arrived); not a sign-in: there it is the
        // guard against guessing, and the person sees the countdown (nothing is sent on its own)
        if ((idempotent || o.auth !== false) && limited < LIMITED_RETRIES && (priority === 'background' || wait.ms <= maxWaitMs)) {
          limited++;
          // the pacer learnt the wait from this answer and holds the next request until then
          if (!pacer || !wait.known) await sleep(wait.ms);
          continue;
        }
        throw errorFromResponse(res, this.host, this.textRules(o), wait.known ? Math.max(1, Math.ceil(wait.ms / 1000)) : undefined);
      }
      if (res.status >= 500 && idempotent && failures < delays.length) {
        await sleep(delays[failures++]!);
        continue;
      }
      return this.read<T>(res, o);
    }
  }

  /**
   * A GET whose answer is a file too large to hold (an export): its body is handed to `into` a
   * piece at a time as it arrives, never gathered. Credentials, the pacer and one token refresh as
   * `call`; no retries (a body half handed on cannot be taken back; the caller starts again). An
   * error answer is read (with the usual cap) and thrown as `call` would; a web page where a file
   * was due is refused. `idleMs`: the longest silence, before the answer and between pieces.
   * `signal` stops the download at any point (the caller knows why it asked).
   */
  async download(o: { path: string; query?: CallOptions['query']; idleMs?: number; signal?: AbortSignal; into: (piece: Uint8Array) => void | Promise<void> }): Promise<{ status: number; headers: Headers }> {
    const url = this.url(o.path, o.query);
    const idleMs = o.idleMs ?? this.opts.timeoutMs ?? 30_000;
    const pacer = this.pacer;
    let refreshed = false;
    for (;;) {
      const credentialHeaders = this.opts.credentials ? await this.opts.credentials.headers() : {};
      const ticket = pacer ? await pacer.acquire('interactive', { ...(o.signal ? { signal: o.signal } : {}), maxWaitMs: (this.opts.maxAutoWaitS ?? 5) * 1000 }) : null;
      const headers: Record<string, string> = { Accept: '*/*', ...credentialHeaders };
      if (this.opts.environment) {
        headers['X-Grav-Environment'] = this.opts.environment;
        headers['X-Cms-Environment'] = this.opts.environment;
      }
      const stop = new AbortController();
      let idle: ReturnType<typeof setTimeout> | undefined;
      let silent = false;
      const quiet = () => {
        clearTimeout(idle);
        idle = setTimeout(() => {
          silent = true;
          stop.abort();
        }, idleMs);
      };
      const onAbort = () => stop.abort();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      const fail = (err: unknown): AppError =>
        silent ? new AppError({ code: 'timeout', message: `${this.host} stopped sending for ${Math.round(idleMs / 1000)} s.` }, { cause: err }) : classifyFetchError(err, url, idleMs);
      try {
        quiet();
        let res: Response;
        try {
          res = await this.opts.fetch(url, { method: 'GET', headers, redirect: 'manual', signal: stop.signal });
        } catch (err) {
          ticket?.done(null);
          throw fail(err);
        }
        ticket?.done({ status: res.status, headers: res.headers });
        if (res.status === 401 && this.opts.credentials && !refreshed) {
          refreshed = true;
          await res.body?.cancel().catch(() => undefined);
          if (await this.opts.credentials.unauthorized(credentialHeaders)) continue;
        }
        if (res.status < 200 || res.status >= 300) {
          const text = await readLimited(res, REPLY_LIMITS.json, this.host).catch((err: unknown) => Promise.reject(fail(err)));
          const answer: HttpResponse = { status: res.status, headers: res.headers, text, ms: 0 };
          const wait = res.status === 429 ? limitWait(answer) : null;
          throw errorFromResponse(answer, this.host, this.textRules({ path: o.path }), wait?.known ? Math.max(1, Math.ceil(wait.ms / 1000)) : undefined);
        }
        if ((res.headers.get('content-type') ?? '').includes('text/html')) {
          const text = await readLimited(res, REPLY_LIMITS.json, this.host).catch(() => '');
          throw badResponse({ status: res.status, headers: res.headers, text, ms: 0 }, this.host, 'a file', this.textRules({ path: o.path }));
        }
        if (res.body) {
          const reader = res.body.getReader();
          try {
            for (;;) {
              let piece: { done: boolean; value?: Uint8Array };
              try {
                piece = await reader.read();
              } catch (err) {
                throw fail(err);
              }
              if (piece.done || !piece.value) break;
              quiet();
              await o.into(piece.value);
            }
          } finally {
            reader.cancel().catch(() => undefined);
          }
        }
        return { status: res.status, headers: res.headers };
      } finally {
        clearTimeout(idle);
        o.signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  private read<T>(res: HttpResponse, o: CallOptions): CallResult<T> {
    const envelope = o.envelope ?? 'data';
    const rules = this.textRules(o);
    const etag = res.headers.get('etag') ?? undefined;
    const base = { status: res.status, headers: res.headers, ...(etag ? { etag } : {}) };
    if (res.status === 304) return { ...base, data: undefined as T, notModified: true };
    if (res.status < 200 || res.status >= 300) {
      const body = o.answers?.includes(res.status) ? parseJson(res) : undefined;
      if (!isPlainObject(body) || !('data' in body)) throw errorFromResponse(res, this.host, rules);
      return { ...base, data: (envelope === 'raw' ? body : body.data) as T, notModified: false };
    }
    if (res.status === 204 || res.text === '') return { ...base, data: undefined as T, notModified: false };
    // a web page with a 200 (a proxy's, a login portal's) is not the API's answer, even where any text would do
    if (envelope === 'text' && (res.headers.get('content-type') ?? '').includes('text/html')) throw badResponse(res, this.host, "the API's answer", rules);
    if (envelope === 'text') return { ...base, data: res.text as T, notModified: false };
    const body = parseJson(res);
    if (body === undefined) throw badResponse(res, this.host, 'JSON', rules);
    if (envelope === 'raw') return { ...base, data: body as T, notModified: false };
    if (!isPlainObject(body) || !('data' in body)) throw badResponse(res, this.host, 'a {"data": …} answer', rules);
    return {
      ...base,
      data: body.data as T,
      ...(isPlainObject(body.meta) ? { meta: body.meta } : {}),
      notModified: false,
    };
  }
}
