import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The operator dashboard, built into dist/dashboard/ and served by the API at /dashboard/
 * (api/plugins/dashboard.ts). Hashed names under assets/ let the server cache them for a year.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  // Preact's automatic JSX runtime, without a framework plugin (esbuild does the transform).
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // The strict CSP (script-src 'self') refuses inline code: no polyfill snippet, no data: URLs.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  logLevel: 'warn',
});
