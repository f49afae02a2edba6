import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftRef, RowWrite } from '../../contracts/index.ts';
import { rowsProjector } from '../index.ts';
import { createTestLog, openProjectedViews } from '../testing/projectorTestKit.ts';

const B = 'branch-b1';
const draft = (draftSeq: number): DraftRef => ({ projectId: 'p1', draftRevisionId: `r${draftSeq}`, draftSeq, draftHasChanges: true });
const facts = (count: number) => ({ tableKey: 'k1', count, equalsHead: false });
const write = (rowId: string, n: number): RowWrite => ({ rowId, data: { n }, createdAt: 't0', updatedAt: `t${n}` });
const ids = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `row-${String(from + i).padStart(4, '0')}`);

test('bulk writes, mixed restores and branch deletion', async (t) => {
  const log = createTestLog();
  const views = await openProjectedViews([rowsProjector]);
  t.after(() => views.close());
  const dataAt = async (seq: number) => (await views.visible('rows', 'rows', 'b1', seq)).map((r) => `${String(r.rowId)}:${JSON.stringify(r.data)}`);

  // More rows than one `in` filter holds.
  log.add(B, 'RowsCreated', { ...draft(1), tableKey: 'k1', rows: ids(1200).map((id) => write(id, 1)), table: facts(1200) });
  log.add(B, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: '', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  log.add(B, 'RowsUpdated', { ...draft(2), tableKey: 'k1', rows: ids(1100).map((id) => write(id, 2)), table: facts(1200) });
  await views.catchUp(log.events);
  assert.equal((await views.visible('rows', 'rows', 'b1', 1)).length, 1200);
  const draftRows = await views.visible('rows', 'rows', 'b1', 2);
  assert.equal(draftRows.length, 1200);
  assert.equal(draftRows.filter((r) => r.fromSeq === 2).length, 1100);

  // Restored rows interleaved with writes (and one id written, restored, written again) keep event order.
  const [first, second, third] = ids(3);
  const rows: RowWrite[] = [
    { rowId: first as string, restored: true },
    write(second as string, 3),
    { rowId: second as string, restored: true },
    write(third as string, 4),
    write(second as string, 5),
  ];
  log.add(B, 'RowsUpdated', { ...draft(2), tableKey: 'k1', rows, table: facts(1200) });
  log.add(B, 'RowsDeleted', { ...draft(2), tableKey: 'k1', rowIds: ids(700, 500), table: facts(500) });
  await views.catchUp(log.events);
  const visible = await dataAt(2);
  assert.equal(visible.length, 500);
  assert.deepEqual(visible.slice(0, 4), [`${first}:{"n":1}`, `${second}:{"n":5}`, `${third}:{"n":4}`, 'row-0003:{"n":2}']);
  assert.equal((await dataAt(1)).length, 1200, 'HEAD unchanged');
  const restored = (await views.visible('rows', 'rows', 'b1', 2)).find((r) => r.rowId === first);
  assert.deepEqual([restored?.fromSeq, restored?.updatedAt], [1, 't1'], 'the HEAD version itself shows again');

  log.add('organization-acme', 'BranchDeleted', { projectId: 'p1', branchId: 'b1' });
  await views.catchUp(log.events);
  assert.equal(await views.store.count('rows', 'rows'), 0);
});

test('row versions carry their principal; renames and deletions leave marks that a revert and a branch deletion clear', async (t) => {
  const log = createTestLog();
  const views = await openProjectedViews([rowsProjector]);
  t.after(() => views.close());
  const marks = async () =>
    (await views.store.find('rows', 'row_marks', { orderBy: [{ ref: { field: 'position' }, direction: 'asc' }] })).map(
      (m) => `${String(m.seq)}:${String(m.kind)}:${String(m.rowId)}<${String(m.previousRowId)}`,
    );

  log.add(B, 'RowsCreated', { ...draft(1), tableKey: 'k1', rows: [write('a', 1), write('b', 1)], table: facts(2) });
  log.add(B, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: '', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  log.add(B, 'RowRenamed', { ...draft(2), tableKey: 'k1', rowId: 'a', row: write('c', 2), table: facts(2) });
  log.add(B, 'RowsDeleted', { ...draft(2), tableKey: 'k1', rowIds: ['b'], table: facts(1) });
  await views.catchUp(log.events);
  assert.deepEqual(await marks(), ['2:renamed:c<a', '2:deleted:b<null']);
  const draftRows = await views.visible('rows', 'rows', 'b1', 2);
  assert.deepEqual(
    draftRows.map((r) => [r.rowId, r.fromSeq, r.actor]),
    [['c', 2, 'system']],
  );

  log.add(B, 'DraftReverted', { projectId: 'p1', draftRevisionId: 'r2', draftSeq: 2 });
  await views.catchUp(log.events);
  assert.deepEqual(await marks(), [], 'a revert drops the marks of the draft');
  assert.deepEqual(
    (await views.visible('rows', 'rows', 'b1', 2)).map((r) => r.rowId),
    ['a', 'b'],
  );

  log.add(B, 'RowsDeleted', { ...draft(2), tableKey: 'k1', rowIds: ['a'], table: facts(1) });
  await views.catchUp(log.events);
  assert.deepEqual(await marks(), ['2:deleted:a<null']);
  log.add('organization-acme', 'BranchDeleted', { projectId: 'p1', branchId: 'b1' });
  await views.catchUp(log.events);
  assert.deepEqual(await marks(), []);
});
