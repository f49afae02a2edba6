// The merge laws (issue 26 item 5) on a larger random run than the fast tier's: several seeds, many two-branch
// histories each (writes, commits, merges both ways). fast-check prints the seed, the path and the shrunk history
// when a law breaks. Run alone: npx tsx bench/mergeLawsBench.ts [runs per seed]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { MERGE_LAWS_SEED, assertMergeLaws, createMergeLawStats, type MergeLawOptions } from '../contracts/testing/mergeLaws.ts';

type BenchFigure = { name: string; value: number; unit: string; note?: string };

/** As the fast tier's (threeWayMergeLaws.unit.test.ts). */
const OPTIONS: MergeLawOptions = {
  schemaPatches: true,
  reuseTableIds: true,
};

export function runMergeLawsBench(runsPerSeed = 5_000, seeds = 5): Promise<BenchFigure[]> {
  const started = performance.now();
  const stats = createMergeLawStats();
  for (let i = 0; i < seeds; i++) assertMergeLaws(runsPerSeed, MERGE_LAWS_SEED + i, OPTIONS, stats);
  const seconds = (performance.now() - started) / 1000;
  return Promise.resolve([
    {
      name: 'random histories checked, every law held',
      value: runsPerSeed * seeds,
      unit: 'histories',
      note: `seeds ${MERGE_LAWS_SEED}..${MERGE_LAWS_SEED + seeds - 1}`,
    },
    { name: 'merges checked', value: stats.merges - stats.upToDate, unit: 'merges', note: `${stats.upToDate} more were UP_TO_DATE` },
    { name: 'merges applied', value: stats.applied, unit: 'merges', note: `${stats.movedBase} on a base an earlier merge moved` },
    { name: 'criss-cross merges', value: stats.crissCross, unit: 'merges', note: 'several best common ancestors' },
    { name: 'merges with conflicts', value: stats.conflicts, unit: 'merges' },
    { name: 'time', value: Math.round(seconds * 10) / 10, unit: 's' },
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.argv[2] ?? 5_000);
  for (const figure of await runMergeLawsBench(runs))
    console.log(`${figure.name}: ${figure.value} ${figure.unit}${figure.note ? ` (${figure.note})` : ''}`);
}
