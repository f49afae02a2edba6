import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_DRAFT_ROW_CHANGES } from '../../contracts/index.ts';
import type { DomainEvent, DraftOperation } from '../../contracts/index.ts';
import { draftRow, draftTableById } from './branchContent.ts';
import type { BranchCommandBody } from './branchCommand.ts';
import { createBranchSpec, specTime, type BranchSpec } from '../testing/branchDeciderSpec.ts';
import { changes, draftChangesReport as report } from '../testing/draftChangesSpec.ts';
import { commit, createRows, createTable, post, postsSchema, users, usersSchema } from '../testing/specSchemas.ts';

const refTo = (tableId: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['ref'],
  properties: { ref: { type: 'string', default: '', foreignKey: tableId } },
});

/** Tables `a` and `b` whose rows reference each other (a table never references itself). */
function withCycle(spec: BranchSpec): BranchSpec {
  spec.exec(createTable('a', usersSchema));
  spec.exec(createTable('b', refTo('a')));
  spec.exec({
    type: 'UpdateTable',
    data: { tableId: 'a', patches: [{ op: 'add', path: '/properties/ref', value: { type: 'string', default: '', foreignKey: 'b' } }] },
  });
  return spec;
}

/** users (key id-1) with u1, u2 and posts (key id-2), committed or not. */
function withUsersAndPosts(committed = false): BranchSpec {
  const spec = createBranchSpec();
  spec.exec(createTable('users', usersSchema));
  spec.exec(createTable('posts', postsSchema));
  spec.exec(createRows('users', users('u1', 'u2')));
  if (committed) spec.exec(commit());
  return spec;
}

const eventTypes = (events: readonly DomainEvent[]) => events.map((e) => e.type);

describe('ApplyDraftChanges', () => {
  test('the operations give the events of the same single commands run one after another, and leave the state as it was', () => {
    const ops: DraftOperation[] = [
      { type: 'CreateTable', tableId: 'tags', schema: usersSchema },
      { type: 'CreateRows', tableId: 'tags', rows: users('t1', 't2') },
      { type: 'UpdateRows', tableId: 'users', rows: [{ rowId: 'u1', data: { name: 'one' } }] },
      { type: 'PatchRows', tableId: 'users', rows: [{ rowId: 'u2', patches: [{ op: 'replace', path: '/name', value: 'two' }] }] },
      { type: 'CreateRows', tableId: 'posts', rows: [{ rowId: 'p1', data: post({ author: 'u1' }) }] },
      { type: 'RenameRow', tableId: 'users', rowId: 'u1', nextRowId: 'u1b' },
      { type: 'UpdateTable', tableId: 'tags', patches: [{ op: 'add', path: '/properties/n', value: { type: 'number', default: 0 } }] },
      { type: 'RenameTable', tableId: 'tags', nextTableId: 'labels' },
      { type: 'DeleteRows', tableId: 'labels', rowIds: ['t2'] },
      { type: 'DeleteTable', tableId: 'labels' },
    ];
    const one = withUsersAndPosts(true);
    const before = structuredClone(one.state);
    const meta = { now: specTime(9), newId: 'x' };
    const decided = one.decide(changes(ops), meta);
    assert.deepEqual(one.state, before, 'deciding folds nothing for good');

    const serial = withUsersAndPosts(true);
    const expected = ops.flatMap((op, index) => {
      const { type, ...data } = op;
      const body = { type, data: type.endsWith('Rows') ? { ...data, bulk: true } : data } as BranchCommandBody;
      return serial.exec(body, { ...meta, newId: `x-${index}` });
    });
    assert.deepEqual(decided, expected);
    assert.deepEqual(eventTypes(decided), [
      'TableCreated',
      'RowsCreated',
      'RowsUpdated',
      'RowsUpdated',
      'RowsCreated',
      'RowRenamed',
      'RowsUpdated',
      'TableSchemaUpdated',
      'TableRenamed',
      'RowsDeleted',
      'TableDeleted',
    ]);
  });

  test('a refusal of any operation refuses the whole command and changes nothing', () => {
    const spec = withUsersAndPosts();
    const before = structuredClone(spec.state);
    const ops: DraftOperation[] = [
      { type: 'CreateTable', tableId: 'tags', schema: usersSchema },
      { type: 'CreateRows', tableId: 'users', rows: users('u3') },
      { type: 'UpdateRows', tableId: 'users', rows: users('nope') },
    ];
    spec.when(changes(ops)).thenThrows('ROW_NOT_FOUND', (err) => assert.deepEqual(err.details, [{ rowId: 'nope' }]));
    spec.when(changes([...ops.slice(0, 2), { type: 'CreateTable', tableId: 'tags', schema: usersSchema }])).thenThrows('TABLE_ALREADY_EXISTS');
    spec.when(changes([{ type: 'DeleteTable', tableId: 'users' }])).thenThrows('FOREIGN_KEY_IN_USE');
    assert.deepEqual(spec.state, before);
  });

  test('tables created by one command get distinct keys', () => {
    const spec = createBranchSpec();
    const events = spec.exec(
      changes([
        { type: 'CreateTable', tableId: 'a', schema: usersSchema },
        { type: 'CreateTable', tableId: 'b', schema: usersSchema },
      ]),
    );
    const keys = events.map((e) => (e.type === 'TableCreated' ? e.data.tableKey : null));
    assert.deepEqual(keys, ['id-1-0', 'id-1-1']);
    assert.equal(draftTableById(spec.state, 'b')?.tableKey, 'id-1-1');
  });

  test('foreign keys are checked on the result: rows may reference rows created later, referencing rows may go in any order', () => {
    const spec = withCycle(createBranchSpec());
    spec.exec(createTable('users', usersSchema));
    spec.exec(createTable('posts', postsSchema));
    // Posts before their authors; two rows referencing each other.
    spec.exec(
      changes([
        { type: 'CreateRows', tableId: 'posts', rows: [{ rowId: 'p1', data: post({ author: 'u1', reviewers: ['u2'] }) }] },
        { type: 'UpsertRows', tableId: 'users', rows: users('u1', 'u2') },
        { type: 'CreateRows', tableId: 'a', rows: [{ rowId: 'a1', data: { name: 'a', ref: 'b1' } }] },
        { type: 'CreateRows', tableId: 'b', rows: [{ rowId: 'b1', data: { ref: 'a1' } }] },
      ]),
    );
    const posts = draftTableById(spec.state, 'posts');
    assert.ok(posts && draftRow(posts, 'p1'));

    // A reference left dangling at the end, or a deleted row still referenced: refused.
    spec
      .when(changes([{ type: 'UpdateRows', tableId: 'posts', rows: [{ rowId: 'p1', data: post({ author: 'u9' }) }] }]))
      .thenThrows('FOREIGN_KEY_NOT_FOUND', (err) =>
        assert.deepEqual(err.details, [{ path: '/author', tableId: 'users', missingRowIds: ['u9'], rowId: 'p1' }]),
      );
    spec
      .when(
        changes([
          { type: 'UpsertRows', tableId: 'users', rows: users('u3') },
          { type: 'UpdateRows', tableId: 'posts', rows: [{ rowId: 'p1', data: post({ author: 'u3' }) }] },
          { type: 'DeleteRows', tableId: 'users', rowIds: ['u3'] },
        ]),
      )
      .thenThrows('FOREIGN_KEY_IN_USE', (err) => assert.deepEqual(err.details, [{ tableId: 'posts', rowIds: ['p1'] }]));
    spec.when(changes([{ type: 'DeleteRows', tableId: 'users', rowIds: ['u2'] }])).thenThrows('FOREIGN_KEY_IN_USE', (err) => {
      assert.deepEqual(err.details, [{ tableId: 'posts', rowIds: ['p1'] }]);
    });
    spec.when(changes([{ type: 'DeleteRows', tableId: 'a', rowIds: ['a1'] }])).thenThrows('FOREIGN_KEY_IN_USE');

    // The same deletions with their referrers, in either order; a deleted row created again satisfies its referrers.
    assert.deepEqual(
      eventTypes(
        spec.decide(
          changes([
            { type: 'DeleteRows', tableId: 'users', rowIds: ['u1', 'u2'] },
            { type: 'DeleteRows', tableId: 'posts', rowIds: ['p1'] },
            { type: 'DeleteRows', tableId: 'a', rowIds: ['a1'] },
            { type: 'DeleteRows', tableId: 'b', rowIds: ['b1'] },
          ]),
        ),
      ),
      ['RowsDeleted', 'RowsDeleted', 'RowsDeleted', 'RowsDeleted'],
    );
    spec
      .when(
        changes([
          { type: 'DeleteRows', tableId: 'users', rowIds: ['u2'] },
          { type: 'CreateRows', tableId: 'users', rows: users('u2') },
        ]),
      )
      .then(
        spec.decide(
          changes([
            { type: 'DeleteRows', tableId: 'users', rowIds: ['u2'] },
            { type: 'CreateRows', tableId: 'users', rows: users('u2') },
          ]),
        ),
      );
  });

  test('upsert creates missing rows and replaces existing ones (createdAt kept); unchanged rows are counted, not written', () => {
    const spec = withUsersAndPosts(true);
    const body = changes([{ type: 'UpsertRows', tableId: 'users', rows: [...users('u1', 'u3'), { rowId: 'u2', data: { name: 'two' } }] }]);
    const events = spec.decide(body, { now: specTime(9), newId: 'x' });
    // Both events leave users (key id-1) with 3 rows, in the draft id-4 of the commit.
    const on = {
      projectId: 'p1',
      draftRevisionId: 'id-4',
      draftSeq: 2,
      draftHasChanges: true,
      tableKey: 'id-1',
      table: { tableKey: 'id-1', count: 3, equalsHead: false },
    };
    assert.deepEqual(events, [
      { type: 'RowsCreated', data: { ...on, rows: [{ rowId: 'u3', data: { name: 'u3' }, createdAt: specTime(9), updatedAt: specTime(9) }] } },
      { type: 'RowsUpdated', data: { ...on, rows: [{ rowId: 'u2', data: { name: 'two' }, createdAt: specTime(3), updatedAt: specTime(9) }] } },
    ]);
    assert.deepEqual(report(spec, body), {
      draftRevisionId: 'id-4',
      hasChanges: true,
      rowChanges: 2,
      operations: [{ type: 'UpsertRows', tableId: 'users', created: 1, updated: 1, unchanged: 1, deleted: 0, renamed: 0, invalid: [] }],
      eventCounts: [2],
    });
  });

  test("onInvalidRow 'skip' leaves out and reports each invalid row with its index; the other rows are written", () => {
    const spec = withUsersAndPosts();
    const body = changes([
      {
        type: 'CreateRows',
        tableId: 'users',
        onInvalidRow: 'skip',
        rows: [{ rowId: 'u1', data: { name: 'again' } }, { rowId: 'u3', data: { name: 3 } }, ...users('u4')],
      },
      {
        type: 'PatchRows',
        tableId: 'users',
        onInvalidRow: 'skip',
        rows: [
          { rowId: 'zz', patches: [{ op: 'replace', path: '/name', value: 'z' }] },
          { rowId: 'u2', patches: [{ op: 'replace', path: '/nope', value: 1 }] },
        ],
      },
      {
        type: 'UpsertRows',
        tableId: 'posts',
        onInvalidRow: 'skip',
        // u4, created by the first operation, exists; u3 was left out.
        rows: [
          { rowId: 'p1', data: post({ author: 'u4' }) },
          { rowId: 'p2', data: post({ author: 'u3', reviewers: ['u1', 'u9'] }) },
        ],
      },
    ]);
    const result = report(spec, body);
    const [users0, patch1, posts2] = result.operations;
    assert.deepEqual(
      users0?.invalid.map(({ index, rowId, code }) => ({ index, rowId, code })),
      [
        { index: 0, rowId: 'u1', code: 'ROW_ALREADY_EXISTS' },
        { index: 1, rowId: 'u3', code: 'INVALID_DATA' },
      ],
    );
    assert.deepEqual(users0?.invalid[1]?.details, [{ path: '/name', message: 'must be string', keyword: 'type', rowId: 'u3', index: 1 }]);
    assert.equal(users0?.created, 1);
    assert.deepEqual(
      patch1?.invalid.map(({ index, code }) => ({ index, code })),
      [
        { index: 0, code: 'ROW_NOT_FOUND' },
        { index: 1, code: 'INVALID_PATCH' },
      ],
    );
    assert.deepEqual(posts2?.invalid, [
      {
        index: 1,
        rowId: 'p2',
        code: 'FOREIGN_KEY_NOT_FOUND',
        message: 'Foreign key check failed with 2 errors in table "posts"',
        details: [
          { path: '/author', tableId: 'users', missingRowIds: ['u3'], rowId: 'p2', index: 1 },
          { path: '/reviewers', tableId: 'users', missingRowIds: ['u9'], rowId: 'p2', index: 1 },
        ],
      },
    ]);
    assert.equal(posts2?.created, 1);
    spec.exec(body);
    const posts = draftTableById(spec.state, 'posts');
    const userTable = draftTableById(spec.state, 'users');
    assert.ok(posts && userTable);
    assert.deepEqual(
      ['p1', 'p2'].map((id) => draftRow(posts, id) !== null),
      [true, false],
    );
    assert.deepEqual(
      ['u1', 'u2', 'u3', 'u4'].map((id) => draftRow(userTable, id)?.data.name),
      ['u1', 'u2', undefined, 'u4'],
    );

    // Without 'skip' the same rows refuse the command with the error of a bulk write.
    spec.when(changes([{ type: 'CreateRows', tableId: 'users', rows: [...users('u1', 'u2', 'u7')] }])).thenThrows('ROW_ALREADY_EXISTS', (err) => {
      assert.deepEqual(err.details, [{ rowId: 'u1' }, { rowId: 'u2' }]);
    });
  });

  test('an expected stream revision other than the draft stream revision is CONCURRENT_MODIFICATION', () => {
    const empty = createBranchSpec();
    empty.when(changes([], { expectedStreamRevision: 0 })).thenThrows('CONCURRENT_MODIFICATION');
    empty
      .when(changes([{ type: 'CreateTable', tableId: 'a', schema: usersSchema }], { expectedStreamRevision: 'no_stream' }))
      .then(empty.decide(changes([{ type: 'CreateTable', tableId: 'a', schema: usersSchema }])));
    const spec = withUsersAndPosts();
    assert.equal(spec.state.streamRevision, 2);
    spec.when(changes([], { expectedStreamRevision: 'no_stream' })).thenThrows('CONCURRENT_MODIFICATION');
    spec.when(changes([], { expectedStreamRevision: 1 })).thenThrows('CONCURRENT_MODIFICATION');
    spec.when(changes([], { expectedStreamRevision: 2 })).then([]);
    spec.when(changes([], { expectedStreamRevision: -1 })).thenThrows('BAD_USER_INPUT');
  });

  test('a merge record is appended after the operations, with the draft it applied to', () => {
    const spec = withUsersAndPosts(true);
    const merge = { sourceRevisionId: 'src', baseRevisionId: 'base', totalRowChanges: 1 };
    const events = spec.decide(changes([{ type: 'UpsertRows', tableId: 'users', rows: users('u5') }], { merge }), { now: specTime(9), newId: 'x' });
    assert.deepEqual(eventTypes(events), ['RowsCreated', 'MergeRecorded']);
    assert.deepEqual(events[1]?.data, { projectId: 'p1', draftRevisionId: 'id-4', draftSeq: 2, draftHasChanges: true, ...merge });
    // A merge that changes nothing is still recorded.
    spec
      .when(changes([], { merge }))
      .then([{ type: 'MergeRecorded', data: { projectId: 'p1', draftRevisionId: 'id-4', draftSeq: 2, draftHasChanges: false, ...merge } }]);
  });

  test('input checks name the operation', () => {
    const spec = withUsersAndPosts();
    spec
      .when(
        changes([
          { type: 'UpsertRows', tableId: 'users', rows: [] },
          { type: 'CreateRows', tableId: 'users', rows: users('a', 'a') },
        ]),
      )
      .thenThrows('BAD_USER_INPUT', (err) =>
        assert.deepEqual(err.details, [{ path: '/operations/1/rows/1/rowId', message: 'Duplicate row id "a" in the request' }]),
      );
    spec.when(changes([{ type: 'RenameTable', tableId: 'users', nextTableId: 'users' }])).thenThrows('BAD_USER_INPUT', (err) => {
      assert.deepEqual(err.details, [{ path: '/operations/0/nextTableId', message: 'New ID must be different from current' }]);
    });
    spec.when(changes([{ type: 'UpsertRows', tableId: 'users', rows: users('a b') }])).thenThrows('INVALID_ROW_ID');
    spec.when(changes([{ type: 'DropEverything', tableId: 'users' } as unknown as DraftOperation])).thenThrows('BAD_USER_INPUT');
    spec.when(changes([], { merge: { sourceRevisionId: 's', baseRevisionId: 'b', totalRowChanges: -1 } })).thenThrows('BAD_USER_INPUT');
  });

  test(`at most ${MAX_DRAFT_ROW_CHANGES} row changes per command (LIMIT_EXCEEDED)`, () => {
    const spec = withUsersAndPosts();
    const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ rowId: `r${from + i}`, data: { name: 'n' } }));
    const half = MAX_DRAFT_ROW_CHANGES / 2;
    spec
      .when(
        changes([
          { type: 'UpsertRows', tableId: 'users', rows: rows(0, half) },
          { type: 'UpsertRows', tableId: 'users', rows: rows(half, half - 2) },
          { type: 'DeleteRows', tableId: 'users', rowIds: ['u1', 'u2', 'r0'] },
        ]),
      )
      .thenThrows('LIMIT_EXCEEDED');
    const events = spec.decide(changes([{ type: 'UpsertRows', tableId: 'users', rows: rows(0, MAX_DRAFT_ROW_CHANGES) }]));
    assert.equal(events.length, 1);
  });
});
