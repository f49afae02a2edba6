// The merge laws (issue 26 item 5) on a larger random run than the fast tier's: several seeds, many histories each.
// fast-check prints the seed and the shrunk counterexample when a law breaks.
// Run alone: npx tsx bench/mergeLawsBench.ts [runs per seed]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { MERGE_LAWS_SEED, assertMergeLaws } from '../contracts/testing/mergeLaws.ts';

type BenchFigure = { name: string; value: number; unit: string; note?: string };

export function runMergeLawsBench(runsPerSeed = 20_000, seeds = 5): Promise<BenchFigure[]> {
  const started = performance.now();
  for (let i = 0; i < seeds; i++) assertMergeLaws(runsPerSeed, MERGE_LAWS_SEED + i);
  const seconds = (performance.now() - started) / 1000;
  return Promise.resolve([
    {
      name: 'random histories checked, every law held',
      value: runsPerSeed * seeds,
      unit: 'histories',
      note: `seeds ${MERGE_LAWS_SEED}..${MERGE_LAWS_SEED + seeds - 1}`,
    },
    { name: 'time', value: Math.round(seconds * 10) / 10, unit: 's' },
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.argv[2] ?? 20_000);
  for (const figure of await runMergeLawsBench(runs)) console.log(`${figure.name}: ${figure.value} ${figure.unit}`);
}
