import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { systemClock } from '../../contracts/index.ts';
import type { Position, Queue } from '../../contracts/index.ts';
import { createInProcessQueue } from '../adapters/queue/inProcessQueue.ts';
import { createFakeEventStore, createFakeViewStore } from '../testing/fakePorts.ts';
import type { FakeEventStore, FakeViewStore } from '../testing/fakePorts.ts';
import { createProjectionRunner } from './projectionRunner.ts';
import type { ProjectionRunnerDeps } from './projectionRunner.ts';
import type { Projector } from './projector.ts';
import { createCountingProjector, eventually, SETUP_EVENT, sleep } from '../testing/testProjector.ts';

const log = pino({ level: 'silent' });

type Setup = { eventStore: FakeEventStore; viewStore: FakeViewStore; queue: Queue; projector: Projector };

async function setup(projector: Projector = createCountingProjector(), notifyAppends = true): Promise<Setup> {
  const eventStore = createFakeEventStore({ notifyAppends });
  await eventStore.appendMany('user-setup', 1, SETUP_EVENT);
  return { eventStore, viewStore: createFakeViewStore(systemClock), queue: createInProcessQueue(), projector };
}

function runner(s: Setup, overrides: Partial<ProjectionRunnerDeps> = {}) {
  return createProjectionRunner({
    projector: s.projector,
    eventStore: s.eventStore,
    viewStore: s.viewStore,
    queue: s.queue,
    log,
    clock: systemClock,
    owner: 'owner-a',
    ...overrides,
  });
}

async function totals(s: Setup): Promise<{ events: number; seen: number }> {
  const doc = await s.viewStore.get(s.projector.spec.name, 'totals', { id: 'all' });
  return { events: Number(doc?.events ?? 0), seen: await s.viewStore.count(s.projector.spec.name, 'seen') };
}

const ref = (s: Setup, version = 1) => ({ name: s.projector.spec.name, version });

describe('projection runner', () => {
  test('runOnce catches up in batches and moves the checkpoint to the head', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 2500);
    const applied = await runner(s, { batchSize: 1000 }).runOnce();
    assert.equal(applied, 2501);
    assert.deepEqual(await totals(s), { events: 2500, seen: 2500 });
    assert.equal(await s.viewStore.checkpoint(ref(s)), await s.eventStore.headPosition());
    assert.equal(await runner(s).runOnce(), 0);
  });

  test('a projection ignoring the last events still advances to the head', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 3);
    await s.eventStore.appendMany('project-1', 5);
    await runner(s, { batchSize: 2 }).runOnce();
    assert.equal(await s.viewStore.checkpoint(ref(s)), await s.eventStore.headPosition());
    assert.deepEqual(await totals(s), { events: 3, seen: 3 });
  });

  test('a projection consuming no category at all reaches the head', async () => {
    const s = await setup(createCountingProjector({ categories: [] }));
    await s.eventStore.appendMany('user-1', 3);
    assert.equal(await runner(s).runOnce(), 0);
    assert.equal(await s.viewStore.checkpoint(ref(s)), await s.eventStore.headPosition());
  });

  test('a batch is cut after the event that reaches batchBytes; the next one goes on from there, none skipped', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 10);
    await s.eventStore.appendMany('project-1', 3);
    // Each event's data is {"n":i} (7 bytes): batches of 3, short of batchSize, although events follow.
    const r = runner(s, { batchSize: 1000, batchBytes: 20 });
    const heard: Position[] = [];
    r.onProgress((_name, position) => heard.push(position));
    assert.equal(await r.runOnce(), 11);
    assert.deepEqual(await totals(s), { events: 10, seen: 10 });
    // The last batch (two events, not cut) is short: it moves the checkpoint past the ignored events to the head.
    assert.deepEqual(heard, ['s:00000000000000000003', 's:00000000000000000006', 's:00000000000000000009', await s.eventStore.headPosition()]);
    assert.equal(await s.viewStore.checkpoint(ref(s)), await s.eventStore.headPosition());
  });

  test('progress listeners hear every checkpoint move', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 5);
    const r = runner(s, { batchSize: 2 });
    const heard: [string, Position][] = [];
    r.onProgress((name, position) => heard.push([name, position]));
    await r.runOnce();
    assert.deepEqual(
      heard.map(([, position]) => position),
      ['s:00000000000000000002', 's:00000000000000000004', 's:00000000000000000006'],
    );
    assert.ok(heard.every(([name]) => name === 'counting'));
  });

  test('progress tells the view changes of its batch: none when the checkpoint only followed the head', async () => {
    const s = await setup();
    const r = runner(s, { batchSize: 10 });
    await r.runOnce();
    const heard: number[] = [];
    r.onProgress((_name, _position, changes) => heard.push(changes));
    await s.eventStore.appendMany('project-1', 3);
    await r.runOnce();
    await s.eventStore.appendMany('user-1', 2);
    await r.runOnce();
    assert.equal(heard.length, 2);
    assert.equal(heard[0], 0);
    assert.ok((heard[1] ?? 0) > 0, `the user events changed the view: ${heard[1]}`);
  });

  test('a failing batch records the error, keeps the checkpoint and clears the error once it applies', async () => {
    let poisoned = true;
    const s = await setup(createCountingProjector({ failOn: (e) => poisoned && e.streamId === 'user-bad' }));
    await s.eventStore.appendMany('user-1', 3);
    const r = runner(s, { batchSize: 2 });
    await r.runOnce();
    const before = await s.viewStore.checkpoint(ref(s));
    await s.eventStore.appendMany('user-bad', 1);
    await s.eventStore.appendMany('user-1', 3);
    await assert.rejects(r.runOnce(), /cannot project/);
    assert.equal(await s.viewStore.checkpoint(ref(s)), before);
    const [status] = await s.viewStore.projectionStatuses();
    assert.match(status?.error ?? '', /cannot project user-bad/);
    poisoned = false;
    await r.runOnce();
    assert.deepEqual(await totals(s), { events: 7, seen: 7 });
    const [after] = await s.viewStore.projectionStatuses();
    assert.equal(after?.error, null);
  });

  test('a started runner retries a failed batch with backoff', async () => {
    let failures = 2;
    const s = await setup(createCountingProjector({ failOn: () => failures-- > 0 }));
    await s.eventStore.appendMany('user-1', 4);
    const r = runner(s, { retryBaseMs: 5, pollIntervalMs: 60_000 });
    await r.start();
    await eventually('the retried batch', async () => (await totals(s)).events === 4);
    await r.stop();
    assert.deepEqual(await totals(s), { events: 4, seen: 4 });
  });

  test('a batch that meets a lock (SQLITE_BUSY) is retried and never leaves the projection failed', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 4);
    let locked = 3;
    const errors: (string | null)[] = [];
    const applyBatch = s.viewStore.applyBatch.bind(s.viewStore);
    s.viewStore.applyBatch = async (...args) => {
      errors.push(...(await s.viewStore.projectionStatuses()).map((status) => status.error));
      if (locked-- > 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return applyBatch(...args);
    };
    const r = runner(s, { retryBaseMs: 5, pollIntervalMs: 60_000 });
    await r.start();
    await eventually('the batch applied after the lock', async () => (await totals(s)).events === 4);
    await r.stop();
    assert.ok(locked < 0, 'the lock was met');
    assert.deepEqual(
      errors.filter((error) => error !== null),
      [],
      'no error recorded',
    );
    assert.deepEqual(
      (await s.viewStore.projectionStatuses()).map((status) => status.error),
      [null],
    );
  });

  test('a lost compare-and-set is re-read and never applies a batch twice', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 10);
    const original = s.viewStore.applyBatch.bind(s.viewStore);
    let conflicts = 0;
    s.viewStore.applyBatch = async (target, expected, next, changes) => {
      if (conflicts === 0) {
        // Another runner (e.g. a former lease holder) moves the checkpoint between our read and our write.
        const events = await s.eventStore.readAll(expected, { categories: ['user'], maxCount: 3 });
        const moved = events.at(-1)?.position ?? '';
        assert.equal(await original(target, expected, moved, s.projector.apply(events)), true);
      }
      const applied = await original(target, expected, next, changes);
      if (!applied) conflicts += 1;
      return applied;
    };
    await runner(s, { batchSize: 3 }).runOnce();
    assert.equal(conflicts, 1);
    assert.deepEqual(await totals(s), { events: 10, seen: 10 });
    assert.equal(await s.viewStore.checkpoint(ref(s)), await s.eventStore.headPosition());
  });

  test('follows a version switch made by another process', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 2);
    const r = runner(s);
    await r.runOnce();
    await s.viewStore.ensureProjection({ ...s.projector.spec, version: 2 });
    await s.viewStore.activate('counting', 2);
    const v1 = await s.viewStore.checkpoint(ref(s));
    await s.eventStore.appendMany('user-1', 3);
    await r.runOnce();
    // The fresh version 2 is filled from the start of the log; version 1 is left alone.
    assert.deepEqual(await totals(s), { events: 5, seen: 5 });
    assert.equal(await s.viewStore.checkpoint(ref(s, 2)), await s.eventStore.headPosition());
    assert.equal(await s.viewStore.checkpoint(ref(s)), v1);
  });

  test('a started runner is woken by appends', async () => {
    const s = await setup();
    const r = runner(s, { pollIntervalMs: 60_000 });
    await r.start();
    await s.eventStore.appendMany('user-1', 3);
    await eventually('the appended events', async () => (await totals(s)).events === 3);
    await r.stop();
  });

  test('a started runner is woken by its queue topic', async () => {
    const s = await setup(createCountingProjector(), false);
    const r = runner(s, { pollIntervalMs: 60_000, leaseTtlMs: 600_000 });
    await r.start();
    await eventually('the setup event', async () => (await s.viewStore.checkpoint(ref(s))) !== null);
    await s.eventStore.appendMany('user-1', 3);
    await s.queue.notify('projection:counting');
    await eventually('the appended events', async () => (await totals(s)).events === 3);
    await r.stop();
  });

  test('the periodic poll covers lost wake-ups', async () => {
    const s = await setup(createCountingProjector(), false);
    const r = runner(s, { pollIntervalMs: 10, leaseTtlMs: 600_000 });
    await r.start();
    await s.eventStore.appendMany('user-1', 3);
    await eventually('the appended events', async () => (await totals(s)).events === 3);
    await r.stop();
  });

  test('only the lease holder processes; a stand-by takes over when the holder stops', async () => {
    const s = await setup();
    const a = runner(s, { owner: 'a', leaseTtlMs: 60, pollIntervalMs: 10 });
    const b = runner(s, { owner: 'b', leaseTtlMs: 60, pollIntervalMs: 10 });
    await a.start();
    await b.start();
    assert.equal(a.isLeader(), true);
    assert.equal(b.isLeader(), false);
    await s.eventStore.appendMany('user-1', 5);
    await eventually('a applies', async () => (await totals(s)).events === 5);
    assert.equal(b.isLeader(), false);
    await a.stop();
    await eventually('b takes over', () => b.isLeader());
    await s.eventStore.appendMany('user-1', 5);
    await eventually('b applies', async () => (await totals(s)).events === 10);
    await b.stop();
    assert.deepEqual(await totals(s), { events: 10, seen: 10 });
    const [status] = await s.viewStore.projectionStatuses();
    assert.equal(status?.leaseOwner, null);
  });

  test('a stand-by takes over when the holder dies without releasing', async () => {
    const s = await setup();
    // The dead holder: took the lease and never renews it.
    assert.equal(await s.viewStore.acquireLease('counting', 'dead', 80), true);
    const b = runner(s, { owner: 'b', leaseTtlMs: 60, pollIntervalMs: 10 });
    await b.start();
    assert.equal(b.isLeader(), false);
    await eventually('b takes over', () => b.isLeader());
    await eventually('b applies', async () => (await s.viewStore.checkpoint(ref(s))) !== null);
    await b.stop();
  });

  test('runOnce does nothing while another process holds the lease', async () => {
    const s = await setup();
    await s.viewStore.acquireLease('counting', 'someone-else', 60_000);
    await s.eventStore.appendMany('user-1', 2);
    assert.equal(await runner(s).runOnce(), 0);
    assert.equal(await s.viewStore.checkpoint(ref(s)), null);
  });

  test('stop finishes the in-flight batch and releases the lease', async () => {
    const s = await setup();
    await s.eventStore.appendMany('user-1', 50);
    const original = s.viewStore.applyBatch.bind(s.viewStore);
    let batches = 0;
    s.viewStore.applyBatch = async (...args) => {
      batches += 1;
      await sleep(5);
      return original(...args);
    };
    const r = runner(s, { batchSize: 5, pollIntervalMs: 60_000 });
    await r.start();
    await eventually('a batch in flight', () => batches >= 2);
    await r.stop();
    const checkpoint = await s.viewStore.checkpoint(ref(s));
    const { events } = await totals(s);
    // Every started batch was committed: the checkpoint covers exactly the applied events.
    assert.equal(checkpoint, `s:${String(events + 1).padStart(20, '0')}`);
    assert.equal(r.isLeader(), false);
    assert.equal((await s.viewStore.projectionStatuses())[0]?.leaseOwner, null);
    const afterStop = batches;
    await s.eventStore.appendMany('user-1', 1);
    await sleep(50);
    assert.equal(batches, afterStop);
  });
});
