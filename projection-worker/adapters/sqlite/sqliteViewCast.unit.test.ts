import assert from 'node:assert/strict';
import { test } from 'node:test';
import { castValue, parseTimestamp } from '../../../contracts/index.ts';
import { sqlCast } from './sqliteViewCast.ts';
import { jsonPath } from './sqliteViewSql.ts';

test('text cast: strings as is, numbers and booleans as JSON text', () => {
  assert.equal(castValue('text', 'x'), 'x');
  assert.equal(castValue('text', 10), '10');
  assert.equal(castValue('text', 2.5), '2.5');
  assert.equal(castValue('text', false), 'false');
  assert.equal(castValue('text', null), null);
  assert.equal(castValue('text', { a: 1 }), null);
});

test('int and float casts take numbers and numeric strings', () => {
  assert.equal(castValue('int', '3.7'), 3);
  assert.equal(castValue('int', -3.7), -3);
  assert.ok(Object.is(castValue('int', '-0.5'), 0));
  assert.equal(castValue('int', '1e3'), 1000);
  assert.equal(castValue('int', ' 5'), null);
  assert.equal(castValue('int', 'abc'), null);
  assert.equal(castValue('int', true), null);
  assert.equal(castValue('float', '.5'), 0.5);
  assert.equal(castValue('float', '1e400'), null);
  assert.equal(castValue('float', ''), null);
});

test('boolean cast accepts booleans only', () => {
  assert.equal(castValue('boolean', true), 1);
  assert.equal(castValue('boolean', false), 0);
  assert.equal(castValue('boolean', 'true'), null);
  assert.equal(castValue('boolean', 1), null);
});

test('timestamps are ISO 8601 date-times compared as instants', () => {
  const utc = Date.UTC(2025, 0, 1);
  assert.equal(parseTimestamp('2025-01-01T00:00:00Z'), utc);
  assert.equal(parseTimestamp('2025-01-01T01:00:00+01:00'), utc);
  assert.equal(parseTimestamp('2024-12-31T23:00:00-0100'), utc);
  assert.equal(parseTimestamp('2025-01-01 00:00'), utc, 'no offset means UTC');
  assert.equal(parseTimestamp('2025-01-01T00:00:00.123456z'), utc + 123);
  assert.equal(parseTimestamp('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29));
  const bad = ['2025-02-29T00:00:00Z', '2025-02-30T00:00:00Z', '2025-13-01T00:00:00Z', '2025-01-01T24:00:00Z'];
  for (const value of [...bad, '2025-01-01T00:00:00+24:00', '2025-01-01', 'x']) {
    assert.equal(parseTimestamp(value), null, value);
  }
  assert.equal(castValue('timestamp', 1735689600000), null, 'numbers are not timestamps');
});

test('sqlCast maps SQLite values and json_type names', () => {
  assert.equal(sqlCast('int', '12', 'text'), 12);
  assert.equal(sqlCast('text', 1, 'true'), 'true');
  assert.equal(sqlCast('text', 0, 'false'), 'false');
  assert.equal(sqlCast('boolean', 1, 'boolean'), 1);
  assert.equal(sqlCast('text', 2, 'integer'), '2');
  assert.equal(sqlCast('text', '[1]', 'array'), null);
  assert.equal(sqlCast('text', null, 'null'), null);
  assert.equal(sqlCast('nope', 'x', 'text'), null);
});

test('json paths quote property names and bracket indexes', () => {
  assert.equal(jsonPath([]), '$');
  assert.equal(jsonPath(['a.b', 0, 'it\'s "q"']), '$."a.b"[0]."it\'s \\"q\\""');
  assert.throws(() => jsonPath([-1]));
  assert.throws(() => jsonPath([1.5]));
});
