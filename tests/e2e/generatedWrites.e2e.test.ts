import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GeneratedSystem } from './support/generatedHarness.ts';
import { authors, data, endpointUrl, gql, ok, startBlogSystem, type Project } from './support/generatedFixtures.ts';

// Draft writes of generated endpoints (generated-api.md §5.1, §7) and the read-only HEAD (§5.2, §7).
let sys: GeneratedSystem;
let admin: string;
let blog: Project;

before(async () => {
  ({ sys, admin, blog } = await startBlogSystem());
});
after(() => sys.close());

const author = (name: string, age = 30) => ({ name, age, active: true, joined: '2025-01-01T00:00:00.000Z', address: { city: 'Oslo' }, tags: [] });
const draftGql = () => endpointUrl('graphql', blog, 'draft');
const draftRest = () => endpointUrl('rest', blog, 'draft');
const POSITION = /^s:\d{20}$/;

describe('GraphQL draft mutations', () => {
  test('single-row create, update, patch and delete return the row; extensions.position', async () => {
    const created = await gql(
      sys,
      draftGql(),
      `mutation($d: BlogCreateAuthorInput!) { createAuthor(data: $d) { id readonly data { name age } } }`,
      admin,
      {
        d: { id: 'g1', data: author('Gina') },
      },
    );
    assert.deepEqual(data(created).createAuthor, { id: 'g1', readonly: false, data: { name: 'Gina', age: 30 } });
    assert.match(created.body.extensions.position, POSITION);
    const updated = await gql(
      sys,
      draftGql(),
      `mutation { updateAuthor(data: { id: "g1", data: ${JSON.stringify(author('Gin', 31)).replace(/"(\w+)":/g, '$1:')} }) { data { name age } } }`,
      admin,
    );
    assert.deepEqual(data(updated).updateAuthor.data, { name: 'Gin', age: 31 });
    const patched = await gql(
      sys,
      draftGql(),
      'mutation { patchAuthor(data: { id: "g1", patches: [{ op: replace, path: "/age", value: 32 }] }) { data { age } } }',
      admin,
    );
    assert.equal(data(patched).patchAuthor.data.age, 32);
    const read = await gql(sys, draftGql(), '{ author(id: "g1") { data { name age } } }', admin, undefined);
    assert.deepEqual(data(read).author.data, { name: 'Gin', age: 32 });
    const deleted = await gql(sys, draftGql(), 'mutation { deleteAuthor(id: "g1") { id success } }', admin);
    assert.deepEqual(data(deleted).deleteAuthor, { id: 'g1', success: true });
    assert.ok(deleted.body.extensions.position > created.body.extensions.position);
  });

  test('bulk mutations are atomic and count the rows', async () => {
    const rows = [
      { id: 'b1', data: author('B1') },
      { id: 'b2', data: author('B2') },
    ];
    const created = await gql(sys, draftGql(), 'mutation($d: BlogCreateAuthorsInput!) { createAuthors(data: $d) { success count } }', admin, {
      d: { rows },
    });
    assert.deepEqual(data(created).createAuthors, { success: true, count: 2 });
    const updated = await gql(sys, draftGql(), 'mutation($d: BlogUpdateAuthorsInput!) { updateAuthors(data: $d) { count } }', admin, {
      d: { rows: rows.map((r) => ({ ...r, data: { ...r.data, age: 40 } })) },
    });
    assert.equal(data(updated).updateAuthors.count, 2);
    const patched = await gql(sys, draftGql(), 'mutation($d: BlogPatchAuthorsInput!) { patchAuthors(data: $d) { count } }', admin, {
      d: { rows: [{ id: 'b1', patches: [{ op: 'replace', path: '/name', value: 'Bee' }] }] },
    });
    assert.equal(data(patched).patchAuthors.count, 1);
    // One invalid row: nothing is created.
    const refused = await gql(sys, draftGql(), 'mutation($d: BlogCreateAuthorsInput!) { createAuthors(data: $d) { count } }', admin, {
      d: {
        rows: [
          { id: 'b3', data: author('B3') },
          { id: 'b4', data: { name: 4 } },
        ],
      },
    });
    assert.equal(refused.status, 200);
    assert.equal(refused.body.errors[0].extensions.code, 'INVALID_DATA');
    assert.equal(refused.body.data, null);
    assert.equal(refused.body.extensions, undefined);
    const missing = await gql(sys, draftGql(), '{ author(id: "b3") { id } }', admin);
    assert.equal(missing.body.errors[0].extensions.code, 'ROW_NOT_FOUND');
    const duplicate = await gql(sys, draftGql(), 'mutation { deleteAuthors(data: { ids: ["b1", "b1"] }) { count } }', admin);
    assert.deepEqual([duplicate.body.errors[0].extensions.code, duplicate.body.errors[0].extensions.details[0].path], ['BAD_USER_INPUT', '/ids/1']);
    const deleted = await gql(sys, draftGql(), 'mutation { deleteAuthors(data: { ids: ["b1", "b2"] }) { success count } }', admin);
    assert.deepEqual(data(deleted).deleteAuthors, { success: true, count: 2 });
  });

  test('domain errors: existing id, unknown foreign key, referenced row', async () => {
    const exists = await gql(sys, draftGql(), `mutation($d: BlogCreateAuthorInput!) { createAuthor(data: $d) { id } }`, admin, {
      d: { id: 'a1', data: author('X') },
    });
    assert.deepEqual([exists.body.errors[0].extensions.code, exists.body.errors[0].extensions.statusCode], ['ROW_ALREADY_EXISTS', 409]);
    const post = { title: 't', views: 1, author: 'nobody', reviewers: [], lines: [], self: '' };
    const fk = await gql(sys, draftGql(), `mutation($d: BlogCreatePostInput!) { createPost(data: $d) { id } }`, admin, {
      d: { id: 'px', data: post },
    });
    assert.equal(fk.body.errors[0].extensions.code, 'FOREIGN_KEY_NOT_FOUND');
    const inUse = await gql(sys, draftGql(), 'mutation { deleteAuthor(id: "a1") { success } }', admin);
    assert.equal(inUse.body.errors[0].extensions.code, 'FOREIGN_KEY_IN_USE');
  });
});

describe('REST draft writes', () => {
  test('single-row routes, statuses and write headers', async () => {
    const base = `${draftRest()}/tables/authors/rows`;
    const created = ok(await sys.call('POST', base, { body: { id: 'r1', data: author('Rita') }, token: admin }), 201);
    assert.match(created.headers.get('x-strata-position') ?? '', POSITION);
    assert.equal(created.headers.get('x-strata-consistency'), 'projected');
    assert.deepEqual([created.body.id, created.body.readonly, created.body.data.name], ['r1', false, 'Rita']);
    const replaced = ok(await sys.call('PUT', `${base}/r1`, { body: { data: author('Rae', 50) }, token: admin }));
    assert.deepEqual([replaced.body.data.name, replaced.body.data.age], ['Rae', 50]);
    const patched = ok(await sys.call('PATCH', `${base}/r1`, { body: { patches: [{ op: 'replace', path: '/age', value: 51 }] }, token: admin }));
    assert.equal(patched.body.data.age, 51);
    const deleted = ok(await sys.call('DELETE', `${base}/r1`, { token: admin }));
    assert.deepEqual(deleted.body, { id: 'r1', success: true });
    assert.equal((await sys.call('GET', `${base}/r1`, { token: admin })).status, 404);
  });

  test('bulk routes; rows/query and rows/bulk precedence', async () => {
    const bulk = `${draftRest()}/tables/authors/rows/bulk`;
    const rows = [
      { id: 'bulk', data: author('Bulk') },
      { id: 'query', data: author('Query') },
    ];
    assert.deepEqual(ok(await sys.call('POST', bulk, { body: { rows }, token: admin }), 201).body, { success: true, count: 2 });
    assert.deepEqual(ok(await sys.call('PUT', bulk, { body: { rows }, token: admin })).body, { success: true, count: 2 });
    const patches = [{ id: 'bulk', patches: [{ op: 'replace', path: '/age', value: 1 }] }];
    assert.deepEqual(ok(await sys.call('PATCH', bulk, { body: { rows: patches }, token: admin })).body, { success: true, count: 1 });
    // GET rows/bulk reads the row "bulk"; PUT rows/query replaces the row "query"; POST rows/query queries.
    assert.equal(ok(await sys.call('GET', bulk, { token: admin })).body.data.age, 1);
    ok(await sys.call('PUT', `${draftRest()}/tables/authors/rows/query`, { body: { data: author('Q2') }, token: admin }));
    const queried = ok(
      await sys.call('POST', `${draftRest()}/tables/authors/rows/query`, { body: { where: { id: { in: ['query'] } } }, token: admin }),
    );
    assert.equal(queried.body.edges[0].node.data.name, 'Q2');
    assert.deepEqual(ok(await sys.call('DELETE', bulk, { body: { ids: ['bulk', 'query'] }, token: admin })).body, { success: true, count: 2 });
  });

  test('input errors: shape 400, data 400, other media types 415', async () => {
    const base = `${draftRest()}/tables/authors/rows`;
    const extra = await sys.call('POST', base, { body: { id: 'x', data: author('X'), more: 1 }, token: admin });
    assert.deepEqual([extra.status, extra.body.code, extra.body.details[0].path], [400, 'BAD_USER_INPUT', '/more']);
    const invalid = await sys.call('POST', base, { body: { id: 'x', data: { name: 1 } }, token: admin });
    assert.deepEqual([invalid.status, invalid.body.code], [400, 'INVALID_DATA']);
    const rowId = await sys.call('POST', base, { body: { id: 'bad id', data: author('X') }, token: admin });
    assert.deepEqual([rowId.status, rowId.body.code], [400, 'INVALID_ROW_ID']);
    const text = await sys.call('POST', base, { body: 'id=x', headers: { 'Content-Type': 'text/plain' }, token: admin });
    assert.deepEqual([text.status, text.body.code], [415, 'UNSUPPORTED_MEDIA_TYPE']);
    const missing = await sys.call('PUT', `${base}/nope`, { body: { data: author('X') }, token: admin });
    assert.deepEqual([missing.status, missing.body.code], [404, 'ROW_NOT_FOUND']);
  });

  test('read-your-writes: X-Strata-Min-Position on reads', async () => {
    const created = ok(await sys.call('POST', `${draftRest()}/tables/authors/rows`, { body: { id: 'ryw', data: author('R') }, token: admin }), 201);
    const position = created.headers.get('x-strata-position') ?? '';
    const headers = { 'X-Strata-Min-Position': position };
    ok(await sys.call('GET', `${draftRest()}/tables/authors/rows/ryw`, { headers, token: admin }));
    const viaGql = await sys.call('POST', draftGql(), { body: { query: '{ author(id: "ryw") { id } }' }, headers, token: admin });
    assert.equal(data(viaGql).author.id, 'ryw');
    const bad = await sys.call('POST', draftGql(), {
      body: { query: '{ authors { totalCount } }' },
      headers: { 'X-Strata-Min-Position': 'later' },
      token: admin,
    });
    assert.deepEqual([bad.status, bad.body.errors[0].extensions.code, bad.body.data], [400, 'BAD_REQUEST', undefined]);
  });
});

describe('HEAD endpoints are read-only', () => {
  test('GraphQL: a mutation fails validation with 400; over GET with 405', async () => {
    const reply = await gql(sys, endpointUrl('graphql', blog), 'mutation { createAuthor(data: { id: "h", data: {} }) { id } }', admin);
    assert.equal(reply.status, 400);
    assert.equal(reply.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    assert.equal(reply.body.data, undefined);
    const overGet = await sys.call('GET', `${draftGql()}?query=${encodeURIComponent('mutation { deleteAuthor(id: "a1") { id } }')}`, {
      token: admin,
    });
    assert.deepEqual([overGet.status, overGet.body.errors[0].extensions.code], [405, 'METHOD_NOT_ALLOWED']);
  });

  test('REST: every write route answers 405 READ_ONLY_ENDPOINT with Allow, after the read-access checks', async () => {
    const base = `${endpointUrl('rest', blog)}/tables/authors/rows`;
    const writes: [string, string, unknown][] = [
      ['POST', base, { id: 'h', data: author('H') }],
      ['PUT', `${base}/a1`, { data: author('H') }],
      ['PATCH', `${base}/a1`, { patches: [] }],
      ['DELETE', `${base}/a1`, undefined],
      ['POST', `${base}/bulk`, { rows: [] }],
      ['PUT', `${base}/bulk`, { rows: [] }],
      ['PATCH', `${base}/bulk`, { rows: [] }],
      ['DELETE', `${base}/bulk`, { ids: ['a1'] }],
    ];
    for (const [method, path, body] of writes) {
      const reply = await sys.call(method, path, { body, token: admin });
      assert.deepEqual([reply.status, reply.body.code, reply.headers.get('allow')], [405, 'READ_ONLY_ENDPOINT', 'GET, HEAD'], `${method} ${path}`);
      const anonymous = await sys.call(method, path, { body });
      assert.deepEqual([anonymous.status, anonymous.body.code], [401, 'UNAUTHENTICATED'], `${method} ${path} anonymously`);
    }
    assert.equal(ok(await sys.call('POST', `${base}/query`, { body: { first: 1 }, token: admin })).body.totalCount, authors.length);
    const other = await sys.call('PUT', base, { body: {}, token: admin });
    assert.deepEqual([other.status, other.body.code, other.headers.get('allow')], [405, 'METHOD_NOT_ALLOWED', 'GET, HEAD']);
    const onDraft = await sys.call('PUT', `${draftRest()}/tables/authors/rows`, { body: {}, token: admin });
    assert.deepEqual([onDraft.status, onDraft.headers.get('allow')], [405, 'GET, HEAD, POST']);
  });
});
