/**
 * A virtualised table over paged rows, kept in step (call while its component initialises): the
 * pages under the rows in view are read once the view rests a moment — a fast scroll across a
 * million rows asks for none of the pages it passes — and again after a failed page is retried;
 * at every reset (new filters) the table goes back to its top, after `onReset`.
 */
import { untrack } from 'svelte';
import type { PagedAnswer, PagedRows } from './paged-rows.svelte';
import type { VirtualRows } from './virtual-rows.svelte';

const REST_MS = 60;

/** `rows`: read in the effects, so a table handed other rows follows them. */
export function readRowsAtRest<A extends PagedAnswer<unknown>, Row>(virtual: VirtualRows, rows: () => PagedRows<A, Row>, onReset?: () => void): void {
  let resting: ReturnType<typeof setTimeout> | undefined;
  $effect(() => {
    const r = rows();
    void r.version;
    const indexes = virtual.items.map((x) => x.index);
    clearTimeout(resting);
    if (indexes.length) resting = setTimeout(() => r.ensureRows(indexes), REST_MS);
    return () => clearTimeout(resting);
  });
  $effect(() => {
    void rows().resets;
    untrack(() => {
      onReset?.();
      virtual.scrollToTop();
    });
  });
}
