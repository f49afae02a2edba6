#!/usr/bin/env node
// The `strata` executable: TypeScript sources run through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../cli.ts');
const code = await runCli(process.argv.slice(2));
if (code !== null) process.exit(code);
