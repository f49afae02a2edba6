import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftOperation } from '../../contracts/index.ts';
import { createBranchSpec, type BranchSpec } from '../testing/branchDeciderSpec.ts';
import { changes, draftChangesReport as report } from '../testing/draftChangesSpec.ts';
import { createRows, createTable, users, usersSchema } from '../testing/specSchemas.ts';

/** users with u1 ("ann") and u2 ("bartholomew"): a `maxLength: 5` on name leaves u2 invalid. */
function withLongName(): BranchSpec {
  const spec = createBranchSpec();
  spec.exec(createTable('users', usersSchema));
  spec.exec(createRows('users', [...users('ann'), { rowId: 'u2', data: { name: 'bartholomew' } }]));
  return spec;
}

const shortNames = {
  type: 'UpdateTable' as const,
  tableId: 'users',
  patches: [{ op: 'replace', path: '/properties/name', value: { type: 'string', default: '', maxLength: 5 } }],
};

// An UpdateTable inside ApplyDraftChanges checks the rows it migrates on the final draft (merge.md §2.3 validates
// a merge's result): a later operation may still correct, rename or remove them.
describe('ApplyDraftChanges: rows a schema update migrates into invalid data', () => {
  test('a later write or deletion settles them; the events are those of the operations', () => {
    const spec = withLongName();
    const fixed = spec.decide(changes([shortNames, { type: 'UpdateRows', tableId: 'users', rows: [{ rowId: 'u2', data: { name: 'bart' } }] }]));
    assert.deepEqual(
      fixed.map((e) => e.type),
      ['TableSchemaUpdated', 'RowsUpdated'],
    );
    const renamed = [shortNames, { type: 'RenameRow', tableId: 'users', rowId: 'u2', nextRowId: 'u3' } as const];
    const removed = spec.decide(changes([...renamed, { type: 'DeleteRows', tableId: 'users', rowIds: ['u3'] }]));
    assert.deepEqual(
      removed.map((e) => e.type),
      ['TableSchemaUpdated', 'RowRenamed', 'RowsDeleted'],
    );
  });

  test('still invalid on the final draft: INVALID_DATA naming the row, as the single updateTable answers', () => {
    const spec = withLongName();
    const before = structuredClone(spec.state);
    spec.when(changes([shortNames])).thenThrows('INVALID_DATA', (err) => {
      assert.match(err.message, /table "users" for row "u2"/);
      assert.deepEqual(err.details, [{ path: '/name', message: 'must NOT have more than 5 characters', keyword: 'maxLength', rowId: 'u2' }]);
    });
    spec
      .when(changes([shortNames, { type: 'RenameRow', tableId: 'users', rowId: 'u2', nextRowId: 'u3' }]))
      .thenThrows('INVALID_DATA', (err) => assert.match(err.message, /for row "u3"/));
    spec.when({ type: 'UpdateTable', data: { tableId: 'users', patches: shortNames.patches } }).thenThrows('INVALID_DATA');
    assert.deepEqual(spec.state, before);
  });

  test("onInvalidRow 'report' (a dry run only) reports each such row with its data instead of refusing", () => {
    const spec = withLongName();
    const reporting: DraftOperation = { ...shortNames, onInvalidRow: 'report' };
    const done = report(spec, changes([reporting], { dryRun: true }));
    assert.deepEqual(
      done.operations[0]?.invalid.map((row) => [row.index, row.rowId, row.code, row.data, row.details?.map((d) => d.keyword)]),
      [[0, 'u2', 'INVALID_DATA', { name: 'bartholomew' }, ['maxLength']]],
    );
    spec.when(changes([reporting])).thenThrows('BAD_USER_INPUT');
  });
});
