import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTableModel, defaultValueOf, foreignKeyFields, nodeAtDataPath } from './tableModel.ts';
import { fillSystemRefs, normalizeRowData } from './rowData.ts';
import { SYSTEM_REFS, SYSTEM_REF_URNS, type TableSchema } from './tableSchema.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'published', 'author', 'tags', 'address', 'meta', 'lines'],
  properties: {
    title: { type: 'string', default: 'untitled', description: 'Headline', title: 'Title', deprecated: true },
    views: { type: 'number', default: 0, readOnly: true },
    published: { type: 'boolean', default: false },
    author: { type: 'string', default: '', foreignKey: 'users' },
    tags: { type: 'array', items: { type: 'string', default: '', foreignKey: 'tags' } },
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['city', 'zip', 'country'],
      properties: {
        city: { type: 'string', default: 'Paris', foreignKey: 'cities' },
        zip: { type: 'number', default: 75000 },
        country: { type: 'string', default: 'FR', enum: ['FR', 'DE'], pattern: '^[A-Z]+$', format: 'regex' },
      },
    },
    meta: { $ref: SYSTEM_REFS.rowUpdatedAt, description: 'Last change' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sku', 'rowId'],
        properties: {
          sku: { type: 'string', default: '', contentMediaType: 'text/plain' },
          rowId: { $ref: SYSTEM_REFS.rowId },
        },
      },
    },
  },
} as const satisfies TableSchema;

describe('compileTableModel', () => {
  const model = compileTableModel(schema);

  test('keeps property order, kinds and keywords', () => {
    assert.deepEqual(
      model.root.properties.map((p) => [p.name, p.node.kind]),
      [
        ['title', 'string'],
        ['views', 'number'],
        ['published', 'boolean'],
        ['author', 'string'],
        ['tags', 'array'],
        ['address', 'object'],
        ['meta', 'systemRef'],
        ['lines', 'array'],
      ],
    );
    assert.deepEqual(model.root.byName.get('title'), {
      kind: 'string',
      default: 'untitled',
      title: 'Title',
      description: 'Headline',
      deprecated: true,
    });
    assert.deepEqual(model.root.byName.get('views'), { kind: 'number', default: 0, readOnly: true });
    assert.deepEqual(model.root.byName.get('meta'), { kind: 'systemRef', ref: SYSTEM_REFS.rowUpdatedAt, description: 'Last change' });
    const country = nodeAtDataPath(model, ['address', 'country']);
    assert.deepEqual(country, { kind: 'string', default: 'FR', enum: ['FR', 'DE'], pattern: '^[A-Z]+$', format: 'regex' });
    assert.deepEqual(nodeAtDataPath(model, ['lines', 0, 'sku']), { kind: 'string', default: '', contentMediaType: 'text/plain' });
  });

  test('-0 defaults become 0', () => {
    const m = compileTableModel({
      type: 'object',
      additionalProperties: false,
      required: ['n'],
      properties: { n: { type: 'number', default: -0 } },
    });
    assert.ok(Object.is((defaultValueOf(m.root) as { n: number }).n, 0));
  });

  test('foreign keys with data paths', () => {
    assert.deepEqual(foreignKeyFields(model), [
      { dataPath: ['author'], tableId: 'users' },
      { dataPath: ['tags', '*'], tableId: 'tags' },
      { dataPath: ['address', 'city'], tableId: 'cities' },
    ]);
  });

  test('system refs with data paths', () => {
    assert.deepEqual(model.systemRefs, [
      { dataPath: ['meta'], ref: SYSTEM_REFS.rowUpdatedAt },
      { dataPath: ['lines', '*', 'rowId'], ref: SYSTEM_REFS.rowId },
    ]);
    assert.equal(SYSTEM_REF_URNS.length, 5);
  });

  test('nodeAtDataPath', () => {
    assert.equal(nodeAtDataPath(model, []), model.root);
    assert.equal(nodeAtDataPath(model, ['tags'])?.kind, 'array');
    assert.equal(nodeAtDataPath(model, ['tags', '*'])?.kind, 'string');
    assert.equal(nodeAtDataPath(model, ['tags', 3])?.kind, 'string');
    assert.equal(nodeAtDataPath(model, ['tags', '12'])?.kind, 'string');
    assert.equal(nodeAtDataPath(model, ['lines', '*', 'rowId'])?.kind, 'systemRef');
    assert.equal(nodeAtDataPath(model, ['missing']), null);
    assert.equal(nodeAtDataPath(model, ['tags', 'x']), null);
    assert.equal(nodeAtDataPath(model, ['tags', -1]), null);
    assert.equal(nodeAtDataPath(model, ['tags', 1.5]), null);
    assert.equal(nodeAtDataPath(model, ['tags', '01']), null);
    assert.equal(nodeAtDataPath(model, ['title', 'x']), null);
    assert.equal(nodeAtDataPath(model, [0]), null);
    assert.equal(nodeAtDataPath(model, ['toString']), null);
  });

  test('defaultValueOf builds nested defaults', () => {
    assert.deepEqual(defaultValueOf(model.root), {
      title: 'untitled',
      views: 0,
      published: false,
      author: '',
      tags: [],
      address: { city: 'Paris', zip: 75000, country: 'FR' },
      meta: '',
      lines: [],
    });
    const a = defaultValueOf(model.root);
    const b = defaultValueOf(model.root);
    assert.notEqual(a, b);
  });
});

describe('normalizeRowData', () => {
  const model = compileTableModel(schema);

  test('orders keys by schema, -0 -> 0, system refs -> ""', () => {
    const data = {
      lines: [{ rowId: 'whatever', sku: 'a' }],
      meta: 'client value',
      address: { country: 'DE', zip: -0, city: 'Berlin' },
      tags: ['x'],
      author: 'u1',
      published: true,
      views: -0,
      title: 'Hi',
    };
    const out = normalizeRowData(model, data);
    assert.equal(
      JSON.stringify(out),
      JSON.stringify({
        title: 'Hi',
        views: 0,
        published: true,
        author: 'u1',
        tags: ['x'],
        address: { city: 'Berlin', zip: 0, country: 'DE' },
        meta: '',
        lines: [{ sku: 'a', rowId: '' }],
      }),
    );
    assert.ok(Object.is((out as { views: number }).views, 0));
    assert.ok(Object.is(data.views, -0), 'input untouched');
    assert.equal(data.meta, 'client value');
  });

  test('unknown keys are kept at the end', () => {
    const m = compileTableModel({
      type: 'object',
      additionalProperties: false,
      required: ['a', 'b'],
      properties: { a: { type: 'number', default: 0 }, b: { type: 'number', default: 0 } },
    });
    assert.deepEqual(Object.keys(normalizeRowData(m, { z: 1, b: 2, a: 1 }) as object), ['a', 'b', 'z']);
  });
});

describe('fillSystemRefs', () => {
  const model = compileTableModel(schema);
  const stored = {
    title: 'Hi',
    views: 1,
    published: true,
    author: 'u1',
    tags: [],
    address: { city: 'Paris', zip: 1, country: 'FR' },
    meta: '',
    lines: [
      { sku: 'a', rowId: '' },
      { sku: 'b', rowId: '' },
    ],
  };

  test('fills every system ref and shares untouched subtrees', () => {
    let hashCalls = 0;
    const out = fillSystemRefs(model, stored, {
      id: 'r1',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-02-01T00:00:00.000Z',
      hash: () => {
        hashCalls++;
        return 'h';
      },
      schemaHash: 's',
    }) as typeof stored;
    assert.equal(out.meta, '2025-02-01T00:00:00.000Z');
    assert.deepEqual(out.lines, [
      { sku: 'a', rowId: 'r1' },
      { sku: 'b', rowId: 'r1' },
    ]);
    assert.equal(out.address, stored.address);
    assert.equal(stored.meta, '');
    assert.equal(stored.lines[0]?.rowId, '');
    assert.equal(hashCalls, 0, 'lazy hash not needed');
    assert.deepEqual(Object.keys(out), Object.keys(stored));
  });

  test('every urn maps to its value; lazy values computed once', () => {
    const props = Object.fromEntries(SYSTEM_REF_URNS.map((ref, i) => [`f${i}`, { $ref: ref }]));
    const m = compileTableModel({
      type: 'object',
      additionalProperties: false,
      required: Object.keys(props),
      properties: props,
    } as TableSchema);
    let calls = 0;
    const out = fillSystemRefs(
      m,
      { f0: '', f1: '', f2: '', f3: '', f4: '' },
      {
        id: 'id',
        createdAt: 'c',
        updatedAt: 'u',
        hash: () => {
          calls++;
          return 'h';
        },
        schemaHash: () => 's',
      },
    );
    assert.deepEqual(out, { f0: 'id', f1: 'c', f2: 'u', f3: 'h', f4: 's' });
    assert.equal(calls, 1);
  });

  test('returns data itself without system refs', () => {
    const m = compileTableModel({ type: 'object', additionalProperties: false, required: [], properties: {} });
    const data = {};
    assert.equal(fillSystemRefs(m, data, { id: 'x', createdAt: '', updatedAt: '', hash: '', schemaHash: '' }), data);
  });
});
