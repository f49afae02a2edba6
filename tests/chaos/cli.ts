// `npm run chaos -- [--duration 2m] [--seed N] [--max-faults N] [--report file.json]`: runs the distributed shape
// under a mixed workload with random faults, prints a summary and writes a JSON report; exit code 1 on any violation.
import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_OPTIONS, runChaos } from './runChaos.ts';

function duration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('use a number with ms, s, m or h (e.g. 90s, 30m)');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('a non-negative integer');
  return n;
}

const program = new Command('chaos')
  .description('Chaos and soak run of the distributed shape (tests/chaos/README.md)')
  .option('--duration <time>', 'how long the workload runs (90s, 2m, 30m)', duration, 120_000)
  .option('--seed <n>', 'seed of every random choice (printed; pass it again to replay)', integer)
  .option('--max-faults <n>', 'most faults injected', integer, DEFAULT_OPTIONS.maxFaults)
  .option('--fault-gap <time>', 'longest pause between two faults (the shortest is a third of it)', duration, DEFAULT_OPTIONS.faultGapMs[1])
  .option('--report <file>', 'where to write the JSON report', 'chaos-report.json')
  .option('--quiet', 'no progress lines');
program.parse();
const opts = program.opts<{ duration: number; seed?: number; maxFaults: number; faultGap: number; report: string; quiet?: boolean }>();
const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
// Ctrl-C or a kill ends the run through process.exit, whose handlers SIGKILL every process the run started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stdout.write(`chaos: interrupted (seed ${seed})\n`);
    process.exit(130);
  });
}
process.stdout.write(`chaos: seed ${seed}, duration ${opts.duration / 1000}s (replay with --seed ${seed})\n`);
const report = await runChaos({
  ...DEFAULT_OPTIONS,
  durationMs: opts.duration,
  seed,
  maxFaults: opts.maxFaults,
  faultGapMs: [Math.round(opts.faultGap / 3), opts.faultGap],
  ...(opts.quiet ? {} : { progress: (line: string) => process.stdout.write(`chaos: ${line}\n`) }),
});
await writeFile(opts.report, `${JSON.stringify(report, null, 2)}\n`);
for (const v of report.violations.slice(0, 30)) process.stdout.write(`VIOLATION ${v.invariant}: ${v.detail}\n`);
process.stdout.write(`${report.summary}\n`);
process.stdout.write(
  `throughput ${report.throughput.acknowledgedWritesPerSecond} acknowledged writes/s, write p99 ${report.latencyMs.write.p99} ms, read p99 ${report.latencyMs.read.p99} ms; report in ${opts.report}\n`,
);
if (!report.ok) process.stdout.write(`chaos: FAILED; replay with npm run chaos -- --seed ${seed} --duration ${opts.duration / 1000}s\n`);
process.exit(report.ok ? 0 : 1);
