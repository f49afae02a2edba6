import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startSystem, type Client, type System } from './support/systemHarness.ts';
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
  return { preview, merge, m, c };
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
