#!/usr/bin/env node
// Builds the Admin UI into admin-ui/dist: run by `npm install`/`npm ci` (postinstall) and `npm run build:admin-ui`.
// Quiet on success (Vite logs warnings and errors only); a failed build fails the install.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
let vite;
try {
  vite = await import('vite');
} catch {
  process.stderr.write('admin-ui: vite is not installed, so the Admin UI was not built; /admin/ answers 503 until `npm run build:admin-ui`\n');
  process.exit(0);
}
if (!existsSync(join(root, 'index.html'))) process.exit(0);
await vite.build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
