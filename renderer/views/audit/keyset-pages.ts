/**
 * Page numbers over a keyset search. The table (AuditRows) asks for page N of a size; the kept
 * copies page by key (`before`: the last key of the page before), which is what keeps a page of a
 * million events cheap. So the pages' boundaries are remembered as they are read, a page whose
 * boundary is known is one search, and a page further on (a jump to the end) is reached by reading
 * the pages between, the largest the search allows at a time; one walk at a time, so two pages asked
 * together never read the same stretch twice.
 */

export interface KeysetPage<T> {
  items: T[];
  total: number;
  /** The key to ask `before` for the page after this one; null at the last page. */
  next: number | null;
}

/** One search: `before` (none for the first page), at most `limit` items. */
export type KeysetSearch<T> = (before: number | undefined, limit: number) => Promise<KeysetPage<T>>;

export interface NumberedPage<T> {
  items: T[];
  total: number;
  perPage: number;
  next: number | null;
}

export function keysetPages<T>(search: KeysetSearch<T>, o: { maxLimit: number }) {
  /** Item offset → the `before` that starts there (0 starts with none). */
  const starts = new Map<number, number | undefined>([[0, undefined]]);
  /** Offsets known to be past the end. */
  let end: number | null = null;
  let chain: Promise<unknown> = Promise.resolve();

  /** The nearest known start at or before `offset`. */
  function nearest(offset: number): number {
    let best = 0;
    for (const k of starts.keys()) if (k <= offset && k > best) best = k;
    return best;
  }

  async function read(offset: number, limit: number): Promise<KeysetPage<T>> {
    let at = nearest(offset);
    // walk to the page's start, the largest steps the search allows
    while (at < offset) {
      const step = Math.min(o.maxLimit, offset - at);
      const r = await search(starts.get(at), step);
      if (r.next === null || r.items.length < step) {
        end = at + r.items.length;
        return { items: [], total: r.total, next: null };
      }
      at += r.items.length;
      starts.set(at, r.next);
    }
    const r = await search(starts.get(offset), limit);
    if (r.next !== null) starts.set(offset + r.items.length, r.next);
    else end = offset + r.items.length;
    return r;
  }

  return {
    /** Page `page` (1-based) of `perPage` items. */
    page(page: number, perPage: number): Promise<NumberedPage<T>> {
      const offset = (page - 1) * perPage;
      const run = chain.then(async () => {
        if (end !== null && offset >= end && offset > 0) return { items: [], total: end, perPage, next: null };
        const r = await read(offset, perPage);
        return { items: r.items, total: r.total, perPage, next: r.next === null ? null : page + 1 };
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
}
