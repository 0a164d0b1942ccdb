// Builds the browser console (Preact) into dist/console-app/, which the server serves at /console (src/console/serve.ts).
// No inline script: the content-security-policy there allows the app's own files only.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/console-app',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // dash.js is one chunk of about 800 kB, loaded only when a player opens.
    chunkSizeWarningLimit: 1024,
  },
});
