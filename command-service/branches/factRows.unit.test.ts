import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FactRows, clearMisses, createFactMisses, hasMisses } from './factRows.ts';

test('a FactRows answers for gathered keys and records every other read as a miss', () => {
  const misses = createFactMisses();
  const rows = new FactRows<string>('t1', 'head', misses, 1_000_000);
  rows.absorb('a', 'A');
  rows.absorb('gone', undefined);
  assert.equal(rows.get('a'), 'A');
  assert.equal(rows.has('gone'), false);
  assert.equal(hasMisses(misses), false, 'known keys, present or absent, are no misses');
  assert.equal(rows.get('b'), undefined);
  assert.equal(rows.has('c'), false);
  assert.deepEqual([...(misses.rows.get('t1') ?? [])], ['b', 'c']);
  assert.equal(rows.size, 1_000_000, 'HEAD size is the row count, known without the rows');
  assert.equal(hasMisses(misses), true);
  clearMisses(misses);
  assert.equal(hasMisses(misses), false);
});

test('iterating a side that is not gathered whole is a miss of the whole side; absorb never overwrites a fold', () => {
  const misses = createFactMisses();
  const draft = new FactRows<string | null>('t2', 'draft', misses);
  draft.set('x', 'folded');
  draft.absorb('x', 'stale');
  assert.equal(draft.get('x'), 'folded', 'a key written by a fold keeps the fold');
  assert.deepEqual([...draft.keys()], ['x']);
  assert.deepEqual([...misses.fullDraft], ['t2']);
  void draft.size;
  clearMisses(misses);
  draft.delete('y');
  assert.equal(draft.has('y'), false);
  assert.equal(hasMisses(misses), false, 'a deleted key is known absent');
  draft.markComplete();
  assert.equal(draft.get('z'), undefined);
  assert.deepEqual([...draft], [['x', 'folded']]);
  assert.equal(draft.size, 1);
  assert.equal(hasMisses(misses), false, 'a complete side answers everything');
});
