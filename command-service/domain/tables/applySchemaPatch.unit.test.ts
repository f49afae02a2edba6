import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_REFS, applySchemaPatch, isAppError, type ErrorCode } from '../../../contracts/index.ts';
import { assertValidTableSchema } from './validateTableSchema.ts';
import { arr, bool, num, obj, str, type Json } from '../../testing/specSchemas.ts';

const base = obj({
  title: str('untitled'),
  views: num(),
  tags: arr(str()),
  address: obj({ city: str('Paris'), zip: num(75000) }),
  lines: arr(obj({ sku: str(), qty: num(1) })),
});

const row = {
  title: 'Hello',
  views: 12,
  tags: ['a', 'b'],
  address: { city: 'Lyon', zip: 69000 },
  lines: [
    { sku: 'x', qty: 2 },
    { sku: 'y', qty: 3 },
  ],
};

function patch(patches: unknown, schema: Json = base): ReturnType<typeof applySchemaPatch> {
  return applySchemaPatch(schema, patches);
}

function fails(patches: unknown, code: ErrorCode, detail?: { index: number; path: string }, schema: Json = base): string {
  try {
    applySchemaPatch(schema, patches);
  } catch (err) {
    assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
    if (detail !== undefined) {
      const first = err.details?.[0];
      assert.equal(first?.index, detail.index);
      assert.equal(first?.path, detail.path);
      assert.equal(first?.message, err.message);
    }
    return err.message;
  }
  assert.fail(`expected ${code}`);
}

describe('applySchemaPatch: operation list', () => {
  test('1 to 1000 operations, else BAD_USER_INPUT', () => {
    fails([], 'BAD_USER_INPUT');
    fails({}, 'BAD_USER_INPUT');
    fails(null, 'BAD_USER_INPUT');
    const many = Array.from({ length: 1001 }, () => ({ op: 'add', path: '/description', value: 'x' }));
    fails(many, 'BAD_USER_INPUT');
    assert.equal(patch(many.slice(0, 1000)).schema.description, 'x');
  });

  test('test, unknown and malformed operations are INVALID_PATCH with the failing index', () => {
    const ok = { op: 'add', path: '/description', value: 'x' };
    assert.match(fails([ok, { op: 'test', path: '/type', value: 'object' }], 'INVALID_PATCH', { index: 1, path: '/type' }), /test/);
    fails([{ op: 'merge', path: '/x', value: 1 }], 'INVALID_PATCH', { index: 0, path: '/x' });
    fails([{ path: '/x', value: 1 }], 'INVALID_PATCH', { index: 0, path: '/x' });
    fails(['add'], 'INVALID_PATCH', { index: 0, path: '' });
    fails([{ op: 'add', value: 1 }], 'INVALID_PATCH', { index: 0, path: '' });
    fails([{ op: 'add', path: '/properties/n' }], 'INVALID_PATCH', { index: 0, path: '/properties/n' });
    fails([{ op: 'replace', path: '/properties/title' }], 'INVALID_PATCH', { index: 0, path: '/properties/title' });
    fails([{ op: 'move', path: '/properties/n' }], 'INVALID_PATCH', { index: 0, path: '/properties/n' });
    fails([{ op: 'copy', path: '/properties/n', from: 1 }], 'INVALID_PATCH', { index: 0, path: '/properties/n' });
    fails([{ op: 'add', path: 'properties/n', value: str() }], 'INVALID_PATCH', { index: 0, path: 'properties/n' });
    fails([{ op: 'add', path: '/properties/a~2', value: str() }], 'INVALID_PATCH', { index: 0, path: '/properties/a~2' });
  });

  test('paths that are neither node nor keyword paths of an existing node', () => {
    assert.equal(
      fails([{ op: 'add', path: '/properties/missing/properties/x', value: str() }], 'INVALID_PATCH', {
        index: 0,
        path: '/properties/missing/properties/x',
      }),
      'Path not found: /properties/missing/properties/x',
    );
    fails([{ op: 'replace', path: '/properties/missing', value: str() }], 'INVALID_PATCH', { index: 0, path: '/properties/missing' });
    fails([{ op: 'remove', path: '/properties/missing' }], 'INVALID_PATCH', { index: 0, path: '/properties/missing' });
    fails([{ op: 'remove', path: '/properties/title/description' }], 'INVALID_PATCH', { index: 0, path: '/properties/title/description' });
    fails([{ op: 'replace', path: '/properties/title/description', value: 'x' }], 'INVALID_PATCH');
    fails([{ op: 'add', path: '/properties/title/properties/x', value: str() }], 'INVALID_PATCH');
    fails([{ op: 'move', from: '/properties/nope', path: '/properties/x' }], 'INVALID_PATCH', { index: 0, path: '/properties/nope' });
  });

  test('forbidden targets', () => {
    for (const path of [
      '',
      '/type',
      '/required',
      '/required/0',
      '/additionalProperties',
      '/properties',
      '/properties/address/required',
      '/properties/address/additionalProperties',
      '/properties/address/properties',
      '/properties/lines/items/required',
    ]) {
      for (const op of ['add', 'replace', 'remove']) fails([{ op, path, value: 'x' }], 'INVALID_PATCH', { index: 0, path });
    }
    fails([{ op: 'copy', from: '/required', path: '/description' }], 'INVALID_PATCH', { index: 0, path: '/required' });
    fails([{ op: 'move', from: '/properties/title', path: '' }], 'INVALID_PATCH', { index: 0, path: '' });
  });
});

describe('applySchemaPatch: node operations', () => {
  test('add a property: appended to properties and required; rows get its default', () => {
    const result = patch([
      { op: 'add', path: '/properties/published', value: bool(true) },
      { op: 'add', path: '/properties/meta', value: obj({ note: str('n'), list: arr(num()) }) },
      { op: 'add', path: '/properties/updated', value: { $ref: SYSTEM_REFS.rowUpdatedAt } },
    ]);
    assert.deepEqual(Object.keys(result.schema.properties), ['title', 'views', 'tags', 'address', 'lines', 'published', 'meta', 'updated']);
    assert.deepEqual(result.schema.required, ['title', 'views', 'tags', 'address', 'lines', 'published', 'meta', 'updated']);
    assert.ok(result.changesData);
    const migrated = result.migrate(row) as Json;
    assert.equal(migrated.published, true);
    assert.deepEqual(migrated.meta, { note: 'n', list: [] });
    assert.equal(migrated.updated, '');
    assert.equal(migrated.title, 'Hello');
  });

  test('add a nested property and a property of array items (every element)', () => {
    const result = patch([
      { op: 'add', path: '/properties/address/properties/country', value: str('FR') },
      { op: 'add', path: '/properties/lines/items/properties/price', value: num(9.5) },
    ]);
    assert.deepEqual((result.schema.properties.address as Json).required, ['city', 'zip', 'country']);
    assert.deepEqual(((result.schema.properties.lines as Json).items as Json).required, ['sku', 'qty', 'price']);
    const migrated = result.migrate(row) as typeof row;
    assert.deepEqual(migrated.address, { city: 'Lyon', zip: 69000, country: 'FR' });
    assert.deepEqual(migrated.lines, [
      { sku: 'x', qty: 2, price: 9.5 },
      { sku: 'y', qty: 3, price: 9.5 },
    ]);
    assertValidTableSchema(result.schema, { existingTableIds: [], selfTableId: 't' });
  });

  test('add at an existing node path behaves as replace (with conversion)', () => {
    const result = patch([{ op: 'add', path: '/properties/views', value: str() }]);
    assert.deepEqual(result.schema.properties.views, str());
    assert.deepEqual(result.schema.required, base.required);
    assert.equal((result.migrate(row) as Json).views, '12');
  });

  test('remove a property, nested property and a property of array items', () => {
    const result = patch([
      { op: 'remove', path: '/properties/views' },
      { op: 'remove', path: '/properties/address/properties/zip' },
      { op: 'remove', path: '/properties/lines/items/properties/qty' },
    ]);
    assert.deepEqual(result.schema.required, ['title', 'tags', 'address', 'lines']);
    assert.deepEqual((result.schema.properties.address as Json).required, ['city']);
    assert.deepEqual(result.migrate(row), {
      title: 'Hello',
      tags: ['a', 'b'],
      address: { city: 'Lyon' },
      lines: [{ sku: 'x' }, { sku: 'y' }],
    });
  });

  test('array items cannot be removed, moved or copied', () => {
    fails([{ op: 'remove', path: '/properties/tags/items' }], 'INVALID_PATCH', { index: 0, path: '/properties/tags/items' });
    fails([{ op: 'move', from: '/properties/tags/items', path: '/properties/tag' }], 'INVALID_PATCH');
    fails([{ op: 'copy', from: '/properties/title', path: '/properties/tags/items' }], 'INVALID_PATCH');
  });

  test('replace at /items converts every element', () => {
    const result = patch([{ op: 'replace', path: '/properties/tags/items', value: num() }]);
    assert.deepEqual((result.migrate({ ...row, tags: ['1', 'x', ' 2.5 '] }) as Json).tags, [1, 0, 2.5]);
  });

  test('move renames a property: schema, required and data', () => {
    const result = patch([{ op: 'move', from: '/properties/title', path: '/properties/headline' }]);
    assert.deepEqual(Object.keys(result.schema.properties), ['views', 'tags', 'address', 'lines', 'headline']);
    assert.deepEqual(result.schema.required, ['views', 'tags', 'address', 'lines', 'headline']);
    assert.deepEqual(result.schema.properties.headline, str('untitled'));
    const migrated = result.migrate(row) as Json;
    assert.equal(migrated.headline, 'Hello');
    assert.ok(!('title' in migrated));
  });

  test('move onto an existing property replaces it; move out of a nested object', () => {
    const onto = patch([{ op: 'move', from: '/properties/views', path: '/properties/title' }]);
    assert.deepEqual(onto.schema.properties.title, num());
    assert.deepEqual(onto.schema.required, ['title', 'tags', 'address', 'lines']);
    assert.equal((onto.migrate(row) as Json).title, 12);
    const out = patch([{ op: 'move', from: '/properties/address/properties/city', path: '/properties/city' }]);
    assert.deepEqual((out.schema.properties.address as Json).required, ['zip']);
    const migrated = out.migrate(row) as Json;
    assert.equal(migrated.city, 'Lyon');
    assert.deepEqual(migrated.address, { zip: 69000 });
  });

  test('move and copy inside array items apply to every element', () => {
    const result = patch([
      { op: 'move', from: '/properties/lines/items/properties/sku', path: '/properties/lines/items/properties/code' },
      { op: 'copy', from: '/properties/lines/items/properties/qty', path: '/properties/lines/items/properties/qty2' },
    ]);
    assert.deepEqual((result.migrate(row) as typeof row).lines, [
      { qty: 2, code: 'x', qty2: 2 },
      { qty: 3, code: 'y', qty2: 3 },
    ]);
  });

  test('move and copy across array contexts or into itself are refused', () => {
    fails([{ op: 'move', from: '/properties/lines/items/properties/sku', path: '/properties/sku' }], 'INVALID_PATCH');
    fails([{ op: 'copy', from: '/properties/title', path: '/properties/lines/items/properties/title' }], 'INVALID_PATCH');
    fails([{ op: 'move', from: '/properties/address', path: '/properties/address/properties/inner' }], 'INVALID_PATCH');
  });

  test('copy: node and data are copied deeply', () => {
    const result = patch([{ op: 'copy', from: '/properties/address', path: '/properties/billing' }]);
    assert.deepEqual(result.schema.properties.billing, base.properties && (base.properties as Json).address);
    assert.deepEqual(result.schema.required, [...(base.required as string[]), 'billing']);
    const migrated = result.migrate(row) as Json;
    assert.deepEqual(migrated.billing, { city: 'Lyon', zip: 69000 });
    assert.notEqual(migrated.billing, migrated.address);
    const self = patch([{ op: 'copy', from: '/properties/address', path: '/properties/address/properties/previous' }]);
    assert.deepEqual((self.migrate(row) as Json).address, { city: 'Lyon', zip: 69000, previous: { city: 'Lyon', zip: 69000 } });
  });

  test('move and copy onto the same path change nothing', () => {
    const result = patch([
      { op: 'move', from: '/properties/title', path: '/properties/title' },
      { op: 'copy', from: '/properties/views', path: '/properties/views' },
    ]);
    assert.deepEqual(result.schema, base);
    assert.deepEqual(result.migrate(row), row);
  });

  test('operations apply in order, schema and data together', () => {
    const result = patch([
      { op: 'add', path: '/properties/rating', value: str('5') },
      { op: 'move', from: '/properties/rating', path: '/properties/score' },
      { op: 'replace', path: '/properties/score', value: num() },
      { op: 'add', path: '/properties/score/description', value: 'Score' },
    ]);
    assert.deepEqual(result.schema.properties.score, { ...num(), description: 'Score' });
    assert.equal((result.migrate(row) as Json).score, 5);
  });

  test('neither the input schema, the patches nor the row are changed', () => {
    const schemaCopy = structuredClone(base);
    const rowCopy = structuredClone(row);
    const value = obj({ a: str() });
    const patches = [
      { op: 'add', path: '/properties/x', value },
      { op: 'add', path: '/properties/x/properties/b', value: num() },
      { op: 'remove', path: '/properties/tags' },
    ];
    const result = patch(patches);
    result.migrate(row);
    assert.deepEqual(base, schemaCopy);
    assert.deepEqual(row, rowCopy);
    assert.deepEqual(value, obj({ a: str() }));
  });
});

describe('applySchemaPatch: keyword operations', () => {
  test('keywords change, rows do not', () => {
    const schema = obj({ status: { type: 'string', default: 'a', enum: ['a', 'b'] }, title: str() });
    const result = patch(
      [
        { op: 'add', path: '/properties/status/enum/-', value: 'c' },
        { op: 'add', path: '/properties/status/enum/0', value: 'z' },
        { op: 'remove', path: '/properties/status/enum/2' },
        { op: 'add', path: '/properties/title/description', value: 'Title' },
        { op: 'copy', from: '/properties/title/description', path: '/properties/status/description' },
        { op: 'move', from: '/properties/title/description', path: '/properties/title/title' },
        { op: 'replace', path: '/properties/status/default', value: 'z' },
        { op: 'add', path: '/description', value: 'Root' },
        { op: 'add', path: '/title', value: 'T' },
      ],
      schema,
    );
    assert.deepEqual(result.schema, {
      ...schema,
      description: 'Root',
      title: 'T',
      properties: {
        status: { type: 'string', default: 'z', enum: ['z', 'a', 'c'], description: 'Title' },
        title: { type: 'string', default: '', title: 'Title' },
      },
    });
    assert.equal(result.changesData, false);
    const data = { status: 'a', title: 'x' };
    assert.deepEqual(result.migrate(data), data);
  });

  test('a keyword-level type change is not converted', () => {
    const result = patch([{ op: 'replace', path: '/properties/views/type', value: 'string' }]);
    assert.equal((result.migrate(row) as Json).views, 12);
    assert.throws(() => assertValidTableSchema(result.schema, { existingTableIds: [], selfTableId: 't' }));
  });

  test('index out of range and mixed node/keyword move', () => {
    const schema = obj({ status: { type: 'string', default: 'a', enum: ['a'] } });
    fails([{ op: 'add', path: '/properties/status/enum/5', value: 'x' }], 'INVALID_PATCH', { index: 0, path: '/properties/status/enum/5' }, schema);
    fails([{ op: 'remove', path: '/properties/status/enum/1' }], 'INVALID_PATCH', undefined, schema);
    fails([{ op: 'move', from: '/properties/status/enum', path: '/properties/x' }], 'INVALID_PATCH', undefined, schema);
    fails([{ op: 'move', from: '/properties/status', path: '/properties/status/description' }], 'INVALID_PATCH', undefined, schema);
  });
});
