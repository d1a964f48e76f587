import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  // the renderer's state classes (`*.svelte.ts`) use runes: compile them for their unit tests
  plugins: [svelte()],
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    // integration tests open real files and ports; two cores: keep it modest
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
