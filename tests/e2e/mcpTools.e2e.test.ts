import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ADMIN_PASSWORD, ok, startMcpSystem, toolError, type McpClient, type McpSystem } from './support/mcpSystem.ts';

// mcp.md §1, §4, §5 driven with the SDK's own Client and StreamableHTTPClientTransport.
let system: McpSystem;
let agent: McpClient;

const EXPECTED_TOOLS = [
  'login',
  'logout',
  'me',
  'get_organization',
  'get_projects',
  'get_project',
  'create_project',
  'update_project',
  'delete_project',
  'get_branches',
  'get_branch',
  'create_branch',
  'delete_branch',
  'get_revisions',
  'get_revision',
  'create_revision',
  'revert_changes',
  'preview_merge',
  'merge_revision',
  'restore_revision',
  'get_tables',
  'get_table',
  'get_table_schema',
  'create_table',
  'update_table',
  'rename_table',
  'delete_table',
  'get_rows',
  'get_row',
  'create_row',
  'create_rows',
  'update_row',
  'update_rows',
  'patch_row',
  'patch_rows',
  'rename_row',
  'delete_row',
  'delete_rows',
  'get_revision_changes',
  'get_row_changes',
  'get_row_history',
  'get_project_endpoints',
  'create_endpoint',
  'delete_endpoint',
  'get_graphql_schema',
  'get_openapi_spec',
];
const target = { organizationId: 'admin', projectName: 'blog', branchName: '$default' };
const postSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views'],
  properties: { title: { type: 'string', default: '' }, views: { type: 'number', default: 0 } },
};

async function call(client: McpClient, name: string, args: Record<string, unknown> = {}) {
  return client.client.callTool({ name, arguments: args });
}

async function invalidParams(promise: Promise<unknown>, mention: string): Promise<void> {
  await assert.rejects(promise, (err) => err instanceof McpError && err.code === -32602 && err.message.includes(mention));
}

before(async () => {
  system = await startMcpSystem();
  agent = await system.connect();
});
after(() => system.close());

describe('initialize and tools/list', () => {
  test('answers as strata with tools only, the preferred protocol version and instructions', () => {
    assert.deepEqual(agent.client.getServerVersion(), { name: 'strata', version: '1.0.0' });
    assert.deepEqual(agent.client.getServerCapabilities(), { tools: { listChanged: false } });
    assert.match(agent.client.getInstructions() ?? '', /revisionId.*organizationId \+ projectName \+ branchName/s);
    assert.equal(agent.transport.protocolVersion, '2025-11-25');
    assert.match(agent.transport.sessionId ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('lists exactly the tools of mcp.md §5 with closed input schemas and annotations', async () => {
    const { tools } = await agent.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      EXPECTED_TOOLS,
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, tool.name);
      assert.equal(tool.annotations?.openWorldHint, false, tool.name);
      assert.ok(tool.title && tool.annotations?.title, tool.name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    const rows = byName.get('get_rows');
    assert.deepEqual(rows?.annotations, {
      title: 'List rows',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(rows?.inputSchema.required, ['tableId']);
    assert.deepEqual(Object.keys(rows?.inputSchema.properties ?? {}).sort(), [
      'after',
      'branchName',
      'first',
      'orderBy',
      'organizationId',
      'projectName',
      'revision',
      'revisionId',
      'tableId',
      'where',
    ]);
    assert.equal(byName.get('delete_row')?.annotations?.destructiveHint, true);
    assert.equal(byName.get('delete_row')?.annotations?.readOnlyHint, false);
    assert.equal(byName.get('update_row')?.annotations?.idempotentHint, true);
    assert.equal(byName.get('create_row')?.annotations?.idempotentHint, false);
    assert.deepEqual(byName.get('login')?.inputSchema.required, ['username', 'password']);
    assert.deepEqual(byName.get('create_revision')?.inputSchema.required, ['organizationId', 'projectName', 'branchName']);
  });
});

describe('working with data', () => {
  test('login binds the session; me answers the user', async () => {
    const anonymousMe = ok(await call(agent, 'me'));
    assert.deepEqual(anonymousMe, { authenticated: false });
    toolError(await call(agent, 'login', { username: 'admin', password: 'wrong-password' }), 'INVALID_CREDENTIALS');
    const login = ok(await call(agent, 'login', { username: 'admin', password: ADMIN_PASSWORD }));
    assert.equal(login.authenticated, true);
    assert.equal(login.user.username, 'admin');
    assert.deepEqual(Object.keys(login).sort(), ['authenticated', 'user']);
    const me = ok(await call(agent, 'me'));
    assert.equal(me.id, login.user.id);
    assert.equal(me.role, 'systemAdmin');
  });

  test('creates a project, a table and rows, commits, and reads rows with where/orderBy', async () => {
    const project = ok(await call(agent, 'create_project', { organizationId: 'admin', projectName: 'blog' }));
    assert.equal(project.name, 'blog');
    // A JSON string where an object is expected is parsed.
    const table = ok(await call(agent, 'create_table', { ...target, tableId: 'posts', schema: JSON.stringify(postSchema) }));
    assert.equal(table.id, 'posts');
    const created = ok(
      await call(agent, 'create_rows', {
        ...target,
        tableId: 'posts',
        rows: [
          { rowId: 'p1', data: { title: 'Hello', views: 5 } },
          { rowId: 'p2', data: '{"title": "Release notes", "views": 50}' },
          { rowId: 'p3', data: { title: 'Release plan', views: 20 } },
        ],
      }),
    );
    assert.deepEqual(
      created.rows.map((r: { id: string }) => r.id),
      ['p1', 'p2', 'p3'],
    );
    const one = ok(await call(agent, 'create_row', { ...target, tableId: 'posts', rowId: 'p4', data: { title: 'Draft', views: 1 } }));
    assert.equal(one.id, 'p4');
    assert.deepEqual(ok(await call(agent, 'delete_row', { ...target, tableId: 'posts', rowId: 'p4' })), { success: true });
    const commit = ok(await call(agent, 'create_revision', { ...target, comment: 'first posts' }));
    assert.equal(commit.comment, 'first posts');

    const page = ok(
      await call(agent, 'get_rows', {
        ...target,
        revision: 'head',
        tableId: 'posts',
        where: { data: { path: 'title', string_starts_with: 'release', mode: 'insensitive' } },
        orderBy: '[{"data": {"path": "views", "direction": "desc", "type": "float"}}]',
      }),
    );
    assert.deepEqual(
      page.edges.map((e: { node: { id: string } }) => e.node.id),
      ['p2', 'p3'],
    );
    assert.equal(page.totalCount, 2);
    assert.equal(page.pageInfo.hasNextPage, false);

    const branch = ok(await call(agent, 'get_branch', target));
    const byId = ok(await call(agent, 'get_row', { revisionId: branch.headRevisionId, tableId: 'posts', rowId: 'p1' }));
    assert.deepEqual(byId.data, { title: 'Hello', views: 5 });
    const tables = ok(await call(agent, 'get_tables', { revisionId: branch.headRevisionId }));
    assert.equal(tables.edges[0].node.id, 'posts');
    assert.equal(tables.edges[0].node.schema, undefined);
    const withSchema = ok(await call(agent, 'get_tables', { revisionId: branch.headRevisionId, includeSchema: true }));
    assert.deepEqual(withSchema.edges[0].node.schema, postSchema);
  });

  test('endpoints: create, list, GraphQL SDL and OpenAPI document, delete', async () => {
    const graphql = ok(await call(agent, 'create_endpoint', { ...target, revision: 'head', type: 'GRAPHQL' }));
    const rest = ok(await call(agent, 'create_endpoint', { ...target, type: 'REST_API' }));
    assert.equal(rest.mode, 'draft');
    const listed = ok(await call(agent, 'get_project_endpoints', { organizationId: 'admin', projectName: 'blog', type: 'GRAPHQL' }));
    assert.deepEqual(
      listed.edges.map((e: { node: { id: string } }) => e.node.id),
      [graphql.id],
    );
    const { sdl } = ok(await call(agent, 'get_graphql_schema', { endpointId: graphql.id }));
    assert.match(sdl, /type Query/);
    assert.match(sdl, /views: Float/);
    const openApi = ok(await call(agent, 'get_openapi_spec', { endpointId: rest.id }));
    assert.equal(openApi.openapi, '3.1.0');
    assert.equal(openApi.info.version, rest.revisionId);
    assert.ok(Object.keys(openApi.paths).some((path) => path.includes('posts')));
    toolError(await call(agent, 'get_openapi_spec', { endpointId: graphql.id }), 'BAD_USER_INPUT');
    toolError(await call(agent, 'get_graphql_schema', { endpointId: 'nope' }), 'ENDPOINT_NOT_FOUND');
    assert.deepEqual(ok(await call(agent, 'delete_endpoint', { endpointId: rest.id })), { success: true });
  });

  test('domain and authorization failures are tool results', async () => {
    const missing = toolError(await call(agent, 'get_row', { ...target, tableId: 'posts', rowId: 'p9' }), 'ROW_NOT_FOUND');
    assert.match(missing.message, /p9/);
    const invalid = toolError(await call(agent, 'create_row', { ...target, tableId: 'posts', rowId: 'bad', data: { title: 1 } }), 'INVALID_DATA');
    assert.ok(Array.isArray(invalid.details));
    toolError(await call(agent, 'create_table', { ...target, revision: 'head', tableId: 'x', schema: postSchema }), 'REVISION_NOT_DRAFT');
    toolError(await call(agent, 'get_project', { organizationId: 'admin', projectName: 'nope' }), 'PROJECT_NOT_FOUND');
  });

  test('unknown tools, bad arguments and bad targets are -32602 naming the argument', async () => {
    await invalidParams(call(agent, 'drop_everything'), 'drop_everything');
    await invalidParams(call(agent, 'get_rows', { ...target }), 'tableId');
    await invalidParams(call(agent, 'get_rows', { ...target, tableId: 'posts', first: 5000 }), 'first');
    await invalidParams(call(agent, 'get_rows', { ...target, tableId: 'posts', limit: 5 }), 'limit');
    await invalidParams(call(agent, 'get_rows', { ...target, tableId: 'posts', where: 'not json' }), 'where');
    await invalidParams(call(agent, 'get_rows', { ...target, revisionId: 'r1', tableId: 'posts' }), 'either');
    await invalidParams(call(agent, 'get_rows', { tableId: 'posts' }), 'revisionId');
    await invalidParams(call(agent, 'get_rows', { organizationId: 'admin', projectName: 'blog', tableId: 'posts' }), 'together');
  });
});

/** The SDK's error for an HTTP 401 with JSON-RPC -32002 "Authentication required". */
const prompt401 = (err: unknown): boolean => (err as { code?: unknown }).code === 401 && /-32002.*Authentication required/.test(String(err));

describe('anonymous sessions', () => {
  test('a second session is isolated: anonymous, reads only public projects; the rest is an HTTP 401 prompt', async () => {
    const guest = await system.connect();
    assert.notEqual(guest.transport.sessionId, agent.transport.sessionId);
    assert.deepEqual(ok(await call(guest, 'me')), { authenticated: false });
    // oauth.md §2.1: what would be UNAUTHENTICATED is HTTP 401 (-32002) so OAuth clients start their flow.
    await assert.rejects(call(guest, 'get_project', { organizationId: 'admin', projectName: 'blog' }), prompt401);
    await assert.rejects(call(guest, 'create_project', { organizationId: 'admin', projectName: 'mine' }), prompt401);
    ok(await call(agent, 'update_project', { organizationId: 'admin', projectName: 'blog', isPublic: true }));
    const rows = ok(await call(guest, 'get_rows', { ...target, revision: 'head', tableId: 'posts' }));
    assert.equal(rows.totalCount, 3);
    await assert.rejects(call(guest, 'delete_row', { ...target, tableId: 'posts', rowId: 'p1' }), prompt401);
    // The logged-in session is unaffected.
    assert.equal(ok(await call(agent, 'me')).username, 'admin');
  });
});
