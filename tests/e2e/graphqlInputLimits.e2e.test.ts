// operations.md §7 and errors.md through the system API: the introspection depth limit (20 under __schema/__type,
// the IDEs' standard introspection query still works), cursors whose values do not fit the sort keys, and wide
// invalid GraphQL variables answered with a short 400 that holds no internal error.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getIntrospectionQuery } from 'graphql';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { organizationWithProject, type BranchIds } from './support/systemFixtures.ts';

let system: System;
let admin: Client;
let ids: BranchIds;
const rowsPath = (): string => `/revision/${ids.draftRevisionId}/table/items/rows`;

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  ids = await organizationWithProject(admin, 'acme', 'limits');
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['rank'],
    properties: { rank: { type: 'number', default: 0 } },
  };
  assert.equal((await admin.rest('POST', `/revision/${ids.draftRevisionId}/tables`, { tableId: 'items', schema })).status, 201);
  const rows = Array.from({ length: 5 }, (_, i) => ({ rowId: `r${i}`, data: { rank: i } }));
  assert.equal((await admin.rest('POST', `${rowsPath()}/bulk`, { rows })).status, 201);
});
after(() => system.close());

const ofTypeChain = (levels: number): string => `{ __type(name: "Row") { ${'ofType { '.repeat(levels - 2)}name${' }'.repeat(levels - 2)} } }`;

/** A cursor of the same query (its hash kept) with other sort values. */
function forged(cursor: string, values: readonly unknown[]): string {
  const [hash] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string];
  return Buffer.from(JSON.stringify([hash, ...values])).toString('base64url');
}

describe('GraphQL and paging input limits', () => {
  test('the standard introspection query of GraphQL IDEs (depth 15) is answered', async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const data = gqlData(await admin.gql(query));
    assert.ok(data.__schema.types.length > 10);
    assert.ok(gqlData(await admin.gql(ofTypeChain(20))).__type);
  });

  test('introspection nested deeper than 20 is 400 QUERY_TOO_COMPLEX, also through fragments', async () => {
    for (const query of [
      ofTypeChain(21),
      ofTypeChain(28),
      `{ __schema { types { ...T } } } fragment T on __Type { ${'ofType { '.repeat(26)}name${' }'.repeat(26)} }`,
    ]) {
      const reply = await system.gql(query);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(reply.body.data, undefined);
      assert.equal(reply.body.errors[0].extensions.code, 'QUERY_TOO_COMPLEX');
      assert.match(reply.body.errors[0].message, /^Introspection depth \d+ exceeds the limit of 20$/);
    }
  });

  test('a cursor whose values do not fit the sort keys is 400 BAD_USER_INPUT on REST and GraphQL', async () => {
    const first = await admin.rest('GET', `${rowsPath()}?first=2`);
    assert.equal(first.status, 200);
    const cursor = first.body.pageInfo.endCursor as string;
    assert.equal((await admin.rest('GET', `${rowsPath()}?first=2&after=${cursor}`)).body.edges.length, 2);
    // Default order: createdAt (a timestamp), then the row id (a string).
    for (const values of [
      [42, 'r1'],
      ['not a time', 'r1'],
      ['2025-01-01T00:00:00.000Z', 7],
      [null, 'r1'],
    ]) {
      assertRestError(await admin.rest('GET', `${rowsPath()}?first=2&after=${forged(cursor, values)}`), 400, 'BAD_USER_INPUT');
      const after = forged(cursor, values);
      const reply = await admin.gql(
        `{ rows(data: { revisionId: "${ids.draftRevisionId}", tableId: "items", first: 2, after: "${after}" }) { totalCount } }`,
      );
      assertGqlError(reply, 'BAD_USER_INPUT', 400);
    }
    // Sorted by a number field: the cursor's value must be a number (or null for rows without one).
    const orderBy = encodeURIComponent(JSON.stringify([{ data: { path: 'rank', type: 'float' } }]));
    const byRank = await admin.rest('GET', `${rowsPath()}?first=2&orderBy=${orderBy}`);
    assert.deepEqual(
      byRank.body.edges.map((e: { node: { id: string } }) => e.node.id),
      ['r0', 'r1'],
    );
    const rankCursor = byRank.body.pageInfo.endCursor as string;
    const next = await admin.rest('GET', `${rowsPath()}?first=2&orderBy=${orderBy}&after=${forged(rankCursor, [3, 'r3'])}`);
    assert.deepEqual(
      next.body.edges.map((e: { node: { id: string } }) => e.node.id),
      ['r4'],
    );
    for (const values of [
      ['zzz', 'r1'],
      [true, 'r1'],
    ]) {
      assertRestError(await admin.rest('GET', `${rowsPath()}?first=2&orderBy=${orderBy}&after=${forged(rankCursor, values)}`), 400, 'BAD_USER_INPUT');
    }
  });

  test('20,000 unknown keys in a typed variable: 400 BAD_USER_INPUT, at most 100 details, a short body', async () => {
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    for (const query of [
      'query($d: GetRowsInput!) { rows(data: $d) { totalCount } }',
      'mutation($d: CreateRowInput!) { createRow(data: $d) { id } }',
    ]) {
      const reply = await admin.gql(query, { d: wide });
      assert.equal(reply.status, 400);
      const text = JSON.stringify(reply.body);
      assert.ok(text.length < 50_000, `${text.length} characters`);
      assert.ok(!text.includes('INTERNAL_SERVER_ERROR'), text.slice(0, 500));
      assert.equal(reply.body.data, undefined);
      assert.equal(reply.body.errors.length, 1);
      const [error] = reply.body.errors;
      assert.equal(error.extensions.code, 'BAD_USER_INPUT');
      assert.equal(error.extensions.details.length, 100);
      const messages = error.extensions.details.map((d: { path: string; message: string }) => `${d.path} ${d.message}`);
      assert.ok(messages.includes('/d Field "revisionId" of required type "ID!" was not provided.'), messages.join('\n'));
      assert.match(messages.at(-1), /^\/d Field "k\d+" is not defined by type "(GetRowsInput|CreateRowInput)"\.$/);
    }
  });
});
