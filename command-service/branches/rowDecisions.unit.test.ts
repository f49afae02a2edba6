import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { draftHasChanges, draftRow, draftTableById, isHeadRow } from './branchContent.ts';
import { createBranchSpec, specTime, type BranchSpec } from '../testing/branchDeciderSpec.ts';
import { commit, createRows, createTable, deleteRows, post, postsSchema, updateRows, users, usersSchema } from '../testing/specSchemas.ts';

const ref = { projectId: 'p1', draftRevisionId: 'rev-1', draftSeq: 1 };

/** users (key id-1) with u1, u2 (created at specTime(3)) and posts (key id-2). */
function withUsersAndPosts(): BranchSpec {
  const spec = createBranchSpec();
  spec.exec(createTable('users', usersSchema));
  spec.exec(createTable('posts', postsSchema));
  spec.exec(createRows('users', users('u1', 'u2')));
  return spec;
}

describe('createRows', () => {
  test('emits RowsCreated with normalized data and times', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    spec.exec(createRows('users', users('u1')));
    const data = { id: 'ignored', reviewers: ['u1'], author: 'u1', views: -0, title: 'x' };
    spec.when(createRows('posts', [{ rowId: 'p1', data }])).then([
      {
        type: 'RowsCreated',
        data: {
          ...ref,
          draftHasChanges: true,
          tableKey: 'id-2',
          rows: [
            {
              rowId: 'p1',
              data: { title: 'x', views: 0, author: 'u1', reviewers: ['u1'], id: '' },
              createdAt: specTime(4),
              updatedAt: specTime(4),
            },
          ],
          table: { tableKey: 'id-2', count: 1, equalsHead: false },
        },
      },
    ]);
    const [event] = spec.decide(createRows('posts', [{ rowId: 'p1', data }]));
    assert.ok(event?.type === 'RowsCreated');
    assert.deepEqual(Object.keys(event.data.rows[0]?.restored ? {} : (event.data.rows[0]?.data ?? {})), Object.keys(postsSchema.properties));
  });

  test('input checks: bulk size, duplicates, row ids, data', () => {
    const spec = withUsersAndPosts();
    spec.when(createRows('users', [])).thenThrows('BAD_USER_INPUT');
    const many = Array.from({ length: 1001 }, (_, i) => ({ rowId: `r${i}`, data: { name: 'x' } }));
    spec.when(createRows('users', many)).thenThrows('BAD_USER_INPUT');
    spec.when(createRows('users', users('a', 'b', 'a'))).thenThrows('BAD_USER_INPUT', (err) => {
      assert.deepEqual(err.details, [{ path: '/rows/2/rowId', message: 'Duplicate row id "a" in the request' }]);
    });
    spec.when(createRows('users', users('a b'))).thenThrows('INVALID_ROW_ID');
    spec
      .when(
        createRows('users', [
          { rowId: 'a', data: { name: 1 } },
          { rowId: 'b', data: { name: 'b', x: 1 } },
        ]),
      )
      .thenThrows('INVALID_DATA', (err) =>
        assert.deepEqual(
          err.details?.map((d) => (d as { index: number; rowId: string }).rowId),
          ['a'],
        ),
      );
    spec
      .when(
        createRows('users', [
          { rowId: 'ok', data: { name: 'ok' } },
          { rowId: 'b', data: { name: 'b', x: 1 } },
        ]),
      )
      .thenThrows('INVALID_DATA', (err) => {
        assert.deepEqual(err.details, [
          { path: '/x', message: 'must NOT have additional properties', keyword: 'additionalProperties', rowId: 'b', index: 1 },
        ]);
      });
    spec.when(createRows('posts', [{ rowId: 'p', data: post({ author: 'u1', id: 5 }) }])).thenThrows('INVALID_DATA');
    spec.when(createRows('nope', users('a'))).thenThrows('TABLE_NOT_FOUND');
  });

  test('existing ids are ROW_ALREADY_EXISTS, all listed', () => {
    const spec = withUsersAndPosts();
    spec.when(createRows('users', users('u1', 'x', 'u2'))).thenThrows('ROW_ALREADY_EXISTS', (err) => {
      assert.equal(err.message, 'Rows already exist: u1, u2');
      assert.deepEqual(err.details, [{ rowId: 'u1' }, { rowId: 'u2' }]);
    });
  });

  test('foreign keys must name existing rows; "" never does', () => {
    const spec = withUsersAndPosts();
    const rows = [
      { rowId: 'p1', data: post({ author: 'u1' }) },
      { rowId: 'p2', data: post({ author: 'u9', reviewers: ['u1', 'x', 'y', 'x'] }) },
    ];
    spec.when(createRows('posts', rows)).thenThrows('FOREIGN_KEY_NOT_FOUND', (err) => {
      assert.deepEqual(err.details, [
        { path: '/author', tableId: 'users', missingRowIds: ['u9'], rowId: 'p2', index: 1 },
        { path: '/reviewers', tableId: 'users', missingRowIds: ['x', 'y'], rowId: 'p2', index: 1 },
      ]);
    });
    spec.when(createRows('posts', [{ rowId: 'p1', data: post({ author: '' }) }], false)).thenThrows('FOREIGN_KEY_NOT_FOUND', (err) => {
      assert.equal(err.message, 'Foreign key error at "/author" in table "posts" for row "p1": "" not found in table "users"');
      assert.deepEqual(err.details, [{ path: '/author', tableId: 'users', missingRowIds: [''] }]);
    });
  });
});

describe('updateRows and patchRows', () => {
  test('no-op writes append nothing; changes keep createdAt', () => {
    const spec = withUsersAndPosts();
    spec.when(updateRows('users', users('u1'))).then([]);
    const [event] = spec.exec(updateRows('users', [{ rowId: 'u1', data: { name: 'new' } }, ...users('u2')]));
    assert.ok(event?.type === 'RowsUpdated');
    assert.deepEqual(event.data.rows, [{ rowId: 'u1', data: { name: 'new' }, createdAt: specTime(3), updatedAt: specTime(4) }]);
    assert.equal(event.data.table.count, 2);
  });

  test('missing rows are ROW_NOT_FOUND, with details only for bulk', () => {
    const spec = withUsersAndPosts();
    spec.when(updateRows('users', users('u1', 'x', 'y'))).thenThrows('ROW_NOT_FOUND', (err) => {
      assert.deepEqual(err.details, [{ rowId: 'x' }, { rowId: 'y' }]);
    });
    spec.when(updateRows('users', users('x'), false)).thenThrows('ROW_NOT_FOUND', (err) => {
      assert.equal(err.message, 'Row "x" not found in table "users"');
      assert.equal(err.details, undefined);
    });
  });

  test('changing a row back to HEAD restores it: HEAD times, readonly, no changes', () => {
    const spec = withUsersAndPosts();
    spec.exec(commit());
    spec.exec(updateRows('users', [{ rowId: 'u1', data: { name: 'new' } }]));
    const table = draftTableById(spec.state, 'users');
    assert.ok(table && !isHeadRow(table, 'u1'));
    const [event] = spec.exec(updateRows('users', users('u1')));
    assert.ok(event?.type === 'RowsUpdated');
    assert.deepEqual(event.data.rows, [{ rowId: 'u1', restored: true }]);
    assert.deepEqual(event.data.table, { tableKey: 'id-1', count: 2, equalsHead: true });
    assert.equal(event.data.draftHasChanges, false);
    const after = draftTableById(spec.state, 'users');
    assert.ok(after && isHeadRow(after, 'u1'));
    assert.equal(draftRow(after, 'u1')?.updatedAt, specTime(3));
    assert.equal(draftHasChanges(spec.state), false);
  });

  test('patch replaces existing paths and validates the whole row', () => {
    const spec = withUsersAndPosts();
    spec.exec(createRows('posts', [{ rowId: 'p1', data: post({ author: 'u1', reviewers: ['u1'] }) }]));
    const patchRows = (patches: unknown) =>
      ({ type: 'PatchRows', data: { tableId: 'posts', rows: [{ rowId: 'p1', patches }], bulk: false } }) as const;
    const [event] = spec.exec(
      patchRows([
        { op: 'replace', path: 'reviewers[0]', value: 'u2' },
        { op: 'replace', path: '/views', value: 3 },
      ]),
    );
    assert.ok(event?.type === 'RowsUpdated');
    assert.deepEqual(event.data.rows[0]?.restored ? null : event.data.rows[0]?.data, post({ author: 'u1', reviewers: ['u2'], views: 3 }));
    spec.when(patchRows([{ op: 'replace', path: 'missing', value: 1 }])).thenThrows('INVALID_PATCH');
    spec.when(patchRows([{ op: 'replace', path: '/views', value: 'x' }])).thenThrows('INVALID_DATA');
    spec.when(patchRows([{ op: 'replace', path: '/author', value: 'u9' }])).thenThrows('FOREIGN_KEY_NOT_FOUND');
    spec.when(patchRows([{ op: 'replace', path: '/views', value: 3 }])).then([]);
  });
});

describe('renameRow', () => {
  const rename = (rowId: string, nextRowId: string) => ({ type: 'RenameRow', data: { tableId: 'users', rowId, nextRowId } }) as const;

  test('rewrites foreign-key values in the draft in the same append', () => {
    const spec = withUsersAndPosts();
    spec.exec(
      createRows('posts', [
        { rowId: 'p1', data: post({ author: 'u1', reviewers: ['u2', 'u1'] }) },
        { rowId: 'p2', data: post({ author: 'u2' }) },
      ]),
    );
    const events = spec.exec(rename('u1', 'alice'));
    assert.deepEqual(
      events.map((e) => e.type),
      ['RowRenamed', 'RowsUpdated'],
    );
    const [renamed, updated] = events;
    assert.ok(renamed?.type === 'RowRenamed' && updated?.type === 'RowsUpdated');
    assert.deepEqual(renamed.data.row, { rowId: 'alice', data: { name: 'u1' }, createdAt: specTime(3), updatedAt: specTime(5) });
    assert.equal(renamed.data.table.count, 2);
    assert.deepEqual(updated.data.rows, [
      { rowId: 'p1', data: post({ author: 'alice', reviewers: ['u2', 'alice'] }), createdAt: specTime(4), updatedAt: specTime(5) },
    ]);
    const users = draftTableById(spec.state, 'users');
    assert.ok(users && draftRow(users, 'u1') === null && draftRow(users, 'alice') !== null);
  });

  test('errors: same id, missing, taken, out-of-scope rewrite', () => {
    const spec = withUsersAndPosts();
    spec.exec(createRows('posts', [{ rowId: 'p1', data: post({ author: 'u1' }) }]));
    spec.when(rename('u1', 'u1')).thenThrows('BAD_USER_INPUT', (err) => assert.equal(err.message, 'New ID must be different from current'));
    spec.when(rename('u1', 'a b')).thenThrows('INVALID_ROW_ID');
    spec.when(rename('x', 'y')).thenThrows('ROW_NOT_FOUND');
    spec.when(rename('u1', 'u2')).thenThrows('ROW_ALREADY_EXISTS', (err) => assert.deepEqual(err.details, [{ rowId: 'u2' }]));
    spec.when(rename('u1', 'z'), { tableInScope: (id) => id === 'users' }).thenThrows('API_KEY_SCOPE');
    assert.equal(spec.decide(rename('u2', 'z'), { tableInScope: (id) => id === 'users' }).length, 1);
  });

  test('renaming back to the HEAD id restores the row', () => {
    const spec = withUsersAndPosts();
    spec.exec(commit());
    spec.exec(rename('u1', 'x'));
    const [back] = spec.exec(rename('x', 'u1'));
    assert.ok(back?.type === 'RowRenamed');
    assert.deepEqual(back.data.row, { rowId: 'u1', restored: true });
    assert.equal(back.data.draftHasChanges, false);
  });
});

describe('deleteRows', () => {
  test('referenced rows are FOREIGN_KEY_IN_USE; checked after the whole request', () => {
    const spec = withUsersAndPosts();
    spec.exec(
      createRows('posts', [
        { rowId: 'p1', data: post({ author: 'u1' }) },
        { rowId: 'p2', data: post({ author: 'u2', reviewers: ['u1'] }) },
      ]),
    );
    spec.when(deleteRows('users', ['u1'], false)).thenThrows('FOREIGN_KEY_IN_USE', (err) => {
      assert.equal(err.message, 'Row "u1" in table "users" is referenced by 2 rows');
      assert.deepEqual(err.details, [{ tableId: 'posts', rowIds: ['p1', 'p2'] }]);
    });
    spec.when(deleteRows('users', ['u1', 'nope', 'x'])).thenThrows('ROW_NOT_FOUND', (err) => {
      assert.deepEqual(err.details, [{ rowId: 'nope' }, { rowId: 'x' }]);
    });
    spec.when(deleteRows('users', ['u1', 'u1'])).thenThrows('BAD_USER_INPUT');
    spec.exec(deleteRows('posts', ['p1', 'p2']));
    const [event] = spec.exec(deleteRows('users', ['u1', 'u2']));
    assert.ok(event?.type === 'RowsDeleted');
    assert.deepEqual(event.data.table, { tableKey: 'id-1', count: 0, equalsHead: false });
  });

  test('created then deleted rows leave no trace', () => {
    const spec = withUsersAndPosts();
    spec.exec(commit());
    spec.exec(createRows('users', users('tmp')));
    const [event] = spec.exec(deleteRows('users', ['tmp']));
    assert.ok(event?.type === 'RowsDeleted');
    assert.deepEqual(event.data.table, { tableKey: 'id-1', count: 2, equalsHead: true });
    assert.equal(event.data.draftHasChanges, false);
    assert.equal(draftHasChanges(spec.state), false);
  });

  test('deleting a HEAD row, then re-creating it equal, restores it', () => {
    const spec = withUsersAndPosts();
    spec.exec(commit());
    spec.exec(deleteRows('users', ['u1']));
    const [event] = spec.exec(createRows('users', users('u1')));
    assert.ok(event?.type === 'RowsCreated');
    assert.deepEqual(event.data.rows, [{ rowId: 'u1', restored: true }]);
    assert.equal(event.data.draftHasChanges, false);
  });
});
