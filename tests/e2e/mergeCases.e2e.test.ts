import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertRestError, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, bob, carol } from './support/systemFixtures.ts';
import { createMergeKit, ok } from './support/mergeKit.ts';

// The rows of merge.md §2.1 and §2.2 that merge.e2e.test.ts does not walk through, and the INVALID_DATA check of
// §2.3, through system REST: theirs = branch feature (from c1), ours = master's draft.
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

const labelSchema = (field = 'label') => ({
  type: 'object',
  additionalProperties: false,
  required: [field],
  properties: { [field]: { type: 'string', default: '' } },
});
const dave = { name: 'Dave', address: { city: 'Oslo', zip: 1 }, tags: [] };

/** Feature branched from c1 with `theirs` applied and committed; then `ours` applied to master's draft. */
async function sides(theirs: (draft: string) => Promise<void>, ours: (draft: string) => Promise<void>) {
  const p = await kit.freshProject();
  const c = kit.ctx(p);
  await c.branch(p.c1, 'feature');
  await theirs(await c.draft('feature'));
  const f1 = await c.commit('feature');
  const m = await c.draft();
  await ours(m);
  return { c, f1, m };
}
const post = (path: string, body: unknown) => ok(admin.rest('POST', path, body), 201);
const rename = (path: string, body: unknown) => ok(admin.rest('POST', `${path}/rename`, body));
const authorsOf = (draft: string) => `/revision/${draft}/table/authors`;
const summary = (preview: Json) => preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId, k.path, k.base, k.ours, k.theirs]);

describe('tables (merge.md §2.1)', () => {
  test('added on both sides with the same id: equal kept once, other rows merged as two additions, other schemas TABLE_SCHEMA', async () => {
    const addTables = (rows: Record<string, string>, otherField: string) => async (draft: string) => {
      await post(`/revision/${draft}/tables`, { tableId: 'same', schema: labelSchema() });
      await post(`/revision/${draft}/table/same/rows`, { rowId: 's1', data: { label: 'one' } });
      await post(`/revision/${draft}/tables`, { tableId: 'tags', schema: labelSchema() });
      await post(`/revision/${draft}/table/tags/rows/bulk`, { rows: Object.entries(rows).map(([rowId, label]) => ({ rowId, data: { label } })) });
      await post(`/revision/${draft}/tables`, { tableId: 'other', schema: labelSchema(otherField) });
    };
    const { c, f1, m } = await sides(addTables({ t1: 'a', t2: 'b' }, 'theirs'), addTables({ t1: 'a', t2: 'c', t3: 'd' }, 'ours'));
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [
      ['TABLE_SCHEMA', 'other', null, null, null, labelSchema('ours'), labelSchema('theirs')],
      ['ROW_UPDATE', 'tags', 't2', '/label', null, 'c', 'b'],
    ]);
    assert.deepEqual(preview.tables, [], 'nothing changes until the conflicts are resolved');
    const merged = await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }));
    assert.deepEqual(
      merged.tables.map((t: Json) => [t.tableId, t.change, t.rowChanges.total]),
      [
        ['other', 'MODIFIED', 0],
        ['tags', 'MODIFIED', 1],
      ],
    );
    assert.deepEqual(await c.rows(m, 'same'), { s1: { label: 'one' } }, 'kept once');
    assert.deepEqual(await c.rows(m, 'tags'), { t1: { label: 'a' }, t2: { label: 'b' }, t3: { label: 'd' } });
    assert.deepEqual((await c.tables(m)).other, labelSchema('theirs'));
  });

  test('removed on both sides: removed once, the merge changes nothing more', async () => {
    const p = await kit.freshProject();
    const c = kit.ctx(p);
    await post(`/revision/${await c.draft()}/tables`, { tableId: 'old', schema: labelSchema() });
    await post(`${c.T(await c.draft(), 'old')}/rows`, { rowId: 'o1', data: { label: 'x' } });
    const c2 = await c.commit('master');
    await c.branch(c2, 'feature');
    await ok(admin.rest('DELETE', c.T(await c.draft('feature'), 'old')));
    await ok(admin.rest('PUT', `${c.T(await c.draft('feature'))}/row/alice`, { data: { ...alice, name: 'Alicia' } }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await ok(admin.rest('DELETE', c.T(m, 'old')));
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual([preview.status, preview.conflicts], ['CLEAN', []]);
    assert.deepEqual(
      preview.tables.map((t: Json) => [t.tableId, t.change]),
      [['authors', 'MODIFIED']],
    );
    await ok(c.merge('master', { sourceRevisionId: f1 }));
    assert.deepEqual(Object.keys(await c.tables(m)), ['authors']);
    assert.equal((await c.rows(m)).alice.name, 'Alicia');
  });

  test('renamed on theirs only: the table and a row are renamed, our changes follow them', async () => {
    const { c, f1, m } = await sides(
      async (f) => {
        await rename(authorsOf(f), { nextTableId: 'writers' });
        await rename(`/revision/${f}/table/writers/row/carol`, { nextRowId: 'caroline' });
      },
      async (draft) => {
        await ok(admin.rest('PUT', `${authorsOf(draft)}/row/carol`, { data: { ...carol, name: 'Caro' } }));
        await post(`${authorsOf(draft)}/rows`, { rowId: 'dave', data: dave });
      },
    );
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual([preview.status, preview.conflicts], ['CLEAN', []]);
    assert.deepEqual(
      preview.tables.map((t: Json) => [t.tableId, t.change, t.previousTableId, t.rowChanges.renamed]),
      [['writers', 'RENAMED', 'authors', 1]],
    );
    await ok(c.merge('master', { sourceRevisionId: f1 }));
    assert.deepEqual(Object.keys(await c.tables(m)), ['writers']);
    assert.deepEqual(await c.rows(m, 'writers'), { alice, bob, caroline: { ...carol, name: 'Caro' }, dave });
  });

  test("TABLE_ID_TAKEN resolved THEIRS where theirs kept the holder: theirs' table takes the id, ours goes back to its id", async () => {
    // Base: authors and books. Theirs renamed authors onto catalog and kept books (one row changed); ours renamed
    // books onto catalog and added a row to it. No table and none of the rows is lost.
    const p = await kit.freshProject();
    const c = kit.ctx(p);
    await post(`/revision/${await c.draft()}/tables`, { tableId: 'books', schema: labelSchema() });
    await post(`${c.T(await c.draft(), 'books')}/rows`, { rowId: 'b1', data: { label: 'one' } });
    await c.branch(await c.commit('master'), 'feature');
    const f = await c.draft('feature');
    await rename(authorsOf(f), { nextTableId: 'catalog' });
    await ok(admin.rest('PUT', `${c.T(f, 'books')}/row/b1`, { data: { label: 'uno' } }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await rename(c.T(m, 'books'), { nextTableId: 'catalog' });
    await post(`${c.T(m, 'catalog')}/rows`, { rowId: 'b2', data: { label: 'two' } });
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [['TABLE_ID_TAKEN', 'authors', null, null, 'authors', 'authors', 'catalog']]);
    const resolutions = [{ conflictId: preview.conflicts[0].id, take: 'THEIRS' }];
    const resolved = await ok(c.merge('master', { sourceRevisionId: f1, resolutions }, true));
    assert.deepEqual([resolved.status, resolved.conflictCount], ['CLEAN', 0]);
    const merged = await ok(c.merge('master', { sourceRevisionId: f1, resolutions }));
    assert.deepEqual(
      merged.tables.map((t: Json) => [t.tableId, t.change, t.previousTableId]),
      [
        ['books', 'RENAMED', 'catalog'],
        ['catalog', 'RENAMED', 'authors'],
      ],
    );
    assert.deepEqual(Object.keys(await c.tables(m)).sort(), ['books', 'catalog']);
    assert.deepEqual(await c.rows(m, 'catalog'), { alice, bob, carol });
    assert.deepEqual(await c.rows(m, 'books'), { b1: { label: 'uno' }, b2: { label: 'two' } });
  });
});

describe('rows (merge.md §2.2)', () => {
  test('added on both sides with the same id: equal data kept once, each differing leaf a ROW_UPDATE with base null', async () => {
    const erin = (city: string, tags: string[]) => ({ name: 'Erin', address: { city, zip: 2 }, tags });
    const add = (city: string, tags: string[]) => async (draft: string) => {
      await post(`${authorsOf(draft)}/rows/bulk`, {
        rows: [
          { rowId: 'dave', data: dave },
          { rowId: 'erin', data: erin(city, tags) },
        ],
      });
    };
    const { c, f1, m } = await sides(add('Oslo', ['a']), add('Bergen', ['b']));
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [
      ['ROW_UPDATE', 'authors', 'erin', '/address/city', null, 'Bergen', 'Oslo'],
      ['ROW_UPDATE', 'authors', 'erin', '/tags', null, ['b'], ['a']],
    ]);
    const city = preview.conflicts[0].id;
    await ok(c.merge('master', { sourceRevisionId: f1, resolutions: [{ conflictId: city, take: 'THEIRS' }], strategy: 'OURS' }));
    const rows = await c.rows(m);
    assert.deepEqual([rows.dave, rows.erin], [dave, erin('Oslo', ['b'])]);
  });

  test('removed there, renamed here: ROW_REMOVED_CHANGED under our id; OURS keeps the renamed row, THEIRS removes it', async () => {
    const theirs = async (f: string) => void (await ok(admin.rest('DELETE', `${authorsOf(f)}/row/bob`)));
    const ours = async (draft: string) => void (await rename(`${authorsOf(draft)}/row/bob`, { nextRowId: 'robert' }));
    const { c, f1, m } = await sides(theirs, ours);
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [['ROW_REMOVED_CHANGED', 'authors', 'robert', null, bob, bob, null]]);
    assertRestError(await c.merge('master', { sourceRevisionId: f1 }), 409, 'MERGE_CONFLICT');
    await ok(c.merge('master', { sourceRevisionId: f1, strategy: 'OURS' }));
    assert.deepEqual(await c.rows(m), { alice, robert: bob, carol });

    const again = await sides(theirs, ours);
    await ok(again.c.merge('master', { sourceRevisionId: again.f1, strategy: 'THEIRS' }));
    assert.deepEqual(await again.c.rows(again.m), { alice, carol });
  });
});

describe('checks on the result (merge.md §2.3)', () => {
  test('a row that fails the result schema is INVALID_DATA: strategies leave it open, VALUE or REMOVE resolve it', async () => {
    const theirs = async (f: string) => {
      await ok(admin.rest('PUT', `${authorsOf(f)}/row/bob`, { data: { ...bob, name: 'Roberto the Long' } }));
      await ok(admin.rest('PUT', `${authorsOf(f)}/row/carol`, { data: { ...carol, name: 'Caro' } }));
    };
    // Ours allows at most 5 characters in a name: theirs' new name for bob fails our schema, carol's fits.
    const ours = async (draft: string) =>
      void (await ok(admin.rest('PATCH', authorsOf(draft), { patches: [{ op: 'add', path: '/properties/name/maxLength', value: 5 }] })));
    const { c, f1, m } = await sides(theirs, ours);
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId, k.path, k.theirs]),
      [['INVALID_DATA', 'authors', 'bob', null, { ...bob, name: 'Roberto the Long' }]],
    );
    assert.ok(
      preview.conflicts[0].details.some((d: Json) => d.path === '/name'),
      JSON.stringify(preview.conflicts[0].details),
    );
    const id = preview.conflicts[0].id;
    assertRestError(await c.merge('master', { sourceRevisionId: f1, strategy: 'THEIRS' }), 409, 'MERGE_CONFLICT');
    assertRestError(await c.merge('master', { sourceRevisionId: f1, resolutions: [{ conflictId: id, take: 'THEIRS' }] }), 400, 'BAD_USER_INPUT');
    const removed = await ok(c.merge('master', { sourceRevisionId: f1, resolutions: [{ conflictId: id, take: 'REMOVE' }] }, true));
    assert.deepEqual([removed.status, removed.conflictCount], ['CLEAN', 0]);
    await ok(c.merge('master', { sourceRevisionId: f1, resolutions: [{ conflictId: id, take: 'VALUE', value: { ...bob, name: 'Rob' } }] }));
    assert.deepEqual(await c.rows(m), { alice, bob: { ...bob, name: 'Rob' }, carol: { ...carol, name: 'Caro' } });
  });
});

describe('conflicts name our table (merge.md §2.4)', () => {
  test("theirs renamed the table: ROW_UPDATE and INVALID_DATA name our id, resolutions land in theirs' table", async () => {
    const { c, f1, m } = await sides(
      async (f) => {
        await ok(
          admin.rest('PATCH', authorsOf(f), {
            patches: [{ op: 'replace', path: '/properties/name', value: { type: 'string', default: '', maxLength: 6 } }],
          }),
        );
        await ok(admin.rest('PUT', `${authorsOf(f)}/row/alice`, { data: { ...alice, name: 'Ali' } }));
        await rename(authorsOf(f), { nextTableId: 'writers' });
      },
      async (draft) => {
        await ok(admin.rest('PUT', `${authorsOf(draft)}/row/alice`, { data: { ...alice, name: 'Alicia' } }));
        await ok(admin.rest('PUT', `${authorsOf(draft)}/row/bob`, { data: { ...bob, name: 'Roberto' } }));
      },
    );
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(
      preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId, k.path]),
      [
        ['ROW_UPDATE', 'authors', 'alice', '/name'],
        ['INVALID_DATA', 'authors', 'bob', null],
      ],
    );
    const [name, invalid] = preview.conflicts;
    const again = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(
      again.conflicts.map((k: Json) => k.id),
      [name.id, invalid.id],
      'the ids are stable',
    );
    const resolutions = [
      { conflictId: name.id, take: 'THEIRS' },
      { conflictId: invalid.id, take: 'VALUE', value: { ...bob, name: 'Robby' } },
    ];
    assert.equal((await ok(c.merge('master', { sourceRevisionId: f1, resolutions }))).status, 'CLEAN');
    assert.deepEqual(await c.rows(m, 'writers'), { alice: { ...alice, name: 'Ali' }, bob: { ...bob, name: 'Robby' }, carol });
  });
});
