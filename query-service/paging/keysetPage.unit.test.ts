import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAppError } from '../../contracts/index.ts';
import type { Filter, FindQuery, SortKey, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { decodeCursor, queryHashOf } from './keysetCursor.ts';
import { afterFilter, afterParts, fieldKey, keysetPage, type KeysetQuery } from './keysetPage.ts';

/** A view store that records queries and answers `find` with canned documents. */
function fakeStore(docs: ViewDoc[], total = 42) {
  const finds: FindQuery[] = [];
  let counts = 0;
  const store = {
    find: (_p: string, _c: string, query: FindQuery = {}) => {
      finds.push(query);
      return Promise.resolve(docs.slice(0, query.limit));
    },
    count: () => {
      counts += 1;
      return Promise.resolve(total);
    },
  } as unknown as ViewStore;
  return { store, finds, counts: () => counts };
}

const query: KeysetQuery = {
  projection: 'catalog',
  collection: 'projects',
  filter: { kind: 'compare', ref: { field: 'organizationId' }, op: 'eq', value: 'acme' },
  keys: [fieldKey('name'), fieldKey('id')],
  queryKey: { projects: 'acme' },
};

describe('afterFilter (bounded keyset predicate)', () => {
  const name: SortKey = { ref: { field: 'name' }, direction: 'asc' };
  const seq: SortKey = { ref: { field: 'seq' }, direction: 'desc' };
  const id: SortKey = { ref: { field: 'id' }, direction: 'asc' };
  const cmp = (field: string, op: string, value: unknown): Filter => ({ kind: 'compare', ref: { field }, op, value }) as Filter;
  const isNull = (field: string): Filter => ({ kind: 'isNull', ref: { field } });

  test('k1 beyond v1 OR k1 null OR (k1 = v1 AND after(rest)); desc compares with lt', () => {
    assert.deepEqual(afterFilter([seq, id], [5, 'x']), {
      kind: 'or',
      filters: [
        cmp('seq', 'lt', 5),
        isNull('seq'),
        { kind: 'and', filters: [cmp('seq', 'eq', 5), { kind: 'or', filters: [cmp('id', 'gt', 'x'), isNull('id')] }] },
      ],
    });
  });

  test('afterParts: a range from v1 on (present values), then the null tail; together afterFilter', () => {
    assert.deepEqual(afterParts([seq, id], [5, 'x']), [
      {
        kind: 'and',
        filters: [
          cmp('seq', 'lte', 5),
          {
            kind: 'or',
            filters: [
              cmp('seq', 'lt', 5),
              { kind: 'and', filters: [cmp('seq', 'eq', 5), { kind: 'or', filters: [cmp('id', 'gt', 'x'), isNull('id')] }] },
            ],
          },
        ],
      },
      isNull('seq'),
    ]);
    assert.deepEqual(afterParts([name, id], [null, 'x']), [afterFilter([name, id], [null, 'x'])]);
  });

  test('a short page goes on into the null tail with the remaining limit', async () => {
    const fake = fakeStore([{ id: 'p9', name: 'z' }]);
    const first = await keysetPage(fake.store, query, { first: 1, after: null }, (d) => d);
    const next = await keysetPage(fake.store, query, { first: 2, after: first.pageInfo.endCursor }, (d) => d);
    assert.deepEqual(
      fake.finds.slice(1).map((f) => f.limit),
      [3, 2],
    );
    assert.deepEqual(fake.finds[2]?.filter, { kind: 'and', filters: [query.filter, isNull('name')] });
    assert.equal(next.edges.length, 2);
  });

  test('after a null value only nulls follow (nulls last in both directions)', () => {
    assert.deepEqual(afterFilter([name, id], [null, 'x']), {
      kind: 'and',
      filters: [isNull('name'), { kind: 'or', filters: [cmp('id', 'gt', 'x'), isNull('id')] }],
    });
  });
});

describe('keysetPage', () => {
  const docs = [
    { id: 'p1', name: 'a' },
    { id: 'p2', name: 'b' },
    { id: 'p3', name: 'c' },
  ];

  test('reads first + 1 documents; cursors carry the sort values; totalCount is lazy and memoized', async () => {
    const fake = fakeStore(docs);
    const page = await keysetPage(fake.store, query, { first: 2, after: null }, (d) => d.map((x) => x.id as string));
    assert.equal(fake.finds[0]?.limit, 3);
    assert.deepEqual(fake.finds[0]?.filter, query.filter);
    assert.deepEqual(
      page.edges.map((e) => e.node),
      ['p1', 'p2'],
    );
    assert.deepEqual(page.pageInfo, {
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: page.edges[0]?.cursor,
      endCursor: page.edges[1]?.cursor,
    });
    const hash = queryHashOf(['catalog', 'projects', query.queryKey]);
    assert.deepEqual(decodeCursor(page.pageInfo.endCursor as string, hash, query.keys), ['b', 'p2']);
    assert.equal(fake.counts(), 0);
    assert.equal(await page.totalCount(), 42);
    assert.equal(await page.totalCount(), 42);
    assert.equal(fake.counts(), 1);
  });

  test('after adds the keyset predicate; first 0 returns no edges', async () => {
    const fake = fakeStore(docs);
    const first = await keysetPage(fake.store, query, { first: 1, after: null }, (d) => d);
    const cursor = first.pageInfo.endCursor as string;
    const next = await keysetPage(fake.store, query, { first: 0, after: cursor }, (d) => d);
    assert.deepEqual(next.edges, []);
    assert.equal(next.pageInfo.hasPreviousPage, true);
    assert.equal(next.pageInfo.hasNextPage, true);
    assert.equal(next.pageInfo.startCursor, null);
    assert.deepEqual(fake.finds[1]?.filter, { kind: 'and', filters: [query.filter, afterParts(query.keys, ['a', 'p1'])[0]] });
    assert.equal(fake.finds.length, 2, 'a full page needs no read of the null tail');
  });

  test('a cursor of another query is refused', async () => {
    const fake = fakeStore(docs);
    const page = await keysetPage(fake.store, query, { first: 1, after: null }, (d) => d);
    const other = { ...query, queryKey: { projects: 'other' } };
    await assert.rejects(
      keysetPage(fake.store, other, { first: 1, after: page.pageInfo.endCursor }, (d) => d),
      (err: unknown) => isAppError(err, 'BAD_USER_INPUT'),
    );
  });
});
