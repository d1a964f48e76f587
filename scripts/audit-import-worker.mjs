// The audit import's worker thread (electron/audit-copy/import-worker.ts) bundled on its own, as
// text. The Host's bundles carry it (`__AUDIT_IMPORT_WORKER__`) and start it with eval, as the
// integrity check's worker is started (electron/db/integrity.ts): no file to find next to the
// bundle, inside app.asar or out. Used by scripts/build.mjs, scripts/bench.mjs and vitest.config.ts.
import { build } from 'esbuild';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The worker's code (CommonJS: an eval'd worker has require()). */
export async function auditImportWorkerCode() {
  const out = await build({
    entryPoints: [join(root, 'electron/audit-copy/import-worker.ts')],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0].text;
}

/** The `define` that puts it into a bundle. */
export async function auditImportWorkerDefine() {
  return { __AUDIT_IMPORT_WORKER__: JSON.stringify(await auditImportWorkerCode()) };
}
