import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
// Integration tests only: the projection worker itself never imports the command service.
import { createSqliteEventStore } from '../../command-service/index.ts';
import { systemClock } from '../../contracts/index.ts';
import type { EventStore, NewEvent, ViewStore } from '../../contracts/index.ts';
import type { ProjectionRunnerDeps } from '../../projection-worker/index.ts';
import {
  createCheckpointWaiter,
  createInProcessQueue,
  createProjectionRunner,
  createProjectionWorker,
  createSqliteViewStore,
} from '../../projection-worker/index.ts';
// Test-only projector shared with the runner's unit tests beside the code.
import { countedEvents as events, createCountingProjector, eventually, SETUP_EVENT } from '../../projection-worker/testing/testProjector.ts';

const log = pino({ level: 'silent' });
/** Stores on fresh files; `open` gives another connection to the same files, as a second process would have. */
async function sqliteStores() {
  const dir = await mkdtemp(join(tmpdir(), 'strata-runner-'));
  const opened: { close(): Promise<void> }[] = [];
  const open = () => {
    const eventStore = createSqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 10 });
    const viewStore = createSqliteViewStore({ file: join(dir, 'views.db') });
    opened.push(eventStore, viewStore);
    return { eventStore, viewStore };
  };
  const first = open();
  await first.eventStore.append('user-setup', events(1, SETUP_EVENT), 'any');
  return {
    ...first,
    open,
    async cleanup() {
      for (const store of opened) await store.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Stores = Awaited<ReturnType<typeof sqliteStores>>;

function runnerOn(stores: { eventStore: EventStore; viewStore: ViewStore }, overrides: Partial<ProjectionRunnerDeps> = {}) {
  return createProjectionRunner({
    projector: createCountingProjector(),
    eventStore: stores.eventStore,
    viewStore: stores.viewStore,
    queue: createInProcessQueue(),
    log,
    clock: systemClock,
    owner: 'runner-a',
    ...overrides,
  });
}

/** A projection worker on the stores that only wakes on appends (no polling in the test's time). */
function workerOn(stores: { eventStore: EventStore; viewStore: ViewStore }, projectors: ReturnType<typeof createCountingProjector>[]) {
  return createProjectionWorker({
    projectors,
    eventStore: stores.eventStore,
    viewStore: stores.viewStore,
    queue: createInProcessQueue(),
    log,
    clock: systemClock,
    owner: 'worker',
    pollIntervalMs: 60_000,
  });
}

async function totals(viewStore: ViewStore): Promise<{ events: number; seen: number }> {
  const doc = await viewStore.get('counting', 'totals', { id: 'all' });
  return { events: Number(doc?.events ?? 0), seen: await viewStore.count('counting', 'seen') };
}

describe('projection runner on SQLite', () => {
  let stores: Stores;
  before(async () => {
    stores = await sqliteStores();
  });
  after(async () => {
    await stores.cleanup();
  });

  test('catches up in batches and stores the checkpoint with the views', async () => {
    for (let i = 0; i < 25; i++) await stores.eventStore.append(`user-${i}`, events(100), 'any');
    const applied = await runnerOn(stores, { batchSize: 1000 }).runOnce();
    assert.equal(applied, 2501);
    assert.deepEqual(await totals(stores.viewStore), { events: 2500, seen: 2500 });
    const head = await stores.eventStore.headPosition();
    assert.equal(await stores.viewStore.checkpoint({ name: 'counting', version: 1 }), head);
    // A second connection (another process) sees the same checkpoint: nothing left to apply.
    assert.equal(await runnerOn(stores.open(), { owner: 'runner-b' }).runOnce(), 0);
  });

  test('a projection ignoring categories still advances to the head', async () => {
    await stores.eventStore.append('project-1', events(30), 'any');
    await stores.eventStore.append('user-x', events(2), 'any');
    await stores.eventStore.append('branch-1', events(30), 'any');
    await runnerOn(stores, { batchSize: 7 }).runOnce();
    assert.equal(await stores.viewStore.checkpoint({ name: 'counting', version: 1 }), await stores.eventStore.headPosition());
    assert.deepEqual(await totals(stores.viewStore), { events: 2502, seen: 2502 });
  });
});

describe('two runners on one projection', () => {
  test('only the holder applies; the other takes over when the holder stops, then when it dies', async () => {
    const stores = await sqliteStores();
    try {
      const options = { leaseTtlMs: 300, pollIntervalMs: 20, batchSize: 50 };
      const a = runnerOn(stores.open(), { ...options, owner: 'a' });
      const bStores = stores.open();
      // `dead` makes every view-store call of b fail, as if its process froze and never renewed its lease.
      let bDead = false;
      const bView = new Proxy(bStores.viewStore, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) =>
            bDead ? Promise.reject(new Error('process is dead')) : (value as (...a: unknown[]) => unknown).apply(target, args);
        },
      });
      const b = runnerOn({ eventStore: bStores.eventStore, viewStore: bView }, { ...options, owner: 'b' });
      const c = runnerOn(stores.open(), { ...options, owner: 'c' });
      await a.start();
      await b.start();
      assert.equal(a.isLeader(), true);
      assert.equal(b.isLeader(), false);

      let expected = 0;
      const appendSome = async (count: number) => {
        for (let i = 0; i < count; i++) await stores.eventStore.append(`user-${i % 7}`, events(10), 'any');
        expected += count * 10;
      };
      await appendSome(20);
      await eventually('a applies', async () => (await totals(stores.viewStore)).events === expected);
      assert.equal(b.isLeader(), false);

      const appending = appendSome(30);
      await a.stop();
      await eventually('b takes over', () => b.isLeader());
      await appending;
      await eventually('b applies', async () => (await totals(stores.viewStore)).events === expected);

      await c.start();
      assert.equal(c.isLeader(), false);
      bDead = true;
      await appendSome(20);
      await eventually('c takes over from the dead b', () => c.isLeader());
      await eventually('c applies', async () => (await totals(stores.viewStore)).events === expected);
      assert.deepEqual(await totals(stores.viewStore), { events: expected, seen: expected });

      await c.stop();
      await b.stop();
    } finally {
      await stores.cleanup();
    }
  });
});

describe('read-your-writes on SQLite', () => {
  test('the worker waiter resolves once the written events are visible', async () => {
    const stores = await sqliteStores();
    const worker = workerOn(stores, [createCountingProjector(), createCountingProjector({ name: 'projects', categories: ['project'] })]);
    try {
      await worker.start();
      const [written] = events(1);
      const { position } = await stores.eventStore.append('user-rw', [written as NewEvent], 'any');
      assert.equal(await worker.waiter.waitFor(position, 10_000), true);
      // The `projects` projection ignores user events yet has reached the position too.
      assert.equal(await worker.waiter.waitFor(position, 10_000, ['projects']), true);
      const doc = await stores.viewStore.get('counting', 'seen', { eventId: written?.metadata.eventId ?? '' });
      assert.equal(doc?.position, position);

      // A query process without runners polls the store through its own connection.
      const other = stores.open();
      const waiter = createCheckpointWaiter({ viewStore: other.viewStore });
      const next = await stores.eventStore.append('project-rw', events(1), 'any');
      assert.equal(await waiter.waitFor(next.position, 10_000), true);

      const statuses = await worker.statuses();
      assert.deepEqual(
        statuses.map((s) => [s.name, s.version, s.status, s.lag]),
        [
          ['counting', 1, 'idle', 0],
          ['projects', 1, 'idle', 0],
        ],
      );
    } finally {
      await worker.stop();
      await stores.cleanup();
    }
  });
});

describe('a new storage layout on SQLite', () => {
  test('a projection whose active version predates its spec is rebuilt into the spec version at start', async () => {
    const stores = await sqliteStores();
    const worker = (projector: ReturnType<typeof createCountingProjector>) => workerOn(stores, [projector]);
    const v1 = createCountingProjector();
    const old = worker(v1);
    try {
      await old.start();
      const { position } = await stores.eventStore.append('user-layout', events(5), 'any');
      assert.equal(await old.waiter.waitFor(position, 10_000), true);
      await old.stop();
      const before = await totals(stores.viewStore);

      // The next release changes the layout: spec version 2. Readers keep the old copy until the switch.
      const upgraded = worker({ ...v1, spec: { ...v1.spec, version: 2 } });
      await upgraded.start();
      try {
        await eventually('the rebuilt version is active', async () => (await stores.viewStore.activeVersion('counting')) === 2);
        assert.deepEqual(await totals(stores.viewStore), before);
        const later = await stores.eventStore.append('user-layout', events(1), 'any');
        assert.equal(await upgraded.waiter.waitFor(later.position, 10_000), true);
        assert.deepEqual(await totals(stores.viewStore), { events: before.events + 1, seen: before.seen + 1 });
        await eventually('the old copy is dropped', async () => (await stores.viewStore.projectionStatuses()).every((s) => s.version === 2));
      } finally {
        await upgraded.stop();
      }
    } finally {
      await stores.cleanup();
    }
  });
});
