#!/usr/bin/env node
// The `strata` executable: TypeScript sources are compiled as they are imported (registerTs.mjs; no build step).
import './registerTs.mjs';

const { runCli } = await import('../cli.ts');
const code = await runCli(process.argv.slice(2));
if (code !== null) process.exit(code);
