// `npm run bench`: runs every benchmark and writes bench/RESULTS.md (machine, date, figures).
// Usage: npm run bench [-- <suite name> ...]   (default: every suite)
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runAppendBench } from './appendBench.ts';
import { runDomainBench } from './domainBench.ts';
import { runProjectionBench } from './projectionBench.ts';
import { runViewStoreBench } from './viewStoreBench.ts';

export type BenchFigure = { name: string; value: number; unit: string; note?: string };
type Suite = { name: string; title: string; target?: string; run: () => Promise<BenchFigure[]> };

const suites: Suite[] = [
  { name: 'append', title: 'Event store appends (SQLite, WAL, synchronous=FULL)', target: '>= 20,000 events/s in batches', run: runAppendBench },
  { name: 'views', title: 'View store batch upserts (SQLite)', run: runViewStoreBench },
  { name: 'projection', title: 'Projection throughput (SQLite log -> SQLite views)', target: '>= 50,000 events/s', run: runProjectionBench },
  {
    name: 'domain',
    title: 'Data model writes, including projection (command gateway -> SQLite log -> projectors -> SQLite views)',
    target: 'bulk insert >= 20,000 rows/s in batches of 1,000; commit latency on 100,000 rows within 1.5x of 1,000 rows',
    run: () => runDomainBench(),
  },
];

const format = (value: number): string =>
  value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 10 ? 1 : 2);

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const chosen = suites.filter((s) => wanted.length === 0 || wanted.includes(s.name));
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString()}.`,
    '',
    `Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}.`,
    'Figures move ±15 % between runs on these shared machines; ratios measured in one run are the stable part.',
    '',
  ];
  for (const suite of chosen) {
    console.log(`running ${suite.name}…`);
    const figures = await suite.run();
    lines.push(`## ${suite.title}`, '');
    if (suite.target) lines.push(`Target: ${suite.target}.`, '');
    lines.push('| measurement | value | unit |', '|---|---:|---|');
    for (const f of figures) lines.push(`| ${f.name}${f.note ? ` (${f.note})` : ''} | ${format(f.value)} | ${f.unit} |`);
    lines.push('');
    for (const f of figures) console.log(`  ${f.name}: ${format(f.value)} ${f.unit}`);
  }
  const out = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
  writeFileSync(out, lines.join('\n'));
  console.log(`wrote ${out}`);
}

await main();
