import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSystemState } from '../state/systemState.ts';
import type { BranchRecord, RevisionRecord } from '../state/systemRecords.ts';
import { ancestorIds, mergeBaseOf } from './revisionGraph.ts';

// The base of merge.md §1 on hand-built graphs: a fork, merges in both directions, criss-cross, pending merges.
function graph() {
  const state = createSystemState();
  let clock = 0;
  const branch = (id: string, parent: BranchRecord['parent']): BranchRecord => {
    const record = {
      id,
      projectId: 'p',
      organizationId: 'o',
      name: id,
      isRoot: parent === null,
      createdAt: '',
      deleted: false,
      startRevisionId: '',
      headRevisionId: '',
      draftRevisionId: '',
      headSeq: 0,
      revisionIds: [],
      parent,
    };
    state.branches.set(id, record);
    return record;
  };
  const revision = (b: BranchRecord, id: string, merged: string[] = [], committed = true): RevisionRecord => {
    const seq = b.revisionIds.length;
    b.revisionIds.push(id);
    const record = {
      id,
      branchId: b.id,
      projectId: 'p',
      organizationId: 'o',
      seq,
      createdAt: '',
      mergedRevisionIds: merged,
      committedAt: committed ? new Date(Date.UTC(2026, 0, 1, 0, 0, ++clock)).toISOString() : null,
    };
    state.revisions.set(id, record);
    return record;
  };
  return { state, branch, revision };
}

test('a fork: the base is the fork point; a source already merged is UP_TO_DATE, also while pending', () => {
  const { state, branch, revision } = graph();
  const master = branch('master', null);
  const m0 = revision(master, 'm0');
  revision(master, 'm1');
  const feature = branch('feature', { branchId: 'master', revisionId: 'm1' });
  revision(feature, 'f0');
  const f1 = revision(feature, 'f1');
  const m2 = revision(master, 'm2');
  const draft = revision(master, 'md', [], false);
  assert.equal(mergeBaseOf(state, f1, draft).base.id, 'm1');
  assert.deepEqual(mergeBaseOf(state, f1, draft).upToDate, false);
  assert.deepEqual(mergeBaseOf(state, m0, draft), { base: m0, upToDate: true });
  draft.mergedRevisionIds = ['f1'];
  assert.deepEqual(mergeBaseOf(state, f1, draft), { base: f1, upToDate: true }, 'pending merges count as ancestors');
  assert.ok(ancestorIds(state, draft).has('f0'));
  assert.equal(mergeBaseOf(state, m2, revision(feature, 'fd', [], false)).base.id, 'm1');
});

test('criss-cross: of two best common ancestors the one committed last is the base', () => {
  const { state, branch, revision } = graph();
  const master = branch('master', null);
  revision(master, 'm0');
  const feature = branch('feature', { branchId: 'master', revisionId: 'm0' });
  revision(feature, 'f0');
  revision(master, 'm1');
  revision(feature, 'f1');
  revision(master, 'm2', ['f1']);
  const f2 = revision(feature, 'f2', ['m1']);
  const draft = revision(master, 'md', [], false);
  // m1 and f1 are both common and neither reaches the other; f1 was committed after m1.
  assert.equal(mergeBaseOf(state, f2, draft).base.id, 'f1');
  // After merging f2 the master draft has every revision of feature: merging f2 again is up to date.
  draft.mergedRevisionIds = ['f2'];
  assert.equal(mergeBaseOf(state, f2, draft).upToDate, true);
});
