#!/usr/bin/env node
// Builds everything the app runs into `out/app/`, the one folder electron-builder packs (emptied first,
// so nothing of an older build, a test or a benchmark can ship):
//   out/app/renderer/        the Svelte renderer (Vite)
//   out/app/main/main.cjs    Electron main      out/app/main/preload.cjs   the preload (CommonJS: sandboxed preloads must be)
//   out/app/host/host.cjs    the Host inside Electron's utilityProcess
//   out/app/host/web.mjs     browser mode (the same Host behind a loopback WebSocket bridge)
//   out/app/host/web-host.mjs   browser mode's Host, in a child process web.mjs supervises
//   out/app/THIRD_PARTY_NOTICES.txt + licences.json   every shipped package's licence (scripts/notices.mjs)
// Beside it, not shipped: out/meta/<bundle>.json, each bundle's inputs (scripts/shipped-packages.mjs
// reads them). Source maps are written next to the bundles for development; the package leaves them out.
// `--if-stale` skips the work when nothing under electron/, renderer/ or this script is newer than out/app/.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { auditImportWorkerDefine } from './audit-import-worker.mjs';
import { readdirSync, statSync, existsSync, writeFileSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { esbuildInputs } from './shipped-packages.mjs';
import { writeNotices } from './notices.mjs';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const app = join(root, 'out', 'app');
const meta = join(root, 'out', 'meta');
const stamp = join(root, 'out', '.build-stamp');
// package-lock.json: the notices follow the installed packages
const inputs = ['electron', 'renderer', 'scripts/build.mjs', 'scripts/notices.mjs', 'scripts/shipped-packages.mjs', 'vite.config.ts', 'package.json', 'package-lock.json'];

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

if (process.argv.includes('--if-stale') && existsSync(stamp) && existsSync(join(app, 'main', 'main.cjs'))) {
  const built = Number(readFileSync(stamp, 'utf8'));
  if (inputs.every((p) => !existsSync(join(root, p)) || newest(join(root, p)) <= built)) process.exit(0);
}

const started = Date.now();
rmSync(stamp, { force: true }); // a build that fails half-way is not fresh
rmSync(app, { recursive: true, force: true });
rmSync(meta, { recursive: true, force: true });
mkdirSync(meta, { recursive: true });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Native modules and Electron itself are loaded at run time, never bundled.
const external = ['electron', 'better-sqlite3', '@napi-rs/keyring', 'electron-updater', 'ws', 'bufferutil', 'utf-8-validate'];
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  external,
  logLevel: 'warning',
  // the audit import's worker thread travels inside the Host's bundle as text (scripts/audit-import-worker.mjs)
  define: { __APP_VERSION__: JSON.stringify(pkg.version), ...(await auditImportWorkerDefine()) },
  metafile: true,
};

/** Keeps which inputs put bytes into a bundle, for the list of shipped packages and the notices. */
function record(bundle, name) {
  return (result) => {
    const inputs = esbuildInputs(result.metafile);
    writeFileSync(join(meta, `${name}.json`), JSON.stringify({ bundle, inputs }, null, 1));
  };
}

/** The same record for the renderer, from Rolldown's chunks (absolute module ids, made relative). */
const rendererRecord = {
  name: 'sitedesk-bundle-record',
  generateBundle(_options, bundle) {
    const inputs = new Set();
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      for (const [id, m] of Object.entries(chunk.modules)) if (m.renderedLength > 0) inputs.add(id.startsWith('\0') ? id : relative(root, id));
    }
    writeFileSync(join(meta, 'renderer.json'), JSON.stringify({ bundle: 'renderer', inputs: [...inputs].sort() }, null, 1));
  },
};

await Promise.all([
  viteBuild({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', plugins: [rendererRecord] }),
  esbuild({ ...common, entryPoints: [join(root, 'electron/main.ts')], outfile: join(app, 'main/main.cjs'), format: 'cjs' }).then(record('shell', 'main')),
  esbuild({ ...common, entryPoints: [join(root, 'electron/preload.ts')], outfile: join(app, 'main/preload.cjs'), format: 'cjs' }).then(record('shell', 'preload')),
  // utility.ts is also the utility process's entry: there it starts the Host with Electron's net.fetch
  esbuild({ ...common, entryPoints: [join(root, 'electron/utility.ts')], outfile: join(app, 'host/host.cjs'), format: 'cjs' }).then(record('host', 'host')),
  ...[
    ['electron/web/cli.ts', 'host/web.mjs', 'web'],
    ['electron/web/host-child.ts', 'host/web-host.mjs', 'web-host'],
  ].map(([entry, outfile, name]) =>
    esbuild({
      ...common,
      entryPoints: [join(root, entry)],
      outfile: join(app, outfile),
      format: 'esm',
      // CommonJS dependencies (better-sqlite3) need require() inside an ES module bundle.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    }).then(record('browser-mode', name)),
  ),
]);
const notices = writeNotices(root, app);
writeFileSync(stamp, String(started));
console.log(`built out/app/ in ${((Date.now() - started) / 1000).toFixed(1)} s (${notices.count} shipped packages in its notices)`);
