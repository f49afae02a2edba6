import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpBinding, McpSessionLimits, McpSessionRecord, McpSessionStore } from '../../query-service/index.ts';

/** Two stores sharing one set of sessions (two replicas of a shared adapter, or the same in-process store twice). */
export type McpSessionStorePair = readonly [McpSessionStore, McpSessionStore];

export type McpSessionStoreFixture = {
  /** A fresh, empty pair of stores with these limits; the fixture cleans them up in `teardown`. */
  open(limits: McpSessionLimits): McpSessionStorePair;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
};

export const mcpSessionLimits: McpSessionLimits = {
  idleMs: 1000,
  maxAgeMs: 5000,
  maxSessions: 3,
  maxPerPrincipal: 2,
  anonymousIdleMs: 1000,
  maxAnonymousPerIp: 100,
};

export const mcpSessionRecord = (id: string, at: number, clientIp = '10.0.0.1', binding: McpBinding | null = null): McpSessionRecord => ({
  id,
  binding,
  createdAt: at,
  lastSeenAt: at,
  protocolVersion: '2025-06-18',
  clientIp,
});

const limits = mcpSessionLimits;
const record = mcpSessionRecord;
const ann: McpBinding = { kind: 'header', principalKey: 'user:ann' };

/** The McpSessionStore port contract (query-service/mcp/mcpSessionStore.ts), run against every adapter. */
export function mcpSessionStoreContract(adapter: string, fixture: McpSessionStoreFixture): void {
  describe(`McpSessionStore contract: ${adapter}`, () => {
    before(async () => {
      await fixture.setup?.();
    });
    after(async () => {
      await fixture.teardown?.();
    });
    const open = (l: McpSessionLimits): McpSessionStorePair => fixture.open(l);

    test('expires idle sessions and sessions past their absolute lifetime', async () => {
      const [a, b] = open(limits);
      assert.equal(await a.create(record('a', 0)), 'created');
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
      for (const id of ['a', 'b', 'c']) assert.equal(await a.create(record(id, 0)), 'created');
      assert.equal(await b.create(record('d', 10)), 'full');
      assert.equal(await a.get('d', 10), null);
      await b.touch('c', 900);
      assert.equal(await b.create(record('e', 1500)), 'created');
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

    test('sessions without a principal are limited per client IP; binding leaves the budget', async () => {
      const [a, b] = open({ ...limits, maxSessions: 20, maxAnonymousPerIp: 2 });
      assert.equal(await a.create(record('a1', 0)), 'created');
      assert.equal(await b.create(record('a2', 0)), 'created');
      assert.equal(await a.create(record('a3', 0)), 'anonymousLimit');
      assert.equal(await b.get('a3', 0), null, 'a refused session stores nothing');
      assert.equal(await b.create(record('other', 0, '10.0.0.2')), 'created', 'another IP has its own budget');
      assert.equal(await a.create(record('bound', 0, '10.0.0.1', ann)), 'created', 'a session bound at initialize is not anonymous');
      await b.bind('a1', ann);
      assert.equal(await a.create(record('a4', 10)), 'created', 'a bound session left the budget');
      assert.equal(await b.create(record('a5', 10)), 'anonymousLimit');
      await a.delete('a2');
      assert.equal(await b.create(record('a6', 20)), 'created', 'an ended session left the budget');
    });

    test('sessions without a principal expire after the anonymous idle timeout; bound ones after the normal one', async () => {
      const [a, b] = open({ ...limits, maxSessions: 20, anonymousIdleMs: 300, maxAnonymousPerIp: 2 });
      await a.create(record('anon', 0));
      await a.create(record('touched', 0));
      await a.create(record('bound', 0, '10.0.0.2'));
      await b.touch('touched', 200);
      await a.bind('bound', ann);
      assert.equal((await b.get('anon', 299))?.id, 'anon');
      assert.equal(await b.get('anon', 300), null);
      assert.equal((await a.get('touched', 499))?.id, 'touched');
      assert.equal((await b.get('bound', 900))?.id, 'bound');
      assert.deepEqual(await a.sweep(600), ['touched']);
      // Expired anonymous sessions no longer count against the IP.
      assert.equal(await a.create(record('new1', 600)), 'created');
      assert.equal(await b.create(record('new2', 600)), 'created');
      assert.equal(await b.count(600), 3);
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
