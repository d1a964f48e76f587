/**
 * Which window-level dialogs are open. Views ask for a dialog here; App.svelte renders each one
 * once. `modalCount` lets the shell hide itself from assistive tech while a modal is up.
 */

export type SiteFormRequest =
  | { mode: 'add' }
  | { mode: 'edit'; id: string; /** Values to put in the form instead of the saved ones. */ prefill?: { baseUrl?: string } };

class Ui {
  siteForm = $state<SiteFormRequest | null>(null);
  /** Site id whose removal is being confirmed. */
  removeId = $state<string | null>(null);
  palette = $state(false);
  /** The offline search dialog (Ctrl/Cmd+Shift+F). */
  search = $state(false);
  /** The People view: the accounts of every signed-in site, joined into people. */
  people = $state(false);
  /** The updates across sites: every pending update of every signed-in site, updated in one run. */
  updates = $state(false);
  /** Sites at a glance: every site's health in one table. */
  glance = $state(false);
  /** About Sitedesk: its version and the open-source licences of what it ships. */
  about = $state(false);
  /** The list of keyboard shortcuts (from the command palette). */
  shortcuts = $state(false);
  /** The audit trails kept on this computer; `copyId` searches that copy first. */
  auditCopies = $state<{ copyId?: number } | null>(null);
  /** Modal dialogs currently open (Dialog/ConfirmDialog register themselves). */
  modalCount = $state(0);
  /**
   * Where focus goes when the current dialog closes, when the element that opened it is gone
   * (menus); a function when that element is drawn only as the dialog closes (a site just added).
   */
  returnFocus: HTMLElement | (() => HTMLElement | null) | null = null;

  readonly modalOpen: boolean = $derived(this.modalCount > 0);

  addSite(from?: HTMLElement | null): void {
    this.returnFocus = from ?? null;
    this.siteForm = { mode: 'add' };
  }

  editSite(id: string, from?: HTMLElement | null, prefill?: { baseUrl?: string }): void {
    this.returnFocus = from ?? null;
    this.siteForm = prefill ? { mode: 'edit', id, prefill } : { mode: 'edit', id };
  }

  removeSite(id: string, from?: HTMLElement | null): void {
    this.returnFocus = from ?? null;
    this.removeId = id;
  }

  /** Returns and forgets the element to focus after a dialog, if it is still in the page. */
  takeReturnFocus(): HTMLElement | null {
    const to = this.returnFocus;
    this.returnFocus = null;
    const el = typeof to === 'function' ? to() : to;
    return el && el.isConnected ? el : null;
  }
}

export const ui = new Ui();
