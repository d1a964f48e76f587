/**
 * Virtual rows for a long list, grid or tree (@tanstack/svelte-virtual) as runes: only the rows in
 * view, and a few either side, are in the DOM, and so is the row that holds the keyboard's focus
 * wherever it is, so focus is never lost to virtualisation. Create one while a component
 * initialises; render `items` inside a spacer of `totalSize` pixels, each row with `data-index`.
 */
import { onMount, tick, untrack } from 'svelte';
import { createVirtualizer, type Range, type SvelteVirtualizer, type VirtualItem } from '@tanstack/svelte-virtual';

export interface VirtualRowsShape {
  count: number;
  key: (index: number) => string | number;
  /** A row rendered even out of view (the focused one); -1 for none. */
  keep: number;
}

export interface VirtualRowsOptions {
  scrollElement: () => HTMLElement | null;
  /** Every row's height in pixels. */
  rowHeight: number;
  /** Rows rendered beyond each edge of the view. */
  overscan: number;
  /** Read in an effect: when what it reads changes, the virtualizer learns the new rows. */
  rows: () => VirtualRowsShape;
}

export class VirtualRows {
  // the store hands out the same virtualizer on every change, so a counter tells Svelte that what
  // it holds moved on
  #version = $state(0);
  #inst: SvelteVirtualizer<HTMLElement, HTMLElement> | null = null;
  readonly #scrollElement: () => HTMLElement | null;
  readonly #rowHeight: number;

  /** The rows to render, each with its index, key and offset from the top. */
  readonly items: VirtualItem[] = $derived.by(() => {
    void this.#version;
    return this.#inst ? this.#inst.getVirtualItems() : [];
  });
  /** The height of all the rows together (the spacer's). */
  readonly totalSize: number = $derived.by(() => {
    void this.#version;
    return this.#inst ? this.#inst.getTotalSize() : 0;
  });

  constructor(opts: VirtualRowsOptions) {
    this.#scrollElement = opts.scrollElement;
    this.#rowHeight = opts.rowHeight;
    const store = createVirtualizer<HTMLElement, HTMLElement>({
      count: 0,
      getScrollElement: opts.scrollElement,
      estimateSize: () => opts.rowHeight,
      overscan: opts.overscan,
    });
    onMount(() =>
      store.subscribe((v) => {
        this.#inst = v;
        this.#version++;
      }),
    );
    $effect(() => {
      const { count, key, keep } = opts.rows();
      void opts.scrollElement(); // one that appears later (rendered under an {#if}) is taken up
      untrack(() =>
        this.#inst?.setOptions({
          count,
          getItemKey: key,
          // a new function per change of the kept row, so the virtualizer recomputes its range
          rangeExtractor: (range: Range) => withKept(range, keep),
        }),
      );
    });
  }

  scrollToIndex(index: number): void {
    this.#inst?.scrollToIndex(index, { align: 'auto' });
  }

  scrollToTop(): void {
    this.#inst?.scrollToOffset(0);
  }

  /** Scrolls row `index` into view and focuses its element (`[data-index]`), a frame later if it was not rendered yet. */
  async scrollToAndFocus(index: number): Promise<void> {
    this.scrollToIndex(index);
    await tick();
    const find = () => this.#scrollElement()?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    let el = find();
    if (!el) {
      await new Promise((r) => requestAnimationFrame(r));
      el = find();
    }
    el?.focus({ preventScroll: true });
  }

  /** How many rows Page Up and Page Down move: a view's worth, less one. */
  get pageStep(): number {
    const height = this.#scrollElement()?.clientHeight ?? this.#rowHeight * 10;
    return Math.max(1, Math.floor(height / this.#rowHeight) - 1);
  }
}

/** The rows in view with the overscan either side (as tanstack's default), plus `keep`. */
function withKept(range: Range, keep: number): number[] {
  const out: number[] = [];
  for (let i = Math.max(0, range.startIndex - range.overscan); i <= Math.min(range.count - 1, range.endIndex + range.overscan); i++) out.push(i);
  if (keep >= 0 && keep < range.count && !out.includes(keep)) {
    out.push(keep);
    out.sort((a, b) => a - b);
  }
  return out;
}
