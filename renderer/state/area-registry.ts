/**
 * Where the views find the areas a site has: the registry itself is `renderer/areas.ts` (each
 * area's view loader, so it stands above the views), and the composition root (main.ts) hands it
 * here before the app mounts. So the pane's area bar and area view, and the area selection, read
 * the registry without importing the file that imports every view.
 */
import type { LucideIcon } from '@lucide/svelte';
import type { Component } from 'svelte';
import type { Site, SiteKind } from '../../electron/contract/index';

/** An area's view: it takes the site and fills the height below the area's bar. */
export type AreaComponent = Component<{ site: Site }>;
export type AreaLoader = () => Promise<{ default: AreaComponent }>;

export interface AreaDef {
  /** Stable id (kept per site by the area selection). */
  id: string;
  label: string;
  icon: LucideIcon;
  /** The view, loaded when the area is first opened; none yet for the areas still to come. */
  load?: AreaLoader;
  /** Opened from other entries (a plugin's page from its sidebar items), not listed itself. */
  hidden?: boolean;
}

export type AreaRegistry = Record<SiteKind, readonly AreaDef[]>;

let registry: AreaRegistry = { cms: [], store: [] };

/** The composition root hands the registry over once, before the app mounts. */
export function registerAreas(areas: AreaRegistry): void {
  registry = areas;
}

/** A site kind's areas, in the order the pane lists them. */
export const areasOf = (kind: SiteKind): readonly AreaDef[] => registry[kind];

const loaded = new Map<AreaLoader, AreaComponent>();

/**
 * The area's view: the component itself once it has been loaded (so reopening an area renders at
 * once), else the promise of it.
 */
export function areaView(area: AreaDef): AreaComponent | Promise<AreaComponent> | null {
  const load = area.load;
  if (!load) return null;
  return loaded.get(load) ?? load().then((mod) => (loaded.set(load, mod.default), mod.default));
}
