import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threeWayMerge } from './threeWayMerge.ts';
import type { MergeStrategy, SideRowChange } from './mergeTypes.ts';
import type { DraftOperation } from '../commands/draftChanges.ts';
import { applyDraftOperations } from '../testing/mergeContent.ts';
import { checkHistory, createMergeLawStats, type HistoryCase } from '../testing/mergeLaws.ts';
import { TABLE_SCHEMA } from '../testing/mergeHistoryOps.ts';

// ROW_ID_TAKEN where the holder is a row ours renamed onto the id and theirs keeps under its old id (merge.md §2.2,
// §2.4): resolving THEIRS gives the id to theirs' row and puts the holder back where theirs has it; no row is lost.
type Data = { a: number; b: { c: number; d: number }; tags: number[] };
const row = (tags: number[]): Data => ({ a: 0, b: { c: 0, d: 0 }, tags });
const schema = { type: 'object' };
const table = (rows: SideRowChange[]) => [{ baseTableId: 't', tableId: 't', schemaChanged: false, baseSchema: schema, schema, rows }];

/** Table `t` of the draft after the merge's operations. */
function applyOperations(rows: Map<string, Data>, operations: readonly DraftOperation[]): Map<string, Data> {
  const content = new Map([['t', { key: 'k', schema, rows }]]);
  const after = applyDraftOperations(content, operations, { newTableKey: () => 'new', mark: () => undefined });
  return after.get('t')?.rows as Map<string, Data>;
}

/** A history of table `t` (rows r0…): `main` writes ours, `feat` writes theirs and commits, then feat merges into main. */
function renameHistory(rows: number, main: HistoryCase['ops'], feat: HistoryCase['ops'], strategy: 'OURS' | 'THEIRS'): HistoryCase {
  const d = { a: 0, b: { c: 0, d: 0 }, tags: [] as number[] };
  return {
    initial: new Map([['t', { key: 'k', schema: TABLE_SCHEMA, rows: new Map(Array.from({ length: rows }, (_, i) => [`r${i}`, d])) }]]),
    ops: [...main, ...feat, { kind: 'commit', branch: 1 }, { kind: 'merge', into: 0, strategy, picks: [true] }],
  };
}
const LAW_OPTIONS = { schemaPatches: false, reuseTableIds: true };

/** Base {r0, r1}; ours renamed r0 → n0 (X); theirs renamed r1 → n0 and kept X as r0 (changed or not). */
function mergeCase(strategy: MergeStrategy, theirsChangesX: boolean) {
  const oursContent = new Map<string, Data>([
    ['n0', row([0])],
    ['r1', row([])],
  ]);
  const ours: SideRowChange[] = [{ baseRowId: 'r0', rowId: 'n0', base: row([]), data: row([0]) }];
  const theirs: SideRowChange[] = [
    ...(theirsChangesX ? [{ baseRowId: 'r0', rowId: 'r0', base: row([]), data: row([1]) }] : []),
    { baseRowId: 'r1', rowId: 'n0', base: row([]), data: row([]) },
  ];
  const result = threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: table(ours),
    theirs: table(theirs),
    oursTableIds: new Set(['t']),
    oursRow: (_t, id) => oursContent.get(id) ?? null,
    resolutions: [],
    strategy,
  });
  return { result, after: Object.fromEntries([...applyOperations(oursContent, result.operations)].sort(([a], [b]) => a.localeCompare(b))) };
}

test('THEIRS on ROW_ID_TAKEN: theirs row takes the id, the holder ours renamed there goes back to its id on theirs', () => {
  const { result, after } = mergeCase('THEIRS', true);
  assert.deepEqual(
    result.conflicts.map((k) => [k.kind, k.rowId, k.path]),
    [
      ['ROW_UPDATE', 'n0', '/tags'],
      ['ROW_ID_TAKEN', 'r1', null],
    ],
  );
  // X keeps its data merged (the /tags conflict resolved THEIRS) under r0; r1's row moved onto n0.
  assert.deepEqual(after, { n0: row([]), r0: row([1]) });
});

test('THEIRS on ROW_ID_TAKEN when theirs did not touch the holder: the holder goes back to its base id', () => {
  const { result, after } = mergeCase('THEIRS', false);
  assert.deepEqual(
    result.conflicts.map((k) => k.kind),
    ['ROW_ID_TAKEN'],
  );
  assert.deepEqual(after, { n0: row([]), r0: row([0]) });
});

test('OURS on the same conflicts keeps both rows where ours has them', () => {
  const { after } = mergeCase('OURS', true);
  assert.deepEqual(after, { n0: row([0]), r1: row([]) });
});

test("THEIRS when ours added a row under the holder's old id: nothing moves, no row is lost", () => {
  const oursContent = new Map<string, Data>([
    ['n0', row([0])],
    ['r0', row([2])],
    ['r1', row([])],
  ]);
  const result = threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: table([
      { baseRowId: 'r0', rowId: 'n0', base: row([]), data: row([0]) },
      { baseRowId: null, rowId: 'r0', base: null, data: row([2]) },
    ]),
    theirs: table([{ baseRowId: 'r1', rowId: 'n0', base: row([]), data: row([]) }]),
    oursTableIds: new Set(['t']),
    oursRow: (_t, id) => oursContent.get(id) ?? null,
    resolutions: [],
    strategy: 'THEIRS',
  });
  assert.deepEqual(
    result.conflicts.map((k) => [k.kind, k.rowId]),
    [['ROW_ID_TAKEN', 'r1']],
  );
  assert.deepEqual(result.open, []);
  assert.deepEqual(applyOperations(oursContent, result.operations), oursContent);
});

test('the shrunk counterexample of seed 20261129 keeps every merge law', () => {
  // Ours renames r0 → n0 and appends to its tags; theirs appends to r0's tags and renames r1 → n0.
  const history = renameHistory(
    2,
    [
      { kind: 'renameRow', branch: 0, table: 0, row: 0, id: 'n0' },
      { kind: 'append', branch: 0, table: 0, row: 0, value: 0 },
    ],
    [
      { kind: 'append', branch: 1, table: 0, row: 0, value: 1 },
      { kind: 'renameRow', branch: 1, table: 0, row: 1, id: 'n0' },
    ],
    'THEIRS',
  );
  const stats = createMergeLawStats();
  checkHistory(history, LAW_OPTIONS, stats);
  assert.deepEqual([stats.merges, stats.applied, stats.conflicts], [1, 1, 1]);
});

test('THEIRS on two renames theirs made the other way round swaps the rows through a spare id the draft does not use', () => {
  // Base {r0, r1}; ours r0 → a, r1 → b; theirs r0 → b, r1 → a. Ours also has a row under the first spare id.
  const oursContent = new Map<string, Data>([
    ['a', row([0])],
    ['b', row([1])],
    ['merge-swap-1', row([9])],
  ]);
  const result = threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: table([
      { baseRowId: 'r0', rowId: 'a', base: row([0]), data: row([0]) },
      { baseRowId: 'r1', rowId: 'b', base: row([1]), data: row([1]) },
    ]),
    theirs: table([
      { baseRowId: 'r0', rowId: 'b', base: row([0]), data: row([0]) },
      { baseRowId: 'r1', rowId: 'a', base: row([1]), data: row([1]) },
    ]),
    oursTableIds: new Set(['t']),
    oursRow: (_t, id) => oursContent.get(id) ?? null,
    resolutions: [],
    strategy: 'THEIRS',
  });
  assert.ok(result.conflicts.some((k) => k.kind === 'ROW_RENAME'));
  const renames = result.operations.filter((op) => op.type === 'RenameRow').map((op) => [op.rowId, op.nextRowId]);
  assert.deepEqual(renames, [
    ['a', 'merge-swap-2'],
    ['b', 'a'],
    ['merge-swap-2', 'b'],
  ]);
  const after = applyOperations(oursContent, result.operations);
  assert.deepEqual(Object.fromEntries([...after].sort(([x], [y]) => x.localeCompare(y))), { a: row([1]), b: row([0]), 'merge-swap-1': row([9]) });
  assert.deepEqual(
    result.tables.map((t) => t.rowChanges.renamed),
    [2],
  );
});

test('the shrunk counterexample of seed 1 (a swap of renames, THEIRS) keeps every merge law', () => {
  // Base r0…r3; ours renames r1 → n2, r3 → n0; theirs renames r3 → n2, r1 → n0 (rows picked by sorted id).
  const history = renameHistory(
    4,
    [
      { kind: 'renameRow', branch: 0, table: 0, row: 1, id: 'n2' },
      { kind: 'renameRow', branch: 0, table: 0, row: 3, id: 'n0' },
    ],
    [
      { kind: 'renameRow', branch: 1, table: 0, row: 3, id: 'n2' },
      { kind: 'renameRow', branch: 1, table: 0, row: 2, id: 'n0' },
    ],
    'THEIRS',
  );
  const stats = createMergeLawStats();
  checkHistory(history, LAW_OPTIONS, stats);
  assert.deepEqual([stats.merges, stats.applied, stats.conflicts], [1, 1, 1]);
});

test("THEIRS on ROW_ID_TAKEN whose holder theirs moves elsewhere, that move resolved OURS: the holder stays, theirs' row too", () => {
  // Base {r0, r1}; ours renamed r1 → r2; theirs renamed r1 → n2 (ROW_RENAME) and r0 → r2 (ROW_ID_TAKEN).
  const oursContent = new Map<string, Data>([
    ['r0', row([0])],
    ['r2', row([1])],
  ]);
  const run = (takes: Record<string, 'OURS' | 'THEIRS'>) => {
    const input = {
      sourceRevisionId: 'src',
      baseRevisionId: 'base',
      ours: table([{ baseRowId: 'r1', rowId: 'r2', base: row([1]), data: row([1]) }]),
      theirs: table([
        { baseRowId: 'r0', rowId: 'r2', base: row([0]), data: row([0]) },
        { baseRowId: 'r1', rowId: 'n2', base: row([1]), data: row([1]) },
      ]),
      oursTableIds: new Set(['t']),
      oursRow: (_t: string, id: string) => oursContent.get(id) ?? null,
      strategy: 'FAIL' as const,
    };
    const { conflicts } = threeWayMerge({ ...input, resolutions: [] });
    const resolutions = conflicts.map((k) => ({ conflictId: k.id, take: takes[k.kind] ?? 'OURS' }));
    const result = threeWayMerge({ ...input, resolutions });
    assert.deepEqual(result.open, []);
    return Object.fromEntries([...applyOperations(oursContent, result.operations)].sort(([a], [b]) => a.localeCompare(b)));
  };
  // Was: r0 renamed onto r2 while the holder kept r2 (the draft refused the rename).
  assert.deepEqual(run({ ROW_ID_TAKEN: 'THEIRS', ROW_RENAME: 'OURS' }), { r0: row([0]), r2: row([1]) });
  assert.deepEqual(run({ ROW_ID_TAKEN: 'THEIRS', ROW_RENAME: 'THEIRS' }), { n2: row([1]), r2: row([0]) });
});
