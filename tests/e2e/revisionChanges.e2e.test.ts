import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, bob, branchIds, carol, organizationWithProject } from './support/systemFixtures.ts';

// Revision changes and row history (changes.md §1-§2) through system REST and GraphQL: added, updated, removed and
// renamed rows and tables, a row changed and changed back, field-level changes of nested objects and arrays,
// paging, cross-branch compares, history across a branch creation and renames, errors.
let system: System;
let admin: Client;
let adminId = '';
const B = '/organization/acme/project/blog/branch';
const T = (revision: string, table: string) => `/revision/${revision}/table/${table}`;
const revs = { start: '', c1: '', c2: '', c3: '', featureDraft: '', otherProject: '' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
async function ok(reply: Promise<{ status: number; body: any }>, status = 200): Promise<any> {
  const r = await reply;
  assert.equal(r.status, status, JSON.stringify(r.body));
  return r.body;
}

async function commit(branch: string, comment: string): Promise<string> {
  return (await ok(admin.rest('POST', `${B}/${branch}/revisions`, { comment }), 201)).id;
}

const draftOf = async (branch = 'master') => (await branchIds(admin, 'acme', 'blog', branch)).draftRevisionId;
const rowIdsOf = (page: { edges: { node: { rowId: string; change: string } }[] }) => page.edges.map((e) => `${e.node.change}:${e.node.rowId}`);

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  adminId = (await ok(admin.rest('GET', '/me'))).id;
  const master = await organizationWithProject(admin, 'acme', 'blog');
  revs.start = master.startRevisionId;
  revs.otherProject = (await organizationWithProject(admin, 'beta', 'other')).draftRevisionId;
  const draft = master.draftRevisionId;
  await ok(admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema }), 201);
  const dave = { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] };
  await ok(
    admin.rest('POST', `${T(draft, 'authors')}/rows/bulk`, {
      rows: [
        { rowId: 'alice', data: alice },
        { rowId: 'bob', data: bob },
        { rowId: 'carol', data: carol },
        { rowId: 'dave', data: dave },
      ],
    }),
    201,
  );
  revs.c1 = await commit('master', 'c1');
});
after(() => system.close());

describe('revision changes (changes.md §1)', () => {
  test('a draft against HEAD: added, updated, removed, renamed rows; a row changed back is not listed', async () => {
    const draft = await draftOf();
    await ok(
      admin.rest('PUT', `${T(draft, 'authors')}/row/alice`, { data: { ...alice, address: { city: 'Lille', zip: 75001 }, tags: ['staff', 'new'] } }),
    );
    await ok(admin.rest('DELETE', `${T(draft, 'authors')}/row/bob`));
    await ok(admin.rest('POST', `${T(draft, 'authors')}/row/carol/rename`, { nextRowId: 'caroline' }));
    await ok(
      admin.rest('POST', `${T(draft, 'authors')}/rows`, { rowId: 'erin', data: { name: 'Erin', address: { city: 'Rome', zip: 2 }, tags: [] } }),
      201,
    );
    await ok(admin.rest('PATCH', `${T(draft, 'authors')}/row/dave`, { patches: [{ op: 'replace', path: '/name', value: 'D.' }] }));
    await ok(admin.rest('PATCH', `${T(draft, 'authors')}/row/dave`, { patches: [{ op: 'replace', path: '/name', value: 'Dave' }] }));

    const changes = await ok(admin.rest('GET', `/revision/${draft}/changes`));
    const head = (await branchIds(admin, 'acme', 'blog')).headRevisionId;
    assert.deepEqual(changes, {
      revisionId: draft,
      compareWith: head,
      tables: [
        {
          tableId: 'authors',
          previousTableId: null,
          change: 'MODIFIED',
          schemaChanged: false,
          rowChanges: { added: 1, updated: 1, removed: 1, renamed: 1, total: 4 },
        },
      ],
      totalRowChanges: 4,
    });
    const rows = await ok(admin.rest('GET', `${T(draft, 'authors')}/changes`));
    assert.deepEqual(rowIdsOf(rows), ['UPDATED:alice', 'REMOVED:bob', 'RENAMED:caroline', 'ADDED:erin']);
    assert.equal(rows.totalCount, 4);
    const [updated, removed, renamed, added] = rows.edges.map((e: { node: unknown }) => e.node);
    assert.deepEqual(updated.fieldChanges, [
      { path: '/address/city', before: 'Paris', after: 'Lille' },
      { path: '/tags/1', before: null, after: 'new' },
    ]);
    assert.deepEqual([updated.before, updated.previousRowId], [alice, null]);
    assert.deepEqual([removed.before, removed.after, removed.fieldChanges], [bob, null, []]);
    assert.deepEqual([renamed.previousRowId, renamed.before, renamed.after, renamed.fieldChanges], ['carol', carol, carol, []]);
    assert.deepEqual([added.before, added.after.name], [null, 'Erin']);

    const gql = gqlData(
      await admin.gql(
        `query($r: ID!) { revisionChanges(data: {revisionId: $r}) { compareWith totalRowChanges tables { tableId change rowChanges { renamed total } } }
        rowChanges(data: {revisionId: $r, tableId: "authors", changes: [RENAMED, UPDATED]}) { totalCount edges { node { rowId previousRowId change fieldChanges { path before after } } } } }`,
        { r: draft },
      ),
    );
    assert.deepEqual(gql.revisionChanges, {
      compareWith: head,
      totalRowChanges: 4,
      tables: [{ tableId: 'authors', change: 'MODIFIED', rowChanges: { renamed: 1, total: 4 } }],
    });
    assert.deepEqual(
      gql.rowChanges.edges.map((e: { node: { rowId: string } }) => e.node.rowId),
      ['alice', 'caroline'],
    );
    assert.equal(gql.rowChanges.edges[1].node.previousRowId, 'carol');
  });

  test('row changes page by row id and filter by kind (REST comma list)', async () => {
    const draft = await draftOf();
    const first = await ok(admin.rest('GET', `${T(draft, 'authors')}/changes?first=2`));
    assert.deepEqual(rowIdsOf(first), ['UPDATED:alice', 'REMOVED:bob']);
    assert.equal(first.pageInfo.hasNextPage, true);
    const next = await ok(admin.rest('GET', `${T(draft, 'authors')}/changes?first=2&after=${first.pageInfo.endCursor}`));
    assert.deepEqual(rowIdsOf(next), ['RENAMED:caroline', 'ADDED:erin']);
    assert.equal(next.pageInfo.hasNextPage, false);
    const kinds = await ok(admin.rest('GET', `${T(draft, 'authors')}/changes?changes=ADDED,REMOVED`));
    assert.deepEqual(rowIdsOf(kinds), ['REMOVED:bob', 'ADDED:erin']);
    assertRestError(await admin.rest('GET', `${T(draft, 'authors')}/changes?changes=MOVED`), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('GET', `${T(draft, 'authors')}/changes?after=bogus`), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('GET', `${T(draft, 'nope')}/changes`), 404, 'TABLE_NOT_FOUND');
  });

  test('committed revisions against their parent or any revision; the first start revision has no base', async () => {
    revs.c2 = await commit('master', 'c2');
    const c2 = await ok(admin.rest('GET', `/revision/${revs.c2}/changes`));
    assert.equal(c2.compareWith, revs.c1);
    assert.equal(c2.totalRowChanges, 4);
    assert.deepEqual(await ok(admin.rest('GET', `/revision/${revs.c2}/changes?compareWith=${revs.c1}`)), c2);
    const c1 = await ok(admin.rest('GET', `/revision/${revs.c1}/changes`));
    assert.deepEqual(c1.tables, [
      {
        tableId: 'authors',
        previousTableId: null,
        change: 'ADDED',
        schemaChanged: false,
        rowChanges: { added: 4, updated: 0, removed: 0, renamed: 0, total: 4 },
      },
    ]);
    // Backwards: the older revision against the newer one.
    const back = await ok(admin.rest('GET', `${T(revs.c1, 'authors')}/changes?compareWith=${revs.c2}`));
    assert.deepEqual(rowIdsOf(back), ['UPDATED:alice', 'ADDED:bob', 'RENAMED:carol', 'REMOVED:erin']);
    assert.deepEqual(await ok(admin.rest('GET', `/revision/${revs.start}/changes`)), {
      revisionId: revs.start,
      compareWith: null,
      tables: [],
      totalRowChanges: 0,
    });
    const same = await ok(admin.rest('GET', `/revision/${revs.c2}/changes?compareWith=${revs.c2}`));
    assert.deepEqual([same.tables, same.totalRowChanges], [[], 0]);
  });

  test('tables renamed, added and removed; schema changes', async () => {
    let draft = await draftOf();
    await ok(admin.rest('POST', `${T(draft, 'authors')}/rename`, { nextTableId: 'people' }));
    await ok(
      admin.rest('POST', `/revision/${draft}/tables`, {
        tableId: 'tags',
        schema: { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'string', default: '' } } },
      }),
      201,
    );
    await ok(admin.rest('POST', `${T(draft, 'tags')}/rows`, { rowId: 't1', data: { n: 'x' } }), 201);
    const changes = await ok(admin.rest('GET', `/revision/${draft}/changes`));
    assert.deepEqual(changes.tables, [
      {
        tableId: 'people',
        previousTableId: 'authors',
        change: 'RENAMED',
        schemaChanged: false,
        rowChanges: { added: 0, updated: 0, removed: 0, renamed: 0, total: 0 },
      },
      {
        tableId: 'tags',
        previousTableId: null,
        change: 'ADDED',
        schemaChanged: false,
        rowChanges: { added: 1, updated: 0, removed: 0, renamed: 0, total: 1 },
      },
    ]);
    revs.c3 = await commit('master', 'c3');
    draft = await draftOf();
    await ok(admin.rest('DELETE', T(draft, 'tags')));
    await ok(admin.rest('PATCH', T(draft, 'people'), { patches: [{ op: 'add', path: '/properties/nick', value: { type: 'string', default: '' } }] }));
    const next = await ok(admin.rest('GET', `/revision/${draft}/changes`));
    assert.deepEqual(
      next.tables.map((t: { tableId: string; change: string; schemaChanged: boolean }) => [t.tableId, t.change, t.schemaChanged]),
      [
        ['people', 'MODIFIED', true],
        ['tags', 'REMOVED', false],
      ],
    );
    const removedRows = await ok(admin.rest('GET', `${T(draft, 'tags')}/changes`));
    assert.deepEqual(rowIdsOf(removedRows), ['REMOVED:t1']);
    await ok(admin.rest('POST', `${B}/master/revert`));
  });

  test('cross-branch compare; a base in another project is 400, an unknown one 404', async () => {
    await ok(admin.rest('POST', `/revision/${revs.c3}/branches`, { branchName: 'feature' }), 201);
    revs.featureDraft = await draftOf('feature');
    await ok(admin.rest('PATCH', `${T(revs.featureDraft, 'people')}/row/alice`, { patches: [{ op: 'replace', path: '/name', value: 'Al' }] }));
    const cross = await ok(admin.rest('GET', `/revision/${revs.featureDraft}/changes?compareWith=${revs.c2}`));
    assert.deepEqual(
      cross.tables.map((t: { tableId: string; change: string; rowChanges: { total: number } }) => [t.tableId, t.change, t.rowChanges.total]),
      [
        ['people', 'RENAMED', 1],
        ['tags', 'ADDED', 1],
      ],
    );
    const rows = await ok(admin.rest('GET', `${T(revs.featureDraft, 'people')}/changes?compareWith=${revs.c2}`));
    assert.deepEqual(
      rows.edges.map((e: { node: { rowId: string; fieldChanges: unknown } }) => [e.node.rowId, e.node.fieldChanges]),
      [['alice', [{ path: '/name', before: 'Alice', after: 'Al' }]]],
    );
    // The other way round, from master's HEAD against the feature draft.
    const back = await ok(admin.rest('GET', `${T(revs.c3, 'people')}/changes?compareWith=${revs.featureDraft}`));
    assert.deepEqual(rowIdsOf(back), ['UPDATED:alice']);
    assertRestError(await admin.rest('GET', `/revision/${revs.featureDraft}/changes?compareWith=${revs.otherProject}`), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('GET', `/revision/${revs.featureDraft}/changes?compareWith=nope`), 404, 'REVISION_NOT_FOUND');
    assertRestError(await admin.rest('GET', '/revision/nope/changes'), 404, 'REVISION_NOT_FOUND');
    assertGqlError(
      await admin.gql(`{ revisionChanges(data: {revisionId: "${revs.featureDraft}", compareWith: "${revs.otherProject}"}) { compareWith } }`),
      'BAD_USER_INPUT',
      400,
    );
    assertRestError(await system.as(null).rest('GET', `/revision/${revs.c2}/changes`), 401, 'UNAUTHENTICATED');
  });

  test('out-of-scope tables are left out for a scoped key', async () => {
    const key = await ok(admin.rest('POST', '/api-keys/personal', { name: 'people only', tableIds: ['people'] }), 201);
    const scoped = { 'X-Api-Key': key.secret };
    const anonymous = system.as(null);
    const changes = await ok(anonymous.rest('GET', `/revision/${revs.c3}/changes`, undefined, scoped));
    assert.deepEqual(
      changes.tables.map((t: { tableId: string }) => t.tableId),
      ['people'],
    );
    assert.equal(changes.totalRowChanges, 0);
    assertRestError(await anonymous.rest('GET', `${T(revs.c3, 'tags')}/changes`, undefined, scoped), 403, 'API_KEY_SCOPE');
  });
});

describe('row history (changes.md §2)', () => {
  test('across a branch creation and a table rename, newest first, with the actor', async () => {
    const history = await ok(admin.rest('GET', `${T(revs.featureDraft, 'people')}/row/alice/history`));
    assert.deepEqual(
      history.edges.map((e: { node: Record<string, unknown> }) => [
        e.node.revisionId,
        e.node.branchName,
        e.node.change,
        e.node.tableId,
        e.node.rowId,
        e.node.comment,
      ]),
      [
        [revs.featureDraft, 'feature', 'UPDATED', 'people', 'alice', null],
        [revs.c2, 'master', 'UPDATED', 'authors', 'alice', 'c2'],
        [revs.c1, 'master', 'CREATED', 'authors', 'alice', 'c1'],
      ],
    );
    const [newest, , oldest] = history.edges.map((e: { node: Record<string, unknown> }) => e.node);
    assert.deepEqual([newest.committedAt, (newest.data as { name: string }).name, newest.actorId], [null, 'Al', adminId]);
    assert.match(oldest.committedAt, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(oldest.data, alice);
    assert.equal(history.totalCount, 3);
  });

  test('follows row renames, shows deletions, pages with cursors; a row that never existed is 404', async () => {
    const renamed = await ok(admin.rest('GET', `${T(revs.c3, 'people')}/row/caroline/history`));
    assert.deepEqual(
      renamed.edges.map((e: { node: { change: string; rowId: string } }) => `${e.node.change}:${e.node.rowId}`),
      ['RENAMED:caroline', 'CREATED:carol'],
    );
    const deleted = await ok(admin.rest('GET', `${T(revs.c2, 'authors')}/row/bob/history`));
    assert.deepEqual(
      deleted.edges.map((e: { node: { change: string; revisionId: string; data: unknown; actorId: string } }) => [
        e.node.change,
        e.node.revisionId,
        e.node.data === null,
        e.node.actorId,
      ]),
      [
        ['DELETED', revs.c2, true, adminId],
        ['CREATED', revs.c1, false, adminId],
      ],
    );
    const page1 = gqlData(
      await admin.gql(
        `{ rowHistory(data: {revisionId: "${revs.featureDraft}", tableId: "people", rowId: "alice", first: 1}) { edges { node { revisionId } } pageInfo { hasNextPage endCursor } } }`,
      ),
    ).rowHistory;
    assert.deepEqual(
      page1.edges.map((e: { node: { revisionId: string } }) => e.node.revisionId),
      [revs.featureDraft],
    );
    assert.equal(page1.pageInfo.hasNextPage, true);
    const page2 = await ok(admin.rest('GET', `${T(revs.featureDraft, 'people')}/row/alice/history?first=5&after=${page1.pageInfo.endCursor}`));
    assert.deepEqual(
      page2.edges.map((e: { node: { revisionId: string } }) => e.node.revisionId),
      [revs.c2, revs.c1],
    );
    assert.equal(page2.pageInfo.hasNextPage, false);
    assertRestError(await admin.rest('GET', `${T(revs.c3, 'people')}/row/zed/history`), 404, 'ROW_NOT_FOUND');
    assertRestError(await admin.rest('GET', `${T(revs.c3, 'nope')}/row/alice/history`), 404, 'TABLE_NOT_FOUND');
    assertRestError(await admin.rest('GET', `${T(revs.c3, 'people')}/row/alice/history?after=x`), 400, 'BAD_USER_INPUT');
  });
});

describe('rebuilds (changes.md §1-§2 over rebuilt views)', () => {
  test('a rebuild of every projection gives the same diffs and histories', async () => {
    const reads = [
      `/revision/${revs.c1}/changes`,
      `/revision/${revs.c2}/changes`,
      `/revision/${revs.c3}/changes`,
      `/revision/${revs.featureDraft}/changes?compareWith=${revs.c2}`,
      `${T(revs.c2, 'authors')}/changes`,
      `${T(revs.featureDraft, 'people')}/changes?compareWith=${revs.c1}`,
      `${T(revs.featureDraft, 'people')}/row/alice/history`,
      `${T(revs.c3, 'people')}/row/caroline/history`,
      `${T(revs.c2, 'authors')}/row/bob/history`,
    ];
    const answers = async () => Promise.all(reads.map(async (path) => ok(admin.rest('GET', path))));
    const before = await answers();
    assert.equal(before[1].totalRowChanges, 4);
    await system.rebuildAll();
    assert.deepEqual(await answers(), before);
  });
});
