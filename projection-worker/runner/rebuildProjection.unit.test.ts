import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { systemClock } from '../../contracts/index.ts';
import { createInProcessQueue } from '../adapters/queue/inProcessQueue.ts';
import { createFakeEventStore, createFakeViewStore } from '../testing/fakePorts.ts';
import { createProjectionRunner } from './projectionRunner.ts';
import type { Projector } from './projector.ts';
import { rebuildProjection } from './rebuildProjection.ts';
import { createCountingProjector, SETUP_EVENT } from '../testing/testProjector.ts';

const log = pino({ level: 'silent' });

async function liveProjection(projector: Projector = createCountingProjector()) {
  const eventStore = createFakeEventStore();
  const viewStore = createFakeViewStore(systemClock);
  await eventStore.appendMany('user-setup', 1, SETUP_EVENT);
  await eventStore.appendMany('user-1', 25);
  await eventStore.appendMany('project-1', 5);
  const runner = createProjectionRunner({
    projector,
    eventStore,
    viewStore,
    queue: createInProcessQueue(),
    log,
    clock: systemClock,
    owner: 'live',
  });
  await runner.runOnce();
  return { eventStore, viewStore, runner };
}

describe('rebuildProjection', () => {
  test('replays into the next version, switches readers and drops the old copy', async () => {
    const { eventStore, viewStore } = await liveProjection();
    const progress: [number, number][] = [];
    const result = await rebuildProjection({
      projector: createCountingProjector(),
      eventStore,
      viewStore,
      log,
      batchSize: 4,
      dropDelayMs: 0,
      onProgress: (done, total) => progress.push([done, total]),
    });
    assert.deepEqual(result, { name: 'counting', version: 2, previousVersion: 1, events: 26 });
    assert.equal(await viewStore.activeVersion('counting'), 2);
    assert.deepEqual(viewStore.versions('counting'), [2]);
    assert.equal(await viewStore.checkpoint({ name: 'counting', version: 2 }), await eventStore.headPosition());
    assert.equal((await viewStore.get('counting', 'totals', { id: 'all' }))?.events, 25);
    assert.deepEqual(progress.at(0), [0, 31]);
    assert.deepEqual(progress.at(-1), [31, 31]);
  });

  test('shadow batches adapt their number of events to carry about maxChangesPerBatch view changes', async () => {
    const { eventStore, viewStore } = await liveProjection();
    const batches: number[] = [];
    const apply = viewStore.applyBatch.bind(viewStore);
    viewStore.applyBatch = async (ref, expected, next, changes) => {
      if (ref.version === 2) batches.push(changes.length);
      return apply(ref, expected, next, changes);
    };
    const projector = createCountingProjector();
    const result = await rebuildProjection({ projector, eventStore, viewStore, log, dropDelayMs: 0, maxChangesPerBatch: 3 });
    assert.equal(result.events, 26);
    assert.equal((await viewStore.get('counting', 'totals', { id: 'all' }))?.events, 25);
    // The first batch reads 16 events; the next ones as many as carry about 3 changes.
    const events = await eventStore.readAll(null, { categories: projector.categories, maxCount: 1000 });
    const perEvent = Math.max(...(await Promise.all(events.map(async (e) => (await projector.apply([e])).length))));
    assert.ok(batches.length > 3, `batches: ${batches.join(', ')}`);
    for (const size of batches.slice(1)) assert.ok(size <= Math.max(3, perEvent) * 2, `batches: ${batches.join(', ')}`);
  });

  test('defers the read indexes of the shadow, completes it, catches up again and only then switches', async () => {
    const { eventStore, viewStore } = await liveProjection();
    const complete = viewStore.completeVersion.bind(viewStore);
    // Events appended while the indexes are built still reach the shadow before readers switch to it.
    viewStore.completeVersion = async (ref) => {
      await eventStore.appendMany('user-3', 2);
      await complete(ref);
    };
    viewStore.lifecycle.length = 0;
    const result = await rebuildProjection({ projector: createCountingProjector(), eventStore, viewStore, log, dropDelayMs: 0 });
    assert.deepEqual(viewStore.lifecycle, ['ensure counting@2 deferred', 'complete counting@2', 'activate counting@2']);
    assert.equal(result.events, 28);
    assert.equal((await viewStore.get('counting', 'totals', { id: 'all' }))?.events, 27);
    assert.equal(await viewStore.checkpoint({ name: 'counting', version: 2 }), await eventStore.headPosition());
  });

  test('a failing replay drops the shadow and leaves the live copy untouched', async () => {
    const { eventStore, viewStore } = await liveProjection();
    const before = await viewStore.checkpoint({ name: 'counting', version: 1 });
    const failing = createCountingProjector({ failOn: (e) => e.position === 's:00000000000000000020' });
    await assert.rejects(rebuildProjection({ projector: failing, eventStore, viewStore, log, batchSize: 4, dropDelayMs: 0 }), /cannot project/);
    assert.equal(await viewStore.activeVersion('counting'), 1);
    assert.deepEqual(viewStore.versions('counting'), [1]);
    assert.equal(await viewStore.checkpoint({ name: 'counting', version: 1 }), before);
    assert.equal((await viewStore.get('counting', 'totals', { id: 'all' }))?.events, 25);
    // The rebuild lease was released: another rebuild can start.
    assert.equal(await viewStore.acquireLease('counting:rebuild', 'next', 1000), true);
  });

  test('refuses to run while another rebuild holds the rebuild lease', async () => {
    const { eventStore, viewStore } = await liveProjection();
    await viewStore.acquireLease('counting:rebuild', 'other', 60_000);
    await assert.rejects(rebuildProjection({ projector: createCountingProjector(), eventStore, viewStore, log }), /already running/);
    assert.deepEqual(viewStore.versions('counting'), [1]);
  });

  test('drops shadows left by a crashed rebuild', async () => {
    const { eventStore, viewStore } = await liveProjection();
    await viewStore.ensureProjection({ ...createCountingProjector().spec, version: 2 });
    const result = await rebuildProjection({
      projector: createCountingProjector(),
      eventStore,
      viewStore,
      log,
      dropDelayMs: 0,
    });
    assert.equal(result.version, 3);
    assert.deepEqual(viewStore.versions('counting'), [3]);
  });

  test('the live runner continues on the new version', async () => {
    const { eventStore, viewStore, runner } = await liveProjection();
    await rebuildProjection({ projector: createCountingProjector(), eventStore, viewStore, log, dropDelayMs: 0 });
    await eventStore.appendMany('user-2', 3);
    assert.equal(await runner.runOnce(), 3);
    assert.equal((await viewStore.get('counting', 'totals', { id: 'all' }))?.events, 28);
    assert.equal(await viewStore.checkpoint({ name: 'counting', version: 2 }), await eventStore.headPosition());
  });

  test('rebuilding a projection that never ran creates its first version', async () => {
    const eventStore = createFakeEventStore();
    const viewStore = createFakeViewStore(systemClock);
    await eventStore.appendMany('user-setup', 1, SETUP_EVENT);
    await eventStore.appendMany('user-1', 3);
    const result = await rebuildProjection({ projector: createCountingProjector(), eventStore, viewStore, log });
    assert.deepEqual(result, { name: 'counting', version: 1, previousVersion: null, events: 4 });
    assert.equal(await viewStore.activeVersion('counting'), 1);
  });
});
