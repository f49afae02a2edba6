import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedPerTurn } from './sharedPerTurn.ts';

const nextMacrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
const checkPhase = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('callers of one synchronous run share one computation; the next macrotask computes again', async () => {
  let reads = 0;
  const head = sharedPerTurn(() => ++reads);
  assert.equal(head(), 1);
  assert.equal(head(), 1);
  await nextMacrotask();
  assert.equal(head(), 2);
  assert.equal(head(), 2);
  await checkPhase();
  assert.equal(head(), 3);
});

test('promises are shared as they are: concurrent callers await one read', async () => {
  let reads = 0;
  const read = sharedPerTurn(async () => {
    reads += 1;
    await nextMacrotask();
    return reads;
  });
  const [a, b] = await Promise.all([read(), read()]);
  assert.equal(reads, 1);
  assert.equal(a, b);
  await read();
  assert.equal(reads, 2, 'a caller after the turn ended reads again, even though the first read only just settled');
});

test('the share ends in a microtask: a caller in a later microtask of the same run reads again', async () => {
  let reads = 0;
  const head = sharedPerTurn(() => ++reads);
  head();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(head(), 2);
});

test('keys are shared separately; undefined and null values are shared too', () => {
  const computed: (string | null)[] = [];
  const read = sharedPerTurn((after: string | null) => {
    computed.push(after);
    return after === null ? undefined : after.length;
  });
  assert.equal(read('abc'), 3);
  assert.equal(read('abc'), 3);
  assert.equal(read(null), undefined);
  assert.equal(read(null), undefined);
  assert.equal(read('x'), 1);
  assert.deepEqual(computed, ['abc', null, 'x']);
});

test('a computation that throws is not shared', () => {
  let calls = 0;
  const flaky = sharedPerTurn(() => {
    calls += 1;
    if (calls === 1) throw new Error('busy');
    return calls;
  });
  assert.throws(() => flaky(), /busy/);
  assert.equal(flaky(), 2);
  assert.equal(flaky(), 2);
});
