import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { staticBuild } from '../viteStaticBuild.ts';

// The bundled GraphiQL of generated GraphQL endpoints (generated-api.md §5.3): a separate build from the Admin UI.
// The query role serves index.html at each endpoint URL and the files under /endpoint/graphiql/ with a CSP of
// 'self' (plus inline styles, which Monaco sets): Monaco's workers are emitted as same-origin files, not blobs.
export default defineConfig({
  root: import.meta.dirname,
  base: '/endpoint/graphiql/',
  plugins: [react()],
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    ...staticBuild,
    outDir: '../dist-graphiql',
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      // GraphiQL's React-compiler output starts modules with "use no memo", which the bundler notes and drops.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
