import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sqlitePosition, streamCategory } from '../../contracts/index.ts';
import type { EventStore, ReadAllOptions, RecordedEvent } from '../../contracts/index.ts';
import { createSystemStateSource } from './systemStateSource.ts';

/** An in-memory log exposing only what the source uses, counting reads. */
function fakeStore() {
  const log: RecordedEvent[] = [];
  const reads: ReadAllOptions[] = [];
  const froms: (string | null)[] = [];
  const revisions = new Map<string, number>();
  const append = (streamId: string, type: string, data: unknown): void => {
    const revision = (revisions.get(streamId) ?? -1) + 1;
    revisions.set(streamId, revision);
    const metadata = { eventId: `e${log.length}`, correlationId: 'c', causationId: null, principal: 'system', time: '2026-01-01T00:00:00.000Z' };
    log.push({ type, schemaVersion: 1, data, metadata, streamId, revision, position: sqlitePosition(log.length + 1) });
  };
  const heads = { count: 0 };
  const store = {
    async headPosition() {
      heads.count++;
      return log.at(-1)?.position ?? null;
    },
    async readAll(after: string | null, options: ReadAllOptions) {
      reads.push(options);
      froms.push(after);
      await new Promise((resolve) => setImmediate(resolve));
      return log
        .filter((e) => after === null || e.position > after)
        .filter((e) => options.categories?.includes(streamCategory(e.streamId)) || options.eventTypes?.includes(e.type))
        .slice(0, options.maxCount);
    },
  } as unknown as EventStore;
  const head = () => log.at(-1)?.position ?? null;
  return { store, append, reads, froms, heads, head };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const user = (i: number) => ({ userId: `u${i}`, username: `user${i}`, email: null, role: 'systemUser', passwordHash: 'h' });

test('folds the whole log in batches of 1000 with the system-state filter', async () => {
  const { store, append, reads } = fakeStore();
  for (let i = 0; i < 2500; i++) append('directory', 'UserCreated', user(i));
  append('branch-b1', 'RowsCreated', {});
  const state = await createSystemStateSource({ eventStore: store }).current();
  assert.equal(state.users.size, 2500);
  assert.equal(state.streamRevisions.get('directory'), 2499);
  assert.deepEqual(reads[0], {
    categories: ['directory', 'organization', 'apikey', 'session', 'webhook', 'oauth'],
    eventTypes: ['RevisionCommitted', 'MergeRecorded', 'DraftReverted'],
    maxCount: 1000,
  });
  assert.equal(reads.length, 4, 'three batches and the empty read that ends the catch-up');
});

test('reads nothing when the head has not moved, and only new events when it has', async () => {
  const { store, append, reads } = fakeStore();
  append('directory', 'UserCreated', user(1));
  const source = createSystemStateSource({ eventStore: store });
  await source.current();
  const before = reads.length;
  await nextTurn();
  await source.current();
  assert.equal(reads.length, before);
  append('directory', 'UserCreated', user(2));
  await nextTurn();
  assert.equal((await source.current()).users.size, 2);
});

test('callers in one synchronous run share one head query; later callers ask again', async () => {
  const { store, append, heads } = fakeStore();
  append('directory', 'UserCreated', user(1));
  const source = createSystemStateSource({ eventStore: store });
  await source.current();
  await nextTurn();
  const before = heads.count;
  await Promise.all([source.current(), source.current(), source.current()]);
  assert.equal(heads.count, before + 1);
  // Another process's append is seen by the next caller.
  append('directory', 'UserCreated', user(2));
  assert.equal((await source.current()).users.size, 2);
  assert.equal(heads.count, before + 2);
});

test('a head read in the check phase is not shared with requests of the next loop iteration (chaos harness regression)', async () => {
  const { store, append } = fakeStore();
  append('directory', 'UserCreated', user(1));
  const source = createSystemStateSource({ eventStore: store });
  await source.current();
  const seen = await new Promise<number>((resolve) => {
    setImmediate(() => {
      // A request handled in the check phase (the router defers `next` with setImmediate) reads the head ...
      void source.current();
      // ... another process then appends, and a request handled in the next loop iteration must see it.
      append('directory', 'UserCreated', user(2));
      const until = Date.now() + 3;
      while (Date.now() < until); // so the timer below is due in the next iteration's timers phase
      setTimeout(() => void source.current().then((state) => resolve(state.users.size)), 0);
    });
  });
  assert.equal(seen, 2);
});

test("this process's appends are seen in the same turn", async () => {
  const { store, append, head } = fakeStore();
  append('directory', 'UserCreated', user(1));
  const source = createSystemStateSource({ eventStore: store });
  await source.current();
  append('directory', 'UserCreated', user(2));
  source.appended(head() as string);
  assert.equal((await source.current()).users.size, 2);
});

test('concurrent callers share one catch-up, and a later head is still reached', async () => {
  const { store, append, reads, head } = fakeStore();
  append('directory', 'UserCreated', user(1));
  const source = createSystemStateSource({ eventStore: store });
  const [a, b] = await Promise.all([source.current(), source.current()]);
  assert.equal(a, b);
  assert.equal(reads.length, 2, 'one read with events and one empty read, shared');
  await nextTurn();
  const first = source.current();
  append('directory', 'UserCreated', user(2));
  source.appended(head() as string);
  const second = source.current();
  await first;
  assert.equal((await second).users.size, 2);
});

test('reads after the last head it caught up to, not again from the last system event', async () => {
  const { store, append, froms, head } = fakeStore();
  append('directory', 'UserCreated', user(1));
  const source = createSystemStateSource({ eventStore: store });
  await source.current();
  for (let i = 0; i < 5; i++) append('branch-b1', 'RowsCreated', {});
  await nextTurn();
  await source.current();
  const caughtUp = head();
  for (let i = 0; i < 5; i++) append('branch-b1', 'RowsCreated', {});
  await nextTurn();
  await source.current();
  assert.equal(froms.at(-1), caughtUp, 'the rows written before the last catch-up are not read again');
  append('directory', 'UserCreated', user(2));
  await nextTurn();
  assert.equal((await source.current()).users.size, 2);
});
