import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Principal } from '../../contracts/index.ts';
import { ADMIN_PASSWORD, INIT, ok, startMcpSystem, toolError, type McpSystem, type Reply } from './support/mcpSystem.ts';

// mcp.md §1-§3 and errors.md §5: transport checks, sessions, header and login binding, revalidation.
let system: McpSystem;
let adminToken: string;
let annToken: string;
let bobToken: string;
const sessionIds: string[] = [];
const PASSWORD = 'session-password-1';
const ME = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'me', arguments: {} } };

function rpcError(reply: Reply, status: number, code: number, dataCode?: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.body?.jsonrpc, '2.0');
  assert.equal(reply.body?.error?.code, code, JSON.stringify(reply.body));
  if (dataCode !== undefined) assert.equal(reply.body?.error?.data?.code, dataCode);
}

async function session(headers: Record<string, string> = {}): Promise<string> {
  const id = await system.rawSession(headers);
  sessionIds.push(id);
  return id;
}

const callMe = (id: string, headers: Record<string, string> = {}) => system.raw('POST', ME, { 'Mcp-Session-Id': id, ...headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createUser(username: string): Promise<string> {
  const reply = await system.rest(adminToken, 'POST', '/users', { username, password: PASSWORD });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

before(async () => {
  system = await startMcpSystem({ maxSessionsPerPrincipal: 3 });
  adminToken = await system.login('admin', ADMIN_PASSWORD);
  for (const name of ['ann', 'bob', 'cid', 'dee']) await createUser(name);
  annToken = await system.login('ann', PASSWORD);
  bobToken = await system.login('bob', PASSWORD);
});
after(() => system.close());

describe('transport', () => {
  test('initialize answers the client version when supported, else 2025-11-25', async () => {
    for (const [asked, answered] of [
      ['2025-03-26', '2025-03-26'],
      ['2025-06-18', '2025-06-18'],
      ['2025-11-25', '2025-11-25'],
      ['2099-01-01', '2025-11-25'],
    ]) {
      const reply = await system.raw('POST', { ...INIT, params: { ...INIT.params, protocolVersion: asked } });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.result.protocolVersion, answered);
      assert.deepEqual(reply.body.result.capabilities, { tools: { listChanged: false } });
      sessionIds.push(reply.headers.get('mcp-session-id') ?? '');
    }
  });

  test('refuses malformed requests with JSON-RPC errors', async () => {
    const id = await session();
    rpcError(await system.raw('POST', '{not json', { 'Mcp-Session-Id': id }), 400, -32700);
    assert.equal((await system.raw('POST', '{not json')).body.id, null);
    rpcError(await system.raw('POST', [ME, ME], { 'Mcp-Session-Id': id }), 400, -32600);
    rpcError(await system.raw('POST', { hello: 'world' }, { 'Mcp-Session-Id': id }), 400, -32600);
    rpcError(await system.raw('POST', ME), 400, -32000);
    rpcError(await callMe(id, { 'MCP-Protocol-Version': '1999-01-01' }), 400, -32000);
    rpcError(await callMe(id, { 'MCP-Protocol-Version': '2024-11-05' }), 400, -32000);
    rpcError(await system.raw('POST', ME, { 'Mcp-Session-Id': id }, `?api_key=svc_${'a'.repeat(22)}`), 400, -32000);
    rpcError(await system.raw('POST', ME, { 'Mcp-Session-Id': id, Origin: 'https://evil.example' }), 403, -32003);
    assert.equal((await callMe(id, { Origin: system.url })).status, 200);
    rpcError(await system.raw('POST', { jsonrpc: '2.0', id: 3, method: 'resources/list' }, { 'Mcp-Session-Id': id }), 200, -32601);
    rpcError(await system.raw('POST', JSON.stringify({ ...ME, pad: 'x'.repeat(70 * 1024) }), { 'Mcp-Session-Id': id }), 413, -32000);
    rpcError(await callMe('00000000-0000-4000-8000-000000000000'), 404, -32001);
  });

  test('GET opens the SSE stream of a session; cookies are never credentials', async () => {
    const id = await session();
    const stream = await fetch(`${system.url}/mcp`, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' },
    });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    await stream.body?.cancel();
    rpcError(await system.raw('GET', undefined, { Accept: 'text/event-stream' }), 400, -32000);
    const withCookie = await callMe(id, { Cookie: `svc_at=${annToken}` });
    assert.deepEqual(withCookie.body.result.structuredContent, { authenticated: false });
  });

  test('DELETE ends the session: 200, then 404', async () => {
    const agent = await system.connect();
    const id = agent.transport.sessionId ?? '';
    sessionIds.push(id);
    assert.deepEqual(ok(await agent.client.callTool({ name: 'me', arguments: {} })), { authenticated: false });
    await agent.transport.terminateSession();
    rpcError(await callMe(id), 404, -32001);
    assert.equal((await system.raw('DELETE', undefined, { 'Mcp-Session-Id': id })).status, 404);
  });
});

describe('header credentials', () => {
  test('the first valid credential binds; another principal is 403 and the session is unchanged', async () => {
    const agent = await system.connect(bearer(annToken));
    sessionIds.push(agent.transport.sessionId ?? '');
    assert.equal(ok(await agent.client.callTool({ name: 'me', arguments: {} })).username, 'ann');
    agent.headers = bearer(bobToken);
    await assert.rejects(agent.client.callTool({ name: 'me', arguments: {} }), (err: Error & { code?: number }) => err.code === 403);
    const raw = await callMe(agent.transport.sessionId ?? '', bearer(bobToken));
    rpcError(raw, 403, -32003, 'FORBIDDEN');
    // Any valid credential of the same user continues the session (a fresh JWT).
    agent.headers = bearer(await system.login('ann', PASSWORD));
    assert.equal(ok(await agent.client.callTool({ name: 'me', arguments: {} })).username, 'ann');
  });

  test('no credential or an invalid one on a header-bound session is 401 with WWW-Authenticate', async () => {
    const id = await session(bearer(annToken));
    const missing = await callMe(id);
    rpcError(missing, 401, -32002, 'UNAUTHENTICATED');
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="strata"');
    rpcError(await callMe(id, bearer('not-a-jwt')), 401, -32002, 'TOKEN_INVALID');
    rpcError(await callMe(id, { ...bearer(annToken), 'X-Api-Key': `svc_${'b'.repeat(22)}` }), 400, -32000, 'AMBIGUOUS_CREDENTIALS');
    rpcError(await system.raw('POST', INIT, bearer('not-a-jwt')), 401, -32002, 'TOKEN_INVALID');
    assert.equal((await callMe(id, bearer(annToken))).status, 200);
  });

  test('a revoked key fails on its next call', async () => {
    const key = `svc_${'K'.repeat(22)}`;
    const keyPrincipal: Principal = {
      kind: 'service',
      keyId: 'key-1',
      organizationId: 'ann',
      rules: [{ action: 'read', subject: 'all' }],
      key: { keyId: 'key-1', organizationId: 'ann', projectIds: null, branchNames: null, tableIds: null, readOnly: true },
    };
    system.apiKeys.add(key, keyPrincipal);
    const agent = await system.connect({ 'X-Api-Key': key });
    sessionIds.push(agent.transport.sessionId ?? '');
    ok(await agent.client.callTool({ name: 'get_organization', arguments: { organizationId: 'ann' } }));
    toolError(await agent.client.callTool({ name: 'me', arguments: {} }), 'FORBIDDEN');
    toolError(await agent.client.callTool({ name: 'create_project', arguments: { organizationId: 'ann', projectName: 'p' } }), 'API_KEY_READ_ONLY');
    system.apiKeys.revoke(key);
    await assert.rejects(agent.client.callTool({ name: 'me', arguments: {} }), (err: Error & { code?: number }) => err.code === 401);
    rpcError(await callMe(agent.transport.sessionId ?? '', { 'X-Api-Key': key }), 401, -32002, 'API_KEY_REVOKED');
  });

  test('binding more than the per-principal limit ends the least recently used session', async () => {
    const token = await system.login('dee', PASSWORD);
    const first = await session(bearer(token));
    const second = await session(bearer(token));
    const third = await session(bearer(token));
    assert.equal((await callMe(first, bearer(token))).status, 200);
    await session(bearer(token));
    rpcError(await callMe(second, bearer(token)), 404, -32001);
    assert.equal((await callMe(first, bearer(token))).status, 200);
    assert.equal((await callMe(third, bearer(token))).status, 200);
  });
});

describe('login tool', () => {
  test('login is refused with header credentials and in a session bound to another user', async () => {
    const agent = await system.connect(bearer(annToken));
    sessionIds.push(agent.transport.sessionId ?? '');
    toolError(await agent.client.callTool({ name: 'login', arguments: { username: 'ann', password: PASSWORD } }), 'BAD_USER_INPUT');
    const other = await system.connect();
    sessionIds.push(other.transport.sessionId ?? '');
    ok(await other.client.callTool({ name: 'login', arguments: { username: 'bob', password: PASSWORD } }));
    const refused = toolError(await other.client.callTool({ name: 'login', arguments: { username: 'ann', password: PASSWORD } }), 'FORBIDDEN');
    assert.equal(refused.message, 'Session is bound to another principal; start a new session');
    ok(await other.client.callTool({ name: 'login', arguments: { username: 'bob', password: PASSWORD } }));
    // Header credentials of another principal on a login-bound session: 403.
    rpcError(await callMe(other.transport.sessionId ?? '', bearer(annToken)), 403, -32003);
    assert.equal(ok(await other.client.callTool({ name: 'me', arguments: {} })).username, 'bob');
  });

  test('failed logins are throttled like REST logins: RATE_LIMITED as a tool error', async () => {
    const agent = await system.connect();
    sessionIds.push(agent.transport.sessionId ?? '');
    for (let attempt = 0; attempt < 5; attempt++) {
      toolError(await agent.client.callTool({ name: 'login', arguments: { username: 'eve', password: 'wrong-password' } }), 'INVALID_CREDENTIALS');
    }
    toolError(await agent.client.callTool({ name: 'login', arguments: { username: 'eve', password: 'wrong-password' } }), 'RATE_LIMITED');
    assert.deepEqual(ok(await agent.client.callTool({ name: 'me', arguments: {} })), { authenticated: false });
  });

  test('logout answers, then the session is gone', async () => {
    const agent = await system.connect();
    const id = agent.transport.sessionId ?? '';
    sessionIds.push(id);
    ok(await agent.client.callTool({ name: 'login', arguments: { username: 'bob', password: PASSWORD } }));
    assert.deepEqual(ok(await agent.client.callTool({ name: 'logout', arguments: {} })), { success: true });
    rpcError(await callMe(id), 404, -32001);
  });

  test('deactivating the user ends their sessions on the next request', async () => {
    const cidId = (await system.rest(adminToken, 'GET', '/users/search?search=cid')).body.edges[0].node.id;
    const byLogin = await system.connect();
    sessionIds.push(byLogin.transport.sessionId ?? '');
    ok(await byLogin.client.callTool({ name: 'login', arguments: { username: 'cid', password: PASSWORD } }));
    const cidToken = await system.login('cid', PASSWORD);
    const byHeader = await session(bearer(cidToken));
    assert.equal((await callMe(byHeader, bearer(cidToken))).status, 200);
    assert.equal((await system.rest(adminToken, 'POST', `/user/${cidId}/deactivate`)).status, 200);
    await assert.rejects(byLogin.client.callTool({ name: 'me', arguments: {} }), (err: Error & { code?: number }) => err.code === 404);
    rpcError(await callMe(byHeader, bearer(cidToken)), 404, -32001);
  });
});

describe('limits and logs', () => {
  test('an idle session expires; capacity beyond MCP_MAX_SESSIONS is 503 with Retry-After: 60', async () => {
    const tight = await startMcpSystem({ sessionIdleMs: 400, maxSessions: 2 });
    try {
      const idle = await tight.rawSession();
      await tight.rawSession();
      const full = await tight.raw('POST', INIT);
      rpcError(full, 503, -32000);
      assert.equal(full.body.error.message, 'Too many sessions');
      assert.equal(full.headers.get('retry-after'), '60');
      const stream = await fetch(`${tight.url}/mcp`, {
        headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': idle, 'MCP-Protocol-Version': '2025-06-18' },
      });
      assert.equal(stream.status, 200);
      // The sweeper closes the expired session's transport, which ends its SSE stream.
      const reader = stream.body?.getReader();
      assert.ok(reader);
      while (!(await reader.read()).done);
      rpcError(await tight.raw('POST', ME, { 'Mcp-Session-Id': idle }), 404, -32001);
      assert.equal((await tight.raw('POST', INIT)).status, 200);
      assert.ok(!tight.logText().includes(idle));
    } finally {
      await tight.close();
    }
  });

  test('session ids and login arguments never reach the logs', () => {
    const logs = system.logText();
    assert.ok(logs.includes('request completed'), 'requests are logged');
    assert.ok(logs.includes('"route":"/mcp"'));
    assert.ok(sessionIds.length > 10);
    for (const id of sessionIds) assert.ok(!logs.includes(id), 'a session id was logged');
    assert.ok(!logs.includes(PASSWORD) && !logs.includes(ADMIN_PASSWORD));
  });
});
