import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
// a build script in plain JavaScript
import { auditImportWorkerDefine } from './scripts/audit-import-worker.mjs';

export default defineConfig({
  // the renderer's state classes (*.svelte.ts) are tested as the browser runs them: client-compiled
  // runes ($effect runs, $derived tracks) on svelte's client runtime
  plugins: [svelte({ dynamicCompileOptions: () => ({ generate: 'client' }) })],
  // the audit import's worker thread, as the Host's bundles carry it (scripts/audit-import-worker.mjs)
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test'), ...(await auditImportWorkerDefine()) },
  test: {
    environment: 'node',
    // integration tests open real files and ports; two cores: keep it modest
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        // unit tests import renderer state classes: packages resolve as in the browser, and svelte's
        // exports pick the client runtime only when vite resolves it (not when Node loads it)
        extends: true,
        resolve: { conditions: ['browser'] },
        ssr: { resolve: { conditions: ['browser'] } },
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], server: { deps: { inline: ['svelte'] } } },
      },
      {
        // the Host against the sandboxes: Node's own resolution (ws, better-sqlite3 and the keychain
        // have Node builds only; a browser condition would pick the wrong one)
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'] },
      },
    ],
  },
});
