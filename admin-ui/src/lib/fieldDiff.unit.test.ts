import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldDiff, pointerSegments } from './fieldDiff.ts';

describe('fieldDiff', () => {
  test('nested objects compare by property, key order ignored; equal documents give nothing', () => {
    assert.deepEqual(fieldDiff({ a: 1, b: { c: 'x', d: [1] } }, { b: { d: [1], c: 'x' }, a: 1 }), []);
    assert.deepEqual(fieldDiff({ name: 'A', address: { city: 'Paris', zip: 1 } }, { name: 'A', address: { city: 'Lille', zip: 1 } }), [
      { path: '/address/city', before: 'Paris', after: 'Lille' },
    ]);
  });

  test('arrays compare by index: a grown array lists the new element with before null', () => {
    assert.deepEqual(fieldDiff({ tags: ['a'] }, { tags: ['b', 'c'] }), [
      { path: '/tags/0', before: 'a', after: 'b' },
      { path: '/tags/1', before: null, after: 'c' },
    ]);
    assert.deepEqual(fieldDiff({ tags: ['a', 'b'] }, { tags: ['a'] }), [{ path: '/tags/1', before: 'b', after: null }]);
  });

  test('a change of kind, an added object and a whole document are one leaf each', () => {
    assert.deepEqual(fieldDiff({ v: [1] }, { v: { x: 1 } }), [{ path: '/v', before: [1], after: { x: 1 } }]);
    assert.deepEqual(fieldDiff({}, { meta: { a: 1 } }), [{ path: '/meta', before: null, after: { a: 1 } }]);
    assert.deepEqual(fieldDiff(null, { a: 1 }), [{ path: '', before: null, after: { a: 1 } }]);
  });

  test('keys with / and ~ are escaped in the pointer and unescaped by pointerSegments', () => {
    const [change] = fieldDiff({ 'a/b': { '~c': 1 } }, { 'a/b': { '~c': 2 } });
    assert.equal(change?.path, '/a~1b/~0c');
    assert.deepEqual(pointerSegments(change?.path ?? ''), ['a/b', '~c']);
    assert.deepEqual(pointerSegments(''), []);
  });

  test('at most 100 changes', () => {
    const before = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    assert.equal(fieldDiff(before, {}).length, 100);
  });
});
