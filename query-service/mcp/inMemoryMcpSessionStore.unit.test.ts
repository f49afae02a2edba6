import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createInMemoryMcpSessionStore } from './inMemoryMcpSessionStore.ts';
import type { McpBinding, McpSessionRecord } from './mcpSessionStore.ts';

const limits = { idleMs: 1000, maxAgeMs: 5000, maxSessions: 3, maxPerPrincipal: 2, anonymousIdleMs: 1000, maxAnonymousPerIp: 100 };
const record = (id: string, at: number): McpSessionRecord => ({ id, binding: null, createdAt: at, lastSeenAt: at, protocolVersion: '2025-06-18', clientIp: '10.0.0.1' });
const ann: McpBinding = { kind: 'header', principalKey: 'user:ann' };

describe('createInMemoryMcpSessionStore', () => {
  test('expires idle sessions and sessions past their absolute lifetime', async () => {
    const store = createInMemoryMcpSessionStore(limits);
    assert.equal(await store.create(record('a', 0)), 'created');
    assert.equal((await store.get('a', 999))?.id, 'a');
    assert.equal(await store.get('a', 1000), null);
    await store.create(record('b', 0));
    for (const now of [900, 1800, 2700, 3600, 4500]) await store.touch('b', now);
    assert.equal((await store.get('b', 4999))?.lastSeenAt, 4500);
    assert.equal(await store.get('b', 5000), null);
    await store.touch('b', 5001);
    assert.equal(await store.count(5001), 0);
  });

  test('refuses sessions beyond maxSessions until expired ones are gone', async () => {
    const store = createInMemoryMcpSessionStore(limits);
    for (const id of ['a', 'b', 'c']) assert.equal(await store.create(record(id, 0)), 'created');
    assert.equal(await store.create(record('d', 10)), 'full');
    assert.equal(await store.get('d', 10), null);
    await store.touch('c', 900);
    assert.equal(await store.create(record('e', 1500)), 'created');
    assert.deepEqual(await store.sweep(1500), []);
    assert.equal(await store.count(1500), 2);
    assert.deepEqual(await store.sweep(1900), ['c']);
  });

  test('binding beyond maxPerPrincipal ends the least recently used session of that principal', async () => {
    const store = createInMemoryMcpSessionStore({ ...limits, maxSessions: 10 });
    for (const id of ['a', 'b', 'c', 'x']) await store.create(record(id, 0));
    await store.touch('a', 50);
    assert.deepEqual(await store.bind('a', ann), []);
    assert.deepEqual(await store.bind('b', ann), []);
    await store.bind('x', { kind: 'header', principalKey: 'user:bob' });
    await store.touch('a', 100);
    assert.deepEqual(await store.bind('c', ann), ['b']);
    assert.equal(await store.get('b', 100), null);
    assert.deepEqual((await store.get('c', 100))?.binding, ann);
    assert.equal((await store.get('x', 100))?.binding?.principalKey, 'user:bob');
    assert.deepEqual(await store.bind('gone', ann), []);
    await store.delete('a');
    assert.equal(await store.get('a', 100), null);
  });
});
