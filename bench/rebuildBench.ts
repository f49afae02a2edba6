// Rebuild throughput of the `rows` projection on SQLite (operations.md §5: `strata projections rebuild rows`):
// rebuildProjection replays the whole log into a fresh storage version. Target: >= 50,000 events/s. A bulk write
// is ONE event carrying up to 1,000 rows, so two logs of 100,000 rows are measured: 100 bulk events of 1,000 rows,
// and 100,000 single-row events; both events/s and rows/s are reported. As in a running deployment, the live
// projection (version 1) is caught up first, untimed; the timed rebuild fills version 2 beside it (a shadow readers
// do not see), builds the indexes it deferred, switches readers and drops version 1.
// Run alone: npx tsx bench/rebuildBench.ts [rows] (REBUILD_BENCH_LOG=info prints the phases: replayMs, completeMs, catchUpMs)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createSqliteEventStore } from '../command-service/index.ts';
import { rowData } from './scaleBench.ts';
import { systemClock } from '../contracts/index.ts';
import type { EventStore, NewEvent, RowsCreated, ViewStore } from '../contracts/index.ts';
import { createInProcessQueue, createProjectionRunner, createSqliteViewStore, rebuildProjection, rowsProjector } from '../projection-worker/index.ts';

export type BenchFigure = { name: string; value: number; unit: string; note?: string };

const DEFAULT_ROWS = 100_000;
const APPEND_BATCH = 1000;
const TIME = '2026-01-01T00:00:00.000Z';

/** REBUILD_BENCH_ROWS=wide: rows of about 300 bytes, as in the scale bench (bench/scaleBench.ts rowData). */
const WIDE_ROWS = process.env.REBUILD_BENCH_ROWS === 'wide';

function rowsCreated(n: number, first: number, count: number): NewEvent<'RowsCreated', RowsCreated> {
  const rows = Array.from({ length: count }, (_, i) => ({
    rowId: `r${first + i}`,
    data: WIDE_ROWS ? rowData(first + i) : { name: `row ${first + i}`, n: first + i, tag: (first + i) % 2 === 0 ? 'even' : 'odd' },
    createdAt: TIME,
    updatedAt: TIME,
  }));
  return {
    type: 'RowsCreated',
    schemaVersion: 1,
    data: {
      projectId: 'p1',
      draftRevisionId: 'd1',
      draftSeq: 1,
      draftHasChanges: true,
      tableKey: 'items',
      rows,
      table: { tableKey: 'items', count: first + count, equalsHead: false },
    },
    metadata: { eventId: `e-${n}`, correlationId: `c-${n}`, causationId: null, principal: 'system', time: TIME },
  };
}

/** A log of `total` rows in events of `rowsPerEvent` rows, appended `APPEND_BATCH` events at a time. */
export async function writeLog(file: string, total: number, rowsPerEvent: number): Promise<number> {
  const eventStore = createSqliteEventStore({ file });
  let events = 0;
  try {
    let pending: NewEvent[] = [];
    for (let first = 0; first < total; first += rowsPerEvent) {
      pending.push(rowsCreated(events++, first, Math.min(rowsPerEvent, total - first)));
      if (pending.length === APPEND_BATCH) {
        await eventStore.append('branch-b1', pending, 'any');
        pending = [];
      }
    }
    if (pending.length > 0) await eventStore.append('branch-b1', pending, 'any');
  } finally {
    await eventStore.close();
  }
  return events;
}

type Rate = { readonly events: number; readonly seconds: number; readonly cpuSeconds: number };

/** The live projection of the log, as the worker of a running deployment keeps it. */
async function projectLive(eventStore: EventStore, viewStore: ViewStore): Promise<void> {
  const log = pino({ level: 'silent' });
  const queue = createInProcessQueue();
  const runner = createProjectionRunner({ projector: rowsProjector, eventStore, viewStore, queue, log, clock: systemClock, owner: 'bench-live' });
  try {
    await runner.runOnce();
  } finally {
    await runner.stop();
  }
}

export async function measureRebuild(eventsFile: string, viewsFile: string, serving = false): Promise<Rate> {
  const eventStore = createSqliteEventStore({ file: eventsFile });
  // `serving`: the store of a `strata serve` process (read threads, index thread, the shadow's writing thread).
  const viewStore = createSqliteViewStore({ file: viewsFile, ...(serving ? { reads: { timeoutMs: 60_000 } } : {}) });
  try {
    await projectLive(eventStore, viewStore);
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const result = await rebuildProjection({
      projector: rowsProjector,
      eventStore,
      viewStore,
      log: pino({ level: process.env.REBUILD_BENCH_LOG ?? 'silent' }),
      dropDelayMs: 0,
    });
    const shadow = rowsProjector.spec.version + 1;
    if (result.version !== shadow) throw new Error(`rebuild wrote version ${result.version}, expected a shadow version ${shadow}`);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    return { events: result.events, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await viewStore.close();
    await eventStore.close();
  }
}

export async function runRebuildBench(totalRows = DEFAULT_ROWS): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-rebuild-'));
  try {
    const figures: BenchFigure[] = [];
    for (const [label, rowsPerEvent] of [
      ['bulk events of 1,000 rows', 1000],
      ['single-row events', 1],
    ] as const) {
      const eventsFile = join(dir, `events-${rowsPerEvent}.db`);
      const written = await writeLog(eventsFile, totalRows, rowsPerEvent);
      const rate = await measureRebuild(eventsFile, join(dir, `views-${rowsPerEvent}.db`));
      if (rate.events !== written) throw new Error(`rebuild applied ${rate.events} of ${written} events`);
      const note = `${totalRows.toLocaleString('en-US')} rows in ${written.toLocaleString('en-US')} ${label}, ${rate.seconds.toFixed(2)} s`;
      figures.push(
        { name: `rebuild rows: ${label}`, value: written / rate.seconds, unit: 'events/s', note },
        { name: `rebuild rows: ${label}`, value: totalRows / rate.seconds, unit: 'rows/s' },
        { name: `rebuild rows: ${label}`, value: totalRows / rate.cpuSeconds, unit: 'rows/cpu-s' },
      );
      if (rowsPerEvent === 1) continue;
      // The same log rebuilt by a serving store: the shadow's batches and index builds on its writing thread.
      const served = await measureRebuild(eventsFile, join(dir, `views-${rowsPerEvent}-serving.db`), true);
      figures.push({
        name: `rebuild rows: ${label}, serving store (shadow writes on a thread)`,
        value: totalRows / served.seconds,
        unit: 'rows/s',
        note: `${served.seconds.toFixed(2)} s`,
      });
      figures.push({
        name: `rebuild rows: ${label}, serving store (shadow writes on a thread)`,
        value: totalRows / served.cpuSeconds,
        unit: 'rows/cpu-s',
      });
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = Number(process.argv[2] ?? DEFAULT_ROWS);
  for (const f of await runRebuildBench(rows)) console.log(`${f.name}: ${Math.round(f.value)} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
