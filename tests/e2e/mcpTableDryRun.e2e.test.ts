// MCP `update_table` with `dryRun: true` (mcp.md §5, domain.md §6 rule 6) through the SDK's own Client and
// StreamableHTTPClientTransport against a real `strata serve`: it answers exactly what REST `PATCH …?dryRun=true`
// answers (the lossy members included), fails like it, and appends nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { strataApi } from '../support/strataApi.ts';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const PASSWORD = 'mcp-dry-run-admin-password';
let dir = '';
let strata: StrataProcess;
let token = '';
let client: Client;
let draft = '';
const target = { organizationId: 'acme', projectName: 'shop', branchName: '$default' };

const { call: rest, ok } = strataApi(
  () => strata.url,
  () => token,
);

async function updateTable(args: Record<string, unknown>): Promise<{ isError: boolean; body: Json }> {
  const result = (await client.callTool({ name: 'update_table', arguments: { ...target, tableId: 'items', ...args } })) as {
    isError?: boolean;
    structuredContent?: Json;
    content?: { type: string; text: string }[];
  };
  assert.deepEqual(JSON.parse(result.content?.[0]?.text ?? 'null'), result.structuredContent);
  return { isError: result.isError === true, body: result.structuredContent };
}

/** The log head as the operator API reports it: unchanged means nothing was appended. */
const logHead = async (): Promise<string | null> => (await ok('GET', '/projections'))[0].head;

/** The dry run's table carries the time of its run as `updatedAt`; everything else must be equal. */
function withoutRunTime(body: Json): Json {
  const { updatedAt, ...rest } = body;
  assert.match(updatedAt, /^\d{4}-\d\d-\d\dT/);
  return rest;
}

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'price', 'tags', 'size'],
  properties: {
    name: { type: 'string', default: '' },
    price: { type: 'string', default: '' },
    tags: { type: 'array', items: { type: 'string', default: '' } },
    size: { type: 'object', additionalProperties: false, required: ['w'], properties: { w: { type: 'number', default: 0 } } },
  },
};
const rows = [
  { rowId: 'i1', data: { name: 'Lamp', price: '12.5', tags: ['home'], size: { w: 2 } } },
  { rowId: 'i2', data: { name: 'Desk', price: 'cheap', tags: ['home', 'office'], size: { w: 9 } } },
  { rowId: 'i3', data: { name: 'Pen', price: '1', tags: [], size: { w: 0 } } },
];
const lossy = [
  { op: 'replace', path: '/properties/price', value: { type: 'number', default: 0 } },
  { op: 'replace', path: '/properties/tags', value: { type: 'string', default: '' } },
  { op: 'replace', path: '/properties/size', value: { type: 'boolean', default: false } },
];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-mcp-dry-run-'));
  strata = await startStrataProcess({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD, JWT_SECRET: 'mcp-dry-run-secret-that-is-at-least-32-bytes' });
  token = (await ok('POST', '/auth/login', { username: 'admin', password: PASSWORD })).accessToken;
  await ok('POST', '/organizations', { organizationId: 'acme' }, 201);
  await ok('POST', '/organization/acme/projects', { projectName: 'shop' }, 201);
  draft = (await ok('GET', '/organization/acme/project/shop/branch/master')).draftRevisionId;
  await ok('POST', `/revision/${draft}/tables`, { tableId: 'items', schema }, 201);
  await ok('POST', `/revision/${draft}/table/items/rows/bulk`, { rows }, 201);
  client = new Client({ name: 'strata-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${strata.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
});
after(async () => {
  await client?.close().catch(() => undefined);
  await strata?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('MCP update_table dryRun', () => {
  test('tools/list offers dryRun as an optional boolean of update_table', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'update_table');
    assert.equal((tool?.inputSchema.properties?.dryRun as { type?: string } | undefined)?.type, 'boolean');
    assert.deepEqual(tool?.inputSchema.required, ['tableId', 'patches']);
  });

  test('answers what REST ?dryRun=true answers, lossy members included, and appends nothing', async () => {
    const head = await logHead();
    const before = await ok('GET', `/revision/${draft}/table/items`);
    const viaRest = await ok('PATCH', `/revision/${draft}/table/items?dryRun=true`, { patches: lossy });
    const viaMcp = await updateTable({ patches: lossy, dryRun: true });
    assert.equal(viaMcp.isError, false, JSON.stringify(viaMcp.body));
    assert.deepEqual(withoutRunTime(viaMcp.body), withoutRunTime(viaRest));
    assert.deepEqual(viaMcp.body.migration, {
      rowsChanged: 3,
      rowsUnchanged: 0,
      rowsLossy: 3,
      sample: rows.map((row, i) => ({ rowId: row.rowId, before: row.data, after: viaRest.migration.sample[i].after })),
      lossySample: [
        { rowId: 'i1', path: '/size', before: { w: 2 }, after: false },
        { rowId: 'i2', path: '/price', before: 'cheap', after: 0 },
        { rowId: 'i3', path: '/size', before: { w: 0 }, after: false },
      ],
    });
    assert.deepEqual(viaMcp.body.migration.sample[1].after, { name: 'Desk', price: 0, tags: 'home', size: false });
    // The same revision, by revisionId instead of the branch form.
    const byRevision = await client.callTool({
      name: 'update_table',
      arguments: { revisionId: draft, tableId: 'items', patches: lossy, dryRun: true },
    });
    assert.deepEqual(withoutRunTime(byRevision.structuredContent), withoutRunTime(viaRest));
    assert.equal(await logHead(), head);
    assert.deepEqual(await ok('GET', `/revision/${draft}/table/items`), before);
    assert.deepEqual((await ok('GET', `/revision/${draft}/table/items/row/i2`)).data, rows[1]?.data);
  });

  test('fails exactly like the REST dry run: the same code, message and details', async () => {
    const head = await logHead();
    const cases: unknown[][] = [
      [{ op: 'test', path: '/properties/name', value: {} }],
      [{ op: 'replace', path: '/properties/name', value: { type: 'strin' } }],
      [{ op: 'add', path: '/properties/name/pattern', value: '^L' }],
    ];
    for (const patches of cases) {
      const viaRest = await rest('PATCH', `/revision/${draft}/table/items?dryRun=true`, { patches });
      const viaMcp = await updateTable({ patches, dryRun: true });
      assert.equal(viaMcp.isError, true);
      const { statusCode, ...body } = viaRest.body;
      assert.equal(statusCode, 400);
      assert.deepEqual(viaMcp.body, body);
    }
    assert.equal(await logHead(), head);
  });

  test('dryRun false (or absent) is a real run that appends', async () => {
    const head = await logHead();
    const real = await updateTable({ patches: lossy, dryRun: false });
    assert.equal(real.isError, false, JSON.stringify(real.body));
    assert.equal(real.body.migration, undefined);
    assert.notEqual(await logHead(), head);
    assert.deepEqual((await ok('GET', `/revision/${draft}/table/items/row/i2`)).data, { name: 'Desk', price: 0, tags: 'home', size: false });
  });
});
