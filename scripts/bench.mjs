#!/usr/bin/env node
// `npm run bench -- NAME` runs test/bench/NAME.ts (bundled by esbuild so the sources' bundler-style
// imports resolve); without a name it lists them. Benchmarks print figures, then one JSON line.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleTs, root } from './bundle-ts.mjs';
import { auditImportWorkerDefine } from './audit-import-worker.mjs';

const names = readdirSync(join(root, 'test/bench')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
const name = process.argv[2];
if (!name || !names.includes(name)) {
  console.log(`Usage: npm run bench -- NAME\nBenchmarks: ${names.join(', ')}`);
  process.exit(name ? 2 : 0);
}
const out = await bundleTs(`test/bench/${name}.ts`, `out/bench/${name}.mjs`, { __APP_VERSION__: '"bench"', ...(await auditImportWorkerDefine()) });
const r = spawnSync(process.execPath, ['--expose-gc', out, ...process.argv.slice(3)], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
