import assert from 'node:assert/strict';
import type { AuthServer, HttpReply } from './authServer.ts';

/** A one-property table schema. */
export const titleSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: { type: 'string', default: '' } },
};

export type SeededProject = {
  readonly org: string;
  readonly project: string;
  readonly projectId: string;
  /** Draft revision id by branch name. */
  readonly drafts: Readonly<Record<string, string>>;
};

export function expectStatus(reply: HttpReply, status: number): HttpReply {
  assert.equal(reply.status, status, `expected ${status}, got ${reply.status} ${reply.text}`);
  return reply;
}

/**
 * As `token` (an owner of `org`, created if missing): `org/project` with `tables` (one row `r1` each), committed, the
 * extra `branches` made from HEAD, and the GraphQL and REST endpoints of every branch's draft.
 */
export async function seedProject(
  server: AuthServer,
  token: string,
  org: string,
  project: string,
  options: { readonly tables: readonly string[]; readonly branches?: readonly string[]; readonly isPublic?: boolean },
): Promise<SeededProject> {
  const api = (method: string, path: string, body?: unknown) =>
    server.call(method, `/api${path}`, { token, ...(body === undefined ? {} : { body }) });
  if ((await api('GET', `/organization/${org}`)).status === 404) expectStatus(await api('POST', '/organizations', { organizationId: org }), 201);
  const created = expectStatus(
    await api('POST', `/organization/${org}/projects`, { projectName: project, isPublic: options.isPublic ?? false }),
    201,
  );
  const branchPath = (name: string) => `/organization/${org}/project/${project}/branch/${name}`;
  const draft = expectStatus(await api('GET', branchPath('master')), 200).body.draftRevisionId as string;
  for (const tableId of options.tables) {
    expectStatus(await api('POST', `/revision/${draft}/tables`, { tableId, schema: titleSchema }), 201);
    expectStatus(await api('POST', `/revision/${draft}/table/${tableId}/rows`, { rowId: 'r1', data: { title: tableId } }), 201);
  }
  expectStatus(await api('POST', `${branchPath('master')}/revisions`, { comment: 'seed' }), 201);
  const master = expectStatus(await api('GET', branchPath('master')), 200).body;
  const drafts: Record<string, string> = { master: master.draftRevisionId };
  for (const name of options.branches ?? []) {
    expectStatus(await api('POST', `/revision/${master.headRevisionId}/branches`, { branchName: name }), 201);
    drafts[name] = expectStatus(await api('GET', branchPath(name)), 200).body.draftRevisionId;
  }
  for (const revisionId of Object.values(drafts)) {
    for (const type of ['GRAPHQL', 'REST_API']) expectStatus(await api('POST', `/revision/${revisionId}/endpoints`, { type }), 201);
  }
  return { org, project, projectId: created.body.id, drafts };
}

/** URL of the draft endpoint of `branch`. */
export function draftEndpoint(kind: 'graphql' | 'rest', p: Pick<SeededProject, 'org' | 'project'>, branch = 'master'): string {
  return `/endpoint/${kind}/${p.org}/${p.project}/${branch}/draft`;
}
