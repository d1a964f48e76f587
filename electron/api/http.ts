import { AppError } from '../base/app-error';

/**
 * The one place the Host talks HTTP: `send` makes a request and reads its answer (timeouts, upload
 * progress, errors in the app's words). Credentials, ETags, retries and the single-flight refresh
 * are the transport's (api/transport.ts), which funnels every request through here.
 */
export type FetchLike = typeof globalThis.fetch;

export interface HttpRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** A string, or bytes (uploads); bytes with `onProgress` tell how much has been sent (see ProgressBlob). */
  body?: string | Uint8Array;
  onProgress?: (sent: number, total: number) => void;
  timeoutMs?: number;
}

const CHUNK = 64 * 1024;

/**
 * Bytes as a body of known length that tells how much of it has been taken. A stream body would
 * go out chunked, without Content-Length, and a PHP front end may then hand the site no file at all
 * (field finding 17); a Blob is sent with its size. Both Node's fetch and Electron's net.fetch take
 * a Blob's bytes through its `stream()`, so reading them a chunk at a time here is the progress:
 * in Node it follows the socket; Electron's net.fetch gathers the body before it sends it, so there
 * it follows that gathering (Chromium then sends the length itself; a Content-Length header set by
 * hand is refused there, so none is).
 */
class ProgressBlob extends Blob {
  readonly #data: Uint8Array;
  readonly #onProgress: (sent: number, total: number) => void;

  constructor(data: Uint8Array, onProgress: (sent: number, total: number) => void) {
    super([data as Uint8Array<ArrayBuffer>]);
    this.#data = data;
    this.#onProgress = onProgress;
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const bytes = this.#data;
    const onProgress = this.#onProgress;
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent >= bytes.length) {
          controller.close();
          return;
        }
        const chunk = bytes.slice(sent, sent + CHUNK);
        sent += chunk.length;
        controller.enqueue(chunk);
        onProgress(sent, bytes.length);
      },
    });
  }
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Round trip in milliseconds. */
  ms: number;
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** Walks `cause` chains (undici wraps the socket error in "fetch failed"). */
function errorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

export function classifyFetchError(err: unknown, url: string, timeoutMs: number): AppError {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (err instanceof AppError) return err;
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new AppError({ code: 'timeout', message: `${host} did not answer within ${Math.round(timeoutMs / 1000)} s.` }, { cause: err });
  }
  const code = errorCode(err);
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT'))) {
    return new AppError(
      { code: 'tls', message: `The secure connection to ${host} failed: its certificate was not accepted (${code}).`, detail: code },
      { cause: err },
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new AppError({ code: 'network', message: `The host name ${host} could not be found.`, detail: code }, { cause: err });
  }
  if (code === 'ECONNREFUSED') {
    return new AppError({ code: 'network', message: `${host} refused the connection: nothing is listening there.`, detail: code }, { cause: err });
  }
  // Electron's net.fetch reports Chromium's net::ERR_* names in the message instead of a code
  const chromium = /net::(ERR_[A-Z_]+)/.exec(err instanceof Error ? err.message : String(err))?.[1];
  if (chromium) {
    if (chromium.includes('CERT') || chromium.includes('SSL')) {
      return new AppError({ code: 'tls', message: `The secure connection to ${host} failed: its certificate was not accepted (${chromium}).`, detail: chromium }, { cause: err });
    }
    if (chromium === 'ERR_TIMED_OUT' || chromium === 'ERR_CONNECTION_TIMED_OUT') {
      return new AppError({ code: 'timeout', message: `${host} did not answer within ${Math.round(timeoutMs / 1000)} s.`, detail: chromium }, { cause: err });
    }
    if (chromium === 'ERR_NAME_NOT_RESOLVED') {
      return new AppError({ code: 'network', message: `The host name ${host} could not be found.`, detail: chromium }, { cause: err });
    }
    if (chromium === 'ERR_CONNECTION_REFUSED') {
      return new AppError({ code: 'network', message: `${host} refused the connection: nothing is listening there.`, detail: chromium }, { cause: err });
    }
  }
  const detail = chromium ?? code ?? (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));
  return new AppError({ code: 'network', message: `${host} could not be reached (${detail}).`, detail }, { cause: err });
}

export async function send(fetchImpl: FetchLike, req: HttpRequest): Promise<HttpResponse> {
  const timeoutMs = req.timeoutMs ?? 15_000;
  const started = performance.now();
  try {
    const res = await fetchImpl(req.url, {
      method: req.method ?? 'GET',
      headers: { Accept: 'application/json', ...req.headers },
      ...(req.body !== undefined
        ? typeof req.body !== 'string' && req.onProgress
          ? { body: new ProgressBlob(req.body, req.onProgress) }
          : { body: req.body as NonNullable<RequestInit['body']> }
        : {}),
      redirect: 'manual', // a redirect is reported, never followed blindly with credentials attached
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, ms: Math.round(performance.now() - started) };
  } catch (err) {
    throw classifyFetchError(err, req.url, timeoutMs);
  }
}

/** Parses a JSON body; undefined when it is not JSON (an HTML error page, garbage). */
export function parseJson(res: HttpResponse): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return undefined;
  }
}
