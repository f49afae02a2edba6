import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_REFS, isAppError, type AppError } from '../../../contracts/index.ts';
import { createRowValidatorCache } from './rowValidator.ts';
import { jsonHash } from './jsonHash.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'published', 'author', 'tags', 'status', 'code', 'day', 'meta', 'address'],
  properties: {
    title: { type: 'string', default: '', description: 'Headline', contentMediaType: 'text/markdown', deprecated: true },
    views: { type: 'number', default: 0, readOnly: true },
    published: { type: 'boolean', default: false },
    author: { type: 'string', default: '', foreignKey: 'users' },
    tags: { type: 'array', items: { type: 'string', default: '', foreignKey: 'tags' } },
    status: { type: 'string', default: 'draft', enum: ['draft', 'live'] },
    code: { type: 'string', default: 'A', pattern: '^[A-Z]$' },
    day: { type: 'string', default: '', format: 'date' },
    meta: { $ref: SYSTEM_REFS.rowUpdatedAt },
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['city'],
      properties: { city: { type: 'string', default: '' } },
    },
  },
};

const valid = {
  title: 'Hi',
  views: 1,
  published: true,
  author: 'u1',
  tags: ['a'],
  status: 'live',
  code: 'B',
  day: '2024-02-29',
  meta: '',
  address: { city: 'Paris' },
};

const ctx = { tableId: 'posts', rowId: 'p1' };

function invalid(data: unknown, context: Parameters<ReturnType<typeof createRowValidatorCache>['validate']>[2] = ctx): AppError {
  const cache = createRowValidatorCache();
  try {
    cache.validate(schema, data, context);
  } catch (err) {
    assert.ok(isAppError(err, 'INVALID_DATA'), String(err));
    return err;
  }
  assert.fail('expected INVALID_DATA');
}

describe('createRowValidatorCache', () => {
  test('accepts valid data; defaults are not required to be filled', () => {
    const cache = createRowValidatorCache();
    cache.validate(schema, valid, ctx);
    cache.validate(schema, { ...valid, day: '', meta: 'any string is accepted' }, ctx);
  });

  test('one violation: exact message and detail (no rowId for single writes)', () => {
    const err = invalid({ ...valid, views: '12' });
    assert.equal(err.message, 'Validation error at "/views" in table "posts" for row "p1": must be number');
    assert.deepEqual(err.details, [{ path: '/views', message: 'must be number', keyword: 'type' }]);
  });

  test('several violations: summary message and one detail each', () => {
    const err = invalid({ ...valid, views: 'x', published: 1, status: 'gone' });
    assert.equal(err.message, 'Validation failed with 3 errors in table "posts" for row "p1"');
    assert.deepEqual(
      err.details?.map((d) => [d.path, d.keyword]),
      [
        ['/views', 'type'],
        ['/published', 'type'],
        ['/status', 'enum'],
      ],
    );
  });

  test('required and additionalProperties point at the property', () => {
    const { title: _title, ...missing } = valid;
    const err = invalid({ ...missing, extra: 1, address: { city: 'x', 'a/b': 2 } });
    const byKeyword = err.details?.map((d) => [d.keyword, d.path]);
    assert.deepEqual(byKeyword, [
      ['required', '/title'],
      ['additionalProperties', '/extra'],
      ['additionalProperties', '/address/a~1b'],
    ]);
  });

  test('enum, pattern and format keywords', () => {
    assert.deepEqual(invalid({ ...valid, status: 'x' }).details?.[0]?.keyword, 'enum');
    const pattern = invalid({ ...valid, code: 'ab' }).details?.[0];
    assert.equal(pattern?.keyword, 'pattern');
    assert.equal(pattern?.path, '/code');
    assert.equal(pattern?.message, 'must match pattern "^[A-Z]$"');
    const format = invalid({ ...valid, day: '2024-02-30' }).details?.[0];
    assert.deepEqual(format, { path: '/day', message: 'must match format "date"', keyword: 'format' });
  });

  test('pattern has no "" exception; format has one', () => {
    assert.equal(invalid({ ...valid, code: '' }).details?.[0]?.keyword, 'pattern');
    createRowValidatorCache().validate(schema, { ...valid, day: '' }, ctx);
  });

  test('every format accepts "" and checks other values', () => {
    const cases: Array<[string, string, string]> = [
      ['date-time', '2024-01-01T10:00:00.000Z', '2024-01-01 10:00'],
      ['date', '2024-12-31', '2024-13-01'],
      ['time', '10:00:00Z', '10:00'],
      ['email', 'a@example.com', 'a@'],
      ['regex', '^a+$', '('],
    ];
    const cache = createRowValidatorCache();
    for (const [format, good, bad] of cases) {
      const s = { type: 'object', additionalProperties: false, required: ['v'], properties: { v: { type: 'string', default: '', format } } };
      cache.validate(s, { v: '' }, ctx);
      cache.validate(s, { v: good }, ctx);
      assert.throws(
        () => cache.validate(s, { v: bad }, ctx),
        (err: unknown) => isAppError(err, 'INVALID_DATA'),
        format,
      );
    }
  });

  test('system refs validate as strings', () => {
    const err = invalid({ ...valid, meta: 5 });
    assert.deepEqual(err.details, [{ path: '/meta', message: 'must be string', keyword: 'type' }]);
  });

  test('non-finite numbers are rejected', () => {
    assert.equal(invalid({ ...valid, views: Number.NaN }).details?.[0]?.keyword, 'type');
    assert.equal(invalid({ ...valid, views: Number.POSITIVE_INFINITY }).details?.[0]?.path, '/views');
  });

  test('nested paths and array elements', () => {
    const err = invalid({ ...valid, tags: ['a', 2], address: { city: 1 } });
    assert.deepEqual(
      err.details?.map((d) => d.path),
      ['/tags/1', '/address/city'],
    );
  });

  test('root must be an object', () => {
    const err = invalid([]);
    assert.equal(err.details?.[0]?.path, '');
    assert.equal(err.details?.[0]?.keyword, 'type');
  });

  test('bulk and migration context adds rowId and index', () => {
    const bulk = invalid({ ...valid, views: 'x' }, { ...ctx, index: 3 });
    assert.deepEqual(bulk.details, [{ path: '/views', message: 'must be number', keyword: 'type', rowId: 'p1', index: 3 }]);
    const migration = invalid({ ...valid, views: 'x' }, { ...ctx, rowIdInDetails: true });
    assert.deepEqual(migration.details, [{ path: '/views', message: 'must be number', keyword: 'type', rowId: 'p1' }]);
  });

  test('at most 100 details but the full count in the message', () => {
    const props = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { type: 'number', default: 0 }]));
    const wide = { type: 'object', additionalProperties: false, required: Object.keys(props), properties: props };
    const cache = createRowValidatorCache();
    assert.throws(
      () => cache.validate(wide, {}, ctx),
      (err: unknown) =>
        isAppError(err, 'INVALID_DATA') &&
        err.details?.length === 100 &&
        err.message === 'Validation failed with 150 errors in table "posts" for row "p1"',
    );
  });

  test('caches per canonical schema hash and evicts the least recently used', () => {
    const cache = createRowValidatorCache({ maxEntries: 2 });
    cache.validate(schema, valid, ctx);
    cache.validate(structuredClone(schema), valid, ctx);
    const reordered = Object.fromEntries(Object.entries(schema).reverse());
    cache.validate(reordered, valid, ctx);
    assert.equal(cache.size, 1);
    const other = { ...schema, description: 'other' };
    const third = { ...schema, description: 'third' };
    cache.validate(other, valid, ctx);
    cache.validate(third, valid, ctx);
    assert.equal(cache.size, 2);
    cache.validate(schema, valid, ctx);
    assert.equal(cache.size, 2);
    assert.throws(() => cache.validate(schema, { ...valid, views: 'x' }, ctx));
  });

  test('check returns violations without throwing', () => {
    const cache = createRowValidatorCache();
    assert.deepEqual(cache.check(schema, valid), []);
    assert.equal(cache.check(schema, { ...valid, views: 'x' }).length, 1);
  });

  test('jsonHash is the sha256 of canonical JSON', () => {
    assert.equal(jsonHash({ b: 1, a: 2 }), jsonHash({ a: 2, b: 1 }));
    assert.equal(jsonHash({}), '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});

describe('integer, bounds, lengths and items (domain.md §5.1, §5.4)', () => {
  const kinds = {
    type: 'object',
    additionalProperties: false,
    required: ['qty', 'any', 'price', 'sku', 'tags'],
    properties: {
      qty: { type: 'integer', default: 1, minimum: 1, maximum: 10, 'x-index': true },
      any: { type: 'integer', default: 0 },
      price: { type: 'number', default: 0, minimum: 0, maximum: 9.5 },
      sku: { type: 'string', default: '', minLength: 2, maxLength: 3, 'x-unique': true },
      tags: { type: 'array', items: { type: 'string', default: '' }, minItems: 1, maxItems: 2 },
    },
  };
  const ok = { qty: 3, any: -(2 ** 53 - 1), price: 9.5, sku: '😀😀😀', tags: ['a'] };
  const keywordsAt = (data: Record<string, unknown>): string[] =>
    createRowValidatorCache()
      .check(kinds, { ...ok, ...data })
      .map((v) => `${v.path}:${v.keyword}`);

  test('valid data passes; x-unique and x-index never change validation; lengths count code points', () => {
    assert.deepEqual(keywordsAt({}), []);
  });
  test('each violation names its path and keyword', () => {
    assert.deepEqual(keywordsAt({ qty: 2.5 }), ['/qty:type']);
    assert.deepEqual(keywordsAt({ qty: 0 }), ['/qty:minimum']);
    assert.deepEqual(keywordsAt({ qty: 11 }), ['/qty:maximum']);
    assert.deepEqual(keywordsAt({ any: 2 ** 53 }), ['/any:maximum']);
    assert.deepEqual(keywordsAt({ any: -(2 ** 60) }), ['/any:minimum']);
    assert.deepEqual(keywordsAt({ price: -0.1 }), ['/price:minimum']);
    assert.deepEqual(keywordsAt({ sku: 'a' }), ['/sku:minLength']);
    assert.deepEqual(keywordsAt({ sku: 'abcd' }), ['/sku:maxLength']);
    assert.deepEqual(keywordsAt({ tags: [] }), ['/tags:minItems']);
    assert.deepEqual(keywordsAt({ tags: ['a', 'b', 'c'] }), ['/tags:maxItems']);
  });
});
