/**
 * Focus that follows the person's work without stealing it: a step that replaces the one they were
 * in takes focus, anything that appears elsewhere does not.
 */

/** The pane that last held focus (null: outside any pane), kept even after its element went away. */
let lastPane: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    lastPane = e.target instanceof Element ? e.target.closest('.pane') : null;
  });
}

/**
 * Focuses `el` when a new step appears in place of the one the person was working in: focus is
 * already in the same pane, or it was there until the previous step went away. Never steals focus
 * from elsewhere (the rail, the other pane, a dialog) and never on its own at start-up.
 */
export function focusIfIdle(el: HTMLElement | null): void {
  if (!el) return;
  const pane = el.closest('.pane');
  const active = document.activeElement;
  const inPane = active !== null && active !== document.body && active.closest('.pane') === pane;
  const leftByPane = (active === null || active === document.body) && lastPane !== null && lastPane === pane;
  if ((inPane || leftByPane) && !document.querySelector('[role="dialog"], [role="alertdialog"]')) el.focus();
}
