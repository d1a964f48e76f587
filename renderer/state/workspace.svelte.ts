/**
 * The open sites: tabs in order, the active one (the main pane), an optional second site
 * shown beside it (split) and the share of width the first pane gets (the panes are shown in the
 * order of their tabs). Loaded with `workspace.get`; every change is saved with `workspace.set`, debounced.
 *
 * Invariants: `active` and `split` are in `tabs`; `split !== active`; `split` is null when
 * `active` is null; `ratio` is within 0.2–0.8.
 */
import type { Workspace } from '../../electron/contract/index';
import { invoke } from '../lib/client';

export type PaneSlot = 'main' | 'split';

const SAVE_DELAY = 400;
const MAX_TABS = 64;
export const MIN_RATIO = 0.2;
export const MAX_RATIO = 0.8;

const clampRatio = (r: number) => (Number.isFinite(r) ? Math.min(MAX_RATIO, Math.max(MIN_RATIO, r)) : 0.5);

class WorkspaceState {
  tabs = $state<string[]>([]);
  active = $state<string | null>(null);
  split = $state<string | null>(null);
  ratio = $state(0.5);
  /** Which pane has focus (not persisted): decides what the status bar shows and where a tab opens. */
  focusedSlot = $state<PaneSlot>('main');
  loaded = $state(false);

  /** The site id in the focused pane. */
  readonly focused: string | null = $derived(
    this.focusedSlot === 'split' && this.split ? this.split : this.active,
  );
  readonly isSplit: boolean = $derived(this.split !== null);

  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastSaved = '';

  async load(): Promise<void> {
    try {
      const ws = await invoke('workspace.get');
      this.#set(ws);
      this.#lastSaved = JSON.stringify(this.snapshot());
    } catch {
      // an empty workspace is a fine start; the next change saves over whatever is stored
    }
    this.loaded = true;
  }

  snapshot(): Workspace {
    return { tabs: [...this.tabs], active: this.active, split: this.split, ratio: this.ratio };
  }

  /** Opens a site (or focuses its tab). With `beside`, shows it in the split pane next to the active one. */
  open(id: string, options: { beside?: boolean } = {}): void {
    if (!this.tabs.includes(id)) {
      let tabs = this.tabs;
      if (tabs.length >= MAX_TABS) {
        // the contract keeps at most 64 tabs: let the oldest tab that is not on screen go
        const drop = tabs.find((t) => t !== this.active && t !== this.split);
        tabs = tabs.filter((t) => t !== drop);
      }
      this.tabs = [...tabs, id];
    }
    if (options.beside) {
      this.#openBeside(id);
    } else if (id === this.active) {
      this.focusedSlot = 'main';
    } else if (id === this.split) {
      this.focusedSlot = 'split';
    } else if (this.split && this.focusedSlot === 'split') {
      this.split = id;
    } else {
      this.active = id;
      this.focusedSlot = 'main';
    }
    this.#changed();
  }

  #openBeside(id: string) {
    if (this.active === null || this.active === id) {
      // the site is (or becomes) the main pane: put another open tab beside it, if there is one
      const other = this.tabs.find((t) => t !== id);
      if (this.active === null) this.active = id;
      if (other === undefined) {
        this.focusedSlot = 'main';
        return;
      }
      this.active = other;
    }
    this.split = id;
    this.focusedSlot = 'split';
  }

  /** Puts focus on the pane that shows `id` (clicking a tab). Same as `open` for an open tab. */
  select(id: string): void {
    this.open(id);
  }

  close(id: string): void {
    const index = this.tabs.indexOf(id);
    if (index < 0) return;
    const tabs = this.tabs.filter((t) => t !== id);
    this.tabs = tabs;
    if (this.split === id) {
      this.split = null;
      this.focusedSlot = 'main';
    }
    if (this.active === id) {
      if (this.split) {
        this.active = this.split;
        this.split = null;
      } else {
        this.active = tabs[Math.min(index, tabs.length - 1)] ?? null;
      }
      this.focusedSlot = 'main';
    }
    this.#changed();
  }

  /** Closes the tab in the focused pane (Ctrl+W). */
  closeFocused(): void {
    if (this.focused) this.close(this.focused);
  }

  /** Leaves split view by closing one pane; both tabs stay open. */
  closePane(slot: PaneSlot): void {
    if (!this.split) return;
    if (slot === 'main') this.active = this.split;
    this.split = null;
    this.focusedSlot = 'main';
    this.#changed();
  }

  /** Split view on (the next open tab, or else `fallback`, beside the active one) or off. */
  toggleSplit(fallback?: string): void {
    if (this.split) return this.closePane('split');
    if (!this.active) return;
    const i = this.tabs.indexOf(this.active);
    const other = this.tabs[i + 1] ?? this.tabs.find((t) => t !== this.active) ?? fallback;
    if (!other || other === this.active) return;
    this.open(other, { beside: true });
  }

  /** Whether split view can be turned on given the sites that exist. */
  canSplit(siteIds: string[]): boolean {
    if (this.split) return true;
    return this.active !== null && siteIds.some((id) => id !== this.active);
  }

  focusSlot(slot: PaneSlot): void {
    if (slot === 'split' && !this.split) return;
    this.focusedSlot = slot;
  }

  setRatio(ratio: number): void {
    const r = clampRatio(ratio);
    if (Math.abs(r - this.ratio) < 0.001) return;
    this.ratio = r;
    this.#changed();
  }

  /** Moves a tab to a new index (keyboard or drag in the tab strip). */
  moveTab(id: string, index: number): void {
    const tabs = this.tabs.filter((t) => t !== id);
    if (tabs.length === this.tabs.length) return;
    tabs.splice(Math.max(0, Math.min(index, tabs.length)), 0, id);
    this.tabs = tabs;
    this.#changed();
  }

  /** Drops every id that is not a known site (a site was removed here or in another window). */
  prune(siteIds: readonly string[]): void {
    const known = new Set(siteIds);
    if (this.tabs.every((t) => known.has(t))) return;
    for (const id of this.tabs.filter((t) => !known.has(t))) this.close(id);
  }

  /** Saves the current layout soon, if it differs from what was last saved (after a reconnect). */
  saveSoon(): void {
    this.#changed();
  }

  /** Saves now (e.g. before the window unloads). */
  flush(): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
      void this.#save();
    }
  }

  #set(ws: Workspace) {
    const tabs = [...new Set(ws.tabs)];
    const active = ws.active && tabs.includes(ws.active) ? ws.active : (tabs[0] ?? null);
    const split = ws.split && ws.split !== active && tabs.includes(ws.split) && active ? ws.split : null;
    this.tabs = tabs;
    this.active = active;
    this.split = split;
    this.ratio = clampRatio(ws.ratio);
    this.focusedSlot = 'main';
  }

  #changed() {
    if (!this.loaded) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#save();
    }, SAVE_DELAY);
  }

  async #save() {
    const snapshot = this.snapshot();
    const key = JSON.stringify(snapshot);
    if (key === this.#lastSaved) return;
    try {
      await invoke('workspace.set', snapshot);
      this.#lastSaved = key;
    } catch {
      // not worth a toast: the layout is saved again with the next change
    }
  }
}

export const workspace = new WorkspaceState();
