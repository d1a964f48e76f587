/**
 * Which `plugins/<name>` and `themes/<name>` settings scopes the site has: those of its installed
 * packages. A package the settings know (site/extensions.ts) brings its form and defaults; one
 * installed from the repository or a zip brings no form, only its `enabled` default (true for a
 * plugin, as a freshly installed Grav plugin is on). Removing a package removes its scope.
 */
import { PLUGINS, THEMES, type Extension } from '../site/extensions';
import type { PackageWorld } from './world';

export type ExtensionLookup = (kind: 'plugins' | 'themes', slug: string) => Extension | null;

export function installedExtension(world: PackageWorld): ExtensionLookup {
  return (kind, slug) => {
    const type = kind === 'plugins' ? 'plugin' : 'theme';
    if (!world.get(slug, type)) return null;
    return (kind === 'plugins' ? PLUGINS : THEMES)[slug] ?? { title: null, fields: [], defaults: kind === 'plugins' ? { enabled: true } : {} };
  };
}
