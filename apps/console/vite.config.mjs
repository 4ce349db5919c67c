// The console's build: base /console/ into dist/, which the gateway serves on the public port (CONSOLE_DIST_DIR).
// Vite 8 compiles TSX itself (Oxc), so there is no React plugin (and no fast refresh: the console is built, not
// served by Vite). ADR 0080.
import { defineConfig } from 'vite';

/**
 * The pages take the API's types from @switchboard/contracts with `import type`, which the compiler erases. A value
 * import of one of our packages would reach this resolver and bring Node and Nest code (class-validator, the DTOs'
 * decorators) into the browser's script: the build refuses it.
 */
const typesOnlyFromOurPackages = {
  name: 'types-only-from-our-packages',
  resolveId(source, importer) {
    if (source.startsWith('@switchboard/'))
      this.error(`${importer}: imports ${source} as a value; the console takes its types only (\`import type\`).`);
    return null;
  },
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [typesOnlyFromOurPackages],
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
