import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threeWayMerge } from './threeWayMerge.ts';
import type { MergeStrategy, SideTableChange } from './mergeTypes.ts';
import { checkHistory, createMergeLawStats, type HistoryCase } from '../testing/mergeLaws.ts';
import { TABLE_SCHEMA } from '../testing/mergeHistoryOps.ts';

// A table renamed onto the id of a table removed on the same side (merge.md §2.1): the removal and the rename are
// two tables of the result under one id, written apart (found by the merge laws, seed 20261128).
const schema = { type: 'object' };
const row = { a: 0 };
const removed = (id: string, rows = [] as string[]): SideTableChange => ({
  baseTableId: id,
  tableId: null,
  schemaChanged: false,
  baseSchema: schema,
  schema: null,
  rows: rows.map((rowId) => ({ baseRowId: rowId, rowId: null, base: row, data: null })),
});
const renamed = (from: string, to: string): SideTableChange => ({
  baseTableId: from,
  tableId: to,
  schemaChanged: false,
  baseSchema: schema,
  schema,
  rows: [],
});

function merge(ours: SideTableChange[], theirs: SideTableChange[], oursTableIds: string[], strategy: MergeStrategy) {
  return threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours,
    theirs,
    oursTableIds: new Set(oursTableIds),
    oursRow: () => null,
    resolutions: [],
    strategy,
  });
}

test('theirs removes u and renames t to u: the draft drops u, then renames t to u (either order of the changes)', () => {
  for (const theirs of [
    [removed('u'), renamed('t', 'u')],
    [renamed('t', 'u'), removed('u')],
  ]) {
    const result = merge([], theirs, ['t', 'u'], 'FAIL');
    assert.deepEqual(result.conflicts, []);
    assert.deepEqual(result.operations, [
      { type: 'DeleteTable', tableId: 'u' },
      { type: 'RenameTable', tableId: 't', nextTableId: 'u' },
    ]);
    assert.deepEqual(
      result.tables.map((t) => [t.tableId, t.change, t.previousTableId]),
      [
        ['u', 'REMOVED', null],
        ['u', 'RENAMED', 't'],
      ],
    );
  }
});

test('THEIRS on both conflicts of u (ours changed it; theirs removed it and renamed t onto it) deletes u once', () => {
  const oursChanged: SideTableChange = {
    baseTableId: 'u',
    tableId: 'u',
    schemaChanged: false,
    baseSchema: schema,
    schema,
    rows: [{ baseRowId: null, rowId: 'r0', base: null, data: row }],
  };
  const result = merge([oursChanged], [removed('u'), renamed('t', 'u')], ['t', 'u'], 'THEIRS');
  assert.deepEqual(
    result.conflicts.map((k) => [k.kind, k.tableId]),
    [
      ['TABLE_ID_TAKEN', 't'],
      ['TABLE_REMOVED_CHANGED', 'u'],
    ],
  );
  assert.deepEqual(result.operations, [
    { type: 'DeleteTable', tableId: 'u' },
    { type: 'RenameTable', tableId: 't', nextTableId: 'u' },
  ]);
});

const changed = (id: string, to = id, rows = [{ baseRowId: 'r0', rowId: 'r0', base: row, data: { a: 1 } }]): SideTableChange => ({
  baseTableId: id,
  tableId: to,
  schemaChanged: false,
  baseSchema: schema,
  schema,
  rows,
});
const added = (id: string): SideTableChange => ({
  baseTableId: null,
  tableId: id,
  schemaChanged: false,
  baseSchema: null,
  schema,
  rows: [{ baseRowId: null, rowId: 'n0', base: null, data: row }],
});
const kinds = (result: ReturnType<typeof merge>) => result.conflicts.map((k) => [k.kind, k.tableId]);

test('ours removed u and renamed t onto it, theirs changed u: bringing u back needs the id too (both directions)', () => {
  const oursSide = [renamed('t', 'u'), removed('u', ['r0'])];
  const theirsSide = [changed('u')];
  assert.deepEqual(kinds(merge(oursSide, theirsSide, ['u'], 'FAIL')), [
    ['TABLE_ID_TAKEN', 'u'],
    ['TABLE_REMOVED_CHANGED', 'u'],
  ]);
  assert.deepEqual(kinds(merge(theirsSide, oursSide, ['t', 'u'], 'FAIL')), [
    ['TABLE_ID_TAKEN', 't'],
    ['TABLE_REMOVED_CHANGED', 'u'],
  ]);
  assert.deepEqual(merge(oursSide, theirsSide, ['u'], 'OURS').operations, []);
  // THEIRS: theirs' u comes back; our t, which ours renamed onto u and theirs keeps as t, goes back to t.
  assert.deepEqual(merge(oursSide, theirsSide, ['u'], 'THEIRS').operations, [
    { type: 'RenameTable', tableId: 'u', nextTableId: 't' },
    { type: 'CreateTable', tableId: 'u', schema },
    { type: 'UpsertRows', tableId: 'u', rows: [{ rowId: 'r0', data: { a: 1 } }] },
  ]);
});

test("two renames of t where theirs' id is another table of ours: TABLE_ID_TAKEN as well, THEIRS replaces that table", () => {
  const result = merge([renamed('t', 'v'), added('w')], [renamed('t', 'w')], ['v', 'w'], 'THEIRS');
  assert.deepEqual(kinds(result), [
    ['TABLE_RENAME', 'v'],
    ['TABLE_ID_TAKEN', 'w'],
  ]);
  assert.deepEqual(result.operations, [
    { type: 'DeleteTable', tableId: 'w' },
    { type: 'RenameTable', tableId: 'v', nextTableId: 'w' },
  ]);
  assert.deepEqual(merge([renamed('t', 'v'), added('w')], [renamed('t', 'w')], ['v', 'w'], 'OURS').operations, []);
});

test('the shrunk counterexample (feat removes u, renames t to u; main merges it) keeps every merge law', () => {
  const d = { a: 0, b: { c: 0, d: 0 }, tags: [] as number[] };
  const history: HistoryCase = {
    initial: new Map([
      ['t', { key: 'k0', schema: TABLE_SCHEMA, rows: new Map([['r0', d]]) }],
      ['u', { key: 'k1', schema: TABLE_SCHEMA, rows: new Map() }],
    ]),
    ops: [
      { kind: 'deleteTable', branch: 1, table: 1 },
      { kind: 'renameTable', branch: 1, table: 0, id: 'u' },
      { kind: 'commit', branch: 1 },
      { kind: 'merge', into: 0, strategy: 'FAIL', picks: [true] },
      { kind: 'leaf', branch: 0, table: 0, row: 0, field: 'a', value: 2 },
      { kind: 'commit', branch: 0 },
      { kind: 'merge', into: 1, strategy: 'FAIL', picks: [true] },
    ],
  };
  const stats = createMergeLawStats();
  checkHistory(history, { schemaPatches: false, reuseTableIds: true }, stats);
  assert.deepEqual([stats.merges, stats.applied, stats.movedBase], [2, 2, 1]);
});

test("row conflicts in a table theirs renamed name our table id (merge.md §2.4); the rows still go to theirs' id", () => {
  const edited = (tableId: string, a: number): SideTableChange => ({
    ...renamed('t', tableId),
    rows: [{ baseRowId: 'r1', rowId: 'r1', base: row, data: { a } }],
  });
  const first = merge([edited('t', 1)], [edited('u', 2)], ['t'], 'FAIL');
  assert.deepEqual(
    first.conflicts.map((k) => [k.kind, k.tableId, k.rowId, k.path]),
    [['ROW_UPDATE', 't', 'r1', '/a']],
  );
  const again = merge([edited('t', 1)], [edited('u', 2)], ['t'], 'FAIL');
  assert.equal(again.conflicts[0]?.id, first.conflicts[0]?.id, 'the id is stable');
  const theirs = merge([edited('t', 1)], [edited('u', 2)], ['t'], 'THEIRS');
  assert.deepEqual(theirs.operations, [
    { type: 'RenameTable', tableId: 't', nextTableId: 'u' },
    { type: 'UpsertRows', tableId: 'u', rows: [{ rowId: 'r1', data: { a: 2 } }] },
  ]);
});
