/**
 * The About view's pure parts: which packages a filter keeps, and where a package is used in words.
 */
import type { ShippedLicence } from '../../../electron/contract/index';

/** Every typed word must appear in the package's name, version or licence (case ignored). */
export function filterLicences(packages: readonly ShippedLicence[], query: string): ShippedLicence[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...packages];
  return packages.filter((p) => {
    const haystack = `${p.name} ${p.version} ${p.licence}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

const PARTS: Record<string, string> = {
  renderer: 'the window',
  host: 'the background service',
  shell: 'the desktop shell',
  'browser-mode': 'browser mode',
};

const list = (parts: string[]) => (parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`);

/**
 * Where a package is used, as a sentence: "Built into the window and the background service.",
 * "Installed with the app as a package of its own. It carries a native add-on."
 */
export function whereUsed(p: Pick<ShippedLicence, 'where' | 'native'>): string {
  const built = p.where.filter((w) => w !== 'runtime').map((w) => PARTS[w] ?? w);
  const installed = p.where.includes('runtime');
  let said: string;
  if (built.length && installed) said = `Built into ${list(built)}, and installed with the app as a package of its own.`;
  else if (built.length) said = `Built into ${list(built)}.`;
  else said = 'Installed with the app as a package of its own.';
  return p.native ? `${said} It carries a native add-on.` : said;
}

/** A stable element id for a package's panel. */
export const panelId = (p: Pick<ShippedLicence, 'name' | 'version'>): string => `licence-${p.name.replace(/[^a-z0-9]+/gi, '-')}-${p.version.replace(/[^a-z0-9]+/gi, '-')}`;
