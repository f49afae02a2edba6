import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { draftTableById, draftHasChanges, draftRow } from './branchContent.ts';
import { createBranchSpec, specTime } from '../testing/branchDeciderSpec.ts';
import { commit, createRows, createTable, post, postsSchema, users, usersSchema } from '../testing/specSchemas.ts';

const ref = { projectId: 'p1', draftRevisionId: 'rev-1', draftSeq: 1 };

describe('createTable', () => {
  test('emits TableCreated with a new key and facts', () => {
    createBranchSpec()
      .when(createTable('users', usersSchema))
      .then([
        {
          type: 'TableCreated',
          data: {
            ...ref,
            draftHasChanges: true,
            tableKey: 'id-1',
            tableId: 'users',
            schema: usersSchema,
            table: { tableKey: 'id-1', count: 0, equalsHead: false },
          },
        },
      ]);
  });

  test('rejects bad ids, bad schemas, foreign keys to missing tables or itself', () => {
    const spec = createBranchSpec();
    spec.when(createTable('1users', usersSchema)).thenThrows('INVALID_TABLE_ID');
    spec.when(createTable('Strata_x', usersSchema)).thenThrows('RESERVED_NAME');
    spec.when(createTable('users', { type: 'object' })).thenThrows('INVALID_SCHEMA');
    spec.when(createTable('posts', postsSchema)).thenThrows('INVALID_SCHEMA');
    const self = { ...usersSchema, required: ['boss'], properties: { boss: { type: 'string', default: '', foreignKey: 'users' } } };
    spec.when(createTable('users', self)).thenThrows('INVALID_SCHEMA');
  });

  test('ids are unique case-insensitively', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.when(createTable('USERS', usersSchema)).thenThrows('TABLE_ALREADY_EXISTS');
  });

  test('at most 1000 tables per revision', () => {
    const spec = createBranchSpec();
    for (let i = 0; i < 1000; i++) spec.exec(createTable(`t${i}`, usersSchema));
    spec.when(createTable('one_more', usersSchema)).thenThrows('LIMIT_EXCEEDED', (err) => {
      assert.equal(err.message, 'A revision can hold at most 1000 tables');
    });
  });

  test('created then deleted leaves no trace', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    const [deleted] = spec.exec({ type: 'DeleteTable', data: { tableId: 'users' } });
    assert.equal(deleted?.type, 'TableDeleted');
    assert.equal(deleted.type === 'TableDeleted' && deleted.data.draftHasChanges, false);
    assert.equal(draftHasChanges(spec.state), false);
  });
});

describe('renameTable', () => {
  test('same id is BAD_USER_INPUT; missing table; taken id', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('other', usersSchema));
    spec.when({ type: 'RenameTable', data: { tableId: 'users', nextTableId: 'users' } }).thenThrows('BAD_USER_INPUT', (err) => {
      assert.equal(err.message, 'New ID must be different from current');
    });
    spec.when({ type: 'RenameTable', data: { tableId: 'nope', nextTableId: 'x' } }).thenThrows('TABLE_NOT_FOUND');
    spec.when({ type: 'RenameTable', data: { tableId: 'users', nextTableId: 'OTHER' } }).thenThrows('TABLE_ALREADY_EXISTS');
    assert.equal(spec.exec({ type: 'RenameTable', data: { tableId: 'users', nextTableId: 'Users' } }).length, 1);
  });

  test('rewrites foreignKey declarations of other tables in the same event', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    spec.exec(commit());
    const [event] = spec.exec({ type: 'RenameTable', data: { tableId: 'users', nextTableId: 'people' } });
    assert.ok(event?.type === 'TableRenamed');
    assert.equal(event.data.previousTableId, 'users');
    assert.equal(event.data.tableId, 'people');
    assert.deepEqual(event.data.table, { tableKey: 'id-1', count: 0, equalsHead: false });
    const [rewrite] = event.data.schemaRewrites;
    assert.equal(rewrite?.tableKey, 'id-2');
    const props = (rewrite?.schema as typeof postsSchema).properties;
    assert.equal(props.author.foreignKey, 'people');
    assert.equal(props.reviewers.items.foreignKey, 'people');
    assert.deepEqual(Object.keys(rewrite?.schema ?? {}), Object.keys(postsSchema));
    const posts = draftTableById(spec.state, 'posts');
    assert.equal(posts?.updatedAt, specTime(4));
    assert.equal(draftTableById(spec.state, 'users'), null);
    // Renaming back restores both tables to HEAD.
    const [back] = spec.exec({ type: 'RenameTable', data: { tableId: 'people', nextTableId: 'users' } });
    assert.ok(back?.type === 'TableRenamed');
    assert.equal(back.data.table.equalsHead, true);
    assert.equal(back.data.schemaRewrites[0]?.table.equalsHead, true);
    assert.equal(back.data.draftHasChanges, false);
    assert.equal(draftTableById(spec.state, 'posts')?.updatedAt, specTime(2));
  });

  test('rewriting a table outside the key scope is API_KEY_SCOPE', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    spec
      .when({ type: 'RenameTable', data: { tableId: 'users', nextTableId: 'people' } }, { tableInScope: (id) => id !== 'posts' })
      .thenThrows('API_KEY_SCOPE');
  });
});

describe('deleteTable', () => {
  test('a table referenced by another schema is FOREIGN_KEY_IN_USE', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    spec.when({ type: 'DeleteTable', data: { tableId: 'users' } }).thenThrows('FOREIGN_KEY_IN_USE', (err) => {
      assert.deepEqual(err.details, [{ tableId: 'posts' }]);
    });
    spec.when({ type: 'DeleteTable', data: { tableId: 'nope' } }).thenThrows('TABLE_NOT_FOUND');
    spec.exec({ type: 'DeleteTable', data: { tableId: 'posts' } });
    assert.equal(spec.exec({ type: 'DeleteTable', data: { tableId: 'users' } })[0]?.type, 'TableDeleted');
  });
});

describe('updateTable', () => {
  const patch = (patches: unknown) => ({ type: 'UpdateTable', data: { tableId: 'users', patches } }) as const;

  test('migrates every row in one event; changed rows get a new updatedAt', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createRows('users', users('a', 'b')));
    spec.exec(commit());
    const [event] = spec.exec(patch([{ op: 'add', path: '/properties/age', value: { type: 'number', default: 7 } }]));
    assert.ok(event?.type === 'TableSchemaUpdated');
    assert.deepEqual(event.data.rows, [
      { rowId: 'a', data: { name: 'a', age: 7 }, createdAt: specTime(2), updatedAt: specTime(4) },
      { rowId: 'b', data: { name: 'b', age: 7 }, createdAt: specTime(2), updatedAt: specTime(4) },
    ]);
    assert.deepEqual(event.data.table, { tableKey: 'id-1', count: 2, equalsHead: false });
    assert.deepEqual((event.data.schema as { required: string[] }).required, ['name', 'age']);
    const table = draftTableById(spec.state, 'users');
    assert.equal(table?.updatedAt, specTime(4));
    assert.deepEqual(table && draftRow(table, 'a')?.data, { name: 'a', age: 7 });
    // Removing the property again restores table and rows to HEAD.
    const [back] = spec.exec(patch([{ op: 'remove', path: '/properties/age' }]));
    assert.ok(back?.type === 'TableSchemaUpdated');
    assert.deepEqual(back.data.rows, [
      { rowId: 'a', restored: true },
      { rowId: 'b', restored: true },
    ]);
    assert.equal(back.data.table.equalsHead, true);
    assert.equal(back.data.draftHasChanges, false);
  });

  test('keyword-only changes migrate nothing; an unchanged schema is a no-op', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createRows('users', users('a')));
    const [event] = spec.exec(patch([{ op: 'add', path: '/properties/name/description', value: 'Name' }]));
    assert.ok(event?.type === 'TableSchemaUpdated');
    assert.deepEqual(event.data.rows, []);
    spec.when(patch([{ op: 'replace', path: '/properties/name/description', value: 'Name' }])).then([]);
  });

  test('rows violating the new schema are INVALID_DATA with rowId', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createRows('users', users('a', 'bob')));
    spec.when(patch([{ op: 'add', path: '/properties/name/pattern', value: '^(b.*)?$' }])).thenThrows('INVALID_DATA', (err) => {
      assert.deepEqual(
        err.details?.map((d) => ({ ...(d as object), message: undefined })),
        [{ path: '/name', keyword: 'pattern', rowId: 'a', message: undefined }],
      );
    });
  });

  test('added or retargeted foreign keys are checked on migrated data', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', { ...usersSchema, properties: { name: { type: 'string', default: '' } } }));
    spec.exec(createRows('users', users('u1')));
    spec.exec(createRows('posts', [{ rowId: 'p1', data: { name: 'u9' } }]));
    const body = {
      type: 'UpdateTable',
      data: { tableId: 'posts', patches: [{ op: 'add', path: '/properties/name/foreignKey', value: 'users' }] },
    } as const;
    spec.when(body).thenThrows('FOREIGN_KEY_NOT_FOUND', (err) => {
      assert.deepEqual(err.details, [{ path: '/name', tableId: 'users', missingRowIds: ['u9'], rowId: 'p1' }]);
    });
    const addRequired = [{ op: 'add', path: '/properties/owner', value: { type: 'string', default: '', foreignKey: 'users' } }];
    spec.when({ type: 'UpdateTable', data: { tableId: 'posts', patches: addRequired } }).thenThrows('FOREIGN_KEY_NOT_FOUND');
  });

  test('bad patches and schemas', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.when(patch([])).thenThrows('BAD_USER_INPUT');
    spec.when(patch([{ op: 'test', path: '/properties/name', value: 1 }])).thenThrows('INVALID_PATCH');
    spec.when(patch([{ op: 'add', path: '/properties/name/foreignKey', value: 'users' }])).thenThrows('INVALID_SCHEMA');
    spec
      .when({ type: 'UpdateTable', data: { tableId: 'nope', patches: [{ op: 'remove', path: '/properties/name' }] } })
      .thenThrows('TABLE_NOT_FOUND');
  });

  test('rows are kept in the state with the right facts for posts', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    spec.exec(createRows('users', users('u1')));
    spec.exec(createRows('posts', [{ rowId: 'p1', data: post({ author: 'u1' }) }]));
    assert.equal(draftTableById(spec.state, 'posts')?.count, 1);
  });
});
