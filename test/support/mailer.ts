/**
 * Shared pieces of the mailer sandbox's contract tests (docs/mailer-audience.md): where a flavour
 * serves the routes and what it calls the permissions (`/mailer`, `mailer.*` in the documents;
 * `/mailroom`, `mailroom.*` on the real plugin), clients acting with one of them, and the problem
 * check with its `code`.
 */
import { expect } from 'vitest';
import type { CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';

export interface MailerPaths {
  /** `/mailer` or `/mailroom` */
  base: string;
  /** `mailer` or `mailroom` */
  perm: string;
  /** the path of a route below the base */
  p(path: string): string;
}

export function mailerPaths(sb: CmsSandbox): MailerPaths {
  const real = sb.flavor === 'real';
  const base = real ? '/mailroom' : '/mailer';
  return { base, perm: real ? 'mailroom' : 'mailer', p: (path) => base + path };
}

/** A client acting as a new account holding `api.access` and the plugin's `levels` (view, manage, send). */
export async function mailerAccount(api: SandboxClient, username: string, levels: string[], o: { scopes?: string[]; apiAccess?: boolean } = {}): Promise<SandboxClient> {
  const perm = mailerPaths(api.sb).perm;
  return api.keyFor(username, { access: { api: { access: o.apiAccess ?? true }, [perm]: Object.fromEntries(levels.map((l) => [l, true])) }, ...(o.scopes ? { scopes: o.scopes } : {}) });
}

export const data = (r: Reply, status = 200): any => {
  expect(r.status, r.text).toBe(status);
  return r.body.data;
};

/** A problem with this status and `code`; its detail says something and names no address. */
export function expectCode(r: Reply, status: number, code?: string): Json {
  const body = expectProblem(r, status);
  if (code) expect(body.code, r.text).toBe(code);
  expect(body.detail).not.toMatch(/[^\s@]+@[^\s@]+\.[a-z]/i);
  return body;
}

/** The paging of a list answer, wherever the flavour puts it. */
export function pageOf(r: Reply): { page: number; per_page: number; total: number; total_pages: number } {
  return r.body.meta.pagination;
}

/** A multipart upload of CSV text (or bytes) as `file`, with text fields. */
export async function uploadCsv(api: SandboxClient, path: string, name: string, csv: string | Uint8Array, fields: Record<string, string> = {}): Promise<Reply> {
  return api.upload(path, [{ name, data: csv, type: 'text/csv' }], fields);
}
