import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { branchIds, createUser, organizationWithProject, type BranchIds } from './support/systemFixtures.ts';

// domain.md §8.2: for every role at least one allowed and one refused operation, over REST and GraphQL.
let system: System;
let admin: Client;
const as: Record<string, Client> = {};
const ids: Record<string, string> = {};
let priv: BranchIds;
let pub: BranchIds;
const PASSWORD = 'role-password-1';
const itemSchema = { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', default: '' } } };
const P = (project: string) => `/organization/corp/project/${project}`;
const rows = (draft: string) => `/revision/${draft}/table/items/rows`;

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  priv = await organizationWithProject(admin, 'corp', 'priv');
  assert.equal((await admin.rest('POST', '/organization/corp/projects', { projectName: 'pub', isPublic: true })).status, 201);
  pub = await branchIds(admin, 'corp', 'pub');
  for (const draft of [priv.draftRevisionId, pub.draftRevisionId]) {
    assert.equal((await admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'items', schema: itemSchema })).status, 201);
    assert.equal((await admin.rest('POST', rows(draft), { rowId: 'i1', data: { name: 'one' } })).status, 201);
  }
  const roles = { owner: 'organizationOwner', orgadmin: 'organizationAdmin', dev: 'developer', editor: 'editor', reader: 'reader' };
  for (const name of [...Object.keys(roles), 'outsider', 'extra', 'projed']) ids[name] = await createUser(admin, name, PASSWORD);
  for (const [name, role] of Object.entries(roles)) {
    assert.deepEqual((await admin.rest('POST', '/organization/corp/users', { userId: ids[name], role })).body, { success: true });
  }
  assert.equal((await admin.rest('POST', `${P('priv')}/users`, { userId: ids.projed, role: 'editor' })).status, 200);
  for (const name of [...Object.keys(roles), 'outsider', 'projed']) as[name] = system.as(await system.login(name, PASSWORD));
  as.anonymous = system.as(null);
});
after(() => system.close());

describe('role matrix (domain.md §8.2)', () => {
  test('systemAdmin: creates users; may not deactivate itself', async () => {
    assert.equal((await admin.rest('POST', '/users', { username: 'newbie', password: PASSWORD })).status, 201);
    const me = await admin.rest('GET', '/me');
    assertRestError(await admin.rest('POST', `/user/${me.body.id}/deactivate`), 400, 'BAD_USER_INPUT');
  });

  test('organizationOwner: creates projects; may not create users or organizations', async () => {
    assert.equal((await as.owner!.rest('POST', '/organization/corp/projects', { projectName: 'owned' })).status, 201);
    assertRestError(await as.owner!.rest('POST', '/users', { username: 'x1', password: PASSWORD }), 403, 'FORBIDDEN');
    assertGqlError(await as.owner!.gql('mutation { createOrganization(data: {organizationId: "other"}) { id } }'), 'FORBIDDEN', 403);
  });

  test('organizationAdmin: manages members and projects; may not grant the owner role', async () => {
    assert.deepEqual((await as.orgadmin!.rest('POST', '/organization/corp/users', { userId: ids.extra, role: 'reader' })).body, { success: true });
    assert.equal((await as.orgadmin!.rest('PATCH', P('owned'), { isPublic: true })).status, 200);
    assertRestError(await as.orgadmin!.rest('POST', '/organization/corp/users', { userId: ids.extra, role: 'organizationOwner' }), 403, 'FORBIDDEN');
  });

  test('developer: creates tables, branches and endpoints; may not create or delete projects', async () => {
    assert.equal((await as.dev!.rest('POST', `/revision/${priv.draftRevisionId}/tables`, { tableId: 'devtable', schema: itemSchema })).status, 201);
    const endpoint = await as.dev!.rest('POST', `/revision/${priv.draftRevisionId}/endpoints`, { type: 'REST_API' });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    assert.equal(endpoint.body.mode, 'draft');
    assert.equal((await as.dev!.rest('POST', `/revision/${priv.headRevisionId}/branches`, { branchName: 'devbranch' })).status, 201);
    assertRestError(await as.dev!.rest('POST', '/organization/corp/projects', { projectName: 'devproj' }), 403, 'FORBIDDEN');
    assertGqlError(await as.dev!.gql('mutation { deleteProject(data: {organizationId: "corp", projectName: "priv"}) }'), 'FORBIDDEN', 403);
  });

  test('editor: writes rows and commits; may not create tables or branches', async () => {
    assert.equal((await as.editor!.rest('POST', rows(priv.draftRevisionId), { rowId: 'i2', data: { name: 'two' } })).status, 201);
    const commit = await as.editor!.gql(
      'mutation { createRevision(data: {organizationId: "corp", projectName: "priv", branchName: "master", comment: "by editor"}) { id isHead } }',
    );
    assert.equal(gqlData(commit).createRevision.isHead, true);
    priv = await branchIds(admin, 'corp', 'priv');
    assertRestError(
      await as.editor!.rest('POST', `/revision/${priv.draftRevisionId}/tables`, { tableId: 'nope', schema: itemSchema }),
      403,
      'FORBIDDEN',
    );
    assertRestError(await as.editor!.rest('POST', `/revision/${priv.headRevisionId}/branches`, { branchName: 'ed' }), 403, 'FORBIDDEN');
  });

  test('reader: reads rows and members; may not write', async () => {
    const read = await as.reader!.rest('GET', rows(priv.draftRevisionId));
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.edges.map((e: { node: { id: string } }) => e.node.id).sort(), ['i1', 'i2']);
    assert.equal((await as.reader!.rest('GET', '/organization/corp/users')).status, 200);
    assertRestError(await as.reader!.rest('POST', rows(priv.draftRevisionId), { rowId: 'r', data: { name: 'r' } }), 403, 'FORBIDDEN');
    assertGqlError(
      await as.reader!.gql(`mutation { deleteRow(data: {revisionId: "${priv.draftRevisionId}", tableId: "items", rowId: "i1"}) }`),
      'FORBIDDEN',
      403,
    );
  });

  test('project role editor: writes rows of its project only', async () => {
    assert.equal((await as.projed!.rest('PUT', `/revision/${priv.draftRevisionId}/table/items/row/i1`, { data: { name: 'uno' } })).status, 200);
    assertRestError(await as.projed!.rest('PUT', `/revision/${pub.draftRevisionId}/table/items/row/i1`, { data: { name: 'uno' } }), 403, 'FORBIDDEN');
  });

  test('guest (no role): reads the organization and public projects; private ones are 403', async () => {
    assert.equal((await as.outsider!.rest('GET', '/organization/corp')).status, 200);
    assert.equal((await as.outsider!.rest('GET', rows(pub.draftRevisionId))).status, 200);
    const list = await as.outsider!.rest('GET', '/organization/corp/projects');
    assert.deepEqual(
      list.body.edges.map((e: { node: { name: string } }) => e.node.name),
      ['owned', 'pub'],
    );
    assert.equal(list.body.totalCount, 2);
    assertRestError(await as.outsider!.rest('GET', P('priv')), 403, 'FORBIDDEN');
    assertRestError(await as.outsider!.rest('POST', rows(pub.draftRevisionId), { rowId: 'g', data: { name: 'g' } }), 403, 'FORBIDDEN');
    assertRestError(await as.outsider!.rest('GET', '/organization/corp/users'), 403, 'FORBIDDEN');
    const data = gqlData(await as.outsider!.gql('{ organization(data: {organizationId: "corp"}) { id myRole } }'));
    assert.deepEqual(data, { organization: { id: 'corp', myRole: null } });
  });

  test('anonymous: reads public projects; anything else is 401', async () => {
    assert.equal((await as.anonymous!.rest('GET', P('pub'))).status, 200);
    const gql = gqlData(await as.anonymous!.gql(`{ rows(data: {revisionId: "${pub.draftRevisionId}", tableId: "items"}) { totalCount } }`));
    assert.deepEqual(gql, { rows: { totalCount: 1 } });
    assertRestError(await as.anonymous!.rest('GET', P('priv')), 401, 'UNAUTHENTICATED');
    assertRestError(await as.anonymous!.rest('POST', rows(pub.draftRevisionId), { rowId: 'a', data: { name: 'a' } }), 401, 'UNAUTHENTICATED');
    assertGqlError(await as.anonymous!.gql('{ me { id } }'), 'UNAUTHENTICATED', 401);
  });

  test('the caller’s role shows as myRole; members are listed by username', async () => {
    const data = gqlData(
      await as.dev!.gql(
        '{ myOrganizations { edges { node { id myRole } } } usersOrganization(data: {organizationId: "corp", first: 3}) { totalCount edges { node { user { username } role } } } }',
      ),
    );
    assert.deepEqual(
      data.myOrganizations.edges.map((e: { node: unknown }) => e.node),
      [
        { id: 'corp', myRole: 'developer' },
        { id: 'dev', myRole: 'organizationOwner' },
      ],
    );
    assert.equal(data.usersOrganization.totalCount, 7);
    assert.deepEqual(
      data.usersOrganization.edges.map((e: { node: { user: { username: string } } }) => e.node.user.username),
      ['admin', 'dev', 'editor'],
    );
  });
});
