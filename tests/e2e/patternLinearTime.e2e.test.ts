// domain.md §5.1: schema `pattern`s are matched in time linear in the input. A backtracking engine lets one row
// write of a few dozen characters block the whole process; this suite runs the real `strata serve` in a child
// process, writes 10,000-character values against pathological patterns and checks `/health/live` meanwhile.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

const ADMIN_PASSWORD = 'pattern-admin-password';
const LONG = 'a'.repeat(10_000);
// Generous: a linear engine answers in well under a second; a backtracking one never does.
const WRITE_TIMEOUT_MS = 60_000;
let dir = '';
let server: StrataProcess;
let token = '';
let table = '';

type Reply = { status: number; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

async function call(method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(WRITE_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

const str = (pattern: string, fallback: string): Record<string, unknown> => ({ type: 'string', default: fallback, pattern });
const schemaOf = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-pattern-'));
  server = await startStrataProcess({ DATA_DIR: join(dir, 'data'), ADMIN_PASSWORD });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  token = ((await login.json()) as { accessToken: string }).accessToken;
  assert.equal((await call('POST', '/organization/admin/projects', { projectName: 'p' })).status, 201);
  const branch = await call('GET', '/organization/admin/project/p/branch/master');
  const revision = `/revision/${String(branch.body.draftRevisionId)}`;
  const schema = schemaOf({ nested: str('^(a+)+$', 'a'), alternation: str('(a|aa)+$', 'a'), star: str('(.*a){20}', 'a'.repeat(20)) });
  const created = await call('POST', `${revision}/tables`, { tableId: 't', schema });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  table = `${revision}/table/t`;
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('schema patterns run in linear time', () => {
  test('10,000-character writes against pathological patterns are answered while /health/live stays prompt', async () => {
    const started = performance.now();
    const write = call('POST', `${table}/rows`, {
      rowId: 'bad',
      data: { nested: `${LONG}!`, alternation: `${LONG}!`, star: `${LONG}!` },
    });
    const live = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sent = performance.now();
      const res = await fetch(`${server.url}/health/live`, { signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
      return { status: res.status, ms: performance.now() - sent };
    })();
    const [refused, health] = await Promise.all([write, live]);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'INVALID_DATA');
    assert.deepEqual(refused.body.details.map((d: { path: string }) => d.path).sort(), ['/alternation', '/nested']);
    assert.equal(health.status, 200);
    // A backtracking engine would hold the event loop for far longer than this (exponential in 10,000 characters);
    // the bound is loose so that a busy machine's slow answer is not mistaken for a blocked loop.
    assert.ok(health.ms < 10_000, `/health/live took ${Math.round(health.ms)} ms`);

    const ok = await call('POST', `${table}/rows`, { rowId: 'good', data: { nested: LONG, alternation: LONG, star: LONG } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const patched = await call('PATCH', `${table}/row/good`, { patches: [{ op: 'replace', path: '/nested', value: `${LONG}b` }] });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.equal(patched.body.code, 'INVALID_DATA');
    assert.ok(performance.now() - started < WRITE_TIMEOUT_MS);
  });

  test('an MCP row write against a pathological pattern is answered with INVALID_DATA', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
    const post = (body: unknown, extra: Record<string, string> = {}): Promise<Response> =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { ...headers, ...extra },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(WRITE_TIMEOUT_MS),
      });
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pattern', version: '1.0.0' } },
    });
    assert.equal(init.status, 200, await init.text());
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status, 202);
    const revisionId = table.split('/')[2] ?? '';
    const data = { nested: `${LONG}!`, alternation: LONG, star: LONG };
    const call = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_row', arguments: { revisionId, tableId: 't', rowId: 'mcp', data } } },
      session,
    );
    assert.equal(call.status, 200);
    const body = (await call.json()) as { result: { isError?: boolean; content: { text: string }[] } };
    assert.equal(body.result.isError, true);
    assert.equal((JSON.parse(body.result.content[0]?.text ?? '{}') as { code?: string }).code, 'INVALID_DATA');
  });

  test('a schema change migrates existing long rows against a pathological pattern in linear time', async () => {
    const migrated = await call('PATCH', table, {
      patches: [
        { op: 'replace', path: '/properties/star/pattern', value: '^(a|a?)+b$' },
        { op: 'replace', path: '/properties/star/default', value: 'b' },
      ],
    });
    assert.equal(migrated.status, 400, JSON.stringify(migrated.body));
    assert.equal(migrated.body.code, 'INVALID_DATA');
  });

  test('a default is checked against its pattern in linear time', async () => {
    const branch = await call('GET', '/organization/admin/project/p/branch/master');
    const reply = await call('POST', `/revision/${String(branch.body.draftRevisionId)}/tables`, {
      tableId: 'd',
      schema: schemaOf({ x: str('^(a+)+$', `${LONG}!`) }),
    });
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'INVALID_SCHEMA');
    assert.deepEqual(reply.body.details, [{ path: '/properties/x/default', message: 'must match pattern "^(a+)+$"' }]);
  });

  test('patterns outside the RE2 subset are refused at their JSON Pointer', async () => {
    const branch = await call('GET', '/organization/admin/project/p/branch/master');
    const reply = await call('POST', `/revision/${String(branch.body.draftRevisionId)}/tables`, {
      tableId: 'e',
      schema: schemaOf({
        back: str('^(a)\\1$', 'aa'),
        ahead: str('^(?=a)a$', 'a'),
        behind: str('(?<=a)b', 'ab'),
        fine: str('^[a-z]+$', 'a'),
        nested: schemaOf({ inner: str('(?<!x)y', 'y') }),
      }),
    });
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'INVALID_SCHEMA');
    const paths = reply.body.details.map((d: { path: string }) => d.path);
    assert.deepEqual(paths.sort(), [
      '/properties/ahead/pattern',
      '/properties/back/pattern',
      '/properties/behind/pattern',
      '/properties/nested/properties/inner/pattern',
    ]);
    for (const detail of reply.body.details) assert.match(detail.message, /RE2/);
  });
});
