import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_REFS, isAppError } from '../../../contracts/index.ts';
import { assertValidTableSchema } from './validateTableSchema.ts';

const ctx = { existingTableIds: ['users', 'posts', 'tags'], selfTableId: 'posts' };

function obj(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties, ...extra };
}

/** A table schema with one property `p`. */
const withProp = (node: unknown): Record<string, unknown> => obj({ p: node });

function violations(schema: unknown): { path: string; message: string }[] {
  try {
    assertValidTableSchema(schema, ctx);
  } catch (err) {
    assert.ok(isAppError(err, 'INVALID_SCHEMA'), String(err));
    return err.details as { path: string; message: string }[];
  }
  return [];
}

function refused(schema: unknown, path: string): void {
  const found = violations(schema);
  assert.ok(
    found.some((d) => d.path === path),
    `expected a violation at "${path}", got ${JSON.stringify(found)}`,
  );
}

function accepted(schema: unknown): void {
  assert.deepEqual(violations(schema), []);
}

describe('assertValidTableSchema: accepted schemas', () => {
  test('the spec example', () => {
    accepted(
      obj({
        title: { type: 'string', default: '', description: 'Headline' },
        views: { type: 'number', default: 0 },
        published: { type: 'boolean', default: false },
        author: { type: 'string', default: '', foreignKey: 'users' },
        tags: { type: 'array', items: { type: 'string', default: '' } },
        meta: { $ref: SYSTEM_REFS.rowUpdatedAt },
      }),
    );
  });

  test('empty object and annotations on every kind', () => {
    const ann = { title: 'T', description: 'D', deprecated: true };
    accepted(obj({}));
    accepted(
      obj(
        {
          s: { type: 'string', default: '', readOnly: true, ...ann },
          n: { type: 'number', default: 1.5, readOnly: false, ...ann },
          b: { type: 'boolean', default: true, readOnly: true, ...ann },
          o: obj({}, ann),
          a: { type: 'array', items: { type: 'number', default: 0 }, ...ann },
          r: { $ref: SYSTEM_REFS.rowId, ...ann },
        },
        ann,
      ),
    );
  });

  test('string keywords', () => {
    accepted(withProp({ type: 'string', default: 'b', enum: ['a', 'b', ''] }));
    accepted(withProp({ type: 'string', default: 'abc', pattern: '^\\p{L}+$' }));
    for (const format of ['date-time', 'date', 'time', 'email', 'regex']) {
      accepted(withProp({ type: 'string', default: '', format }));
    }
    accepted(withProp({ type: 'string', default: '2024-02-29', format: 'date' }));
    accepted(withProp({ type: 'string', default: '2024-02-29T10:00:00Z', format: 'date-time' }));
    accepted(withProp({ type: 'string', default: '10:00:00+02:00', format: 'time' }));
    accepted(withProp({ type: 'string', default: 'a@b.co', format: 'email' }));
    accepted(withProp({ type: 'string', default: '^a+$', format: 'regex' }));
    for (const media of ['text/plain', 'text/markdown', 'text/html', 'application/json', 'application/schema+json', 'application/yaml']) {
      accepted(withProp({ type: 'string', default: '', contentMediaType: media }));
    }
  });

  test('foreign keys directly and as array items; all five system refs', () => {
    accepted(withProp({ type: 'string', default: '', foreignKey: 'users' }));
    accepted(withProp({ type: 'array', items: { type: 'string', default: '', foreignKey: 'tags' } }));
    for (const ref of Object.values(SYSTEM_REFS)) accepted(withProp({ $ref: ref }));
    accepted(obj({ o: obj({ inner: { $ref: SYSTEM_REFS.rowHash } }) }));
    accepted(withProp({ type: 'array', items: obj({ id: { $ref: SYSTEM_REFS.rowId } }) }));
  });

  test('required in any order; nested arrays', () => {
    accepted({ ...obj({ a: { type: 'number', default: 0 }, b: { type: 'number', default: 0 } }), required: ['b', 'a'] });
    accepted(withProp({ type: 'array', items: { type: 'array', items: { type: 'boolean', default: false } } }));
  });
});

describe('assertValidTableSchema: refused schemas', () => {
  test('root must be an object node', () => {
    refused(null, '');
    refused([], '');
    refused('x', '');
    refused({ type: 'string', default: '' }, '/type');
    refused({ $ref: SYSTEM_REFS.rowId }, '');
    refused({ properties: {} }, '/type');
  });

  test('JSON Schema keywords outside the subset', () => {
    refused(obj({}, { $schema: 'https://json-schema.org/draft/2020-12/schema' }), '/$schema');
    refused(obj({}, { $id: 'x' }), '/$id');
    refused(obj({}, { $defs: {} }), '/$defs');
    refused(withProp({ type: 'integer', default: 0, exclusiveMinimum: 0 }), '/properties/p/exclusiveMinimum');
    refused(withProp({ type: 'number', default: 0, multipleOf: 2 }), '/properties/p/multipleOf');
    refused(withProp({ type: 'null' }), '/properties/p/type');
    refused(withProp({ type: ['string', 'null'], default: '' }), '/properties/p/type');
    refused(withProp({ oneOf: [] }), '/properties/p/type');
    refused(withProp({ type: 'string', default: '', const: 'a' }), '/properties/p/const');
    refused(withProp({ type: 'boolean', default: false, minimum: 0 }), '/properties/p/minimum');
    refused(withProp({ type: 'string', default: '', minItems: 0 }), '/properties/p/minItems');
    refused(withProp({ type: 'number', default: 0, minLength: 0 }), '/properties/p/minLength');
    refused(withProp({ type: 'array', items: { type: 'string', default: '' }, minimum: 0 }), '/properties/p/minimum');
    refused(withProp({ type: 'boolean', default: false, 'x-unique': true }), '/properties/p/x-unique');
    refused(withProp(obj({}, { 'x-index': true })), '/properties/p/x-index');
    refused(withProp({ type: 'number', default: 0, pattern: 'a' }), '/properties/p/pattern');
    refused(withProp({ type: 'boolean', default: false, enum: ['a'] }), '/properties/p/enum');
    refused(withProp({ type: 'array', items: { type: 'string', default: '' }, default: [] }), '/properties/p/default');
    refused(withProp(obj({}, { readOnly: true })), '/properties/p/readOnly');
    refused(withProp({ type: 'array', items: { type: 'number', default: 0 }, readOnly: true }), '/properties/p/readOnly');
    refused(withProp({ $ref: SYSTEM_REFS.rowId, type: 'string' }), '/properties/p/type');
    refused(withProp({ $ref: SYSTEM_REFS.rowId, readOnly: true }), '/properties/p/readOnly');
    refused(withProp({ type: 'number', default: 0, foreignKey: 'users' }), '/properties/p/foreignKey');
    refused(withProp({ type: 'string', default: '', 'x/y': 1 }), '/properties/p/x~1y');
  });

  test('required keys per kind', () => {
    refused(withProp({ type: 'string' }), '/properties/p/default');
    refused(withProp({ type: 'number' }), '/properties/p/default');
    refused(withProp({ type: 'boolean' }), '/properties/p/default');
    refused(withProp({ type: 'array' }), '/properties/p/items');
    refused({ type: 'object', additionalProperties: false, required: [] }, '/properties');
    refused({ type: 'object', properties: {}, required: [] }, '/additionalProperties');
    refused({ type: 'object', properties: {}, additionalProperties: false }, '/required');
    refused(withProp({}), '/properties/p/type');
  });

  test('annotation and readOnly types', () => {
    refused(withProp({ type: 'string', default: '', title: 1 }), '/properties/p/title');
    refused(withProp({ type: 'string', default: '', description: null }), '/properties/p/description');
    refused(withProp({ type: 'string', default: '', deprecated: 'yes' }), '/properties/p/deprecated');
    refused(withProp({ type: 'string', default: '', readOnly: 1 }), '/properties/p/readOnly');
    refused(withProp({ $ref: SYSTEM_REFS.rowId, title: 2 }), '/properties/p/title');
  });

  test('object rules', () => {
    refused({ ...obj({}), additionalProperties: true }, '/additionalProperties');
    refused({ ...obj({}), additionalProperties: {} }, '/additionalProperties');
    refused({ ...obj({}), properties: [] }, '/properties');
    refused({ ...obj({ a: { type: 'number', default: 0 } }), required: [] }, '/required');
    refused({ ...obj({ a: { type: 'number', default: 0 } }), required: ['a', 'a'] }, '/required/1');
    refused({ ...obj({ a: { type: 'number', default: 0 } }), required: ['a', 'b'] }, '/required/1');
    refused({ ...obj({ a: { type: 'number', default: 0 } }), required: [1] }, '/required/0');
    refused({ ...obj({}), required: 'a' }, '/required');
    refused(withProp('string'), '/properties/p');
    refused(withProp(null), '/properties/p');
    refused(withProp(obj({ q: { type: 'number', default: 'x' } })), '/properties/p/properties/q/default');
  });

  test('property names', () => {
    for (const name of ['__a', '1a', 'a-b', 'a b', '', 'x'.repeat(65), 'é']) {
      refused(obj({ [name]: { type: 'number', default: 0 } }), `/properties/${name}`);
    }
    refused(obj({ 'a/b': { type: 'number', default: 0 } }), '/properties/a~1b');
    accepted(obj({ ['x'.repeat(64)]: { type: 'number', default: 0 }, _a: { type: 'number', default: 0 } }));
  });

  test('enum', () => {
    refused(withProp({ type: 'string', default: '', enum: [] }), '/properties/p/enum');
    refused(withProp({ type: 'string', default: '', enum: 'a' }), '/properties/p/enum');
    refused(withProp({ type: 'string', default: 'a', enum: ['a', 'a'] }), '/properties/p/enum/1');
    refused(withProp({ type: 'string', default: 'a', enum: ['a', 1] }), '/properties/p/enum/1');
    refused(withProp({ type: 'string', default: 'c', enum: ['a', 'b'] }), '/properties/p/default');
    refused(withProp({ type: 'string', default: '', enum: ['a', 'b'] }), '/properties/p/default');
  });

  test('pattern compiles with the u flag and applies to the default', () => {
    refused(withProp({ type: 'string', default: '', pattern: '(' }), '/properties/p/pattern');
    refused(withProp({ type: 'string', default: '', pattern: '\\-' }), '/properties/p/pattern');
    refused(withProp({ type: 'string', default: '', pattern: 1 }), '/properties/p/pattern');
    refused(withProp({ type: 'string', default: '', pattern: '^a' }), '/properties/p/default');
    refused(withProp({ type: 'string', default: 'b', pattern: '^a' }), '/properties/p/default');
  });

  test('format and contentMediaType value sets; defaults must match the format or be ""', () => {
    refused(withProp({ type: 'string', default: '', format: 'uri' }), '/properties/p/format');
    refused(withProp({ type: 'string', default: '', format: 'uuid' }), '/properties/p/format');
    refused(withProp({ type: 'string', default: '', contentMediaType: 'image/png' }), '/properties/p/contentMediaType');
    refused(withProp({ type: 'string', default: 'x', format: 'date' }), '/properties/p/default');
    refused(withProp({ type: 'string', default: '2024-02-30', format: 'date' }), '/properties/p/default');
    refused(withProp({ type: 'string', default: '2024-01-01T10:00:00', format: 'date-time' }), '/properties/p/default');
    refused(withProp({ type: 'string', default: '25:00:00Z', format: 'time' }), '/properties/p/default');
    refused(withProp({ type: 'string', default: 'not-an-email', format: 'email' }), '/properties/p/default');
    refused(withProp({ type: 'string', default: '(', format: 'regex' }), '/properties/p/default');
  });

  test('default types', () => {
    refused(withProp({ type: 'string', default: 1 }), '/properties/p/default');
    refused(withProp({ type: 'string', default: null }), '/properties/p/default');
    refused(withProp({ type: 'number', default: '0' }), '/properties/p/default');
    refused(withProp({ type: 'number', default: Number.NaN }), '/properties/p/default');
    refused(withProp({ type: 'boolean', default: 0 }), '/properties/p/default');
  });

  test('foreign keys', () => {
    refused(withProp({ type: 'string', default: '', foreignKey: 'missing' }), '/properties/p/foreignKey');
    refused(withProp({ type: 'string', default: '', foreignKey: 'posts' }), '/properties/p/foreignKey');
    refused(withProp({ type: 'string', default: '', foreignKey: 'Users' }), '/properties/p/foreignKey');
    refused(withProp({ type: 'string', default: '', foreignKey: 1 }), '/properties/p/foreignKey');
    refused(withProp({ type: 'array', items: { type: 'string', default: '', foreignKey: 'posts' } }), '/properties/p/items/foreignKey');
    refused(withProp({ type: 'array', items: { type: 'string', default: '' }, foreignKey: 'users' }), '/properties/p/foreignKey');
  });

  test('system refs', () => {
    refused(withProp({ $ref: 'urn:jsonschema:io:strata:row-other-schema:1.0.0' }), '/properties/p/$ref');
    refused(withProp({ $ref: '#/$defs/x' }), '/properties/p/$ref');
    refused(withProp({ type: 'array', items: { $ref: SYSTEM_REFS.rowId } }), '/properties/p/items/$ref');
  });

  test('array items', () => {
    refused(withProp({ type: 'array', items: [] }), '/properties/p/items');
    refused(withProp({ type: 'array', items: { type: 'date' } }), '/properties/p/items/type');
    refused(withProp({ type: 'array', items: { type: 'integer' } }), '/properties/p/items/default');
    refused(withProp({ type: 'array', items: { type: 'string' } }), '/properties/p/items/default');
  });

  test('depth limit of 16 nodes', () => {
    let node: unknown = { type: 'number', default: 0 };
    for (let i = 0; i < 15; i++) node = obj({ p: node });
    accepted(node);
    let deeper: unknown = { type: 'number', default: 0 };
    for (let i = 0; i < 16; i++) deeper = obj({ p: deeper });
    refused(deeper, `${'/properties/p'.repeat(16)}`);
    let arrays: unknown = { type: 'number', default: 0 };
    for (let i = 0; i < 16; i++) arrays = { type: 'array', items: arrays };
    refused(withProp(arrays), `/properties/p${'/items'.repeat(15)}`);
  });

  test('a schema nested 50,000 levels is refused at its 17th level without recursing', () => {
    let node: unknown = { type: 'number', default: 0 };
    for (let i = 0; i < 50_000; i++) node = obj({ p: node });
    assert.deepEqual(violations(node), [{ path: '/properties/p'.repeat(16), message: 'schema nesting depth must be at most 16' }]);
  });

  test('node limit of 1000', () => {
    const props = (n: number): Record<string, unknown> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'number', default: 0 }]));
    accepted(obj(props(999)));
    refused(obj(props(1000)), '');
  });

  test('serialized size limit of 256 KiB', () => {
    refused(withProp({ type: 'string', default: '', description: 'x'.repeat(256 * 1024) }), '');
    accepted(withProp({ type: 'string', default: '', description: 'x'.repeat(200 * 1024) }));
  });

  test('collects all violations (at most 100) with a summary message', () => {
    try {
      assertValidTableSchema(obj({ a: { type: 'string', default: 1 }, b: { type: 'number', default: 'x' }, c: { type: 'boolean' } }), ctx);
      assert.fail('expected a failure');
    } catch (err) {
      assert.ok(isAppError(err, 'INVALID_SCHEMA'));
      assert.equal(err.message, 'Invalid table schema: 3 errors');
      assert.deepEqual(
        err.details?.map((d) => d.path),
        ['/properties/a/default', '/properties/b/default', '/properties/c/default'],
      );
    }
    const many = obj(Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { type: 'string', default: 0 }])));
    try {
      assertValidTableSchema(many, ctx);
      assert.fail('expected a failure');
    } catch (err) {
      assert.ok(isAppError(err, 'INVALID_SCHEMA'));
      assert.equal(err.details?.length, 100);
      assert.equal(err.message, 'Invalid table schema: 150 errors');
    }
  });

  test('one violation names its path in the message', () => {
    assert.throws(
      () => assertValidTableSchema(withProp({ type: 'string', default: 1 }), ctx),
      (err: unknown) => isAppError(err, 'INVALID_SCHEMA') && err.message === 'Invalid table schema at "/properties/p/default": must be a string',
    );
  });
});

describe('assertValidTableSchema: integer, bounds, lengths, unique and index keywords (domain.md §5.1, §5.5)', () => {
  test('accepted', () => {
    accepted(
      obj({
        qty: { type: 'integer', default: 1, minimum: 0, maximum: 100, 'x-index': true },
        big: { type: 'integer', default: -(2 ** 53 - 1), minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 },
        price: { type: 'number', default: 0.5, minimum: -1.5, maximum: 1e9, 'x-unique': false },
        sku: { type: 'string', default: '', minLength: 0, maxLength: 20, 'x-unique': true },
        code: { type: 'string', default: 'x', minLength: 1, maxLength: 1 },
        done: { type: 'boolean', default: false, 'x-index': true },
        tags: { type: 'array', items: { type: 'integer', default: 0, minimum: 0 }, minItems: 0, maxItems: 3 },
        address: obj({ zip: { type: 'string', default: '', 'x-index': true } }),
      }),
    );
  });

  test('defaults are not checked against bounds or lengths (like minItems, rows must then be written with values)', () => {
    accepted(withProp({ type: 'string', default: '', minLength: 1 }));
    accepted(withProp({ type: 'integer', default: 0, minimum: 1 }));
  });

  test('integer values and bounds are safe integers', () => {
    refused(withProp({ type: 'integer', default: 1.5 }), '/properties/p/default');
    refused(withProp({ type: 'integer', default: 2 ** 53 }), '/properties/p/default');
    refused(withProp({ type: 'integer', default: 0, minimum: 0.5 }), '/properties/p/minimum');
    refused(withProp({ type: 'integer', default: 0, maximum: 2 ** 60 }), '/properties/p/maximum');
    refused(withProp({ type: 'integer', default: '1' }), '/properties/p/default');
  });

  test('bounds are finite numbers and ordered', () => {
    refused(withProp({ type: 'number', default: 0, minimum: '0' }), '/properties/p/minimum');
    refused(withProp({ type: 'number', default: 0, minimum: 2, maximum: 1 }), '/properties/p/minimum');
    refused(withProp({ type: 'integer', default: 0, minimum: 2, maximum: 1 }), '/properties/p/minimum');
    refused(withProp({ type: 'string', default: '', minLength: 3, maxLength: 2 }), '/properties/p/minLength');
    refused(withProp({ type: 'string', default: '', minLength: -1 }), '/properties/p/minLength');
    refused(withProp({ type: 'string', default: '', maxLength: 1.5 }), '/properties/p/maxLength');
    refused(withProp({ type: 'array', items: { type: 'string', default: '' }, minItems: 2, maxItems: 1 }), '/properties/p/minItems');
    refused(withProp({ type: 'array', items: { type: 'string', default: '' }, maxItems: -1 }), '/properties/p/maxItems');
  });

  test('x-unique and x-index: booleans, on properties outside arrays', () => {
    refused(withProp({ type: 'string', default: '', 'x-unique': 'yes' }), '/properties/p/x-unique');
    refused(withProp({ type: 'number', default: 0, 'x-index': 1 }), '/properties/p/x-index');
    refused(withProp({ type: 'array', items: { type: 'string', default: '', 'x-unique': true } }), '/properties/p/items/x-unique');
    refused(
      withProp({ type: 'array', items: obj({ k: { type: 'string', default: '', 'x-index': true } }) }),
      '/properties/p/items/properties/k/x-index',
    );
  });

  test('at most 10 indexed fields per table, unique ones included', () => {
    const fields = (n: number): Record<string, unknown> =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string', default: '', [i % 2 === 0 ? 'x-index' : 'x-unique']: true }]),
      );
    accepted(obj({ ...fields(10), off: { type: 'string', default: '', 'x-index': false } }));
    refused(obj(fields(11)), '/properties/f10');
  });
});
