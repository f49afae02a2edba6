// The KurrentDB adapter's own logic against an in-memory fake of the client (no server can run here). The real
// server runs the same contract in tests/contract/eventStore.contract.test.ts when EVENTSTORE_URL is set.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { comparePositions, isAppError, streamCategory } from '../../contracts/index.ts';
import type { EventStore, Position } from '../../contracts/index.ts';
import { appendNotification, sampleEvent, uniqueCategory } from './eventStoreFixtures.ts';
import { eventStoreContract } from './eventStoreContract.ts';
import { createFakeKurrentServer } from '../support/fakeKurrentServer.ts';
import type { FakeKurrentServer } from '../support/fakeKurrentServer.ts';
import { loadKurrentEventStore } from '../../command-service/index.ts';
import type { KurrentClient } from '../../command-service/index.ts';

const { createKurrentEventStoreOnClient } = await loadKurrentEventStore();

eventStoreContract(
  'kurrentdb adapter on a fake client',
  async ({ upcast }) => {
    // System events between ours: readers must skip them without mistaking a short page for the end.
    const server = createFakeKurrentServer({ systemEventEvery: 2 });
    const open = () => createKurrentEventStoreOnClient(server.client(), { resubscribeDelayMs: 10, ...(upcast ? { upcast } : {}) });
    const store = open();
    return { store, openSecond: async () => open(), cleanup: () => store.close() };
  },
  { freshBackend: true },
);

// KurrentDB has no transaction across appends, hence no staging area (versioned-storage.md §6).
test('the kurrentdb adapter has no staging area', async () => {
  await withStore(async (store) => assert.equal(store.staging, undefined));
});

async function withStore(
  run: (store: EventStore, server: FakeKurrentServer) => Promise<void>,
  options: { client?: (client: KurrentClient) => KurrentClient; countExactUpTo?: number } = {},
): Promise<void> {
  const server = createFakeKurrentServer({ systemEventEvery: 3 });
  const client = options.client ? options.client(server.client()) : server.client();
  const store = createKurrentEventStoreOnClient(client, {
    resubscribeDelayMs: 10,
    ...(options.countExactUpTo ? { countExactUpTo: options.countExactUpTo } : {}),
  });
  try {
    await run(store, server);
  } finally {
    await store.close();
  }
}

describe('kurrentdb adapter specifics', () => {
  test('a retry whose first event is stored but whose later events differ returns the stored part (as SQLite)', async () => {
    await withStore(async (store) => {
      const stream = `${uniqueCategory()}-a`;
      const first = sampleEvent('A');
      await store.append(stream, [first, sampleEvent('B')], 'no_stream');
      // The server calls this a wrong expected version (its dedup needs every event in place).
      const retry = await store.append(stream, [first, sampleEvent('Changed')], 'no_stream');
      const [stored] = await store.readStream(stream);
      assert.deepEqual(retry, { nextExpectedRevision: 0, position: stored?.position });
      assert.deepEqual(
        (await store.readStream(stream)).map((e) => e.type),
        ['A', 'B'],
      );
    });
  });

  test('a retry that only starts like another append still conflicts', async () => {
    await withStore(async (store) => {
      const stream = `${uniqueCategory()}-a`;
      await store.append(stream, [sampleEvent('A')], 'no_stream');
      await assert.rejects(store.append(stream, [sampleEvent('B')], 'no_stream'), { name: 'StreamConflictError', actual: 0 });
    });
  });

  test('readAll with categories and event types returns their union once each, in order, in full batches', async () => {
    await withStore(async (store) => {
      const [red, blue] = [uniqueCategory(), uniqueCategory()];
      const expected: string[] = [];
      for (let i = 0; i < 24; i++) {
        const type = i % 4 === 0 ? 'Wanted' : 'Other';
        const category = i % 3 === 0 ? red : blue;
        const event = sampleEvent(type);
        await store.append(`${category}-${i % 2}`, [event], 'any');
        if (category === red || type === 'Wanted') expected.push(event.metadata.eventId);
      }
      const read: string[] = [];
      let cursor: Position | null = null;
      for (;;) {
        const page = await store.readAll(cursor, { maxCount: 5, categories: [red], eventTypes: ['Wanted'] });
        const last = page.at(-1);
        if (last === undefined) break;
        // A short page means caught up: only the last page may be short.
        if (page.length < 5) assert.equal(read.length + page.length, expected.length);
        assert.ok(page.every((e) => streamCategory(e.streamId) === red || e.type === 'Wanted'));
        read.push(...page.map((e) => e.metadata.eventId));
        cursor = last.position;
      }
      assert.deepEqual(read, expected);
    });
  });

  test('system events and foreign events: system ones are skipped, foreign ones pass through', async () => {
    await withStore(async (store, server) => {
      server.appendForeign('$$orders-1', '$metadata', { $maxAge: 10 });
      server.appendForeign('legacy-1', 'LegacyThing', { hello: 'world' });
      server.appendForeign('legacy-2', 'Blob', new Uint8Array([1, 2, 3]));
      server.appendForeign('$stats-x', 'statsCollected', {});
      const events = await store.readAll(null, { maxCount: 10 });
      assert.deepEqual(
        events.map((e) => [e.streamId, e.type, e.schemaVersion, e.data]),
        [
          ['legacy-1', 'LegacyThing', 1, { hello: 'world' }],
          ['legacy-2', 'Blob', 1, null],
        ],
      );
      assert.equal(await store.headPosition(), events[1]?.position);
      assert.equal(await store.countAfter(null), 2);
    });
  });

  test('countAfter is exact up to its limit and estimated beyond', async () => {
    await withStore(
      async (store) => {
        for (let i = 0; i < 40; i++) await store.append(`${uniqueCategory()}-a`, [sampleEvent('A')], 'no_stream');
        const count = await store.countAfter(null);
        assert.ok(count >= 30 && count <= 50, `estimate ${count} for 40 events`);
        const thirtyFifth = (await store.readAll(null, { maxCount: 35 })).at(-1);
        assert.ok(thirtyFifth);
        assert.equal(await store.countAfter(thirtyFifth.position), 5);
      },
      { countExactUpTo: 8 },
    );
  });

  test('positions of another backend are a BAD_REQUEST', async () => {
    await withStore(async (store) => {
      const sqlite = 's:00000000000000000001';
      await assert.rejects(store.readAll(sqlite, { maxCount: 1 }), (err: unknown) => isAppError(err, 'BAD_REQUEST'));
      await assert.rejects(store.countAfter(sqlite), (err: unknown) => isAppError(err, 'BAD_REQUEST'));
    });
  });

  test('a failed append resolved instead of thrown (throwOnAppendFailure=false) is a conflict', async () => {
    await withStore(
      async (store) => {
        await assert.rejects(store.append('t-a', [sampleEvent('A')], 3), { name: 'StreamConflictError', actual: 7 });
      },
      {
        client: (client) => ({
          ...client,
          appendToStream: async () => ({ success: false, nextExpectedRevision: 7n }),
        }),
      },
    );
  });

  test('a dropped subscription is reopened and notifications resume', async () => {
    await withStore(async (store, server) => {
      const writer = createKurrentEventStoreOnClient(server.client(), {});
      const seen = appendNotification(store);
      try {
        const first = await writer.append(`${uniqueCategory()}-a`, [sampleEvent('A')], 'any');
        await seen.until(first.position);
        server.dropSubscriptions();
        const second = await writer.append(`${uniqueCategory()}-a`, [sampleEvent('B')], 'any');
        assert.ok(comparePositions(await seen.until(second.position), second.position) >= 0);
        assert.equal(server.subscriptionCount(), 1);
      } finally {
        seen.stop();
        await writer.close();
      }
      assert.equal(server.subscriptionCount(), 0);
    });
  });

  test('ping is false when the server does not answer', async () => {
    await withStore(
      async (store) => {
        assert.equal(await store.ping(), false);
      },
      {
        client: (client) => ({
          ...client,
          readAll: () => {
            throw new Error('unavailable');
          },
        }),
      },
    );
  });
});
