import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectStatus, seedProject, type SeededProject } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, expectRestError, gqlFailure, gqlOk, startAuthServer, type AuthServer } from './support/authServer.ts';

// Key scopes (auth.md §8.5): every dimension allowed and refused on each of the four surfaces.
let server: AuthServer;
let admin: string;
let blog: SeededProject;
let wiki: SeededProject;
let beta: SeededProject;

type Target = { readonly p: SeededProject; readonly branch: string; readonly table: string };

before(async () => {
  server = await startAuthServer();
  admin = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
  blog = await seedProject(server, admin, 'acme', 'blog', { tables: ['authors', 'posts'], branches: ['dev'] });
  wiki = await seedProject(server, admin, 'acme', 'wiki', { tables: ['authors'] });
  beta = await seedProject(server, admin, 'beta', 'x', { tables: ['authors'] });
});
after(() => server.close());

async function key(scope: Record<string, unknown>): Promise<Record<string, string>> {
  const reply = expectStatus(await server.call('POST', '/api/api-keys/personal', { token: admin, body: { name: 'scoped', ...scope } }), 201);
  return { 'X-Api-Key': reply.body.secret };
}

const at = (p: SeededProject, branch = 'master', table = 'authors'): Target => ({ p, branch, table });
const describeTarget = (t: Target) => `${t.p.org}/${t.p.project}/${t.branch}/${t.table}`;
const endpoint = (kind: 'graphql' | 'rest', t: Target) => `/endpoint/${kind}/${t.p.org}/${t.p.project}/${t.branch}/draft`;

/** One read of the target's table on each surface: 'ok' or the error code (with the HTTP status where it is one). */
async function probe(headers: Record<string, string>, t: Target): Promise<Record<string, string>> {
  const revisionId = t.p.drafts[t.branch] as string;
  const rest = await server.call('GET', `/api/revision/${revisionId}/table/${t.table}/rows`, { headers });
  const systemGql = await server.gql(`{ rows(data: { revisionId: "${revisionId}", tableId: "${t.table}" }) { totalCount } }`, { headers });
  const genRest = await server.call('GET', `${endpoint('rest', t)}/tables/${t.table}/rows`, { headers });
  const genGql = await server.gql(`{ ${t.table} { totalCount } }`, { headers, path: endpoint('graphql', t) });
  const restResult = (reply: typeof rest) => (reply.status === 200 ? 'ok' : `${reply.status} ${reply.body?.code}`);
  const gqlResult = (reply: typeof rest) => {
    if (reply.status === 200 && reply.body?.errors === undefined) return 'ok';
    const [status, code, hasData] = gqlFailure(reply);
    return hasData ? `field ${code}` : `${status} ${code}`;
  };
  return {
    systemRest: restResult(rest),
    systemGraphql: gqlResult(systemGql),
    generatedRest: restResult(genRest),
    generatedGraphql: gqlResult(genGql),
  };
}

const allowed = { systemRest: 'ok', systemGraphql: 'ok', generatedRest: 'ok', generatedGraphql: 'ok' };
/** Organization, project and branch refusals: the generated GraphQL endpoint refuses the whole request (errors.md §3.1). */
const refusedEndpoint = {
  systemRest: '403 API_KEY_SCOPE',
  systemGraphql: 'field API_KEY_SCOPE',
  generatedRest: '403 API_KEY_SCOPE',
  generatedGraphql: '403 API_KEY_SCOPE',
};
/** Table refusals: the generated GraphQL root field fails, the request does not. */
const refusedTable = { ...refusedEndpoint, generatedGraphql: 'field API_KEY_SCOPE' };

describe('every scope dimension, allowed and refused, on the four surfaces', () => {
  test('organization', async () => {
    const headers = await key({ organizationId: 'acme' });
    assert.deepEqual(await probe(headers, at(blog)), allowed);
    assert.deepEqual(await probe(headers, at(beta)), refusedEndpoint, describeTarget(at(beta)));
  });

  test('projects', async () => {
    const headers = await key({ projectIds: [blog.projectId] });
    assert.deepEqual(await probe(headers, at(blog)), allowed);
    assert.deepEqual(await probe(headers, at(wiki)), refusedEndpoint);
  });

  test('branches: $default is the root branch; other entries are exact names', async () => {
    const root = await key({ branchNames: ['$default'] });
    assert.deepEqual(await probe(root, at(blog)), allowed);
    assert.deepEqual(await probe(root, at(blog, 'dev')), refusedEndpoint);
    const dev = await key({ branchNames: ['dev'] });
    assert.deepEqual(await probe(dev, at(blog, 'dev')), allowed);
    assert.deepEqual(await probe(dev, at(blog)), refusedEndpoint);
  });

  test('tables', async () => {
    const headers = await key({ tableIds: ['authors'] });
    assert.deepEqual(await probe(headers, at(blog)), allowed);
    assert.deepEqual(await probe(headers, at(blog, 'master', 'posts')), refusedTable);
  });

  test('without a scope every target is reachable', async () => {
    const headers = await key({});
    for (const t of [at(blog), at(wiki), at(beta), at(blog, 'dev'), at(blog, 'master', 'posts')])
      assert.deepEqual(await probe(headers, t), allowed, describeTarget(t));
  });
});

describe('collections are filtered and writes stay inside the scope', () => {
  test('lists contain only in-scope items and count only them', async () => {
    const project = await key({ projectIds: [blog.projectId] });
    const projects = expectStatus(await server.call('GET', '/api/organization/acme/projects', { headers: project }), 200).body;
    assert.deepEqual([projects.totalCount, projects.edges.map((e: { node: { name: string } }) => e.node.name)], [1, ['blog']]);
    const table = await key({ tableIds: ['authors'] });
    const tables = expectStatus(await server.call('GET', `/api/revision/${blog.drafts.master}/tables`, { headers: table }), 200).body;
    assert.deepEqual([tables.totalCount, tables.edges.map((e: { node: { id: string } }) => e.node.id)], [1, ['authors']]);
    const generated = expectStatus(await server.call('GET', `${endpoint('rest', at(blog))}/tables`, { headers: table }), 200).body;
    assert.deepEqual(JSON.stringify(generated).includes('posts'), false, JSON.stringify(generated));
    const orgs = gqlOk(
      await server.gql('{ myOrganizations { totalCount edges { node { id } } } }', { headers: await key({ organizationId: 'beta' }) }),
    );
    assert.deepEqual(
      orgs.myOrganizations.edges.map((e: { node: { id: string } }) => e.node.id),
      ['beta'],
    );
  });

  test('a write that would create something outside the scope is refused', async () => {
    const headers = await key({ tableIds: ['authors'] });
    const schema = { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string', default: '' } } };
    const reply = await server.call('POST', `/api/revision/${blog.drafts.master}/tables`, { headers, body: { tableId: 'comments', schema } });
    expectRestError(reply, 403, 'API_KEY_SCOPE');
    expectRestError(
      await server.call('POST', `${endpoint('rest', at(blog))}/tables/posts/rows`, { headers, body: { id: 'p9', data: { title: 'x' } } }),
      403,
      'API_KEY_SCOPE',
    );
    expectStatus(
      await server.call('POST', `${endpoint('rest', at(blog))}/tables/authors/rows`, { headers, body: { id: 'a9', data: { title: 'x' } } }),
      201,
    );
  });
});

test('no password, refresh token, access token or key secret appears in any log line', () => {
  server.assertNoSecretsLogged();
});
