import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { sqlitePosition, systemClock } from '../../contracts/index.ts';
import { createInProcessQueue } from '../adapters/queue/inProcessQueue.ts';
import { createCheckpointWaiter } from './checkpointWaiter.ts';
import { createFakeEventStore, createFakeViewStore } from '../testing/fakePorts.ts';
import { createProjectionRunner } from './projectionRunner.ts';
import { createCountingProjector, SETUP_EVENT } from '../testing/testProjector.ts';

const log = pino({ level: 'silent' });
// Long enough that a waiter relying on the poll alone would time out.
const NO_POLL = 600_000;

async function setup() {
  const eventStore = createFakeEventStore({ notifyAppends: false });
  const viewStore = createFakeViewStore(systemClock);
  await eventStore.appendMany('user-setup', 1, SETUP_EVENT);
  const make = (name: string, categories: readonly string[]) =>
    createProjectionRunner({
      projector: createCountingProjector({ name, categories }),
      eventStore,
      viewStore,
      queue: createInProcessQueue(),
      log,
      clock: systemClock,
      owner: 'me',
    });
  const users = make('users', ['user']);
  const projects = make('projects', ['project']);
  await users.runOnce();
  await projects.runOnce();
  return { eventStore, viewStore, users, projects };
}

/** The view store with its checkpoint looks (`projectionStatuses`) counted. */
function countingLooks(viewStore: Awaited<ReturnType<typeof setup>>['viewStore']) {
  let looks = 0;
  const counted = Object.assign(Object.create(viewStore) as typeof viewStore, {
    projectionStatuses: () => {
      looks += 1;
      return viewStore.projectionStatuses();
    },
  });
  return { counted, looks: () => looks };
}

describe('checkpoint waiter', () => {
  test('resolves true at once when every projection has reached the position', async () => {
    const { eventStore, viewStore } = await setup();
    const waiter = createCheckpointWaiter({ viewStore, pollIntervalMs: NO_POLL });
    assert.equal(await waiter.waitFor((await eventStore.headPosition()) ?? '', 60_000), true);
  });

  test('resolves false when the timeout passes first', async () => {
    const { eventStore, viewStore } = await setup();
    const waiter = createCheckpointWaiter({ viewStore, pollIntervalMs: 5 });
    await eventStore.appendMany('user-1', 1);
    assert.equal(await waiter.waitFor((await eventStore.headPosition()) ?? '', 50), false);
  });

  test('wakes on in-process runner progress without waiting for a poll', async () => {
    const { eventStore, viewStore, users, projects } = await setup();
    const waiter = createCheckpointWaiter({ viewStore, runners: [users, projects], pollIntervalMs: NO_POLL });
    await eventStore.appendMany('user-1', 2);
    const head = (await eventStore.headPosition()) ?? '';
    const waiting = waiter.waitFor(head, 60_000);
    await users.runOnce();
    await projects.runOnce();
    assert.equal(await waiting, true);
  });

  test('polls the store when the runners live in another process', async () => {
    const { eventStore, viewStore, users, projects } = await setup();
    const waiter = createCheckpointWaiter({ viewStore, pollIntervalMs: 5 });
    await eventStore.appendMany('user-1', 2);
    const waiting = waiter.waitFor((await eventStore.headPosition()) ?? '', 60_000);
    await users.runOnce();
    await projects.runOnce();
    assert.equal(await waiting, true);
  });

  test('waits only for the named projections', async () => {
    const { eventStore, viewStore, users } = await setup();
    const waiter = createCheckpointWaiter({ viewStore, pollIntervalMs: 5 });
    await eventStore.appendMany('user-1', 2);
    const head = (await eventStore.headPosition()) ?? '';
    await users.runOnce();
    assert.equal(await waiter.waitFor(head, 60_000, ['users']), true);
    assert.equal(await waiter.waitFor(head, 50, ['users', 'projects']), false);
    assert.equal(await waiter.waitFor(head, 50, ['unknown']), false);
  });

  test('compares the checkpoint of the ACTIVE version', async () => {
    const { eventStore, viewStore, users } = await setup();
    const waiter = createCheckpointWaiter({ viewStore, pollIntervalMs: 5 });
    const head = (await eventStore.headPosition()) ?? '';
    await viewStore.ensureProjection({ ...createCountingProjector({ name: 'users' }).spec, version: 2 });
    await viewStore.activate('users', 2);
    assert.equal(await waiter.waitFor(head, 50, ['users']), false);
    await users.runOnce();
    assert.equal(await waiter.waitFor(head, 60_000, ['users']), true);
  });

  test('rejects with the store error when the store keeps failing', async () => {
    const { eventStore, viewStore } = await setup();
    viewStore.projectionStatuses = () => Promise.reject(new Error('store down'));
    const waiter = createCheckpointWaiter({ viewStore, pollIntervalMs: 5 });
    await assert.rejects(waiter.waitFor((await eventStore.headPosition()) ?? '', 50), /store down/);
  });

  test('looks at the store on the progress of a projection a wait names, not of the others', async () => {
    const { eventStore, viewStore, users, projects } = await setup();
    const { counted, looks } = countingLooks(viewStore);
    const waiter = createCheckpointWaiter({ viewStore: counted, runners: [users, projects], pollIntervalMs: NO_POLL });
    await eventStore.appendMany('user-1', 2);
    await eventStore.appendMany('project-1', 2);
    const waiting = waiter.waitFor((await eventStore.headPosition()) ?? '', 60_000, ['users']);
    await projects.runOnce();
    const afterOthers = looks();
    await users.runOnce();
    assert.equal(await waiting, true);
    assert.equal(afterOthers, 1, 'only the first look, none on the progress of projects');
    assert.equal(looks(), 2);
  });

  test('a wait for two projections is looked at once the last of their leaders moved, not on arrival or when one behind the other did', async () => {
    const { eventStore, viewStore, users, projects } = await setup();
    const { counted, looks } = countingLooks(viewStore);
    const leading = (runner: typeof users) => ({ onProgress: runner.onProgress.bind(runner), isLeader: () => true });
    const waiter = createCheckpointWaiter({ viewStore: counted, runners: [leading(users), leading(projects)], pollIntervalMs: NO_POLL });
    // Keeps the waiter listening throughout (then times out); names no projection that moves.
    const listening = waiter.waitFor(sqlitePosition(999_999), 500, ['unknown']);
    await eventStore.appendMany('user-1', 1);
    await users.runOnce();
    await eventStore.appendMany('project-1', 1);
    const head = (await eventStore.headPosition()) ?? '';
    const before = looks();
    const waiting = waiter.waitFor(head, 60_000, ['users', 'projects']);
    await projects.runOnce();
    assert.equal(looks(), before, 'users, behind, proves the wait not reached: neither its arrival nor the progress of projects looks');
    await users.runOnce();
    assert.equal(await waiting, true);
    assert.equal(looks(), before + 1);
    assert.equal(await listening, false);
  });
});
