import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { anonymousPrincipal, isAppError } from '../../contracts/index.ts';
import type { ErrorCode, Principal } from '../../contracts/index.ts';
import { keyScope, openOperationsWorld, type OperationsWorld } from '../support/operationsWorld.ts';
import { resolveConnection, type LazyConnection, type SystemOperations } from '../../query-service/index.ts';

const str = { type: 'string', default: '' } as const;
const postsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'tags', 'self'],
  properties: {
    title: str,
    views: { type: 'number', default: 0 },
    tags: { type: 'array', items: str },
    self: { $ref: 'urn:jsonschema:io:strata:row-id-schema:1.0.0' },
  },
};
const notesSchema = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: str } };

let world: OperationsWorld;
let ops: SystemOperations;
let alice: Principal;
let bob: Principal;
let blog: { draft: string; head: string; start: string };
const blogRef = { organizationId: 'acme', projectName: 'blog' };

const refused = (promise: Promise<unknown>, code: ErrorCode, message?: string) =>
  assert.rejects(promise, (err: unknown) => {
    assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
    if (message !== undefined) assert.equal(err.message, message);
    return true;
  });
const ids = <T extends { id: string }>(page: LazyConnection<T>) => page.edges.map((e) => e.node.id);
const as = (principal: Principal) => world.ctx(principal);

before(async () => {
  world = await openOperationsWorld();
  ops = world.ops;
  const admin = world.admin;
  const aliceUser = await world.run('CreateUser', { username: 'alice', password: 'alice-password' }, admin);
  await world.run('CreateUser', { username: 'bob', password: 'bob-password' }, admin);
  await world.run('CreateOrganization', { organizationId: 'acme', ownerId: aliceUser.id }, admin);
  alice = world.user('alice');
  bob = world.user('bob');
  for (const [projectName, isPublic] of [
    ['zeta', false],
    ['blog', false],
    ['pub', true],
  ] as const) {
    await world.run('CreateProject', { organizationId: 'acme', projectName, isPublic }, alice);
  }
  const master = await world.run('RevertChanges', { ...blogRef, branchName: '$default' }, alice).catch(() => null);
  assert.equal(master, null, 'a fresh draft has nothing to revert');
  const state = await world.state();
  const project = [...state.projects.values()].find((p) => p.name === 'blog' && !p.deleted);
  const root = project ? state.branches.get(project.rootBranchId) : undefined;
  assert.ok(root);
  const draft1 = root.draftRevisionId;
  await world.run('CreateTable', { revisionId: draft1, tableId: 'posts', schema: postsSchema }, alice);
  await world.run('CreateTable', { revisionId: draft1, tableId: 'notes', schema: notesSchema }, alice);
  const rows = [1, 2, 3, 4, 5, 6, 7].map((n) => ({
    rowId: `p${n}`,
    data: { self: 'x', tags: n % 2 === 0 ? ['even', 'news'] : ['odd'], views: n, title: `Post ${n}` },
  }));
  for (const row of rows) await world.run('CreateRows', { revisionId: draft1, tableId: 'posts', rows: [row], bulk: false }, alice);
  await world.run('CreateRows', { revisionId: draft1, tableId: 'notes', rows: [{ rowId: 'n1', data: { text: 'hi' } }], bulk: false }, alice);
  const committed = await world.run('CreateRevision', { ...blogRef, branchName: 'master', comment: 'first' }, alice);
  const after1 = (await world.state()).branches.get(root.id);
  assert.ok(after1);
  blog = { draft: after1.draftRevisionId, head: committed.id, start: root.startRevisionId };
  const on = { revisionId: blog.draft, tableId: 'posts' };
  await world.run(
    'UpdateRows',
    { ...on, rows: [{ rowId: 'p2', data: { title: 'Post 2', views: 20, tags: ['even'], self: '' } }], bulk: false },
    alice,
  );
  await world.run('CreateRows', { ...on, rows: [{ rowId: 'p8', data: { title: 'post eight', views: 8, tags: [], self: '' } }], bulk: false }, alice);
  await world.run('DeleteRows', { ...on, rowIds: ['p7'], bulk: false }, alice);
  await world.run('RenameTable', { revisionId: blog.draft, tableId: 'notes', nextTableId: 'memo' }, alice);
  await world.run('CreateEndpoint', { revisionId: blog.head, type: 'GRAPHQL' }, alice);
  await world.run('CreateEndpoint', { revisionId: blog.draft, type: 'REST_API' }, alice);
  await world.project();
});
after(() => world.close());

describe('directory', () => {
  test('me and my organizations', async () => {
    assert.equal((await ops.me(as(alice))).username, 'alice');
    await refused(ops.me(as(anonymousPrincipal)), 'UNAUTHENTICATED');
    const service: Principal = {
      kind: 'service',
      keyId: 's1',
      organizationId: 'acme',
      rules: [{ action: 'read', subject: 'all' }],
      key: keyScope({ organizationId: 'acme' }),
    };
    await refused(ops.me(as(service)), 'FORBIDDEN');
    const orgs = await ops.myOrganizations(as(alice), {});
    assert.deepEqual(ids(orgs), ['acme', 'alice']);
    assert.equal(await orgs.totalCount(), 2);
    const scoped = await ops.myOrganizations(as(world.user('alice', { organizationId: 'acme' })), {});
    assert.deepEqual(ids(scoped), ['acme']);
    assert.equal(await scoped.totalCount(), 1);
    assert.equal(await ops.myRole(as(alice), 'acme'), 'organizationOwner');
    assert.equal(await ops.myRole(as(bob), 'acme'), null);
  });

  test('members are never public', async () => {
    await refused(ops.usersOrganization(as(anonymousPrincipal), { organizationId: 'acme' }), 'UNAUTHENTICATED');
    await refused(ops.usersOrganization(as(bob), { organizationId: 'acme' }), 'FORBIDDEN');
    await refused(ops.usersProject(as(bob), { organizationId: 'acme', projectName: 'pub' }), 'FORBIDDEN');
    const members = await ops.usersOrganization(as(alice), { organizationId: 'acme' });
    assert.deepEqual(
      members.edges.map((e) => [e.node.user.username, e.node.role]),
      [['alice', 'organizationOwner']],
    );
    await refused(ops.usersOrganization(as(alice), { organizationId: 'nope' }), 'ORGANIZATION_NOT_FOUND');
  });

  test('users (systemAdmin) and searchUsers (any user)', async () => {
    const all = await ops.users(as(world.admin), { search: 'A' });
    assert.deepEqual(
      all.edges.map((e) => e.node.username),
      ['admin', 'alice'],
    );
    await refused(ops.users(as(alice), {}), 'FORBIDDEN');
    await refused(ops.user(as(world.admin), { userId: 'nope' }), 'USER_NOT_FOUND');
    const found = await ops.searchUsers(as(bob), { search: 'al' });
    assert.deepEqual(
      found.edges.map((e) => e.node.username),
      ['alice'],
    );
    await refused(ops.searchUsers(as(bob), { search: 'a' }), 'BAD_USER_INPUT');
    await refused(ops.searchUsers(as(anonymousPrincipal), { search: 'al' }), 'UNAUTHENTICATED');
  });
});

describe('projects, branches, revisions', () => {
  test('project lists hold only readable, in-scope projects; pages of 1 across 3 pages', async () => {
    const names = (page: LazyConnection<{ name: string }>) => page.edges.map((e) => e.node.name);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i++) {
      const page = await ops.projects(as(alice), { organizationId: 'acme', first: 1, after: cursor });
      seen.push(...names(page));
      assert.equal(page.pageInfo.hasNextPage, i < 2);
      assert.equal(page.pageInfo.hasPreviousPage, i > 0);
      assert.equal(await page.totalCount(), 3);
      cursor = page.pageInfo.endCursor;
    }
    assert.deepEqual(seen, ['blog', 'pub', 'zeta']);
    for (const guest of [bob, anonymousPrincipal]) {
      const page = await ops.projects(as(guest), { organizationId: 'acme' });
      assert.deepEqual(names(page), ['pub']);
      assert.equal(await page.totalCount(), 1);
    }
    const pubId = (await ops.project(as(anonymousPrincipal), { organizationId: 'acme', projectName: 'pub' })).id;
    const keyed = await resolveConnection(await ops.projects(as(world.user('alice', { projectIds: [pubId] })), { organizationId: 'acme' }));
    assert.deepEqual([keyed.edges.map((e) => e.node.name), keyed.totalCount], [['pub'], 1]);
    await refused(ops.projects(as(alice), { organizationId: 'acme', first: 1001 }), 'BAD_USER_INPUT');
    await refused(ops.branches(as(alice), { ...blogRef, after: cursor }), 'BAD_USER_INPUT');
  });

  test('private projects: anonymous 401, no role 403, scope 403, unknown 404', async () => {
    await refused(ops.project(as(anonymousPrincipal), blogRef), 'UNAUTHENTICATED');
    await refused(ops.project(as(bob), blogRef), 'FORBIDDEN');
    await refused(ops.project(as(world.user('alice', { organizationId: 'other' })), blogRef), 'API_KEY_SCOPE');
    await refused(ops.project(as(world.user('alice', { projectIds: ['x'] })), blogRef), 'API_KEY_SCOPE');
    await refused(ops.project(as(alice), { organizationId: 'acme', projectName: 'nope' }), 'PROJECT_NOT_FOUND');
    const project = await ops.project(as(alice), blogRef);
    assert.deepEqual([project.name, project.rootBranchName, project.isPublic], ['blog', 'master', false]);
    assert.equal((await ops.projectById(as(alice), project.id)).name, 'blog');
  });

  test('branches and revisions', async () => {
    const branches = await ops.branches(as(alice), blogRef);
    assert.deepEqual(
      branches.edges.map((e) => [e.node.name, e.node.touched]),
      [['master', true]],
    );
    const branch = await ops.branch(as(alice), { ...blogRef, branchName: '$default' });
    assert.equal(branch.draftRevisionId, blog.draft);
    await refused(ops.branch(as(alice), { ...blogRef, branchName: 'dev' }), 'BRANCH_NOT_FOUND');
    const revisions = await ops.revisions(as(alice), { ...blogRef, branchName: 'master' });
    assert.deepEqual(
      revisions.edges.map(({ node: r }) => [r.sequence, r.isStart, r.isHead, r.isDraft, r.hasChanges, r.comment]),
      [
        [2, false, false, true, true, ''],
        [1, false, true, false, false, 'first'],
        [0, true, false, false, false, ''],
      ],
    );
    const head = await ops.revision(as(alice), { revisionId: blog.head });
    assert.equal(head.committedAt !== null && head.isHead, true);
    await refused(ops.revision(as(alice), { revisionId: 'nope' }), 'REVISION_NOT_FOUND');
    await refused(ops.revision(as(bob), { revisionId: blog.head }), 'FORBIDDEN');
  });

  test('endpoints', async () => {
    const list = await ops.projectEndpoints(as(alice), blogRef);
    assert.deepEqual(
      list.edges.map((e) => [e.node.type, e.node.mode, e.node.revisionId]),
      [
        ['GRAPHQL', 'head', blog.head],
        ['REST_API', 'draft', blog.draft],
      ],
    );
    const rest = await ops.revisionEndpoints(as(alice), { revisionId: blog.draft });
    assert.deepEqual(
      rest.map((e) => [e.path, e.openApiPath]),
      [['/endpoint/rest/acme/blog/master/draft', '/endpoint/rest/acme/blog/master/draft/openapi.json']],
    );
    const one = await ops.endpoint(as(alice), { endpointId: rest[0]?.id ?? '' });
    assert.equal(one.docsPath, '/endpoint/rest/acme/blog/master/draft/docs');
    const graphql = await ops.projectEndpoints(as(alice), { ...blogRef, type: 'GRAPHQL' });
    assert.equal(await graphql.totalCount(), 1);
    const outOfScope = await ops.projectEndpoints(as(world.user('alice', { branchNames: ['dev'] })), blogRef);
    assert.equal(await outOfScope.totalCount(), 0);
    await refused(ops.endpoint(as(alice), { endpointId: 'nope' }), 'ENDPOINT_NOT_FOUND');
  });
});

describe('tables and rows', () => {
  const posts = () => ({ revisionId: blog.draft, tableId: 'posts' });

  test('tables: readonly per revision, renamed tables, key table scope', async () => {
    const draft = await ops.tables(as(alice), { revisionId: blog.draft });
    assert.deepEqual(
      draft.edges.map((e) => [e.node.id, e.node.readonly, e.node.count]),
      [
        ['memo', false, 1],
        ['posts', false, 7],
      ],
    );
    const head = await ops.tables(as(alice), { revisionId: blog.head });
    assert.deepEqual(
      head.edges.map((e) => [e.node.id, e.node.readonly, e.node.count]),
      [
        ['notes', true, 1],
        ['posts', true, 7],
      ],
    );
    assert.equal(await (await ops.tables(as(alice), { revisionId: blog.start })).totalCount(), 0);
    const scoped = await ops.tables(as(world.user('alice', { tableIds: ['posts'] })), { revisionId: blog.draft });
    assert.deepEqual([ids(scoped), await scoped.totalCount()], [['posts'], 1]);
    await refused(ops.table(as(world.user('alice', { tableIds: ['posts'] })), { revisionId: blog.draft, tableId: 'memo' }), 'API_KEY_SCOPE');
    await refused(ops.table(as(alice), { revisionId: blog.draft, tableId: 'notes' }), 'TABLE_NOT_FOUND', 'Table "notes" not found in the revision');
    assert.deepEqual((await ops.tableSchema(as(alice), posts())).required, postsSchema.required);
    assert.deepEqual(await ops.foreignKeysTo(as(alice), posts()), []);
  });

  test('rows: filled system refs, schema key order, readonly, not found', async () => {
    const row = await ops.row(as(alice), { ...posts(), rowId: 'p1' });
    assert.deepEqual(Object.keys(row.data), ['title', 'views', 'tags', 'self']);
    assert.equal(row.data.self, 'p1');
    assert.equal(row.readonly, true);
    assert.equal((await ops.row(as(alice), { ...posts(), rowId: 'p2' })).readonly, false);
    assert.equal((await ops.row(as(alice), { revisionId: blog.head, tableId: 'posts', rowId: 'p7' })).readonly, true);
    await refused(ops.row(as(alice), { ...posts(), rowId: 'p7' }), 'ROW_NOT_FOUND', 'Row "p7" not found in table "posts"');
    const memo = await ops.rows(as(alice), { revisionId: blog.draft, tableId: 'memo' });
    assert.deepEqual(
      memo.edges.map((e) => [e.node.id, e.node.tableId, e.node.readonly]),
      [['n1', 'memo', false]],
    );
  });

  test('rows: three pages in the default order, totalCount, cursors bound to the query', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (const expected of [3, 3, 1]) {
      const page: LazyConnection<{ id: string }> = await ops.rows(as(alice), { ...posts(), first: 3, after: cursor });
      assert.equal(page.edges.length, expected);
      assert.equal(await page.totalCount(), 7);
      seen.push(...ids(page));
      cursor = page.pageInfo.endCursor;
    }
    // createdAt desc: p8 was created last; p2 kept its createdAt when updated.
    assert.deepEqual(seen, ['p8', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1']);
    await refused(ops.rows(as(alice), { ...posts(), after: cursor, where: { id: { gt: 'p' } } }), 'BAD_USER_INPUT');
    await refused(ops.rows(as(alice), { revisionId: blog.head, tableId: 'posts', after: cursor }), 'BAD_USER_INPUT');
  });

  test('rows: where and orderBy', async () => {
    const rowIds = async (args: { where?: unknown; orderBy?: unknown; first?: number }) => ids(await ops.rows(as(alice), { ...posts(), ...args }));
    assert.deepEqual(
      await rowIds({ where: { data: { path: 'views', gte: 5 } }, orderBy: [{ data: { path: 'views', direction: 'desc', type: 'float' } }] }),
      ['p2', 'p8', 'p6', 'p5'],
    );
    assert.deepEqual(await rowIds({ where: { data: { path: ['tags'], array_contains: 'news' } }, orderBy: { id: 'asc' } }), ['p4', 'p6']);
    assert.deepEqual(await rowIds({ where: { data: { path: 'tags[*]', equals: 'EVEN', mode: 'insensitive' } }, orderBy: { id: 'asc' } }), [
      'p2',
      'p4',
      'p6',
    ]);
    assert.deepEqual(await rowIds({ where: { data: { path: 'title', string_starts_with: 'POST E', mode: 'insensitive' } } }), ['p8']);
    assert.deepEqual(await rowIds({ where: { readonly: { equals: false } }, orderBy: { id: 'asc' } }), ['p2', 'p8']);
    assert.deepEqual(
      await rowIds({ where: { OR: [{ id: { equals: 'P1', mode: 'insensitive' } }, { id: { endsWith: '3' } }] }, orderBy: { id: 'asc' } }),
      ['p1', 'p3'],
    );
    assert.deepEqual(await rowIds({ where: { NOT: { id: { in: ['p1', 'p2'] } } }, orderBy: [{ data: { path: 'title', direction: 'asc' } }] }), [
      'p3',
      'p4',
      'p5',
      'p6',
      'p8',
    ]);
    assert.deepEqual(await rowIds({ orderBy: [{ data: { path: 'views', type: 'text' } }] }), ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p8']);
    const filtered = await ops.rows(as(alice), { ...posts(), where: { data: { path: 'views', lt: 4 } }, first: 0 });
    assert.deepEqual([filtered.edges.length, await filtered.totalCount(), filtered.pageInfo.hasNextPage], [0, 2, true]);
    await refused(ops.rows(as(alice), { ...posts(), where: { data: { path: 'self', equals: 'p1' } } }), 'BAD_USER_INPUT');
  });

  test('keyset pages over a data order with ties and nulls', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const orderBy = [{ data: { path: 'tags[1]', direction: 'desc' } }];
    for (let i = 0; i < 4; i++) {
      const page: LazyConnection<{ id: string }> = await ops.rows(as(alice), { ...posts(), orderBy, first: 2, after: cursor });
      seen.push(...ids(page));
      cursor = page.pageInfo.endCursor;
      if (!page.pageInfo.hasNextPage) break;
    }
    // tags[1] = 'news' for p4 and p6; missing (sorted last) for the rest; ties by id.
    assert.deepEqual(seen, ['p4', 'p6', 'p1', 'p2', 'p3', 'p5', 'p8']);
  });

  test('row reads: public projects anonymously; private ones refused', async () => {
    await refused(ops.rows(as(anonymousPrincipal), posts()), 'UNAUTHENTICATED');
    await refused(ops.rows(as(bob), posts()), 'FORBIDDEN');
    await refused(ops.rows(as(world.user('alice', { branchNames: ['dev'] })), posts()), 'API_KEY_SCOPE');
    const pub = await ops.branch(as(anonymousPrincipal), { organizationId: 'acme', projectName: 'pub', branchName: '$default' });
    const tables = await ops.tables(as(anonymousPrincipal), { revisionId: pub.draftRevisionId });
    assert.equal(await tables.totalCount(), 0);
  });
});
