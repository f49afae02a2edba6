import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldsEqual } from '../../contracts/index.ts';
import type { DraftRef } from '../../contracts/index.ts';
import { catalogProjector } from '../index.ts';
import { blogProjectCreated, createTestLog, devBranchCreated, dumpViews, openProjectedViews } from '../testing/projectorTestKit.ts';
import type { TestLog } from '../testing/projectorTestKit.ts';

const ORG = 'organization-my-org';
const draft = (draftRevisionId: string, draftSeq: number, draftHasChanges: boolean): DraftRef => ({
  projectId: 'p1',
  draftRevisionId,
  draftSeq,
  draftHasChanges,
});

function buildLog(): TestLog {
  const log = createTestLog();
  log.add(ORG, 'ProjectCreated', blogProjectCreated('my-org'));
  log.add(ORG, 'ProjectVisibilityChanged', { projectId: 'p1', isPublic: true });
  const table = { tableKey: 'k1', count: 0, equalsHead: false };
  log.add('branch-b1', 'TableCreated', { ...draft('r1', 1, true), tableKey: 'k1', tableId: 't', schema: {}, table });
  log.add('branch-b1', 'TableDeleted', { ...draft('r1', 1, false), tableKey: 'k1', tableId: 't' });
  log.add('branch-b1', 'TableCreated', { ...draft('r1', 1, true), tableKey: 'k2', tableId: 't', schema: {}, table });
  log.add('branch-b1', 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: 'c', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  log.add('branch-b1', 'RowsCreated', { ...draft('r2', 2, true), tableKey: 'k2', rows: [], table: { ...table, tableKey: 'k2' } });
  log.add(ORG, 'BranchCreated', devBranchCreated);
  const endpoint = { projectId: 'p1', projectName: 'blog', type: 'GRAPHQL', pinnedRevisionId: null } as const;
  log.add(ORG, 'EndpointCreated', { ...endpoint, endpointId: 'e1', branchId: 'b1', branchName: 'master', mode: 'head' });
  log.add(ORG, 'EndpointCreated', { ...endpoint, endpointId: 'e2', branchId: 'b2', branchName: 'dev', mode: 'draft' });
  log.add(ORG, 'EndpointCreated', { ...endpoint, endpointId: 'e3', branchId: 'b1', branchName: 'master', mode: 'draft' });
  log.add(ORG, 'EndpointDeleted', { endpointId: 'e3', projectId: 'p1' });
  return log;
}

test('catalog keeps projects, branches, revisions and endpoints', async (t) => {
  const log = buildLog();
  const views = await openProjectedViews([catalogProjector]);
  t.after(() => views.close());
  await views.catchUp(log.events);
  const get = (collection: string, id: string) => views.store.get('catalog', collection, { id });

  const project = await get('projects', 'p1');
  assert.deepEqual(
    [project?.organizationId, project?.name, project?.isPublic, project?.rootBranchId, project?.rootBranchName, project?.deleted],
    ['my-org', 'blog', true, 'b1', 'master', false],
  );
  const start = await get('revisions', 'r0');
  assert.deepEqual([start?.sequence, start?.isStart, start?.parentId, start?.committedAt], [0, true, null, start?.createdAt]);
  const r1 = await get('revisions', 'r1');
  assert.deepEqual([r1?.sequence, r1?.parentId, r1?.hasChanges, r1?.comment], [1, 'r0', false, 'c'], 'committed');
  const r2 = await get('revisions', 'r2');
  assert.deepEqual([r2?.sequence, r2?.parentId, r2?.hasChanges, r2?.committedAt], [2, 'r1', true, null]);

  const master = await get('branches', 'b1');
  assert.deepEqual(
    [master?.organizationId, master?.isRoot, master?.headRevisionId, master?.draftRevisionId, master?.headSeq, master?.touched],
    ['my-org', true, 'r1', 'r2', 1, true],
  );
  const dev = await get('branches', 'b2');
  assert.deepEqual(
    [dev?.organizationId, dev?.parentBranchName, dev?.parentRevisionId, dev?.startRevisionId, dev?.headSeq, dev?.touched],
    ['my-org', 'master', 'r1', 's0', 0, false],
  );
  assert.equal((await get('revisions', 's0'))?.parentId, 'r1');
  assert.equal((await get('revisions', 's1'))?.parentId, 's0');

  const e2 = await get('endpoints', 'e2');
  assert.deepEqual(
    [e2?.organizationId, e2?.projectName, e2?.branchName, e2?.mode, e2?.pinnedRevisionId, e2?.deleted],
    ['my-org', 'blog', 'dev', 'draft', null, false],
  );
  assert.equal((await get('endpoints', 'e3'))?.deleted, true);

  // Same events in other batch sizes: identical views (hasChanges coalescing must not depend on the split).
  const expected = await dumpViews(views.store, [catalogProjector]);
  for (const batchSize of [1, 2, 4]) {
    const replay = await openProjectedViews([catalogProjector]);
    try {
      await replay.catchUp(log.events, batchSize);
      assert.deepEqual(await dumpViews(replay.store, [catalogProjector]), expected, `batch size ${batchSize}`);
    } finally {
      await replay.close();
    }
  }
});

test('deleting a branch or a project marks what goes with it deleted', async (t) => {
  const log = buildLog();
  const views = await openProjectedViews([catalogProjector]);
  t.after(() => views.close());
  log.add(ORG, 'BranchDeleted', { projectId: 'p1', branchId: 'b2' });
  await views.catchUp(log.events);
  const deletedIds = async (collection: string) =>
    (await views.store.find('catalog', collection, { filter: fieldsEqual({ deleted: true }) })).map((d) => d.id).sort();
  assert.deepEqual(await deletedIds('branches'), ['b2']);
  assert.deepEqual(await deletedIds('endpoints'), ['e2', 'e3']);

  log.add(ORG, 'ProjectDeleted', { projectId: 'p1' });
  await views.catchUp(log.events);
  assert.deepEqual(await deletedIds('projects'), ['p1']);
  assert.deepEqual(await deletedIds('branches'), ['b1', 'b2']);
  assert.deepEqual(await deletedIds('endpoints'), ['e1', 'e2', 'e3']);
});

test('a commit or a revert in the same batch as draft edits leaves hasChanges false', async (t) => {
  const log = buildLog();
  const views = await openProjectedViews([catalogProjector]);
  t.after(() => views.close());
  const table = { tableKey: 'k2', count: 0, equalsHead: false };
  const get = async (collection: string, id: string) => views.store.get('catalog', collection, { id });
  log.add('branch-b2', 'RowsDeleted', { ...draft('s1', 1, true), tableKey: 'k2', rowIds: ['x'], table });
  log.add('branch-b2', 'RevisionCommitted', { projectId: 'p1', revisionId: 's1', seq: 1, comment: '', newDraftRevisionId: 's2', newDraftSeq: 2 });
  await views.catchUp(log.events);
  assert.deepEqual([(await get('revisions', 's1'))?.hasChanges, (await get('revisions', 's2'))?.hasChanges], [false, false]);
  assert.deepEqual([(await get('branches', 'b2'))?.touched, (await get('branches', 'b2'))?.headSeq], [false, 1]);

  log.add('branch-b2', 'RowsDeleted', { ...draft('s2', 2, true), tableKey: 'k2', rowIds: ['y'], table });
  log.add('branch-b2', 'DraftReverted', { projectId: 'p1', draftRevisionId: 's2', draftSeq: 2 });
  await views.catchUp(log.events);
  assert.equal((await get('revisions', 's2'))?.hasChanges, false);
  assert.equal((await get('branches', 'b2'))?.touched, false);
});
