import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startSystem, type Client, type System } from './systemHarness.ts';

/** Authors: nested object, array of strings. */
export const authorsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'address', 'tags'],
  properties: {
    name: { type: 'string', default: '' },
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['city', 'zip'],
      properties: { city: { type: 'string', default: '' }, zip: { type: 'number', default: 0 } },
    },
    tags: { type: 'array', items: { type: 'string', default: '' } },
  },
};

/** Posts: a foreign key to authors, an array of objects, a system ref. */
export const postsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'author', 'lines', 'self'],
  properties: {
    title: { type: 'string', default: '' },
    views: { type: 'number', default: 0 },
    author: { type: 'string', default: '', foreignKey: 'authors' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'reviewers'],
        properties: {
          text: { type: 'string', default: '' },
          reviewers: { type: 'array', items: { type: 'string', default: '', foreignKey: 'authors' } },
        },
      },
    },
    self: { $ref: 'urn:jsonschema:io:strata:row-id-schema:1.0.0' },
  },
};

export const alice = { name: 'Alice', address: { city: 'Paris', zip: 75001 }, tags: ['staff'] };
export const bob = { name: 'Bob', address: { city: 'Lyon', zip: 69001 }, tags: [] };
export const carol = { name: 'Carol', address: { city: 'Nice', zip: 6000 }, tags: ['guest', 'x'] };

export type BranchIds = { readonly headRevisionId: string; readonly draftRevisionId: string; readonly startRevisionId: string };

/** Current head/draft ids of a branch (REST). */
export async function branchIds(client: Client, org: string, project: string, branch = 'master'): Promise<BranchIds> {
  const reply = await client.rest('GET', `/organization/${org}/project/${project}/branch/${branch}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

/** Creates an organization (as a systemAdmin) with one project; returns its master branch ids. */
export async function organizationWithProject(admin: Client, org: string, project: string, isPublic = false): Promise<BranchIds> {
  const created = await admin.rest('POST', '/organizations', { organizationId: org });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const made = await admin.rest('POST', `/organization/${org}/projects`, { projectName: project, isPublic });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return branchIds(admin, org, project);
}

/** Creates a user (as a systemAdmin) and returns its id. */
export async function createUser(admin: Client, username: string, password: string): Promise<string> {
  const reply = await admin.rest('POST', '/users', { username, password });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

/** A JSON Lines file POSTed to the system REST import of `table` in `revisionId` (portability.md §2), as `token`. */
export async function uploadImport(
  url: string,
  token: string,
  revisionId: string,
  table: string,
  body: string,
  query = '',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's JSON
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/api/revision/${revisionId}/table/${table}/import${query}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
    body,
  });
  return { status: res.status, body: await res.json() };
}

/**
 * A system in this process with, as the admin, organization `acme`, project `project` and the tables `tableIds` of
 * `schema` on its draft (the staged-import suites' start).
 */
export async function systemWithTables(
  project: string,
  tableIds: readonly string[],
  schema: unknown,
): Promise<{ system: System; token: string; admin: Client; draft: string }> {
  const system = await startSystem({});
  const token = await system.login('admin', ADMIN_PASSWORD);
  const admin = system.as(token);
  const draft = (await organizationWithProject(admin, 'acme', project)).draftRevisionId;
  for (const tableId of tableIds) {
    const made = await admin.rest('POST', `/revision/${draft}/tables`, { tableId, schema });
    assert.equal(made.status, 201, JSON.stringify(made.body));
  }
  return { system, token, admin, draft };
}
