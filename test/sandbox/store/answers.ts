/**
 * The store's answers. Document 3 leaves the error body "not shown"; the reference (petstore v3)
 * has one body shape for such messages, ApiResponse `{code, type, message}`, so errors use it:
 * `code` is the HTTP status, `type` the status's name in snake case, `message` one sentence.
 * Validation failures add `errors: [{field, message}]` (dotted paths, `2.email` for list items).
 */
import type { ServerResponse } from 'node:http';
import { HttpProblem, type ErrorWriter } from '../http';

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  422: 'Validation Exception',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

const snake = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'error';

export const apiError: ErrorWriter = (res, status, title, detail, extra = {}) => {
  const text = JSON.stringify({ code: status, type: snake(title), message: detail, ...extra });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};

/** Thrown by a route: the Router answers it with `apiError`. */
export function fail(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpProblem {
  return new HttpProblem(status, STATUS_TITLES[status] ?? 'Error', message, extra, headers);
}

export interface FieldIssue {
  field: string;
  message: string;
}

/** A 400 or 422 naming the fields; `message` is the lead and the first field's sentence. */
export function fieldsFail(status: 400 | 422, lead: string, errors: FieldIssue[]): HttpProblem {
  const more = errors.length > 1 ? ` (${errors.length - 1} more in errors)` : '';
  return fail(status, errors[0] ? `${lead}: ${errors[0].message}${more}` : `${lead}.`, { errors });
}

/** A success answer in ApiResponse form (deletes, logout, uploads). */
export function okMessage(res: ServerResponse, message: string, type = 'ok', headers: Record<string, string> = {}): void {
  const text = JSON.stringify({ code: 200, type, message });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
