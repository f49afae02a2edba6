import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { draftHasChanges, draftRow, draftTableById, draftTables, isHeadRow } from './branchContent.ts';
import { createBranchSpec } from '../testing/branchDeciderSpec.ts';
import { commit, createRows, createTable, deleteRows, updateRows, users, usersSchema } from '../testing/specSchemas.ts';

describe('commit (CreateRevision)', () => {
  test('a draft without changes is NO_CHANGES', () => {
    createBranchSpec()
      .when(commit())
      .thenThrows('NO_CHANGES', (err) => assert.equal(err.message, 'There are no changes'));
  });

  test('emits RevisionCommitted and merges the draft into HEAD', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createRows('users', users('a', 'b')));
    spec.when(commit('first')).then([
      {
        type: 'RevisionCommitted',
        data: { projectId: 'p1', revisionId: 'rev-1', seq: 1, comment: 'first', newDraftRevisionId: 'id-3', newDraftSeq: 2 },
      },
    ]);
    spec.exec(commit('first'));
    assert.equal(spec.state.headRevisionId, 'rev-1');
    assert.equal(spec.state.draftRevisionId, 'id-3');
    assert.equal(spec.state.headSeq, 1);
    assert.equal(draftHasChanges(spec.state), false);
    const table = draftTableById(spec.state, 'users');
    assert.ok(table && table.overlay === null && isHeadRow(table, 'a'));
    assert.equal(spec.state.head.get('id-1')?.rows.size, 2);

    // Second commit: changes of the new draft merge in place.
    spec.exec(updateRows('users', [{ rowId: 'a', data: { name: 'A' } }]));
    spec.exec(deleteRows('users', ['b']));
    const [event] = spec.exec(commit());
    assert.ok(event?.type === 'RevisionCommitted');
    assert.deepEqual({ ...event.data }, { projectId: 'p1', revisionId: 'id-3', seq: 2, comment: '', newDraftRevisionId: 'id-6', newDraftSeq: 3 });
    const head = spec.state.head.get('id-1');
    assert.deepEqual([...(head?.rows.keys() ?? [])], ['a']);
    assert.deepEqual(head?.rows.get('a')?.data, { name: 'A' });
    // Events after the commit name the new draft.
    const [next] = spec.exec(createRows('users', users('c')));
    assert.ok(next?.type === 'RowsCreated');
    assert.equal(next.data.draftRevisionId, 'id-6');
    assert.equal(next.data.draftSeq, 3);
  });

  test('comment longer than 1000 characters is BAD_USER_INPUT', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.when(commit('x'.repeat(1001))).thenThrows('BAD_USER_INPUT');
    assert.equal(spec.decide(commit('😀'.repeat(1000))).length, 1);
  });

  test('a table-scoped key cannot commit changes outside its tables', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('other', usersSchema));
    spec.when(commit(), { tableInScope: (id) => id === 'users' }).thenThrows('API_KEY_SCOPE');
    spec.exec(commit());
    spec.exec({ type: 'RenameTable', data: { tableId: 'other', nextTableId: 'users2' } });
    // The old id of a renamed table counts too.
    spec.when(commit(), { tableInScope: (id) => id === 'users2' }).thenThrows('API_KEY_SCOPE');
    assert.equal(spec.decide(commit(), { tableInScope: (id) => id === 'users2' || id === 'other' }).length, 1);
  });
});

describe('revert (RevertChanges)', () => {
  test('NO_CHANGES without changes; otherwise the draft becomes HEAD again and keeps its id', () => {
    const spec = createBranchSpec();
    spec.when({ type: 'RevertChanges', data: {} }).thenThrows('NO_CHANGES');
    spec.exec(createTable('users', usersSchema));
    spec.exec(createRows('users', users('a')));
    spec.exec(commit());
    spec.exec(createTable('more', usersSchema));
    spec.exec({ type: 'RenameTable', data: { tableId: 'users', nextTableId: 'people' } });
    spec.exec(updateRows('people', [{ rowId: 'a', data: { name: 'changed' } }]));
    spec.when({ type: 'RevertChanges', data: {} }).then([{ type: 'DraftReverted', data: { projectId: 'p1', draftRevisionId: 'id-3', draftSeq: 2 } }]);
    spec.exec({ type: 'RevertChanges', data: {} });
    assert.equal(spec.state.draftRevisionId, 'id-3');
    assert.equal(draftHasChanges(spec.state), false);
    assert.deepEqual(
      draftTables(spec.state).map((t) => t.tableId),
      ['users'],
    );
    const table = draftTableById(spec.state, 'users');
    assert.deepEqual(table && draftRow(table, 'a')?.data, { name: 'a' });
  });
});
