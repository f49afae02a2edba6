import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threeWayMerge } from './threeWayMerge.ts';
import type { SideRowChange } from './mergeTypes.ts';

// Resolutions of the result checks (merge.md §2.3) come back as row overrides by result table and row id; REMOVE
// (null) leaves the result's row out, wherever the merge took it from.
const schema = { type: 'object' };
const merge = (theirs: SideRowChange[], overrides: [string, Record<string, unknown> | null][]) =>
  threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: [],
    theirs: [{ baseTableId: 't', tableId: 'u', schemaChanged: false, baseSchema: schema, schema, rows: theirs }],
    oursTableIds: new Set(['t']),
    oursRow: () => null,
    resolutions: [],
    strategy: 'FAIL',
    rowOverrides: new Map([['u', new Map(overrides)]]),
  }).operations;

test('REMOVE of a row theirs renamed deletes it under its draft id and drops the rename (was: a deletion of the new id)', () => {
  const renamed: SideRowChange = { baseRowId: 'p1', rowId: 'first', base: { a: 0 }, data: { a: 1 } };
  assert.deepEqual(merge([renamed], [['first', null]]), [
    { type: 'RenameTable', tableId: 't', nextTableId: 'u' },
    { type: 'DeleteRows', tableId: 'u', rowIds: ['p1'] },
  ]);
  assert.deepEqual(merge([renamed], [['first', { a: 2 }]]).slice(1), [
    { type: 'RenameRow', tableId: 'u', rowId: 'p1', nextRowId: 'first' },
    { type: 'UpsertRows', tableId: 'u', rows: [{ rowId: 'first', data: { a: 2 } }] },
  ]);
});

test('REMOVE of a row only theirs adds leaves it unwritten; of a row of the draft, deletes it', () => {
  const added: SideRowChange = { baseRowId: null, rowId: 'n1', base: null, data: { a: 1 } };
  assert.deepEqual(merge([added], [['n1', null]]), [{ type: 'RenameTable', tableId: 't', nextTableId: 'u' }]);
  assert.deepEqual(merge([], [['r0', null]]).slice(1), [{ type: 'DeleteRows', tableId: 'u', rowIds: ['r0'] }]);
});
