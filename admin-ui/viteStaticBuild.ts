import type { BuildOptions } from 'vite';

/**
 * Build options shared by the Admin UI and the GraphiQL page, both served under a CSP without inline script:
 * only external, content-hashed files, no inlined assets, no modulepreload polyfill, one CSS file.
 */
export const staticBuild = {
  emptyOutDir: true,
  assetsDir: 'assets',
  assetsInlineLimit: 0,
  modulePreload: { polyfill: false },
  cssCodeSplit: false,
  sourcemap: false,
  reportCompressedSize: false,
} as const satisfies BuildOptions;
