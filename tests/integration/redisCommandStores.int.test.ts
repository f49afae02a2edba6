import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { isAppError } from '../../contracts/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { redisTestClients } from '../support/redisClients.ts';
import { createInMemoryLoginThrottleStore, createRedisApiKeyUsageStore, createRedisLoginThrottleStore } from '../../command-service/index.ts';
import type { LoginThrottleStore } from '../../command-service/index.ts';

const log = pino({ level: 'silent' });
let server: RedisServer;
const clients = redisTestClients();

/** A client per simulated replica; every store under one fresh prefix per test. */
function client(url = server.url): Redis {
  return clients.open(url);
}
let prefixes = 0;
const prefix = (): string => `t${++prefixes}`;

before(async () => {
  server = await startRedisServer();
});
after(async () => {
  clients.disconnectAll();
  await server.stop();
});

async function throttleScenario(a: LoginThrottleStore, b: LoginThrottleStore): Promise<void> {
  const t0 = 1_700_000_000_000;
  assert.equal(await a.get('pair', t0), null);
  assert.deepEqual(await a.increment('pair', t0, 1000), { count: 1, resetAt: t0 + 1000 });
  assert.deepEqual(await b.increment('pair', t0 + 10, 1000), { count: 2, resetAt: t0 + 1000 });
  assert.deepEqual(await b.get('pair', t0 + 999), { count: 2, resetAt: t0 + 1000 });
  assert.equal(await a.get('pair', t0 + 1000), null);
  // The window closed: the next failure opens a new one.
  assert.deepEqual(await a.increment('pair', t0 + 1500, 1000), { count: 1, resetAt: t0 + 2500 });
  await b.increment('other', t0 + 1500, 1000);
  await b.delete('pair');
  assert.equal(await a.get('pair', t0 + 1600), null);
  assert.deepEqual(await a.get('other', t0 + 1600), { count: 1, resetAt: t0 + 2500 });
}

describe('redis login throttle store', () => {
  test('behaves like the in-memory store', async () => {
    const memory = createInMemoryLoginThrottleStore();
    await throttleScenario(memory, memory);
  });

  test('shares windows between replicas and judges them by the caller clock', async () => {
    const p = prefix();
    await throttleScenario(
      createRedisLoginThrottleStore({ redis: client(), prefix: p, log }),
      createRedisLoginThrottleStore({ redis: client(), prefix: p, log }),
    );
  });

  test('counts concurrent failures exactly and expires keys with the window', async () => {
    const p = prefix();
    const redis = client();
    const stores = [client(), client(), client()].map((r) => createRedisLoginThrottleStore({ redis: r, prefix: p, log }));
    const now = Date.now();
    await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3]?.increment('ip', now, 60_000)));
    assert.equal((await stores[0]?.get('ip', now))?.count, 30);
    const ttl = await redis.pttl(`${p}:throttle:ip`);
    assert.ok(ttl > 0 && ttl <= 60_000, `ttl ${ttl}`);
  });

  test('an unreachable Redis refuses with SERVICE_UNAVAILABLE', async () => {
    const store = createRedisLoginThrottleStore({ redis: client('redis://127.0.0.1:1'), prefix: prefix(), log });
    await assert.rejects(store.get('pair', Date.now()), (err) => isAppError(err, 'SERVICE_UNAVAILABLE'));
    await assert.rejects(store.increment('pair', Date.now(), 1000), (err) => isAppError(err, 'SERVICE_UNAVAILABLE'));
  });
});

describe('redis api key usage store', () => {
  test('records a use at most once per interval across replicas', async () => {
    const p = prefix();
    const a = createRedisApiKeyUsageStore({ redis: client(), prefix: p, log });
    const b = createRedisApiKeyUsageStore({ redis: client(), prefix: p, log });
    assert.deepEqual(await a.lastUsedAt([]), new Map());
    assert.equal(await a.touch('k1', 1000, 60_000), true);
    assert.equal(await b.touch('k1', 60_999, 60_000), false);
    assert.deepEqual(await b.lastUsedAt(['k1', 'k2']), new Map([['k1', 1000]]));
    assert.equal(await b.touch('k1', 61_000, 60_000), true);
    assert.equal(await a.touch('k2', 5, 60_000), true);
    assert.deepEqual(
      await a.lastUsedAt(['k2', 'k1', 'nope']),
      new Map([
        ['k2', 5],
        ['k1', 61_000],
      ]),
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => a.touch('k3', 10, 60_000)));
    assert.equal(results.filter(Boolean).length, 1);
  });

  test('an unreachable Redis reads as never used', async () => {
    const store = createRedisApiKeyUsageStore({ redis: client('redis://127.0.0.1:1'), prefix: prefix(), log });
    assert.deepEqual(await store.lastUsedAt(['k1']), new Map());
    await assert.rejects(store.touch('k1', 1, 1));
  });
});
