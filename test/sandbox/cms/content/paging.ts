/**
 * The paged list envelope, both flavours. The real service
 * (getgrav/grav-plugin-api:classes/Api/Response/ApiResponse.php paginated()) sends
 * `meta.pagination {page, per_page, total, total_pages[, located_at_index]}` and
 * `links {self, first, prev, next, last}` (first/prev past page 1, next/last before the last page,
 * each with only page and per_page). The documents say `meta` carries `total`, `page`,
 * `per_page`: the `spec` flavour sends those flat keys as well, so a client written against either
 * finds them; the `real` flavour sends only what the real service does.
 */
import type { Flavor } from '../../flavor';
import { realPaging } from './list-real';
import { specPaging } from './list-spec';

export function paged(flavor: Flavor, prefix: string, path: string, data: unknown[], total: number, page: number, perPage: number, extra: Record<string, unknown> = {}) {
  const totalPages = Math.max(0, Math.ceil(total / perPage));
  const link = (p: number) => `${prefix}${path}?page=${p}&per_page=${perPage}`;
  const links: Record<string, string> = { self: link(page) };
  if (page > 1) Object.assign(links, { first: link(1), prev: link(page - 1) });
  if (page < totalPages) Object.assign(links, { next: link(page + 1), last: link(totalPages) });
  const pagination = { page, per_page: perPage, total, total_pages: totalPages, ...extra };
  if (flavor === 'real') return { data, meta: { pagination }, links };
  return { data, meta: { total, page, per_page: perPage, total_pages: totalPages, pagination }, links };
}

/** `page` / `per_page` of a list request as each flavour reads them. */
export function pagingOf(flavor: Flavor, url: URL): { page: number; perPage: number } {
  return flavor === 'real' ? realPaging(url) : specPaging(url);
}
