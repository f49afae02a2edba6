// Merge preview and apply (issue 26, merge.md §3 "Cost"): a merge of 1,000 changed rows (500 per side, 50 of them
// changed on both sides: 50 conflicts) into a 1,000-row and a 100,000-row table, through the merge service (what
// REST, GraphQL and MCP call) on the embedded SQLite stores. Cost must follow the changes, not the table: the two
// sizes within 1.5x of each other. Apply is the merge's answer (its one append done); the projection of its 450 row
// versions into the views (what WRITE_CONSISTENCY=projected waits for, like for any bulk row write) is reported apart.
// Run alone: npx tsx bench/mergeBench.ts [rows]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createMergeService } from '../query-service/index.ts';
import { itemsSchema, openEmbeddedStack, percentile } from './embeddedStack.ts';

type BenchFigure = { name: string; value: number; unit: string; note?: string };

const PER_SIDE = 500;
const CONFLICTS = 50;

export async function runMergeBench(largeRows = 100_000, previewRounds = 30, applyRounds = 15): Promise<BenchFigure[]> {
  const stack = await openEmbeddedStack('strata-merge-bench-');
  const { systemState, viewStore, log, admin, write, service, worker, eventStore } = stack;
  const merges = createMergeService({ viewStore, systemState, gateway: service.gateway, waiter: worker.waiter, log });
  const context = { principal: admin, correlationId: 'bench' };

  async function branchOf(project: string, name: string) {
    const s = await systemState.current();
    const p = [...s.projects.values()].find((x) => x.name === project && !x.deleted);
    const branch = p && [...s.branches.values()].find((b) => b.projectId === p.id && b.name === name && !b.deleted);
    if (!branch) throw new Error(`branch ${name} missing`);
    return branch;
  }
  const row = (i: number, tag: string) => ({ rowId: `r${i}`, data: { name: `row ${i}`, n: i, tag } });
  const commit = async (project: string, branchName: string) =>
    (await write('CreateRevision', { organizationId: 'admin', projectName: project, branchName })) as { id: string };
  const spread = (size: number, i: number) => Math.floor((i * size) / (2 * PER_SIDE));

  /** Master's 500 changes: the first 50 rows feature also changes, then 450 of its own. */
  const oursRows = (size: number) =>
    Array.from({ length: PER_SIDE }, (_, i) => row(i < CONFLICTS ? spread(size, 2 * i) : spread(size, 2 * i + 1), 'ours'));

  /** A project with `size` rows committed, a branch that changed 500 of them (its head returned), 500 changed here. */
  async function scenario(project: string, size: number): Promise<string> {
    await write('CreateProject', { organizationId: 'admin', projectName: project });
    await write('CreateTable', { revisionId: (await branchOf(project, 'master')).draftRevisionId, tableId: 'items', schema: itemsSchema });
    for (let offset = 0; offset < size; offset += 1000) {
      const rows = Array.from({ length: Math.min(1000, size - offset) }, (_, i) => row(offset + i, 'seed'));
      await write('CreateRows', { revisionId: (await branchOf(project, 'master')).draftRevisionId, tableId: 'items', rows, bulk: true });
    }
    const c1 = await commit(project, 'master');
    await write('CreateBranch', { revisionId: c1.id, branchName: 'feature' });
    const theirs = Array.from({ length: PER_SIDE }, (_, i) => row(spread(size, 2 * i), 'theirs'));
    await write('UpdateRows', { revisionId: (await branchOf(project, 'feature')).draftRevisionId, tableId: 'items', rows: theirs, bulk: true });
    const f1 = await commit(project, 'feature');
    await write('UpdateRows', {
      revisionId: (await branchOf(project, 'master')).draftRevisionId,
      tableId: 'items',
      rows: oursRows(size),
      bulk: true,
    });
    return f1.id;
  }

  const input = (project: string, sourceRevisionId: string, strategy: 'FAIL' | 'THEIRS') => ({
    organizationId: 'admin',
    projectName: project,
    branchName: 'master',
    sourceRevisionId,
    strategy,
  });

  async function timed(action: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    await action();
    return performance.now() - started;
  }

  try {
    const sizes = [1000, largeRows] as const;
    const sources = [await scenario('small', sizes[0]), await scenario('large', sizes[1])];
    const projects = ['small', 'large'];
    const preview = (k: number) => async () => {
      const { result } = await merges.preview(input(projects[k] as string, sources[k] as string, 'FAIL'), context);
      if (result.conflictCount !== CONFLICTS || result.totalRowChanges !== PER_SIDE - CONFLICTS) {
        throw new Error(`unexpected preview: ${result.conflictCount} conflicts, ${result.totalRowChanges} row changes`);
      }
    };
    const previews: number[][] = [[], []];
    for (let i = 0; i < previewRounds; i++) for (const k of [0, 1]) previews[k]?.push(await timed(preview(k)));
    // Each apply is measured, then the draft is put back (revert + master's 500 changes again, not measured); every
    // projection reaches the log head before the next measurement, so no round pays for the previous one's writes.
    const settle = async () => {
      const head = await eventStore.headPosition();
      if (head !== null) await worker.waiter.waitFor(head, 60_000);
    };
    const applies: number[][] = [[], []];
    /** Apply plus the projections of its events (what WRITE_CONSISTENCY=projected waits for), for comparison. */
    const projected: number[][] = [[], []];
    for (let i = 0; i < applyRounds; i++) {
      for (const k of [0, 1]) {
        const project = projects[k] as string;
        await settle();
        const started = performance.now();
        applies[k]?.push(await timed(() => merges.merge(input(project, sources[k] as string, 'THEIRS'), context)));
        await settle();
        projected[k]?.push(performance.now() - started);
        await write('RevertChanges', { organizationId: 'admin', projectName: project, branchName: 'master' });
        await write('UpdateRows', {
          revisionId: (await branchOf(project, 'master')).draftRevisionId,
          tableId: 'items',
          rows: oursRows(sizes[k] as number),
          bulk: true,
        });
      }
    }
    for (const times of [...previews, ...applies, ...projected]) times.sort((a, b) => a - b);
    const n = largeRows.toLocaleString('en-US');
    const round = (ms: number) => Math.round(ms * 10) / 10;
    const out: BenchFigure[] = [];
    for (const [what, [small, large]] of [
      ['preview', previews],
      ['apply', applies],
    ] as const) {
      out.push(
        { name: `${what}, 1,000-row table, p50`, value: round(percentile(small ?? [], 50)), unit: 'ms' },
        { name: `${what}, 1,000-row table, p99`, value: round(percentile(small ?? [], 99)), unit: 'ms' },
        { name: `${what}, ${n}-row table, p50`, value: round(percentile(large ?? [], 50)), unit: 'ms' },
        { name: `${what}, ${n}-row table, p99`, value: round(percentile(large ?? [], 99)), unit: 'ms' },
        {
          name: `${what}: ${n}-row p50 / 1,000-row p50`,
          value: Math.round((percentile(large ?? [], 50) / percentile(small ?? [], 50)) * 100) / 100,
          unit: 'x',
          note: 'target <= 1.5',
        },
      );
    }
    const [smallProjected, largeProjected] = projected;
    out.push(
      { name: 'apply until projected (not in the target), 1,000-row table, p50', value: round(percentile(smallProjected ?? [], 50)), unit: 'ms' },
      { name: `apply until projected (not in the target), ${n}-row table, p50`, value: round(percentile(largeProjected ?? [], 50)), unit: 'ms' },
    );
    return out;
  } finally {
    await stack.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = Number(process.argv[2] ?? 100_000);
  for (const figure of await runMergeBench(rows)) console.log(`${figure.name}: ${figure.value} ${figure.unit}`);
}
