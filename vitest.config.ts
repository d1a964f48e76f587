import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  // the renderer's state classes (*.svelte.ts) are tested as the browser runs them: client-compiled
  // runes ($effect runs, $derived tracks) on svelte's client runtime
  plugins: [svelte({ dynamicCompileOptions: () => ({ generate: 'client' }) })],
  resolve: { conditions: ['browser'] },
  ssr: { resolve: { conditions: ['browser'] } },
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    // svelte's exports pick the client runtime only when vite resolves it (not when Node loads it)
    server: { deps: { inline: ['svelte'] } },
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    // integration tests open real files and ports; two cores: keep it modest
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
