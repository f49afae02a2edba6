import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftRef, JsonObject, RowWrite } from '../../contracts/index.ts';
import { catalogProjector, rowsProjector, schemasProjector } from '../index.ts';
import { blogProjectCreated, createTestLog, dumpViews, openProjectedViews } from '../testing/projectorTestKit.ts';
import type { TestLog } from '../testing/projectorTestKit.ts';

const projectors = [catalogProjector, schemasProjector, rowsProjector];
const B = 'branch-b1';
const draft = (draftSeq: number): DraftRef => ({ projectId: 'p1', draftRevisionId: `r${draftSeq}`, draftSeq, draftHasChanges: true });
const facts = (count: number, tableKey = 'k1') => ({ tableKey, count, equalsHead: false });
const write = (rowId: string, n: number): RowWrite => ({ rowId, data: { n }, createdAt: 't0', updatedAt: `t${n}` });

/** Single-row events as live writes produce them: the rows and schemas projectors merge them within a batch. */
function buildLog(): TestLog {
  const log = createTestLog();
  log.add('organization-acme', 'ProjectCreated', blogProjectCreated('acme'));
  for (const tableKey of ['k1', 'k2']) {
    log.add(B, 'TableCreated', { ...draft(1), tableKey, tableId: tableKey, schema: {}, table: facts(0, tableKey) });
  }
  const created = ['a', 'b', 'c', 'd'].map((id) => write(id, 1));
  log.add(B, 'RowsCreated', { ...draft(1), tableKey: 'k1', rows: created, table: facts(4) });
  log.add(B, 'RowsCreated', { ...draft(1), tableKey: 'k2', rows: [write('a', 1)], table: facts(1, 'k2') });
  log.add(B, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: '', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  const single = (type: 'RowsCreated' | 'RowsUpdated', row: RowWrite, count: number, tableKey = 'k1') =>
    log.add(B, type, { ...draft(2), tableKey, rows: [row], table: facts(count, tableKey) });
  single('RowsUpdated', write('a', 2), 4);
  single('RowsUpdated', write('b', 3), 4);
  single('RowsUpdated', write('a', 4), 4); // the same id again
  single('RowsUpdated', write('a', 5), 1, 'k2'); // the same id in another table
  single('RowsUpdated', { rowId: 'b', restored: true }, 4);
  single('RowsCreated', write('e', 6), 5);
  single('RowsUpdated', write('e', 7), 5); // created, then updated in the draft
  single('RowsUpdated', write('c', 8), 5);
  log.add(B, 'RowsDeleted', { ...draft(2), tableKey: 'k1', rowIds: ['c'], table: facts(4) });
  single('RowsCreated', write('c', 9), 5); // deleted, then created again
  single('RowsUpdated', { rowId: 'd', restored: true }, 5);
  return log;
}

test('single-row events give the same views in one batch as in one batch per event', async (t) => {
  const log = buildLog();
  const oneBatch = await openProjectedViews(projectors);
  t.after(() => oneBatch.close());
  await oneBatch.catchUp(log.events);
  const perEvent = await openProjectedViews(projectors);
  t.after(() => perEvent.close());
  await perEvent.catchUp(log.events, 1);
  assert.deepEqual(await dumpViews(oneBatch.store, projectors), await dumpViews(perEvent.store, projectors));

  const rows = await oneBatch.visible('rows', 'rows', 'b1', 2);
  const shown = rows.map((r) => `${String(r.tableKey)}/${String(r.rowId)}=${String((r.data as JsonObject).n)}@${String(r.fromSeq)}`);
  assert.deepEqual(shown.sort(), ['k1/a=4@2', 'k1/b=1@1', 'k1/c=9@2', 'k1/d=1@1', 'k1/e=7@2', 'k2/a=5@2']);
  const tables = await oneBatch.visible('schemas', 'tables', 'b1', 2);
  assert.deepEqual(
    tables.map((table) => `${String(table.tableKey)}:${String(table.count)}`),
    ['k1:5', 'k2:1'],
  );
});
