import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Position, ReadAllOptions } from '../../contracts/index.ts';
import { createFakeEventStore } from '../testing/fakePorts.ts';
import type { FakeEventStore } from '../testing/fakePorts.ts';
import { createSharedLogReader } from './sharedLogReader.ts';

/** A fake store that counts readAll calls. */
function countingStore(): { store: FakeEventStore; reads: () => number } {
  const store = createFakeEventStore({ notifyAppends: false });
  let reads = 0;
  const readAll = store.readAll.bind(store);
  store.readAll = (after: Position | null, options: ReadAllOptions) => {
    reads += 1;
    return readAll(after, options);
  };
  return { store, reads: () => reads };
}

async function head(store: FakeEventStore): Promise<Position> {
  const position = await store.headPosition();
  assert.ok(position !== null);
  return position;
}

test('readers of the same categories and place share one read (category order does not matter)', async () => {
  const { store, reads } = countingStore();
  await store.appendMany('branch-a', 3);
  await store.appendMany('organization-o', 2);
  const read = createSharedLogReader(store);
  const at = await head(store);
  const first = await read(null, ['branch', 'organization'], 10, at);
  const second = await read(null, ['organization', 'branch'], 10, at);
  assert.equal(reads(), 1);
  assert.equal(second, first);
  assert.equal(first.length, 5);
});

test('a reader that knows a later head reads again after a short batch; a full batch stays shared', async () => {
  const { store, reads } = countingStore();
  await store.appendMany('branch-a', 3);
  const read = createSharedLogReader(store);
  const short = await read(null, ['branch'], 10, await head(store));
  assert.equal(short.length, 3);
  await store.appendMany('branch-a', 2);
  const later = await read(null, ['branch'], 10, await head(store));
  assert.equal(reads(), 2);
  assert.equal(later.length, 5);

  const full = await read(null, ['branch'], 2, await head(store));
  await store.appendMany('branch-a', 1);
  assert.equal(await read(null, ['branch'], 2, await head(store)), full);
  assert.equal(reads(), 3);
});

test('other categories, places, batch sizes or byte budgets read on their own', async () => {
  const { store, reads } = countingStore();
  await store.appendMany('branch-a', 3);
  await store.appendMany('directory-d', 1);
  const read = createSharedLogReader(store);
  const at = await head(store);
  const branch = await read(null, ['branch'], 10, at);
  const directory = await read(null, ['directory'], 10, at);
  const after = await read(branch[0]?.position ?? null, ['branch'], 10, at);
  const smaller = await read(null, ['branch'], 1, at);
  // Each event's data is {"n":i} (7 bytes): a 10-byte budget cuts after the second.
  const cut = await read(null, ['branch'], 10, at, 10);
  assert.equal(await read(null, ['branch'], 10, at, 10), cut);
  assert.equal(reads(), 5);
  assert.deepEqual([branch.length, directory.length, after.length, smaller.length, cut.length], [3, 1, 2, 1, 2]);
});

test('a failed read is not kept', async () => {
  const { store, reads } = countingStore();
  await store.appendMany('branch-a', 1);
  const readAll = store.readAll.bind(store);
  let fail = true;
  store.readAll = (after, options) => (fail ? Promise.reject(new Error('store down')) : readAll(after, options));
  const read = createSharedLogReader(store);
  const at = await head(store);
  await assert.rejects(read(null, ['branch'], 10, at), /store down/);
  fail = false;
  assert.equal((await read(null, ['branch'], 10, at)).length, 1);
  assert.equal(reads(), 1);
});
