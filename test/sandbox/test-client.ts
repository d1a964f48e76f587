/**
 * A minimal HTTP client for tests that talk to a sandbox over real HTTP (Node's fetch): a
 * credential on every call, JSON bodies (a string or bytes go as they are), answers parsed with
 * their status and headers. The CMS and the store clients (cms/test-client.ts,
 * store/test-client.ts) add their credentials and their own calls.
 */

export type Json = Record<string, any>;

export interface Reply {
  status: number;
  headers: Headers;
  /** Content-Type */
  type: string;
  /** parsed JSON ({} when the body is empty or not JSON) */
  body: Json;
  text: string;
}

export async function read(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Json = {};
  try {
    body = text ? (JSON.parse(text) as Json) : {};
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, type: res.headers.get('content-type') ?? '', body, text };
}

export abstract class JsonClient {
  /** The API's base URL (with its prefix). */
  protected abstract readonly baseUrl: string;
  /** The credential's headers, sent on every call. */
  protected abstract authHeaders(): Record<string, string>;

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const h: Record<string, string> = { ...this.authHeaders(), ...headers };
    const init: RequestInit = { method, headers: h };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    return read(await fetch(this.baseUrl + path, init));
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('POST', path, body, headers);
  }

  put(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('PUT', path, body, headers);
  }

  patch(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('PATCH', path, body, headers);
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('DELETE', path, undefined, headers);
  }
}
