import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { isAppError } from '../../contracts/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { redisTestClients } from '../support/redisClients.ts';
import { createRedisMcpSessionStore } from '../../query-service/index.ts';
import { mcpSessionLimits as limits, mcpSessionRecord as record } from '../contract/mcpSessionStoreContract.ts';

// The behaviour every McpSessionStore shares is in tests/contract/mcpSessionStoreContract.ts; these are Redis's own.
const log = pino({ level: 'silent' });

let server: RedisServer;
const clients = redisTestClients();

function client(url = server.url): Redis {
  return clients.open(url);
}

before(async () => {
  server = await startRedisServer();
});
after(async () => {
  clients.disconnectAll();
  await server.stop();
});

describe('mcp session store (redis only)', () => {
  test('concurrent creates on several replicas never exceed the capacity', async () => {
    const prefix = 'cap';
    const replicas = Array.from({ length: 4 }, () =>
      createRedisMcpSessionStore({ redis: client(), limits: { ...limits, maxSessions: 7 }, prefix, log }),
    );
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 4]?.create(record(`s${i}`, 0))));
    assert.equal(results.filter((result) => result === 'created').length, 7);
    assert.equal(await replicas[0]?.count(1), 7);
  });

  test('an unreachable Redis answers SERVICE_UNAVAILABLE', async () => {
    const store = createRedisMcpSessionStore({ redis: client('redis://127.0.0.1:1'), limits, log });
    await assert.rejects(store.get('a', 0), (err) => isAppError(err, 'SERVICE_UNAVAILABLE'));
    await assert.rejects(store.create(record('a', 0)), (err) => isAppError(err, 'SERVICE_UNAVAILABLE'));
  });
});
