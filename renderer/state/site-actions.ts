/** Site actions shared by the rail, the pane and the command palette (each ends in a toast). */
import type { Site } from '../../electron/contract/index';
import { sites } from './sites.svelte';
import { toasts } from '../lib/app.svelte';
import { ui } from '../lib/ui.svelte';

/** Tests a saved site; the status dot and the pane pick the result up from the sites state. */
export async function runSiteTest(site: Site): Promise<void> {
  try {
    const report = await sites.test(site.id);
    if (report.ok) toasts.success(`${site.name} is reachable`, `${report.message} (${Math.round(report.ms)} ms)`);
    else toasts.show('error', `${site.name}: connection test failed`, report.message);
  } catch (err) {
    toasts.error(err, `Could not test ${site.name}`);
  }
}

/** Removes a site (after the confirm dialog). Throws so the dialog can show the error. */
export async function removeSite(site: Site): Promise<void> {
  const ids = sites.ids;
  const index = ids.indexOf(site.id);
  await sites.remove(site.id);
  toasts.success(`Removed ${site.name}`);
  // focus the row that took its place (or the one above, or "Add site")
  const nextId = ids[index + 1] ?? ids[index - 1];
  const rail = document.querySelector('nav[aria-label="Sites"]');
  const next = nextId ? rail?.querySelector<HTMLElement>(`[data-site-id="${CSS.escape(nextId)}"] .site-row`) : null;
  ui.returnFocus = next ?? rail?.querySelector<HTMLElement>('.rail-footer button') ?? null;
}
