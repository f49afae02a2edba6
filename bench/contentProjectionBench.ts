// Throughput of the real content projectors (catalog, schemas, rows: every branch event goes to all three) from a
// SQLite log to SQLite views, in two phases: bulk RowsCreated events of 1,000 rows each, then single-row
// RowsUpdated events on the committed rows (each closes the HEAD version and writes a draft version).
// Run alone: npx tsx bench/contentProjectionBench.ts [bulkEvents] [singleEvents]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createSqliteEventStore } from '../command-service/index.ts';
import { systemClock } from '../contracts/index.ts';
import type { EventStore, NewEvent } from '../contracts/index.ts';
import {
  catalogProjector,
  createInProcessQueue,
  createProjectionWorker,
  createSqliteViewStore,
  rowsProjector,
  schemasProjector,
} from '../projection-worker/index.ts';

export type BenchResult = { name: string; value: number; unit: string };

const ROWS_PER_BULK = 1000;
const APPEND_BATCH = 500;
const TIME = '2026-01-01T00:00:00.000Z';
const PROJECT = 'pbench';
const BRANCH = 'bbench';
const TABLE_KEY = 'kbench';

let eventNo = 0;
function newEvent(type: string, data: unknown): NewEvent {
  const eventId = `bench-${++eventNo}`;
  return {
    type,
    schemaVersion: 1,
    data,
    metadata: { eventId, correlationId: eventId, causationId: null, principal: 'system', time: TIME },
  };
}

const draftRef = (seq: number) => ({ projectId: PROJECT, draftRevisionId: `rev${seq}`, draftSeq: seq, draftHasChanges: true });
const rowData = (n: number, tag: string) => ({ name: `row ${n}`, n, tag });

async function appendAll(store: EventStore, streamId: string, events: readonly NewEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += APPEND_BATCH) await store.append(streamId, events.slice(i, i + APPEND_BATCH), 'any');
}

type Phase = { readonly events: number; readonly rows: number; readonly wallS: number; readonly cpuS: number };

export async function runContentProjectionBench(bulkEvents = 100, singleEvents = 20_000): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-content-'));
  const eventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  const viewStore = createSqliteViewStore({ file: join(dir, 'views.db') });
  const worker = createProjectionWorker({
    projectors: [catalogProjector, schemasProjector, rowsProjector],
    eventStore,
    viewStore,
    queue: createInProcessQueue(),
    log: pino({ level: 'silent' }),
    clock: systemClock,
    owner: 'bench',
  });

  /** Catches the three projections up together (as the worker's runners do after a wake-up); each sees every event. */
  async function project(events: number, rows: number): Promise<Phase> {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const applied = await Promise.all(worker.runners.map((runner) => runner.runOnce()));
    const cpu = process.cpuUsage(cpuStarted);
    const wallS = (performance.now() - started) / 1000;
    if (applied.some((n) => n !== events)) throw new Error(`content projection applied ${applied.join('/')} of ${events}`);
    return { events, rows, wallS, cpuS: (cpu.user + cpu.system) / 1e6 };
  }

  try {
    const rootBranch = { branchId: BRANCH, name: 'main', startRevisionId: 'rev0', draftRevisionId: 'rev1' };
    await eventStore.append(
      'organization-obench',
      [newEvent('ProjectCreated', { projectId: PROJECT, organizationId: 'obench', name: 'bench', isPublic: false, rootBranch })],
      'any',
    );
    const table = { tableKey: TABLE_KEY, count: 0, equalsHead: false };
    const bulk: NewEvent[] = [newEvent('TableCreated', { ...draftRef(1), tableKey: TABLE_KEY, tableId: 'items', schema: {}, table })];
    for (let b = 0; b < bulkEvents; b++) {
      const rows = Array.from({ length: ROWS_PER_BULK }, (_, i) => {
        const n = b * ROWS_PER_BULK + i;
        return { rowId: `r${n}`, data: rowData(n, n % 2 === 0 ? 'even' : 'odd'), createdAt: TIME, updatedAt: TIME };
      });
      const facts = { tableKey: TABLE_KEY, count: (b + 1) * ROWS_PER_BULK, equalsHead: false };
      bulk.push(newEvent('RowsCreated', { ...draftRef(1), tableKey: TABLE_KEY, rows, table: facts }));
    }
    const commit = { projectId: PROJECT, revisionId: 'rev1', seq: 1, comment: '', newDraftRevisionId: 'rev2', newDraftSeq: 2 };
    bulk.push(newEvent('RevisionCommitted', commit));
    await appendAll(eventStore, `branch-${BRANCH}`, bulk);
    const totalRows = bulkEvents * ROWS_PER_BULK;
    const bulkPhase = await project(bulk.length + 1, totalRows);

    // Distinct rows (7919 is prime to the row count) so that each update closes a committed version.
    const singles = Array.from({ length: singleEvents }, (_, i) => {
      const n = (i * 7919) % totalRows;
      const rows = [{ rowId: `r${n}`, data: rowData(n, 'updated'), createdAt: TIME, updatedAt: TIME }];
      return newEvent('RowsUpdated', {
        ...draftRef(2),
        tableKey: TABLE_KEY,
        rows,
        table: { tableKey: TABLE_KEY, count: totalRows, equalsHead: false },
      });
    });
    await appendAll(eventStore, `branch-${BRANCH}`, singles);
    const singlePhase = await project(singleEvents, singleEvents);

    const versions = await viewStore.count('rows', 'rows');
    const expected = totalRows + Math.min(singleEvents, totalRows);
    if (versions !== expected) throw new Error(`rows view holds ${versions} versions, expected ${expected}`);
    const rate = (n: number, s: number) => Math.round(n / s);
    return [
      { name: 'content projectors, bulk RowsCreated (1,000 rows each)', value: rate(bulkPhase.events, bulkPhase.wallS), unit: 'events/s' },
      { name: 'content projectors, bulk RowsCreated (1,000 rows each)', value: rate(bulkPhase.rows, bulkPhase.wallS), unit: 'rows/s' },
      { name: 'content projectors, bulk RowsCreated (1,000 rows each)', value: rate(bulkPhase.rows, bulkPhase.cpuS), unit: 'rows/cpu-s' },
      { name: 'content projectors, single-row RowsUpdated', value: rate(singlePhase.events, singlePhase.wallS), unit: 'events/s' },
      { name: 'content projectors, single-row RowsUpdated', value: rate(singlePhase.events, singlePhase.cpuS), unit: 'events/cpu-s' },
    ];
  } finally {
    await viewStore.close();
    await eventStore.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await runContentProjectionBench(Number(process.argv[2] ?? 100), Number(process.argv[3] ?? 20_000));
  for (const result of results) console.log(`${result.name}: ${result.value} ${result.unit}`);
}
