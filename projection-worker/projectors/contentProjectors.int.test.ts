import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftRef, JsonObject, TableFacts, ViewDoc } from '../../contracts/index.ts';
import { pino } from 'pino';
import { catalogProjector, rebuildProjection, rowsProjector, schemasProjector } from '../index.ts';
// The log above, held in memory for rebuildProjection (the worker never reads a real event store in these tests).
import { createFakeEventStore } from '../testing/fakePorts.ts';
import { blogProjectCreated, createTestLog, devBranchCreated, dumpViews, openProjectedViews } from '../testing/projectorTestKit.ts';
import type { ProjectedViews, TestLog } from '../testing/projectorTestKit.ts';

const projectors = [catalogProjector, schemasProjector, rowsProjector];
const silent = pino({ level: 'silent' });
const ORG = 'organization-acme';
const B1 = 'branch-b1';
const B2 = 'branch-b2';
const schemaV1: JsonObject = { type: 'object', properties: { title: { type: 'string' } } };
const schemaV2: JsonObject = { type: 'object', properties: { title: { type: 'string' }, n: { type: 'number' } } };

const draft = (draftRevisionId: string, draftSeq: number, draftHasChanges: boolean): DraftRef => ({
  projectId: 'p1',
  draftRevisionId,
  draftSeq,
  draftHasChanges,
});
const facts = (count: number, equalsHead = false, tableKey = 'k1'): TableFacts => ({ tableKey, count, equalsHead });
const write = (rowId: string, title: string, createdAt = 't-created', updatedAt = createdAt) => ({
  rowId,
  data: { title },
  createdAt,
  updatedAt,
});

/** What a reader sees: `rowId=title` plus `*` when the row is readonly in `draftSeq` (not the draft's own version). */
async function rowsAt(views: ProjectedViews, branchId: string, seq: number, draftSeq = Infinity): Promise<string[]> {
  const rows = await views.visible('rows', 'rows', branchId, seq);
  const readonly = (r: ViewDoc) => r.branchId !== branchId || Number(r.fromSeq) < draftSeq;
  return rows.map((r) => `${String(r.rowId)}=${String((r.data as JsonObject).title)}${readonly(r) ? '*' : ''}`);
}

async function tablesAt(views: ProjectedViews, branchId: string, seq: number): Promise<ViewDoc[]> {
  return views.visible('schemas', 'tables', branchId, seq);
}

async function revision(views: ProjectedViews, id: string): Promise<ViewDoc | null> {
  return views.store.get('catalog', 'revisions', { id });
}

function createProject(log: TestLog): void {
  log.add(ORG, 'ProjectCreated', blogProjectCreated('acme'));
}

test('table and row versions follow draft edits, commits, reverts and branch creation', async (t) => {
  const log = createTestLog();
  const views = await openProjectedViews(projectors);
  t.after(() => views.close());
  const step = () => views.catchUp(log.events);

  createProject(log);
  const created = log.add(B1, 'TableCreated', {
    ...draft('r1', 1, true),
    tableKey: 'k1',
    tableId: 'posts',
    schema: schemaV1,
    table: facts(0),
  });
  log.add(B1, 'RowsCreated', { ...draft('r1', 1, true), tableKey: 'k1', rows: [write('a', 'A'), write('b', 'B')], table: facts(2) });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 1, 1), ['a=A', 'b=B'], 'draft rows are editable');
  assert.deepEqual(await rowsAt(views, 'b1', 0), [], 'start revision stays empty');
  assert.equal((await revision(views, 'r1'))?.hasChanges, true);
  assert.equal((await views.store.get('catalog', 'branches', { id: 'b1' }))?.touched, true);

  log.add(B1, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: 'first', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 1, 2), ['a=A*', 'b=B*'], 'HEAD sees the committed rows');
  assert.deepEqual(await rowsAt(views, 'b1', 2, 2), ['a=A*', 'b=B*'], 'the new draft sees them readonly');
  const [headTable] = await tablesAt(views, 'b1', 2);
  assert.equal(headTable?.fromSeq, 1);
  assert.equal(headTable?.count, 2);
  assert.equal(headTable?.createdAt, created.metadata.time);
  const committed = await revision(views, 'r1');
  assert.equal(committed?.comment, 'first');
  assert.equal(committed?.hasChanges, false);
  assert.notEqual(committed?.committedAt, null);
  assert.deepEqual(
    [(await revision(views, 'r2'))?.sequence, (await revision(views, 'r2'))?.parentId, (await revision(views, 'r2'))?.committedAt],
    [2, 'r1', null],
  );
  const branch = await views.store.get('catalog', 'branches', { id: 'b1' });
  assert.deepEqual([branch?.headRevisionId, branch?.draftRevisionId, branch?.headSeq, branch?.touched], ['r1', 'r2', 1, false]);

  // Edit in the draft: HEAD unchanged; then change it back: the HEAD version shows again.
  log.add(B1, 'RowsUpdated', { ...draft('r2', 2, true), tableKey: 'k1', rows: [write('a', 'A2', 't-created', 't2')], table: facts(2) });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 1, 2), ['a=A*', 'b=B*']);
  assert.deepEqual(await rowsAt(views, 'b1', 2, 2), ['a=A2', 'b=B*']);
  assert.deepEqual(
    (await tablesAt(views, 'b1', 2)).map((v) => [v.fromSeq, v.count]),
    [[2, 2]],
    'table not readonly',
  );
  log.add(B1, 'RowsUpdated', { ...draft('r2', 2, false), tableKey: 'k1', rows: [{ rowId: 'a', restored: true }], table: facts(2, true) });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 2, 2), ['a=A*', 'b=B*']);
  assert.equal(await views.store.count('rows', 'rows'), 2, 'no version left behind');
  assert.deepEqual(
    (await tablesAt(views, 'b1', 2)).map((v) => [v.fromSeq, Number(v.toSeq) > 2]),
    [[1, true]],
  );
  assert.equal((await revision(views, 'r2'))?.hasChanges, false);

  // Delete and create, then revert: the draft equals HEAD again.
  log.add(B1, 'RowsDeleted', { ...draft('r2', 2, true), tableKey: 'k1', rowIds: ['b'], table: facts(1) });
  log.add(B1, 'RowsCreated', { ...draft('r2', 2, true), tableKey: 'k1', rows: [write('c', 'C')], table: facts(2) });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 2, 2), ['a=A*', 'c=C']);
  assert.deepEqual(await rowsAt(views, 'b1', 1, 2), ['a=A*', 'b=B*']);
  assert.deepEqual(
    (await tablesAt(views, 'b1', 1)).map((v) => v.count),
    [2],
  );
  log.add(B1, 'DraftReverted', { projectId: 'p1', draftRevisionId: 'r2', draftSeq: 2 });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 2, 2), ['a=A*', 'b=B*']);
  assert.deepEqual(
    (await tablesAt(views, 'b1', 2)).map((v) => [v.fromSeq, v.count]),
    [[1, 2]],
  );
  assert.equal((await views.store.get('catalog', 'branches', { id: 'b1' }))?.touched, false);

  // Rename a row and the table, commit.
  log.add(B1, 'RowRenamed', { ...draft('r2', 2, true), tableKey: 'k1', rowId: 'a', row: write('a2', 'A', 't-created', 't3'), table: facts(2) });
  const renamed = log.add(B1, 'TableRenamed', {
    ...draft('r2', 2, true),
    tableKey: 'k1',
    tableId: 'articles',
    previousTableId: 'posts',
    table: facts(2),
    schemaRewrites: [],
  });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 2, 2), ['a2=A', 'b=B*']);
  const [draftTable] = await tablesAt(views, 'b1', 2);
  assert.deepEqual([draftTable?.tableId, draftTable?.updatedAt, draftTable?.createdAt], ['articles', renamed.metadata.time, created.metadata.time]);
  assert.deepEqual(
    (await tablesAt(views, 'b1', 1)).map((v) => v.tableId),
    ['posts'],
  );
  log.add(B1, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r2', seq: 2, comment: '', newDraftRevisionId: 'r3', newDraftSeq: 3 });
  await step();
  assert.deepEqual(await rowsAt(views, 'b1', 3, 3), ['a2=A*', 'b=B*']);
  assert.deepEqual(await rowsAt(views, 'b1', 1, 3), ['a=A*', 'b=B*'], 'older revisions keep their content');

  // A branch from revision 1 reads what revision 1 shows and copies nothing; later changes stay apart.
  const before = await views.store.count('rows', 'rows');
  log.add(ORG, 'BranchCreated', devBranchCreated);
  await step();
  assert.equal(await views.store.count('rows', 'rows'), before, 'branch creation writes no row version');
  assert.deepEqual(await rowsAt(views, 'b2', 0, 1), ['a=A*', 'b=B*']);
  assert.deepEqual(await rowsAt(views, 'b2', 1, 1), ['a=A*', 'b=B*']);
  assert.deepEqual(
    (await tablesAt(views, 'b2', 1)).map((v) => [v.branchId, v.tableId, v.fromSeq, v.count]),
    [['b1', 'posts', 1, 2]],
  );
  const dev = await views.store.get('catalog', 'branches', { id: 'b2' });
  assert.deepEqual([dev?.parentBranchName, dev?.parentRevisionId, dev?.isRoot], ['master', 'r1', false]);
  assert.equal((await revision(views, 's0'))?.parentId, 'r1');

  const migrated = log.add(B2, 'TableSchemaUpdated', {
    ...draft('s1', 1, true),
    tableKey: 'k1',
    tableId: 'posts',
    schema: schemaV2,
    patches: [],
    rows: [write('b', 'B-migrated', 't-created', 't4')],
    table: facts(2),
  });
  log.add(B1, 'TableDeleted', { ...draft('r3', 3, true), tableKey: 'k1', tableId: 'articles' });
  await step();
  assert.deepEqual(await rowsAt(views, 'b2', 1, 1), ['a=A*', 'b=B-migrated']);
  const [devTable] = await tablesAt(views, 'b2', 1);
  assert.deepEqual(
    [devTable?.branchId, devTable?.tableId, devTable?.schema, devTable?.updatedAt, devTable?.createdAt, devTable?.fromSeq],
    ['b2', 'posts', schemaV2, migrated.metadata.time, created.metadata.time, 1],
    'a partial version of the inherited table, completed from the layer below',
  );
  assert.deepEqual(await rowsAt(views, 'b1', 1), ['a=A*', 'b=B*'], 'the source keeps its rows');
  assert.deepEqual(await rowsAt(views, 'b1', 3), [], 'deleted table: no rows in the draft');
  assert.deepEqual(await tablesAt(views, 'b1', 3), []);
  assert.deepEqual(await rowsAt(views, 'b1', 2, 3), ['a2=A*', 'b=B*'], 'HEAD keeps the table');
  assert.deepEqual(await rowsAt(views, 'b1', 0, 1), []);

  // Deleting an inherited row writes a tombstone in the child only; deleting the child frees exactly what it wrote.
  log.add(B2, 'RowsDeleted', { ...draft('s1', 1, true), tableKey: 'k1', rowIds: ['a'], table: facts(1) });
  await step();
  assert.deepEqual(await rowsAt(views, 'b2', 1, 1), ['b=B-migrated']);
  assert.deepEqual(await rowsAt(views, 'b2', 0, 1), ['a=A*', 'b=B*'], 'the start revision still shows the source content');
  const ownOf = async (branchId: string) => ({
    rows: await views.store.count('rows', 'rows', { kind: 'compare', ref: { field: 'branchId' }, op: 'eq', value: branchId }),
    tables: await views.store.count('schemas', 'tables', { kind: 'compare', ref: { field: 'branchId' }, op: 'eq', value: branchId }),
    marks: await views.store.count('rows', 'row_marks', { kind: 'compare', ref: { field: 'branchId' }, op: 'eq', value: branchId }),
  });
  assert.deepEqual(
    await ownOf('b2'),
    { rows: 2, tables: 1, marks: 1 },
    'b2 holds its migrated row, its tombstone, its partial table version, its mark',
  );
  const b1Before = await ownOf('b1');
  log.add(ORG, 'BranchDeleted', { projectId: 'p1', branchId: 'b2' });
  await step();
  assert.deepEqual(await ownOf('b2'), { rows: 0, tables: 0, marks: 0 });
  assert.deepEqual(await ownOf('b1'), b1Before, 'the source branch keeps everything');

  // Replaying the same log in other batch sizes gives identical views.
  const expected = await dumpViews(views.store, projectors);
  for (const batchSize of [1, 2, 3, 5]) {
    const replay = await openProjectedViews(projectors);
    try {
      await replay.catchUp(log.events, batchSize);
      assert.deepEqual(await dumpViews(replay.store, projectors), expected, `batch size ${batchSize}`);
    } finally {
      await replay.close();
    }
  }

  // So does a rebuild beside the live copy: a shadow version without its readersOnly indexes, completed, switched.
  const eventStore = createFakeEventStore();
  eventStore.events.push(...log.events);
  for (const projector of projectors) {
    const result = await rebuildProjection({ projector, eventStore, viewStore: views.store, log: silent, batchSize: 2, dropDelayMs: 0 });
    assert.equal(result.version, projector.spec.version + 1);
  }
  assert.deepEqual(await dumpViews(views.store, projectors), expected, 'rebuilt views');
});
