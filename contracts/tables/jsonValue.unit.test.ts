import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, jsonDeepEqual } from './jsonValue.ts';
import { parseJsonPointer, toJsonPointer } from './jsonPointer.ts';

describe('canonicalJson', () => {
  test('sorted keys at every level, no whitespace', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } }), '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });
  test('scalars and edge values', () => {
    assert.equal(canonicalJson(null), 'null');
    assert.equal(canonicalJson(true), 'true');
    assert.equal(canonicalJson(-0), '0');
    assert.equal(canonicalJson(1e21), '1e+21');
    assert.equal(canonicalJson(0.1), '0.1');
    assert.equal(canonicalJson('a"\n'), '"a\\"\\n"');
    assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
    assert.equal(canonicalJson([undefined]), '[null]');
    assert.equal(canonicalJson({}), '{}');
    assert.equal(canonicalJson([]), '[]');
  });
  test('key order by UTF-16 code units', () => {
    assert.equal(canonicalJson({ b: 1, B: 2, _: 3, a: 4 }), '{"B":2,"_":3,"a":4,"b":1}');
  });
  test('equal content gives equal text', () => {
    assert.equal(canonicalJson({ x: 1, y: [1, 2] }), canonicalJson({ y: [1, 2], x: 1 }));
  });
});

describe('jsonDeepEqual', () => {
  test('ignores key order, respects array order', () => {
    assert.ok(jsonDeepEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }));
    assert.ok(!jsonDeepEqual([1, 2], [2, 1]));
  });
  test('numbers by value', () => {
    assert.ok(jsonDeepEqual(0, -0));
    assert.ok(jsonDeepEqual({ n: 1.0 }, { n: 1 }));
    assert.ok(!jsonDeepEqual(1, '1'));
  });
  test('structural differences', () => {
    assert.ok(!jsonDeepEqual({ a: 1 }, { a: 1, b: 2 }));
    assert.ok(!jsonDeepEqual({ a: 1, b: 2 }, { a: 1, c: 2 }));
    assert.ok(!jsonDeepEqual([], {}));
    assert.ok(!jsonDeepEqual({}, []));
    assert.ok(!jsonDeepEqual(null, {}));
    assert.ok(!jsonDeepEqual([1], [1, 2]));
    assert.ok(jsonDeepEqual(null, null));
    assert.ok(jsonDeepEqual('', ''));
    assert.ok(!jsonDeepEqual({ a: null }, { a: {} }));
  });
});

describe('JSON Pointer', () => {
  test('round trip with escapes', () => {
    assert.equal(toJsonPointer(['a', 'b/c', 'd~e', 0]), '/a/b~1c/d~0e/0');
    assert.deepEqual(parseJsonPointer('/a/b~1c/d~0e/0'), ['a', 'b/c', 'd~e', '0']);
    assert.deepEqual(parseJsonPointer('/~01'), ['~1']);
    assert.equal(toJsonPointer([]), '');
    assert.deepEqual(parseJsonPointer(''), []);
    assert.deepEqual(parseJsonPointer('/'), ['']);
  });
  test('invalid pointers', () => {
    assert.equal(parseJsonPointer('a/b'), null);
    assert.equal(parseJsonPointer('/a~2'), null);
    assert.equal(parseJsonPointer('/a~'), null);
  });
});
