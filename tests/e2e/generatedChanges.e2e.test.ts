import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOpenApiChecker } from './support/openApiResponses.ts';
import type { GeneratedSystem } from './support/generatedHarness.ts';
import { data, endpointUrl, gql, ok, startBlogSystem, type Project } from './support/generatedFixtures.ts';
import type { Reply } from './support/systemHarness.ts';

// "Changes since" of generated endpoints (changes.md §3): REST `B/changes` and `B/changes/tables`, GraphQL
// `_changes`, paging, kinds, `since` rules, key table scope, the OpenAPI document, and reads that use indexes only.
let sys: GeneratedSystem;
let admin: string;
let blog: Project;
let seeded = '';
let head = '';
let draft = '';
let start = '';

const B = () => endpointUrl('rest', blog);
const keysOf = (page: { edges: { node: { tableId: string; rowId: string; change: string } }[] }) =>
  page.edges.map((e) => `${e.node.tableId}/${e.node.change}:${e.node.rowId}`);
const restError = (reply: Reply) => [reply.status, reply.body?.code];

before(async () => {
  ({ sys, admin, blog } = await startBlogSystem());
  seeded = blog.headRevisionId;
  const branch = '/organization/acme/project/blog/branch/master';
  start = ok(await sys.api(admin, 'GET', branch)).body.startRevisionId;
  const d = blog.draftRevisionId;
  ok(await sys.api(admin, 'PATCH', `/revision/${d}/table/authors/row/a1`, { patches: [{ op: 'replace', path: '/address/city', value: 'Lille' }] }));
  ok(await sys.api(admin, 'POST', `/revision/${d}/table/authors/row/a4/rename`, { nextRowId: 'a9' }));
  ok(await sys.api(admin, 'DELETE', `/revision/${d}/table/posts/row/p7`));
  ok(
    await sys.api(admin, 'POST', `/revision/${d}/table/posts/rows`, {
      rowId: 'p8',
      data: { title: 'New', views: 0, author: 'a1', reviewers: [], lines: [], self: '' },
    }),
    201,
  );
  ok(await sys.api(admin, 'POST', `${branch}/revisions`, { comment: 'second' }), 201);
  const ids = ok(await sys.api(admin, 'GET', branch)).body;
  head = ids.headRevisionId;
  draft = ids.draftRevisionId;
});
after(() => sys.close());

describe('generated REST changes (changes.md §3)', () => {
  test('row changes since an ancestor, by table and row id, paged; checked against the OpenAPI document', async () => {
    const document = ok(await sys.call('GET', `${B()}/openapi.json`, { token: admin })).body;
    const check = createOpenApiChecker(document);
    const all = ok(await sys.call('GET', `${B()}/changes?since=${seeded}`, { token: admin }));
    check('GET', '/changes', all);
    assert.deepEqual(keysOf(all.body), ['authors/UPDATED:a1', 'authors/RENAMED:a9', 'posts/UPDATED:p4', 'posts/REMOVED:p7', 'posts/ADDED:p8']);
    assert.equal(all.body.totalCount, 5);
    const [updated, renamed, fkRewrite] = all.body.edges.map((e: { node: unknown }) => e.node);
    assert.deepEqual(updated.fieldChanges, [{ path: '/address/city', before: 'Paris', after: 'Lille' }]);
    assert.equal(renamed.previousRowId, 'a4');
    assert.deepEqual(fkRewrite.fieldChanges, [{ path: '/author', before: 'a4', after: 'a9' }]);

    const page1 = ok(await sys.call('GET', `${B()}/changes?since=${seeded}&first=2`, { token: admin })).body;
    assert.deepEqual(keysOf(page1), ['authors/UPDATED:a1', 'authors/RENAMED:a9']);
    const page2 = ok(await sys.call('GET', `${B()}/changes?since=${seeded}&first=2&after=${page1.pageInfo.endCursor}`, { token: admin })).body;
    assert.deepEqual(keysOf(page2), ['posts/UPDATED:p4', 'posts/REMOVED:p7']);
    const kinds = ok(await sys.call('GET', `${B()}/changes?since=${seeded}&changes=ADDED,REMOVED`, { token: admin })).body;
    assert.deepEqual(keysOf(kinds), ['posts/REMOVED:p7', 'posts/ADDED:p8']);
    const fromStart = ok(await sys.call('GET', `${B()}/changes?since=${start}&first=1000`, { token: admin })).body;
    assert.equal(fromStart.totalCount, 4 + 7);
    assert.ok(fromStart.edges.every((e: { node: { change: string } }) => e.node.change === 'ADDED'));
    const none = ok(await sys.call('GET', `${B()}/changes?since=${head}`, { token: admin })).body;
    assert.deepEqual([none.edges, none.totalCount], [[], 0]);
  });

  test('changed tables since an ancestor', async () => {
    const reply = ok(await sys.call('GET', `${B()}/changes/tables?since=${seeded}`, { token: admin }));
    createOpenApiChecker(ok(await sys.call('GET', `${B()}/openapi.json`, { token: admin })).body)('GET', '/changes/tables', reply);
    assert.deepEqual(reply.body, [
      {
        tableId: 'authors',
        previousTableId: null,
        change: 'MODIFIED',
        schemaChanged: false,
        rowChanges: { added: 0, updated: 1, removed: 0, renamed: 1, total: 2 },
      },
      {
        tableId: 'posts',
        previousTableId: null,
        change: 'MODIFIED',
        schemaChanged: false,
        rowChanges: { added: 1, updated: 1, removed: 1, renamed: 0, total: 3 },
      },
    ]);
    assert.deepEqual(ok(await sys.call('GET', `${B()}/changes/tables?since=${head}`, { token: admin })).body, []);
  });

  test('since: required, known, and the served revision or an ancestor', async () => {
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes`, { token: admin })), [400, 'BAD_USER_INPUT']);
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes?since=nope`, { token: admin })), [404, 'REVISION_NOT_FOUND']);
    // The draft is not an ancestor of HEAD.
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes?since=${draft}`, { token: admin })), [400, 'BAD_USER_INPUT']);
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes/tables?since=${draft}`, { token: admin })), [400, 'BAD_USER_INPUT']);
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes?since=${seeded}&changes=MOVED`, { token: admin })), [400, 'BAD_USER_INPUT']);
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes?since=${seeded}&first=5000`, { token: admin })), [400, 'BAD_USER_INPUT']);
    assert.deepEqual(restError(await sys.call('GET', `${B()}/changes?since=${seeded}`)), [401, 'UNAUTHENTICATED']);
    assert.deepEqual(restError(await sys.call('POST', `${B()}/changes?since=${seeded}`, { token: admin, body: {} })), [405, 'METHOD_NOT_ALLOWED']);
  });

  test('a key scoped to some tables sees only their changes', async () => {
    const key = await sys.personalKey(admin, { tableIds: ['authors'] });
    const rows = ok(await sys.call('GET', `${B()}/changes?since=${seeded}`, { headers: { 'X-Api-Key': key } })).body;
    assert.deepEqual(keysOf(rows), ['authors/UPDATED:a1', 'authors/RENAMED:a9']);
    const tables = ok(await sys.call('GET', `${B()}/changes/tables?since=${seeded}`, { headers: { 'X-Api-Key': key } })).body;
    assert.deepEqual(
      tables.map((t: { tableId: string }) => t.tableId),
      ['authors'],
    );
    const viaGraphql = data(
      await sys.call('POST', endpointUrl('graphql', blog), {
        body: { query: `{ _changes(since: "${seeded}") { totalCount } }` },
        headers: { 'X-Api-Key': key },
      }),
    );
    assert.equal(viaGraphql._changes.totalCount, 2);
  });

  test('every view read of a changes request goes through an index (no table or log scan)', async () => {
    sys.resetFinds();
    ok(await sys.call('GET', `${B()}/changes?since=${seeded}`, { token: admin }));
    const reads = sys.finds.filter((find) => find.projection === 'rows');
    assert.ok(reads.length > 0);
    for (const find of reads) {
      const plan = await sys.explain(find);
      assert.ok(!plan.some((line) => /^SCAN /.test(line.trim())), `${find.collection}: ${plan.join(' | ')}`);
    }
  });
});

describe('generated GraphQL _changes (changes.md §3)', () => {
  test('pages by table and row id with field-level changes; errors carry the spec codes', async () => {
    const query = `query($since: ID!, $after: String) { _changes(since: $since, first: 3, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { tableId rowId previousRowId change fieldChanges { path before after } } } } }`;
    const first = data(await gql(sys, endpointUrl('graphql', blog), query, admin, { since: seeded }))._changes;
    assert.equal(first.totalCount, 5);
    assert.deepEqual(
      first.edges.map((e: { node: { tableId: string; rowId: string } }) => `${e.node.tableId}/${e.node.rowId}`),
      ['authors/a1', 'authors/a9', 'posts/p4'],
    );
    assert.equal(first.edges[1].node.previousRowId, 'a4');
    const second = data(await gql(sys, endpointUrl('graphql', blog), query, admin, { since: seeded, after: first.pageInfo.endCursor }))._changes;
    assert.deepEqual(
      second.edges.map((e: { node: { rowId: string; change: string } }) => `${e.node.change}:${e.node.rowId}`),
      ['REMOVED:p7', 'ADDED:p8'],
    );
    assert.equal(second.pageInfo.hasNextPage, false);
    const kinds = data(
      await gql(sys, endpointUrl('graphql', blog), `{ _changes(since: "${seeded}", changes: [RENAMED]) { edges { node { rowId } } } }`, admin),
    )._changes;
    assert.deepEqual(
      kinds.edges.map((e: { node: { rowId: string } }) => e.node.rowId),
      ['a9'],
    );
    // The draft endpoint serves the draft: HEAD is its ancestor, the draft itself answers nothing.
    const fromDraft = data(await gql(sys, endpointUrl('graphql', blog, 'draft'), `{ _changes(since: "${head}") { totalCount } }`, admin))._changes;
    assert.equal(fromDraft.totalCount, 0);
    const notAncestor = await gql(sys, endpointUrl('graphql', blog), `{ _changes(since: "${draft}") { totalCount } }`, admin);
    assert.equal(notAncestor.body.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(notAncestor.body));
    const unknown = await gql(sys, endpointUrl('graphql', blog), '{ _changes(since: "nope") { totalCount } }', admin);
    assert.equal(unknown.body.errors?.[0]?.extensions?.code, 'REVISION_NOT_FOUND', JSON.stringify(unknown.body));
  });
});
