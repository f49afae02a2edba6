// Integers, bounds, lengths and item counts (domain.md §5.1, §5.4, §6) and x-unique (§5.5) through every HTTP
// surface of a real server: system REST and GraphQL, generated GraphQL and REST, and MCP through the SDK client.
// A refused write changes nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ADMIN_PASSWORD, startGeneratedSystem, type GeneratedSystem } from './support/generatedHarness.ts';
import { data, gql, ok, projectWithTables } from './support/generatedFixtures.ts';
import type { Reply } from './support/systemHarness.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

const itemsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['sku', 'qty', 'big', 'price', 'tags'],
  properties: {
    sku: { type: 'string', default: '', maxLength: 8, 'x-unique': true },
    qty: { type: 'integer', default: 0, minimum: 0, maximum: 100, 'x-index': true },
    big: { type: 'integer', default: 0 },
    price: { type: 'number', default: 0, minimum: 0 },
    tags: { type: 'array', items: { type: 'string', default: '' }, maxItems: 2 },
  },
};
const item = (sku: string, qty = 1, extra: Record<string, unknown> = {}) => ({ sku, qty, big: 2 ** 40, price: 1.5, tags: [], ...extra });

let sys: GeneratedSystem;
let admin = '';
let draft = '';
let mcp: Client;
const T = () => `/revision/${draft}/table/items`;
const draftGql = '/endpoint/graphql/acme/shop/master/draft';
const draftRest = '/endpoint/rest/acme/shop/master/draft';

function refused(reply: Reply, status: number, code: string): Json {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.body.code, code, JSON.stringify(reply.body));
  return reply.body;
}

async function mcpTool(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Json }> {
  const result = (await mcp.callTool({ name, arguments: { organizationId: 'acme', projectName: 'shop', branchName: 'master', ...args } })) as {
    isError?: boolean;
    structuredContent?: Json;
  };
  return { isError: result.isError === true, body: result.structuredContent };
}

/** The table's rows as rowId -> sku, to prove refused writes changed nothing. */
async function skus(): Promise<Record<string, string>> {
  const page = ok(await sys.api(admin, 'GET', `${T()}/rows?first=100`)).body;
  return Object.fromEntries(page.edges.map((edge: Json) => [edge.node.id, edge.node.data.sku]));
}

before(async () => {
  sys = await startGeneratedSystem();
  admin = await sys.login('admin', ADMIN_PASSWORD);
  draft = await projectWithTables(sys, admin, 'acme', 'shop', [['items', itemsSchema]]);
  ok(
    await sys.api(admin, 'POST', `${T()}/rows/bulk`, {
      rows: [
        { rowId: 'i1', data: item('A-100', 1) },
        { rowId: 'i2', data: item('B-200', 2) },
      ],
    }),
    201,
  );
  mcp = new Client({ name: 'strata-e2e', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sys.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${admin}` } } }));
});
after(async () => {
  await mcp?.close().catch(() => undefined);
  await sys?.close();
});

describe('integer and bounds', () => {
  test('system REST: each violation is 400 INVALID_DATA naming its path and keyword; valid integers are stored as sent', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ qty: 2.5 }, '/qty', 'type'],
      [{ qty: -1 }, '/qty', 'minimum'],
      [{ qty: 101 }, '/qty', 'maximum'],
      [{ big: 2 ** 53 }, '/big', 'maximum'],
      [{ price: -0.5 }, '/price', 'minimum'],
      [{ sku: 'ÄÖÜÄÖÜÄÖÜ' }, '/sku', 'maxLength'],
      [{ tags: ['a', 'b', 'c'] }, '/tags', 'maxItems'],
    ];
    for (const [change, path, keyword] of cases) {
      const body = refused(await sys.api(admin, 'POST', `${T()}/rows`, { rowId: 'bad', data: item('X', 1, change) }), 400, 'INVALID_DATA');
      assert.deepEqual(
        body.details.map((d: Json) => [d.path, d.keyword]),
        [[path, keyword]],
        JSON.stringify(change),
      );
    }
    // Eight code points, 16 UTF-16 units: within maxLength 8.
    const created = ok(
      await sys.api(admin, 'POST', `${T()}/rows`, { rowId: 'i3', data: item('😀😀😀😀😀😀😀😀', 100, { big: -(2 ** 53 - 1) }) }),
      201,
    ).body;
    assert.deepEqual([created.data.qty, created.data.big], [100, -(2 ** 53 - 1)]);
    assert.equal((await sys.api(admin, 'GET', `${T()}/row/bad`)).status, 404);
  });

  test('system GraphQL refuses a fraction for an integer with INVALID_DATA', async () => {
    const reply = await sys.call('POST', '/graphql', {
      token: admin,
      body: {
        query: `mutation($d: JSON!) { createRow(data: {revisionId: "${draft}", tableId: "items", rowId: "g1", data: $d}) { id } }`,
        variables: { d: item('G', 0.5) },
      },
    });
    assert.equal(reply.body.errors?.[0]?.extensions?.code, 'INVALID_DATA', JSON.stringify(reply.body));
  });

  test('generated GraphQL: Int for an integer with 32-bit bounds, Float without bounds; values round-trip', async () => {
    const type = data(await gql(sys, draftGql, '{ __type(name: "ShopItem") { fields { name type { ofType { name } } } } }', admin)).__type;
    const types = Object.fromEntries(type.fields.map((f: Json) => [f.name, f.type.ofType?.name]));
    assert.deepEqual([types.qty, types.big, types.price], ['Int', 'Float', 'Float']);
    const created = data(
      await gql(sys, draftGql, 'mutation($d: ShopCreateItemInput!) { createItem(data: $d) { data { qty big } } }', admin, {
        d: { id: 'g2', data: item('G-2', 7) },
      }),
    ).createItem;
    assert.deepEqual(created.data, { qty: 7, big: 2 ** 40 });
    const bad = await gql(sys, draftGql, 'mutation($d: ShopCreateItemInput!) { createItem(data: $d) { id } }', admin, {
      d: { id: 'g3', data: item('G-3', 1000) },
    });
    assert.equal(bad.body.errors?.[0]?.extensions?.code, 'INVALID_DATA');
  });

  test('generated OpenAPI: integer with its bounds, lengths, items and the unique/index keywords', async () => {
    const document = ok(await sys.call('GET', `${draftRest}/openapi.json`, { token: admin })).body;
    const properties = document.components.schemas.ShopItem.properties;
    assert.deepEqual([properties.qty.type, properties.qty.minimum, properties.qty.maximum, properties.qty['x-index']], ['integer', 0, 100, true]);
    assert.equal(properties.big.type, 'integer');
    assert.deepEqual([properties.sku.maxLength, properties.sku['x-unique']], [8, true]);
    assert.match(properties.sku.description, /Unique/);
    assert.equal(properties.tags.maxItems, 2);
  });

  test('MCP: an integer out of bounds is INVALID_DATA; a valid one is created', async () => {
    const bad = await mcpTool('create_row', { tableId: 'items', rowId: 'm1', data: item('M-1', -3) });
    assert.equal(bad.isError, true);
    assert.equal(bad.body.code, 'INVALID_DATA');
    assert.equal(bad.body.details[0].keyword, 'minimum');
    const good = await mcpTool('create_row', { tableId: 'items', rowId: 'm1', data: item('M-1', 3) });
    assert.equal(good.isError, false, JSON.stringify(good.body));
  });

  test('dry run: number -> integer counts truncated fractions as lossy', async () => {
    const patches = [{ op: 'replace', path: '/properties/price', value: { type: 'integer', default: 0, minimum: 0, maximum: 1 } }];
    const reply = ok(await sys.api(admin, 'PATCH', `${T()}?dryRun=true`, { patches })).body;
    // Every row holds 1.5: truncated to 1 (a loss), within the bounds.
    assert.equal(reply.migration.rowsLossy, reply.count);
    assert.deepEqual(reply.migration.lossySample[0].before, 1.5);
    assert.deepEqual(reply.migration.lossySample[0].after, 1);
  });
});

describe('x-index and x-unique fields are read through their view index (SQLite plan)', () => {
  /** The plan of the last row list the generated endpoint ran. */
  async function lastListPlan(): Promise<string> {
    const find = sys.finds.filter((f) => f.collection === 'rows' && f.query.orderBy !== undefined).at(-1);
    assert.ok(find, 'a row list ran');
    return (await sys.explain(find)).join(' | ');
  }
  const list = 'query($d: ShopGetItemsInput) { items(data: $d) { totalCount edges { node { id data { qty } } } } }';

  test('equality on a unique field, and a range with an order on an indexed field', async () => {
    sys.resetFinds();
    const bySku = data(
      await gql(sys, draftGql, list, admin, { d: { where: { data: { path: 'sku', equals: 'B-200' } }, orderBy: [{ id: 'asc' }] } }),
    ).items;
    assert.equal(bySku.totalCount, 1);
    const skuPlan = await lastListPlan();
    assert.match(skuPlan, /SEARCH \S+ USING (COVERING )?INDEX \S+__sort_[0-9a-f]{16} \(branchId=\? AND tableKey=\? AND <expr>=\?\)/, skuPlan);

    sys.resetFinds();
    const orderBy = [{ data: { path: 'qty', direction: 'asc', type: 'float' } }];
    const byQty = data(await gql(sys, draftGql, list, admin, { d: { first: 3, where: { data: { path: 'qty', gte: 2 } }, orderBy } })).items;
    const qtys = byQty.edges.map((edge: Json) => edge.node.data.qty);
    assert.deepEqual(
      qtys,
      [...qtys].sort((a: number, b: number) => a - b),
    );
    assert.ok(qtys.every((q: number) => q >= 2));
    const qtyPlan = await lastListPlan();
    assert.match(qtyPlan, /INDEX \S+__sort_[0-9a-f]{16} \(branchId=\? AND tableKey=\? AND <expr>>\?\)/, qtyPlan);
    assert.ok(!qtyPlan.includes('TEMP B-TREE'), `the order comes from the index: ${qtyPlan}`);
  });

  test('the system API row list ensures the indexes of a table it reads first', async () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['code'],
      properties: { code: { type: 'string', default: '', 'x-index': true } },
    };
    ok(await sys.api(admin, 'POST', `/revision/${draft}/tables`, { tableId: 'parts', schema }), 201);
    ok(
      await sys.api(admin, 'POST', `/revision/${draft}/table/parts/rows/bulk`, {
        rows: [1, 2, 3].map((i) => ({ rowId: `p${i}`, data: { code: `P-${i}` } })),
      }),
      201,
    );
    sys.resetFinds();
    const where = encodeURIComponent(JSON.stringify({ data: { path: 'code', equals: 'P-2' } }));
    const page = ok(await sys.api(admin, 'GET', `/revision/${draft}/table/parts/rows?where=${where}`)).body;
    assert.deepEqual(
      page.edges.map((edge: Json) => edge.node.id),
      ['p2'],
    );
    const plan = await lastListPlan();
    assert.match(plan, /INDEX \S+__sort_[0-9a-f]{16} \(branchId=\? AND tableKey=\? AND <expr>=\?\)/, plan);
  });
});

describe('x-unique on every write path (409 UNIQUE_VIOLATION, nothing changes)', () => {
  test('system REST: single, bulk, replace, patch and rename', async () => {
    const before = await skus();
    const single = refused(await sys.api(admin, 'POST', `${T()}/rows`, { rowId: 'u1', data: item('A-100') }), 409, 'UNIQUE_VIOLATION');
    assert.equal(single.message, 'Another row ("i1") already has "/sku" = "A-100" in table "items" (row "u1")');
    assert.deepEqual(single.details, [
      { path: '/sku', message: 'Another row ("i1") already has "/sku" = "A-100"', rowId: 'u1', otherRowId: 'i1', value: 'A-100' },
    ]);
    const bulk = refused(
      await sys.api(admin, 'POST', `${T()}/rows/bulk`, {
        rows: [
          { rowId: 'u1', data: item('NEW') },
          { rowId: 'u2', data: item('NEW') },
        ],
      }),
      409,
      'UNIQUE_VIOLATION',
    );
    assert.deepEqual(
      bulk.details.map((d: Json) => [d.rowId, d.otherRowId, d.index]),
      [['u2', 'u1', 1]],
    );
    refused(await sys.api(admin, 'PUT', `${T()}/row/i2`, { data: item('A-100', 2) }), 409, 'UNIQUE_VIOLATION');
    refused(await sys.api(admin, 'PUT', `${T()}/rows/bulk`, { rows: [{ rowId: 'i2', data: item('A-100', 2) }] }), 409, 'UNIQUE_VIOLATION');
    refused(await sys.api(admin, 'PATCH', `${T()}/row/i2`, { patches: [{ op: 'replace', path: '/sku', value: 'A-100' }] }), 409, 'UNIQUE_VIOLATION');
    refused(
      await sys.api(admin, 'PATCH', `${T()}/rows/bulk`, { rows: [{ rowId: 'i2', patches: [{ op: 'replace', path: '/sku', value: 'A-100' }] }] }),
      409,
      'UNIQUE_VIOLATION',
    );
    assert.deepEqual(await skus(), before);

    // A swap in one bulk replace is allowed; "" is never a clash.
    const swap = [
      { rowId: 'i1', data: item('B-200', 1) },
      { rowId: 'i2', data: item('A-100', 2) },
    ];
    ok(await sys.api(admin, 'PUT', `${T()}/rows/bulk`, { rows: swap }));
    ok(
      await sys.api(admin, 'POST', `${T()}/rows/bulk`, {
        rows: [
          { rowId: 'e1', data: item('') },
          { rowId: 'e2', data: item('') },
        ],
      }),
      201,
    );

    // A renamed row keeps holding its value, under its new id.
    ok(await sys.api(admin, 'POST', `${T()}/row/i1/rename`, { nextRowId: 'i9' }));
    const afterRename = refused(await sys.api(admin, 'POST', `${T()}/rows`, { rowId: 'i1', data: item('B-200') }), 409, 'UNIQUE_VIOLATION');
    assert.equal(afterRename.details[0].otherRowId, 'i9');
  });

  test('schema change: x-unique over repeated values is refused, in the dry run too', async () => {
    ok(await sys.api(admin, 'PATCH', `${T()}/row/e1`, { patches: [{ op: 'replace', path: '/tags', value: ['t'] }] }));
    const patches = [
      { op: 'add', path: '/properties/code', value: { type: 'string', default: 'same' } },
      { op: 'add', path: '/properties/code/x-unique', value: true },
    ];
    const schemaBefore = ok(await sys.api(admin, 'GET', T())).body.schema;
    for (const path of [`${T()}?dryRun=true`, T()]) {
      const body = refused(await sys.api(admin, 'PATCH', path, { patches }), 409, 'UNIQUE_VIOLATION');
      assert.ok(body.details.length >= 2);
      assert.ok(body.details.every((d: Json) => d.path === '/code' && d.value === 'same'));
    }
    assert.deepEqual(ok(await sys.api(admin, 'GET', T())).body.schema, schemaBefore);
  });

  test('generated GraphQL and REST, system GraphQL and MCP answer the same code', async () => {
    const gqlReply = await gql(sys, draftGql, 'mutation($d: ShopCreateItemInput!) { createItem(data: $d) { id } }', admin, {
      d: { id: 'x1', data: item('A-100') },
    });
    assert.equal(gqlReply.body.errors?.[0]?.extensions?.code, 'UNIQUE_VIOLATION', JSON.stringify(gqlReply.body));
    assert.equal(gqlReply.body.errors?.[0]?.extensions?.statusCode, 409);
    refused(
      await sys.call('POST', `${draftRest}/tables/items/rows`, { body: { id: 'x1', data: item('A-100') }, token: admin }),
      409,
      'UNIQUE_VIOLATION',
    );
    const system = await sys.call('POST', '/graphql', {
      token: admin,
      body: {
        query: `mutation($d: JSON!) { createRow(data: {revisionId: "${draft}", tableId: "items", rowId: "x1", data: $d}) { id } }`,
        variables: { d: item('A-100') },
      },
    });
    assert.equal(system.body.errors?.[0]?.extensions?.code, 'UNIQUE_VIOLATION');
    const viaMcp = await mcpTool('update_row', { tableId: 'items', rowId: 'm1', data: item('A-100') });
    assert.equal(viaMcp.isError, true);
    assert.equal(viaMcp.body.code, 'UNIQUE_VIOLATION');
    assert.equal((await sys.api(admin, 'GET', `${T()}/row/x1`)).status, 404);
  });
});
