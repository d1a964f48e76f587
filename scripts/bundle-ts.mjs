// Bundles one TypeScript entry of the project (bundler-style imports) into an ES module under out/,
// inside the project so the bundle's bare imports resolve against node_modules. Used by the
// scripts that run test-side TypeScript directly: benchmarks and the sandbox CLI.
import { build } from 'esbuild';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `entry` and `out` are relative to the project root; returns the absolute output path. */
export async function bundleTs(entry, out, define = {}) {
  const outfile = join(root, out);
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    define,
    // CommonJS dependencies (better-sqlite3) need require() inside an ES module bundle
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}
