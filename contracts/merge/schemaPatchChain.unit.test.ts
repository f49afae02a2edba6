import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainEvent } from '../events/domainEvents.ts';
import { createSystemState, type SystemState } from '../state/systemState.ts';
import type { BranchRecord, RevisionRecord } from '../state/systemRecords.ts';
import { createPatchChains, patchEntryOf, patchSegments, verifiedChain, type PatchSegment } from './schemaPatchChain.ts';

// Which log events give one side's schema patches since the merge base (merge.md §2.1): the branch stream stretches
// on the side's first-parent line, the TableSchemaUpdated patches of their drafts in order, a revert dropping its
// draft's patches, and a chain kept only when it explains the whole schema change.
type Data = Record<string, unknown>;

/** Branch `id` with committed revisions `id0 … id<n-1>` (RevisionCommitted of seq k at stream revision 10k + 9) and draft `id<n>`. */
function addBranch(state: SystemState, id: string, committed: number, parent: BranchRecord['parent'] = null): void {
  const revisionIds = Array.from({ length: committed + 1 }, (_, seq) => `${id}${seq}`);
  state.branches.set(id, {
    ...{ id, projectId: 'p', organizationId: 'o', name: id, isRoot: parent === null, createdAt: 't', deleted: false },
    ...{ startRevisionId: `${id}0`, headRevisionId: `${id}${committed - 1}`, draftRevisionId: `${id}${committed}` },
    ...{ headSeq: committed - 1, revisionIds, parent },
  });
  revisionIds.forEach((revisionId, seq) => {
    const record: RevisionRecord = {
      ...{ id: revisionId, branchId: id, projectId: 'p', organizationId: 'o', seq, createdAt: 't', mergedRevisionIds: [] },
      committedAt: seq < committed ? 't' : null,
    };
    if (seq > 0 && seq < committed) record.commitStreamRevision = 10 * seq + 9;
    state.revisions.set(revisionId, record);
  });
}

function history(): SystemState {
  const state = createSystemState();
  addBranch(state, 'm', 4);
  addBranch(state, 'f', 3, { branchId: 'm', revisionId: 'm1' });
  addBranch(state, 'g', 2, { branchId: 'f', revisionId: 'f2' });
  return state;
}
const revision = (state: SystemState, id: string) => state.revisions.get(id) as RevisionRecord;

test('same branch: the drafts after the base up to the side, from the stream revision after the base commit', () => {
  const state = history();
  assert.deepEqual(patchSegments(state, revision(state, 'm1'), revision(state, 'm3'), null), [
    { streamId: 'branch-m', afterSeq: 1, toSeq: 3, fromRevision: 20, toRevision: 39 },
  ]);
  assert.deepEqual(
    patchSegments(state, revision(state, 'm1'), revision(state, 'm4'), 57),
    [{ streamId: 'branch-m', afterSeq: 1, toSeq: 4, fromRevision: 20, toRevision: 58 }],
    'a draft side is read up to the stream revision the merge read it at',
  );
  assert.deepEqual(patchSegments(state, revision(state, 'm0'), revision(state, 'm2'), null), [
    { streamId: 'branch-m', afterSeq: 0, toSeq: 2, fromRevision: 0, toRevision: 29 },
  ]);
});

test('a side on a branch below the base: its branch from the start, then the branches it was created from', () => {
  const state = history();
  assert.deepEqual(patchSegments(state, revision(state, 'm0'), revision(state, 'g1'), null), [
    { streamId: 'branch-m', afterSeq: 0, toSeq: 1, fromRevision: 0, toRevision: 19 },
    { streamId: 'branch-f', afterSeq: 0, toSeq: 2, fromRevision: 0, toRevision: 29 },
    { streamId: 'branch-g', afterSeq: 0, toSeq: 1, fromRevision: 0, toRevision: 19 },
  ]);
  assert.deepEqual(
    patchSegments(state, revision(state, 'm1'), revision(state, 'f1'), null),
    [{ streamId: 'branch-f', afterSeq: 0, toSeq: 1, fromRevision: 0, toRevision: 19 }],
    'the base is the fork point: only the branch',
  );
  assert.deepEqual(patchSegments(state, revision(state, 'f2'), revision(state, 'f2'), null), [], 'the side is the base');
  assert.deepEqual(patchSegments(state, revision(state, 'm1'), revision(state, 'g2'), 'no_stream'), [
    { streamId: 'branch-f', afterSeq: 0, toSeq: 2, fromRevision: 0, toRevision: 29 },
  ]);
});

test('a base off the first-parent line (reached through a merge) or without a stream position: none (recomputed)', () => {
  const state = history();
  assert.equal(patchSegments(state, revision(state, 'f1'), revision(state, 'm3'), null), null, 'a base on a branch merged in');
  assert.equal(patchSegments(state, revision(state, 'm2'), revision(state, 'f2'), null), null, 'a base after the fork point');
  assert.equal(patchSegments(state, revision(state, 'm3'), revision(state, 'm1'), null), null);
  delete revision(state, 'm1').commitStreamRevision;
  assert.equal(patchSegments(state, revision(state, 'm1'), revision(state, 'm3'), null), null);
});

const schema = (properties: Record<string, unknown>): Data => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const str = { type: 'string', default: '' };
const draftRef = (draftSeq: number) => ({ projectId: 'p', draftRevisionId: `d${draftSeq}`, draftSeq, draftHasChanges: true });
function updated(draftSeq: number, tableKey: string, patches: unknown[]): DomainEvent {
  const data = {
    ...draftRef(draftSeq),
    tableKey,
    tableId: tableKey,
    schema: {},
    patches,
    rows: [],
    table: { tableKey, count: 0, equalsHead: false },
  };
  return { type: 'TableSchemaUpdated', data };
}
const move = (from: string, to: string) => ({ op: 'move', from: `/properties/${from}`, path: `/properties/${to}` });
const segment: PatchSegment = { streamId: 'branch-m', afterSeq: 1, toSeq: 3, fromRevision: 20, toRevision: null };
/** Feeds an event of the segment as the schemas view keeps it (events no chain reads keep nothing). */
function addEvent(chains: ReturnType<typeof createPatchChains>, event: DomainEvent): void {
  const entry = patchEntryOf(event);
  if (entry !== null) chains.add(segment, entry);
}

test('the chain concatenates the patches of every updateTable of the side in log order, per table key', () => {
  const chains = createPatchChains();
  addEvent(chains, updated(2, 'k', [move('a', 'b')]));
  addEvent(chains, updated(2, 'other', [move('x', 'y')]));
  addEvent(chains, {
    type: 'RevisionCommitted',
    data: { projectId: 'p', revisionId: 'm2', seq: 2, comment: '', newDraftRevisionId: 'm3', newDraftSeq: 3 },
  });
  addEvent(chains, updated(3, 'k', [move('b', 'c')]));
  addEvent(chains, updated(1, 'k', [move('c', 'z')]));
  addEvent(chains, updated(4, 'k', [move('c', 'z')]));
  assert.deepEqual(
    chains.chainOf('k', schema({ a: str, n: str }), schema({ n: str, c: str })),
    [move('a', 'b'), move('b', 'c')],
    'drafts outside the stretch are ignored',
  );
  assert.equal(chains.chainOf('k', schema({ a: str, n: str }), schema({ n: str, b: str })), null, 'a chain that does not reach the schema');
  assert.equal(chains.chainOf('none', schema({ a: str }), schema({ b: str })), null, 'no patches in the log');
});

test('a revert of a draft drops the patches that draft had applied', () => {
  const chains = createPatchChains();
  addEvent(chains, updated(2, 'k', [move('a', 'b')]));
  addEvent(chains, {
    type: 'RevisionCommitted',
    data: { projectId: 'p', revisionId: 'm2', seq: 2, comment: '', newDraftRevisionId: 'm3', newDraftSeq: 3 },
  });
  addEvent(chains, updated(3, 'k', [move('b', 'c')]));
  addEvent(chains, { type: 'DraftReverted', data: { projectId: 'p', draftRevisionId: 'm3', draftSeq: 3 } });
  addEvent(chains, updated(3, 'k', [move('b', 'd')]));
  assert.deepEqual(chains.chainOf('k', schema({ a: str }), schema({ d: str })), [move('a', 'b'), move('b', 'd')]);
});

test('verifiedChain refuses a chain that fails to apply or is longer than one updateTable accepts', () => {
  assert.equal(verifiedChain([{ op: 'remove', path: '/properties/none' }], schema({ a: str }), schema({})), null);
  const many = Array.from({ length: 1001 }, (_, i) => ({ op: 'add' as const, path: `/properties/a/description`, value: `${i}` }));
  assert.equal(verifiedChain(many, schema({ a: str }), schema({ a: { ...str, description: '1000' } })), null);
  assert.deepEqual(verifiedChain(many.slice(0, 2), schema({ a: str }), schema({ a: { ...str, description: '1' } })), many.slice(0, 2));
});
