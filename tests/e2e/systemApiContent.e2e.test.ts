import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, bob, branchIds, carol, organizationWithProject, postsSchema, type BranchIds } from './support/systemFixtures.ts';

// One scenario over both APIs: tables with nested objects, arrays and foreign keys; single and bulk writes;
// validation errors; commit, edit, revert, branch; every state read back through REST and GraphQL.
let system: System;
let admin: Client;
let master: BranchIds;
let firstCommit = '';
const B = '/organization/acme/project/blog/branch/master';
const T = (revision: string, table: string) => `/revision/${revision}/table/${table}`;

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  master = await organizationWithProject(admin, 'acme', 'blog');
});
after(() => system.close());

/** Rows of a table through REST: id -> {readonly, data}. */
async function restRows(revision: string, table: string): Promise<Record<string, { readonly: boolean; data: unknown }>> {
  const reply = await admin.rest('GET', `${T(revision, table)}/rows?orderBy=${encodeURIComponent('[{"id":"asc"}]')}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body.totalCount, reply.body.edges.length);
  return Object.fromEntries(
    reply.body.edges.map((e: { node: { id: string; readonly: boolean; data: unknown } }) => [
      e.node.id,
      { readonly: e.node.readonly, data: e.node.data },
    ]),
  );
}

/** The same through GraphQL, with the revision's flags. */
async function gqlRevision(revision: string) {
  const data = gqlData(
    await admin.gql(
      `query($id: ID!) { revision(data: {revisionId: $id}) { id isDraft isHead hasChanges
         tables { edges { node { id readonly count rows(data: {orderBy: [{id: asc}]}) { edges { node { id readonly data } } } } } } } }`,
      { id: revision },
    ),
  );
  const tables = Object.fromEntries(
    data.revision.tables.edges.map(
      (e: {
        node: { id: string; readonly: boolean; count: number; rows: { edges: { node: { id: string; readonly: boolean; data: unknown } }[] } };
      }) => [
        e.node.id,
        {
          readonly: e.node.readonly,
          count: e.node.count,
          rows: Object.fromEntries(e.node.rows.edges.map((r) => [r.node.id, { readonly: r.node.readonly, data: r.node.data }])),
        },
      ],
    ),
  );
  return { ...data.revision, tables };
}

describe('system API: content lifecycle', () => {
  test('tables with nested objects, arrays and foreign keys (REST and GraphQL)', async () => {
    const authors = await admin.rest('POST', `/revision/${master.draftRevisionId}/tables`, { tableId: 'authors', schema: authorsSchema });
    assert.equal(authors.status, 201);
    assert.deepEqual(authors.body.schema, authorsSchema);
    assert.equal(authors.body.readonly, false);
    assert.match(authors.headers.get('x-strata-position') ?? '', /^s:\d{20}$/);
    assert.equal(authors.headers.get('x-strata-consistency'), 'projected');
    const posts = await admin.gql(
      `mutation($schema: JSON!) { createTable(data: {revisionId: "${master.draftRevisionId}", tableId: "posts", schema: $schema}) { id count foreignKeysTo } }`,
      { schema: postsSchema },
    );
    assert.deepEqual(gqlData(posts), { createTable: { id: 'posts', count: 0, foreignKeysTo: ['authors'] } });
    assert.match(posts.body.extensions.position, /^s:\d{20}$/);
    const table = await admin.gql(`{ table(data: {revisionId: "${master.draftRevisionId}", tableId: "authors"}) { foreignKeysBy } }`);
    assert.deepEqual(gqlData(table).table.foreignKeysBy, ['posts']);
    assert.deepEqual((await admin.rest('GET', `${T(master.draftRevisionId, 'posts')}/schema`)).body, postsSchema);
  });

  test('single and bulk row writes; foreign keys inside arrays; system refs filled', async () => {
    const draft = master.draftRevisionId;
    const one = await admin.rest('POST', `${T(draft, 'authors')}/rows`, { rowId: 'alice', data: alice });
    assert.equal(one.status, 201);
    assert.deepEqual(one.body.data, alice);
    const bulk = await admin.rest('POST', `${T(draft, 'authors')}/rows/bulk`, {
      rows: [
        { rowId: 'bob', data: bob },
        { rowId: 'carol', data: carol },
      ],
    });
    assert.equal(bulk.status, 201);
    assert.deepEqual(
      bulk.body.rows.map((r: { id: string }) => r.id),
      ['bob', 'carol'],
    );
    const post = { title: 'Hi', views: 1, author: 'alice', lines: [{ text: 'l1', reviewers: ['bob'] }], self: 'ignored' };
    const created = await admin.gql(
      `mutation($data: JSON!) { createRow(data: {revisionId: "${draft}", tableId: "posts", rowId: "p1", data: $data}) { id readonly data } }`,
      { data: post },
    );
    assert.deepEqual(gqlData(created).createRow, { id: 'p1', readonly: false, data: { ...post, self: 'p1' } });
  });

  test('invalid data and foreign keys are refused with JSON-Pointer details', async () => {
    const draft = master.draftRevisionId;
    const bad = await admin.rest('POST', `${T(draft, 'posts')}/rows`, {
      rowId: 'p2',
      data: { title: 7, views: 'many', author: 'alice', lines: [{ text: 'x', reviewers: [], extra: true }], self: '' },
    });
    assertRestError(bad, 400, 'INVALID_DATA');
    const details = bad.body.details.map((d: { path: string; keyword: string }) => `${d.path} ${d.keyword}`).sort();
    assert.deepEqual(details, ['/lines/0/extra additionalProperties', '/title type', '/views type']);
    const missingFk = await admin.rest('POST', `${T(draft, 'posts')}/rows`, {
      rowId: 'p2',
      data: { title: '', views: 0, author: 'zed', lines: [], self: '' },
    });
    assertRestError(missingFk, 400, 'FOREIGN_KEY_NOT_FOUND');
    assert.equal(missingFk.body.details[0].path, '/author');
    const gqlBad = await admin.gql(
      `mutation { createRow(data: {revisionId: "${draft}", tableId: "authors", rowId: "dan", data: {name: 1}}) { id } }`,
    );
    assertGqlError(gqlBad, 'INVALID_DATA', 400);
    assert.ok(gqlBad.body.errors[0].extensions.details.some((d: { path: string }) => d.path === '/name'));
    assert.equal(gqlBad.body.data, null);
  });

  test('the draft reads back with readonly false and hasChanges true on both APIs', async () => {
    const draft = master.draftRevisionId;
    const rest = await restRows(draft, 'authors');
    assert.deepEqual(Object.keys(rest), ['alice', 'bob', 'carol']);
    assert.ok(Object.values(rest).every((row) => row.readonly === false));
    const revision = await gqlRevision(draft);
    assert.equal(revision.hasChanges, true);
    assert.equal(revision.isDraft, true);
    assert.deepEqual(revision.tables.authors, { readonly: false, count: 3, rows: rest });
    const branch = await admin.rest('GET', B);
    assert.equal(branch.body.touched, true);
    const restRevision = await admin.rest('GET', `/revision/${draft}`);
    assert.equal(restRevision.body.hasChanges, true);
  });

  test('commit: the draft becomes HEAD, a new identical draft opens, everything readonly', async () => {
    const commit = await admin.rest('POST', `${B}/revisions`, { comment: 'first' });
    assert.equal(commit.status, 201, JSON.stringify(commit.body));
    assert.equal(commit.body.id, master.draftRevisionId);
    assert.equal(commit.body.isHead, true);
    assert.equal(commit.body.isDraft, false);
    assert.equal(commit.body.comment, 'first');
    assert.ok(commit.body.committedAt);
    firstCommit = commit.body.id;
    master = await branchIds(admin, 'acme', 'blog');
    assert.equal(master.headRevisionId, firstCommit);
    for (const revision of [firstCommit, master.draftRevisionId]) {
      const read = await gqlRevision(revision);
      assert.equal(read.hasChanges, false, revision);
      assert.equal(read.tables.authors.readonly, true);
      assert.ok(Object.values(read.tables.posts.rows).every((row) => (row as { readonly: boolean }).readonly));
      assert.deepEqual(await restRows(revision, 'authors'), read.tables.authors.rows);
    }
    assertRestError(await admin.rest('POST', `${B}/revisions`, {}), 400, 'NO_CHANGES');
    assertRestError(await admin.rest('POST', `${T(firstCommit, 'authors')}/rows`, { rowId: 'x', data: alice }), 400, 'REVISION_NOT_DRAFT');
  });

  test('edit again, then revert restores HEAD content and keeps the draft id', async () => {
    const draft = master.draftRevisionId;
    const updated = await admin.rest('PUT', `${T(draft, 'authors')}/row/alice`, { data: { ...alice, name: 'Alicia' } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.readonly, false);
    const patched = await admin.rest('PATCH', `${T(draft, 'authors')}/row/bob`, {
      patches: [{ op: 'replace', path: '/address/city', value: 'Lille' }],
    });
    assert.equal(patched.body.data.address.city, 'Lille');
    assert.deepEqual((await admin.rest('DELETE', `${T(draft, 'authors')}/row/carol`)).body, { success: true });
    assertRestError(await admin.rest('DELETE', `${T(draft, 'authors')}/row/alice`), 409, 'FOREIGN_KEY_IN_USE');
    let rows = await restRows(draft, 'authors');
    assert.deepEqual(Object.keys(rows), ['alice', 'bob']);
    assert.equal(rows.alice?.readonly, false);
    assert.equal((await gqlRevision(draft)).hasChanges, true);

    const reverted = await admin.rest('POST', `${B}/revert`);
    assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
    assert.equal(reverted.body.touched, false);
    assert.equal(reverted.body.draftRevisionId, draft);
    rows = await restRows(draft, 'authors');
    assert.deepEqual(rows, { alice: { readonly: true, data: alice }, bob: { readonly: true, data: bob }, carol: { readonly: true, data: carol } });
    assert.equal((await gqlRevision(draft)).hasChanges, false);
    assertRestError(await admin.rest('POST', `${B}/revert`), 400, 'NO_CHANGES');
  });

  test('branch from a committed revision; a draft cannot be branched from', async () => {
    assertRestError(await admin.rest('POST', `/revision/${master.draftRevisionId}/branches`, { branchName: 'nope' }), 400, 'REVISION_IS_DRAFT');
    const created = await admin.rest('POST', `/revision/${firstCommit}/branches`, { branchName: 'feature' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.parent, { branchName: 'master', revisionId: firstCommit });
    const data = gqlData(
      await admin.gql(`{ branch(data: {organizationId: "acme", projectName: "blog", branchName: "feature"}) {
        name isRoot parent { branchName revisionId } project { name rootBranch { name } }
        start { isStart parentId } draft { id hasChanges } revisions { totalCount edges { node { sequence } } } } }`),
    ).branch;
    assert.deepEqual(
      { ...data, draft: { hasChanges: data.draft.hasChanges } },
      {
        name: 'feature',
        isRoot: false,
        parent: { branchName: 'master', revisionId: firstCommit },
        project: { name: 'blog', rootBranch: { name: 'master' } },
        start: { isStart: true, parentId: firstCommit },
        draft: { hasChanges: false },
        revisions: { totalCount: 2, edges: [{ node: { sequence: 1 } }, { node: { sequence: 0 } }] },
      },
    );
    const featureDraft = data.draft.id as string;
    assert.deepEqual(await restRows(featureDraft, 'authors'), await restRows(firstCommit, 'authors'));
    // Changes on the new branch never affect the source.
    await admin.rest('DELETE', `${T(featureDraft, 'posts')}/row/p1`);
    assert.deepEqual(Object.keys(await restRows(firstCommit, 'posts')), ['p1']);
    const branches = await admin.rest('GET', '/organization/acme/project/blog/branches');
    assert.deepEqual(
      branches.body.edges.map((e: { node: { name: string } }) => e.node.name),
      ['master', 'feature'],
    );
  });

  test('row queries: where/orderBy as URL-encoded JSON, as a body, and in GraphQL', async () => {
    const draft = master.draftRevisionId;
    const where = { data: { path: 'address.city', in: ['Paris', 'Nice'] } };
    const orderBy = [{ data: { path: ['name'], direction: 'desc' } }];
    const viaGet = await admin.rest(
      'GET',
      `${T(draft, 'authors')}/rows?where=${encodeURIComponent(JSON.stringify(where))}&orderBy=${encodeURIComponent(JSON.stringify(orderBy))}&first=1`,
    );
    assert.deepEqual(
      viaGet.body.edges.map((e: { node: { id: string } }) => e.node.id),
      ['carol'],
    );
    assert.equal(viaGet.body.totalCount, 2);
    assert.equal(viaGet.body.pageInfo.hasNextPage, true);
    const viaBody = await admin.rest('POST', `${T(draft, 'authors')}/rows/query`, {
      where,
      orderBy,
      first: 1,
      after: viaGet.body.pageInfo.endCursor,
    });
    assert.deepEqual(
      viaBody.body.edges.map((e: { node: { id: string } }) => e.node.id),
      ['alice'],
    );
    const viaGql = gqlData(
      await admin.gql(
        `{ rows(data: {revisionId: "${draft}", tableId: "authors", where: {data: {path: "tags", array_contains: "x"}}}) { totalCount edges { node { id } } } }`,
      ),
    );
    assert.deepEqual(viaGql.rows, { totalCount: 1, edges: [{ node: { id: 'carol' } }] });
    assertRestError(
      await admin.rest('GET', `${T(draft, 'authors')}/rows?where=${encodeURIComponent('{"data":{"path":"nope","equals":1}}')}`),
      400,
      'BAD_USER_INPUT',
    );
  });
});
