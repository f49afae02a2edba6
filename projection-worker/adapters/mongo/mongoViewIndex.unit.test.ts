import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionLayout } from './mongoViewLayout.ts';
import { sortIndexOf } from './mongoViewIndex.ts';

const layout = collectionLayout('rows', 1, {
  name: 'rows',
  key: ['branchId', 'rowId'],
  fields: { branchId: 'text', rowId: 'text', createdAt: 'text', data: 'json' },
});

test('an index over the equality fields, then the find sort (null flags before nullable fields)', () => {
  const index = sortIndexOf(layout, {
    equal: ['branchId'],
    sort: [
      { ref: { field: 'createdAt' }, direction: 'desc' },
      { ref: { field: 'rowId' }, direction: 'asc' },
    ],
  });
  assert.deepEqual(index?.key, { branchId: 1, '_nulls.createdAt': 1, createdAt: -1, rowId: 1 });
  assert.match(String(index?.name), /^sort_[0-9a-f]{16}$/);
  const again = sortIndexOf(layout, { equal: ['branchId'], sort: [{ ref: { field: 'createdAt' }, direction: 'desc' }, { ref: { field: 'rowId' }, direction: 'asc' }] });
  assert.equal(again?.name, index?.name);
});

test('sorts on casts or json paths run as aggregations: no index', () => {
  assert.equal(sortIndexOf(layout, { equal: ['branchId'], sort: [{ ref: { field: 'data', path: ['views'] }, direction: 'asc' }] }), null);
  assert.equal(sortIndexOf(layout, { equal: ['branchId'], sort: [{ ref: { field: 'createdAt', cast: 'timestamp' }, direction: 'asc' }] }), null);
});

test('unknown fields are refused', () => {
  assert.throws(() => sortIndexOf(layout, { equal: ['nope'], sort: [] }));
  assert.throws(() => sortIndexOf(layout, { equal: [], sort: [] }));
});
