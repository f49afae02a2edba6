#!/usr/bin/env node
// Builds the GraphiQL page of generated GraphQL endpoints into admin-ui/dist-graphiql: run by `npm install`/`npm ci`
// (postinstall, after the Admin UI) and `npm run build:graphiql`. Quiet on success; a failed build fails the install.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWithVite } from '../viteBuild.mjs';

await buildWithVite(
  dirname(fileURLToPath(import.meta.url)),
  'graphiql: vite is not installed, so GraphiQL was not built; generated GraphQL endpoints serve a minimal IDE page',
);
