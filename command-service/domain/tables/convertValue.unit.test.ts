import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_REFS, applySchemaPatch, parseDecimal, rawDefault } from '../../../contracts/index.ts';
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
    assert.equal(rawDefault({ type: 'integer' }), 0);
    assert.equal(rawDefault({ type: 'integer', default: 1.5 }), 0);
    assert.equal(rawDefault({ type: 'date' }), null);
    assert.ok(Object.is(rawDefault({ type: 'number', default: -0 }), 0));
  });
});

type Loss = { path: string; before: unknown; after: unknown };

/** Like `convert`, with the losses reported for the row `{p: value}` (paths as JSON Pointers). */
function losses(from: Json, to: Json, value: unknown): Loss[] {
  const found: Loss[] = [];
  const result = applySchemaPatch(obj({ p: from }), [{ op: 'replace', path: '/properties/p', value: to }]);
  result.migrate({ p: value }, (path, before, after) => found.push({ path: `/${path.join('/')}`, before, after }));
  return found;
}

describe('lossy conversions (domain.md §6 rule 6)', () => {
  test('string -> number: a string that is no number falls back to 0', () => {
    assert.deepEqual(losses(str(), num(), 'abc'), [{ path: '/p', before: 'abc', after: 0 }]);
    assert.deepEqual(losses(str(), num(), ''), [{ path: '/p', before: '', after: 0 }]);
    assert.deepEqual(losses(str(), num(), '1e400'), [{ path: '/p', before: '1e400', after: 0 }]);
    for (const kept of ['42', ' 3.5 ', '-0', '.5', '1e3']) assert.deepEqual(losses(str(), num(), kept), [], kept);
  });
  test('string -> boolean: a string other than "true" or "false" falls back to false', () => {
    assert.deepEqual(losses(str(), bool(), 'yes'), [{ path: '/p', before: 'yes', after: false }]);
    assert.deepEqual(losses(str(), bool(), 'TRUE'), [{ path: '/p', before: 'TRUE', after: false }]);
    assert.deepEqual(losses(str(), bool(), 'true'), []);
    assert.deepEqual(losses(str(), bool(), 'false'), []);
  });
  test('number -> boolean: a number other than 0 or 1 cannot be kept', () => {
    assert.deepEqual(losses(num(), bool(), 5), [{ path: '/p', before: 5, after: true }]);
    assert.deepEqual(losses(num(), bool(), -0.5), [{ path: '/p', before: -0.5, after: true }]);
    assert.deepEqual(losses(num(), bool(), 0), []);
    assert.deepEqual(losses(num(), bool(), 1), []);
  });
  test('conversions that keep the value report nothing', () => {
    assert.deepEqual(losses(num(), str(), 0.1 + 0.2), []);
    assert.deepEqual(losses(bool(), str(), false), []);
    assert.deepEqual(losses(bool(), num(), true), []);
    assert.deepEqual(losses(str(), str('x'), 'kept'), []);
    assert.deepEqual(losses(obj({ a: str() }), obj({ a: str(), b: num() }), { a: 'A' }), []);
    assert.deepEqual(losses(obj({ a: str(), gone: str() }), obj({ a: str() }), { a: 'A', gone: 'g' }), [], 'dropping a property is a removal');
  });
  test('array -> primitive: a dropped tail, or a lossy first element', () => {
    assert.deepEqual(losses(arr(str()), str(), ['a', 'b']), [{ path: '/p', before: ['a', 'b'], after: 'a' }]);
    assert.deepEqual(losses(arr(str()), num(), ['x']), [{ path: '/p', before: ['x'], after: 0 }]);
    assert.deepEqual(losses(arr(str()), num(), ['7']), []);
    assert.deepEqual(losses(arr(str()), num(9), []), [], 'an empty array holds nothing');
  });
  test('primitive -> array: the element conversion decides', () => {
    assert.deepEqual(losses(str(), arr(num()), 'x'), [{ path: '/p', before: 'x', after: [0] }]);
    assert.deepEqual(losses(str(), arr(num()), '7'), []);
    assert.deepEqual(losses(str(), arr(obj({ a: num(1) })), 'x'), [{ path: '/p', before: 'x', after: [{ a: 1 }] }]);
  });
  test('object <-> anything else: replaced by the default', () => {
    const o = obj({ a: num(1) });
    assert.deepEqual(losses(o, str('d'), { a: 2 }), [{ path: '/p', before: { a: 2 }, after: 'd' }]);
    assert.deepEqual(losses(o, arr(num()), { a: 2 }), [{ path: '/p', before: { a: 2 }, after: [] }]);
    assert.deepEqual(losses(str(), o, 'x'), [{ path: '/p', before: 'x', after: { a: 1 } }]);
    assert.deepEqual(losses(arr(num()), o, [1]), [{ path: '/p', before: [1], after: { a: 1 } }]);
    assert.deepEqual(losses(arr(num()), o, []), []);
  });
  test('a value replaced by a system ref is lost', () => {
    assert.deepEqual(losses(str(), { $ref: SYSTEM_REFS.rowId }, 'abc'), [{ path: '/p', before: 'abc', after: '' }]);
    assert.deepEqual(losses(str(), { $ref: SYSTEM_REFS.rowId }, ''), []);
  });
  test('nested losses carry the path of the value: properties and array indexes', () => {
    const from = obj({ inner: obj({ x: str(), y: str() }), list: arr(str()) });
    const to = obj({ inner: obj({ x: num(), y: bool() }), list: arr(num()) });
    assert.deepEqual(losses(from, to, { inner: { x: 'a', y: 'true' }, list: ['1', 'two', 'three'] }), [
      { path: '/p/inner/x', before: 'a', after: 0 },
      { path: '/p/list/1', before: 'two', after: 0 },
      { path: '/p/list/2', before: 'three', after: 0 },
    ]);
  });
  test('a replace at an items path reports each element by index', () => {
    const result = applySchemaPatch(obj({ tags: arr(str()) }), [{ op: 'replace', path: '/properties/tags/items', value: num() }]);
    const found: unknown[] = [];
    const migrated = result.migrate({ tags: ['1', 'x', '2', 'y'] }, (path, before, after) => found.push([path, before, after]));
    assert.deepEqual(migrated, { tags: [1, 0, 2, 0] });
    assert.deepEqual(found, [
      [['tags', 1], 'x', 0],
      [['tags', 3], 'y', 0],
    ]);
  });
  test('without a listener the conversion is the same', () => {
    const result = applySchemaPatch(obj({ p: str() }), [{ op: 'replace', path: '/properties/p', value: num() }]);
    assert.deepEqual(
      result.migrate({ p: 'x' }),
      result.migrate({ p: 'x' }, () => undefined),
    );
  });
});

describe('conversions to and from integer (domain.md §6)', () => {
  const int = (d = 0, bounds: { minimum?: number; maximum?: number } = {}): Json => ({ type: 'integer', default: d, ...bounds });
  test('string -> integer and number -> integer truncate toward zero', () => {
    assert.equal(convert(str(), int(), '42'), 42);
    assert.equal(convert(str(), int(), ' 3.9 '), 3);
    assert.equal(convert(str(), int(), '-3.9'), -3);
    assert.equal(convert(str(), int(), 'abc'), 0);
    assert.equal(convert(num(), int(), 7.99), 7);
    assert.ok(Object.is(convert(num(), int(), -0.5), 0));
  });
  test('outside the safe range or the node bounds -> the new default', () => {
    assert.equal(convert(num(), int(5), 2 ** 60), 5);
    assert.equal(convert(str(), int(5), '-1e300'), 5);
    assert.equal(convert(num(), int(1, { minimum: 1, maximum: 10 }), 11), 1);
    assert.equal(convert(num(), int(1, { minimum: 1, maximum: 10 }), 0.5), 1);
    assert.equal(convert(str(), int(3, { minimum: 1 }), 'x'), 3);
    assert.equal(convert(num(), int(1, { minimum: 1, maximum: 10 }), 10.5), 10);
  });
  test('integer -> number keeps the value; integer <-> string and boolean as number', () => {
    assert.equal(convert(int(), num(), 12), 12);
    assert.equal(convert(int(), str(), -12), '-12');
    assert.equal(convert(int(), bool(), 0), false);
    assert.equal(convert(int(), bool(), 3), true);
    assert.equal(convert(bool(), int(), true), 1);
    assert.equal(convert(bool(), int(7, { minimum: 5 }), true), 7);
  });
  test('integer -> integer keeps the value (new bounds are checked by validation)', () => {
    assert.equal(convert(int(), int(0, { maximum: 3 }), 9), 9);
  });
  test('arrays of integers', () => {
    assert.deepEqual(convert(arr(num()), arr(int()), [1.5, 2, -2.5]), [1, 2, -2]);
    assert.deepEqual(convert(str(), arr(int()), '4.2'), [4]);
    assert.equal(convert(arr(num()), int(), [9.9, 1]), 9);
  });
  test('losses: a truncated fraction, a value outside range or bounds, a string that is no number', () => {
    assert.deepEqual(losses(num(), int(), 7.5), [{ path: '/p', before: 7.5, after: 7 }]);
    assert.deepEqual(losses(num(), int(2, { maximum: 9 }), 10), [{ path: '/p', before: 10, after: 2 }]);
    assert.deepEqual(losses(str(), int(), 'abc'), [{ path: '/p', before: 'abc', after: 0 }]);
    assert.deepEqual(losses(num(), int(), 7), []);
    assert.deepEqual(losses(str(), int(), ' 12 '), []);
    assert.deepEqual(losses(bool(), int(), true), []);
    assert.deepEqual(losses(int(), int(0, { maximum: 3 }), 9), []);
    assert.deepEqual(losses(arr(num()), arr(int()), [1, 2.5]), [{ path: '/p/1', before: 2.5, after: 2 }]);
  });
});
