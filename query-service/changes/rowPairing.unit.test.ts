import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ViewDoc } from '../../contracts/index.ts';
import { fieldChangesOf } from './fieldChanges.ts';
import { pairRows, type RowMark } from './rowPairing.ts';

const rows = (entries: Record<string, unknown>): Map<string, ViewDoc> =>
  new Map(Object.entries(entries).map(([rowId, data]) => [rowId, { rowId, data }]));
const renamed = (seq: number, position: number, previousRowId: string, rowId: string): RowMark => ({
  seq,
  position: `p${position}`,
  kind: 'renamed',
  rowId,
  previousRowId,
});
const deleted = (seq: number, position: number, rowId: string): RowMark => ({
  seq,
  position: `p${position}`,
  kind: 'deleted',
  rowId,
  previousRowId: null,
});
const summary = (paired: ReturnType<typeof pairRows>) => paired.map((row) => `${row.change}:${row.previousRowId ?? ''}>${row.rowId}`);

test('same ids pair by id: equal data is unchanged, a deleted and re-created row with new data is updated', () => {
  const paired = pairRows(rows({ a: { n: 1 }, b: { n: 1 } }), rows({ a: { n: 1 }, b: { n: 2 } }), { toBase: [], toTarget: [deleted(2, 1, 'b')] });
  assert.deepEqual(summary(paired), ['UPDATED:>b']);
});

test('renames chain forward from the base, and a deletion on the way ends the trail', () => {
  const chain = pairRows(rows({ a: { n: 1 } }), rows({ c: { n: 1 } }), { toBase: [], toTarget: [renamed(2, 1, 'a', 'b'), renamed(3, 2, 'b', 'c')] });
  assert.deepEqual(summary(chain), ['RENAMED:a>c']);
  const ended = pairRows(rows({ a: { n: 1 } }), rows({ b: { n: 1 } }), { toBase: [], toTarget: [renamed(2, 1, 'a', 'b'), deleted(2, 2, 'b')] });
  assert.deepEqual(summary(ended), ['REMOVED:>a', 'ADDED:>b']);
  // A rename then a new row under the old id: ids pair first (domain.md §4 compares rows by id).
  const reused = pairRows(rows({ a: { n: 1 } }), rows({ a: { n: 9 }, b: { n: 1 } }), { toBase: [], toTarget: [renamed(2, 1, 'a', 'b')] });
  assert.deepEqual(summary(reused), ['UPDATED:>a', 'ADDED:>b']);
});

test('renames on the base side are walked back (newest first) before the target side', () => {
  const paired = pairRows(rows({ b: { n: 1 } }), rows({ x: { n: 1 } }), { toBase: [renamed(4, 2, 'a', 'b')], toTarget: [renamed(2, 1, 'a', 'x')] });
  assert.deepEqual(summary(paired), ['RENAMED:b>x']);
});

test('field changes: nested objects by key, arrays by index, missing values as null, at most 100', () => {
  assert.deepEqual(fieldChangesOf({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { b: 2, c: [1] }, e: true }), [
    { path: '/a/b', before: 1, after: 2 },
    { path: '/a/c/1', before: 2, after: null },
    { path: '/d', before: 'x', after: null },
    { path: '/e', before: null, after: true },
  ]);
  assert.deepEqual(fieldChangesOf({ a: { x: 1 } }, { a: [1] }), [{ path: '/a', before: { x: 1 }, after: [1] }]);
  assert.deepEqual(fieldChangesOf({ 'a/b': 1 }, { 'a/b': 2 }), [{ path: '/a~1b', before: 1, after: 2 }]);
  const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
  assert.equal(fieldChangesOf({}, many).length, 100);
  assert.deepEqual(fieldChangesOf({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), []);
});
