import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ENTRY_OVERHEAD_BYTES, createBoundedCache, estimateBytes } from './boundedCache.ts';

const SEED = 20261128;

type Op = { kind: 'set'; key: string; bytes: number } | { kind: 'get'; key: string } | { kind: 'delete'; key: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), bytes: fc.integer({ min: 0, max: 400 }) }),
  fc.record({ kind: fc.constant('get' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }),
  fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }),
);

/** Size the cache gives a one-character string key with `bytes` of value. */
const entrySize = (bytes: number): number => ENTRY_OVERHEAD_BYTES + 17 + bytes;

test('laws: never past either bound, bytes is the sum of what is held, and it evicts exactly like a reference LRU', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 1200 }), fc.array(op, { maxLength: 60 }), (maxEntries, maxBytes, ops) => {
      const evicted: string[] = [];
      const cache = createBoundedCache<string, number>({ maxEntries, maxBytes, onEvict: (key) => evicted.push(key) });
      // Reference: an array in recency order (oldest first) of [key, value, size].
      let model: [string, number, number][] = [];
      const expectedEvicted: string[] = [];
      let stamp = 0;
      for (const o of ops) {
        if (o.kind === 'set') {
          stamp += 1;
          model = model.filter(([k]) => k !== o.key);
          cache.set(o.key, stamp, o.bytes);
          const size = entrySize(o.bytes);
          if (size <= maxBytes) {
            model.push([o.key, stamp, size]);
            const total = () => model.reduce((sum, [, , s]) => sum + s, 0);
            while (model.length > maxEntries || total() > maxBytes) expectedEvicted.push((model.shift() as [string, number, number])[0]);
          }
        } else if (o.kind === 'get') {
          const at = model.findIndex(([k]) => k === o.key);
          const expected = at < 0 ? undefined : model[at]?.[1];
          assert.equal(cache.get(o.key), expected);
          if (at >= 0) model.push(...model.splice(at, 1));
        } else {
          const at = model.findIndex(([k]) => k === o.key);
          assert.equal(cache.delete(o.key), at >= 0);
          if (at >= 0) expectedEvicted.push((model.splice(at, 1)[0] as [string, number, number])[0]);
        }
        assert.ok(cache.size <= maxEntries);
        assert.ok(cache.bytes <= maxBytes);
        assert.equal(
          cache.bytes,
          model.reduce((sum, [, , s]) => sum + s, 0),
        );
        assert.deepEqual(
          [...cache.keys()],
          model.map(([k]) => k),
        );
      }
      assert.deepEqual(evicted, expectedEvicted);
    }),
    { seed: SEED, numRuns: 300 },
  );
});

test('an entry larger than maxBytes on its own is not kept and removes the older value under its key', () => {
  const cache = createBoundedCache<string, string>({ maxEntries: 10, maxBytes: 1000 });
  cache.set('k', 'small');
  assert.equal(cache.get('k'), 'small');
  cache.set('k', 'x'.repeat(2000));
  assert.equal(cache.get('k'), undefined);
  assert.equal(cache.size, 0);
  assert.equal(cache.bytes, 0);
});

test('sizes are measured once, at insert: hits never call sizeOf', () => {
  let measured = 0;
  const cache = createBoundedCache<string, { rows: number[] }>({
    maxEntries: 10,
    maxBytes: 1_000_000,
    sizeOf: (value) => {
      measured += 1;
      return estimateBytes(value);
    },
  });
  cache.set('page', { rows: [1, 2, 3] });
  for (let i = 0; i < 100; i += 1) cache.get('page');
  assert.equal(measured, 1);
  cache.set('other', { rows: [] }, 10);
  assert.equal(measured, 1, 'an explicit size is taken as given');
});

test('large keys count: a key as big as the budget is not kept', () => {
  const cache = createBoundedCache<string, number>({ maxEntries: 10, maxBytes: 10_000 });
  cache.set('q'.repeat(20_000), 1, 0);
  assert.equal(cache.size, 0);
  cache.set('q'.repeat(100), 1, 0);
  assert.equal(cache.bytes, ENTRY_OVERHEAD_BYTES + 16 + 100);
});

test('clear empties it and reports every entry to onEvict', () => {
  const gone: string[] = [];
  const cache = createBoundedCache<string, number>({ maxEntries: 10, maxBytes: 10_000, onEvict: (k) => gone.push(k) });
  cache.set('a', 1);
  cache.set('b', 2);
  cache.clear();
  assert.deepEqual(gone, ['a', 'b']);
  assert.equal(cache.size, 0);
  assert.equal(cache.bytes, 0);
});

test('estimateBytes grows with the data and counts wide strings at two bytes a character', () => {
  const row = (text: string) => ({ id: 'r1', data: { title: text, n: 1, tags: ['a', 'b'], nested: { ok: true, none: null } } });
  const small = estimateBytes(row('x'));
  const big = estimateBytes(row('x'.repeat(1000)));
  assert.equal(big - small, 999);
  assert.equal(estimateBytes('é'.repeat(10)) - estimateBytes(''), 10, 'Latin-1 is one byte a character');
  assert.equal(estimateBytes('€'.repeat(10)) - estimateBytes(''), 20, 'others are two');
  const page = Array.from({ length: 1000 }, (_, i) => row(`title ${i}`));
  assert.ok(estimateBytes(page) > 1000 * small * 0.9);
  assert.equal(estimateBytes(new Map([[1, 'x'.repeat(1e6)]])), 64, 'class instances are not walked');
  assert.equal(
    estimateBytes(() => 1),
    64,
  );
});

test('a deeply nested value is walked to a bounded depth', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 10_000; i += 1) deep = [deep];
  assert.ok(estimateBytes(deep) <= 64 * 24 + 64);
});
