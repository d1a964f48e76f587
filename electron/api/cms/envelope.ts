/**
 * CMS calls and their paged envelope. The spec puts `total`, `page` and `per_page` in `meta`; the
 * real service puts them under `meta.pagination` (with `total_pages`) and adds `links.next` while
 * there is a next page. Both are read here, so every list knows whether another page follows.
 */
import { AppError, isAppError } from '../../base/app-error';
import type { CallOptions, CallResult, Transport } from '../transport';
import { unreadable } from '../parse';
import { isPlainObject } from '../../contract';

/** `GET /pages/blog`: names the call in messages (path only, never the query). */
export const callName = (o: Pick<CallOptions, 'method' | 'path'>): string => `${o.method ?? 'GET'} ${o.path}`;

/**
 * A call whose unreadable answer (HTML where JSON was due, no `data`) says which call it was: the
 * transport's message names the host, this adds the route.
 */
export async function request<T = unknown>(t: Transport, o: CallOptions): Promise<CallResult<T>> {
  try {
    return await t.call<T>(o);
  } catch (err) {
    if (!isAppError(err) || err.code !== 'bad_response') throw err;
    throw new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')}; this was the answer to ${callName(o)}.` }, { cause: err });
  }
}

export interface Paging {
  /** Rows in the whole list, when the site says. */
  total: number | null;
  page: number | null;
  perPage: number | null;
  /** The next page's number; null = this is the last page; undefined = the site sent no links. */
  next: number | null | undefined;
}

const count = (x: unknown): number | null => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : null);

/** Paging from `meta.pagination` (real service) or flat `meta` (spec), and `links.next`. */
export function pagingOf(body: Record<string, unknown>): Paging {
  const meta = isPlainObject(body.meta) ? body.meta : {};
  const nested = isPlainObject(meta.pagination) ? meta.pagination : {};
  const pick = (key: string) => count(nested[key]) ?? count(meta[key]);
  const page = pick('page');
  let next: number | null | undefined;
  if (isPlainObject(body.links)) {
    const href = body.links.next;
    if (typeof href !== 'string' || href === '') next = null;
    else {
      // the real service's links carry only page and per_page (not the filters): the number is
      // taken from it, the rest of the query stays the caller's
      let n: number | null = null;
      try {
        n = count(Number(new URL(href, 'http://link.invalid').searchParams.get('page') ?? NaN));
      } catch {
        n = null;
      }
      next = n !== null && n > 0 ? n : page !== null ? page + 1 : null;
    }
  }
  return { total: pick('total'), page, perPage: pick('per_page'), next };
}

/**
 * The page after `page`: `links.next` when the site sends links; else by the total; else, with
 * neither, while pages come back full.
 */
export function nextPage(p: Paging, asked: { page: number; perPage: number }, rows: number): number | null {
  if (p.next !== undefined) return p.next;
  const page = p.page ?? asked.page;
  const perPage = p.perPage ?? asked.perPage;
  if (p.total !== null) return page * perPage < p.total ? page + 1 : null;
  return rows >= perPage && rows > 0 ? page + 1 : null;
}

/**
 * A paged list call: the body's `data` and its paging. The envelope is read here (not by the
 * transport) because `links` sits beside `data` and `meta`.
 */
export async function listCall(t: Transport, o: CallOptions, what: string): Promise<{ data: unknown; paging: Paging; result: CallResult<unknown> }> {
  const result = await request(t, { ...o, envelope: 'raw' });
  const body = result.data;
  if (!isPlainObject(body) || !('data' in body)) {
    throw unreadable(t, what, { where: callName(o), field: 'data', detail: 'expected a {"data": …} answer' });
  }
  return { data: body.data, paging: pagingOf(body), result };
}
