// MergeRecorded (appended by ApplyDraftChanges after a merge's draft events) is not projected into the views: every
// projector passes over it, so a log with merge records projects exactly like the same log without. The system state
// keeps the revision graph's merge edges from it (merge.md §5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSystemState, evolveSystemState } from '../../contracts/index.ts';
import type { DraftRef, MergeRecorded, RecordedEvent } from '../../contracts/index.ts';
import { allProjectors } from './allProjectors.ts';
import { blogProjectCreated, createTestLog, dumpViews, openProjectedViews } from '../testing/projectorTestKit.ts';

const ORG = 'organization-acme';
const B1 = 'branch-b1';
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const draft = (draftRevisionId: string, draftSeq: number, draftHasChanges: boolean): DraftRef => ({
  projectId: 'p1',
  draftRevisionId,
  draftSeq,
  draftHasChanges,
});
const merge = (ref: DraftRef): MergeRecorded => ({ ...ref, sourceRevisionId: 'r-src', baseRevisionId: 'r-base', totalRowChanges: 2 });

/** A small history of b1; with `merges`, MergeRecorded events after some of its appends. */
function history(merges: boolean): RecordedEvent[] {
  const log = createTestLog();
  let n = 0;
  const add: typeof log.add = (streamId, type, data) => log.add(streamId, type, data, at(++n));
  add(ORG, 'ProjectCreated', blogProjectCreated('acme'));
  add(B1, 'TableCreated', {
    ...draft('r1', 1, true),
    tableKey: 'k1',
    tableId: 'posts',
    schema: { type: 'object' },
    table: { tableKey: 'k1', count: 0, equalsHead: false },
  });
  const write = (rowId: string, title: string) => ({ rowId, data: { title }, createdAt: at(n), updatedAt: at(n) });
  add(B1, 'RowsCreated', {
    ...draft('r1', 1, true),
    tableKey: 'k1',
    rows: [write('a', 'A'), write('b', 'B')],
    table: { tableKey: 'k1', count: 2, equalsHead: false },
  });
  add(B1, 'RowsDeleted', { ...draft('r1', 1, true), tableKey: 'k1', rowIds: ['b'], table: { tableKey: 'k1', count: 1, equalsHead: false } });
  // Positions and times after this point differ between the two logs only by the merge records themselves.
  if (merges) log.add(B1, 'MergeRecorded', merge(draft('r1', 1, true)), at(n));
  add(B1, 'RevisionCommitted', { projectId: 'p1', revisionId: 'r1', seq: 1, comment: 'merged', newDraftRevisionId: 'r2', newDraftSeq: 2 });
  if (merges) log.add(B1, 'MergeRecorded', merge(draft('r2', 2, false)), at(n));
  add(B1, 'RowsUpdated', {
    ...draft('r2', 2, true),
    tableKey: 'k1',
    rows: [write('a', 'A2')],
    table: { tableKey: 'k1', count: 1, equalsHead: false },
  });
  if (merges) log.add(B1, 'MergeRecorded', merge(draft('r2', 2, true)), at(n));
  add(B1, 'DraftReverted', { projectId: 'p1', draftRevisionId: 'r2', draftSeq: 2 });
  return log.events;
}

test('every projector passes over MergeRecorded: the views equal those of the log without merge records', async (t) => {
  const dumps = [];
  for (const merges of [false, true]) {
    const views = await openProjectedViews(allProjectors);
    t.after(() => views.close());
    const events = history(merges);
    for (const projector of allProjectors) {
      const records = events.filter((e) => e.type === 'MergeRecorded');
      assert.deepEqual(projector.apply(records), [], `${projector.spec.name} ignores MergeRecorded`);
    }
    await views.catchUp(events, 2);
    const dump = await dumpViews(views.store, allProjectors);
    // Schema patches are kept by stream revision, which the merge records shift like positions: compare the rest.
    dump['schemas.schema_patches'] = (dump['schemas.schema_patches'] ?? []).map(({ revision: _, ...doc }) => doc);
    dumps.push(dump);
  }
  const [without, withMerges] = dumps;
  assert.ok(without && Object.values(without).some((docs) => docs.length > 0));
  assert.deepEqual(withMerges, without);
});

test('the system state keeps the merge edges of MergeRecorded (merge.md §5) and nothing else', () => {
  const fold = (events: readonly RecordedEvent[]) => {
    const state = createSystemState();
    for (const event of events) evolveSystemState(state, event);
    return state;
  };
  const without = fold(history(false));
  const withMerges = fold(history(true));
  assert.deepEqual(withMerges.branches, without.branches);
  assert.deepEqual(withMerges.projects, without.projects);
  // r1 was committed with its pending merge; r2's merges were reverted; without records every list is empty.
  const edges = (state: ReturnType<typeof fold>) => [...state.revisions.values()].map((r): [string, string[]] => [r.id, r.mergedRevisionIds]);
  assert.deepEqual(
    edges(withMerges).filter(([, ids]) => ids.length > 0),
    [['r1', ['r-src']]],
  );
  assert.ok(edges(without).every(([, ids]) => ids.length === 0));
  // The merge records take stream revisions: the commits' stream revisions differ by them.
  const strip = (state: ReturnType<typeof fold>) =>
    [...state.revisions.values()].map(({ mergedRevisionIds: _ids, commitStreamRevision: _at, ...rest }) => rest);
  assert.deepEqual(strip(withMerges), strip(without));
});
