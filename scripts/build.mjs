#!/usr/bin/env node
// Builds everything the app runs from `out/`:
//   out/renderer/        the Svelte renderer (Vite)
//   out/main/main.cjs    Electron main      out/main/preload.cjs   the preload (CommonJS: sandboxed preloads must be)
//   out/host/host.cjs    the Host inside Electron's utilityProcess
//   out/host/web.mjs     browser mode (the same Host behind a loopback WebSocket bridge)
//   out/host/web-host.mjs   browser mode's Host, in a child process web.mjs supervises
// `--if-stale` skips the work when nothing under electron/, renderer/ or this script is newer than out/.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { auditImportWorkerDefine } from './audit-import-worker.mjs';
import { readdirSync, statSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'out', '.build-stamp');
const inputs = ['electron', 'renderer', 'scripts/build.mjs', 'vite.config.ts', 'package.json'];

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

if (process.argv.includes('--if-stale') && existsSync(stamp)) {
  const built = Number(readFileSync(stamp, 'utf8'));
  if (inputs.every((p) => !existsSync(join(root, p)) || newest(join(root, p)) <= built)) process.exit(0);
}

const started = Date.now();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Native modules and Electron itself are loaded at run time, never bundled.
const external = ['electron', 'better-sqlite3', '@napi-rs/keyring', 'electron-updater', 'ws', 'bufferutil', 'utf-8-validate'];
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  external,
  logLevel: 'warning',
  // the audit import's worker thread travels inside the Host's bundle as text (scripts/audit-import-worker.mjs)
  define: { __APP_VERSION__: JSON.stringify(pkg.version), ...(await auditImportWorkerDefine()) },
};

await Promise.all([
  viteBuild({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' }),
  esbuild({ ...common, entryPoints: [join(root, 'electron/main.ts')], outfile: join(root, 'out/main/main.cjs'), format: 'cjs' }),
  esbuild({ ...common, entryPoints: [join(root, 'electron/preload.ts')], outfile: join(root, 'out/main/preload.cjs'), format: 'cjs' }),
  // utility.ts is also the utility process's entry: there it starts the Host with Electron's net.fetch
  esbuild({ ...common, entryPoints: [join(root, 'electron/utility.ts')], outfile: join(root, 'out/host/host.cjs'), format: 'cjs' }),
  ...[
    ['electron/web/cli.ts', 'out/host/web.mjs'],
    ['electron/web/host-child.ts', 'out/host/web-host.mjs'],
  ].map(([entry, outfile]) =>
    esbuild({
      ...common,
      entryPoints: [join(root, entry)],
      outfile: join(root, outfile),
      format: 'esm',
      // CommonJS dependencies (better-sqlite3) need require() inside an ES module bundle.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    }),
  ),
]);
writeFileSync(stamp, String(started));
console.log(`built out/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
