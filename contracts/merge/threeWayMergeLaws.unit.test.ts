import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MERGE_LAWS_SEED, assertMergeLaws, checkHistory, createMergeLawStats } from '../testing/mergeLaws.ts';
import { TABLE_SCHEMA } from '../testing/mergeHistoryOps.ts';

// The laws of issue 26 item 5 over random two-branch histories, fixed seed (the larger run: npm run bench -- merge-laws).
test('three-way merge laws hold over random two-branch histories (fixed seed)', () => {
  const stats = assertMergeLaws(250, MERGE_LAWS_SEED, {
    schemaPatches: true,
    reuseTableIds: true,
  });
  // The histories reach what the laws are about: applied merges, bases moved by earlier merges, conflicts.
  assert.ok(
    stats.applied > 100 && stats.movedBase > 20 && stats.conflicts > 20 && stats.upToDate > 100 && stats.crissCross > 0,
    JSON.stringify(stats),
  );
});

// The bench's seed 20261128 case, by hand: a field renamed onto a name the other side added with another type, the
// schema conflict taken THEIRS: the merge replaces our field node (integer → array, converted per domain.md §6).
test('merge laws: a schema conflict taken THEIRS replaces a field node of another type (a converted type change)', () => {
  const row = { a: 1, b: { c: 0, d: 0 }, tags: [2, 3] };
  const initial = new Map([['t', { key: 'base-0', schema: structuredClone(TABLE_SCHEMA), rows: new Map([['r0', row]]) }]]);
  const stats = createMergeLawStats();
  checkHistory(
    {
      initial,
      ops: [
        { kind: 'renameField', branch: 0, table: 0, field: 'tags', to: 'e' },
        { kind: 'commit', branch: 0 },
        { kind: 'addField', branch: 1, table: 0, field: 'e' },
        { kind: 'merge', into: 1, strategy: 'THEIRS', picks: [true] },
      ],
    },
    { schemaPatches: true, reuseTableIds: true },
    stats,
  );
  assert.equal(stats.applied, 1);
  assert.equal(stats.conflicts, 1);
});

// Seed 1's case, by hand: main keeps its schema (field e an integer) over feat's (tags renamed to e, an array) in a
// PICK merge; feat's later new row reaches main's schema with its e converted (array → integer), not verbatim.
test('merge laws: a row of theirs replayed on our schema keeps its values through a field type change', () => {
  const row = { a: 0, b: { c: 0, d: 0 }, tags: [] };
  const initial = new Map([['t', { key: 'base-0', schema: structuredClone(TABLE_SCHEMA), rows: new Map([['r0', row]]) }]]);
  const stats = createMergeLawStats();
  checkHistory(
    {
      initial,
      ops: [
        { kind: 'addField', branch: 0, table: 0, field: 'e' },
        { kind: 'renameField', branch: 1, table: 0, field: 'tags', to: 'e' },
        { kind: 'commit', branch: 1 },
        { kind: 'merge', into: 0, strategy: 'PICK', picks: [false] },
        { kind: 'createRow', branch: 1, table: 0, id: 'n1', value: 3 },
        { kind: 'commit', branch: 1 },
        { kind: 'merge', into: 0, strategy: 'FAIL', picks: [false] },
      ],
    },
    { schemaPatches: true, reuseTableIds: true },
    stats,
  );
  assert.equal(stats.applied, 2);
});
