import { untrack } from 'svelte';
import { ui } from '../lib/ui.svelte';

/**
 * Counts an open modal in `ui.modalCount` while `isOpen()` is true, so the shell behind it is
 * hidden from assistive technology (and from role queries) and made inert. Call during component init.
 */
export function trackModal(isOpen: () => boolean): void {
  $effect(() => {
    if (!isOpen()) return;
    untrack(() => ui.modalCount++);
    return () => untrack(() => ui.modalCount--);
  });
}
