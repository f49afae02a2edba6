// The EventStore port's guarantees (contracts/ports/eventStore.ts), run against every adapter.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { comparePositions, createUpcaster, positionBackend, streamCategory } from '../../contracts/index.ts';
import type { EventStore, NewEvent, Position, RecordedEvent, UpcastFn } from '../../contracts/index.ts';
import { appendNotification, sampleEvent, uniqueCategory } from './eventStoreFixtures.ts';

export type OpenedEventStore = {
  readonly store: EventStore;
  /** Closes `store` and removes whatever data it created. */
  cleanup(): Promise<void>;
  /** Opens another instance on the same backend (another connection/process view); the suite closes it. */
  openSecond?(): Promise<EventStore>;
};

export type OpenEventStoreOptions = { readonly upcast?: UpcastFn };

export type EventStoreContractOptions = {
  /** Every `open` starts from an empty log, so exact head and count checks apply (false for a shared server). */
  readonly freshBackend?: boolean;
};

export function eventStoreContract(
  name: string,
  open: (options: OpenEventStoreOptions) => Promise<OpenedEventStore>,
  contractOptions: EventStoreContractOptions = {},
): void {
  const fresh = contractOptions.freshBackend ?? false;

  describe(`EventStore contract: ${name}`, () => {
    let opened: OpenedEventStore;
    let store: EventStore;
    let category: string;
    const stream = (suffix: string): string => `${category}-${suffix}`;

    beforeEach(async () => {
      opened = await open({});
      store = opened.store;
      category = uniqueCategory();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    /** Our events in the log after `after`, read in batches of `batch` (a shared backend holds others' too). */
    async function readOurs(after: Position | null, batch: number, categories?: string[]): Promise<RecordedEvent[]> {
      const ourCategories = categories ?? [category];
      const ours: RecordedEvent[] = [];
      let cursor = after;
      for (;;) {
        const page = await store.readAll(cursor, { maxCount: batch, ...(categories ? { categories } : {}) });
        assert.ok(page.length <= batch, `readAll returned ${page.length} events for maxCount ${batch}`);
        const last = page[page.length - 1];
        if (last === undefined) return ours;
        cursor = last.position;
        ours.push(...page.filter((e) => ourCategories.includes(streamCategory(e.streamId))));
      }
    }

    test('appends to a new stream and reads every field back', async () => {
      const events = [
        sampleEvent('ThingCreated', { name: 'ä "quoted" \u2713', nested: { list: [1, null, true] } }),
        sampleEvent('ThingRenamed', null),
      ];
      const result = await store.append(stream('a'), events, 'no_stream');
      assert.equal(result.nextExpectedRevision, 1);
      assert.equal(positionBackend(result.position), store.backend);
      const read = await store.readStream(stream('a'));
      assert.equal(read.length, 2);
      read.forEach((event, i) => {
        const sent = events[i];
        assert.ok(sent);
        assert.deepEqual(
          { type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata },
          { type: sent.type, schemaVersion: sent.schemaVersion, data: sent.data, metadata: sent.metadata },
        );
        assert.equal(event.streamId, stream('a'));
        assert.equal(event.revision, i);
      });
      assert.ok(comparePositions(read[0]?.position ?? null, read[1]?.position ?? null) < 0);
      assert.equal(read[1]?.position, result.position);
    });

    test('expected revision any appends to new and existing streams', async () => {
      assert.equal((await store.append(stream('a'), [sampleEvent('A')], 'any')).nextExpectedRevision, 0);
      assert.equal((await store.append(stream('a'), [sampleEvent('B')], 'any')).nextExpectedRevision, 1);
      assert.deepEqual(
        (await store.readStream(stream('a'))).map((e) => e.type),
        ['A', 'B'],
      );
    });

    test('an exact expected revision appends; a stale one conflicts and appends nothing', async () => {
      const first = await store.append(stream('a'), [sampleEvent('A')], 'no_stream');
      const second = await store.append(stream('a'), [sampleEvent('B'), sampleEvent('C')], first.nextExpectedRevision);
      assert.equal(second.nextExpectedRevision, 2);
      const err = await store.append(stream('a'), [sampleEvent('D'), sampleEvent('E')], 0).then(
        () => assert.fail('a stale expected revision must conflict'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof Error && err.name === 'StreamConflictError', String(err));
      const { streamId, expected, actual } = err as Error & Record<string, unknown>;
      assert.deepEqual({ streamId, expected, actual }, { streamId: stream('a'), expected: 0, actual: 2 });
      assert.deepEqual(
        (await store.readStream(stream('a'))).map((e) => e.type),
        ['A', 'B', 'C'],
      );
    });

    test('no_stream on an existing stream and a revision on a missing stream conflict', async () => {
      await store.append(stream('a'), [sampleEvent('A')], 'no_stream');
      await assert.rejects(store.append(stream('a'), [sampleEvent('B')], 'no_stream'), {
        name: 'StreamConflictError',
        actual: 0,
      });
      await assert.rejects(store.append(stream('missing'), [sampleEvent('B')], 0), {
        name: 'StreamConflictError',
        actual: null,
      });
      assert.equal(await store.streamRevision(stream('missing')), null);
      assert.equal((await store.readStream(stream('a'))).length, 1);
    });

    test('appendBatch appends each request in order and answers each with its own result', async () => {
      const outcomes = await store.appendBatch([
        { streamId: stream('a'), events: [sampleEvent('A1')], expected: 'no_stream' },
        { streamId: stream('b'), events: [sampleEvent('B1'), sampleEvent('B2')], expected: 'any' },
        { streamId: stream('a'), events: [sampleEvent('A2'), sampleEvent('A3')], expected: 0 },
      ]);
      const results = outcomes.map((outcome) => {
        assert.ok(outcome.ok, `every request appends: ${outcome.ok ? '' : String(outcome.error)}`);
        return outcome.result;
      });
      assert.deepEqual(
        results.map((r) => r.nextExpectedRevision),
        [0, 1, 2],
      );
      const [a1, b2, a3] = results.map((r) => r.position);
      assert.ok(a1 && b2 && a3 && comparePositions(a1, b2) < 0 && comparePositions(b2, a3) < 0, 'positions follow the request order');
      const a = await store.readStream(stream('a'));
      assert.deepEqual(
        a.map((e) => e.type),
        ['A1', 'A2', 'A3'],
      );
      assert.equal(a.at(-1)?.position, a3, "a request's position is its last event's");
      assert.equal((await store.readStream(stream('b'))).at(-1)?.position, b2);
    });

    test('appendBatch: a failing request fails alone, and later requests to its stream fail unattempted', async () => {
      await store.append(stream('a'), [sampleEvent('A0')], 'no_stream');
      const outcomes = await store.appendBatch([
        { streamId: stream('b'), events: [sampleEvent('B1')], expected: 'no_stream' },
        // Stale: the stream is at revision 0.
        { streamId: stream('a'), events: [sampleEvent('A1')], expected: 'no_stream' },
        // Its expectation was computed as if A1 had been appended; it matches the stream by chance and must not land.
        { streamId: stream('a'), events: [sampleEvent('A2')], expected: 0 },
        { streamId: stream('b'), events: [sampleEvent('B2')], expected: 0 },
        { streamId: stream('c'), events: [], expected: 'any' },
        { streamId: stream('c'), events: [sampleEvent('C1')], expected: 'any' },
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.ok),
        [true, false, false, true, false, false],
      );
      for (const i of [1, 2, 5]) {
        const outcome = outcomes[i];
        assert.ok(outcome && !outcome.ok && outcome.error instanceof Error && outcome.error.name === 'StreamConflictError', `request ${i}`);
      }
      assert.deepEqual(
        (await store.readStream(stream('a'))).map((e) => e.type),
        ['A0'],
      );
      assert.deepEqual(
        (await store.readStream(stream('b'))).map((e) => e.type),
        ['B1', 'B2'],
      );
      assert.equal(await store.streamRevision(stream('c')), null);
    });

    test('rejects an empty append', async () => {
      await assert.rejects(store.append(stream('a'), [], 'any'));
      assert.equal(await store.streamRevision(stream('a')), null);
    });

    test('readStream honours fromRevision and maxCount and returns [] for a missing stream', async () => {
      await store.append(
        stream('a'),
        ['A', 'B', 'C', 'D', 'E'].map((t) => sampleEvent(t)),
        'no_stream',
      );
      const types = async (options?: { fromRevision?: number; maxCount?: number }) =>
        (await store.readStream(stream('a'), options)).map((e) => `${e.revision}:${e.type}`);
      assert.deepEqual(await types(), ['0:A', '1:B', '2:C', '3:D', '4:E']);
      assert.deepEqual(await types({ fromRevision: 3 }), ['3:D', '4:E']);
      assert.deepEqual(await types({ maxCount: 2 }), ['0:A', '1:B']);
      assert.deepEqual(await types({ fromRevision: 1, maxCount: 3 }), ['1:B', '2:C', '3:D']);
      assert.deepEqual(await types({ fromRevision: 9 }), []);
      assert.deepEqual(await store.readStream(stream('missing')), []);
    });

    test('streamRevision is null for a missing stream, then the last revision', async () => {
      assert.equal(await store.streamRevision(stream('a')), null);
      await store.append(stream('a'), [sampleEvent('A'), sampleEvent('B')], 'no_stream');
      assert.equal(await store.streamRevision(stream('a')), 1);
      await store.append(stream('a'), [sampleEvent('C')], 1);
      assert.equal(await store.streamRevision(stream('a')), 2);
    });

    test('readAll returns every event after a position in global order, in batches', async () => {
      const before = await store.headPosition();
      if (fresh) assert.equal(before, null);
      const expected: string[] = [];
      for (let i = 0; i < 25; i++) {
        const event = sampleEvent(`E${i}`);
        await store.append(stream(`s${i % 3}`), [event], 'any');
        expected.push(event.metadata.eventId);
      }
      const read = await readOurs(before, 7);
      assert.deepEqual(
        read.map((e) => e.metadata.eventId),
        expected,
      );
      for (let i = 1; i < read.length; i++) {
        assert.ok(comparePositions(read[i - 1]?.position ?? null, read[i]?.position ?? null) < 0, 'strictly ordered');
      }
      const middle = read[9];
      assert.ok(middle);
      assert.deepEqual(
        (await readOurs(middle.position, 4)).map((e) => e.metadata.eventId),
        expected.slice(10),
      );
      if (fresh) assert.equal((await store.readAll(null, { maxCount: 100 })).length, 25);
    });

    test('readAll with categories returns only those categories, in global order', async () => {
      const before = await store.headPosition();
      const [red, green, blue] = [uniqueCategory(), uniqueCategory(), uniqueCategory()];
      const appended: { category: string; id: string }[] = [];
      for (let i = 0; i < 30; i++) {
        const cat = [red, green, blue][i % 3] ?? red;
        const event = sampleEvent(`E${i}`);
        await store.append(`${cat}-${i % 2}`, [event], 'any');
        appended.push({ category: cat, id: event.metadata.eventId });
      }
      const idsOf = (cats: string[]) => appended.filter((a) => cats.includes(a.category)).map((a) => a.id);
      assert.deepEqual(
        (await readOurs(before, 4, [red])).map((e) => e.metadata.eventId),
        idsOf([red]),
      );
      const two = await readOurs(before, 6, [red, blue]);
      assert.deepEqual(
        two.map((e) => e.metadata.eventId),
        idsOf([red, blue]),
      );
      assert.ok(two.every((e) => [red, blue].includes(streamCategory(e.streamId))));
      assert.deepEqual(await store.readAll(before, { maxCount: 10, categories: [uniqueCategory()] }), []);
    });

    test('readAll with maxBytes answers a non-empty prefix; reading on from its last event gives the rest', async () => {
      const before = await store.headPosition();
      const [red, blue] = [uniqueCategory(), uniqueCategory()];
      const expected: string[] = [];
      for (let i = 0; i < 6; i++) {
        const event = { ...sampleEvent(`Sized${i}`), data: { text: 'x'.repeat(500) } };
        await store.append(`${i % 2 === 0 ? red : blue}-1`, [event], 'any');
        expected.push(event.metadata.eventId);
      }
      const whole = await store.readAll(before, { maxCount: 100, categories: [red, blue] });
      assert.deepEqual(
        whole.map((e) => e.metadata.eventId),
        expected,
      );
      const first = await store.readAll(before, { maxCount: 100, categories: [red, blue], maxBytes: 700 });
      assert.ok(first.length >= 1);
      assert.deepEqual(
        first.map((e) => e.metadata.eventId),
        expected.slice(0, first.length),
      );
      const read = [...first];
      for (let cursor = first.at(-1)?.position ?? null; ;) {
        const page = await store.readAll(cursor, { maxCount: 100, categories: [red, blue], maxBytes: 700 });
        if (page.length === 0) break;
        read.push(...page);
        cursor = page.at(-1)?.position ?? cursor;
      }
      assert.deepEqual(
        read.map((e) => e.metadata.eventId),
        expected,
      );
    });

    test('readAll with categories and eventTypes returns events matching either list, once, in global order', async () => {
      const before = await store.headPosition();
      const [kept, other] = [uniqueCategory(), uniqueCategory()];
      const markerType = `Marker${uniqueCategory().replace(/[^A-Za-z0-9]/g, '')}`;
      const expected: string[] = [];
      for (let i = 0; i < 12; i++) {
        const inKept = i % 3 === 0;
        const marked = i % 4 === 0;
        const event = sampleEvent(marked ? markerType : `Plain${i}`);
        await store.append(`${inKept ? kept : other}-${i % 2}`, [event], 'any');
        if (inKept || marked) expected.push(event.metadata.eventId);
      }
      const read: RecordedEvent[] = [];
      let cursor = before;
      for (;;) {
        const page = await store.readAll(cursor, { maxCount: 2, categories: [kept], eventTypes: [markerType] });
        const ours = page.filter((e) => [kept, other].includes(streamCategory(e.streamId)));
        read.push(...ours);
        if (page.length === 0) break;
        cursor = page[page.length - 1]?.position ?? cursor;
      }
      assert.deepEqual(
        read.map((e) => e.metadata.eventId),
        expected,
      );
      const typesOnly = await store.readAll(before, { maxCount: 100, eventTypes: [markerType] });
      assert.deepEqual(
        typesOnly.map((e) => e.type),
        [markerType, markerType, markerType],
      );
    });

    test('headPosition follows appends', async () => {
      if (fresh) assert.equal(await store.headPosition(), null);
      const result = await store.append(stream('a'), [sampleEvent('A'), sampleEvent('B')], 'any');
      const head = await store.headPosition();
      assert.ok(head !== null && comparePositions(head, result.position) >= 0);
      if (fresh) assert.equal(head, result.position);
    });

    test('countAfter counts events after a position', async () => {
      const before = await store.headPosition();
      await store.append(stream('a'), [sampleEvent('A'), sampleEvent('B'), sampleEvent('C')], 'any');
      const result = await store.append(stream('b'), [sampleEvent('D'), sampleEvent('E')], 'any');
      const count = await store.countAfter(before);
      assert.ok(Number.isInteger(count) && count >= 0);
      if (fresh) {
        assert.equal(count, 5);
        assert.equal(await store.countAfter(null), 5);
        assert.equal(await store.countAfter(result.position), 0);
        const second = (await store.readStream(stream('a')))[1];
        assert.ok(second);
        assert.equal(await store.countAfter(second.position), 3);
      }
    });

    test('a retried append (same first event id) returns the original result without appending', async () => {
      await store.append(stream('a'), [sampleEvent('A')], 'no_stream');
      const events = [sampleEvent('B'), sampleEvent('C')];
      const original = await store.append(stream('a'), events, 0);
      assert.deepEqual(await store.append(stream('a'), events, 0), original);
      assert.deepEqual(await store.append(stream('a'), events, 'any'), original);
      assert.deepEqual(
        (await store.readStream(stream('a'))).map((e) => e.type),
        ['A', 'B', 'C'],
      );
    });

    test('concurrent appends with the same expected revision: exactly one wins', async () => {
      const { nextExpectedRevision } = await store.append(stream('a'), [sampleEvent('A')], 'no_stream');
      const second = opened.openSecond ? await opened.openSecond() : undefined;
      try {
        const stores = second ? [store, second] : [store];
        const attempts = Array.from({ length: 8 }, (_, i) =>
          (stores[i % stores.length] ?? store).append(stream('a'), [sampleEvent(`B${i}`)], nextExpectedRevision),
        );
        const settled = await Promise.allSettled(attempts);
        assert.equal(settled.filter((s) => s.status === 'fulfilled').length, 1);
        for (const s of settled) {
          if (s.status === 'rejected') assert.equal((s.reason as Error).name, 'StreamConflictError');
        }
        assert.equal(await store.streamRevision(stream('a')), 1);
      } finally {
        await second?.close();
      }
    });

    test('onAppended fires after own appends and stops when unsubscribed', async () => {
      const heads: Position[] = [];
      const seen = appendNotification(store);
      const stop = store.onAppended((head) => heads.push(head));
      const result = await store.append(stream('a'), [sampleEvent('A')], 'any');
      assert.ok(comparePositions(await seen.until(result.position), result.position) >= 0);
      seen.stop();
      stop();
      const count = heads.length;
      await store.append(stream('a'), [sampleEvent('B')], 'any');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(heads.length, count, 'no notification after unsubscribing');
    });

    test('onAppended fires for appends made through a second instance', async (t) => {
      if (!opened.openSecond) {
        t.skip('this adapter cannot open a second instance on the same backend');
        return;
      }
      const second = await opened.openSecond();
      const seen = appendNotification(store);
      try {
        const result = await second.append(stream('a'), [sampleEvent('A')], 'any');
        assert.ok(comparePositions(await seen.until(result.position), result.position) >= 0);
        assert.equal((await store.readStream(stream('a'))).length, 1);
      } finally {
        seen.stop();
        await second.close();
      }
    });

    test('the upcaster is applied to readStream and readAll', async () => {
      const upcast = createUpcaster([
        {
          type: 'ThingCreated',
          fromVersion: 1,
          upcast: (data) => ({ type: 'ThingCreated', schemaVersion: 2, data: { ...(data as object), v2: true } }),
        },
      ]);
      const withUpcast = await open({ upcast });
      try {
        const s = withUpcast.store;
        const before = await s.headPosition();
        const event: NewEvent = { ...sampleEvent('ThingCreated', { name: 'x' }), schemaVersion: 1 };
        await s.append(stream('u'), [event, sampleEvent('Other', { keep: 1 })], 'no_stream');
        const expected = [
          { type: 'ThingCreated', schemaVersion: 2, data: { name: 'x', v2: true } },
          { type: 'Other', schemaVersion: 1, data: { keep: 1 } },
        ];
        const shape = (events: RecordedEvent[]) => events.map((e) => ({ type: e.type, schemaVersion: e.schemaVersion, data: e.data }));
        assert.deepEqual(shape(await s.readStream(stream('u'))), expected);
        assert.deepEqual(shape(await s.readAll(before, { maxCount: 10, categories: [category] })), expected);
      } finally {
        await withUpcast.cleanup();
      }
    });

    test('ping reports a reachable store', async () => {
      assert.equal(await store.ping(), true);
    });
  });
}
