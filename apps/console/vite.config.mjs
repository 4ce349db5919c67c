// The console's build: base /console/ into dist/, which the gateway serves on the public port (CONSOLE_DIST_DIR).
// Vite 8 compiles TSX itself (Oxc), so there is no React plugin (and no fast refresh: the console is built, not
// served by Vite). ADR 0068.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Under the strict CSP (default-src 'self') nothing may be inline: no data: URLs, no inline preload polyfill.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1000,
    reportCompressedSize: false,
    rolldownOptions: {
      onwarn(warning, warn) {
        // react-router marks its modules "use client" for React Server Components; meaningless in this bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
