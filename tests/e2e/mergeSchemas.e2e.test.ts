import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, bob, carol } from './support/systemFixtures.ts';
import { createMergeKit, ok } from './support/mergeKit.ts';

// merge.md §2.1 "Schemas": a schema changed on one side is replayed (the same patches and conversions as
// updateTable, domain.md §6) on the other side's rows and on the base rows before rows are compared, so all three
// versions of a row have the result's shape. Through system REST: theirs = branch feature, ours = master's draft.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
let system: System;
let admin: Client;
let kit: ReturnType<typeof createMergeKit>;

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  kit = createMergeKit(admin);
});
after(() => system.close());

const authors = (draft: string) => `/revision/${draft}/table/authors`;
const put = (draft: string, rowId: string, data: unknown) => ok(admin.rest('PUT', `${authors(draft)}/row/${rowId}`, { data }));
const patchSchema = (draft: string, patches: unknown[]) => ok(admin.rest('PATCH', authors(draft), { patches }));
const removeTags = [{ op: 'remove', path: '/properties/tags' }];
const zipAsString = [{ op: 'replace', path: '/properties/address/properties/zip', value: { type: 'string', default: '' } }];
const withoutTags = ({ tags: _, ...rest }: Json) => rest;
const zipString = (row: Json) => ({ ...row, address: { ...row.address, zip: String(row.address.zip) } });

/** Feature branched from c1 with `theirs` applied and committed, `ours` applied to master's draft, then a preview. */
async function sides(theirs: (draft: string) => Promise<unknown>, ours: (draft: string) => Promise<unknown>) {
  const p = await kit.freshProject();
  const c = kit.ctx(p);
  await c.branch(p.c1, 'feature');
  await theirs(await c.draft('feature'));
  const f1 = await c.commit('feature');
  const m = await c.draft();
  await ours(m);
  const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
  const merge = async () => {
    await ok(c.merge('master', { sourceRevisionId: f1 }));
    return c.rows(m);
  };
  return { preview, merge, m, c, p };
}
const clean = (preview: Json) => assert.deepEqual([preview.status, preview.conflicts], ['CLEAN', []]);

describe('one side changed the schema (merge.md §2.1)', () => {
  test('theirs removed a field, ours edited its value and another field: clean, the field is gone, our edit kept', async () => {
    const { preview, merge } = await sides(
      (f) => patchSchema(f, removeTags),
      async (m) => {
        await put(m, 'alice', { ...alice, tags: ['staff', 'lead'] });
        await put(m, 'bob', { ...bob, name: 'Robert' });
      },
    );
    clean(preview);
    assert.deepEqual(
      preview.tables.map((t: Json) => [t.tableId, t.schemaChanged, t.rowChanges.updated, t.rowChanges.total]),
      [['authors', true, 3, 3]],
      'every row the schema update migrates counts as changed in the draft',
    );
    assert.deepEqual(await merge(), { alice: withoutTags(alice), bob: withoutTags({ ...bob, name: 'Robert' }), carol: withoutTags(carol) });
  });

  test('ours removed a field, theirs edited its value and another field: clean, theirs edits arrive in our schema', async () => {
    const { preview, merge } = await sides(
      async (f) => {
        await put(f, 'alice', { ...alice, tags: ['staff', 'lead'] });
        await put(f, 'bob', { ...bob, name: 'Robert' });
      },
      (m) => patchSchema(m, removeTags),
    );
    clean(preview);
    assert.deepEqual(
      preview.tables.map((t: Json) => [t.tableId, t.schemaChanged, t.rowChanges.total]),
      [['authors', false, 1]],
    );
    assert.deepEqual(await merge(), { alice: withoutTags(alice), bob: withoutTags({ ...bob, name: 'Robert' }), carol: withoutTags(carol) });
  });

  test('theirs changed a type: our values and rows are converted (number to string), a real clash still conflicts', async () => {
    const dave = { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] };
    const { preview, c, m } = await sides(
      async (f) => {
        await patchSchema(f, zipAsString);
        await put(f, 'carol', { ...carol, address: { city: 'Nice', zip: '06000' } });
      },
      async (draft) => {
        await put(draft, 'alice', { ...alice, address: { city: 'Paris', zip: 75002 } });
        await put(draft, 'carol', { ...carol, address: { city: 'Nice', zip: 6001 } });
        await ok(admin.rest('POST', `${authors(draft)}/rows`, { rowId: 'dave', data: dave }), 201);
      },
    );
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.rowId, k.path, k.base, k.ours, k.theirs]),
      [['ROW_UPDATE', 'carol', '/address/zip', '6000', '6001', '06000']],
      'the values in conflict are in the result shape',
    );
    const [zip] = preview.conflicts;
    await ok(c.merge('master', { sourceRevisionId: preview.sourceRevisionId, resolutions: [{ conflictId: zip.id, take: 'OURS' }] }));
    assert.deepEqual(await c.rows(m), {
      alice: zipString({ ...alice, address: { city: 'Paris', zip: 75002 } }),
      bob: zipString(bob),
      carol: zipString({ ...carol, address: { city: 'Nice', zip: 6001 } }),
      dave: zipString(dave),
    });
  });

  test('ours changed a type, theirs edited values and added a row: theirs rows are converted like ours were', async () => {
    const erin = { name: 'Erin', address: { city: 'Oslo', zip: 3 }, tags: [] };
    const { preview, merge } = await sides(
      async (f) => {
        await put(f, 'bob', { ...bob, address: { city: 'Lyon', zip: 69002 } });
        await ok(admin.rest('POST', `${authors(f)}/rows`, { rowId: 'erin', data: erin }), 201);
      },
      async (m) => {
        await patchSchema(m, zipAsString);
        await put(m, 'alice', { ...alice, name: 'Alicia', address: { city: 'Paris', zip: '75001' } });
      },
    );
    clean(preview);
    assert.deepEqual(await merge(), {
      alice: { ...zipString(alice), name: 'Alicia' },
      bob: zipString({ ...bob, address: { city: 'Lyon', zip: 69002 } }),
      carol: zipString(carol),
      erin: zipString(erin),
    });
  });

  test('theirs renamed a field (move), ours edited another field of the row: clean, the value under its new name', async () => {
    const { preview, merge } = await sides(
      (f) => patchSchema(f, [{ op: 'move', from: '/properties/name', path: '/properties/fullName' }]),
      (m) => put(m, 'bob', { ...bob, address: { city: 'Lille', zip: 59000 } }),
    );
    clean(preview);
    const rows = await merge();
    assert.deepEqual(rows.bob, { fullName: 'Bob', address: { city: 'Lille', zip: 59000 }, tags: [] });
    assert.deepEqual(rows.alice, { fullName: 'Alice', address: alice.address, tags: alice.tags });
  });
});

describe('a field renamed on one side: its move patch, read from the log, is replayed (merge.md §2.1)', () => {
  const toTitle = [{ op: 'move', from: '/properties/name', path: '/properties/title' }];
  const titled = ({ name, ...rest }: Json) => ({ ...rest, title: name });
  const dave = { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] };

  test('theirs renamed name to title then changed a type, ours edited a name and added a row: both under title', async () => {
    const { preview, merge } = await sides(
      async (f) => {
        await patchSchema(f, toTitle);
        await patchSchema(f, zipAsString);
      },
      async (m) => {
        await put(m, 'bob', { ...bob, name: 'Robert' });
        await ok(admin.rest('POST', `${authors(m)}/rows`, { rowId: 'dave', data: dave }), 201);
      },
    );
    clean(preview);
    assert.deepEqual(await merge(), {
      alice: zipString(titled(alice)),
      bob: zipString(titled({ ...bob, name: 'Robert' })),
      carol: zipString(titled(carol)),
      dave: zipString(titled(dave)),
    });
  });

  test('theirs renamed the field in two commits (name, title, heading): the chain of both carries our edit', async () => {
    const p = await kit.freshProject();
    const c = kit.ctx(p);
    await c.branch(p.c1, 'feature');
    await patchSchema(await c.draft('feature'), toTitle);
    await c.commit('feature');
    await patchSchema(await c.draft('feature'), [{ op: 'move', from: '/properties/title', path: '/properties/heading' }]);
    const f2 = await c.commit('feature');
    const m = await c.draft();
    await put(m, 'carol', { ...carol, name: 'Caroline' });
    clean(await ok(c.merge('master', { sourceRevisionId: f2 }, true)));
    await ok(c.merge('master', { sourceRevisionId: f2 }));
    const headed = ({ name, ...rest }: Json) => ({ ...rest, heading: name });
    assert.deepEqual(await c.rows(m), { alice: headed(alice), bob: headed(bob), carol: headed({ ...carol, name: 'Caroline' }) });
  });

  test('ours renamed name to title, theirs edited a name and added a row: theirs values arrive under title', async () => {
    const { preview, merge } = await sides(
      async (f) => {
        await put(f, 'alice', { ...alice, name: 'Alicia' });
        await ok(admin.rest('POST', `${authors(f)}/rows`, { rowId: 'dave', data: dave }), 201);
      },
      (m) => patchSchema(m, toTitle),
    );
    clean(preview);
    assert.deepEqual(await merge(), {
      alice: titled({ ...alice, name: 'Alicia' }),
      bob: titled(bob),
      carol: titled(carol),
      dave: titled(dave),
    });
  });
});

describe('both sides changed the schema (merge.md §2.1)', () => {
  test('to the same schema: the base rows are replayed, edits of either side merge', async () => {
    const { preview, merge } = await sides(
      async (f) => {
        await patchSchema(f, zipAsString);
        await put(f, 'bob', { ...zipString(bob), name: 'Robert' });
      },
      async (m) => {
        await patchSchema(m, zipAsString);
        await put(m, 'bob', { ...bob, address: { city: 'Lyon', zip: '69009' } });
      },
    );
    clean(preview);
    assert.deepEqual((await merge()).bob, { ...bob, name: 'Robert', address: { city: 'Lyon', zip: '69009' } });
  });

  test('to different schemas: TABLE_SCHEMA with the three schemas; THEIRS takes their schema and rows', async () => {
    const { preview, c, m } = await sides(
      async (f) => {
        await patchSchema(f, removeTags);
        await put(f, 'bob', withoutTags({ ...bob, name: 'Robert' }));
      },
      async (draft) => {
        await patchSchema(draft, zipAsString);
        await put(draft, 'alice', { ...zipString(alice), name: 'Alicia' });
      },
    );
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId]),
      [['TABLE_SCHEMA', 'authors', null]],
    );
    assert.equal(preview.conflicts[0].theirs.properties.tags, undefined);
    assert.equal(preview.conflicts[0].ours.properties.address.properties.zip.type, 'string');
    await ok(c.merge('master', { sourceRevisionId: preview.sourceRevisionId, strategy: 'THEIRS' }));
    assert.deepEqual(await c.rows(m), { alice: withoutTags(alice), bob: withoutTags({ ...bob, name: 'Robert' }), carol: withoutTags(carol) });
  });
});

// merge.md §2.3: the result is validated after all changes; a row that fails theirs' tighter schema is an INVALID_DATA
// conflict (resolved with VALUE or REMOVE, never by a strategy), not a refusal of the whole merge.
describe('theirs tightened the schema and our rows no longer fit (merge.md §2.3)', () => {
  const shortNames = [{ op: 'replace', path: '/properties/name', value: { type: 'string', default: '', maxLength: 5 } }];
  const dave = { name: 'Davidson', address: { city: 'Oslo', zip: 1 }, tags: [] };
  const tightened = () =>
    sides(
      (f) => patchSchema(f, shortNames),
      async (m) => {
        await put(m, 'bob', { ...bob, name: 'Robert' });
        await ok(admin.rest('POST', `${authors(m)}/rows`, { rowId: 'dave', data: dave }), 201);
      },
    );

  test('INVALID_DATA conflicts are listed; strategies and OURS/THEIRS leave them; VALUE and REMOVE settle them', async () => {
    const { preview, c, m } = await tightened();
    assert.equal(preview.status, 'CONFLICTS');
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId, k.path, k.theirs]),
      [
        ['INVALID_DATA', 'authors', 'bob', null, { ...bob, name: 'Robert' }],
        ['INVALID_DATA', 'authors', 'dave', null, dave],
      ],
    );
    assert.deepEqual(
      preview.conflicts[0].details.map((d: Json) => [d.path, d.keyword]),
      [['/name', 'maxLength']],
    );
    const [robert, davidson] = preview.conflicts;
    const f1 = preview.sourceRevisionId;
    const before = { rows: await c.rows(m), head: await system.headPosition() };
    const byStrategy = await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }, true));
    assert.deepEqual([byStrategy.status, byStrategy.conflictCount], ['CONFLICTS', 2], 'no strategy resolves INVALID_DATA');
    const refused = await c.merge('master', { sourceRevisionId: f1, strategy: 'OURS' });
    assertRestError(refused, 409, 'MERGE_CONFLICT');
    assert.deepEqual(
      refused.body.details.map((d: Json) => [d.path, d.message]),
      [
        [robert.id, 'INVALID_DATA in table "authors" row "bob"'],
        [davidson.id, 'INVALID_DATA in table "authors" row "dave"'],
      ],
    );
    const takeTheirs = [{ conflictId: robert.id, take: 'THEIRS' }];
    assertRestError(await c.merge('master', { sourceRevisionId: f1, resolutions: takeTheirs }), 400, 'BAD_USER_INPUT');
    const half = [{ conflictId: robert.id, take: 'VALUE', value: { ...bob, name: 'Rob' } }];
    assertRestError(await c.merge('master', { sourceRevisionId: f1, resolutions: half }), 409, 'MERGE_CONFLICT');
    assert.deepEqual(await c.rows(m), before.rows, 'a refused merge changes nothing');
    assert.equal(await system.headPosition(), before.head, 'and appends nothing');
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${m}`))).pendingMergeRevisionIds, []);

    const resolutions = [...half, { conflictId: davidson.id, take: 'REMOVE' }];
    const settled = await ok(c.merge('master', { sourceRevisionId: f1, resolutions }, true));
    assert.deepEqual([settled.status, settled.conflicts], ['CLEAN', []]);
    assert.equal((await ok(c.merge('master', { sourceRevisionId: f1, resolutions }))).status, 'CLEAN');
    assert.deepEqual(await c.rows(m), { alice, bob: { ...bob, name: 'Rob' }, carol });
    assert.equal((await c.tables(m)).authors.properties.name.maxLength, 5);
    assert.deepEqual((await ok(admin.rest('GET', `/revision/${m}`))).pendingMergeRevisionIds, [f1]);
  });

  test('a row theirs renamed is checked in the result and named by our id (§2.4); changing the draft first also settles it', async () => {
    const { preview, c, m } = await sides(
      async (f) => {
        await patchSchema(f, shortNames);
        await ok(admin.rest('POST', `${authors(f)}/row/bob/rename`, { nextRowId: 'robert' }));
      },
      (draft) => put(draft, 'bob', { ...bob, name: 'Robert' }),
    );
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.rowId]),
      [['INVALID_DATA', 'bob']],
    );
    await put(m, 'bob', { ...bob, name: 'Bobby' });
    const again = await ok(c.merge('master', { sourceRevisionId: preview.sourceRevisionId }));
    assert.equal(again.status, 'CLEAN');
    assert.deepEqual(await c.rows(m), { alice, robert: { ...bob, name: 'Bobby' }, carol });
  });

  test('through system GraphQL: previewMerge lists INVALID_DATA, mergeRevision refuses it unresolved, applies a VALUE', async () => {
    const { c, m, p, preview } = await tightened();
    const input = { organizationId: 'acme', projectName: p.name, branchName: 'master', sourceRevisionId: preview.sourceRevisionId };
    const previewQuery = `query($d: MergeInput!) { previewMerge(data: $d) { status conflictCount conflicts { id kind tableId rowId theirs details } } }`;
    const listed = gqlData(await admin.gql(previewQuery, { d: input })).previewMerge;
    assert.deepEqual(
      [listed.status, listed.conflictCount, listed.conflicts.map((k: Json) => [k.kind, k.rowId])],
      [
        'CONFLICTS',
        2,
        [
          ['INVALID_DATA', 'bob'],
          ['INVALID_DATA', 'dave'],
        ],
      ],
    );
    const mutation = `mutation($d: MergeInput!) { mergeRevision(data: $d) { status totalRowChanges } }`;
    assertGqlError(await admin.gql(mutation, { d: { ...input, strategy: 'THEIRS' } }), 'MERGE_CONFLICT', 409);
    const resolutions = [
      { conflictId: listed.conflicts[0].id, take: 'VALUE', value: { ...bob, name: 'Bo' } },
      { conflictId: listed.conflicts[1].id, take: 'VALUE', value: { ...dave, name: 'Dave' } },
    ];
    const applied = gqlData(await admin.gql(mutation, { d: { ...input, resolutions } })).mergeRevision;
    assert.equal(applied.status, 'CLEAN');
    assert.deepEqual(await c.rows(m), { alice, bob: { ...bob, name: 'Bo' }, carol, dave: { ...dave, name: 'Dave' } });
  });
});
