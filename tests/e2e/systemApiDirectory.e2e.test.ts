import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, branchIds, organizationWithProject } from './support/systemFixtures.ts';

// Users, organizations, memberships, projects, endpoints and table/row renames through both APIs.
let system: System;
let admin: Client;
let writerId = '';

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
});
after(() => system.close());

describe('system API: directory and catalog', () => {
  test('users: create, read, list, search', async () => {
    const created = gqlData(
      await admin.gql(
        'mutation { createUser(data: {username: "writer", password: "writer-pass-1", email: "w@example.com"}) { id username email role isActive organizationId } }',
      ),
    );
    writerId = created.createUser.id;
    assert.deepEqual(
      { ...created.createUser, id: 'x' },
      { id: 'x', username: 'writer', email: 'w@example.com', role: 'systemUser', isActive: true, organizationId: 'writer' },
    );
    const rest = await admin.rest('GET', `/user/${writerId}`);
    assert.equal(rest.body.username, 'writer');
    const list = await admin.rest('GET', '/users?search=wr');
    assert.deepEqual(
      list.body.edges.map((e: { node: { username: string } }) => e.node.username),
      ['writer'],
    );
    const writer = system.as(await system.login('writer', 'writer-pass-1'));
    const search = await writer.rest('GET', '/users/search?search=ad');
    assert.deepEqual(
      search.body.edges.map((e: { node: unknown }) => e.node),
      [{ id: (await admin.rest('GET', '/me')).body.id, username: 'admin' }],
    );
    assertRestError(await writer.rest('GET', '/users'), 403, 'FORBIDDEN');
    assertRestError(await writer.rest('GET', '/users/search?search=a'), 400, 'BAD_USER_INPUT');
  });

  test('passwords: own change revokes tokens; reset; deactivate and reactivate', async () => {
    const old = await system.login('writer', 'writer-pass-1');
    const writer = system.as(old);
    assertRestError(await writer.rest('PUT', '/me/password', { oldPassword: 'wrong-pass-1', newPassword: 'writer-pass-2' }), 400, 'BAD_USER_INPUT');
    assert.deepEqual((await writer.rest('PUT', '/me/password', { oldPassword: 'writer-pass-1', newPassword: 'writer-pass-2' })).body, {
      success: true,
    });
    assertRestError(await writer.rest('GET', '/me'), 401, 'TOKEN_REVOKED');
    await system.login('writer', 'writer-pass-2');
    assert.deepEqual((await admin.rest('PUT', `/user/${writerId}/password`, { newPassword: 'writer-pass-3' })).body, { success: true });
    const deactivated = await admin.rest('POST', `/user/${writerId}/deactivate`);
    assert.equal(deactivated.body.isActive, false);
    assertRestError(await system.rest('POST', '/auth/login', { username: 'writer', password: 'writer-pass-3' }), 401, 'INVALID_CREDENTIALS');
    assert.equal(gqlData(await admin.gql(`mutation { reactivateUser(data: {userId: "${writerId}"}) { isActive } }`)).reactivateUser.isActive, true);
    const me = gqlData(await system.as(await system.login('writer', 'writer-pass-3')).gql('{ me { username } }'));
    assert.deepEqual(me, { me: { username: 'writer' } });
  });

  test('system roles: setUserRole (REST and GraphQL) applies from the next request; own role and bad input refused, nothing appended', async () => {
    const token = await system.login('writer', 'writer-pass-3');
    const writer = system.as(token);
    const adminId = (await admin.rest('GET', '/me')).body.id as string;
    assertRestError(await writer.rest('GET', '/users'), 403, 'FORBIDDEN');

    const promoted = await admin.rest('POST', `/user/${writerId}/role`, { role: 'systemAdmin' });
    assert.equal(promoted.status, 200);
    assert.deepEqual(
      { ...promoted.body, createdAt: 'x' },
      { id: writerId, username: 'writer', email: 'w@example.com', role: 'systemAdmin', isActive: true, organizationId: 'writer', createdAt: 'x' },
    );
    assert.ok(promoted.headers.get('x-strata-position'));
    // Roles are read per request, never from the token: the same access token now lists all users.
    assert.equal((await writer.rest('GET', '/users')).status, 200);
    assert.equal((await writer.rest('GET', '/me')).body.role, 'systemAdmin');

    const before = await system.headPosition();
    assertGqlError(await writer.gql(`mutation { setUserRole(userId: "${writerId}", role: systemUser) { role } }`), 'BAD_USER_INPUT', 400);
    assertRestError(await admin.rest('POST', `/user/${adminId}/role`, { role: 'systemUser' }), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('POST', `/user/${writerId}/role`, { role: 'root' }), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('POST', `/user/${writerId}/role`, { role: 'systemUser', extra: 1 }), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('POST', `/user/${writerId}/role`, {}), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('POST', '/user/nobody/role', { role: 'systemUser' }), 404, 'USER_NOT_FOUND');
    assertRestError(await system.rest('POST', `/user/${writerId}/role`, { role: 'systemUser' }), 401, 'UNAUTHENTICATED');
    assert.equal(await system.headPosition(), before, 'refused role changes append nothing');

    const demoted = gqlData(await admin.gql(`mutation { setUserRole(userId: "${writerId}", role: systemUser) { id role isActive } }`));
    assert.deepEqual(demoted.setUserRole, { id: writerId, role: 'systemUser', isActive: true });
    assertRestError(await writer.rest('GET', '/users'), 403, 'FORBIDDEN');
    assertGqlError(await writer.gql(`mutation { setUserRole(userId: "${adminId}", role: systemUser) { role } }`), 'FORBIDDEN', 403);
    const unchanged = await system.headPosition();
    assert.equal(
      gqlData(await admin.gql(`mutation { setUserRole(userId: "${writerId}", role: systemUser) { role } }`)).setUserRole.role,
      'systemUser',
    );
    assert.equal(await system.headPosition(), unchanged, 'setting the current role appends nothing');
  });

  test('organizations and memberships', async () => {
    const org = await admin.rest('POST', '/organizations', { organizationId: 'guild', ownerId: writerId });
    assert.equal(org.status, 201);
    assert.deepEqual({ ...org.body, createdAt: 'x' }, { id: 'guild', isPersonal: false, createdAt: 'x' });
    const writer = system.as(await system.login('writer', 'writer-pass-3'));
    const mine = gqlData(await writer.gql('{ myOrganizations { totalCount edges { node { id isPersonal myRole } } } }'));
    assert.deepEqual(
      mine.myOrganizations.edges.map((e: { node: unknown }) => e.node),
      [
        { id: 'guild', isPersonal: false, myRole: 'organizationOwner' },
        { id: 'writer', isPersonal: true, myRole: 'organizationOwner' },
      ],
    );
    const adminId = (await admin.rest('GET', '/me')).body.id as string;
    assert.deepEqual((await writer.rest('POST', '/organization/guild/users', { userId: adminId, role: 'editor' })).body, { success: true });
    const members = await writer.rest('GET', '/organization/guild/users');
    assert.deepEqual(
      members.body.edges.map((e: { node: unknown }) => e.node),
      [
        { user: { id: adminId, username: 'admin' }, role: 'editor' },
        { user: { id: writerId, username: 'writer' }, role: 'organizationOwner' },
      ],
    );
    assertRestError(await writer.rest('DELETE', `/organization/guild/user/${writerId}`), 409, 'OWNER_REQUIRED');
    assert.deepEqual((await admin.rest('DELETE', `/organization/guild/user/${adminId}`)).body, { success: true });
  });

  test('projects: visibility, members, deletion', async () => {
    await organizationWithProject(admin, 'shop', 'catalog');
    const updated = gqlData(
      await admin.gql(
        'mutation { updateProject(data: {organizationId: "shop", projectName: "catalog", isPublic: true}) { isPublic rootBranch { name isRoot } } }',
      ),
    );
    assert.deepEqual(updated.updateProject, { isPublic: true, rootBranch: { name: 'master', isRoot: true } });
    assert.deepEqual((await admin.rest('POST', '/organization/shop/project/catalog/users', { userId: writerId, role: 'developer' })).body, {
      success: true,
    });
    const members = await admin.rest('GET', '/organization/shop/project/catalog/users');
    assert.deepEqual(
      members.body.edges.map((e: { node: { role: string } }) => e.node.role),
      ['developer'],
    );
    assert.deepEqual((await admin.rest('DELETE', `/organization/shop/project/catalog/user/${writerId}`)).body, { success: true });
    const other = await admin.rest('POST', '/organization/shop/projects', { projectName: 'temp', branchName: 'main' });
    assert.equal(other.body.rootBranchName, 'main');
    assert.deepEqual((await admin.rest('DELETE', '/organization/shop/project/temp')).body, { success: true });
    assertRestError(await admin.rest('GET', '/organization/shop/project/temp'), 404, 'PROJECT_NOT_FOUND');
    const projects = gqlData(await admin.gql('{ organization(data: {organizationId: "shop"}) { projects { totalCount edges { node { name } } } } }'));
    assert.deepEqual(projects.organization.projects, { totalCount: 1, edges: [{ node: { name: 'catalog' } }] });
  });

  test('endpoints: create, list by type, read per revision, delete', async () => {
    const ids = await branchIds(admin, 'shop', 'catalog');
    const rest = await admin.rest('POST', `/revision/${ids.draftRevisionId}/endpoints`, { type: 'REST_API' });
    assert.equal(rest.status, 201, JSON.stringify(rest.body));
    const graphql = gqlData(
      await admin.gql(`mutation { createEndpoint(data: {revisionId: "${ids.headRevisionId}", type: GRAPHQL}) { id mode type path } }`),
    ).createEndpoint;
    assert.equal(graphql.mode, 'head');
    assertRestError(await admin.rest('POST', `/revision/${ids.draftRevisionId}/endpoints`, { type: 'REST_API' }), 409, 'ENDPOINT_ALREADY_EXISTS');
    const listed = await admin.rest('GET', '/organization/shop/project/catalog/endpoints?type=GRAPHQL');
    assert.deepEqual(
      listed.body.edges.map((e: { node: { id: string } }) => e.node.id),
      [graphql.id],
    );
    const served = await admin.rest('GET', `/revision/${ids.draftRevisionId}/endpoints`);
    assert.deepEqual(
      served.body.map((e: { id: string }) => e.id),
      [rest.body.id],
    );
    const nested = gqlData(await admin.gql(`{ revision(data: {revisionId: "${ids.headRevisionId}"}) { endpoints { id } } }`));
    assert.deepEqual(nested.revision.endpoints, [{ id: graphql.id }]);
    assert.equal((await admin.rest('GET', `/endpoint/${rest.body.id}`)).body.type, 'REST_API');
    assert.deepEqual((await admin.rest('DELETE', `/endpoint/${rest.body.id}`)).body, { success: true });
    assertRestError(await admin.rest('GET', `/endpoint/${rest.body.id}`), 404, 'ENDPOINT_NOT_FOUND');
    assertRestError(await admin.rest('POST', `/revision/${ids.draftRevisionId}/endpoints`, { type: 'SOAP' }), 400, 'BAD_USER_INPUT');
  });

  test('tables and rows: schema patch, renames, deletes', async () => {
    const { draftRevisionId: draft } = await branchIds(admin, 'shop', 'catalog');
    const T = (table: string) => `/revision/${draft}/table/${table}`;
    assert.equal((await admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'people', schema: authorsSchema })).status, 201);
    assert.equal((await admin.rest('POST', `${T('people')}/rows`, { rowId: 'alice', data: alice })).status, 201);
    const patched = await admin.rest('PATCH', T('people'), {
      patches: [{ op: 'add', path: '/properties/age', value: { type: 'number', default: 0 } }],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual((await admin.rest('GET', `${T('people')}/row/alice`)).body.data, { ...alice, age: 0 });
    const renamed = await admin.rest('POST', `${T('people')}/rename`, { nextTableId: 'persons' });
    assert.equal(renamed.body.id, 'persons');
    const row = await admin.rest('POST', `${T('persons')}/row/alice/rename`, { nextRowId: 'alicia' });
    assert.equal(row.body.id, 'alicia');
    assertRestError(await admin.rest('POST', `${T('persons')}/row/alicia/rename`, { nextRowId: 'alicia' }), 400, 'BAD_USER_INPUT');
    const patchedRows = gqlData(
      await admin.gql(
        `mutation { patchRows(data: {revisionId: "${draft}", tableId: "persons", rows: [{rowId: "alicia", patches: [{op: replace, path: "name", value: "A."}]}]}) { id data } }`,
      ),
    );
    assert.equal(patchedRows.patchRows[0].data.name, 'A.');
    assertGqlError(
      await admin.gql(
        `mutation { patchRow(data: {revisionId: "${draft}", tableId: "persons", rowId: "alicia", patches: [{op: replace, path: "/nope", value: 1}]}) { id } }`,
      ),
      'INVALID_PATCH',
      400,
    );
    assert.deepEqual((await admin.rest('DELETE', T('persons'))).body, { success: true });
    assertRestError(await admin.rest('GET', T('persons')), 404, 'TABLE_NOT_FOUND');
  });
});
