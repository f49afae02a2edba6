// Write-side benchmarks of the data model (issue 3): bulk insert rows/s, commit latency on a 1,000-row table vs a
// 100,000-row table, and single-row write latency. Every figure includes projection: a write counts as done when
// its events are visible in the views (WRITE_CONSISTENCY=projected), measured in one process on the embedded stores.
// Run alone: npx tsx bench/domainBench.ts [rows]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { itemsSchema, openEmbeddedStack, percentile } from './embeddedStack.ts';

type BenchFigure = { name: string; value: number; unit: string };

export async function runDomainBench(largeRows = 100_000): Promise<BenchFigure[]> {
  const stack = await openEmbeddedStack('strata-domain-bench-');
  const { systemState, write } = stack;

  type BenchProject = { readonly name: string; draft(): Promise<string> };

  async function projectWithTable(name: string): Promise<BenchProject> {
    await write('CreateProject', { organizationId: 'admin', projectName: name });
    const draft = async (): Promise<string> => {
      const s = await systemState.current();
      const project = [...s.projects.values()].find((p) => p.name === name && !p.deleted);
      const branch = project && s.branches.get(project.rootBranchId);
      if (!branch) throw new Error('branch missing');
      return branch.draftRevisionId;
    };
    await write('CreateTable', { revisionId: await draft(), tableId: 'items', schema: itemsSchema });
    return { name, draft };
  }

  type Timed = { readonly wallMs: number; readonly cpuMs: number };

  /** Wall and process CPU time of `run` (CPU is the stable figure on shared machines). */
  async function timed(run: () => Promise<void>): Promise<Timed> {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await run();
    const cpu = process.cpuUsage(cpuStarted);
    return { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
  }

  async function fill(project: BenchProject, total: number, batch: number): Promise<void> {
    for (let offset = 0; offset < total; offset += batch) {
      const rows = Array.from({ length: Math.min(batch, total - offset) }, (_, i) => ({
        rowId: `r${offset + i}`,
        data: { name: `row ${offset + i}`, n: offset + i, tag: (offset + i) % 2 === 0 ? 'even' : 'odd' },
      }));
      await write('CreateRows', { revisionId: await project.draft(), tableId: 'items', rows, bulk: true });
    }
  }

  /** One changed row, then the timed commit. */
  async function commitLatency(project: BenchProject, size: number, i: number): Promise<number> {
    const rowId = `r${(i * 7919) % size}`;
    await write('UpdateRows', {
      revisionId: await project.draft(),
      tableId: 'items',
      rows: [{ rowId, data: { name: `changed ${i}`, n: -i, tag: 'changed' } }],
      bulk: false,
    });
    const started = performance.now();
    await write('CreateRevision', { organizationId: 'admin', projectName: project.name, branchName: '$default' });
    return performance.now() - started;
  }

  /**
   * Commit latencies of both tables in alternating rounds, so that both see the same background (the OS still
   * writing back the bulk fill makes fsyncs slower for a while) and the ratio shows the table size alone.
   */
  async function commitLatencies(rounds: number, small: BenchProject, large: BenchProject): Promise<[number[], number[]]> {
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let i = 0; i < rounds; i++) {
      smallTimes.push(await commitLatency(small, 1000, i));
      largeTimes.push(await commitLatency(large, largeRows, i));
    }
    return [smallTimes.sort((a, b) => a - b), largeTimes.sort((a, b) => a - b)];
  }

  try {
    const small = await projectWithTable('small');
    await fill(small, 1000, 1000);
    const large = await projectWithTable('large');
    const filled = await timed(() => fill(large, largeRows, 1000));
    // Commit the initial content so later commits carry one changed row each.
    await write('CreateRevision', { organizationId: 'admin', projectName: 'small', branchName: '$default' });
    await write('CreateRevision', { organizationId: 'admin', projectName: 'large', branchName: '$default' });

    const [smallCommits, largeCommits] = await commitLatencies(60, small, large);

    const singles: number[] = [];
    const singleRounds = 400;
    const singlesTotal = await timed(async () => {
      for (let i = 0; i < singleRounds; i++) {
        const started = performance.now();
        await write('UpdateRows', {
          revisionId: await large.draft(),
          tableId: 'items',
          rows: [{ rowId: `r${(i * 104729) % largeRows}`, data: { name: `single ${i}`, n: i, tag: 'single' } }],
          bulk: false,
        });
        singles.push(performance.now() - started);
      }
    });
    singles.sort((a, b) => a - b);
    const smallP50 = percentile(smallCommits, 50);
    const largeP50 = percentile(largeCommits, 50);
    return [
      {
        name: `bulk insert, batches of 1,000, ${largeRows.toLocaleString('en-US')} rows, projected`,
        value: (largeRows / filled.wallMs) * 1000,
        unit: 'rows/s',
      },
      { name: 'bulk insert, same run, per process CPU-second', value: (largeRows / filled.cpuMs) * 1000, unit: 'rows/cpu-s' },
      { name: 'commit latency p50, 1,000-row table (one changed row)', value: smallP50, unit: 'ms' },
      { name: `commit latency p50, ${largeRows.toLocaleString('en-US')}-row table (one changed row)`, value: largeP50, unit: 'ms' },
      { name: 'commit latency ratio large / small (target <= 1.5)', value: largeP50 / smallP50, unit: '×' },
      { name: 'single-row update p50, projected', value: percentile(singles, 50), unit: 'ms' },
      { name: 'single-row update p99, projected', value: percentile(singles, 99), unit: 'ms' },
      { name: 'single-row updates, sequential, per process CPU-second', value: (singleRounds / singlesTotal.cpuMs) * 1000, unit: 'writes/cpu-s' },
    ];
  } finally {
    await stack.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = Number(process.argv[2] ?? 100_000);
  for (const figure of await runDomainBench(rows)) console.log(`${figure.name}: ${figure.value.toFixed(2)} ${figure.unit}`);
}
