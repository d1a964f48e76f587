import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package planted under node_modules: its package.json and files (path in the package → text). */
export interface PlantedPackage {
  pkg: Record<string, unknown>;
  files?: Record<string, string>;
}

/**
 * Lays out a project in `dir`: its package.json (`app` over name and version) and node_modules from
 * `packages`, keyed by the path under node_modules (`paneforge/node_modules/runed` for a nested copy).
 */
export function plantProject(dir: string, app: Record<string, unknown>, packages: Record<string, PlantedPackage>): string {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', ...app }));
  for (const [where, { pkg, files = {} }] of Object.entries(packages)) {
    const folder = join(dir, 'node_modules', ...where.split('/node_modules/').flatMap((p, i) => (i ? ['node_modules', p] : [p])));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify(pkg));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(folder, name, '..'), { recursive: true });
      writeFileSync(join(folder, name), text);
    }
  }
  return dir;
}
