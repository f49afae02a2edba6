import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { authorsSchema, createUser, organizationWithProject } from './support/systemFixtures.ts';

// updateTable's dry run (domain.md §6 rule 6): REST `PATCH …?dryRun=true` and GraphQL `previewUpdateTable` migrate
// like a real run, append nothing, fail exactly like a real run and need the same permission.
let system: System;
let admin: Client;
let draft = '';
const T = () => `/revision/${draft}/table/authors`;
const rows = [
  { rowId: 'a1', data: { name: 'Ann', address: { city: 'Paris', zip: 75001 }, tags: ['x'] } },
  { rowId: 'a2', data: { name: 'Ben', address: { city: 'Lyon', zip: 69001 }, tags: [] } },
  { rowId: 'a3', data: { name: 'Cy', address: { city: 'Nice', zip: 0 }, tags: [] } },
];
const zipToString = [{ op: 'replace', path: '/properties/address/properties/zip', value: { type: 'string', default: '' } }];

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  draft = (await organizationWithProject(admin, 'acme', 'blog')).draftRevisionId;
  assert.equal((await admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema })).status, 201);
  assert.equal((await admin.rest('POST', `${T()}/rows/bulk`, { rows })).status, 201);
});
after(() => system.close());

describe('updateTable dry run', () => {
  test('REST ?dryRun=true answers the table as it would be with the migration, and appends nothing', async () => {
    const head = await system.headPosition();
    const before = (await admin.rest('GET', T())).body;
    const reply = await admin.rest('PATCH', `${T()}?dryRun=true`, { patches: zipToString });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.headers.get('x-strata-position'), null);
    assert.equal(reply.body.schema.properties.address.properties.zip.type, 'string');
    assert.equal(reply.body.count, 3);
    assert.deepEqual(
      { rowsChanged: reply.body.migration.rowsChanged, rowsUnchanged: reply.body.migration.rowsUnchanged },
      { rowsChanged: 3, rowsUnchanged: 0 },
    );
    assert.deepEqual(reply.body.migration.sample[0], {
      rowId: 'a1',
      before: rows[0]?.data,
      after: { name: 'Ann', address: { city: 'Paris', zip: '75001' }, tags: ['x'] },
    });
    assert.equal(await system.headPosition(), head);
    assert.deepEqual((await admin.rest('GET', T())).body, before);
    assert.equal((await admin.rest('GET', `${T()}/row/a1`)).body.data.address.zip, 75001);
  });

  test('a keyword change touches no row; dryRun=false is a real run', async () => {
    const patches = [{ op: 'add', path: '/properties/name/description', value: 'Full name' }];
    const preview = await admin.rest('PATCH', `${T()}?dryRun=true`, { patches });
    assert.deepEqual(preview.body.migration, { rowsChanged: 0, rowsUnchanged: 3, rowsLossy: 0, sample: [], lossySample: [] });
    const real = await admin.rest('PATCH', `${T()}?dryRun=false`, { patches });
    assert.equal(real.status, 200);
    assert.equal(real.body.migration, undefined);
    assert.equal((await admin.rest('GET', T())).body.schema.properties.name.description, 'Full name');
    assertRestError(await admin.rest('PATCH', `${T()}?dryRun=yes`, { patches }), 400, 'BAD_USER_INPUT');
  });

  test('GraphQL previewUpdateTable answers the same members and changes nothing', async () => {
    const head = await system.headPosition();
    const reply = await admin.gql(
      `query($d: UpdateTableInput!) { previewUpdateTable(data: $d) {
        table { id count schema foreignKeysTo rows(data: {first: 1}) { totalCount } }
        migration { rowsChanged rowsUnchanged sample { rowId before after } } } }`,
      { d: { revisionId: draft, tableId: 'authors', patches: zipToString } },
    );
    const preview = gqlData(reply).previewUpdateTable;
    assert.equal(preview.table.schema.properties.address.properties.zip.type, 'string');
    assert.equal(preview.table.rows.totalCount, 3);
    assert.equal(preview.migration.rowsChanged, 3);
    assert.deepEqual(
      preview.migration.sample.map((s: { rowId: string }) => s.rowId),
      ['a1', 'a2', 'a3'],
    );
    assert.equal(preview.migration.sample[2].after.address.zip, '0');
    assert.equal(await system.headPosition(), head);
  });

  test('the same failures as a real run: INVALID_PATCH, INVALID_SCHEMA, INVALID_DATA with rowId, unknown table', async () => {
    const head = await system.headPosition();
    const cases: [unknown[], string][] = [
      [[{ op: 'test', path: '/properties/name', value: {} }], 'INVALID_PATCH'],
      [[{ op: 'replace', path: '/properties/name', value: { type: 'strin' } }], 'INVALID_SCHEMA'],
      [[{ op: 'add', path: '/properties/name/pattern', value: '^(A.*)?$' }], 'INVALID_DATA'],
    ];
    for (const [patches, code] of cases) {
      const dry = await admin.rest('PATCH', `${T()}?dryRun=true`, { patches });
      const real = await admin.rest('PATCH', T(), { patches });
      assertRestError(dry, 400, code);
      assertRestError(real, 400, code);
      assert.deepEqual(dry.body, real.body);
    }
    const invalid = await admin.rest('PATCH', `${T()}?dryRun=true`, { patches: cases[2]?.[0] });
    assert.deepEqual(
      invalid.body.details.map((d: { rowId: string }) => d.rowId),
      ['a2', 'a3'],
    );
    assert.equal(await system.headPosition(), head);
    const graphql = await admin.gql(`query($d: UpdateTableInput!) { previewUpdateTable(data: $d) { migration { rowsChanged } } }`, {
      d: { revisionId: draft, tableId: 'authors', patches: cases[2]?.[0] },
    });
    assertGqlError(graphql, 'INVALID_DATA', 400);
    assertRestError(await admin.rest('PATCH', `/revision/${draft}/table/nope?dryRun=true`, { patches: zipToString }), 404, 'TABLE_NOT_FOUND');
  });

  test('the same permission as updateTable (update Table): an editor and an anonymous caller are refused', async () => {
    const editorId = await createUser(admin, 'edith', 'edith-password');
    assert.equal((await admin.rest('POST', '/organization/acme/project/blog/users', { userId: editorId, role: 'editor' })).status, 200);
    const edith = system.as(await system.login('edith', 'edith-password'));
    assertRestError(await edith.rest('PATCH', `${T()}?dryRun=true`, { patches: zipToString }), 403, 'FORBIDDEN');
    assertRestError(await system.as(null).rest('PATCH', `${T()}?dryRun=true`, { patches: zipToString }), 401, 'UNAUTHENTICATED');
  });
});

describe('lossy migrations in the dry run (rowsLossy, lossySample)', () => {
  const P = () => `/revision/${draft}/table/people`;
  const peopleSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'age', 'tags', 'address'],
    properties: {
      name: { type: 'string', default: '' },
      age: { type: 'string', default: '' },
      tags: { type: 'array', items: { type: 'string', default: '' } },
      address: { type: 'object', additionalProperties: false, required: ['city'], properties: { city: { type: 'string', default: '' } } },
    },
  };
  const people = [
    { rowId: 'p1', data: { name: 'Ann', age: '42', tags: ['a'], address: { city: 'Paris' } } },
    { rowId: 'p2', data: { name: 'Ben', age: 'forty', tags: ['a', 'b'], address: { city: 'Lyon' } } },
    { rowId: 'p3', data: { name: 'Cy', age: '7', tags: [], address: { city: 'Nice' } } },
  ];
  const ageAndTags = [
    { op: 'replace', path: '/properties/age', value: { type: 'number', default: 0 } },
    { op: 'replace', path: '/properties/tags', value: { type: 'string', default: '' } },
  ];

  before(async () => {
    assert.equal((await admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'people', schema: peopleSchema })).status, 201);
    assert.equal((await admin.rest('POST', `${P()}/rows/bulk`, { rows: people })).status, 201);
  });

  test('REST counts the rows whose values fell back and shows the first lost value of each', async () => {
    const head = await system.headPosition();
    const reply = await admin.rest('PATCH', `${P()}?dryRun=true`, { patches: ageAndTags });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const { migration } = reply.body;
    assert.deepEqual(
      { rowsChanged: migration.rowsChanged, rowsUnchanged: migration.rowsUnchanged, rowsLossy: migration.rowsLossy },
      { rowsChanged: 3, rowsUnchanged: 0, rowsLossy: 1 },
    );
    // p2 lost two values ("forty" -> 0 and the tail of its tags); the sample shows the first of them.
    assert.deepEqual(migration.lossySample, [{ rowId: 'p2', path: '/age', before: 'forty', after: 0 }]);
    assert.deepEqual(migration.sample[1], {
      rowId: 'p2',
      before: people[1]?.data,
      after: { name: 'Ben', age: 0, tags: 'a', address: { city: 'Lyon' } },
    });
    assert.equal(await system.headPosition(), head);
  });

  test('an object replaced by a default is lost in every row; at most 5 samples', async () => {
    const extra = Array.from({ length: 4 }, (_, i) => ({ rowId: `q${i}`, data: { name: `Q${i}`, age: '1', tags: [], address: { city: `C${i}` } } }));
    assert.equal((await admin.rest('POST', `${P()}/rows/bulk`, { rows: extra })).status, 201);
    const patches = [{ op: 'replace', path: '/properties/address', value: { type: 'string', default: '?' } }];
    const { migration } = (await admin.rest('PATCH', `${P()}?dryRun=true`, { patches })).body;
    assert.equal(migration.rowsLossy, 7);
    assert.equal(migration.lossySample.length, 5);
    assert.deepEqual(migration.lossySample[0], { rowId: 'p1', path: '/address', before: { city: 'Paris' }, after: '?' });
    assert.equal((await admin.rest('DELETE', `${P()}/rows/bulk`, { rowIds: extra.map((row) => row.rowId) })).status, 200);
  });

  test('GraphQL previewUpdateTable answers the same rowsLossy and lossySample', async () => {
    const rest = (await admin.rest('PATCH', `${P()}?dryRun=true`, { patches: ageAndTags })).body.migration;
    const reply = await admin.gql(
      `query($d: UpdateTableInput!) { previewUpdateTable(data: $d) {
        migration { rowsChanged rowsUnchanged rowsLossy sample { rowId before after } lossySample { rowId path before after } } } }`,
      { d: { revisionId: draft, tableId: 'people', patches: ageAndTags } },
    );
    assert.deepEqual(gqlData(reply).previewUpdateTable.migration, rest);
  });

  test('a lossy change is not refused: the real run applies what the dry run showed', async () => {
    const preview = (await admin.rest('PATCH', `${P()}?dryRun=true`, { patches: ageAndTags })).body;
    const real = await admin.rest('PATCH', P(), { patches: ageAndTags });
    assert.equal(real.status, 200, JSON.stringify(real.body));
    assert.deepEqual(real.body.schema, preview.schema);
    assert.deepEqual((await admin.rest('GET', `${P()}/row/p2`)).body.data, preview.migration.sample[1].after);
  });
});
