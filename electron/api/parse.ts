import * as v from 'valibot';
import { AppError } from '../base/app-error';
import type { Transport } from './transport';

/**
 * Checks server answers against their schemas at the boundary: a malformed answer becomes one
 * bad_response error naming the route and the field, never a half-read value; a list is read row
 * by row, so one malformed row is reported on its own and the others are kept.
 */

/** `data.3.order` for the first issue: where in the answer it went wrong. */
export function issuePath(issue: v.BaseIssue<unknown>, prefix = ''): string {
  const keys = issue.path?.map((p) => String(p.key)) ?? [];
  return [prefix, ...keys].filter((k) => k !== '').join('.');
}

/** `(number | string | false)` → `number, string or false`. */
const readable = (expected: string) => {
  const parts = expected.replace(/^\((.*)\)$/, '$1').split(' | ');
  return parts.length < 2 ? parts[0]! : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
};

/** What is wrong with one value, said short: `missing`, `got Object, expected number or false`. */
function issueText(i: v.BaseIssue<unknown>): string {
  if (i.kind !== 'schema' || i.expected === null) return i.message;
  if (i.received === 'undefined') return 'missing';
  return `got ${i.received}, expected ${readable(i.expected)}`;
}

/** `order: got "x", expected number` for each of the first few issues. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], prefix = '', max = 3): string {
  return issues
    .slice(0, max)
    .map((i) => `${issuePath(i, prefix) || '(the answer itself)'}: ${issueText(i)}`)
    .join('; ');
}

/**
 * The bad_response error for an answer that is not what a route sends. `where` names the route
 * (`GET /pages`); `field` the part of the answer that is wrong.
 */
export function unreadable(t: Transport, what: string, o: { where?: string; field?: string; detail?: string } = {}): AppError {
  const at = [o.where, o.field ? `field ${o.field}` : ''].filter(Boolean).join(', ');
  return new AppError({
    code: 'bad_response',
    message: `${t.host} sent ${what} Sitedesk cannot read${at ? ` (${at})` : ''}.`,
    // what the answer held (a value a check refused) may be a secret: scrubbed like all server text,
    // and never quoted at all from an auth route's answer (the message names the field)
    ...(o.detail && t.quotesAnswers ? { detail: t.scrub(o.detail) } : {}),
  });
}

/**
 * Checks one answer (`data` of the envelope) against its schema. `where` names the route the
 * answer came from, so the message says which call and which field.
 */
export function parseAnswer<S extends v.GenericSchema>(schema: S, value: unknown, t: Transport, what: string, where?: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  throw unreadable(t, what, {
    ...(where ? { where } : {}),
    field: issuePath(r.issues[0], 'data') || 'data',
    detail: describeIssues(r.issues, 'data'),
  });
}

export interface RowProblem {
  /** Index of the row in `value`. */
  index: number;
  /** The row as sent (for the caller to pick a route or a title out of it). */
  raw: unknown;
  /** What was wrong, naming the field (`order: Invalid type: …`). */
  problem: string;
}

/**
 * Reads a list answer row by row. The answer must be an array (else the whole answer is refused,
 * naming the route); a row that does not fit `row` is set aside with its problem, the others are read.
 */
export function parseRows<S extends v.GenericSchema>(
  row: S,
  value: unknown,
  t: Transport,
  what: string,
  where?: string,
): { rows: { index: number; value: v.InferOutput<S> }[]; problems: RowProblem[] } {
  if (!Array.isArray(value)) {
    throw unreadable(t, what, { ...(where ? { where } : {}), field: 'data', detail: `data: expected a list, got ${value === null ? 'null' : typeof value}` });
  }
  const rows: { index: number; value: v.InferOutput<S> }[] = [];
  const problems: RowProblem[] = [];
  value.forEach((raw, index) => {
    const r = v.safeParse(row, raw);
    if (r.success) rows.push({ index, value: r.output });
    else problems.push({ index, raw, problem: t.scrub(describeIssues(r.issues, '', 2)) });
  });
  return { rows, problems };
}
