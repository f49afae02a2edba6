// Revision diffs and row history (issue 16, changes.md §1.3): the diff of a commit that changed 100 rows and the
// first page of a row's history over 1,000 revisions, in a 1,000-row table and a 100,000-row table, through the
// system operations (the reads REST, GraphQL and MCP share) on the embedded SQLite stores.
// Run alone: npx tsx bench/changesBench.ts [rows]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createSystemOperations, resolveConnection } from '../query-service/index.ts';
import { itemsSchema, openEmbeddedStack, percentile } from './embeddedStack.ts';

type BenchFigure = { name: string; value: number; unit: string };

export async function runChangesBench(largeRows = 100_000, revisions = 1000): Promise<BenchFigure[]> {
  const stack = await openEmbeddedStack('strata-changes-bench-');
  const { systemState, viewStore, log, admin, write } = stack;
  const ops = createSystemOperations({ viewStore, systemState, log });
  const ctx = { principal: admin, requestId: 'bench' };

  async function draftOf(name: string): Promise<string> {
    const s = await systemState.current();
    const project = [...s.projects.values()].find((p) => p.name === name && !p.deleted);
    const branch = project && s.branches.get(project.rootBranchId);
    if (!branch) throw new Error('branch missing');
    return branch.draftRevisionId;
  }

  const row = (i: number, tag: string) => ({ rowId: `r${i}`, data: { name: `row ${i}`, n: i, tag } });
  const commit = (name: string) => write('CreateRevision', { organizationId: 'admin', projectName: name, branchName: '$default' });

  /** A project with `size` rows, a commit that changed 100 of them (its id returned), then `revisions` commits of row r1. */
  async function scenario(name: string, size: number): Promise<string> {
    await write('CreateProject', { organizationId: 'admin', projectName: name });
    await write('CreateTable', { revisionId: await draftOf(name), tableId: 'items', schema: itemsSchema });
    for (let offset = 0; offset < size; offset += 1000) {
      const rows = Array.from({ length: Math.min(1000, size - offset) }, (_, i) => row(offset + i, 'seed'));
      await write('CreateRows', { revisionId: await draftOf(name), tableId: 'items', rows, bulk: true });
    }
    await commit(name);
    const changed = Array.from({ length: 100 }, (_, i) => row(Math.floor((i * size) / 100) + 2, 'changed'));
    await write('UpdateRows', { revisionId: await draftOf(name), tableId: 'items', rows: changed, bulk: true });
    const hundred = (await commit(name)) as { id: string };
    for (let i = 0; i < revisions; i++) {
      await write('UpdateRows', {
        revisionId: await draftOf(name),
        tableId: 'items',
        rows: [{ rowId: 'r1', data: { name: 'r1', n: i, tag: 'history' } }],
        bulk: false,
      });
      await commit(name);
    }
    return hundred.id;
  }

  /**
   * Wall latencies and process CPU times (ms, each sorted) of `rounds` calls of each read, alternating between the
   * reads so that all see the same background load (CPU is the stable figure on a shared machine).
   */
  async function latencies(rounds: number, reads: readonly (() => Promise<unknown>)[]): Promise<{ wall: number[]; cpu: number[] }[]> {
    const out = reads.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
    for (let i = 0; i < rounds; i++) {
      for (const [k, read] of reads.entries()) {
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        await read();
        const cpu = process.cpuUsage(cpuStarted);
        out[k]?.wall.push(performance.now() - started);
        out[k]?.cpu.push((cpu.user + cpu.system) / 1000);
      }
    }
    for (const times of out) {
      times.wall.sort((a, b) => a - b);
      times.cpu.sort((a, b) => a - b);
    }
    return out;
  }

  try {
    const smallCommit = await scenario('small', 1000);
    const largeCommit = await scenario('large', largeRows);
    const diff = (revisionId: string) => async () => {
      const changes = await ops.revisionChanges(ctx, { revisionId });
      if (changes.totalRowChanges !== 100) throw new Error(`expected 100 changed rows, got ${changes.totalRowChanges}`);
      await resolveConnection(await ops.rowChanges(ctx, { revisionId, tableId: 'items', first: 100 }));
    };
    const history = (name: string) => async () => {
      const page = await ops.rowHistory(ctx, { revisionId: await draftOf(name), tableId: 'items', rowId: 'r1', first: 100 });
      if (page.edges.length !== 100) throw new Error(`expected a full page, got ${page.edges.length}`);
    };
    const [smallDiff, largeDiff, smallHistory, largeHistory] = await latencies(60, [
      diff(smallCommit),
      diff(largeCommit),
      history('small'),
      history('large'),
    ]);
    const n = largeRows.toLocaleString('en-US');
    type Times = { wall: number[]; cpu: number[] };
    const none: Times = { wall: [], cpu: [] };
    const figures = (what: string, small: Times = none, large: Times = none): BenchFigure[] => [
      { name: `${what}, 1,000-row table, p50`, value: percentile(small.wall, 50), unit: 'ms' },
      { name: `${what}, 1,000-row table, p99`, value: percentile(small.wall, 99), unit: 'ms' },
      { name: `${what}, ${n}-row table, p50`, value: percentile(large.wall, 50), unit: 'ms' },
      { name: `${what}, ${n}-row table, p99`, value: percentile(large.wall, 99), unit: 'ms' },
      { name: `${what}, 1,000-row table, process CPU per read p50`, value: percentile(small.cpu, 50), unit: 'ms' },
      { name: `${what}, ${n}-row table, process CPU per read p50`, value: percentile(large.cpu, 50), unit: 'ms' },
      { name: `${what}, ratio large / small p50 (target <= 1.5)`, value: percentile(large.wall, 50) / percentile(small.wall, 50), unit: '×' },
    ];
    return [
      ...figures('diff of a 100-row commit (revisionChanges + rowChanges first 100)', smallDiff, largeDiff),
      ...figures(`row history first page (100 of ${revisions.toLocaleString('en-US')} revisions)`, smallHistory, largeHistory),
    ];
  } finally {
    await stack.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = Number(process.argv[2] ?? 100_000);
  for (const figure of await runChangesBench(rows)) console.log(`${figure.name}: ${figure.value.toFixed(2)} ${figure.unit}`);
}
