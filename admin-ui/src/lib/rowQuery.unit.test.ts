import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataSortKey, orderByOf, whereOf } from './rowQuery.ts';
import { defaultValue, leafColumns } from './schemaModel.ts';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string', default: 'untitled' },
    views: { type: 'number', default: 0 },
    at: { type: 'string', default: '', format: 'date-time' },
    meta: { type: 'object', properties: { draft: { type: 'boolean', default: true } } },
    tags: { type: 'array', items: { type: 'string', default: '' } },
    id: { $ref: 'urn:jsonschema:io:strata:row-id-schema:1.0.0' },
  },
};

describe('row queries', () => {
  const columns = leafColumns(schema);

  test('leaf columns flatten objects and skip arrays and system refs', () => {
    assert.deepEqual(
      columns.map((c) => [c.label, c.kind, c.sortType]),
      [
        ['title', 'string', 'text'],
        ['views', 'number', 'float'],
        ['at', 'string', 'timestamp'],
        ['meta.draft', 'boolean', 'boolean'],
      ],
    );
  });

  test('where converts the value to the field kind', () => {
    const views = columns[1]!;
    assert.deepEqual(whereOf({ column: views, op: 'gte', value: ' 10 ', insensitive: false }), { where: { data: { path: ['views'], gte: 10 } } });
    assert.ok('error' in whereOf({ column: views, op: 'gte', value: 'ten', insensitive: false }));
    const title = columns[0]!;
    assert.deepEqual(whereOf({ column: title, op: 'string_contains', value: 'Hi', insensitive: true }), {
      where: { data: { path: ['title'], string_contains: 'Hi', mode: 'insensitive' } },
    });
    assert.deepEqual(whereOf({ column: columns[3]!, op: 'equals', value: 'false', insensitive: false }), {
      where: { data: { path: ['meta', 'draft'], equals: false } },
    });
  });

  test('orderBy: system fields by name, data columns by path and sort type', () => {
    assert.equal(orderByOf(null, columns), undefined);
    assert.deepEqual(orderByOf({ key: 'id', direction: 'desc' }, columns), [{ id: 'desc' }]);
    assert.deepEqual(orderByOf({ key: dataSortKey(columns[1]!), direction: 'asc' }, columns), [
      { data: { path: ['views'], direction: 'asc', type: 'float' } },
    ]);
  });

  test('a new row starts from the defaults', () => {
    assert.deepEqual(defaultValue(schema), { title: 'untitled', views: 0, at: '', meta: { draft: true }, tags: [], id: '' });
  });
});
