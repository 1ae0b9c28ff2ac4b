import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress.mjs';

// One HTML entry per page group: every *.html file beside this config is an
// entry, so adding a page group is adding its HTML file (and its row in the
// Go page table).
const root = import.meta.dirname;
const input = Object.fromEntries(
  readdirSync(root)
    .filter((f) => f.endsWith('.html'))
    .map((f) => [f.replace(/\.html$/, ''), resolve(root, f)]),
);

export default defineConfig({
  plugins: [svelte(), precompress()],
  resolve: { alias: { $lib: resolve(root, 'src/lib') } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every asset is a file: the pages' CSP allows no inline script or style.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // One stylesheet for every page (about 12 KB gzip, cached as immutable
    // across pages) instead of a file per chunk: a page such as /apply
    // loaded 12 render-blocking stylesheets, each a request before its
    // first paint (Lighthouse, docs/performance.md). Svelte scopes each
    // component's rules, so one page's rules never style another's.
    cssCodeSplit: false,
    reportCompressedSize: false,
    rollupOptions: { input },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
