import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threeWayMerge } from './threeWayMerge.ts';
import type { MergeStrategy, SideRowChange, SideTableChange } from './mergeTypes.ts';
import { applyDraftOperations, type Content } from '../testing/mergeContent.ts';
import { checkHistory, createMergeLawStats } from '../testing/mergeLaws.ts';
import { TABLE_SCHEMA } from '../testing/mergeHistoryOps.ts';

// TABLE_ID_TAKEN resolved THEIRS where our table holding the id is one theirs still has (merge.md §2.1, §2.4): theirs'
// table takes the id and the holder goes back to the id theirs has it under, as a holder row does (idHolders.ts);
// no table and none of its rows is lost.
type Data = { a: number };
const schema = { type: 'object' };
const row = (a: number): Data => ({ a });

const table = (baseTableId: string | null, tableId: string | null, rows: SideRowChange[] = []): SideTableChange => ({
  baseTableId,
  tableId,
  schemaChanged: false,
  baseSchema: baseTableId === null ? null : schema,
  schema: tableId === null ? null : schema,
  rows,
});
const changedRow = (rowId: string, from: number, to: number): SideRowChange => ({ baseRowId: rowId, rowId, base: row(from), data: row(to) });

/** The draft: table id → [its storage key, its rows]. */
type Draft = Record<string, [string, Record<string, Data>]>;

function merge(draft: Draft, ours: SideTableChange[], theirs: SideTableChange[], strategy: MergeStrategy) {
  const content: Content = new Map(Object.entries(draft).map(([id, [key, rows]]) => [id, { key, schema, rows: new Map(Object.entries(rows)) }]));
  const result = threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours,
    theirs,
    oursTableIds: new Set(content.keys()),
    oursRow: (tableId, rowId) => content.get(tableId)?.rows.get(rowId) ?? null,
    resolutions: [],
    strategy,
  });
  let created = 0;
  const after = applyDraftOperations(content, result.operations, { newTableKey: () => `new-${++created}`, mark: () => undefined });
  const tables: Draft = Object.fromEntries(
    [...after].sort(([x], [y]) => x.localeCompare(y)).map(([id, t]) => [id, [t.key, Object.fromEntries(t.rows) as Record<string, Data>]]),
  );
  return { result, tables, kinds: result.conflicts.map((k) => [k.kind, k.tableId]) };
}

// Base {a: r0, b: s0}. Ours renamed a → x and changed r0; theirs renamed b → x, kept a and changed its r0 elsewhere.
const oursSide = [table('a', 'x', [changedRow('r0', 0, 1)])];
const theirsSide = [table('b', 'x'), table('a', 'a', [{ baseRowId: null, rowId: 'r1', base: null, data: row(5) }])];
const draft: Draft = { x: ['ka', { r0: row(1) }], b: ['kb', { s0: row(0) }] };

test('THEIRS: theirs renamed b onto x, which holds our a: b takes x, our a goes back to a with the changes of both sides', () => {
  const { kinds, tables } = merge(draft, oursSide, theirsSide, 'THEIRS');
  assert.deepEqual(kinds, [['TABLE_ID_TAKEN', 'b']]);
  assert.deepEqual(tables, {
    a: ['ka', { r0: row(1), r1: row(5) }],
    x: ['kb', { s0: row(0) }],
  });
});

test('the same merge resolved OURS keeps both tables where ours has them (a still gets the row theirs added)', () => {
  const { tables } = merge(draft, oursSide, theirsSide, 'OURS');
  assert.deepEqual(tables, {
    b: ['kb', { s0: row(0) }],
    x: ['ka', { r0: row(1), r1: row(5) }],
  });
});

test('THEIRS when ours reused the id a for a new table: the holder cannot go back, so it keeps x and b stays b', () => {
  const ours = [...oursSide, table(null, 'a', [{ baseRowId: null, rowId: 'q', base: null, data: row(7) }])];
  const { result, tables } = merge({ ...draft, a: ['kn', { q: row(7) }] }, ours, theirsSide, 'THEIRS');
  assert.deepEqual(result.open, []);
  assert.deepEqual(tables, {
    a: ['kn', { q: row(7) }],
    b: ['kb', { s0: row(0) }],
    x: ['ka', { r0: row(1), r1: row(5) }],
  });
});

test('THEIRS on a table theirs added under x: it comes in, our a goes back to a (no table is replaced)', () => {
  const theirs = [table(null, 'x', [{ baseRowId: null, rowId: 'n0', base: null, data: row(9) }]), table('a', 'a', [changedRow('r2', 0, 3)])];
  const { result, kinds, tables } = merge({ x: ['ka', { r0: row(1), r2: row(0) }] }, oursSide, theirs, 'THEIRS');
  assert.deepEqual(kinds, [['TABLE_ID_TAKEN', 'x']]);
  assert.deepEqual(tables, {
    a: ['ka', { r0: row(1), r2: row(3) }],
    x: ['new-1', { n0: row(9) }],
  });
  assert.deepEqual(
    result.tables.map((t) => [t.tableId, t.change, t.previousTableId]),
    [
      ['a', 'RENAMED', 'x'],
      ['x', 'ADDED', null],
    ],
  );
});

test('THEIRS on a table theirs added under x while ours holds a as well: our x stays, theirs does not replace it', () => {
  // Ours renamed a → x and c → a (a cycle on our side); theirs added x: a is taken, so the holder stays on x.
  const ours = [table('a', 'x'), table('c', 'a')];
  const theirs = [table(null, 'x', [{ baseRowId: null, rowId: 'n0', base: null, data: row(9) }])];
  const { result, tables } = merge({ x: ['ka', { r0: row(1) }], a: ['kc', {}] }, ours, theirs, 'THEIRS');
  assert.deepEqual(result.open, []);
  assert.deepEqual(tables, { a: ['kc', {}], x: ['ka', { r0: row(1) }] });
});

test('THEIRS when the holder is a table only ours has: theirs replaces it, as before', () => {
  const { tables } = merge({ x: ['kx', { q: row(1) }], b: ['kb', {}] }, [table(null, 'x')], [table('b', 'x')], 'THEIRS');
  assert.deepEqual(tables, { x: ['kb', {}] });
});

test('the shrunk counterexample of the merge-laws bench (TABLE_RENAME THEIRS moves the holder itself) keeps every law', () => {
  // Base {t, u}; main creates w, renames t → v; feat renames t → w; feat merges main THEIRS: our w (t) goes to v
  // by the TABLE_RENAME, main's w takes w (was: w deleted first, then its rename failed).
  const initial = new Map([
    ['t', { key: 'base-0', schema: structuredClone(TABLE_SCHEMA), rows: new Map([['r0', { a: 0, b: { c: 0, d: 0 }, tags: [] }]]) }],
    ['u', { key: 'base-1', schema: structuredClone(TABLE_SCHEMA), rows: new Map() }],
  ]);
  const stats = createMergeLawStats();
  checkHistory(
    {
      initial,
      ops: [
        { kind: 'createTable', branch: 0, id: 'w', value: 0 },
        { kind: 'renameTable', branch: 0, table: 0, id: 'v' },
        { kind: 'renameTable', branch: 1, table: 0, id: 'w' },
        { kind: 'commit', branch: 0 },
        { kind: 'merge', into: 1, strategy: 'THEIRS', picks: [false] },
      ],
    },
    { schemaPatches: false, reuseTableIds: true },
    stats,
  );
  assert.deepEqual([stats.applied, stats.conflicts], [1, 1]);
});
