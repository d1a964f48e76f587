/**
 * The site rail's state, without the DOM: the order moves (Alt+↑ / Alt+↓, the row menu's Move up /
 * down, a drop) through the app-wide site list, what the live region says after each, which row an
 * arrow key or Home / End goes to, and the drag marks (the row dragged, the gap it would land in,
 * null when a drop there would not move it). SiteRail.svelte keeps the DOM: focus and the markup.
 * Tested in test/unit/site-rail.test.ts.
 *
 *   const rail = new SiteRailState();
 *   const moved = await rail.move(site, -1);   // rail.announcement says where it went
 *   rail.navTarget('ArrowDown', index);        // the site to focus, or undefined
 */
import { tick } from 'svelte';
import type { Site } from '../../../electron/contract/index';
import { sites } from '../../state/sites.svelte';
import { toasts } from '../../lib/app.svelte';
import { movedText } from '../../lib/reorderable';

/** The keys that move between rows (without Alt, Ctrl or Meta). */
export type NavKey = 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

export class SiteRailState {
  /** What the rail's live region says (cleared first, so the same words are read again). */
  announcement = $state('');
  /** Drag and drop: the row being dragged and the gap it would land in (0…n; null: no move there). */
  dragId = $state<string | null>(null);
  dropIndex = $state<number | null>(null);

  async announce(message: string): Promise<void> {
    this.announcement = '';
    await tick();
    this.announcement = message;
  }

  /**
   * Moves a site `delta` places (−1 up, +1 down) and says where it went, or that it is already at
   * the edge. Answers whether it moved; a refusal is a toast and answers false.
   */
  async move(site: Site, delta: number): Promise<boolean> {
    try {
      const to = await sites.move(site.id, delta);
      if (to === null) {
        void this.announce(delta < 0 ? `${site.name} is already first.` : `${site.name} is already last.`);
        return false;
      }
      void this.announce(movedText(site.name, to, sites.list.length));
      return true;
    } catch (err) {
      toasts.error(err, `Could not move ${site.name}`);
      return false;
    }
  }

  /** The site an arrow key, Home or End goes to from row `index` (undefined: none, or not such a key). */
  navTarget(key: string, index: number): Site | undefined {
    const list = sites.list;
    if (key === 'ArrowUp') return list[index - 1];
    if (key === 'ArrowDown') return list[index + 1];
    if (key === 'Home') return list[0];
    if (key === 'End') return list[list.length - 1];
    return undefined;
  }

  /** Whether `key` moves between rows (the rail then takes the key, even at the edge). */
  isNavKey(key: string): key is NavKey {
    return key === 'ArrowUp' || key === 'ArrowDown' || key === 'Home' || key === 'End';
  }

  /**
   * The pointer is over gap `gap` (0…n) while `id` is dragged (null when nothing is): a gap right
   * before or after the row itself would not move it, so no drop line is drawn there.
   */
  dragOver(id: string | null, gap: number | null): void {
    this.dragId = id;
    if (id === null || gap === null) {
      this.dropIndex = null;
      return;
    }
    const from = sites.ids.indexOf(id);
    this.dropIndex = gap === from || gap === from + 1 ? null : gap;
  }

  /** The row was dropped in gap `gap`: it goes to that place of the list without it. */
  async drop(id: string, gap: number): Promise<void> {
    this.dragOver(null, null);
    const from = sites.ids.indexOf(id);
    const site = sites.byId(id);
    const to = gap > from ? gap - 1 : gap;
    if (from < 0 || !site || to === from) return;
    try {
      await sites.moveTo(id, to);
      await this.announce(movedText(site.name, to, sites.list.length));
    } catch (err) {
      toasts.error(err, `Could not move ${site.name}`);
    }
  }

  /** The drop line's place: before row `index`, or after it when it is the last and the gap is the end. */
  dropBefore(index: number): boolean {
    return this.dropIndex === index;
  }

  dropAfter(index: number): boolean {
    const n = sites.list.length;
    return this.dropIndex === n && index === n - 1;
  }
}
