import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SYSTEM_REFS, compileTableModel, isAppError } from '../../contracts/index.ts';
import type { Filter, TableSchema } from '../../contracts/index.ts';
import { decodeCursor, encodeCursor, queryHashOf } from '../paging/keysetCursor.ts';
import { parseRowQuery, type RowQueryInput } from './rowQuery.ts';
import { splitDotBracket } from './rowPath.ts';

const str = { type: 'string', default: '' } as const;
const num = { type: 'number', default: 0 } as const;
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'published', 'tags', 'meta', 'items', 'self', 'when'],
  properties: {
    title: str,
    views: num,
    published: { type: 'boolean', default: false },
    tags: { type: 'array', items: str },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: ['a', 'b'],
      properties: { a: num, b: str },
    },
    items: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['name', 'price'], properties: { name: str, price: num } },
    },
    self: { $ref: SYSTEM_REFS.rowId },
    when: { type: 'string', default: '', format: 'date-time' },
  },
} as const satisfies TableSchema;

const model = compileTableModel(schema);
const READONLY: Filter = { kind: 'compare', ref: { field: 'fromSeq' }, op: 'lt', value: 4 };
const parse = (input: RowQueryInput) => parseRowQuery(input, { model, readonlyRows: READONLY, parentIds: ['rev', 'posts'] });
const where = (w: unknown): Filter => parse({ where: w }).filter;
const json = (path: (string | number)[], t: unknown): Filter => ({ kind: 'json', field: 'data', path, test: t }) as Filter;
const onId = (t: unknown): Filter => ({ kind: 'json', field: 'rowId', path: [], test: t }) as Filter;

/** Asserts BAD_USER_INPUT with a detail at `path` (a JSON Pointer into the arguments). */
function refused(input: RowQueryInput, path: string): void {
  assert.throws(
    () => parse(input),
    (err: unknown) => {
      assert.ok(isAppError(err, 'BAD_USER_INPUT'), String(err));
      assert.equal(err.details?.[0]?.path, path, err.message);
      assert.equal(typeof err.details?.[0]?.message, 'string');
      return true;
    },
  );
}

describe('where: id (StringFilter)', () => {
  test('every operator', () => {
    assert.deepEqual(where({ id: { equals: 'a' } }), { kind: 'compare', ref: { field: 'rowId' }, op: 'eq', value: 'a' });
    assert.deepEqual(where({ id: { not: 'a' } }), { kind: 'not', filter: { kind: 'compare', ref: { field: 'rowId' }, op: 'eq', value: 'a' } });
    assert.deepEqual(where({ id: { in: ['a', 'b'] } }), { kind: 'in', ref: { field: 'rowId' }, values: ['a', 'b'] });
    assert.deepEqual(where({ id: { notIn: 'a' } }), { kind: 'not', filter: { kind: 'in', ref: { field: 'rowId' }, values: ['a'] } });
    for (const op of ['lt', 'lte', 'gt', 'gte'] as const) {
      assert.deepEqual(where({ id: { [op]: 'm' } }), { kind: 'compare', ref: { field: 'rowId' }, op, value: 'm' });
    }
    assert.deepEqual(where({ id: { contains: 'x' } }), onId({ op: 'string_contains', value: 'x', insensitive: false }));
    assert.deepEqual(where({ id: { startsWith: 'x' } }), onId({ op: 'string_starts_with', value: 'x', insensitive: false }));
    assert.deepEqual(where({ id: { endsWith: 'x' } }), onId({ op: 'string_ends_with', value: 'x', insensitive: false }));
  });

  test('mode insensitive applies to equality, in and the string operators, not to ordering', () => {
    assert.deepEqual(where({ id: { equals: 'A', mode: 'insensitive' } }), onId({ op: 'equals', value: 'A', insensitive: true }));
    assert.deepEqual(where({ id: { in: ['A'], mode: 'insensitive' } }), onId({ op: 'in', values: ['A'], insensitive: true }));
    assert.deepEqual(where({ id: { contains: 'A', mode: 'insensitive' } }), onId({ op: 'string_contains', value: 'A', insensitive: true }));
    assert.deepEqual(where({ id: { gt: 'A', mode: 'insensitive' } }), { kind: 'compare', ref: { field: 'rowId' }, op: 'gt', value: 'A' });
    refused({ where: { id: { equals: 'a', mode: 'loose' } } }, '/where/id/mode');
  });

  test('operands are type-checked', () => {
    refused({ where: { id: { equals: 1 } } }, '/where/id/equals');
    refused({ where: { id: { in: ['a', 2] } } }, '/where/id/in/1');
    refused({ where: { id: { like: 'a' } } }, '/where/id/like');
  });
});

describe('where: createdAt/updatedAt (DateTimeFilter) and readonly (BooleanFilter)', () => {
  test('date-times are normalized to the stored form', () => {
    assert.deepEqual(where({ createdAt: { gte: '2025-01-01T01:00:00+01:00' } }), {
      kind: 'compare',
      ref: { field: 'createdAt' },
      op: 'gte',
      value: '2025-01-01T00:00:00.000Z',
    });
    assert.deepEqual(where({ updatedAt: { in: ['2025-01-01T00:00:00Z'] } }), {
      kind: 'in',
      ref: { field: 'updatedAt' },
      values: ['2025-01-01T00:00:00.000Z'],
    });
    assert.equal(where({ updatedAt: { not: '2025-01-01T00:00:00Z' } }).kind, 'not');
    refused({ where: { createdAt: { lt: '2025-02-30T00:00:00Z' } } }, '/where/createdAt/lt');
    refused({ where: { createdAt: { lt: 'yesterday' } } }, '/where/createdAt/lt');
    refused({ where: { createdAt: { contains: '2025' } } }, '/where/createdAt/contains');
  });

  test('readonly maps to the revision rule', () => {
    assert.deepEqual(where({ readonly: { equals: true } }), READONLY);
    assert.deepEqual(where({ readonly: { equals: false } }), { kind: 'not', filter: READONLY });
    assert.deepEqual(where({ readonly: { not: true } }), { kind: 'not', filter: READONLY });
    refused({ where: { readonly: { equals: 'yes' } } }, '/where/readonly/equals');
  });
});

describe('where: data (JsonFilter)', () => {
  test('paths as lists, dot/bracket strings and *', () => {
    const eq5 = { op: 'equals', value: 5, insensitive: false };
    assert.deepEqual(where({ data: { path: 'views', equals: 5 } }), json(['views'], eq5));
    assert.deepEqual(where({ data: { path: ['meta', 'a'], equals: 5 } }), json(['meta', 'a'], eq5));
    assert.deepEqual(where({ data: { path: 'meta.a', equals: 5 } }), json(['meta', 'a'], eq5));
    assert.deepEqual(where({ data: { path: 'items[0].price', equals: 5 } }), json(['items', 0, 'price'], eq5));
    assert.deepEqual(where({ data: { path: ['items', '*', 'price'], equals: 5 } }), json(['items', '*', 'price'], eq5));
    assert.deepEqual(where({ data: { path: 'tags[*]', equals: 'x' } }), json(['tags', '*'], { op: 'equals', value: 'x', insensitive: false }));
    assert.deepEqual(splitDotBracket('a[0][1].b'), ['a', '0', '1', 'b']);
    for (const bad of ['a..b', '.a', 'a.', 'a[x]', 'a[0]b', 'a[']) assert.equal(splitDotBracket(bad), null, bad);
  });

  test('bad paths are refused', () => {
    refused({ where: { data: { path: 'nope', equals: 1 } } }, '/where/data/path');
    refused({ where: { data: { path: 'views.deeper', equals: 1 } } }, '/where/data/path');
    refused({ where: { data: { path: 'self', equals: 'x' } } }, '/where/data/path');
    refused({ where: { data: { path: [], equals: 1 } } }, '/where/data/path');
    refused({ where: { data: { path: '', equals: 1 } } }, '/where/data/path/0');
    refused({ where: { data: { path: 'tags[x]', equals: 1 } } }, '/where/data/path/0');
    refused({ where: { data: { path: 'tags.name', equals: 1 } } }, '/where/data/path');
    refused({ where: { data: { equals: 1 } } }, '/where/data/path');
  });

  test('every operator', () => {
    const at = (t: unknown) => json(['views'], t);
    assert.deepEqual(where({ data: { path: 'views', not: 1 } }), { kind: 'not', filter: at({ op: 'equals', value: 1, insensitive: false }) });
    assert.deepEqual(where({ data: { path: 'views', in: [1, 2] } }), at({ op: 'in', values: [1, 2], insensitive: false }));
    assert.deepEqual(where({ data: { path: 'views', notIn: [1] } }), { kind: 'not', filter: at({ op: 'in', values: [1], insensitive: false }) });
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      assert.deepEqual(where({ data: { path: 'views', [op]: 3 } }), at({ op, value: 3 }));
      assert.deepEqual(where({ data: { path: 'title', [op]: 'm' } }), json(['title'], { op, value: 'm' }));
      refused({ where: { data: { path: 'views', [op]: true } } }, `/where/data/${op}`);
    }
    for (const op of ['string_contains', 'string_starts_with', 'string_ends_with']) {
      assert.deepEqual(where({ data: { path: 'title', [op]: 'Re', mode: 'insensitive' } }), json(['title'], { op, value: 'Re', insensitive: true }));
      refused({ where: { data: { path: 'title', [op]: 1 } } }, `/where/data/${op}`);
    }
    assert.deepEqual(where({ data: { path: 'tags', array_contains: 'news' } }), json(['tags'], { op: 'array_contains', value: 'news' }));
    assert.deepEqual(where({ data: { path: 'tags', array_contains: ['a', 'b'] } }), json(['tags'], { op: 'array_contains', value: ['a', 'b'] }));
    const two = where({ data: { path: 'views', gt: 1, lt: 9 } });
    assert.equal(two.kind, 'and');
    refused({ where: { data: { path: 'views' } } }, '/where/data');
    refused({ where: { data: { path: 'views', mode: 'insensitive' } } }, '/where/data');
  });

  test('object and array operands are put in stored key order', () => {
    const filter = where({ data: { path: 'meta', equals: { b: 'x', a: -0 } } }) as Extract<Filter, { kind: 'json' }>;
    assert.equal(filter.test.op, 'equals');
    const value = (filter.test as { value: Record<string, unknown> }).value;
    assert.deepEqual(Object.keys(value), ['a', 'b']);
    assert.ok(Object.is(value.a, 0));
    const items = where({ data: { path: 'items', array_contains: { price: 1, name: 'n' } } }) as Extract<Filter, { kind: 'json' }>;
    assert.deepEqual(Object.keys((items.test as { value: Record<string, unknown> }).value), ['name', 'price']);
    const list = where({ data: { path: 'items[*]', in: [{ price: 1, name: 'n' }] } }) as Extract<Filter, { kind: 'json' }>;
    assert.deepEqual(Object.keys((list.test as unknown as { values: Record<string, unknown>[] }).values[0] ?? {}), ['name', 'price']);
  });
});

describe('where: logic and limits', () => {
  test('AND/OR/NOT accept lists or one object; keys combine with AND; {} matches all', () => {
    assert.deepEqual(where({}), { kind: 'all' });
    assert.deepEqual(where(null), { kind: 'all' });
    const a = { id: { equals: 'a' } };
    const b = { id: { equals: 'b' } };
    const fa = where(a);
    const fb = where(b);
    assert.deepEqual(where({ OR: [a, b] }), { kind: 'or', filters: [fa, fb] });
    assert.deepEqual(where({ AND: a }), fa);
    assert.deepEqual(where({ NOT: [a, b] }), { kind: 'not', filter: { kind: 'or', filters: [fa, fb] } });
    assert.deepEqual(where({ ...a, OR: b }), { kind: 'and', filters: [fa, fb] });
    refused({ where: { title: { equals: 'x' } } }, '/where/title');
    refused({ where: [] }, '/where');
    refused({ where: { OR: [1] } }, '/where/OR/0');
  });

  test('nesting at most 10 levels', () => {
    const nest = (levels: number): unknown => (levels === 0 ? { id: { equals: 'a' } } : { AND: [nest(levels - 1)] });
    parse({ where: nest(10) });
    assert.throws(
      () => parse({ where: nest(11) }),
      (err: unknown) => isAppError(err, 'BAD_USER_INPUT'),
    );
  });

  test('at most 100 conditions and 1000 values per list', () => {
    const conditions = (n: number) => ({ AND: Array.from({ length: n }, (_, i) => ({ id: { equals: `r${i}` } })) });
    parse({ where: conditions(100) });
    refused({ where: conditions(101) }, '/where/AND/100/id/equals');
    const values = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);
    parse({ where: { id: { in: values(1000) } } });
    refused({ where: { id: { in: values(1001) } } }, '/where/id/in');
    refused({ where: { data: { path: 'views', notIn: values(1001) } } }, '/where/data/notIn');
  });
});

describe('orderBy', () => {
  const keys = (orderBy: unknown) => parse({ orderBy }).keys.map((k) => ({ ref: k.ref, direction: k.direction }));
  const rowIdAsc = { ref: { field: 'rowId' }, direction: 'asc' };

  test('default createdAt desc, always followed by id asc', () => {
    assert.deepEqual(keys(undefined), [{ ref: { field: 'createdAt' }, direction: 'desc' }, rowIdAsc]);
    assert.deepEqual(keys([{ updatedAt: 'asc' }]), [{ ref: { field: 'updatedAt' }, direction: 'asc' }, rowIdAsc]);
    assert.deepEqual(keys({ id: 'desc' }), [{ ref: { field: 'rowId' }, direction: 'desc' }]);
  });

  test('data keys with each cast (text by default)', () => {
    assert.deepEqual(keys([{ data: { path: 'views' } }])[0], { ref: { field: 'data', path: ['views'], cast: 'text' }, direction: 'asc' });
    for (const type of ['text', 'int', 'float', 'boolean', 'timestamp']) {
      assert.deepEqual(keys([{ data: { path: 'items[0].price', direction: 'desc', type } }])[0], {
        ref: { field: 'data', path: ['items', 0, 'price'], cast: type },
        direction: 'desc',
      });
    }
    const key = parse({ orderBy: [{ data: { path: 'meta.a' } }] }).keys[0];
    assert.equal(key?.valueOf({ data: { meta: { a: 7 } } }), 7);
    assert.equal(key?.valueOf({ data: {} }), undefined);
  });

  test('invalid orderBy', () => {
    refused({ orderBy: [] }, '/orderBy');
    refused({ orderBy: Array.from({ length: 11 }, () => ({ id: 'asc' })) }, '/orderBy');
    refused({ orderBy: [{ id: 'asc', createdAt: 'desc' }] }, '/orderBy/0');
    refused({ orderBy: [{}] }, '/orderBy/0');
    refused({ orderBy: [{ id: 'up' }] }, '/orderBy/0/id');
    refused({ orderBy: [{ title: 'asc' }] }, '/orderBy/0/title');
    refused({ orderBy: [{ data: { path: 'tags[*]' } }] }, '/orderBy/0/data/path');
    refused({ orderBy: [{ data: { path: 'meta' } }] }, '/orderBy/0/data/path');
    refused({ orderBy: [{ data: { path: 'tags' } }] }, '/orderBy/0/data/path');
    refused({ orderBy: [{ data: { path: 'self' } }] }, '/orderBy/0/data/path');
    refused({ orderBy: [{ data: { path: 'views', type: 'date' } }] }, '/orderBy/0/data/type');
    refused({ orderBy: [{ data: { path: 'views', direction: 'up' } }] }, '/orderBy/0/data/direction');
  });
});

describe('pagination arguments and cursors', () => {
  test('first 0-1000, default 100', () => {
    assert.equal(parse({}).page.first, 100);
    assert.equal(parse({ first: 0 }).page.first, 0);
    assert.equal(parse({ first: 1000 }).page.first, 1000);
    for (const first of [-1, 1001, 1.5, '10']) refused({ first }, '/first');
    refused({ after: 5 }, '/after');
  });

  test('cursors are bound to their query', () => {
    const a = parse({ where: { id: { gt: 'a' } } });
    const b = parse({ where: { id: { gt: 'b' } } });
    const hashA = queryHashOf(a.queryKey);
    const cursor = encodeCursor(hashA, ['2025-01-01T00:00:00.000Z', 'r1']);
    assert.deepEqual(decodeCursor(cursor, hashA, a.keys), ['2025-01-01T00:00:00.000Z', 'r1']);
    const badCursor = (fn: () => unknown) =>
      assert.throws(fn, (err: unknown) => isAppError(err, 'BAD_USER_INPUT') && err.details?.[0]?.path === '/after');
    badCursor(() => decodeCursor(cursor, queryHashOf(b.queryKey), b.keys));
    badCursor(() => decodeCursor(cursor, hashA, [...a.keys, ...a.keys.slice(1)]));
    badCursor(() => decodeCursor('not a cursor!', hashA, a.keys));
    badCursor(() => decodeCursor(Buffer.from('{"x":1}').toString('base64url'), hashA, a.keys));
    badCursor(() => decodeCursor(encodeCursor(hashA, ['x', 'y']).slice(0, -3), hashA, a.keys));
    const tampered = Buffer.from(JSON.stringify([hashA, { $gt: '' }, 'r1'])).toString('base64url');
    badCursor(() => decodeCursor(tampered, hashA, a.keys));
    // Values of another type than the sort key's: a number for the createdAt timestamp, a non-date string.
    badCursor(() => decodeCursor(encodeCursor(hashA, [42, 'r1']), hashA, a.keys));
    badCursor(() => decodeCursor(encodeCursor(hashA, ['yesterday', 'r1']), hashA, a.keys));
    badCursor(() => decodeCursor(encodeCursor(hashA, ['2025-01-01T00:00:00.000Z', true]), hashA, a.keys));
    // Another parent (revision, table) is another query.
    const other = parseRowQuery({}, { model, readonlyRows: READONLY, parentIds: ['rev', 'users'] });
    assert.notEqual(queryHashOf(other.queryKey), queryHashOf(parse({}).queryKey));
  });
});
