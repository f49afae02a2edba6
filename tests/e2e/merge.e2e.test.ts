import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as McpSdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, bob, branchIds, carol, createUser, organizationWithProject, postsSchema } from './support/systemFixtures.ts';

// Merge and restore (merge.md) through system REST and GraphQL: the §2.1-§2.2 rules, conflicts and their
// resolutions, strategies, UP_TO_DATE, the revision graph (pending and committed merge edges, criss-cross bases),
// restore, permissions.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
let system: System;
let admin: Client;
let adminToken = '';
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
  await ok(
    admin.rest('POST', `/revision/${draft}/table/authors/rows/bulk`, {
      rows: [
        { rowId: 'alice', data: alice },
        { rowId: 'bob', data: bob },
        { rowId: 'carol', data: carol },
      ],
    }),
    201,
  );
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
  adminToken = await system.login('admin', ADMIN_PASSWORD);
  admin = system.as(adminToken);
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
      {
        tableId: 'authors',
        previousTableId: null,
        change: 'MODIFIED',
        schemaChanged: false,
        rowChanges: { added: 1, updated: 1, removed: 1, renamed: 0, total: 3 },
      },
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
    const committed = gqlData(
      await admin.gql(`query($id: ID!) { revision(data: {revisionId: $id}) { mergedRevisionIds pendingMergeRevisionIds } }`, { id: m2 }),
    );
    assert.deepEqual(committed.revision, { mergedRevisionIds: [f1], pendingMergeRevisionIds: [] });
    const again = await ok(c.merge('master', { sourceRevisionId: f1 }));
    assert.deepEqual([again.status, again.baseRevisionId, again.totalRowChanges], ['UP_TO_DATE', f1, 0]);
    // The reverse direction now has master's changes since the merge base f1 only.
    const back = await ok(c.merge('feature', { sourceRevisionId: m2 }, true));
    assert.deepEqual([back.status, back.baseRevisionId], ['CLEAN', f1]);
  });
});

const dave = { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] };
const ROW_CONFLICT_KINDS = ['ROW_ID_TAKEN', 'ROW_REMOVED_CHANGED', 'ROW_RENAME', 'ROW_UPDATE'];

/** A project where master and feature (branched at c1) made conflicting and clean changes; returns feature's head. */
async function conflictingSides(c: ReturnType<typeof ctx>, p: { c1: string }): Promise<string> {
  await c.branch(p.c1, 'feature');
  const f = await c.draft('feature');
  // alice: a leaf on both sides, an array on both sides (one conflict each); bob: removed there, changed here;
  // carol: renamed differently; dave added there as "erin", which is carol's new id here.
  await ok(admin.rest('PUT', `${c.T(f)}/row/alice`, { data: { ...alice, address: { city: 'Lille', zip: 75001 }, tags: ['a', 'b'] } }));
  await ok(admin.rest('DELETE', `${c.T(f)}/row/bob`));
  await ok(admin.rest('POST', `${c.T(f)}/row/carol/rename`, { nextRowId: 'caroline' }));
  await ok(admin.rest('POST', `${c.T(f)}/rows`, { rowId: 'erin', data: dave }), 201);
  const f1 = await c.commit('feature');
  const m = await c.draft();
  await ok(admin.rest('PUT', `${c.T(m)}/row/alice`, { data: { ...alice, address: { city: 'Lyon', zip: 75001 }, tags: ['c'] } }));
  await ok(admin.rest('PUT', `${c.T(m)}/row/bob`, { data: { ...bob, name: 'Robert' } }));
  await ok(admin.rest('POST', `${c.T(m)}/row/carol/rename`, { nextRowId: 'erin' }));
  return f1;
}

describe('conflicts, resolutions and strategies (merge.md §2.2, §2.4)', () => {
  test('every row conflict kind is listed in order; FAIL refuses with 409 MERGE_CONFLICT and changes nothing', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const f1 = await conflictingSides(c, p);
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.equal(preview.status, 'CONFLICTS');
    const summary = preview.conflicts.map((k: Json) => [k.kind, k.rowId, k.path]);
    assert.deepEqual(summary, [
      ['ROW_UPDATE', 'alice', '/address/city'],
      ['ROW_UPDATE', 'alice', '/tags'],
      ['ROW_REMOVED_CHANGED', 'bob', null],
      ['ROW_ID_TAKEN', 'erin', null],
      ['ROW_RENAME', 'erin', null],
    ]);
    assert.equal(preview.conflictCount, 5);
    assert.deepEqual([...new Set(preview.conflicts.map((k: Json) => k.kind))].sort(), ROW_CONFLICT_KINDS);
    const city = preview.conflicts[0];
    assert.deepEqual([city.base, city.ours, city.theirs], ['Paris', 'Lyon', 'Lille']);
    assert.deepEqual([preview.conflicts[1].ours, preview.conflicts[1].theirs], [['c'], ['a', 'b']], 'arrays are single values');
    const rename = preview.conflicts.find((k: Json) => k.kind === 'ROW_RENAME');
    assert.deepEqual([rename.base, rename.ours, rename.theirs], ['carol', 'erin', 'caroline']);
    // Ids are stable: the same preview again names the same conflicts.
    const again = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(
      again.conflicts.map((k: Json) => k.id),
      preview.conflicts.map((k: Json) => k.id),
    );

    const before = await c.rows(await c.draft());
    const refused = await c.merge('master', { sourceRevisionId: f1 });
    assertRestError(refused, 409, 'MERGE_CONFLICT');
    assert.equal(refused.body.details.length, 5);
    assert.equal(refused.body.details[0].path, city.id);
    assert.match(refused.body.details[0].message, /ROW_UPDATE in table "authors" row "alice" at "\/address\/city"/);
    assert.deepEqual(await c.rows(await c.draft()), before);
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${await c.draft()}`))).pendingMergeRevisionIds, []);
  });

  test('strategy THEIRS and OURS settle every conflict from one side', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const f1 = await conflictingSides(c, p);
    const theirs = await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }, true));
    assert.deepEqual([theirs.status, theirs.conflictCount], ['CLEAN', 0]);
    await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }));
    const rows = await c.rows(await c.draft());
    assert.deepEqual(rows.alice, { ...alice, address: { city: 'Lille', zip: 75001 }, tags: ['a', 'b'] });
    assert.equal(rows.bob, undefined, 'the removing side wins');
    assert.deepEqual(rows.caroline, carol, 'theirs rename');
    assert.deepEqual(rows.erin, dave, 'their row takes the id');

    const q = await freshProject();
    const d = ctx(q);
    const g1 = await conflictingSides(d, q);
    await ok(d.merge('master', { sourceRevisionId: g1, strategy: 'OURS' }));
    const kept = await d.rows(await d.draft());
    assert.deepEqual(kept.alice, { ...alice, address: { city: 'Lyon', zip: 75001 }, tags: ['c'] });
    assert.deepEqual(kept.bob, { ...bob, name: 'Robert' });
    assert.deepEqual(kept.erin, carol);
    assert.equal(kept.caroline, undefined);
  });

  test('preview, resolve, preview again, apply (GraphQL): OURS, THEIRS, VALUE and REMOVE takes', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const f1 = await conflictingSides(c, p);
    const input = { organizationId: 'acme', projectName: p.name, branchName: 'master', sourceRevisionId: f1 };
    const previewQuery = `query($d: MergeInput!) { previewMerge(data: $d) { status conflictCount conflicts { id kind rowId path base ours theirs } } }`;
    const first = gqlData(await admin.gql(previewQuery, { d: input })).previewMerge;
    const byKey = (kind: string, path: string | null = null) => first.conflicts.find((k: Json) => k.kind === kind && k.path === path).id;
    const resolutions = [
      { conflictId: byKey('ROW_UPDATE', '/address/city'), take: 'VALUE', value: 'Nantes' },
      { conflictId: byKey('ROW_UPDATE', '/tags'), take: 'THEIRS' },
      { conflictId: byKey('ROW_REMOVED_CHANGED'), take: 'REMOVE' },
    ];
    const partial = gqlData(await admin.gql(previewQuery, { d: { ...input, resolutions } })).previewMerge;
    assert.deepEqual([partial.status, partial.conflictCount], ['CONFLICTS', 2]);
    const all = [
      ...resolutions,
      { conflictId: byKey('ROW_RENAME'), take: 'OURS' },
      { conflictId: byKey('ROW_ID_TAKEN'), take: 'VALUE', value: { ...dave, name: 'Erin' } },
    ];
    const clean = gqlData(await admin.gql(previewQuery, { d: { ...input, resolutions: all } })).previewMerge;
    assert.deepEqual([clean.status, clean.conflictCount], ['CLEAN', 0]);
    const applied = gqlData(
      await admin.gql(
        `mutation($d: MergeInput!) { mergeRevision(data: $d) { status baseRevisionId totalRowChanges branch { name draft { pendingMergeRevisionIds } } } }`,
        { d: { ...input, resolutions: all } },
      ),
    ).mergeRevision;
    assert.deepEqual([applied.status, applied.baseRevisionId, applied.branch.draft.pendingMergeRevisionIds], ['CLEAN', p.c1, [f1]]);
    const rows = await c.rows(await c.draft());
    assert.deepEqual(rows.alice, { ...alice, address: { city: 'Nantes', zip: 75001 }, tags: ['a', 'b'] });
    assert.equal(rows.bob, undefined);
    assert.deepEqual(rows.erin, { ...dave, name: 'Erin' }, 'VALUE writes the row data under our id');

    const unknown = await admin.gql(previewQuery, { d: { ...input, resolutions: [{ conflictId: 'mc_nope', take: 'OURS' }] } });
    assertGqlError(unknown, 'BAD_USER_INPUT', 400);
    const q = await freshProject();
    const d = ctx(q);
    const g1 = await conflictingSides(d, q);
    const listed = await ok(d.merge('master', { sourceRevisionId: g1 }, true));
    const leaf = listed.conflicts.find((k: Json) => k.kind === 'ROW_UPDATE').id;
    assertRestError(
      await d.merge('master', { sourceRevisionId: g1, resolutions: [{ conflictId: leaf, take: 'REMOVE' }] }, true),
      400,
      'BAD_USER_INPUT',
    );
  });
});

describe('tables (merge.md §2.1) and the result checks (§2.3)', () => {
  test('tables added, removed, renamed and a schema change taken from one side with both sides rows merged', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const m0 = await c.draft();
    await ok(
      admin.rest('POST', `/revision/${m0}/tables`, {
        tableId: 'tags',
        schema: { type: 'object', additionalProperties: false, required: ['label'], properties: { label: { type: 'string', default: '' } } },
      }),
      201,
    );
    await ok(
      admin.rest('POST', `/revision/${m0}/tables`, {
        tableId: 'old',
        schema: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'number', default: 0 } } },
      }),
      201,
    );
    const c2 = await c.commit('master');
    await c.branch(c2, 'feature');
    const f = await c.draft('feature');
    await ok(admin.rest('POST', `/revision/${f}/tables`, { tableId: 'posts', schema: postsSchema }), 201);
    await ok(
      admin.rest('POST', `${c.T(f, 'posts')}/rows`, { rowId: 'p1', data: { title: 'Hi', views: 1, author: 'alice', lines: [], self: '' } }),
      201,
    );
    await ok(admin.rest('DELETE', c.T(f, 'old')));
    await ok(admin.rest('POST', `${c.T(f, 'tags')}/rename`, { nextTableId: 'labels' }));
    await ok(admin.rest('PATCH', c.T(f, 'authors'), { patches: [{ op: 'add', path: '/properties/rank', value: { type: 'number', default: 7 } }] }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await ok(admin.rest('POST', `${c.T(m, 'tags')}/rows`, { rowId: 't1', data: { label: 'news' } }), 201);
    await ok(admin.rest('PUT', `${c.T(m)}/row/bob`, { data: { ...bob, name: 'Robert' } }));
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.equal(preview.status, 'CLEAN', JSON.stringify(preview.conflicts, null, 1));
    const changes = Object.fromEntries(preview.tables.map((t: Json) => [t.tableId, [t.change, t.previousTableId, t.schemaChanged]]));
    assert.deepEqual(changes, {
      authors: ['MODIFIED', null, true],
      labels: ['RENAMED', 'tags', false],
      old: ['REMOVED', null, false],
      posts: ['ADDED', null, false],
    });
    await ok(c.merge('master', { sourceRevisionId: f1 }));
    const tables = (await ok(admin.rest('GET', `/revision/${m}/tables?first=100`))).edges.map((e: Json) => e.node.id).sort();
    assert.deepEqual(tables, ['authors', 'labels', 'posts']);
    assert.deepEqual(await c.rows(m, 'labels'), { t1: { label: 'news' } }, 'our rows stay in the renamed table');
    const authors = await c.rows(m);
    assert.deepEqual(authors.bob, { ...bob, name: 'Robert', rank: 7 }, 'our change, migrated to their schema');
    assert.deepEqual(authors.alice, { ...alice, rank: 7 });
    assert.equal((await c.rows(m, 'posts')).p1.title, 'Hi');
  });

  test('table conflicts: TABLE_RENAME, TABLE_REMOVED_CHANGED, TABLE_SCHEMA, TABLE_ID_TAKEN, each with OURS or THEIRS', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const m0 = await c.draft();
    const simple = (field: string) => ({
      type: 'object',
      additionalProperties: false,
      required: [field],
      properties: { [field]: { type: 'string', default: '' } },
    });
    for (const id of ['t1', 't2', 't3', 't4']) await ok(admin.rest('POST', `/revision/${m0}/tables`, { tableId: id, schema: simple('v') }), 201);
    const c2 = await c.commit('master');
    await c.branch(c2, 'feature');
    const f = await c.draft('feature');
    await ok(admin.rest('POST', `${c.T(f, 't1')}/rename`, { nextTableId: 'a1' }));
    await ok(admin.rest('DELETE', c.T(f, 't2')));
    await ok(admin.rest('PATCH', c.T(f, 't3'), { patches: [{ op: 'add', path: '/properties/w', value: { type: 'string', default: 'theirs' } }] }));
    await ok(admin.rest('POST', `${c.T(f, 't4')}/rename`, { nextTableId: 'x4' }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await ok(admin.rest('POST', `${c.T(m, 't1')}/rename`, { nextTableId: 'b1' }));
    await ok(admin.rest('POST', `${c.T(m, 't2')}/rows`, { rowId: 'r', data: { v: 'ours' } }), 201);
    await ok(admin.rest('PATCH', c.T(m, 't3'), { patches: [{ op: 'add', path: '/properties/w', value: { type: 'number', default: 1 } }] }));
    await ok(admin.rest('POST', `/revision/${m}/tables`, { tableId: 'x4', schema: simple('z') }), 201);
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    const kinds = preview.conflicts.map((k: Json) => [k.kind, k.tableId]);
    assert.deepEqual(kinds, [
      ['TABLE_RENAME', 'b1'],
      ['TABLE_REMOVED_CHANGED', 't2'],
      ['TABLE_SCHEMA', 't3'],
      ['TABLE_ID_TAKEN', 't4'],
    ]);
    const id = (kind: string) => preview.conflicts.find((k: Json) => k.kind === kind).id;
    await ok(
      c.merge('master', {
        sourceRevisionId: f1,
        resolutions: [
          { conflictId: id('TABLE_RENAME'), take: 'THEIRS' },
          { conflictId: id('TABLE_REMOVED_CHANGED'), take: 'OURS' },
          { conflictId: id('TABLE_SCHEMA'), take: 'THEIRS' },
          { conflictId: id('TABLE_ID_TAKEN'), take: 'OURS' },
        ],
      }),
    );
    const tables = (await ok(admin.rest('GET', `/revision/${m}/tables?first=100&includeSchema=true`))).edges.map((e: Json) => e.node);
    assert.deepEqual(tables.map((t: Json) => t.id).sort(), ['a1', 'authors', 't2', 't3', 't4', 'x4']);
    assert.equal(tables.find((t: Json) => t.id === 't3').schema.properties.w.type, 'string');
  });

  test('a row of ours referencing a row the merge removes is a FOREIGN_KEY conflict; REMOVE resolves it', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const m0 = await c.draft();
    await ok(admin.rest('POST', `/revision/${m0}/tables`, { tableId: 'posts', schema: postsSchema }), 201);
    const c2 = await c.commit('master');
    await c.branch(c2, 'feature');
    await ok(admin.rest('DELETE', `${c.T(await c.draft('feature'))}/row/bob`));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await ok(
      admin.rest('POST', `${c.T(m, 'posts')}/rows`, { rowId: 'p1', data: { title: 'By Bob', views: 0, author: 'bob', lines: [], self: '' } }),
      201,
    );
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId]),
      [['FOREIGN_KEY', 'posts', 'p1']],
    );
    assertRestError(await c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }), 409, 'MERGE_CONFLICT');
    await ok(c.merge('master', { sourceRevisionId: f1, resolutions: [{ conflictId: preview.conflicts[0].id, take: 'REMOVE' }] }));
    const rows = await c.rows(m);
    assert.equal(rows.bob, undefined);
    assert.deepEqual(await c.rows(m, 'posts'), {});
  });
});

describe('the revision graph (merge.md §1, §5)', () => {
  test('criss-cross merges: the base is the best common ancestor committed last; a revert clears pending merges', async () => {
    const p = await freshProject();
    const c = ctx(p);
    await c.branch(p.c1, 'feature');
    await ok(admin.rest('PUT', `${c.T(await c.draft())}/row/alice`, { data: { ...alice, name: 'A1' } }));
    const m1 = await c.commit('master');
    await ok(admin.rest('PUT', `${c.T(await c.draft('feature'))}/row/bob`, { data: { ...bob, name: 'B1' } }));
    const f1 = await c.commit('feature');
    // Each side merges the other's commit: m2 has parents m1 + f1, f2 has parents f1 + m1.
    await ok(c.merge('master', { sourceRevisionId: f1 }));
    const m2 = await c.commit('master');
    await ok(c.merge('feature', { sourceRevisionId: m1 }));
    const f2 = await c.commit('feature');
    const both = await ok(c.merge('master', { sourceRevisionId: f2 }, true));
    // f1 and m1 are both best common ancestors of f2 and the master draft; m1... f1 was committed after m1.
    assert.equal(both.baseRevisionId, f1);
    assert.notEqual(both.status, 'UP_TO_DATE');
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${m2}`))).mergedRevisionIds, [f1]);
    await ok(c.merge('master', { sourceRevisionId: f2 }));
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${await c.draft()}`))).pendingMergeRevisionIds, [f2]);
    await ok(admin.rest('DELETE', `${c.T(await c.draft())}/row/carol`));
    await ok(admin.rest('POST', `${p.B}/master/revert`));
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${await c.draft()}`))).pendingMergeRevisionIds, [], 'a revert clears them');

    // A rebuild of every projection gives the same graph and the same answers.
    const answer = await ok(c.merge('master', { sourceRevisionId: f2 }, true));
    await system.rebuildAll();
    assert.deepEqual(await ok(c.merge('master', { sourceRevisionId: f2 }, true)), answer);
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${m2}`))).mergedRevisionIds, [f1]);
  });

  test('errors: unknown source 404, a draft, the same branch or another project 400', async () => {
    const p = await freshProject();
    const c = ctx(p);
    assertRestError(await c.merge('master', { sourceRevisionId: 'nope' }), 404, 'REVISION_NOT_FOUND');
    await c.branch(p.c1, 'feature');
    assertRestError(await c.merge('master', { sourceRevisionId: await c.draft('feature') }), 400, 'BAD_USER_INPUT');
    assertRestError(await c.merge('master', { sourceRevisionId: p.c1 }), 400, 'BAD_USER_INPUT');
    const other = await freshProject();
    assertRestError(await c.merge('master', { sourceRevisionId: other.c1 }), 400, 'BAD_USER_INPUT');
  });
});

describe('restore (merge.md §4)', () => {
  test('restores an older revision and another branch revision as draft changes; equal content is NO_CHANGES', async () => {
    const p = await freshProject();
    const c = ctx(p);
    await ok(admin.rest('DELETE', `${c.T(await c.draft())}/row/bob`));
    await ok(admin.rest('PUT', `${c.T(await c.draft())}/row/alice`, { data: { ...alice, name: 'A2' } }));
    await c.commit('master');
    const draft = await c.draft();
    const restored = await ok(admin.rest('POST', `${p.B}/master/restore`, { revisionId: p.c1 }));
    assert.equal(restored.draftRevisionId, draft);
    assert.equal(restored.touched, true);
    assert.deepEqual(await c.rows(draft), { alice, bob, carol });
    assertRestError(await admin.rest('POST', `${p.B}/master/restore`, { revisionId: p.c1 }), 400, 'NO_CHANGES');
    const changes = await ok(admin.rest('GET', `/revision/${draft}/changes`));
    assert.equal(changes.totalRowChanges, 2, 'restore is ordinary draft changes to review');

    await c.branch(p.c1, 'feature');
    await ok(admin.rest('POST', `${c.T(await c.draft('feature'))}/rows`, { rowId: 'dave', data: dave }), 201);
    const f1 = await c.commit('feature');
    const gql = gqlData(
      await admin.gql(`mutation($d: RestoreRevisionInput!) { restoreRevision(data: $d) { name draftRevisionId } }`, {
        d: { organizationId: 'acme', projectName: p.name, branchName: 'master', revisionId: f1 },
      }),
    );
    assert.equal(gql.restoreRevision.draftRevisionId, draft);
    assert.deepEqual(await c.rows(draft), { alice, bob, carol, dave });
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${draft}`))).pendingMergeRevisionIds, [], 'a restore records no merge edge');
  });
});

describe('concurrency, scopes and MCP', () => {
  test('a merge racing with draft writes is ordered with them, never interleaved: every write and the merge land', async () => {
    const p = await freshProject();
    const c = ctx(p);
    await c.branch(p.c1, 'feature');
    const f = await c.draft('feature');
    await ok(
      admin.rest('POST', `${c.T(f)}/rows/bulk`, {
        rows: Array.from({ length: 50 }, (_, i) => ({ rowId: `f${i}`, data: { ...dave, name: `F${i}` } })),
      }),
      201,
    );
    const f1 = await c.commit('feature');
    const m = await c.draft();
    const writes = Array.from({ length: 10 }, (_, i) => admin.rest('POST', `${c.T(m)}/rows`, { rowId: `w${i}`, data: { ...dave, name: `W${i}` } }));
    const [merged, ...written] = await Promise.all([c.merge('master', { sourceRevisionId: f1 }), ...writes]);
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    for (const reply of written) assert.equal(reply.status, 201);
    const rows = await c.rows(m);
    assert.equal(Object.keys(rows).length, 3 + 50 + 10);
  });

  test('a key scoped to one table is refused when the merge reads another (403 API_KEY_SCOPE)', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const m0 = await c.draft();
    await ok(
      admin.rest('POST', `/revision/${m0}/tables`, {
        tableId: 'secret',
        schema: { type: 'object', additionalProperties: false, required: ['v'], properties: { v: { type: 'string', default: '' } } },
      }),
      201,
    );
    const c2 = await c.commit('master');
    await c.branch(c2, 'feature');
    await ok(admin.rest('POST', `${c.T(await c.draft('feature'), 'secret')}/rows`, { rowId: 's', data: { v: 'x' } }), 201);
    const f1 = await c.commit('feature');
    const key = await ok(admin.rest('POST', '/api-keys/personal', { name: 'authors only', organizationId: 'acme', tableIds: ['authors'] }), 201);
    const scoped = system.as(key.secret);
    assertRestError(await scoped.rest('POST', `${p.B}/master/merge?dryRun=true`, { sourceRevisionId: f1 }), 403, 'API_KEY_SCOPE');
    assert.equal((await ok(c.merge('master', { sourceRevisionId: f1 }, true))).status, 'CLEAN');
  });

  test('a project reader may not merge or restore (403 FORBIDDEN) and nothing changes; an editor may', async () => {
    const p = await freshProject();
    const c = ctx(p);
    await c.branch(p.c1, 'feature');
    await ok(admin.rest('POST', `${c.T(await c.draft('feature'))}/rows`, { rowId: 'dave', data: dave }), 201);
    const f1 = await c.commit('feature');
    const users = {
      reader: await createUser(admin, `reader${project}`, 'reader-password-1234'),
      editor: await createUser(admin, `editor${project}`, 'editor-password-1234'),
    };
    for (const [role, userId] of Object.entries(users)) await ok(admin.rest('POST', `/organization/acme/project/${p.name}/users`, { userId, role }));
    const reader = system.as(await system.login(`reader${project}`, 'reader-password-1234'));
    assertRestError(await reader.rest('POST', `${p.B}/master/merge`, { sourceRevisionId: f1 }), 403, 'FORBIDDEN');
    assertRestError(await reader.rest('POST', `${p.B}/master/restore`, { revisionId: f1 }), 403, 'FORBIDDEN');
    assert.deepEqual(await c.rows(await c.draft()), { alice, bob, carol });
    const editor = system.as(await system.login(`editor${project}`, 'editor-password-1234'));
    assert.equal((await ok(editor.rest('POST', `${p.B}/master/merge`, { sourceRevisionId: f1 }))).status, 'CLEAN');
    assert.deepEqual((await c.rows(await c.draft())).dave, dave);
  });

  test('MCP preview_merge, merge_revision and restore_revision (SDK client) answer as REST', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const f1 = await conflictingSides(c, p);
    const client = new McpSdkClient({ name: 'merge-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${system.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${adminToken}` } } }),
    );
    try {
      const call = async (name: string, args: Json) => {
        const result = (await client.callTool({
          name,
          arguments: { organizationId: 'acme', projectName: p.name, branchName: 'master', ...args },
        })) as Json;
        return { isError: result.isError === true, body: result.structuredContent ?? JSON.parse(result.content?.[0]?.text ?? 'null') };
      };
      const preview = await call('preview_merge', { sourceRevisionId: f1 });
      assert.deepEqual(preview.body, await ok(c.merge('master', { sourceRevisionId: f1 }, true)));
      const refused = await call('merge_revision', { sourceRevisionId: f1 });
      assert.equal(refused.isError, true);
      assert.equal(refused.body.code, 'MERGE_CONFLICT');
      const merged = await call('merge_revision', { sourceRevisionId: f1, strategy: 'THEIRS' });
      assert.equal(merged.body.status, 'CLEAN');
      assert.equal((await c.rows(await c.draft())).caroline !== undefined, true);
      const restored = await call('restore_revision', { revisionId: p.c1 });
      assert.equal(restored.isError, false, JSON.stringify(restored.body));
      assert.deepEqual(await c.rows(await c.draft()), { alice, bob, carol });
    } finally {
      await client.close();
    }
  });
});

describe('THEIRS on taken ids keeps every row (issue 26 item 5, versioned-storage.md §3)', () => {
  test('a row ours renamed onto the id theirs gives another row goes back to its id on theirs; a swap of renames is taken', async () => {
    const p = await freshProject();
    const c = ctx(p);
    await c.branch(p.c1, 'feature');
    const f = await c.draft('feature');
    // Theirs: bob takes the id "ann" and alice keeps hers (its city changed); carol and alice swap ids below.
    await ok(admin.rest('POST', `${c.T(f)}/row/bob/rename`, { nextRowId: 'ann' }));
    await ok(admin.rest('PUT', `${c.T(f)}/row/alice`, { data: { ...alice, address: { city: 'Lille', zip: 75001 } } }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    // Ours: alice renamed to "ann" and her name changed.
    await ok(admin.rest('POST', `${c.T(m)}/row/alice/rename`, { nextRowId: 'ann' }));
    await ok(admin.rest('PUT', `${c.T(m)}/row/ann`, { data: { ...alice, name: 'Ann' } }));

    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.rowId]),
      [['ROW_ID_TAKEN', 'bob']],
    );
    const merged = await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }));
    assert.equal(merged.status, 'CLEAN');
    assert.deepEqual(
      await c.rows(m),
      {
        alice: { ...alice, name: 'Ann', address: { city: 'Lille', zip: 75001 } },
        ann: bob,
        carol,
      },
      'theirs row takes the id, the holder is back under its id on theirs with both sides changes',
    );

    const q = await freshProject();
    const d = ctx(q);
    await d.branch(q.c1, 'feature');
    const g = await d.draft('feature');
    await ok(admin.rest('POST', `${d.T(g)}/row/alice/rename`, { nextRowId: 'b1' }));
    await ok(admin.rest('POST', `${d.T(g)}/row/bob/rename`, { nextRowId: 'a1' }));
    const g1 = await d.commit('feature');
    const n = await d.draft();
    await ok(admin.rest('POST', `${d.T(n)}/row/alice/rename`, { nextRowId: 'a1' }));
    await ok(admin.rest('POST', `${d.T(n)}/row/bob/rename`, { nextRowId: 'b1' }));
    await ok(d.merge('master', { sourceRevisionId: g1, strategy: 'THEIRS' }));
    assert.deepEqual(await d.rows(n), { a1: bob, b1: alice, carol }, 'the swap goes through a spare id that is gone after');
  });

  test('tables theirs swapped (a cycle of renames) are swapped on ours through a spare id, rows and references following', async () => {
    const p = await freshProject();
    const c = ctx(p);
    const m0 = await c.draft();
    const labels = { type: 'object', additionalProperties: false, required: ['label'], properties: { label: { type: 'string', default: '' } } };
    await ok(admin.rest('POST', `/revision/${m0}/tables`, { tableId: 'tags', schema: labels }), 201);
    await ok(admin.rest('POST', `${c.T(m0, 'tags')}/rows`, { rowId: 't1', data: { label: 'news' } }), 201);
    const c2 = await c.commit('master');
    await c.branch(c2, 'feature');
    const f = await c.draft('feature');
    // Theirs swaps the two tables' ids through a temporary one.
    await ok(admin.rest('POST', `${c.T(f, 'authors')}/rename`, { nextTableId: 'tmp' }));
    await ok(admin.rest('POST', `${c.T(f, 'tags')}/rename`, { nextTableId: 'authors' }));
    await ok(admin.rest('POST', `${c.T(f, 'tmp')}/rename`, { nextTableId: 'tags' }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await ok(admin.rest('PUT', `${c.T(m)}/row/bob`, { data: { ...bob, name: 'Robert' } }));

    for (const strategy of ['FAIL', 'THEIRS'] as const) {
      const preview = await ok(c.merge('master', { sourceRevisionId: f1, strategy }, true));
      assert.equal(preview.status, 'CLEAN', JSON.stringify(preview.conflicts, null, 1));
      const changes = Object.fromEntries(preview.tables.map((t: Json) => [t.tableId, [t.change, t.previousTableId]]));
      assert.deepEqual(changes, { authors: ['RENAMED', 'tags'], tags: ['RENAMED', 'authors'] });
    }
    await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }));
    const tables = (await ok(admin.rest('GET', `/revision/${m}/tables?first=100`))).edges.map((e: Json) => e.node.id).sort();
    assert.deepEqual(tables, ['authors', 'tags'], 'the spare id is gone after');
    assert.deepEqual(await c.rows(m, 'authors'), { t1: { label: 'news' } });
    assert.deepEqual(await c.rows(m, 'tags'), { alice, bob: { ...bob, name: 'Robert' }, carol }, 'our change follows its table');
  });
});
