import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftOperation } from '../../contracts/index.ts';
import { createBranchSpec, type BranchSpec } from '../testing/branchDeciderSpec.ts';
import { changes, draftChangesReport as report } from '../testing/draftChangesSpec.ts';
import { createRows, createTable, post, postsSchema, users, usersSchema } from '../testing/specSchemas.ts';

/** users ann and bartholomew (too long once names are limited to 5 characters); post p1 by ann. */
function withPost(): BranchSpec {
  const spec = createBranchSpec();
  spec.exec(createTable('users', usersSchema));
  spec.exec(createTable('posts', postsSchema));
  spec.exec(createRows('users', users('ann', 'bartholomew')));
  spec.exec(createRows('posts', [{ rowId: 'p1', data: post({ author: 'ann' }) }]));
  return spec;
}

const shortNames: DraftOperation = {
  type: 'UpdateTable',
  tableId: 'users',
  patches: [{ op: 'replace', path: '/properties/name', value: { type: 'string', default: '', maxLength: 5 } }],
  onInvalidRow: 'report',
};
const deleteAnn: DraftOperation = { type: 'DeleteRows', tableId: 'users', rowIds: ['ann'] };

// A merge preview lists every conflict of its result at once (merge.md §2.3, §3): its dry run answers a deletion
// still referenced with the invalid rows, rather than refusing before they are reported.
describe("ApplyDraftChanges onReferencedRow: 'report'", () => {
  test('a dry run answers the referenced deletion in `referenced` and still reports the invalid migrated rows', () => {
    const spec = withPost();
    const done = report(spec, changes([shortNames, deleteAnn], { dryRun: true, onReferencedRow: 'report' }));
    assert.deepEqual(
      done.operations[0]?.invalid.map((row) => row.rowId),
      ['bartholomew'],
    );
    assert.deepEqual(done.referenced, [
      { message: 'Row "ann" in table "users" is referenced by 1 row', details: [{ tableId: 'posts', rowIds: ['p1'] }] },
    ]);
    assert.equal(report(spec, changes([shortNames], { dryRun: true, onReferencedRow: 'report' })).referenced?.length, 0);
  });

  test("by default the deletion refuses the command; 'report' needs a dry run", () => {
    const spec = withPost();
    spec.when(changes([shortNames, deleteAnn], { dryRun: true })).thenThrows('FOREIGN_KEY_IN_USE');
    spec.when(changes([deleteAnn], { onReferencedRow: 'report' })).thenThrows('BAD_USER_INPUT');
  });
});
