import assert from 'node:assert/strict';
import type { Reply } from './systemHarness.ts';
import { ADMIN_PASSWORD, startGeneratedSystem } from './generatedHarness.ts';
import type { GeneratedSystem } from './generatedHarness.ts';

const text = { type: 'string', default: '' } as const;
const number = { type: 'number', default: 0 } as const;
const object = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

/** Authors: nested object, string array, a date-time string, a boolean. */
export const authorsSchema = object({
  name: text,
  age: number,
  active: { type: 'boolean', default: false },
  joined: { type: 'string', default: '', format: 'date-time' },
  address: object({ city: text }),
  tags: { type: 'array', items: text },
});

/** Posts: an FK, an FK array, an array of objects, a system ref. */
export const postsSchema = object({
  title: text,
  views: number,
  author: { type: 'string', default: '', foreignKey: 'authors' },
  reviewers: { type: 'array', items: { type: 'string', default: '', foreignKey: 'authors' } },
  lines: { type: 'array', items: object({ text }) },
  self: { $ref: 'urn:jsonschema:io:strata:row-id-schema:1.0.0' },
});

export const authors = [
  {
    id: 'a1',
    data: { name: 'Alice', age: 31, active: true, joined: '2024-01-05T10:00:00.000Z', address: { city: 'Paris' }, tags: ['staff', 'news'] },
  },
  { id: 'a2', data: { name: 'bob', age: 25, active: false, joined: '2023-06-01T08:30:00.000Z', address: { city: 'Lyon' }, tags: [] } },
  { id: 'a3', data: { name: 'Carol', age: 47, active: true, joined: '2025-02-11T12:00:00.000Z', address: { city: 'Nice' }, tags: ['guest'] } },
  { id: 'a4', data: { name: 'dave', age: 25, active: true, joined: '2022-12-24T18:45:00.000Z', address: { city: 'paris' }, tags: ['news'] } },
];

export const posts = Array.from({ length: 7 }, (_, i) => ({
  id: `p${i + 1}`,
  data: {
    title: `Post ${String.fromCharCode(65 + i)}`,
    views: (i * 37) % 11,
    author: `a${(i % 4) + 1}`,
    reviewers: i % 2 === 0 ? ['a1', 'a2'] : ['a3'],
    lines: [{ text: `line ${i}` }],
    self: '',
  },
}));

export type Project = {
  readonly org: string;
  readonly project: string;
  readonly headRevisionId: string;
  readonly draftRevisionId: string;
};

export function ok(reply: Reply, status = 200): Reply {
  assert.equal(reply.status, status, `expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

/**
 * Creates (as the admin) `org/project` with the authors and posts tables and rows, commits them, and creates the
 * GraphQL and REST endpoints of HEAD and draft. Returns the current revision ids.
 */
export async function seedProject(sys: GeneratedSystem, token: string, org: string, project: string, isPublic = false): Promise<Project> {
  const orgs = await sys.api(token, 'GET', `/organization/${org}`);
  if (orgs.status === 404) ok(await sys.api(token, 'POST', '/organizations', { organizationId: org }), 201);
  ok(await sys.api(token, 'POST', `/organization/${org}/projects`, { projectName: project, isPublic }), 201);
  const branch = `/organization/${org}/project/${project}/branch/master`;
  const draft = ok(await sys.api(token, 'GET', branch)).body.draftRevisionId as string;
  ok(await sys.api(token, 'POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema }), 201);
  ok(await sys.api(token, 'POST', `/revision/${draft}/tables`, { tableId: 'posts', schema: postsSchema }), 201);
  const rows = (list: readonly { id: string; data: unknown }[]) => ({ rows: list.map((r) => ({ rowId: r.id, data: r.data })) });
  ok(await sys.api(token, 'POST', `/revision/${draft}/table/authors/rows/bulk`, rows(authors)), 201);
  ok(await sys.api(token, 'POST', `/revision/${draft}/table/posts/rows/bulk`, rows(posts)), 201);
  ok(await sys.api(token, 'POST', `${branch}/revisions`, { comment: 'seed' }), 201);
  const ids = ok(await sys.api(token, 'GET', branch)).body;
  for (const revisionId of [ids.headRevisionId, ids.draftRevisionId]) {
    for (const type of ['GRAPHQL', 'REST_API']) ok(await sys.api(token, 'POST', `/revision/${revisionId}/endpoints`, { type }), 201);
  }
  return { org, project, headRevisionId: ids.headRevisionId, draftRevisionId: ids.draftRevisionId };
}

/** URL of a generated endpoint. */
export function endpointUrl(kind: 'graphql' | 'rest', p: Project, segment = 'head', branch = 'master'): string {
  return `/endpoint/${kind}/${p.org}/${p.project}/${branch}/${segment}`;
}

/** POST a GraphQL document to a generated endpoint. */
export function gql(
  sys: GeneratedSystem,
  url: string,
  query: string,
  token: string | null = null,
  variables?: Record<string, unknown>,
): Promise<Reply> {
  return sys.call('POST', url, { body: { query, ...(variables ? { variables } : {}) }, token });
}

/** The data of a GraphQL answer without errors. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
export function data(reply: Reply): any {
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body?.errors, undefined, JSON.stringify(reply.body?.errors));
  return reply.body.data;
}

/** A one-property schema (tables without properties are omitted from GraphQL). */
export const nameOnlySchema = object({ name: text });

/**
 * Creates `org/project` with the given tables (in this order, so creation order is theirs) in its draft and the
 * draft endpoints of both kinds; returns the draft revision id.
 */
export async function projectWithTables(
  sys: GeneratedSystem,
  token: string,
  org: string,
  project: string,
  tables: readonly (readonly [string, unknown])[],
): Promise<string> {
  const orgs = await sys.api(token, 'GET', `/organization/${org}`);
  if (orgs.status === 404) ok(await sys.api(token, 'POST', '/organizations', { organizationId: org }), 201);
  ok(await sys.api(token, 'POST', `/organization/${org}/projects`, { projectName: project }), 201);
  const draft = ok(await sys.api(token, 'GET', `/organization/${org}/project/${project}/branch/master`)).body.draftRevisionId as string;
  for (const [tableId, schema] of tables) ok(await sys.api(token, 'POST', `/revision/${draft}/tables`, { tableId, schema }), 201);
  for (const type of ['GRAPHQL', 'REST_API']) ok(await sys.api(token, 'POST', `/revision/${draft}/endpoints`, { type }), 201);
  return draft;
}

/** Type names and root field names of a generated schema, by introspection over HTTP. */
export async function schemaNames(sys: GeneratedSystem, url: string, token: string | null) {
  const query = '{ __schema { types { name } queryType { fields { name } } mutationType { fields { name } } } }';
  const schema = data(await gql(sys, url, query, token)).__schema;
  return {
    types: new Set<string>(schema.types.map((t: { name: string }) => t.name)),
    queries: new Set<string>(schema.queryType.fields.map((f: { name: string }) => f.name)),
    mutations: new Set<string>((schema.mutationType?.fields ?? []).map((f: { name: string }) => f.name)),
  };
}

/** The generated system with `admin` logged in and project acme/blog seeded (seedProject). */
export async function startBlogSystem(): Promise<{ sys: GeneratedSystem; admin: string; blog: Project }> {
  const sys = await startGeneratedSystem();
  const admin = await sys.login('admin', ADMIN_PASSWORD);
  return { sys, admin, blog: await seedProject(sys, admin, 'acme', 'blog') };
}
