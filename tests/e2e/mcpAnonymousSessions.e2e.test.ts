import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_PASSWORD, startAuthServer, type AuthServer, type HttpReply } from './support/authServer.ts';

// Anonymous MCP sessions (operations.md §1, mcp.md §2): at most MCP_MAX_ANONYMOUS_SESSIONS_PER_IP live sessions
// without a principal per client IP (initialize beyond → 429, -32000, Retry-After), idle after
// MCP_ANONYMOUS_SESSION_IDLE_MS; a session that binds a principal leaves the anonymous budget.

const ACCEPT = { Accept: 'application/json, text/event-stream' };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'anon', version: '1' } },
};

let server: AuthServer;
let token: string;

before(async () => {
  server = await startAuthServer({ MCP_MAX_ANONYMOUS_SESSIONS_PER_IP: '3', MCP_ANONYMOUS_SESSION_IDLE_MS: '15000', TRUST_PROXY: 'loopback' });
  token = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
});
after(() => server.close());

async function initialize(headers: Record<string, string> = {}): Promise<HttpReply & { readonly id: string | null }> {
  const reply = await server.call('POST', '/mcp', { headers: { ...ACCEPT, ...headers }, body: INIT });
  return { ...reply, id: reply.headers.get('mcp-session-id') };
}

function send(id: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
  return server.call('POST', '/mcp', { headers: { ...ACCEPT, ...headers, 'Mcp-Session-Id': id }, body });
}

const listTools = (id: string, headers: Record<string, string> = {}) => send(id, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);

function expectLimited(reply: HttpReply): void {
  assert.equal(reply.status, 429, reply.text);
  assert.equal(reply.body?.error?.code, -32000);
  assert.ok(Number(reply.headers.get('retry-after')) > 0);
  assert.equal(reply.headers.get('mcp-session-id'), null);
}

test('anonymous sessions are capped per IP; bound, ended and idle sessions leave the budget', async () => {
  const anonymous: string[] = [];
  for (let i = 0; i < 3; i++) {
    const reply = await initialize();
    assert.equal(reply.status, 200, reply.text);
    anonymous.push(reply.id as string);
  }
  expectLimited(await initialize());
  // Another client IP has its own budget; a session bound at initialize is not anonymous.
  assert.equal((await initialize({ 'X-Forwarded-For': '203.0.113.9' })).status, 200);
  const bound = await initialize({ Authorization: `Bearer ${token}` });
  assert.equal(bound.status, 200);
  expectLimited(await initialize());

  // Binding by the login tool leaves the budget.
  const login = await send(anonymous[0] as string, {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'login', arguments: { username: 'admin', password: ADMIN_PASSWORD } },
  });
  assert.equal(login.body?.result?.isError, undefined, login.text);
  const afterLogin = await initialize();
  assert.equal(afterLogin.status, 200, afterLogin.text);
  expectLimited(await initialize());

  // Binding by a header credential on a later request leaves it too.
  assert.equal((await listTools(anonymous[1] as string, { Authorization: `Bearer ${token}` })).status, 200);
  const afterHeader = await initialize();
  assert.equal(afterHeader.status, 200, afterHeader.text);
  expectLimited(await initialize());

  // Ending a session frees its place.
  assert.equal((await server.call('DELETE', '/mcp', { headers: { 'Mcp-Session-Id': afterHeader.id as string } })).status, 200);
  const afterDelete = await initialize();
  assert.equal(afterDelete.status, 200);
  expectLimited(await initialize());

  // Idle anonymous sessions end after MCP_ANONYMOUS_SESSION_IDLE_MS; bound ones keep the normal idle timeout.
  await new Promise((resolve) => setTimeout(resolve, 15500));
  assert.equal((await listTools(anonymous[2] as string)).status, 404);
  assert.equal((await listTools(afterDelete.id as string)).status, 404);
  assert.equal((await listTools(anonymous[0] as string)).status, 200, 'the login-bound session lives on');
  assert.equal((await listTools(bound.id as string, { Authorization: `Bearer ${token}` })).status, 200);
  for (let i = 0; i < 3; i++) assert.equal((await initialize()).status, 200);
  expectLimited(await initialize());
});
