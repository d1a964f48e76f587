import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The renderer is served from app:// in Electron and from the browser-mode server: relative asset paths work for both.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte()],
  build: {
    outDir: '../out/app/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    // the Svelte compiler is the slow part of the build by design; the timing report is noise
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: { host: '127.0.0.1' },
});
