import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPEN_SEQ } from '../../contracts/index.ts';
import type { DraftRef, JsonObject } from '../../contracts/index.ts';
import { schemasProjector } from '../index.ts';
import { createTestLog, openProjectedViews } from '../testing/projectorTestKit.ts';

const B = 'branch-b1';
const draft = (draftSeq: number): DraftRef => ({ projectId: 'p1', draftRevisionId: `r${draftSeq}`, draftSeq, draftHasChanges: true });
const facts = (tableKey: string, count: number, equalsHead = false) => ({ tableKey, count, equalsHead });
const postsSchema = (target: string): JsonObject => ({
  type: 'object',
  properties: { author: { type: 'string', foreignKey: target } },
});

test('renames with schema rewrites, renaming back, and row counts', async (t) => {
  const log = createTestLog();
  const views = await openProjectedViews([schemasProjector]);
  t.after(() => views.close());
  const tablesAt = async (seq: number) =>
    (await views.visible('schemas', 'tables', 'b1', seq)).map((v) => ({
      id: v.tableId,
      fromSeq: v.fromSeq,
      count: v.count,
      schema: v.schema,
      updatedAt: v.updatedAt,
      createdAt: v.createdAt,
    }));

  const users = log.add(B, 'TableCreated', { ...draft(1), tableKey: 'k1', tableId: 'users', schema: {}, table: facts('k1', 0) });
  const posts = log.add(B, 'TableCreated', {
    ...draft(1),
    tableKey: 'k2',
    tableId: 'posts',
    schema: postsSchema('users'),
    table: facts('k2', 0),
  });
  log.add(B, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: '', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  const renamed = log.add(B, 'TableRenamed', {
    ...draft(2),
    tableKey: 'k1',
    tableId: 'people',
    previousTableId: 'users',
    table: facts('k1', 0),
    schemaRewrites: [{ tableKey: 'k2', schema: postsSchema('people'), table: facts('k2', 0) }],
  });
  await views.catchUp(log.events);
  const t1 = users.metadata.time;
  const t2 = posts.metadata.time;
  const t3 = renamed.metadata.time;
  assert.deepEqual(await tablesAt(2), [
    { id: 'people', fromSeq: 2, count: 0, schema: {}, updatedAt: t3, createdAt: t1 },
    { id: 'posts', fromSeq: 2, count: 0, schema: postsSchema('people'), updatedAt: t3, createdAt: t2 },
  ]);
  assert.deepEqual(
    (await tablesAt(1)).map((v) => [v.id, v.schema]),
    [
      ['users', {}],
      ['posts', postsSchema('users')],
    ],
  );

  // Renaming back makes both tables equal to HEAD again: the HEAD versions show, nothing else is left.
  log.add(B, 'TableRenamed', {
    ...draft(2),
    tableKey: 'k1',
    tableId: 'users',
    previousTableId: 'people',
    table: facts('k1', 0, true),
    schemaRewrites: [{ tableKey: 'k2', schema: postsSchema('users'), table: facts('k2', 0, true) }],
  });
  log.add(B, 'RowsCreated', {
    ...draft(2),
    tableKey: 'k2',
    rows: [{ rowId: 'x', data: {}, createdAt: 't', updatedAt: 't' }],
    table: facts('k2', 1),
  });
  await views.catchUp(log.events);
  assert.deepEqual(await tablesAt(2), [
    { id: 'users', fromSeq: 1, count: 0, schema: {}, updatedAt: t1, createdAt: t1 },
    { id: 'posts', fromSeq: 2, count: 1, schema: postsSchema('users'), updatedAt: t2, createdAt: t2 },
  ]);
  const all = await views.store.find('schemas', 'tables', {
    orderBy: [
      { ref: { field: 'tableKey' }, direction: 'asc' },
      { ref: { field: 'fromSeq' }, direction: 'asc' },
    ],
  });
  assert.deepEqual(
    all.map((v) => [v.tableKey, v.fromSeq, v.toSeq]),
    [
      ['k1', 1, OPEN_SEQ],
      ['k2', 1, 2],
      ['k2', 2, OPEN_SEQ],
    ],
  );

  log.add('organization-acme', 'BranchDeleted', { projectId: 'p1', branchId: 'b1' });
  await views.catchUp(log.events);
  assert.equal(await views.store.count('schemas', 'tables'), 0);
});
