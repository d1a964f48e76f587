/**
 * A minimal HTTP client for tests that talk to a CMS sandbox over real HTTP (Node's fetch): the
 * credential is sent on every call (the seeded admin API key unless told otherwise), bodies are
 * JSON, answers come back parsed with their status and headers. Works with both flavours:
 * `pagination(reply)` reads a list's paging wherever the flavour puts it.
 */
import type { CmsSandbox } from './server';

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

export type Auth = { apiKey: string } | { token: string } | { none: true };

export interface UploadFile {
  name: string;
  data: string | Uint8Array;
  type?: string;
  /** form field, default `file` */
  field?: string;
}

export class SandboxClient {
  constructor(
    readonly sb: CmsSandbox,
    private auth: Auth = { apiKey: sb.seeded?.adminApiKey ?? '' },
  ) {}

  /** The same client acting with another credential. */
  as(auth: Auth): SandboxClient {
    return new SandboxClient(this.sb, auth);
  }

  private authHeaders(): Record<string, string> {
    if ('apiKey' in this.auth) return { 'X-API-Key': this.auth.apiKey };
    if ('token' in this.auth) return { 'X-API-Token': this.auth.token };
    return {};
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...this.authHeaders(), ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    return read(await fetch(this.sb.url + path, init));
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('POST', path, body, headers);
  }

  patch(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('PATCH', path, body, headers);
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('DELETE', path, undefined, headers);
  }

  /** multipart/form-data upload: every file under its field (default `file`), plus plain fields. */
  async upload(path: string, files: UploadFile[], fields: Record<string, string> = {}): Promise<Reply> {
    const form = new FormData();
    for (const f of files) {
      const data = typeof f.data === 'string' ? new TextEncoder().encode(f.data) : f.data;
      form.append(f.field ?? 'file', new Blob([data as BlobPart], { type: f.type ?? 'application/octet-stream' }), f.name);
    }
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return read(await fetch(this.sb.url + path, { method: 'POST', headers: this.authHeaders(), body: form }));
  }
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

/** `/pages/a/b%20c` for the route `/a/b c`: no leading slash, each segment percent-encoded. */
export function pagePath(route: string, suffix = ''): string {
  return '/pages/' + route.split('/').filter(Boolean).map(encodeURIComponent).join('/') + suffix;
}

export interface Pagination {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  located_at_index?: number;
}

/**
 * The paging of a list answer: `meta.pagination` (both flavours; the real service sends only
 * that), else the flat `meta.total/page/per_page` the documents describe.
 */
export function pagination(r: Reply): Pagination {
  const meta = (r.body.meta ?? {}) as Json;
  if (meta.pagination && typeof meta.pagination === 'object') return meta.pagination as Pagination;
  return { page: meta.page, per_page: meta.per_page, total: meta.total, total_pages: meta.total_pages } as Pagination;
}
