/**
 * The test client of the CMS sandbox (the shared JsonClient, ../test-client.ts): the seeded admin
 * API key unless told otherwise, an API token, or nothing; multipart uploads. Works with both
 * flavours: `pagination(reply)` reads a list's paging wherever the flavour puts it.
 */
import { expect } from 'vitest';
import { JsonClient, read, type Json, type Reply } from '../test-client';
import type { CmsSandbox } from './server';

export { read, type Json, type Reply };

export type Auth = { apiKey: string } | { token: string } | { none: true };

export interface UploadFile {
  name: string;
  data: string | Uint8Array;
  type?: string;
  /** form field, default `file` */
  field?: string;
}

export class SandboxClient extends JsonClient {
  constructor(
    readonly sb: CmsSandbox,
    private auth: Auth = { apiKey: sb.seeded?.adminApiKey ?? '' },
  ) {
    super();
  }

  protected get baseUrl(): string {
    return this.sb.url;
  }

  /** The same client acting with another credential. */
  as(auth: Auth): SandboxClient {
    return new SandboxClient(this.sb, auth);
  }

  /**
   * The same client acting as `username` through a fresh API key (with `scopes`, none meaning the
   * account's own permissions); with `access`, the account is created first holding that access.
   */
  async keyFor(username: string, opts: { scopes?: string[]; access?: unknown } = {}): Promise<SandboxClient> {
    if (opts.access !== undefined) {
      await this.sb.accounts.create({ username, password: 'a-long-password-1', email: `${username}@example.test`, access: opts.access });
    }
    return this.as({ apiKey: this.sb.apiKeys.create({ username, name: 'test', scopes: opts.scopes ?? [] }).api_key });
  }

  protected authHeaders(): Record<string, string> {
    if ('apiKey' in this.auth) return { 'X-API-Key': this.auth.apiKey };
    if ('token' in this.auth) return { 'X-API-Token': this.auth.token };
    return {};
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

/** Expects a problem+json answer with this status, a title and a detail; returns its body. */
export function expectProblem(r: Reply, status: number): Json {
  expect(r.status, r.text).toBe(status);
  expect(r.type).toBe('application/problem+json');
  expect(r.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return r.body;
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
