import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import type { GeneratedSystem } from './support/generatedHarness.ts';
import { data, endpointUrl, gql, ok, seedProject, startBlogSystem, type Project } from './support/generatedFixtures.ts';

// Endpoint resolution (generated-api.md §1), pinned endpoints, and the access checks of auth.md §9-§10.
let sys: GeneratedSystem;
let admin: string;
let stranger: string;
let priv: Project;
let pub: Project;

before(async () => {
  ({ sys, admin, blog: priv } = await startBlogSystem());
  pub = await seedProject(sys, admin, 'acme', 'open', true);
  ok(await sys.api(admin, 'POST', '/users', { username: 'stranger', password: 'stranger-password' }), 201);
  stranger = await sys.login('stranger', 'stranger-password');
});
after(() => sys.close());

const gqlError = (reply: { status: number; body: any }) => [reply.status, reply.body?.errors?.[0]?.extensions?.code, 'data' in (reply.body ?? {})]; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const restError = (reply: { status: number; body: any }) => [reply.status, reply.body?.code]; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

describe('endpoint resolution', () => {
  test('unknown organization, project, branch, mode or endpoint type: 404 ENDPOINT_NOT_FOUND in each envelope', async () => {
    const query = { query: '{ authors { totalCount } }' };
    for (const path of [
      '/endpoint/graphql/nope/blog/master/head',
      '/endpoint/graphql/acme/nope/master/head',
      '/endpoint/graphql/acme/blog/nope/head',
      '/endpoint/graphql/acme/blog/master/r-unknown',
    ]) {
      assert.deepEqual(gqlError(await sys.call('POST', path, { body: query, token: admin })), [404, 'ENDPOINT_NOT_FOUND', false], path);
    }
    assert.deepEqual(restError(await sys.call('GET', '/endpoint/rest/acme/blog/master/nope/tables', { token: admin })), [404, 'ENDPOINT_NOT_FOUND']);
    // A project with only a GraphQL endpoint on its HEAD has no REST one there.
    ok(await sys.api(admin, 'POST', '/organization/acme/projects', { projectName: 'solo' }), 201);
    const solo = ok(await sys.api(admin, 'GET', '/organization/acme/project/solo/branch/master')).body;
    ok(await sys.api(admin, 'POST', `/revision/${solo.draftRevisionId}/endpoints`, { type: 'GRAPHQL' }), 201);
    assert.equal(
      data(await gql(sys, '/endpoint/graphql/acme/solo/$default/draft', '{ _service { sdl } }', admin))._service.sdl.includes('@link'),
      true,
    );
    assert.deepEqual(restError(await sys.call('GET', '/endpoint/rest/acme/solo/master/draft', { token: admin })), [404, 'ENDPOINT_NOT_FOUND']);
    ok(await sys.api(admin, 'DELETE', '/organization/acme/project/solo'));
    assert.deepEqual(gqlError(await gql(sys, '/endpoint/graphql/acme/solo/master/draft', '{ _service { sdl } }', admin)), [
      404,
      'ENDPOINT_NOT_FOUND',
      false,
    ]);
  });

  test('head and draft URLs follow commits; pinned URLs keep their revision and are read-only', async () => {
    const firstHead = priv.headRevisionId;
    const patch = { patches: [{ op: 'replace', path: '/name', value: 'Alicia' }] };
    ok(await sys.call('PATCH', `${endpointUrl('rest', priv, 'draft')}/tables/authors/rows/a1`, { body: patch, token: admin }));
    ok(await sys.api(admin, 'POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'second' }), 201);
    for (const type of ['GRAPHQL', 'REST_API']) ok(await sys.api(admin, 'POST', `/revision/${firstHead}/endpoints`, { type }), 201);
    const name = async (segment: string) =>
      data(await gql(sys, endpointUrl('graphql', priv, segment), '{ author(id: "a1") { readonly data { name } } }', admin)).author;
    assert.deepEqual(await name('head'), { readonly: true, data: { name: 'Alicia' } });
    assert.deepEqual(await name(firstHead), { readonly: true, data: { name: 'Alice' } });
    assert.deepEqual(await name('draft'), { readonly: true, data: { name: 'Alicia' } });
    const pinnedDocument = ok(await sys.call('GET', `${endpointUrl('rest', priv, firstHead)}/openapi.json`, { token: admin })).body;
    const validated = await validate(structuredClone(pinnedDocument));
    assert.ok(validated.valid, validated.valid ? '' : compileErrors(validated));
    assert.deepEqual([pinnedDocument.info.version, pinnedDocument.info.title], [firstHead, `Strata acme/blog/master (${firstHead})`]);
    const info = ok(await sys.call('GET', endpointUrl('rest', priv, firstHead), { token: admin })).body;
    assert.deepEqual(info, {
      organizationId: 'acme',
      projectName: 'blog',
      branchName: 'master',
      mode: 'pinned',
      revisionId: firstHead,
      readOnly: true,
    });
    const mutation = await gql(sys, endpointUrl('graphql', priv, firstHead), 'mutation { deleteAuthor(id: "a1") { id } }', admin);
    assert.deepEqual(gqlError(mutation), [400, 'GRAPHQL_VALIDATION_FAILED', false]);
    const write = await sys.call('DELETE', `${endpointUrl('rest', priv, firstHead)}/tables/authors/rows/a1`, { token: admin });
    assert.deepEqual([...restError(write), write.headers.get('allow')], [405, 'READ_ONLY_ENDPOINT', 'GET, HEAD']);
    // A pinned URL names a revision of its branch that has a pinned endpoint; the current HEAD has none.
    const head = ok(await sys.api(admin, 'GET', '/organization/acme/project/blog/branch/master')).body.headRevisionId as string;
    assert.deepEqual(restError(await sys.call('GET', endpointUrl('rest', priv, head), { token: admin })), [404, 'ENDPOINT_NOT_FOUND']);
  });
});

describe('access (auth.md §9, §10)', () => {
  const list = '{ authors { totalCount } }';

  test('private project: anonymous 401, no role 403, member allowed, on both surfaces and the IDE page', async () => {
    assert.deepEqual(gqlError(await gql(sys, endpointUrl('graphql', priv), list, null)), [401, 'UNAUTHENTICATED', false]);
    assert.deepEqual(gqlError(await gql(sys, endpointUrl('graphql', priv), list, stranger)), [403, 'FORBIDDEN', false]);
    assert.equal(data(await gql(sys, endpointUrl('graphql', priv), list, admin)).authors.totalCount, 4);
    assert.deepEqual(restError(await sys.call('GET', `${endpointUrl('rest', priv)}/tables`)), [401, 'UNAUTHENTICATED']);
    assert.deepEqual(restError(await sys.call('GET', `${endpointUrl('rest', priv)}/openapi.json`, { token: stranger })), [403, 'FORBIDDEN']);
    assert.equal((await sys.call('GET', endpointUrl('graphql', priv))).status, 401);
    const page = await sys.call('GET', endpointUrl('graphql', priv), { token: admin });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.match(String(page.body), /data-endpoint="\/endpoint\/graphql\/acme\/blog\/master\/head"/);
    const token = await sys.call('POST', endpointUrl('graphql', priv), { body: { query: list }, headers: { Authorization: 'Bearer nope' } });
    assert.deepEqual(gqlError(token), [401, 'TOKEN_INVALID', false]);
  });

  test('public project: anonymous reads; anonymous writes 401 (GraphQL: on the field)', async () => {
    assert.equal(data(await gql(sys, endpointUrl('graphql', pub), list, null)).authors.totalCount, 4);
    ok(await sys.call('GET', `${endpointUrl('rest', pub)}/tables/authors/rows/a1`));
    ok(await sys.call('GET', `${endpointUrl('rest', pub)}/docs`));
    const mutation = await gql(sys, endpointUrl('graphql', pub, 'draft'), 'mutation { deleteAuthor(id: "a4") { id } }', null);
    assert.deepEqual(gqlError(mutation), [200, 'UNAUTHENTICATED', true]);
    assert.deepEqual(restError(await sys.call('DELETE', `${endpointUrl('rest', pub, 'draft')}/tables/authors/rows/a4`)), [401, 'UNAUTHENTICATED']);
    const byStranger = await sys.call('DELETE', `${endpointUrl('rest', pub, 'draft')}/tables/authors/rows/a4`, { token: stranger });
    assert.deepEqual(restError(byStranger), [403, 'FORBIDDEN']);
  });

  test('API keys: organization and branch scope per request, table scope and readOnly per field or route', async () => {
    const otherOrg = await sys.personalKey(admin, { organizationId: 'admin' });
    const scoped = await sys.call('POST', endpointUrl('graphql', pub), { body: { query: list }, headers: { 'X-Api-Key': otherOrg } });
    assert.deepEqual(gqlError(scoped), [403, 'API_KEY_SCOPE', false]);
    const branch = await sys.personalKey(admin, { branchNames: ['dev'] });
    assert.deepEqual(restError(await sys.call('GET', endpointUrl('rest', priv), { headers: { 'X-Api-Key': branch } })), [403, 'API_KEY_SCOPE']);
    const readOnly = await sys.personalKey(admin, { readOnly: true, tableIds: ['authors'] });
    const headers = { 'X-Api-Key': readOnly };
    const write = await sys.call('POST', endpointUrl('graphql', priv, 'draft'), {
      body: { query: 'mutation { deleteAuthor(id: "a4") { id } }' },
      headers,
    });
    assert.deepEqual(gqlError(write), [200, 'API_KEY_READ_ONLY', true]);
    const restWrite = await sys.call('DELETE', `${endpointUrl('rest', priv, 'draft')}/tables/authors/rows/a4`, { headers });
    assert.deepEqual(restError(restWrite), [403, 'API_KEY_READ_ONLY']);
    const tables = ok(await sys.call('GET', `${endpointUrl('rest', priv)}/tables`, { headers })).body.tables;
    assert.deepEqual(
      tables.map((t: { id: string }) => t.id),
      ['authors'],
    );
    assert.deepEqual(restError(await sys.call('GET', `${endpointUrl('rest', priv)}/tables/posts/rows`, { headers })), [403, 'API_KEY_SCOPE']);
    // The OpenAPI document and the schema show every table to anyone who may read the endpoint.
    const document = ok(await sys.call('GET', `${endpointUrl('rest', priv)}/openapi.json`, { headers })).body;
    assert.ok('/tables/posts/rows' in document.paths);
  });
});
