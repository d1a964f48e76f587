/**
 * Unsaved editor text is never thrown away silently: whoever is about to replace or close an open
 * page editor (the Pages area selecting another page, closing the pane) asks first with
 * `unsavedEdits.confirmLeave()`; every editor with unsaved changes asks its user "Save", "Discard"
 * or "Keep editing" and the promise says whether to go on. The text itself lives with the editor's
 * session (page-editor.svelte.ts), which also keeps what an editor went away from without asking.
 */

type Guard = () => Promise<boolean>;

class UnsavedEdits {
  #guards = new Set<Guard>();

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
