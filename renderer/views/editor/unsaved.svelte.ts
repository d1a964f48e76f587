/**
 * Unsaved editor text is never thrown away silently.
 *
 * - `unsavedEdits.confirmLeave()`: whoever is about to replace or close an open page editor (the
 *   Pages area selecting another page, closing the pane) may ask first; every editor with unsaved
 *   changes asks its user "Save", "Discard" or "Keep editing" and the promise says whether to go on.
 * - Editors that go away anyway with unsaved changes (the site's tab closed, another page chosen
 *   without asking) leave their text here, in memory, and the next editor of the same page and
 *   language offers it back.
 */
import type { Header } from '../../../electron/contract/index';

export interface StashedDraft {
  /** The ETag the text was based on: saving it later conflicts if the page changed meanwhile. */
  baseEtag: string | null;
  title: string;
  content: string;
  header: Header;
  template: string;
  at: number;
}

type Guard = () => Promise<boolean>;

class UnsavedEdits {
  #drafts = new Map<string, StashedDraft>();
  #guards = new Set<Guard>();
  /** Editors that currently have unsaved changes (reactive). */
  dirtyCount = $state(0);

  key(siteId: string, route: string, lang: string | null | undefined): string {
    return `${siteId}\u0000${route}\u0000${lang ?? ''}`;
  }

  stash(key: string, draft: StashedDraft): void {
    this.#drafts.set(key, draft);
  }

  /** Returns and forgets the stashed text of a page, if any. */
  take(key: string): StashedDraft | null {
    const d = this.#drafts.get(key) ?? null;
    this.#drafts.delete(key);
    return d;
  }

  /** An editor registers how to ask its user; returns the unregister function. */
  register(guard: Guard): () => void {
    this.#guards.add(guard);
    return () => this.#guards.delete(guard);
  }

  /** Asks each editor with unsaved changes; true when every one may be left (saved or discarded). */
  async confirmLeave(): Promise<boolean> {
    for (const guard of [...this.#guards]) if (!(await guard())) return false;
    return true;
  }
}

export const unsavedEdits = new UnsavedEdits();
