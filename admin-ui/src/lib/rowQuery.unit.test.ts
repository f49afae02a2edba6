import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dataSortKey, orderByOf, rowViewOf, rowViewSearch, whereOf } from './rowQuery.ts';
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

  test('the grid view lives in the address: filter, sort and page cursors round-trip; unknown parts are dropped', () => {
    const views = columns.find((c) => c.label === 'views');
    assert.ok(views);
    const view = {
      filter: { column: views, op: 'gte', value: '5', insensitive: false },
      sort: { key: 'data:views', direction: 'desc' as const },
      cursors: ['c1', 'c2'],
    };
    const search = rowViewSearch(view);
    assert.equal(search, '?field=views&op=gte&value=5&sort=data%3Aviews&dir=desc&after=c1&after=c2');
    assert.deepEqual(rowViewOf(new URLSearchParams(search), columns), view);
    assert.equal(rowViewSearch({ filter: null, sort: null, cursors: [] }), '');
    const title = rowViewOf(new URLSearchParams('?field=title&op=string_contains&value=Hi&case=insensitive&sort=updatedAt'), columns);
    assert.deepEqual(
      [title.filter?.column.label, title.filter?.op, title.filter?.insensitive, title.sort],
      ['title', 'string_contains', true, { key: 'updatedAt', direction: 'asc' }],
    );
    const stale = rowViewOf(new URLSearchParams('?field=gone&op=gte&value=1&sort=data:gone&after='), columns);
    assert.deepEqual(stale, { filter: null, sort: null, cursors: [] });
    assert.equal(
      rowViewOf(new URLSearchParams('?field=views&op=string_contains&value=1'), columns).filter?.op,
      'equals',
      'an operator the field has not',
    );
  });

  test('foreign-key columns name the table they refer to', () => {
    const fk = leafColumns({
      type: 'object',
      properties: { author: { type: 'string', default: '', foreignKey: 'authors' }, title: { type: 'string', default: '' } },
    });
    assert.deepEqual(
      fk.map((c) => c.foreignKey ?? null),
      ['authors', null],
    );
  });
});
