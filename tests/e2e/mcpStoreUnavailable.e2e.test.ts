// Found by the chaos harness (issue 19): while Redis is down, /mcp answered 500 "Internal error" because the session
// store's SERVICE_UNAVAILABLE was not mapped. It must be 503 (-32000, Retry-After) like every other surface, and
// sessions work again once Redis is back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

const ADMIN_PASSWORD = 'mcp-redis-down-1';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
let dir = '';
let redis: RedisServer;
let server: StrataProcess;
let auth: Record<string, string>;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-mcp-redis-'));
  redis = await startRedisServer();
  server = await startStrataProcess({ DATA_DIR: dir, REDIS_URL: redis.url, ADMIN_PASSWORD });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  auth = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
});
after(async () => {
  await server?.stop();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

const mcp = (body: unknown, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> =>
  fetch(`${server.url}/mcp`, { method, headers: { ...HEADERS, ...auth, ...headers }, ...(body === null ? {} : { body: JSON.stringify(body) }) });

test('/mcp answers 503 SERVICE_UNAVAILABLE while the session store is down, then works again', async () => {
  const opened = await mcp(INIT);
  assert.equal(opened.status, 200);
  const session = opened.headers.get('mcp-session-id') ?? '';
  const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
  assert.equal((await mcp(ping, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' })).status, 200);

  await redis.kill();
  try {
    for (const [body, headers, method] of [
      [ping, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, 'POST'],
      [null, { 'mcp-session-id': session }, 'DELETE'],
      [INIT, {}, 'POST'],
    ] as const) {
      const reply = await mcp(body, headers, method);
      const answer = (await reply.json()) as { error?: { code: number; data?: { code: string } } };
      assert.equal(reply.status, 503, `${method} ${JSON.stringify(answer)}`);
      assert.equal(reply.headers.get('retry-after'), '1');
      assert.equal(answer.error?.code, -32000);
      assert.equal(answer.error?.data?.code, 'SERVICE_UNAVAILABLE');
    }
  } finally {
    await redis.restart();
  }
  const reopened = await until('initialize after Redis is back', 30_000, async () => {
    const reply = await mcp(INIT);
    return reply.status === 200 ? reply : undefined;
  });
  assert.ok(reopened.headers.get('mcp-session-id'));
});
