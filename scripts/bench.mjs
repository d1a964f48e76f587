#!/usr/bin/env node
// `npm run bench -- NAME` runs test/bench/NAME.ts (bundled by esbuild so the sources' bundler-style
// imports resolve); without a name it lists them. Benchmarks print figures, then one JSON line.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const names = readdirSync(join(root, 'test/bench')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
const name = process.argv[2];
if (!name || !names.includes(name)) {
  console.log(`Usage: npm run bench -- NAME\nBenchmarks: ${names.join(', ')}`);
  process.exit(name ? 2 : 0);
}
// inside the project, so the bundle's bare imports resolve against node_modules
const out = join(root, 'out', 'bench', `${name}.mjs`);
await build({
  entryPoints: [join(root, 'test/bench', `${name}.ts`)],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  define: { __APP_VERSION__: '"bench"' },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, ['--expose-gc', out, ...process.argv.slice(3)], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
