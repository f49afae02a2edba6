import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionLayout } from './mongoViewLayout.ts';
import type { JsonTest } from '../../../contracts/index.ts';
import { createQueryBuilder } from './mongoViewFilter.ts';
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
  const again = sortIndexOf(layout, {
    equal: ['branchId'],
    sort: [
      { ref: { field: 'createdAt' }, direction: 'desc' },
      { ref: { field: 'rowId' }, direction: 'asc' },
    ],
  });
  assert.equal(again?.name, index?.name);
});

test('sorts on casts run as aggregations: no index', () => {
  assert.equal(
    sortIndexOf(layout, { equal: ['branchId'], sort: [{ ref: { field: 'data', path: ['views'], cast: 'float' }, direction: 'asc' }] }),
    null,
  );
  assert.equal(sortIndexOf(layout, { equal: ['branchId'], sort: [{ ref: { field: 'createdAt', cast: 'timestamp' }, direction: 'asc' }] }), null);
  assert.equal(sortIndexOf(layout, { equal: ['branchId'], sort: [{ ref: { field: 'data', path: ['tags', '*'] }, direction: 'asc' }] }), null);
});

test('a field index (domain.md §5.5) is on the document path, which the filters on that path query', () => {
  const fieldIndex = (path: string[]) =>
    sortIndexOf(layout, {
      equal: ['branchId'],
      sort: [
        { ref: { field: 'data', path }, direction: 'asc' },
        { ref: { field: 'rowId' }, direction: 'asc' },
      ],
    });
  assert.deepEqual(fieldIndex(['sku'])?.key, { branchId: 1, 'data.sku': 1, rowId: 1 });
  assert.deepEqual(fieldIndex(['address', 'zip'])?.key, { branchId: 1, 'data.address.zip': 1, rowId: 1 });
  assert.match(String(fieldIndex(['sku'])?.name), /^sort_[0-9a-f]{16}$/);
  // Included fields (SortIndex.include) follow the sort keys on their document paths, without repeating one.
  const covering = sortIndexOf(layout, {
    equal: ['branchId'],
    sort: [{ ref: { field: 'data', path: ['sku'] }, direction: 'asc' }],
    include: [{ field: 'rowId' }, { field: 'createdAt' }, { field: 'data', path: ['sku'] }],
  });
  assert.deepEqual(covering?.key, { branchId: 1, 'data.sku': 1, rowId: 1, createdAt: 1 });
  // The equality, `in` and range filters of the row query on that path: plain conditions on the same document path.
  const builder = createQueryBuilder(layout);
  const on = (test: JsonTest) => builder.where({ kind: 'json', field: 'data', path: ['sku'], test });
  const notArray = { $not: { $type: 'array' } };
  assert.deepEqual(on({ op: 'equals', value: 'A-1' }), { data: notArray, 'data.sku': { $eq: 'A-1', ...notArray } });
  assert.deepEqual(on({ op: 'in', values: ['A-1', 'B-2'] }), { data: notArray, 'data.sku': { $in: ['A-1', 'B-2'], ...notArray } });
  assert.deepEqual(on({ op: 'gte', value: 'B' }), { data: notArray, 'data.sku': { $gte: 'B', ...notArray } });
});

test('unknown fields are refused', () => {
  assert.throws(() => sortIndexOf(layout, { equal: ['nope'], sort: [] }));
  assert.throws(() => sortIndexOf(layout, { equal: [], sort: [] }));
});
