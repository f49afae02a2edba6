#!/usr/bin/env node
// Builds the Admin UI into admin-ui/dist: run by `npm install`/`npm ci` (postinstall) and `npm run build:admin-ui`.
// Quiet on success (Vite logs warnings and errors only); a failed build fails the install.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWithVite } from './viteBuild.mjs';

await buildWithVite(
  dirname(fileURLToPath(import.meta.url)),
  'admin-ui: vite is not installed, so the Admin UI was not built; /admin/ answers 503 until `npm run build:admin-ui`',
);
