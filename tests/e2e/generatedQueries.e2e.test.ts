import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GeneratedSystem, RecordedFind } from './support/generatedHarness.ts';
import { data, endpointUrl, gql, ok, startBlogSystem, type Project } from './support/generatedFixtures.ts';

// Row queries of generated GraphQL endpoints (generated-api.md §3, §4) over HTTP: every filter operator, every
// sort type, keyset pages, foreign keys batched into one view query per referenced table.
let sys: GeneratedSystem;
let admin: string;
let blog: Project;

before(async () => {
  ({ sys, admin, blog } = await startBlogSystem());
  // A draft change: a2 gets a later updatedAt and is the only row of the draft that is not readonly.
  const patch = { patches: [{ op: 'replace', path: '/age', value: 26 }] };
  ok(await sys.call('PATCH', `${endpointUrl('rest', blog, 'draft')}/tables/authors/rows/a2`, { body: patch, token: admin }));
});
after(() => sys.close());

const LIST = 'query($d: BlogGetAuthorsInput) { authors(data: $d) { totalCount edges { node { id createdAt updatedAt } } } }';

async function authors(where: unknown, orderBy: unknown = [{ id: 'asc' }], segment = 'head'): Promise<string[]> {
  const reply = await gql(sys, endpointUrl('graphql', blog, segment), LIST, admin, { d: { where, orderBy } });
  return data(reply).authors.edges.map((e: { node: { id: string } }) => e.node.id);
}

describe('where', () => {
  test('StringFilter on id: every operator and mode insensitive', async () => {
    const cases: [unknown, string[]][] = [
      [{ equals: 'a1' }, ['a1']],
      [{ not: 'a1' }, ['a2', 'a3', 'a4']],
      [{ in: ['a1', 'a3'] }, ['a1', 'a3']],
      [{ notIn: ['a1', 'a3'] }, ['a2', 'a4']],
      [{ lt: 'a2' }, ['a1']],
      [{ lte: 'a2' }, ['a1', 'a2']],
      [{ gt: 'a3' }, ['a4']],
      [{ gte: 'a3' }, ['a3', 'a4']],
      [{ contains: '3' }, ['a3']],
      [{ startsWith: 'a' }, ['a1', 'a2', 'a3', 'a4']],
      [{ endsWith: '4' }, ['a4']],
      [{ equals: 'A1' }, []],
      [{ equals: 'A1', mode: 'insensitive' }, ['a1']],
      [{ in: ['A2'], mode: 'insensitive' }, ['a2']],
      [{ startsWith: 'A', mode: 'insensitive' }, ['a1', 'a2', 'a3', 'a4']],
    ];
    for (const [filter, expected] of cases) assert.deepEqual(await authors({ id: filter }), expected, JSON.stringify(filter));
  });

  test('DateTimeFilter and BooleanFilter (draft rows: readonly unless changed)', async () => {
    const rows = data(await gql(sys, endpointUrl('graphql', blog, 'draft'), LIST, admin, { d: { orderBy: [{ id: 'asc' }] } })).authors.edges;
    const seeded = rows[0].node.updatedAt as string;
    const changed = rows[1].node.updatedAt as string;
    assert.ok(changed > seeded);
    const cases: [unknown, string[]][] = [
      [{ updatedAt: { equals: seeded } }, ['a1', 'a3', 'a4']],
      [{ updatedAt: { not: seeded } }, ['a2']],
      [{ updatedAt: { in: [changed] } }, ['a2']],
      [{ updatedAt: { notIn: [changed] } }, ['a1', 'a3', 'a4']],
      [{ updatedAt: { gt: seeded } }, ['a2']],
      [{ updatedAt: { gte: changed } }, ['a2']],
      [{ updatedAt: { lt: changed } }, ['a1', 'a3', 'a4']],
      [{ updatedAt: { lte: seeded } }, ['a1', 'a3', 'a4']],
      [{ createdAt: { equals: rows[0].node.createdAt } }, ['a1', 'a2', 'a3', 'a4']],
      [{ readonly: { equals: false } }, ['a2']],
      [{ readonly: { not: false } }, ['a1', 'a3', 'a4']],
    ];
    for (const [where, expected] of cases) assert.deepEqual(await authors(where, [{ id: 'asc' }], 'draft'), expected, JSON.stringify(where));
    assert.deepEqual(await authors({ readonly: { equals: true } }), ['a1', 'a2', 'a3', 'a4']);
  });

  test('JsonFilter: every operator, nested and indexed paths, `*` paths, mode insensitive', async () => {
    const cases: [unknown, string[]][] = [
      [{ path: 'name', equals: 'Alice' }, ['a1']],
      [{ path: 'name', equals: 'alice', mode: 'insensitive' }, ['a1']],
      [{ path: 'name', not: 'Alice' }, ['a2', 'a3', 'a4']],
      [{ path: 'name', in: ['bob', 'Carol'] }, ['a2', 'a3']],
      [{ path: 'name', in: ['BOB'], mode: 'insensitive' }, ['a2']],
      [{ path: 'name', notIn: ['bob'] }, ['a1', 'a3', 'a4']],
      [{ path: 'age', equals: 25 }, ['a2', 'a4']],
      [{ path: 'age', gt: 30 }, ['a1', 'a3']],
      [{ path: 'age', gte: 31 }, ['a1', 'a3']],
      [{ path: 'age', lt: 31 }, ['a2', 'a4']],
      [{ path: 'age', lte: 25 }, ['a2', 'a4']],
      [{ path: 'name', gt: 'C' }, ['a2', 'a3', 'a4']],
      [{ path: 'name', lt: 'B' }, ['a1']],
      [{ path: 'joined', gte: '2024' }, ['a1', 'a3']],
      [{ path: 'active', equals: false }, ['a2']],
      [{ path: ['address', 'city'], equals: 'paris', mode: 'insensitive' }, ['a1', 'a4']],
      [{ path: 'address', equals: { city: 'Paris' } }, ['a1']],
      [{ path: 'name', string_contains: 'ar' }, ['a3']],
      [{ path: 'name', string_contains: 'AR', mode: 'insensitive' }, ['a3']],
      [{ path: 'name', string_starts_with: 'ca', mode: 'insensitive' }, ['a3']],
      [{ path: 'name', string_ends_with: 'e' }, ['a1', 'a4']],
      [{ path: 'tags', array_contains: 'news' }, ['a1', 'a4']],
      [{ path: 'tags', array_contains: ['staff', 'news'] }, ['a1']],
      [{ path: 'tags[0]', equals: 'staff' }, ['a1']],
      [{ path: 'tags[*]', equals: 'guest' }, ['a3']],
      [{ path: ['tags', '*'], string_starts_with: 'NE', mode: 'insensitive' }, ['a1', 'a4']],
      [{ path: 'tags[*]', not: 'news' }, ['a2', 'a3']],
    ];
    for (const [filter, expected] of cases) assert.deepEqual(await authors({ data: filter }), expected, JSON.stringify(filter));
    const lines = await gql(
      sys,
      endpointUrl('graphql', blog),
      '{ posts(data: { where: { data: { path: "lines[*].text", string_contains: "line 3" } } }) { edges { node { id } } } }',
      admin,
    );
    assert.deepEqual(data(lines).posts.edges, [{ node: { id: 'p4' } }]);
  });

  test('AND, OR, NOT; invalid where is BAD_USER_INPUT', async () => {
    assert.deepEqual(await authors({ OR: [{ data: { path: 'name', equals: 'Alice' } }, { data: { path: 'age', equals: 47 } }] }), ['a1', 'a3']);
    assert.deepEqual(await authors({ NOT: [{ data: { path: 'active', equals: true } }] }), ['a2']);
    assert.deepEqual(await authors({ AND: [{ data: { path: 'age', gte: 25 } }, { data: { path: 'active', equals: true } }] }), ['a1', 'a3', 'a4']);
    const bad = await gql(sys, endpointUrl('graphql', blog), LIST, admin, { d: { where: { data: { path: 'nope', equals: 1 } } } });
    assert.equal(bad.status, 200);
    assert.equal(bad.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.equal(bad.body.errors[0].extensions.details[0].path, '/where/data/path');
  });
});

describe('orderBy', () => {
  test('each sort type, both directions, ties by id', async () => {
    const sort = (path: string, type: string, direction = 'asc') => [{ data: { path, type, direction } }];
    const cases: [unknown, string[]][] = [
      [sort('name', 'text'), ['a1', 'a3', 'a2', 'a4']],
      [sort('name', 'text', 'desc'), ['a4', 'a2', 'a3', 'a1']],
      [sort('age', 'int'), ['a2', 'a4', 'a1', 'a3']],
      [sort('age', 'float', 'desc'), ['a3', 'a1', 'a2', 'a4']],
      [sort('active', 'boolean'), ['a2', 'a1', 'a3', 'a4']],
      [sort('active', 'boolean', 'desc'), ['a1', 'a3', 'a4', 'a2']],
      [sort('joined', 'timestamp'), ['a4', 'a2', 'a1', 'a3']],
      [sort('joined', 'timestamp', 'desc'), ['a3', 'a1', 'a2', 'a4']],
      [[{ id: 'desc' }], ['a4', 'a3', 'a2', 'a1']],
      [[{ createdAt: 'asc' }], ['a1', 'a2', 'a3', 'a4']],
      [
        [{ data: { path: 'age', type: 'int' } }, { data: { path: 'name', direction: 'desc' } }],
        ['a4', 'a2', 'a1', 'a3'],
      ],
    ];
    for (const [orderBy, expected] of cases) assert.deepEqual(await authors({}, orderBy), expected, JSON.stringify(orderBy));
    assert.deepEqual(await authors({}, [{ updatedAt: 'desc' }], 'draft'), ['a2', 'a1', 'a3', 'a4']);
  });
});

describe('pagination', () => {
  test('three pages with totalCount, cursors bound to the query', async () => {
    const query = `query($d: BlogGetPostsInput) { posts(data: $d) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`;
    const orderBy = [{ data: { path: 'views', direction: 'desc', type: 'float' } }];
    const seen: string[] = [];
    let after: string | null = null;
    for (const [i, size] of [3, 3, 1].entries()) {
      const page: any = data(await gql(sys, endpointUrl('graphql', blog), query, admin, { d: { first: 3, after, orderBy } })).posts; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
      assert.equal(page.totalCount, 7);
      assert.equal(page.edges.length, size);
      assert.deepEqual([page.pageInfo.hasNextPage, page.pageInfo.hasPreviousPage], [i < 2, i > 0]);
      assert.equal(page.pageInfo.endCursor, page.edges.at(-1).cursor);
      seen.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
      after = page.pageInfo.endCursor;
    }
    // views = (i * 37) % 11 for p1..p7: 0, 4, 8, 1, 5, 9, 2.
    assert.deepEqual(seen, ['p6', 'p3', 'p5', 'p2', 'p7', 'p4', 'p1']);
    const other = await gql(sys, endpointUrl('graphql', blog), query, admin, { d: { first: 3, after } });
    assert.equal(other.body.errors[0].extensions.code, 'BAD_USER_INPUT');
  });

  test('totalCount: counted only when selected; filtered counts of committed revisions counted once', async () => {
    const where = { data: { path: 'age', gte: 26 } };
    const counted = () => sys.finds.filter((f) => f.count === true).length;
    sys.resetFinds();
    data(await gql(sys, endpointUrl('graphql', blog), LIST.replace('totalCount ', ''), admin, { d: { where } }));
    assert.equal(counted(), 0);
    for (const expected of [1, 1]) {
      const reply = await gql(sys, endpointUrl('graphql', blog), LIST, admin, { d: { where } });
      assert.equal(data(reply).authors.totalCount, 2);
      assert.equal(counted(), expected);
    }
    for (const expected of [2, 3]) {
      const reply = await gql(sys, endpointUrl('graphql', blog, 'draft'), LIST, admin, { d: { where } });
      assert.equal(data(reply).authors.totalCount, 3);
      assert.equal(counted(), expected);
    }
  });
});

/** View queries that load rows by id (`in` on rowId): the foreign-key batches. */
function batchLoads(finds: readonly RecordedFind[]): RecordedFind[] {
  return finds.filter((find) => find.collection === 'rows' && JSON.stringify(find.query.filter).includes('"kind":"in","ref":{"field":"rowId"}'));
}

describe('foreign keys', () => {
  test('entity and Flat types resolve FKs with one view query per referenced table', async () => {
    const url = endpointUrl('graphql', blog);
    sys.resetFinds();
    const entity = data(
      await gql(
        sys,
        url,
        '{ posts(data: { first: 7 }) { edges { node { id json data { author { name } reviewers { name address { city } } } } } } }',
        admin,
      ),
    );
    assert.equal(batchLoads(sys.finds).length, 1);
    const p1 = entity.posts.edges.find((e: { node: { id: string } }) => e.node.id === 'p1').node;
    assert.deepEqual(p1.data, {
      author: { name: 'Alice' },
      reviewers: [
        { name: 'Alice', address: { city: 'Paris' } },
        { name: 'bob', address: { city: 'Lyon' } },
      ],
    });
    assert.equal(p1.json.author, 'a1');
    assert.equal(p1.json.self, 'p1');
    sys.resetFinds();
    const flat = data(await gql(sys, url, '{ postsFlat { edges { node { title author { name tags } reviewers { name } } } } }', admin));
    assert.equal(batchLoads(sys.finds).length, 1);
    assert.equal(flat.postsFlat.edges.length, 7);
    assert.deepEqual(flat.postsFlat.edges[3].node.author, { name: 'dave', tags: ['news'] });
    sys.resetFinds();
    const one = data(await gql(sys, url, '{ postFlat(id: "p2") { author { name } } post(id: "p3") { data { author { name } } } }', admin));
    assert.deepEqual([one.postFlat.author.name, one.post.data.author.name], ['bob', 'Carol']);
    assert.equal(batchLoads(sys.finds).length, 1);
  });

  test('an FK into a table outside the key scope fails on that field only', async () => {
    const key = await sys.personalKey(admin, { tableIds: ['posts'] });
    const reply = await sys.call('POST', endpointUrl('graphql', blog), {
      body: { query: '{ postsFlat(data: { first: 1 }) { edges { node { title author { name } } } } }' },
      headers: { 'X-Api-Key': key },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.errors[0].extensions.code, 'API_KEY_SCOPE');
    assert.deepEqual(reply.body.errors[0].path, ['postsFlat', 'edges', 0, 'node', 'author']);
    const scoped = await sys.call('POST', endpointUrl('graphql', blog), {
      body: { query: '{ authors { totalCount } }' },
      headers: { 'X-Api-Key': key },
    });
    assert.equal(scoped.body.errors[0].extensions.code, 'API_KEY_SCOPE');
  });

  test('_entities resolves references in the current revision (null when absent)', async () => {
    const reply = await gql(
      sys,
      endpointUrl('graphql', blog),
      `{ _entities(representations: [
      { __typename: "BlogPostNode", id: "p1" }, { __typename: "BlogAuthorNode", id: "a9" }]) { ... on BlogPostNode { id data { title } } } }`,
      admin,
    );
    assert.deepEqual(data(reply)._entities, [{ id: 'p1', data: { title: 'Post A' } }, null]);
  });
});
