#!/usr/bin/env node
// `npm run sandbox -- [--port N] [--data DIR] [--seed demo|empty]` runs the sandbox servers
// (test/sandbox/cli.ts, bundled by esbuild like the benchmarks) in this process, so SIGINT and
// SIGTERM reach them directly.
import { build } from 'esbuild';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'out', 'sandbox', 'cli.mjs');
await build({
  entryPoints: [join(root, 'test/sandbox/cli.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
await import(pathToFileURL(out).href);
