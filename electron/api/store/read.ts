/**
 * Store answers read at the boundary. Every call carries its route (`GET /pet/findByStatus`), so
 * an answer Sitedesk cannot read is one bad_response error that names the route and the field
 * ("Shop sent a pet Sitedesk cannot read: GET /pet/21, name is missing"), never a half-read
 * value. Lists are read row by row: a malformed entry (the public Petstore is full of them) is
 * set aside with what is wrong with it, and the rest of the list is kept.
 */
import * as v from 'valibot';
import type { UnreadableEntry } from '../../contract/store';
import { AppError, isAppError } from '../../base/app-error';
import type { CallOptions, CallResult, Transport } from '../transport';

const routeOf = (o: CallOptions) => `${o.method ?? 'GET'} ${o.path}`;

/** One call; a body the transport could not read at all (a web page, not JSON) is said with its route. */
export async function ask<T = unknown>(t: Transport, o: CallOptions): Promise<CallResult<T> & { route: string }> {
  const route = routeOf(o);
  try {
    return { ...(await t.call<T>(o)), route };
  } catch (err) {
    if (isAppError(err) && err.code === 'bad_response') {
      throw new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')} (${route}).` }, { cause: err });
    }
    throw err;
  }
}

/** A value the store sent, short; scrubbed of the site's secrets before it is cut (api/scrub.ts), so none is kept in part. */
const shown = (x: unknown, scrub: Scrub) => {
  const text = scrub(typeof x === 'string' ? JSON.stringify(x) : (JSON.stringify(x) ?? String(x)));
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

type Scrub = (text: string) => string;

/**
 * One problem in words: the field's dotted path, then "is missing" or the schema's message with
 * the value that broke it. The schemas below give their messages as what a field should be.
 */
export function problemOf(issue: v.BaseIssue<unknown>, scrub: Scrub, prefix = ''): string {
  const path = [prefix, ...(issue.path?.map((p) => String(p.key)) ?? [])].filter(Boolean).join('.');
  if (issue.input === undefined) return `${path || 'the answer'} is missing`;
  return `${path || 'the answer'} ${issue.message} (it is ${shown(issue.input, scrub)})`;
}

const problems = (issues: readonly v.BaseIssue<unknown>[], scrub: Scrub) => issues.slice(0, 3).map((i) => problemOf(i, scrub)).join('; ');

/** An answer that must be read whole (a pet, an order, the inventory). */
export function readOne<S extends v.GenericSchema>(schema: S, value: unknown, t: Transport, what: string, route: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  // the problems quote the values sent, which may be secrets: scrubbed like all server text
  const scrub: Scrub = (text) => t.scrub(text);
  const first = problemOf(r.issues[0]!, scrub);
  throw new AppError({ code: 'bad_response', message: `${t.host} sent ${what} Sitedesk cannot read: ${route}, ${first}.`, detail: problems(r.issues, scrub) });
}

export interface Rows<T> {
  rows: T[];
  unreadable: UnreadableEntry[];
}

/**
 * A list read entry by entry: what reads goes to `rows`, what does not to `unreadable` with its
 * problem (and its id and name when those can be made out, so the person can find it). Only an
 * answer that is not a list at all fails as a whole.
 */
export function readRows<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  t: Transport,
  what: string,
  route: string,
  label: (row: Record<string, unknown>) => string | null = () => null,
): Rows<v.InferOutput<S>> {
  if (!Array.isArray(value)) {
    throw new AppError({ code: 'bad_response', message: `${t.host} sent ${what} Sitedesk cannot read: ${route} answered ${shown(value, (text) => t.scrub(text))} where a list belongs.` });
  }
  const out: Rows<v.InferOutput<S>> = { rows: [], unreadable: [] };
  for (const entry of value) {
    const r = v.safeParse(schema, entry);
    if (r.success) {
      out.rows.push(r.output);
      continue;
    }
    const obj = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
    const id = obj && typeof obj.id === 'number' && Number.isSafeInteger(obj.id) ? obj.id : null;
    out.unreadable.push({ id, label: obj ? label(obj) : null, problem: problems(r.issues, (text) => t.scrub(text)) });
  }
  return out;
}

// ── the pieces the store's schemas are made of, with messages that say what a field should be ──

export const Text = v.string('should be text');
/** An id the app can send back exactly: a whole number within Number.MAX_SAFE_INTEGER. */
export const SafeId = v.pipe(v.number('should be a number'), v.safeInteger('should be a whole number small enough to use safely'));
export const WholeNumber = v.pipe(v.number('should be a number'), v.integer('should be a whole number'));
