/**
 * Pages the API cannot read by their route. The Grav API plugin serves a page's own sub-resources
 * under its route (GET /pages/{route}/media, /languages, /compare), and its router tries those
 * before the page itself: GET /pages/docs/media is the media list of /docs, never the page
 * /docs/media. Such a page is listed, but a read of it answers something else (or an error). The
 * app says so in these words instead of calling the page unreadable or the copy failed.
 */
import type { ErrorCode } from '../../contract';

/** The GET routes below a page that shadow a child page of the same slug. */
export const GET_SUB_RESOURCES: ReadonlySet<string> = new Set(['media', 'languages', 'compare']);

const NAMES: Record<string, string> = { media: 'media list', languages: 'list of languages', compare: 'comparison of translations' };

/**
 * Why the API cannot read the page at `route` (structural), or null when nothing shadows it. A
 * top-level page is never shadowed: the sub-resource routes need a page before them.
 */
export function unaddressable(route: string): string | null {
  const i = route.lastIndexOf('/');
  if (i <= 0) return null;
  const slug = route.slice(i + 1);
  if (!GET_SUB_RESOURCES.has(slug)) return null;
  return `The site’s API cannot read ${route}: its address is also that of the ${NAMES[slug]} of ${route.slice(0, i)}.`;
}

/**
 * Whether an error answer to a read of `route` is that shadowing (not the site being away, a
 * refusal of the account, the rate limit or a server failure, which say something else).
 */
export function shadowed(route: string, err: { code: ErrorCode; info?: { status?: number } }): string | null {
  const reason = unaddressable(route);
  if (!reason) return null;
  if (['network', 'timeout', 'tls', 'unauthorized', 'forbidden', 'rate_limited', 'internal', 'database'].includes(err.code)) return null;
  if ((err.info?.status ?? 0) >= 500) return null;
  return reason;
}
