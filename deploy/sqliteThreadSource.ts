import { buildSync } from 'esbuild';
import { sqliteThreadEntry } from '../projection-worker/index.ts';

let bundled: string | null = null;

/**
 * The SQLite view store threads' body bundled into one CommonJS script, once per process (~50 ms at start, ~37 KB).
 * Node 20 threads do not inherit the module hooks that compile `.ts` (bin/tsHooks.mjs); a thread registering them
 * itself gets a hooks thread of its own (another V8 heap with esbuild loaded) and its modules compiled with inline
 * source maps: ~25 MB per thread, for the two read threads, the index thread and a rebuild's writing thread. The
 * script runs with a `require` resolving from the thread module's folder (better-sqlite3 stays a package).
 * Synchronous: esbuild's asynchronous service keeps no handle open while it works, so a process with nothing else
 * pending yet (a store opened before any server listens) could see its event loop end under the awaited build.
 */
export function sqliteThreadSource(): string {
  if (bundled !== null) return bundled;
  const result = buildSync({
    entryPoints: [sqliteThreadEntry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['better-sqlite3'],
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('bundling the view store thread produced nothing');
  bundled = `(function (require) {\n${output.text}\n})(require('node:module').createRequire(${JSON.stringify(sqliteThreadEntry)}));\n`;
  return bundled;
}
