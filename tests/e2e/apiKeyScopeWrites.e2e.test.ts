import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectStatus, seedProject, titleSchema, type SeededProject } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, startAuthServer, type AuthServer, type HttpReply } from './support/authServer.ts';

// auth.md §8.5: every create and rename, against every scope dimension, on every surface that offers it (system
// REST, system GraphQL, generated REST and GraphQL, MCP). Each cell is refused with API_KEY_SCOPE and changes
// nothing, or (where the dimension does not concern the operation) succeeds; a key scoped to exactly the operation's
// targets succeeds on every surface, so a refusal is the scope's doing.

type Surface = 'systemRest' | 'systemGraphql' | 'generatedRest' | 'generatedGraphql' | 'mcp';
type Dimension = 'organization' | 'project' | 'branch' | 'table';
type Scope = Record<string, unknown>;

/** One attempt prepared by the admin: what it touches (for the exactly-scoped key) and how to run it per surface. */
type Attempt = {
  readonly scope: Scope;
  run(surface: Surface, headers: Record<string, string>): Promise<HttpReply>;
  /** Whether the attempt's effect exists now. */
  exists(): Promise<boolean>;
};

type Operation = {
  readonly name: string;
  readonly surfaces: readonly Surface[];
  /** Expected outcome per dimension: refused by the scope, or allowed because the dimension does not apply. */
  readonly expected: Readonly<Record<Dimension, 'API_KEY_SCOPE' | 'ok'>>;
  prepare(n: number): Promise<Attempt>;
};

const SYSTEM: readonly Surface[] = ['systemRest', 'systemGraphql'];
const ALL_SYSTEM: readonly Surface[] = ['systemRest', 'systemGraphql', 'mcp'];
const EVERY: readonly Surface[] = ['systemRest', 'systemGraphql', 'generatedRest', 'generatedGraphql', 'mcp'];
const REFUSED_EVERYWHERE = { organization: 'API_KEY_SCOPE', project: 'API_KEY_SCOPE', branch: 'API_KEY_SCOPE', table: 'API_KEY_SCOPE' } as const;

let server: AuthServer;
let admin: string;
let blog: SeededProject;
let wiki: SeededProject;
let counter = 0;

before(async () => {
  server = await startAuthServer({ API_KEY_MAX_PER_USER: '1000' });
  admin = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
  blog = await seedProject(server, admin, 'acme', 'blog', { tables: ['authors', 'posts'], branches: ['dev'] });
  wiki = await seedProject(server, admin, 'acme', 'wiki', { tables: ['authors'] });
  await seedProject(server, admin, 'beta', 'x', { tables: ['authors'] });
});
after(() => server.close());

/** The key of each dimension: blog/dev/posts and every new name lie outside it. */
function dimensionScope(dimension: Dimension): Scope {
  switch (dimension) {
    case 'organization':
      return { organizationId: 'beta' };
    case 'project':
      return { projectIds: [wiki.projectId] };
    case 'branch':
      return { branchNames: ['master'] };
    case 'table':
      return { tableIds: ['authors'] };
  }
}

async function keyFor(scope: Scope): Promise<Record<string, string>> {
  const reply = expectStatus(
    await server.call('POST', '/api/api-keys/personal', { token: admin, body: { name: `scoped-${++counter}`, ...scope } }),
    201,
  );
  return { 'X-Api-Key': reply.body.secret };
}

const api = (method: string, path: string, body?: unknown) =>
  server.call(method, `/api${path}`, { token: admin, ...(body === undefined ? {} : { body }) });
const branchPath = (p: SeededProject, branch: string) => `/organization/${p.org}/project/${p.project}/branch/${branch}`;
const found = async (path: string) => (await api('GET', path)).status === 200;

async function headOf(p: SeededProject, branch: string): Promise<string> {
  return expectStatus(await api('GET', branchPath(p, branch)), 200).body.headRevisionId as string;
}

/** A system write: REST route, GraphQL mutation (with `data` as variables) and MCP tool. */
function systemWrite(rest: [string, string, unknown], mutation: string, tool: string, data: Record<string, unknown>) {
  return async (surface: Surface, headers: Record<string, string>): Promise<HttpReply> => {
    if (surface === 'systemRest') return server.call(rest[0], rest[1], { headers, body: rest[2] });
    if (surface === 'systemGraphql') {
      const type = `${mutation[0]?.toUpperCase()}${mutation.slice(1)}Input!`;
      return server.gql(`mutation($data: ${type}) { ${mutation}(data: $data) { __typename } }`, { headers, variables: { data } });
    }
    return mcpCall(headers, tool, data);
  };
}

/** initialize (binding the key), then one tools/call, over raw Streamable HTTP with JSON responses. */
async function mcpCall(headers: Record<string, string>, tool: string, args: Record<string, unknown>): Promise<HttpReply> {
  const mcpHeaders = { ...headers, Accept: 'application/json, text/event-stream' };
  const init = await server.call('POST', '/mcp', {
    headers: mcpHeaders,
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'scope', version: '1' } },
    },
  });
  assert.equal(init.status, 200, init.text);
  const session = { ...mcpHeaders, 'Mcp-Session-Id': init.headers.get('mcp-session-id') ?? '' };
  await server.call('POST', '/mcp', { headers: session, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  const reply = await server.call('POST', '/mcp', {
    headers: session,
    body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } },
  });
  await server.call('DELETE', '/mcp', { headers: session });
  return reply;
}

/** 'ok' or the error code, whatever the surface's error shape. */
function outcomeOf(surface: Surface, reply: HttpReply): string {
  if (surface === 'mcp') {
    const result = reply.body?.result;
    if (reply.status !== 200 || result === undefined) return `http ${reply.status} ${reply.text}`;
    return result.isError === true ? String(result.structuredContent?.code) : 'ok';
  }
  if (surface === 'systemGraphql' || surface === 'generatedGraphql') {
    const errors = reply.body?.errors as { extensions?: { code?: string } }[] | undefined;
    return errors === undefined && reply.status === 200 ? 'ok' : String(errors?.[0]?.extensions?.code ?? reply.status);
  }
  return reply.status >= 200 && reply.status < 300 ? 'ok' : String(reply.body?.code ?? reply.status);
}

const operations: Operation[] = [
  {
    name: 'createOrganization',
    surfaces: SYSTEM,
    // A new organization holds no branch or table; it lies outside an organization and a project scope.
    expected: { organization: 'API_KEY_SCOPE', project: 'API_KEY_SCOPE', branch: 'ok', table: 'ok' },
    async prepare(n) {
      const organizationId = `org${n}`;
      return {
        scope: { branchNames: ['master'], tableIds: ['authors'] },
        run: systemWrite(['POST', '/api/organizations', { organizationId }], 'createOrganization', '-', { organizationId }),
        exists: () => found(`/organization/${organizationId}`),
      };
    },
  },
  {
    name: 'createProject',
    surfaces: ALL_SYSTEM,
    expected: { ...REFUSED_EVERYWHERE, table: 'ok' },
    async prepare(n) {
      const data = { organizationId: 'acme', projectName: `p${n}`, branchName: `root${n}` };
      return {
        // No key can list a project that does not exist yet: the exactly-scoped key has no project dimension.
        scope: { organizationId: 'acme', branchNames: [data.branchName], tableIds: ['authors'] },
        run: systemWrite(
          ['POST', '/api/organization/acme/projects', { projectName: data.projectName, branchName: data.branchName }],
          'createProject',
          'create_project',
          data,
        ),
        exists: () => found(`/organization/acme/project/${data.projectName}`),
      };
    },
  },
  {
    name: 'createBranch',
    surfaces: ALL_SYSTEM,
    expected: { ...REFUSED_EVERYWHERE, table: 'ok' },
    async prepare(n) {
      const data = { revisionId: await headOf(blog, 'master'), branchName: `b${n}` };
      return {
        scope: { organizationId: 'acme', projectIds: [blog.projectId], branchNames: ['master', data.branchName], tableIds: ['authors'] },
        run: systemWrite(
          ['POST', `/api/revision/${data.revisionId}/branches`, { branchName: data.branchName }],
          'createBranch',
          'create_branch',
          data,
        ),
        exists: () => found(branchPath(blog, data.branchName)),
      };
    },
  },
  {
    name: 'createTable',
    surfaces: ALL_SYSTEM,
    expected: REFUSED_EVERYWHERE,
    async prepare(n) {
      const data = { revisionId: blog.drafts.dev as string, tableId: `t${n}`, schema: titleSchema };
      return {
        scope: { organizationId: 'acme', projectIds: [blog.projectId], branchNames: ['dev'], tableIds: [data.tableId] },
        run: systemWrite(
          ['POST', `/api/revision/${data.revisionId}/tables`, { tableId: data.tableId, schema: titleSchema }],
          'createTable',
          'create_table',
          data,
        ),
        exists: () => found(`/revision/${data.revisionId}/table/${data.tableId}`),
      };
    },
  },
  {
    name: 'renameTable',
    surfaces: ALL_SYSTEM,
    expected: REFUSED_EVERYWHERE,
    async prepare(n) {
      const revisionId = blog.drafts.dev as string;
      expectStatus(await api('POST', `/revision/${revisionId}/tables`, { tableId: `rt${n}`, schema: titleSchema }), 201);
      const data = { revisionId, tableId: `rt${n}`, nextTableId: `rt${n}x` };
      return {
        scope: { organizationId: 'acme', projectIds: [blog.projectId], branchNames: ['dev'], tableIds: [data.tableId, data.nextTableId] },
        run: systemWrite(
          ['POST', `/api/revision/${revisionId}/table/${data.tableId}/rename`, { nextTableId: data.nextTableId }],
          'renameTable',
          'rename_table',
          data,
        ),
        exists: () => found(`/revision/${revisionId}/table/${data.nextTableId}`),
      };
    },
  },
  {
    name: 'createRow',
    surfaces: EVERY,
    expected: REFUSED_EVERYWHERE,
    async prepare(n) {
      const revisionId = blog.drafts.dev as string;
      const data = { revisionId, tableId: 'posts', rowId: `c${n}`, data: { title: 'x' } };
      const generated = (kind: string) => `/endpoint/${kind}/acme/blog/dev/draft`;
      const system = systemWrite(
        ['POST', `/api/revision/${revisionId}/table/posts/rows`, { rowId: data.rowId, data: data.data }],
        'createRow',
        'create_row',
        data,
      );
      return {
        scope: { organizationId: 'acme', projectIds: [blog.projectId], branchNames: ['dev'], tableIds: ['posts'] },
        async run(surface, headers) {
          if (surface === 'generatedRest')
            return server.call('POST', `${generated('rest')}/tables/posts/rows`, { headers, body: { id: data.rowId, data: data.data } });
          if (surface === 'generatedGraphql') {
            return server.gql(`mutation { createPost(data: { id: "${data.rowId}", data: { title: "x" } }) { id } }`, {
              headers,
              path: generated('graphql'),
            });
          }
          return system(surface, headers);
        },
        exists: () => found(`/revision/${revisionId}/table/posts/row/${data.rowId}`),
      };
    },
  },
  {
    name: 'renameRow',
    surfaces: ALL_SYSTEM,
    expected: REFUSED_EVERYWHERE,
    async prepare(n) {
      const revisionId = blog.drafts.dev as string;
      expectStatus(await api('POST', `/revision/${revisionId}/table/posts/rows`, { rowId: `rr${n}`, data: { title: 'x' } }), 201);
      const data = { revisionId, tableId: 'posts', rowId: `rr${n}`, nextRowId: `rr${n}x` };
      return {
        scope: { organizationId: 'acme', projectIds: [blog.projectId], branchNames: ['dev'], tableIds: ['posts'] },
        run: systemWrite(
          ['POST', `/api/revision/${revisionId}/table/posts/row/${data.rowId}/rename`, { nextRowId: data.nextRowId }],
          'renameRow',
          'rename_row',
          data,
        ),
        exists: () => found(`/revision/${revisionId}/table/posts/row/${data.nextRowId}`),
      };
    },
  },
  {
    name: 'createEndpoint',
    surfaces: ALL_SYSTEM,
    expected: { ...REFUSED_EVERYWHERE, table: 'ok' },
    async prepare(n) {
      // A fresh branch per attempt, so an allowed attempt never meets an existing endpoint.
      const branchName = `e${n}`;
      expectStatus(await api('POST', `/revision/${await headOf(blog, 'master')}/branches`, { branchName }), 201);
      const data = { revisionId: await headOf(blog, branchName), type: 'GRAPHQL' };
      return {
        scope: { organizationId: 'acme', projectIds: [blog.projectId], branchNames: [branchName], tableIds: ['authors'] },
        run: systemWrite(['POST', `/api/revision/${data.revisionId}/endpoints`, { type: data.type }], 'createEndpoint', 'create_endpoint', data),
        exists: async () => (expectStatus(await api('GET', `/revision/${data.revisionId}/endpoints`), 200).body as unknown[]).length > 0,
      };
    },
  },
];

describe('creates and renames against every scope dimension on every surface (auth.md §8.5)', () => {
  for (const operation of operations) {
    test(operation.name, async () => {
      const keys = new Map<Dimension, Record<string, string>>();
      for (const dimension of Object.keys(operation.expected) as Dimension[]) keys.set(dimension, await keyFor(dimensionScope(dimension)));
      const actual: string[] = [];
      const expected: string[] = [];
      for (const surface of operation.surfaces) {
        for (const [dimension, headers] of keys) {
          const attempt = await operation.prepare(++counter);
          const outcome = outcomeOf(surface, await attempt.run(surface, headers));
          actual.push(`${surface} × ${dimension}: ${outcome} (exists: ${await attempt.exists()})`);
          const want = operation.expected[dimension];
          expected.push(`${surface} × ${dimension}: ${want} (exists: ${want === 'ok'})`);
        }
        const attempt = await operation.prepare(++counter);
        const outcome = outcomeOf(surface, await attempt.run(surface, await keyFor(attempt.scope)));
        actual.push(`${surface} × exact scope: ${outcome} (exists: ${await attempt.exists()})`);
        expected.push(`${surface} × exact scope: ok (exists: true)`);
      }
      assert.deepEqual(actual, expected);
    });
  }
});
