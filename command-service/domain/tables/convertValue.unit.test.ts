import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_REFS } from '../../../contracts/index.ts';
import { applySchemaPatch } from './applySchemaPatch.ts';
import { parseDecimal, rawDefault } from './convertValue.ts';
import { arr, bool, num, obj, str, type Json } from '../../testing/specSchemas.ts';

/** Replaces property `p` of `{p: from}` by `to` and migrates `value`. */
function convert(from: Json, to: Json, value: unknown): unknown {
  const result = applySchemaPatch(obj({ p: from }), [{ op: 'replace', path: '/properties/p', value: to }]);
  return (result.migrate({ p: value }) as { p: unknown }).p;
}

describe('applySchemaPatch: conversions on replace', () => {
  test('string -> number', () => {
    assert.equal(convert(str(), num(), '42'), 42);
    assert.equal(convert(str(), num(), ' 3.5 '), 3.5);
    assert.equal(convert(str(), num(), '-1e3'), -1000);
    assert.equal(convert(str(), num(), '.5'), 0.5);
    assert.equal(convert(str(), num(), ''), 0);
    assert.equal(convert(str(), num(), '   '), 0);
    assert.equal(convert(str(), num(), 'abc'), 0);
    assert.equal(convert(str(), num(), '12abc'), 0);
    assert.equal(convert(str(), num(), '0x10'), 0);
    assert.equal(convert(str(), num(), 'Infinity'), 0);
    assert.equal(convert(str(), num(), '1e400'), 0);
    assert.ok(Object.is(convert(str(), num(), '-0'), 0));
  });
  test('number -> string', () => {
    assert.equal(convert(num(), str(), 1.5), '1.5');
    assert.equal(convert(num(), str(), 0.1 + 0.2), '0.30000000000000004');
    assert.equal(convert(num(), str(), 1e21), '1e+21');
    assert.equal(convert(num(), str(), -7), '-7');
  });
  test('string <-> boolean', () => {
    assert.equal(convert(str(), bool(true), 'true'), true);
    assert.equal(convert(str(), bool(true), 'TRUE'), false);
    assert.equal(convert(str(), bool(true), 'yes'), false);
    assert.equal(convert(bool(), str(), true), 'true');
    assert.equal(convert(bool(), str(), false), 'false');
  });
  test('number <-> boolean', () => {
    assert.equal(convert(num(), bool(), 0), false);
    assert.equal(convert(num(), bool(), -2.5), true);
    assert.equal(convert(bool(), num(), true), 1);
    assert.equal(convert(bool(), num(), false), 0);
  });
  test('same primitive kind keeps the value', () => {
    assert.equal(convert(str(), { type: 'string', default: 'a', enum: ['a'] }, 'zzz'), 'zzz');
    assert.equal(convert(num(), num(5), 3), 3);
    assert.equal(convert(bool(), bool(true), false), false);
  });
  test('primitive -> array', () => {
    assert.deepEqual(convert(str(), arr(str()), 'a'), ['a']);
    assert.deepEqual(convert(num(), arr(str()), 5), ['5']);
    assert.deepEqual(convert(str(), arr(num()), '7'), [7]);
    assert.deepEqual(convert(str(), arr(obj({ a: num(1) })), 'x'), [{ a: 1 }]);
  });
  test('array -> primitive', () => {
    assert.equal(convert(arr(str()), num(), ['7', '8']), 7);
    assert.equal(convert(arr(str()), num(9), []), 9);
    assert.equal(convert(arr(num()), bool(), [0]), false);
    assert.equal(convert(arr(num()), str('d'), []), 'd');
  });
  test('object -> object, recursively', () => {
    const from = obj({ a: str(), b: num(), gone: str(), inner: obj({ x: str(), y: bool() }) });
    const to = obj({ inner: obj({ x: num(), z: str('new') }), b: str(), a: str(), added: num(4) });
    const value = convert(from, to, { a: 'A', b: 2, gone: 'g', inner: { x: '3', y: true } });
    assert.deepEqual(value, { inner: { x: 3, z: 'new' }, b: '2', a: 'A', added: 4 });
    assert.deepEqual(Object.keys(value as Json), ['inner', 'b', 'a', 'added']);
  });
  test('array -> array, element by element', () => {
    assert.deepEqual(convert(arr(str()), arr(num()), ['1', 'x']), [1, 0]);
    assert.deepEqual(convert(arr(arr(num())), arr(arr(bool())), [[0, 1], []]), [[false, true], []]);
    assert.deepEqual(convert(arr(obj({ a: num() })), arr(obj({ a: str(), b: bool(true) })), [{ a: 1 }]), [{ a: '1', b: true }]);
    assert.deepEqual(convert(arr(arr(str())), arr(str()), [['a', 'b'], []]), ['a', '']);
  });
  test('object <-> anything else gives the new default', () => {
    const o = obj({ a: num(1) });
    assert.equal(convert(o, str('d'), { a: 2 }), 'd');
    assert.equal(convert(o, num(3), { a: 2 }), 3);
    assert.equal(convert(o, bool(true), { a: 2 }), true);
    assert.deepEqual(convert(o, arr(num()), { a: 2 }), []);
    assert.deepEqual(convert(str(), o, 'x'), { a: 1 });
    assert.deepEqual(convert(arr(num()), o, [1]), { a: 1 });
  });
  test('to a system ref the stored value is ""', () => {
    assert.equal(convert(str(), { $ref: SYSTEM_REFS.rowId }, 'abc'), '');
    assert.equal(convert({ $ref: SYSTEM_REFS.rowId }, str('d'), ''), '');
  });
});

describe('convertValue helpers', () => {
  test('parseDecimal accepts only finite decimal literals', () => {
    assert.equal(parseDecimal('+4'), 4);
    assert.equal(parseDecimal('1.'), 1);
    assert.equal(parseDecimal('1_000'), 0);
    assert.equal(parseDecimal('NaN'), 0);
    assert.equal(parseDecimal('1 2'), 0);
  });
  test('rawDefault tolerates incomplete nodes', () => {
    assert.equal(rawDefault({ type: 'string' }), '');
    assert.equal(rawDefault({ type: 'number', default: 'x' }), 0);
    assert.equal(rawDefault({ type: 'boolean' }), false);
    assert.deepEqual(rawDefault({ type: 'object' }), {});
    assert.equal(rawDefault({ type: 'integer' }), null);
    assert.ok(Object.is(rawDefault({ type: 'number', default: -0 }), 0));
  });
});
