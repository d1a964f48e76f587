/**
 * The updates across sites as one table: a row per pending core, plugin and theme update on each
 * site, and the package work a selection of rows asks for. A symlinked package or core is a row
 * that can never be chosen (a developer's copy is never overwritten), so the work never holds it.
 */
import type { PackageJobRequest, SiteUpdates } from '../../../electron/contract/index';

export interface UpdateRow {
  /** Stable across reads: site, kind and package. */
  key: string;
  siteId: string;
  what: 'core' | 'plugin' | 'theme';
  slug: string | null;
  name: string;
  installed: string | null;
  available: string | null;
  symlink: boolean;
}

export function updateRows(sites: readonly SiteUpdates[]): UpdateRow[] {
  const rows: UpdateRow[] = [];
  for (const s of sites) {
    const sum = s.summary;
    // a site answered from the copy cannot be updated now: its rows are left out (the line says why)
    if (!sum || sum.copiedAt) continue;
    if (sum.core.updatable || (sum.core.symlink && sum.core.available && sum.core.available !== sum.core.installed)) {
      rows.push({ key: `${s.siteId}/core`, siteId: s.siteId, what: 'core', slug: null, name: 'Grav core', installed: sum.core.installed, available: sum.core.available, symlink: sum.core.symlink });
    }
    for (const u of [...sum.plugins, ...sum.themes]) {
      rows.push({ key: `${s.siteId}/${u.type}/${u.slug}`, siteId: s.siteId, what: u.type, slug: u.slug, name: u.name, installed: u.installed, available: u.available, symlink: u.symlink });
    }
  }
  return rows;
}

/** The work for the chosen rows: plugins and themes first on each site, its core last; never a symlinked one. */
export function requestsFor(rows: readonly UpdateRow[], chosen: ReadonlySet<string>): PackageJobRequest[] {
  const picked = rows.filter((r) => chosen.has(r.key) && !r.symlink);
  const packages = picked.filter((r) => r.what !== 'core').map((r): PackageJobRequest => ({ kind: 'update', siteId: r.siteId, slug: r.slug! }));
  const cores = picked.filter((r) => r.what === 'core').map((r): PackageJobRequest => ({ kind: 'upgrade', siteId: r.siteId }));
  return [...packages, ...cores];
}
