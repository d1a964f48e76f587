/**
 * Which area each site's pane shows (memory only; a restart opens the overview), and whether an
 * area may be opened: CMS areas go by the signed-in account's permissions (`/me`), store areas by
 * the store's sign-in (views/store).
 */
import type { CmsArea, Site } from '../../electron/contract/index';
import { areasOf, type AreaDef } from './area-registry';
import { sessions } from './sessions.svelte';
import { storeAreaBlocked } from './stores.svelte';
import { addons, PLUGIN_PAGE_AREA } from './addons.svelte';

/** Why `area` cannot be opened on `site` now, or null when it can. */
export function areaBlocked(site: Site, area: AreaDef): string | null {
  if (site.kind === 'store') return storeAreaBlocked(site, area.id);
  // local changes can be reviewed and discarded signed out too (pushing says when sign-in is needed)
  if (area.id === 'changes') return null;
  return sessions.blockedReason(site.id, area.id as CmsArea);
}

class AreaSelection {
  /** Site id → area id. */
  bySite = $state<Record<string, string>>({});

  /** The area shown in the site's pane, when it exists and may be opened; else null (the overview). */
  current(site: Site): AreaDef | null {
    const id = this.bySite[site.id];
    const area = id ? areasOf(site.kind).find((a) => a.id === id) : undefined;
    if (!area || areaBlocked(site, area) !== null) return null;
    // a plugin's page is titled by the entry that opened it
    if (area.id === PLUGIN_PAGE_AREA) return addons.pages[site.id] ? { ...area, label: addons.pages[site.id]!.label } : null;
    return area;
  }

  select(siteId: string, areaId: string): void {
    this.bySite[siteId] = areaId;
  }

  /** Back to the overview. */
  clear(siteId: string): void {
    delete this.bySite[siteId];
  }
}

export const areaSelection = new AreaSelection();
