import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { isAppError } from '../../contracts/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { createInMemoryMcpSessionStore, createRedisMcpSessionStore } from '../../query-service/index.ts';
import type { McpBinding, McpSessionLimits, McpSessionRecord, McpSessionStore } from '../../query-service/index.ts';

const log = pino({ level: 'silent' });
const limits: McpSessionLimits = { idleMs: 1000, maxAgeMs: 5000, maxSessions: 3, maxPerPrincipal: 2 };
const record = (id: string, at: number): McpSessionRecord => ({ id, binding: null, createdAt: at, lastSeenAt: at, protocolVersion: '2025-06-18' });
const ann: McpBinding = { kind: 'header', principalKey: 'user:ann' };

let server: RedisServer;
const clients: Redis[] = [];
let prefixes = 0;

function client(url = server.url): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 1000 });
  redis.on('error', () => undefined);
  clients.push(redis);
  return redis;
}

/** Two replicas sharing one prefix, or the in-memory store twice. */
type Pair = readonly [McpSessionStore, McpSessionStore];
const kinds: Record<string, (l: McpSessionLimits) => Pair> = {
  memory: (l) => {
    const store = createInMemoryMcpSessionStore(l);
    return [store, store];
  },
  redis: (l) => {
    const prefix = `mcp${++prefixes}`;
    return [
      createRedisMcpSessionStore({ redis: client(), limits: l, prefix, log }),
      createRedisMcpSessionStore({ redis: client(), limits: l, prefix, log }),
    ];
  },
};

before(async () => {
  server = await startRedisServer();
});
after(async () => {
  for (const redis of clients) redis.disconnect();
  await server.stop();
});

for (const [kind, open] of Object.entries(kinds)) {
  describe(`mcp session store (${kind})`, () => {
    test('expires idle sessions and sessions past their absolute lifetime', async () => {
      const [a, b] = open(limits);
      assert.equal(await a.create(record('a', 0)), true);
      assert.equal((await b.get('a', 999))?.id, 'a');
      assert.equal(await b.get('a', 1000), null);
      await a.create(record('b', 0));
      for (const now of [900, 1800, 2700, 3600, 4500]) await (now % 1800 === 0 ? a : b).touch('b', now);
      assert.deepEqual(await a.get('b', 4999), { ...record('b', 0), lastSeenAt: 4500 });
      assert.equal(await b.get('b', 5000), null);
      await b.touch('b', 5001);
      assert.equal(await a.count(5001), 0);
    });

    test('refuses sessions beyond maxSessions until expired ones are gone', async () => {
      const [a, b] = open(limits);
      for (const id of ['a', 'b', 'c']) assert.equal(await a.create(record(id, 0)), true);
      assert.equal(await b.create(record('d', 10)), false);
      assert.equal(await a.get('d', 10), null);
      await b.touch('c', 900);
      assert.equal(await b.create(record('e', 1500)), true);
      assert.deepEqual(await a.sweep(1500), []);
      assert.equal(await a.count(1500), 2);
      assert.deepEqual(await b.sweep(1900), ['c']);
    });

    test('binding beyond maxPerPrincipal ends the least recently used session of that principal', async () => {
      const [a, b] = open({ ...limits, maxSessions: 10 });
      for (const id of ['a', 'b', 'c', 'x']) await a.create(record(id, 0));
      await a.touch('a', 50);
      assert.deepEqual(await a.bind('a', ann), []);
      assert.deepEqual(await b.bind('b', ann), []);
      await a.bind('x', { kind: 'header', principalKey: 'user:bob' });
      await b.touch('a', 100);
      assert.deepEqual(await a.bind('c', ann), ['b']);
      assert.equal(await b.get('b', 100), null);
      assert.deepEqual((await b.get('c', 100))?.binding, ann);
      assert.equal((await a.get('x', 100))?.binding?.principalKey, 'user:bob');
      assert.deepEqual(await a.bind('gone', ann), []);
      await b.delete('a');
      assert.equal(await a.get('a', 100), null);
      // An ended session no longer counts against its principal.
      await a.create(record('d', 200));
      assert.deepEqual(await a.bind('d', ann), []);
    });

    test('a login binding keeps its user and token version', async () => {
      const [a, b] = open(limits);
      await a.create(record('s', 0));
      const binding: McpBinding = { kind: 'login', principalKey: 'user:u1', userId: 'u1', username: 'ann', tokenVersion: 3 };
      await a.bind('s', binding);
      assert.deepEqual(await b.get('s', 10), { ...record('s', 0), binding });
    });
  });
}

describe('mcp session store (redis only)', () => {
  test('concurrent creates on several replicas never exceed the capacity', async () => {
    const prefix = `cap${++prefixes}`;
    const replicas = Array.from({ length: 4 }, () => createRedisMcpSessionStore({ redis: client(), limits: { ...limits, maxSessions: 7 }, prefix, log }));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 4]?.create(record(`s${i}`, 0))));
    assert.equal(results.filter(Boolean).length, 7);
    assert.equal(await replicas[0]?.count(1), 7);
  });

  test('an unreachable Redis answers SERVICE_UNAVAILABLE', async () => {
    const store = createRedisMcpSessionStore({ redis: client('redis://127.0.0.1:1'), limits, log });
    await assert.rejects(store.get('a', 0), (err) => isAppError(err, 'SERVICE_UNAVAILABLE'));
    await assert.rejects(store.create(record('a', 0)), (err) => isAppError(err, 'SERVICE_UNAVAILABLE'));
  });
});
