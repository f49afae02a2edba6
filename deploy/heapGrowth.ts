import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent, for `strata serve`.
 * V8 picks a factor between 1.1 and 4 from its own speed figures; under a steady write load it picked near the top,
 * so right after a burst of writes the main heap held 115-186 MB of which ~45 MB was live (bench/RESULTS.md, scale,
 * issue 29). 40 % bounds that garbage to under half the live heap, at the cost of more frequent (concurrent,
 * incremental) full collections. The value is read at each collection, so setting it once at start is enough.
 */
export const HEAP_GROWING_PERCENT = 40;

/** Sets `--heap-growing-percent` unless the process was started with one (`node --heap-growing-percent=N …`). */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
