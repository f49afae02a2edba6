import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { ADMIN_PASSWORD, startSystem, type Client, type System } from './systemHarness.ts';
import { alice, authorsSchema, bob, branchIds, carol, organizationWithProject } from './systemFixtures.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

/** Asserts the reply's status and answers its body. */
export async function ok(reply: Promise<{ status: number; body: Json }>, status = 200): Promise<Json> {
  const r = await reply;
  assert.equal(r.status, status, JSON.stringify(r.body));
  return r.body;
}

export type MergeProject = { readonly name: string; readonly c1: string; readonly B: string };

/**
 * Projects of organization acme for merge scenarios (merge.md), written through system REST as `admin`: each starts
 * with table authors (alice, bob, carol) committed as c1 on master.
 */
export function createMergeKit(admin: Client) {
  let project = 0;

  async function freshProject(): Promise<MergeProject> {
    const name = `p${++project}`;
    if (project === 1) await organizationWithProject(admin, 'acme', name);
    else await ok(admin.rest('POST', '/organization/acme/projects', { projectName: name }), 201);
    const draft = (await branchIds(admin, 'acme', name)).draftRevisionId;
    await ok(admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema }), 201);
    const rows = [
      { rowId: 'alice', data: alice },
      { rowId: 'bob', data: bob },
      { rowId: 'carol', data: carol },
    ];
    await ok(admin.rest('POST', `/revision/${draft}/table/authors/rows/bulk`, { rows }), 201);
    const B = `/organization/acme/project/${name}/branch`;
    const c1 = (await ok(admin.rest('POST', `${B}/master/revisions`, { comment: 'c1' }), 201)).id;
    return { name, c1, B };
  }

  function ctx(p: MergeProject) {
    const draft = async (branch = 'master') => (await branchIds(admin, 'acme', p.name, branch)).draftRevisionId;
    const T = (revision: string, table = 'authors') => `/revision/${revision}/table/${table}`;
    return {
      draft,
      T,
      commit: async (branch: string) => (await ok(admin.rest('POST', `${p.B}/${branch}/revisions`, { comment: `on ${branch}` }), 201)).id as string,
      branch: async (from: string, name: string) => ok(admin.rest('POST', `/revision/${from}/branches`, { branchName: name }), 201),
      merge: (branch: string, body: Json, dryRun = false) => admin.rest('POST', `${p.B}/${branch}/merge${dryRun ? '?dryRun=true' : ''}`, body),
      rows: async (revision: string, table = 'authors') => {
        const page = await ok(admin.rest('GET', `${T(revision, table)}/rows?first=100`));
        return Object.fromEntries(page.edges.map((e: Json) => [e.node.id, e.node.data]));
      },
      tables: async (revision: string) => {
        const page = await ok(admin.rest('GET', `/revision/${revision}/tables?first=100&includeSchema=true`));
        return Object.fromEntries(page.edges.map((e: Json) => [e.node.id, e.node.schema]));
      },
    };
  }

  return { freshProject, ctx };
}

export type MergeSuite = { readonly admin: Client; readonly kit: ReturnType<typeof createMergeKit> };

/** A system for the calling file's tests (started before them, closed after), its admin and a merge kit. */
export function mergeSuite(): MergeSuite {
  let system: System | undefined;
  const suite = {} as { admin: Client; kit: ReturnType<typeof createMergeKit> };
  before(async () => {
    system = await startSystem();
    suite.admin = system.as(await system.login('admin', ADMIN_PASSWORD));
    suite.kit = createMergeKit(suite.admin);
  });
  after(() => system?.close());
  return suite;
}
