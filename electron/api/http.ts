import { AppError } from '../base/app-error';

/**
 * The one place the Host talks HTTP: `send` makes a request and reads its answer (timeouts, upload
 * progress, a size cap per kind of answer, errors in the app's words). Credentials, ETags, retries and the single-flight refresh
 * are the transport's (api/transport.ts), which funnels every request through here.
 */
export type FetchLike = typeof globalThis.fetch;

export interface HttpRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /**
   * A string, or bytes (uploads), or a Blob (an upload read from disk as it goes: a file-backed
   * Blob, never held whole); bytes or a Blob with `onProgress` tell how much has been sent (see ProgressBlob).
   */
  body?: string | Uint8Array | Blob;
  onProgress?: (sent: number, total: number) => void;
  timeoutMs?: number;
  /** What kind of answer is due, for its size cap (REPLY_LIMITS). Default 'json'. */
  reply?: ReplyKind;
}

/**
 * The kinds of answer the Host reads, each with its own cap: 'json' (lists, metadata, every answer
 * by default), 'page' (a page with its content), 'media' (uploads' answers, any binary read).
 */
export type ReplyKind = 'json' | 'page' | 'media';

const MiB = 1024 * 1024;

/**
 * Far above anything a real site sends for that kind (a page list of 100 rows is tens of KiB, a
 * long page a few MiB), low enough that a broken or hostile server cannot fill the Host's memory,
 * even with the mirror's several requests at once (docs/architecture.md, Talking to sites).
 */
export const REPLY_LIMITS: Readonly<Record<ReplyKind, number>> = { json: 16 * MiB, page: 32 * MiB, media: 64 * MiB };

const KIND_WORDS: Record<ReplyKind, string> = { json: 'an answer', page: 'a page', media: 'a media answer' };

const sizeText = (bytes: number): string => (bytes % MiB === 0 ? `${bytes / MiB} MiB` : bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${bytes} bytes`);

function tooLarge(host: string, kind: ReplyKind, limit: number): AppError {
  return new AppError({
    code: 'bad_response',
    message: `${host} sent an answer larger than Sitedesk reads for ${KIND_WORDS[kind]} (${sizeText(limit)}); it was not read.`,
    detail: `more than ${limit} bytes`,
  });
}

/**
 * An answer's body as text, read at most `limit` bytes: a Content-Length above it is refused before
 * reading, a body without one (chunked) is counted as it streams and the read is cancelled at the
 * limit, which frees the connection. Nothing of a refused body is returned.
 */
export async function readLimited(res: Response, limit: number, host: string, kind: ReplyKind = 'json'): Promise<string> {
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(host, kind, limit);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > limit) {
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      throw tooLarge(host, kind, limit);
    }
    chunks.push(value);
  }
  // decoded once at the end: one string, not one per chunk
  return new TextDecoder().decode(Buffer.concat(chunks, read));
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

/**
 * A Blob of known size (a file read from disk as it is sent: `fs.openAsBlob`, joined with the
 * multipart's head and tail) that tells how much of it has been taken, like ProgressBlob: its
 * pieces are counted as the body's reader takes them, never gathered.
 */
class ProgressStreamBlob extends Blob {
  readonly #source: Blob;
  readonly #onProgress: (sent: number, total: number) => void;

  constructor(source: Blob, onProgress: (sent: number, total: number) => void) {
    super([source]);
    this.#source = source;
    this.#onProgress = onProgress;
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const reader = this.#source.stream().getReader();
    const total = this.#source.size;
    const onProgress = this.#onProgress;
    let sent = 0;
    return new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        sent += value.byteLength;
        controller.enqueue(value);
        onProgress(sent, total);
      },
      cancel(reason) {
        return reader.cancel(reason);
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

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function classifyFetchError(err: unknown, url: string, timeoutMs: number): AppError {
  const host = hostOf(url);
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
          ? { body: req.body instanceof Blob ? new ProgressStreamBlob(req.body, req.onProgress) : new ProgressBlob(req.body, req.onProgress) }
          : { body: req.body as NonNullable<RequestInit['body']> }
        : {}),
      redirect: 'manual', // a redirect is reported, never followed blindly with credentials attached
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readLimited(res, REPLY_LIMITS[req.reply ?? 'json'], hostOf(req.url), req.reply ?? 'json');
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
