// Module hooks of the `strata` executable (registered by strata.mjs): `.ts` files of this repository are compiled
// with esbuild when imported, one file at a time, with inline source maps. Everything else loads as Node loads it.
// The maps leave out the sources' text (stack traces need only positions): 12 MB less heap in a server.
//
// Why not tsx, which the tests and benches use: tsx compiles with esbuild's `keepNames`, which wraps every named
// function expression in `__name(fn, "name")` (an Object.defineProperty on the new function). Each such closure made
// per request turns into a dictionary-mode function and keeps V8 from optimizing node's HTTP parser callbacks (their
// compiles abort on a map change); measured on generated reads, that cost ~20 % of the CPU of a request
// (bench/RESULTS.md). Compiling file by file without minification never renames anything, so names stay as written.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/** Compiler options esbuild honours (class field semantics, import elision), as tsconfig.json sets them. */
let tsconfigRaw;

export async function initialize(data) {
  tsconfigRaw = { compilerOptions: data?.compilerOptions ?? {} };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path, 'utf8');
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    sourcefile: path,
    tsconfigRaw,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
