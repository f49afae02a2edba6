import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedTakes, effectiveTake, resolutionsOf, type MergeChoice } from './mergeChoices.ts';

test('allowed takes follow merge.md §2.4 per kind', () => {
  assert.deepEqual(allowedTakes('TABLE_SCHEMA'), ['OURS', 'THEIRS']);
  assert.deepEqual(allowedTakes('TABLE_RENAME'), ['OURS', 'THEIRS']);
  assert.deepEqual(allowedTakes('ROW_UPDATE'), ['OURS', 'THEIRS', 'VALUE']);
  assert.deepEqual(allowedTakes('ROW_REMOVED_CHANGED'), ['OURS', 'THEIRS', 'VALUE', 'REMOVE']);
  assert.deepEqual(allowedTakes('ROW_ID_TAKEN'), ['OURS', 'THEIRS', 'VALUE', 'REMOVE']);
  assert.deepEqual(allowedTakes('INVALID_DATA'), ['VALUE', 'REMOVE']);
  assert.deepEqual(allowedTakes('FOREIGN_KEY'), ['VALUE', 'REMOVE']);
});

test('a choice wins over the strategy; a strategy never resolves INVALID_DATA or FOREIGN_KEY', () => {
  assert.equal(effectiveTake('ROW_UPDATE', undefined, 'FAIL'), null);
  assert.equal(effectiveTake('ROW_UPDATE', undefined, 'THEIRS'), 'THEIRS');
  assert.equal(effectiveTake('ROW_UPDATE', { take: 'OURS' }, 'THEIRS'), 'OURS');
  assert.equal(effectiveTake('FOREIGN_KEY', undefined, 'OURS'), null);
  assert.equal(effectiveTake('INVALID_DATA', { take: 'REMOVE' }, 'OURS'), 'REMOVE');
});

test('resolutions are sorted by conflict id and carry a value only with VALUE', () => {
  const choices = new Map<string, MergeChoice>([
    ['c2', { take: 'VALUE', value: { a: 1 } }],
    ['c1', { take: 'THEIRS', value: 'ignored' }],
    ['c3', { take: 'VALUE', value: null }],
  ]);
  assert.deepEqual(resolutionsOf(choices), [
    { conflictId: 'c1', take: 'THEIRS' },
    { conflictId: 'c2', take: 'VALUE', value: { a: 1 } },
    { conflictId: 'c3', take: 'VALUE', value: null },
  ]);
});
