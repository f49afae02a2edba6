import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainEvent, DraftOperation, StagedTotals } from '../../contracts/index.ts';
import { decideBranch } from './branchDecider.ts';
import type { DraftChangesDecision } from './draftChangesDecision.ts';
import { bundleOperations, eventsAfterPrefix, stagedBundleFacts, tableKeySeedOf } from './stagedBundle.ts';
import { createBranchSpec, specTime } from '../testing/branchDeciderSpec.ts';
import { createRows, createTable, post, postsSchema, users, usersSchema } from '../testing/specSchemas.ts';

const TOTALS: StagedTotals = { events: 0, rowChanges: 0, netRows: 0, inOverlay: 0, overlayTouched: 0, hasChanges: false };

/** users u1, u2 in the draft; posts created by the bundle's prefix. */
function decideChunk(operations: readonly DraftOperation[], prefix: number, replacedTables: string[] = []): DraftChangesDecision {
  const spec = createBranchSpec();
  spec.exec(createTable('users', usersSchema));
  spec.exec(createRows('users', users('u1', 'u2')));
  const ops = bundleOperations(operations, { prefix, replacedTables });
  const data = { operations: ops, dryRun: true, tableKeySeed: tableKeySeedOf('draft:staging') };
  const metadata = { projectId: 'p1', tableInScope: () => true, now: specTime(9), newId: 'fresh' };
  const decision = decideBranch({ type: 'ApplyDraftChanges', data, metadata } as never, spec.state, spec.tools);
  assert.ok(decision.report);
  return decision as DraftChangesDecision;
}

const createPosts: DraftOperation = { type: 'CreateTable', tableId: 'posts', schema: postsSchema };
const rowsOf = (...authors: string[]): DraftOperation => ({
  type: 'UpsertRows',
  tableId: 'posts',
  rows: authors.map((author, i) => ({ rowId: `p${i}`, data: post({ author, reviewers: [author] }) })),
  onInvalidRow: 'skip',
});

describe('staged bundle chunks', () => {
  test('the prefix is decided again with the same table keys; only the events after it are the chunk’s', () => {
    const first = decideChunk([createPosts], 0);
    const chunk = decideChunk([createPosts, rowsOf('u1')], 1);
    const [created] = first.events;
    assert.equal(created?.type, 'TableCreated');
    const own = eventsAfterPrefix(chunk.events, chunk.report.eventCounts, 1);
    assert.deepEqual(
      own.map((event) => event.type),
      ['RowsCreated'],
    );
    assert.equal(
      (own[0] as Extract<DomainEvent, { type: 'RowsCreated' }>).data.tableKey,
      (created as Extract<DomainEvent, { type: 'TableCreated' }>).data.tableKey,
    );
  });

  test('references the draft lacks, and every one into a replaced table, are deferred, not refused; "" is refused', () => {
    const merge = decideChunk([createPosts, rowsOf('u1', 'a9', '')], 1);
    const [written] = merge.report.operations.slice(1);
    assert.equal(written?.created, 2);
    assert.deepEqual(
      written?.invalid.map((row) => [row.index, row.code]),
      [[2, 'FOREIGN_KEY_NOT_FOUND']],
    );
    assert.deepEqual(written?.deferredReferences, [
      { index: 1, rowId: 'p1', path: '/author', tableId: 'users', rowIds: ['a9'] },
      { index: 1, rowId: 'p1', path: '/reviewers', tableId: 'users', rowIds: ['a9'] },
    ]);
    const replace = decideChunk([createPosts, rowsOf('u1')], 1, ['users']);
    assert.deepEqual(
      replace.report.operations[1]?.deferredReferences?.map((ref) => ref.rowIds),
      [['u1'], ['u1']],
    );
  });

  test('deleting a referenced row is left to the bundle’s reference checks', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    spec.exec(createRows('users', users('u1')));
    spec.exec(createRows('posts', [{ rowId: 'p0', data: post({ author: 'u1' }) }]));
    const deletion: DraftOperation = { type: 'DeleteRows', tableId: 'users', rowIds: ['u1'] };
    const metadata = { projectId: 'p1', tableInScope: () => true, now: specTime(9), newId: 'fresh' };
    const decide = (operations: DraftOperation[]) =>
      decideBranch({ type: 'ApplyDraftChanges', data: { operations, dryRun: true }, metadata } as never, spec.state, spec.tools);
    assert.throws(() => decide([deletion]), { code: 'FOREIGN_KEY_IN_USE' });
    const decision = decide(bundleOperations([deletion], { prefix: 0, replacedTables: ['users', 'posts'] }));
    assert.equal(decision.report?.operations[0]?.deleted, 1);
  });

  test('a chunk holds table operations, then rows of one table', () => {
    assert.throws(() => bundleOperations([rowsOf('u1'), createPosts], { prefix: 1, replacedTables: [] }), /table operations in its prefix/);
    const other: DraftOperation = { type: 'DeleteRows', tableId: 'users', rowIds: ['u1'] };
    assert.throws(() => bundleOperations([createPosts, rowsOf('u1'), other], { prefix: 1, replacedTables: [] }), /rows of one table/);
    assert.throws(() => bundleOperations([createPosts], { prefix: 2, replacedTables: [] }), /prefix within/);
  });

  test('row events count the rows earlier chunks created in their table, and say the table differs', () => {
    const chunk = decideChunk([createPosts, rowsOf('u1', 'u2')], 1);
    const own = eventsAfterPrefix(chunk.events, chunk.report.eventCounts, 1);
    const tableKey = (own[0] as Extract<DomainEvent, { type: 'RowsCreated' }>).data.tableKey;
    const { events, after } = stagedBundleFacts(own, { ...TOTALS, events: 3, rowChanges: 5, netRows: 5, netRowsByTable: { [tableKey]: 5 } });
    const [event] = events as Extract<DomainEvent, { type: 'RowsCreated' }>[];
    assert.deepEqual(event?.data.table, { tableKey, count: 7, equalsHead: false });
    assert.equal(event?.data.draftHasChanges, true);
    assert.deepEqual(after, { ...TOTALS, events: 4, rowChanges: 7, netRows: 7, hasChanges: true, netRowsByTable: { [tableKey]: 7 } });
  });
});
