import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { staticBuild } from './viteStaticBuild.ts';

// The Admin UI is served by the query role at /admin/ (spec admin-ui.md §1) with a CSP that allows no inline
// script or style, so the build emits only external, content-hashed files and no modulepreload polyfill.
export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    ...staticBuild,
    outDir: 'dist',
  },
});
