import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenApiChecker } from './support/openApiResponses.ts';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, startSystem, type Client, type Reply, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, organizationWithProject, type BranchIds } from './support/systemFixtures.ts';

let system: System;
let admin: Client;
let token = '';
let ids: BranchIds;
let documented: ReturnType<typeof createOpenApiChecker>;
const T = () => `/revision/${ids.draftRevisionId}/table/authors`;

before(async () => {
  system = await startSystem({ consistencyTimeoutMs: 1000 });
  token = await system.login('admin', ADMIN_PASSWORD);
  admin = system.as(token);
  ids = await organizationWithProject(admin, 'acme', 'blog');
  assert.equal((await admin.rest('POST', `/revision/${ids.draftRevisionId}/tables`, { tableId: 'authors', schema: authorsSchema })).status, 201);
  assert.equal((await admin.rest('POST', `${T()}/rows`, { rowId: 'alice', data: alice })).status, 201);
  documented = createOpenApiChecker((await system.rest('GET', '/openapi.json')).body);
});
after(() => system.close());

function assertJsonHeaders(reply: Reply): void {
  assert.equal(reply.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(reply.headers.get('cache-control'), 'no-store');
  assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(reply.headers.get('referrer-policy'), 'no-referrer');
  assert.match(reply.headers.get('x-request-id') ?? '', /^[A-Za-z0-9._-]{1,64}$/);
  assert.equal(reply.headers.get('x-powered-by'), null);
}

describe('system API errors, routes and headers', () => {
  test('every JSON response carries the common headers; X-Request-Id is echoed', async () => {
    const replies = [
      await admin.rest('GET', '/me', undefined, { 'X-Request-Id': 'e2e-req-1' }),
      await admin.rest('GET', '/nope'),
      await system.rest('GET', '/me'),
      await admin.gql('{ me { id } }'),
      await admin.gql('{ me { '),
      await system.gql('{ me { id } }', undefined, { Authorization: 'Bearer bad.token.here' }),
    ];
    for (const reply of replies) assertJsonHeaders(reply);
    assert.equal(replies[0]?.headers.get('x-request-id'), 'e2e-req-1');
  });

  test('unknown routes 404, undefined methods 405 with Allow, HTTP HEAD like GET', async () => {
    assertRestError(await admin.rest('GET', '/organization/acme/nothing/here'), 404, 'ROUTE_NOT_FOUND');
    assertRestError(await admin.rest('GET', '/auth/nothing'), 404, 'ROUTE_NOT_FOUND');
    const refresh = await admin.rest('GET', '/auth/refresh');
    assertRestError(refresh, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(refresh.headers.get('allow'), 'POST');
    const put = await admin.rest('PUT', '/organization/acme/project/blog', {});
    assertRestError(put, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(put.headers.get('allow'), 'GET, HEAD, PATCH, DELETE');
    const login = await admin.rest('GET', '/auth/login');
    assertRestError(login, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(login.headers.get('allow'), 'POST');
    const head = await admin.rest('HEAD', `${T()}/row/alice`);
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    assertRestError(await admin.rest('DELETE', '/graphql-nope'), 404, 'ROUTE_NOT_FOUND');
  });

  test('missing targets answer their *_NOT_FOUND code on both APIs', async () => {
    const cases: [string, string, string][] = [
      ['/organization/ghost', 'organization(data: {organizationId: "ghost"}) { id }', 'ORGANIZATION_NOT_FOUND'],
      ['/organization/acme/project/ghost', 'project(data: {organizationId: "acme", projectName: "ghost"}) { id }', 'PROJECT_NOT_FOUND'],
      [
        '/organization/acme/project/blog/branch/ghost',
        'branch(data: {organizationId: "acme", projectName: "blog", branchName: "ghost"}) { id }',
        'BRANCH_NOT_FOUND',
      ],
      ['/revision/ghost', 'revision(data: {revisionId: "ghost"}) { id }', 'REVISION_NOT_FOUND'],
      [
        `/revision/${ids.draftRevisionId}/table/ghost`,
        `table(data: {revisionId: "${ids.draftRevisionId}", tableId: "ghost"}) { id }`,
        'TABLE_NOT_FOUND',
      ],
      [`${T()}/row/ghost`, `row(data: {revisionId: "${ids.draftRevisionId}", tableId: "authors", rowId: "ghost"}) { id }`, 'ROW_NOT_FOUND'],
      ['/user/ghost', 'user(data: {userId: "ghost"}) { id }', 'USER_NOT_FOUND'],
      ['/endpoint/ghost', 'endpoint(data: {endpointId: "ghost"}) { id }', 'ENDPOINT_NOT_FOUND'],
    ];
    for (const [path, field, code] of cases) {
      const rest = await admin.rest('GET', path);
      assertRestError(rest, 404, code);
      const gql = await admin.gql(`{ ${field} }`);
      assertGqlError(gql, code, 404);
      assert.equal(gql.body.data, null);
    }
  });

  test('conflicts and invalid names keep their codes and details', async () => {
    assertRestError(await admin.rest('POST', '/organizations', { organizationId: 'acme' }), 409, 'ORGANIZATION_ALREADY_EXISTS');
    assertRestError(await admin.rest('POST', '/organization/acme/projects', { projectName: 'blog' }), 409, 'PROJECT_ALREADY_EXISTS');
    assertRestError(await admin.rest('POST', '/users', { username: 'ADMIN', password: 'long-enough' }), 409, 'USER_ALREADY_EXISTS');
    assertRestError(await admin.rest('POST', '/organization/acme/projects', { projectName: 'bad name' }), 400, 'INVALID_PROJECT_NAME');
    assertRestError(await admin.rest('POST', '/users', { username: 'shorty', password: 'short' }), 400, 'INVALID_PASSWORD');
    assertRestError(await admin.rest('POST', `${T()}/rows`, { rowId: 'bad id', data: alice }), 400, 'INVALID_ROW_ID');
    const duplicate = await admin.rest('POST', `${T()}/rows/bulk`, { rows: [{ rowId: 'alice', data: alice }] });
    assertRestError(duplicate, 409, 'ROW_ALREADY_EXISTS');
    assert.deepEqual(duplicate.body.details, [{ rowId: 'alice' }]);
    assertRestError(await admin.rest('DELETE', '/organization/acme/project/blog/branch/master'), 409, 'CANNOT_DELETE_ROOT_BRANCH');
    const again = await admin.gql(
      `mutation($s: JSON!) { createTable(data: {revisionId: "${ids.draftRevisionId}", tableId: "authors", schema: $s}) { id } }`,
      { s: authorsSchema },
    );
    assertGqlError(again, 'TABLE_ALREADY_EXISTS', 409);
    const page = await admin.rest('GET', `${T()}/rows?first=5000`);
    assertRestError(page, 400, 'BAD_USER_INPUT');
    assert.equal(page.body.details[0].path, '/first');
  });

  test('credentials: invalid ones are 401 (400 when ambiguous), never anonymous', async () => {
    const invalid = await admin.rest('GET', '/organization/acme', undefined, { Authorization: 'Bearer not-a-jwt' });
    assertRestError(invalid, 401, 'TOKEN_INVALID');
    assert.equal(invalid.headers.get('www-authenticate'), 'Bearer realm="strata", error="invalid_token"');
    assertRestError(await system.rest('GET', '/organization/acme', undefined, { 'X-Api-Key': 'svc_short' }), 401, 'API_KEY_INVALID');
    assertRestError(await system.rest('GET', '/organization/acme', undefined, { Authorization: 'Basic eDp5' }), 401, 'TOKEN_INVALID');
    assertRestError(
      await system.rest('GET', '/me', undefined, { Authorization: `Bearer ${token}`, 'X-Api-Key': 'svc_aaaaaaaaaaaaaaaaaaaaaa' }),
      400,
      'AMBIGUOUS_CREDENTIALS',
    );
    assertRestError(await system.rest('GET', '/me', undefined, { Cookie: `svc_at=${token}; svc_at=${token}` }), 401, 'TOKEN_INVALID');
    assert.equal((await system.rest('GET', '/me', undefined, { Cookie: `svc_at=${token}` })).status, 200);
    const gql = await system.gql('{ organization(data: {organizationId: "acme"}) { id } }', undefined, { Authorization: 'Bearer not-a-jwt' });
    assert.equal(gql.status, 401);
    assert.deepEqual(gql.body, { errors: [{ message: 'Invalid access token', extensions: { code: 'TOKEN_INVALID', statusCode: 401 } }] });
    assertRestError(await system.rest('POST', '/auth/login', { username: 'admin', password: 'wrong-password' }), 401, 'INVALID_CREDENTIALS');
    const gqlLogin = await system.gql('mutation { login(data: {username: "admin", password: "wrong"}) { accessToken } }');
    assertGqlError(gqlLogin, 'INVALID_CREDENTIALS', 401);
    const ok = await system.gql(`mutation { login(data: {username: "admin", password: "${ADMIN_PASSWORD}"}) { accessToken expiresIn } }`);
    assert.equal(ok.body.data.login.expiresIn, 1800);
  });

  test('bodies: wrong media type 415, broken JSON 400, unknown fields 400 with pointers', async () => {
    const res = await fetch(`${system.url}/api/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body: 'x',
    });
    assert.equal(res.status, 415);
    assert.equal(((await res.json()) as { code: string }).code, 'UNSUPPORTED_MEDIA_TYPE');
    const broken = await fetch(`${system.url}/api/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{',
    });
    assert.equal(((await broken.json()) as { code: string }).code, 'BAD_REQUEST');
    const unknown = await admin.rest('PATCH', '/organization/acme/project/blog', { isPublic: true, name: 'x' });
    assertRestError(unknown, 400, 'BAD_USER_INPUT');
    assert.deepEqual(unknown.body.details, [{ path: '/name', message: 'name is not a known field' }]);
  });

  test('read-your-writes: X-Strata-Min-Position waits, refuses malformed and unreachable positions', async () => {
    const write = await admin.rest('PUT', `${T()}/row/alice`, { data: { ...alice, name: 'Alicia' } });
    const position = write.headers.get('x-strata-position') ?? '';
    assert.equal(write.headers.get('x-strata-consistency'), 'projected');
    const read = await admin.rest('GET', `${T()}/row/alice`, undefined, { 'X-Strata-Min-Position': position });
    assert.equal(read.body.data.name, 'Alicia');
    assertRestError(await admin.rest('GET', `${T()}/row/alice`, undefined, { 'X-Strata-Min-Position': 'soon' }), 400, 'BAD_REQUEST');
    const late = await admin.rest('GET', `${T()}/row/alice`, undefined, { 'X-Strata-Min-Position': 's:99999999999999999999' });
    assertRestError(late, 503, 'CONSISTENCY_TIMEOUT');
    assert.equal(late.headers.get('retry-after'), '1');
    const gql = await admin.gql('{ me { id } }', undefined, { 'X-Strata-Min-Position': 's:99999999999999999999' });
    assert.equal(gql.status, 503);
    assert.equal(gql.body.errors[0].extensions.code, 'CONSISTENCY_TIMEOUT');
  });

  test('responses match the served OpenAPI document', async () => {
    const calls: [string, string, string, unknown?][] = [
      ['GET', '/me', '/me'],
      ['GET', '/organizations', '/organizations'],
      ['GET', '/organization/acme/project/blog', '/organization/{organizationId}/project/{projectName}'],
      ['GET', '/organization/acme/project/blog/branch/master', '/organization/{organizationId}/project/{projectName}/branch/{branchName}'],
      ['GET', `/revision/${ids.draftRevisionId}`, '/revision/{revisionId}'],
      ['GET', `/revision/${ids.draftRevisionId}/tables`, '/revision/{revisionId}/tables'],
      ['GET', `${T()}/rows`, '/revision/{revisionId}/table/{tableId}/rows'],
      ['POST', `${T()}/rows/bulk`, '/revision/{revisionId}/table/{tableId}/rows/bulk', { rows: [{ rowId: 'zed', data: alice }] }],
      ['DELETE', `${T()}/row/zed`, '/revision/{revisionId}/table/{tableId}/row/{rowId}'],
      ['GET', '/organization/acme/users', '/organization/{organizationId}/users'],
      ['GET', `/revision/${ids.draftRevisionId}/endpoints`, '/revision/{revisionId}/endpoints'],
      ['GET', '/organization/ghost', '/organization/{organizationId}'],
      ['POST', `${T()}/rows`, '/revision/{revisionId}/table/{tableId}/rows', { rowId: 'alice', data: alice }],
    ];
    for (const [method, path, template, body] of calls) documented(method, template, await admin.rest(method, path, body));
  });

  test('documentation and the GraphQL IDE are public and self-contained', async () => {
    const ui = await fetch(`${system.url}/api`, { headers: { Cookie: 'svc_at=expired' } });
    assert.equal(ui.status, 200);
    assert.match(await ui.text(), /swagger-ui-bundle\.js/);
    const ide = await fetch(`${system.url}/graphql`);
    assert.equal(ide.status, 200);
    assert.match(await ide.text(), /\/graphql\/ide\.js/);
    const mutationOverGet = await fetch(
      `${system.url}/graphql?query=${encodeURIComponent('mutation { deleteProject(data: {organizationId: "acme", projectName: "blog"}) }')}`,
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    );
    assert.equal(mutationOverGet.status, 405);
    assert.equal((await admin.rest('GET', '/organization/acme/project/blog')).status, 200, 'nothing was deleted');
  });
});
