/**
 * A minimal HTTP client for tests that talk to a store sandbox over real HTTP (Node's fetch): the
 * credential goes on every call (the administrator's Enterprise key unless told otherwise, so
 * tests are never rate-limited by accident), bodies are JSON, answers come back parsed.
 */
import { read, type Reply } from '../cms/test-client';
import type { StoreSandbox } from './server';

export type { Reply };

export type StoreAuth = { apiKey: string } | { bearer: string } | { none: true };

export class StoreClient {
  constructor(
    readonly sb: StoreSandbox,
    private readonly auth: StoreAuth = { apiKey: sb.seeded!.keys.enterprise },
  ) {}

  /** The same client acting with another credential. */
  as(auth: StoreAuth): StoreClient {
    return new StoreClient(this.sb, auth);
  }

  private authHeaders(): Record<string, string> {
    if ('apiKey' in this.auth) return { api_key: this.auth.apiKey };
    if ('bearer' in this.auth) return { Authorization: `Bearer ${this.auth.bearer}` };
    return {};
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const h: Record<string, string> = { ...this.authHeaders(), ...headers };
    const init: RequestInit = { method, headers: h };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    return read(await fetch(this.sb.url + path, init));
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('POST', path, body, headers);
  }

  put(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('PUT', path, body, headers);
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('DELETE', path, undefined, headers);
  }

  /** GET /user/login; answers the session token (after `session:`, spec and Petstore alike) with the reply. */
  async login(username: string, password: string): Promise<{ token: string; reply: Reply }> {
    const reply = await this.as({ none: true }).get(`/user/login?${new URLSearchParams({ username, password })}`);
    return { token: /session:\s*(\S+)$/i.exec(reply.text)?.[1] ?? '', reply };
  }
}
