// operations.md §7, errors.md: no input produces a 500. A generated corpus of deep and wide payloads is thrown at
// every surface of a real `strata serve` (system REST and GraphQL, generated REST and GraphQL of a public project,
// anonymous and authenticated, MCP): each answer must be a 4xx (or a GraphQL/MCP answer whose errors are all 4xx),
// with at most 100 details per error and no internal error anywhere.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

const ADMIN_PASSWORD = 'deep-admin-password';
let dir = '';
let server: StrataProcess;
let token = '';
let draft = '';

const deepArray = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const deepMixed = (n: number): string => `${'[{"a":'.repeat(n)}1${'}]'.repeat(n)}`;
const wideObject = (n: number): string => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
const wideArray = (n: number): string => `[${'0,'.repeat(n - 1)}0]`;
const deepWhere = (n: number): string => `${'{"AND":['.repeat(n)}{"id":{"equals":"x"}}${']}'.repeat(n)}`;
const deepNot = (n: number): string => `${'{"NOT":'.repeat(n)}{}${'}'.repeat(n)}`;
const wideWhere = (n: number): string => `{"AND":[${Array.from({ length: n }, () => '{"id":{"equals":"x"}}').join(',')}]}`;
const deepSchema = (n: number): string =>
  `${'{"type":"object","additionalProperties":false,"required":["a"],"properties":{"a":'.repeat(n)}{"type":"string","default":""}${'}}'.repeat(n)}`;
/** A GraphQL literal (not JSON) nested `n` levels. */
const deepLiteral = (n: number): string => `${'{a:'.repeat(n)}1${'}'.repeat(n)}`;
const deepListLiteral = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepSelection = (n: number): string => `{${' a {'.repeat(n)} b ${'}'.repeat(n)}}`;

const DEEP_VALUES = [65, 1_000, 50_000].flatMap((n) => [deepArray(n), deepObject(n), deepMixed(n)]);
const WIDE_VALUES = [wideObject(20_000), wideArray(200_000)];
const WHERES = [deepWhere(11), deepNot(11), deepWhere(40), deepWhere(2_000), deepNot(5_000), wideWhere(2_000)];
const SCHEMAS = [deepSchema(17), deepSchema(40), deepSchema(1_000)];
/** `where` values that fit in a URL (node answers 431 to a request line over 16 KiB). */
const URL_WHERES = [deepWhere(11), deepNot(11), deepWhere(40), deepNot(500), deepArray(2_000), wideWhere(150)];

type Case = {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  /** A wide but valid payload (unused variables): it may succeed, as long as it is not a 5xx. */
  readonly mayPass?: true;
};
type Answer = { readonly status: number; readonly text: string };

async function send(c: Case): Promise<Answer> {
  const res = await fetch(`${server.url}${c.path}`, {
    method: c.method,
    headers: { ...(c.body === undefined ? {} : { 'content-type': 'application/json' }), ...c.headers },
    ...(c.body === undefined ? {} : { body: c.body }),
    // Generous: the first list query of a generated schema compiles for tens of seconds on a loaded machine.
    signal: AbortSignal.timeout(150_000),
  });
  return { status: res.status, text: await res.text() };
}

const auth = (): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Why an answer breaks the rule, or undefined when it keeps it. */
function violation(answer: Answer, mayPass: boolean): string | undefined {
  if (answer.text.length > 1_000_000) return `a ${answer.text.length}-character body`;
  if (answer.text.includes('INTERNAL_SERVER_ERROR') || answer.text.includes('-32603')) return 'an internal error';
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'a body that is not JSON';
  }
  const details = [body?.details, ...(body?.errors ?? []).map((e: any) => e?.extensions?.details)]; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (details.some((d) => Array.isArray(d) && d.length > 100)) return 'more than 100 details in one error';
  if (answer.status >= 400 && answer.status < 500) return undefined;
  if (answer.status !== 200) return `HTTP ${answer.status}`;
  // GraphQL resolver-level failures and MCP tool errors are HTTP 200 (errors.md §3.2, mcp.md).
  if (Array.isArray(body?.errors) && body.errors.length > 0) {
    return body.errors.every((e: any) => e?.extensions?.statusCode >= 400 && e.extensions.statusCode < 500) // eslint-disable-line @typescript-eslint/no-explicit-any
      ? undefined
      : 'a GraphQL error that is not a 4xx';
  }
  if (body?.jsonrpc === '2.0' && (body.error !== undefined || body.result?.isError === true)) return undefined;
  return mayPass ? undefined : 'a success';
}

async function expectOnly4xx(cases: readonly Case[]): Promise<void> {
  const failures: string[] = [];
  for (const c of cases) {
    let answer: Answer;
    try {
      answer = await send(c);
    } catch (err) {
      failures.push(`${c.name}: no answer (${String(err)})`);
      continue;
    }
    const why = violation(answer, c.mayPass === true);
    if (why !== undefined) failures.push(`${c.name}: ${why} (HTTP ${answer.status}) ${answer.text.slice(0, 200)}`);
  }
  assert.deepEqual(failures, []);
}

const sizeOf = (text: string): string => (text.length > 60 ? `${text.slice(0, 24)}…(${text.length} chars)` : text);
const gqlBody = (query: string, variables?: string): string =>
  `{"query":${JSON.stringify(query)}${variables === undefined ? '' : `,"variables":${variables}`}}`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-deep-'));
  server = await startStrataProcess({ DATA_DIR: join(dir, 'data'), ADMIN_PASSWORD });
  const login = await send({
    name: 'login',
    method: 'POST',
    path: '/api/auth/login',
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  token = (JSON.parse(login.text) as { accessToken: string }).accessToken;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const call = async (method: string, path: string, body: unknown): Promise<any> => {
    const answer = await send({ name: path, method, path: `/api${path}`, body: JSON.stringify(body), headers: auth() });
    assert.ok(answer.status < 300, `${path}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text);
  };
  await call('POST', '/organization/admin/projects', { projectName: 'pub', isPublic: true });
  draft = (await call('GET', '/organization/admin/project/pub/branch/master', undefined)).draftRevisionId;
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'tags', 'meta'],
    properties: {
      name: { type: 'string', default: '' },
      tags: { type: 'array', items: { type: 'string', default: '' } },
      meta: { type: 'object', additionalProperties: false, required: [], properties: {} },
    },
  };
  await call('POST', `/revision/${draft}/tables`, { tableId: 'items', schema });
  await call('POST', `/revision/${draft}/table/items/rows`, { rowId: 'seed', data: { name: 'x', tags: [], meta: {} } });
  for (const type of ['GRAPHQL', 'REST_API']) await call('POST', `/revision/${draft}/endpoints`, { type });
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('deep and wide payloads are answered with 4xx on every surface', () => {
  test('system REST', async () => {
    const T = `/api/revision/${draft}/table/items`;
    const cases: Case[] = [];
    for (const value of [...DEEP_VALUES, ...WIDE_VALUES]) {
      const v = sizeOf(value);
      cases.push(
        { name: `body ${v}`, method: 'POST', path: `${T}/rows`, body: value, headers: auth() },
        { name: `row data ${v}`, method: 'POST', path: `${T}/rows`, body: `{"rowId":"r1","data":${value}}`, headers: auth() },
        {
          name: `row data in meta ${v}`,
          method: 'PUT',
          path: `${T}/row/seed`,
          body: `{"data":{"name":"x","tags":[],"meta":${value}}}`,
          headers: auth(),
        },
        {
          name: `patch value ${v}`,
          method: 'PATCH',
          path: `${T}/row/seed`,
          body: `{"patches":[{"op":"replace","path":"/meta","value":${value}}]}`,
          headers: auth(),
        },
        { name: `anonymous body ${v}`, method: 'POST', path: '/api/auth/login', body: value },
      );
    }
    for (const where of WHERES) {
      cases.push({ name: `where body ${sizeOf(where)}`, method: 'POST', path: `${T}/rows/query`, body: `{"where":${where}}`, headers: auth() });
    }
    for (const where of URL_WHERES) {
      cases.push({ name: `where query ${sizeOf(where)}`, method: 'GET', path: `${T}/rows?where=${encodeURIComponent(where)}`, headers: auth() });
    }
    const cursor = (values: string): string => Buffer.from(values).toString('base64url');
    for (const after of [cursor(deepArray(1_000)), cursor('["x",{"a":1}]'), cursor('[]'), 'not a cursor']) {
      cases.push({ name: `cursor ${after.slice(0, 20)}`, method: 'GET', path: `${T}/rows?after=${after}`, headers: auth() });
    }
    for (const schema of SCHEMAS) {
      cases.push(
        {
          name: `schema ${sizeOf(schema)}`,
          method: 'POST',
          path: `/api/revision/${draft}/tables`,
          body: `{"tableId":"deep","schema":${schema}}`,
          headers: auth(),
        },
        {
          name: `schema patch ${sizeOf(schema)}`,
          method: 'PATCH',
          path: T,
          body: `{"patches":[{"op":"replace","path":"/properties/meta","value":${schema}}]}`,
          headers: auth(),
        },
      );
    }
    const bulk = `{"rows":[${Array.from({ length: 1_001 }, (_, i) => `{"rowId":"b${i}","data":{}}`).join(',')}]}`;
    cases.push({ name: 'bulk of 1001 invalid rows', method: 'POST', path: `${T}/rows/bulk`, body: bulk, headers: auth() });
    const invalidRows = `{"rows":[${Array.from({ length: 1_000 }, (_, i) => `{"rowId":"b${i}","data":{"x":1}}`).join(',')}]}`;
    cases.push({ name: 'bulk of 1000 invalid rows', method: 'POST', path: `${T}/rows/bulk`, body: invalidRows, headers: auth() });
    await expectOnly4xx(cases);
  });

  test('system GraphQL', async () => {
    const cases: Case[] = [];
    const createRow = `mutation($d: JSON!) { createRow(data: { revisionId: "${draft}", tableId: "items", rowId: "g1", data: $d }) { id } }`;
    const rows = `query($w: RowWhereInput) { rows(data: { revisionId: "${draft}", tableId: "items", where: $w }) { totalCount } }`;
    const createTable = `mutation($s: JSON!) { createTable(data: { revisionId: "${draft}", tableId: "deep", schema: $s }) { id } }`;
    for (const value of [...DEEP_VALUES, ...WIDE_VALUES]) {
      const v = sizeOf(value);
      cases.push(
        { name: `createRow data ${v}`, method: 'POST', path: '/graphql', body: gqlBody(createRow, `{"d":${value}}`), headers: auth() },
        { name: `variables ${v}`, method: 'POST', path: '/graphql', body: gqlBody('{ me { id } }', value), headers: auth(), mayPass: true },
        { name: `anonymous variables ${v}`, method: 'POST', path: '/graphql', body: gqlBody('{ me { id } }', value), mayPass: true },
        {
          name: `typed rows input ${v}`,
          method: 'POST',
          path: '/graphql',
          body: gqlBody('query($d: GetRowsInput!) { rows(data: $d) { totalCount } }', `{"d":${value}}`),
          headers: auth(),
        },
        {
          name: `typed createRow input ${v}`,
          method: 'POST',
          path: '/graphql',
          body: gqlBody('mutation($d: CreateRowInput!) { createRow(data: $d) { id } }', `{"d":${value}}`),
          headers: auth(),
        },
      );
    }
    cases.push({
      name: 'GET variables deep',
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('{ me { id } }')}&variables=${encodeURIComponent(deepArray(2_000))}`,
    });
    for (const where of WHERES)
      cases.push({ name: `where ${sizeOf(where)}`, method: 'POST', path: '/graphql', body: gqlBody(rows, `{"w":${where}}`), headers: auth() });
    for (const schema of SCHEMAS)
      cases.push({
        name: `schema ${sizeOf(schema)}`,
        method: 'POST',
        path: '/graphql',
        body: gqlBody(createTable, `{"s":${schema}}`),
        headers: auth(),
      });
    for (const n of [65, 2_500, 20_000]) {
      const literal = `mutation { createRow(data: { revisionId: "${draft}", tableId: "items", rowId: "g2", data: ${deepLiteral(n)} }) { id } }`;
      cases.push(
        { name: `literal ${n}`, method: 'POST', path: '/graphql', body: gqlBody(literal), headers: auth() },
        { name: `list literal ${n}`, method: 'POST', path: '/graphql', body: gqlBody(`{ me(x: ${deepListLiteral(n)}) { id } }`) },
        { name: `selection ${n}`, method: 'POST', path: '/graphql', body: gqlBody(deepSelection(n)) },
      );
    }
    await expectOnly4xx(cases);
  });

  test('generated GraphQL and REST of a public project, anonymous and authenticated', async () => {
    const gqlUrl = '/endpoint/graphql/admin/pub/master/draft';
    const restUrl = '/endpoint/rest/admin/pub/master/draft/tables/items';
    const cases: Case[] = [];
    const create = 'mutation($d: JSON!) { createItem(data: { id: "g1", data: $d }) { id } }';
    // One query text for every typed list input: graphql-jit compiles each text once, slowly for recursive input types.
    const list = 'query($d: PubGetItemsInput) { items(data: $d) { totalCount } }';
    for (const headers of [{}, auth()]) {
      const who = Object.keys(headers).length === 0 ? 'anonymous' : 'admin';
      for (const value of [...DEEP_VALUES, ...WIDE_VALUES]) {
        const v = sizeOf(value);
        cases.push(
          {
            name: `${who} GraphQL variables ${v}`,
            method: 'POST',
            path: gqlUrl,
            body: gqlBody('{ items { totalCount } }', value),
            headers,
            mayPass: true,
          },
          { name: `${who} GraphQL typed input ${v}`, method: 'POST', path: gqlUrl, body: gqlBody(list, `{"d":${value}}`), headers },
          { name: `${who} GraphQL create ${v}`, method: 'POST', path: gqlUrl, body: gqlBody(create, `{"d":${value}}`), headers },
          { name: `${who} REST create ${v}`, method: 'POST', path: `${restUrl}/rows`, body: `{"id":"r1","data":${value}}`, headers },
          {
            name: `${who} REST patch ${v}`,
            method: 'PATCH',
            path: `${restUrl}/rows/seed`,
            body: `{"patches":[{"op":"add","path":"/meta","value":${value}}]}`,
            headers,
          },
        );
      }
      for (const where of WHERES) {
        cases.push(
          { name: `${who} GraphQL where ${sizeOf(where)}`, method: 'POST', path: gqlUrl, body: gqlBody(list, `{"d":{"where":${where}}}`), headers },
          { name: `${who} REST query ${sizeOf(where)}`, method: 'POST', path: `${restUrl}/rows/query`, body: `{"where":${where}}`, headers },
        );
      }
      for (const where of URL_WHERES) {
        cases.push({
          name: `${who} REST where ${sizeOf(where)}`,
          method: 'GET',
          path: `${restUrl}/rows?where=${encodeURIComponent(where)}`,
          headers,
        });
      }
      for (const n of [65, 2_500, 20_000]) {
        cases.push(
          { name: `${who} selection ${n}`, method: 'POST', path: gqlUrl, body: gqlBody(deepSelection(n)), headers },
          { name: `${who} list literal ${n}`, method: 'POST', path: gqlUrl, body: gqlBody(`{ item(id: ${deepListLiteral(n)}) { id } }`), headers },
        );
      }
      cases.push({
        name: `${who} GET variables deep`,
        method: 'GET',
        path: `${gqlUrl}?query=${encodeURIComponent('{ items { totalCount } }')}&variables=${encodeURIComponent(deepArray(2_000))}`,
        headers,
      });
    }
    await expectOnly4xx(cases);
  });

  test('MCP', async () => {
    const mcpHeaders = { accept: 'application/json, text/event-stream', ...auth() };
    const init = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...mcpHeaders },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'deep', version: '1.0.0' } },
      }),
    });
    assert.equal(init.status, 200, await init.text());
    const session = { ...mcpHeaders, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
    const initialized = await send({
      name: 'initialized',
      method: 'POST',
      path: '/mcp',
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      headers: session,
    });
    assert.equal(initialized.status, 202, initialized.text);
    const tool = (name: string, args: string): string =>
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
    const cases: Case[] = [];
    for (const value of [...DEEP_VALUES, ...WIDE_VALUES]) {
      const v = sizeOf(value);
      cases.push(
        { name: `body ${v}`, method: 'POST', path: '/mcp', body: value, headers: mcpHeaders },
        {
          name: `create_row data ${v}`,
          method: 'POST',
          path: '/mcp',
          body: tool('create_row', `{"revisionId":"${draft}","tableId":"items","rowId":"m1","data":${value}}`),
          headers: session,
        },
        {
          name: `create_row data as a string ${v}`,
          method: 'POST',
          path: '/mcp',
          body: tool('create_row', `{"revisionId":"${draft}","tableId":"items","rowId":"m1","data":${JSON.stringify(value)}}`),
          headers: session,
        },
      );
    }
    for (const where of WHERES) {
      cases.push({
        name: `get_rows where ${sizeOf(where)}`,
        method: 'POST',
        path: '/mcp',
        body: tool('get_rows', `{"revisionId":"${draft}","tableId":"items","where":${where}}`),
        headers: session,
      });
    }
    for (const schema of SCHEMAS) {
      cases.push({
        name: `create_table ${sizeOf(schema)}`,
        method: 'POST',
        path: '/mcp',
        body: tool('create_table', `{"revisionId":"${draft}","tableId":"deep","schema":${JSON.stringify(schema)}}`),
        headers: session,
      });
    }
    await expectOnly4xx(cases);
  });
});
