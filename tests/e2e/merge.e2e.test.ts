import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, bob, branchIds, carol, organizationWithProject } from './support/systemFixtures.ts';

// Merge and restore (merge.md) through system REST and GraphQL: the §2.1-§2.2 rules, conflicts and their
// resolutions, strategies, UP_TO_DATE, the revision graph (pending and committed merge edges, criss-cross bases),
// restore, permissions.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
let system: System;
let admin: Client;
let project = 0;

async function ok(reply: Promise<{ status: number; body: Json }>, status = 200): Promise<Json> {
  const r = await reply;
  assert.equal(r.status, status, JSON.stringify(r.body));
  return r.body;
}

/** A fresh project `p{n}` of organization acme with table authors (alice, bob, carol) committed as c1. */
async function freshProject(): Promise<{ name: string; c1: string; B: string }> {
  const name = `p${++project}`;
  const master = await (project === 1 ? organizationWithProject(admin, 'acme', name) : createProject(name));
  const draft = master.draftRevisionId;
  await ok(admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema }), 201);
  await ok(admin.rest('POST', `/revision/${draft}/table/authors/rows/bulk`, { rows: [{ rowId: 'alice', data: alice }, { rowId: 'bob', data: bob }, { rowId: 'carol', data: carol }] }), 201);
  const B = `/organization/acme/project/${name}/branch`;
  const c1 = (await ok(admin.rest('POST', `${B}/master/revisions`, { comment: 'c1' }), 201)).id;
  return { name, c1, B };
}

async function createProject(name: string) {
  await ok(admin.rest('POST', '/organization/acme/projects', { projectName: name }), 201);
  return branchIds(admin, 'acme', name);
}

function ctx(p: { name: string; B: string }) {
  const draft = async (branch = 'master') => (await branchIds(admin, 'acme', p.name, branch)).draftRevisionId;
  const head = async (branch = 'master') => (await branchIds(admin, 'acme', p.name, branch)).headRevisionId;
  const T = (revision: string, table = 'authors') => `/revision/${revision}/table/${table}`;
  return {
    draft,
    head,
    T,
    commit: async (branch: string) => (await ok(admin.rest('POST', `${p.B}/${branch}/revisions`, { comment: `on ${branch}` }), 201)).id as string,
    branch: async (from: string, name: string) => ok(admin.rest('POST', `/revision/${from}/branches`, { branchName: name }), 201),
    merge: (branch: string, body: Json, dryRun = false) => admin.rest('POST', `${p.B}/${branch}/merge${dryRun ? '?dryRun=true' : ''}`, body),
    rows: async (revision: string, table = 'authors') => {
      const page = await ok(admin.rest('GET', `${T(revision, table)}/rows?first=100`));
      return Object.fromEntries(page.edges.map((e: Json) => [e.node.id, e.node.data]));
    },
  };
}

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
});
after(() => system.close());

describe('merge (merge.md §2-§3)', () => {
  test('a clean merge brings one-sided changes, records the pending edge, commits it, then is UP_TO_DATE', async () => {
    const p = await freshProject();
    const c = ctx(p);
    await c.branch(p.c1, 'feature');
    const fDraft = await c.draft('feature');
    await ok(admin.rest('PUT', `${c.T(fDraft)}/row/alice`, { data: { ...alice, address: { city: 'Lille', zip: 59000 } } }));
    await ok(admin.rest('DELETE', `${c.T(fDraft)}/row/bob`));
    await ok(admin.rest('POST', `${c.T(fDraft)}/rows`, { rowId: 'dave', data: { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] } }), 201);
    const f1 = await c.commit('feature');
    const mDraft = await c.draft();
    await ok(admin.rest('PUT', `${c.T(mDraft)}/row/alice`, { data: { ...alice, tags: ['staff', 'lead'] } }));
    await ok(admin.rest('POST', `${c.T(mDraft)}/row/carol/rename`, { nextRowId: 'caroline' }));

    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.equal(preview.status, 'CLEAN');
    assert.equal(preview.baseRevisionId, p.c1);
    assert.equal(preview.targetRevisionId, mDraft);
    assert.deepEqual(preview.conflicts, []);
    assert.deepEqual(preview.tables, [
      { tableId: 'authors', previousTableId: null, change: 'MODIFIED', schemaChanged: false, rowChanges: { added: 1, updated: 1, removed: 1, renamed: 0, total: 3 } },
    ]);
    assert.deepEqual(await c.rows(mDraft), { alice: { ...alice, tags: ['staff', 'lead'] }, bob, caroline: carol }, 'a preview changes nothing');

    const merged = await ok(c.merge('master', { sourceRevisionId: f1 }));
    assert.equal(merged.status, 'CLEAN');
    assert.equal(merged.branch.draftRevisionId, mDraft);
    assert.equal(merged.totalRowChanges, 3);
    assert.deepEqual(await c.rows(mDraft), {
      alice: { ...alice, address: { city: 'Lille', zip: 59000 }, tags: ['staff', 'lead'] },
      caroline: carol,
      dave: { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] },
    });
    const draftRevision = await ok(admin.rest('GET', `/revision/${mDraft}`));
    assert.deepEqual([draftRevision.pendingMergeRevisionIds, draftRevision.mergedRevisionIds], [[f1], []]);
    assert.equal((await ok(c.merge('master', { sourceRevisionId: f1 }, true))).status, 'UP_TO_DATE', 'pending merges count as ancestors');

    const m2 = await c.commit('master');
    const committed = gqlData(await admin.gql(`query($id: ID!) { revision(data: {revisionId: $id}) { mergedRevisionIds pendingMergeRevisionIds } }`, { id: m2 }));
    assert.deepEqual(committed.revision, { mergedRevisionIds: [f1], pendingMergeRevisionIds: [] });
    const again = await ok(c.merge('master', { sourceRevisionId: f1 }));
    assert.deepEqual([again.status, again.baseRevisionId, again.totalRowChanges], ['UP_TO_DATE', f1, 0]);
    // The reverse direction now has master's changes since the merge base f1 only.
    const back = await ok(c.merge('feature', { sourceRevisionId: m2 }, true));
    assert.deepEqual([back.status, back.baseRevisionId], ['CLEAN', f1]);
  });
});
