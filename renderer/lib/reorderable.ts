/**
 * Reordering a list by drag and drop and by keyboard, for any list whose rows carry their key in a
 * data attribute. The attachment goes on the list element (it keeps the handlers off the rows); it
 * reports the row being dragged and the gap under the pointer (0…n) while it moves and where it
 * was dropped. What a gap means for the order (none, right next to the row itself; the index it
 * goes to) is the list's state to decide, so it is tested without a pointer.
 *
 *   <ul {@attach reorderable({ rowKey: 'siteId', label, onDrag, onDrop })}>
 *     <li data-site-id={id} draggable="true">…</li>
 *
 * Alt+↑ / Alt+↓ on a focused row is `reorderKey(event)`; `movedText` is what a live region says.
 */
import type { Attachment } from 'svelte/attachments';

export interface ReorderOptions {
  /** The `dataset` name of the rows' key (`siteId` for `data-site-id`). */
  rowKey: string;
  /** The row's name, for the text a drag carries. */
  label: (key: string) => string;
  /** The row dragged and the gap under the pointer (key null: the drag ended; gap null: not over the list). */
  onDrag: (key: string | null, gap: number | null) => void;
  /** `key` was dropped in gap `gap` (0…n of the list as it is, the row itself still in it). */
  onDrop: (key: string, gap: number) => void;
}

export function reorderable(o: ReorderOptions): Attachment<HTMLElement> {
  return (node) => {
    const attr = o.rowKey.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const rows = () => [...node.querySelectorAll<HTMLElement>(`:scope > [data-${attr}]`)];
    let dragged: string | null = null;

    const gapAt = (y: number) => {
      const items = rows();
      const i = items.findIndex((row) => {
        const r = row.getBoundingClientRect();
        return y < r.top + r.height / 2;
      });
      return i < 0 ? items.length : i;
    };
    const end = () => {
      dragged = null;
      o.onDrag(null, null);
    };

    const onDragStart = (e: DragEvent) => {
      const row = (e.target as HTMLElement | null)?.closest<HTMLElement>(`[data-${attr}]`);
      const key = row?.dataset[o.rowKey];
      if (!row || !key || !e.dataTransfer) return;
      dragged = key;
      o.onDrag(key, null);
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', o.label(key));
    };
    const onDragOver = (e: DragEvent) => {
      if (!dragged) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'move';
      o.onDrag(dragged, gapAt(e.clientY));
    };
    const onDragLeave = (e: DragEvent) => {
      if (dragged && !node.contains(e.relatedTarget as Node | null)) o.onDrag(dragged, null);
    };
    const onDrop = (e: DragEvent) => {
      if (!dragged) return;
      e.preventDefault();
      const key = dragged;
      const gap = gapAt(e.clientY);
      end();
      o.onDrop(key, gap);
    };

    node.addEventListener('dragstart', onDragStart);
    node.addEventListener('dragover', onDragOver);
    node.addEventListener('dragleave', onDragLeave);
    node.addEventListener('drop', onDrop);
    node.addEventListener('dragend', end);
    return () => {
      node.removeEventListener('dragstart', onDragStart);
      node.removeEventListener('dragover', onDragOver);
      node.removeEventListener('dragleave', onDragLeave);
      node.removeEventListener('drop', onDrop);
      node.removeEventListener('dragend', end);
    };
  };
}

/** Alt+↑ → −1, Alt+↓ → +1, anything else null. */
export function reorderKey(event: KeyboardEvent): -1 | 1 | null {
  if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return null;
  return event.key === 'ArrowUp' ? -1 : 1;
}

/** What a live region says after a move: "Blog moved to position 2 of 5." */
export const movedText = (name: string, index: number, count: number) => `${name} moved to position ${index + 1} of ${count}.`;
