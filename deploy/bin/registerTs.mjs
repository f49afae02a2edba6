// Registers the TypeScript hooks of the `strata` executable (tsHooks.mjs) with the compiler options of tsconfig.json,
// and maps stack traces back to the TypeScript sources. Imported first by strata.mjs; `node --import` works too.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

const { compilerOptions } = JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8'));
register('./tsHooks.mjs', import.meta.url, { data: { compilerOptions } });
process.setSourceMapsEnabled(true);
