/**
 * Opens a page of any site from outside its Pages area (search results, the offline copy's failed
 * reads): the site's tab, its Pages area, the page selected and open in the editor. The open
 * editor's unsaved text is asked about first; answers false when its user stayed.
 */
import { workspace } from '../../state/workspace.svelte';
import { areaSelection } from '../../state/area-selection.svelte';
import { siteContexts } from '../../state/site-context.svelte';
import { pagesOf } from './pages.svelte';

/** `lang` '' (or none) is the site's default language. */
export async function goToPage(siteId: string, route: string, lang = ''): Promise<boolean> {
  workspace.open(siteId);
  areaSelection.select(siteId, 'pages');
  const pages = pagesOf(siteContexts.for(siteId));
  if (!(await pages.choose(route))) return false;
  if (lang) pages.openPage(route, lang);
  return true;
}
