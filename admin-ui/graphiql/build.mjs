#!/usr/bin/env node
// Builds the GraphiQL page of generated GraphQL endpoints into admin-ui/dist-graphiql: run by `npm install`/`npm ci`
// (postinstall, after the Admin UI) and `npm run build:graphiql`. Quiet on success; a failed build fails the install.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
let vite;
try {
  vite = await import('vite');
} catch {
  process.stderr.write('graphiql: vite is not installed, so GraphiQL was not built; generated GraphQL endpoints serve a minimal IDE page\n');
  process.exit(0);
}
if (!existsSync(join(root, 'index.html'))) process.exit(0);
await vite.build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
