// Append throughput of the embedded SQLite event store (WAL, synchronous=FULL: every commit is durable).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSqliteEventStore } from '../command-service/index.ts';
import type { EventStore, NewEvent } from '../contracts/index.ts';

export type BenchResult = { name: string; value: number; unit: string };

const SINGLE_APPENDS = 500;
const ROUNDS = 150;
const PER_ROUND = 100;

/**
 * UUIDv7 (RFC 9562): 48-bit millisecond time, a 12-bit counter, 62 random bits. Time-ordered ids keep the unique
 * event-id index append-mostly; random v4 ids dirty one index page per event once the index outgrows a batch.
 */
function createUuidV7(): () => string {
  let lastMs = 0;
  let counter = 0;
  return () => {
    const ms = Date.now();
    counter = ms === lastMs ? (counter + 1) & 0xfff : 0;
    lastMs = ms;
    const bytes = randomBytes(16);
    bytes.writeUIntBE(ms, 0, 6);
    bytes.writeUInt16BE(0x7000 | counter, 6);
    bytes.writeUInt8(0x80 | (bytes.readUInt8(8) & 0x3f), 8);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

function rowEvents(count: number, newId: () => string): NewEvent[] {
  const time = new Date().toISOString();
  return Array.from({ length: count }, (_, n) => ({
    type: 'RowCreated',
    schemaVersion: 1,
    data: { tableId: 'orders', rowId: `row-${n}`, data: { customer: 'ACME Corp', total: n * 1.5, items: ['a', 'b'] } },
    metadata: { eventId: newId(), correlationId: randomUUID(), causationId: null, principal: 'user:bench', time },
  }));
}

/** Events are built before the clock starts: this measures the store, not the event factory. */
async function eventsPerSecond(events: number, run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return Math.round(events / ((performance.now() - start) / 1000));
}

export async function runAppendBench(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-append-bench-'));
  const store: EventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  const uuidV7 = createUuidV7();
  try {
    for (const [i, event] of rowEvents(20, uuidV7).entries()) await store.append(`warmup-${i}`, [event], 'any');

    const singles = rowEvents(SINGLE_APPENDS, uuidV7);
    const single = await eventsPerSecond(singles.length, async () => {
      for (const [i, event] of singles.entries()) await store.append(`draft-single-${i % 100}`, [event], 'any');
    });

    const batches = Array.from({ length: ROUNDS }, () => rowEvents(PER_ROUND, uuidV7));
    const batched = await eventsPerSecond(ROUNDS * PER_ROUND, async () => {
      for (const [i, batch] of batches.entries()) await store.append(`draft-batch-${i % 100}`, batch, 'any');
    });

    // PER_ROUND commands arriving in one tick, each appending one event to its own new stream: one shared commit.
    const ticks = Array.from({ length: ROUNDS }, () => rowEvents(PER_ROUND, uuidV7));
    const grouped = await eventsPerSecond(ROUNDS * PER_ROUND, async () => {
      for (const [i, tick] of ticks.entries()) {
        await Promise.all(tick.map((event, k) => store.append(`draft-group-${i}-${k}`, [event], 'no_stream')));
      }
    });

    const randomBatches = Array.from({ length: ROUNDS }, () => rowEvents(PER_ROUND, randomUUID));
    const randomIds = await eventsPerSecond(ROUNDS * PER_ROUND, async () => {
      for (const [i, batch] of randomBatches.entries()) await store.append(`draft-v4-${i % 100}`, batch, 'any');
    });

    return [
      { name: 'sqlite append: 1 event per append, sequential', value: single, unit: 'events/s' },
      { name: 'sqlite append: 100 events per append', value: batched, unit: 'events/s' },
      {
        name: 'sqlite append: group commit, 100 concurrent 1-event appends per tick',
        value: grouped,
        unit: 'events/s',
      },
      { name: 'sqlite append: 100 events per append, random UUIDv4 event ids', value: randomIds, unit: 'events/s' },
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
