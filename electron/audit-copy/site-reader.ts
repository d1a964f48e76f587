/**
 * The site's audit trail as "Keep a copy" reads it (document 2 `/audit/events`; the real
 * AuditController): a page of events newest first (time, then id) between two times, with the
 * count of all of them, paging under `meta.pagination` (real, spec) or flat `meta`. Rows go
 * through the same reader as an imported file's (event-row.ts), one at a time: a row that cannot
 * be read is set aside with its place, never the page lost.
 *
 * `/audit/export` is not read over the wire: its answer is the whole file at once (the real
 * service builds up to 100,000 rows in PHP's memory, past the transport's reply cap); the files
 * a person saved from it are imported from disk (csv.ts, json-array.ts).
 */
import { AppError, isAppError } from '../base/app-error';
import type { Transport } from '../api/transport';
import { callName, listCall } from '../api/cms/envelope';
import { unreadable } from '../api/parse';
import { eventFromJson, type ReadEvent } from './event-row';

export interface EventsPage {
  events: ReadEvent[];
  /** Rows that could not be read: their place on the page and why. */
  problems: { index: number; problem: string }[];
  /** Rows the site sent (read or not). */
  rows: number;
  /** Events between the two times on the site now; null when the site did not say. */
  total: number | null;
  /** The page size the site used (it caps what was asked). */
  perPage: number;
}

export interface EventsQuery {
  /** Inclusive epoch milliseconds. */
  from?: number;
  to?: number;
  page: number;
  perPage: number;
}

/** Document 2's and the real service's refusals of the audit routes, in words a person can act on. */
export function trailProblem(err: unknown, host: string): unknown {
  if (!isAppError(err)) return err;
  const status = err.info.status;
  const say = (message: string) => new AppError({ ...err.info, message }, { cause: err });
  if (status === 404) return say(`The audit trail is not turned on at ${host} (its setting plugins.api.audit.enabled is off), so there is nothing to keep.`);
  if (status === 503) return say(`${host} cannot keep an audit trail: its PHP has no SQLite support.`);
  if (status === 403) return say(`Reading the audit trail of ${host} needs a super administrator (api.super)${err.message ? `; the site says: ${err.message.replace(/\.$/, '')}` : ''}.`);
  return err;
}

export async function readEventsPage(t: Transport, q: EventsQuery): Promise<EventsPage> {
  const query: Record<string, string> = { page: String(q.page), per_page: String(q.perPage) };
  if (q.from !== undefined) query.from = String(q.from);
  if (q.to !== undefined) query.to = String(q.to);
  const call = { path: '/audit/events', query };
  let data: unknown;
  let paging: Awaited<ReturnType<typeof listCall>>['paging'];
  try {
    ({ data, paging } = await listCall(t, call, 'the audit trail'));
  } catch (err) {
    throw trailProblem(err, t.host);
  }
  if (!Array.isArray(data)) throw unreadable(t, 'the audit trail', { where: callName(call), field: 'data', detail: 'expected a list of events' });
  const events: ReadEvent[] = [];
  const problems: EventsPage['problems'] = [];
  data.forEach((raw, index) => {
    const r = eventFromJson(raw);
    if ('event' in r) events.push(r.event);
    else problems.push({ index, problem: t.scrub(r.problem) });
  });
  return { events, problems, rows: data.length, total: paging.total, perPage: paging.perPage ?? q.perPage };
}
