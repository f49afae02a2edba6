import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MERGE_LAWS_SEED, assertMergeLaws } from '../testing/mergeLaws.ts';

// The laws of issue 26 item 5 over random two-branch histories, fixed seed (the larger run: npm run bench -- merge-laws).
test('three-way merge laws hold over random two-branch histories (fixed seed)', () => {
  const stats = assertMergeLaws(250, MERGE_LAWS_SEED, {
    schemaPatches: true,
    // On once TABLE_ID_TAKEN resolved THEIRS stops deleting our table that holds the id when theirs keeps that table
    // (under its base id, or moved by a TABLE_RENAME resolved THEIRS): the rows rules' holder fates, for tables.
    reuseTableIds: false,
  });
  // The histories reach what the laws are about: applied merges, bases moved by earlier merges, conflicts.
  assert.ok(
    stats.applied > 100 && stats.movedBase > 20 && stats.conflicts > 20 && stats.upToDate > 100 && stats.crissCross > 0,
    JSON.stringify(stats),
  );
});
