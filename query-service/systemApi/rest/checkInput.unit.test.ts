import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../../../contracts/index.ts';
import { coerceInput } from './checkInput.ts';
import { buildSystemSchema, dataInputOf } from '../graphql/systemSchema.ts';

const schema = buildSystemSchema();
const input = (root: 'Query' | 'Mutation', field: string) => {
  const type = dataInputOf(schema, root, field);
  assert.ok(type);
  return type;
};

function failure(fn: () => unknown): { message: string; details: unknown } {
  try {
    fn();
  } catch (err) {
    assert.ok(isAppError(err, 'BAD_USER_INPUT'), String(err));
    return { message: err.message, details: err.details };
  }
  assert.fail('expected BAD_USER_INPUT');
}

describe('coerceInput', () => {
  const createRows = input('Mutation', 'createRows');
  const pathIds = new Set(['revisionId', 'tableId']);

  test('accepts a valid body, keeps JSON values, leaves out the path ids', () => {
    const body = { rows: [{ rowId: 'a', data: { nested: { list: [1, 'x', null] } } }] };
    assert.deepEqual(coerceInput(createRows, body, pathIds), body);
  });

  test('unknown, missing and mistyped fields are reported with JSON Pointers into the body', () => {
    const { message, details } = failure(() =>
      coerceInput(createRows, { rows: [{ rowId: 'a', data: 1 }, { rowId: 5 }], extra: true, tableId: 't' }, pathIds),
    );
    assert.equal(message, 'Invalid input: 4 errors');
    assert.deepEqual(details, [
      { path: '/extra', message: 'extra is not a known field' },
      { path: '/tableId', message: 'tableId is not a known field' },
      { path: '/rows/1/rowId', message: 'rowId must be a string' },
      { path: '/rows/1/data', message: 'data is required' },
    ]);
  });

  test('one error names its pointer in the message; a non-object body is refused', () => {
    assert.equal(failure(() => coerceInput(createRows, {}, pathIds)).message, 'Invalid input at "/rows": rows is required');
    assert.deepEqual(failure(() => coerceInput(createRows, [1], pathIds)).details, [{ path: '', message: 'body must be an object' }]);
    assert.deepEqual(failure(() => coerceInput(createRows, { rows: null }, pathIds)).details, [{ path: '/rows', message: 'rows must not be null' }]);
  });

  test('defaults apply, enums and scalars are checked like GraphQL does', () => {
    const createUser = input('Mutation', 'createUser');
    assert.deepEqual(coerceInput(createUser, { username: 'u', password: 'p' }), { username: 'u', password: 'p', role: 'systemUser' });
    assert.deepEqual(failure(() => coerceInput(createUser, { username: 'u', password: 'p', role: 'king', email: 3 })).details, [
      { path: '/role', message: 'role must be one of systemAdmin, systemUser' },
      { path: '/email', message: 'email must be a string' },
    ]);
    const updateProject = input('Mutation', 'updateProject');
    assert.deepEqual(failure(() => coerceInput(updateProject, { isPublic: 'yes' }, new Set(['organizationId', 'projectName']))).details, [
      { path: '/isPublic', message: 'isPublic must be a boolean' },
    ]);
    const deactivate = input('Mutation', 'deactivateUser');
    assert.deepEqual(coerceInput(deactivate, { userId: 42 }), { userId: '42' }, 'ID accepts integers as GraphQL does');
  });

  test('a single value stands for a list; nested inputs are checked', () => {
    const rows = input('Query', 'rows');
    const out = coerceInput(rows, { where: { data: { path: 'a', equals: 1 } }, orderBy: { createdAt: 'desc' }, first: 5 }, pathIds);
    assert.deepEqual(out, {
      first: 5,
      where: { data: { path: ['a'], equals: 1, mode: 'default' } },
      orderBy: [{ createdAt: 'desc' }],
    });
    assert.deepEqual(failure(() => coerceInput(rows, { first: 1.5, where: { data: { path: 'a', bogus: 1 } } }, pathIds)).details, [
      { path: '/first', message: 'first must be an integer' },
      { path: '/where/data/bogus', message: 'bogus is not a known field' },
    ]);
  });
});
