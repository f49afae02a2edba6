// The EventStaging guarantees (contracts/ports/eventStore.ts), run against every event store that has a staging area.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { comparePositions } from '../../contracts/index.ts';
import type { EventStaging, EventStore, Position } from '../../contracts/index.ts';
import type { OpenedEventStore, OpenEventStoreOptions } from './eventStoreContract.ts';
import { appendNotification, sampleEvent, uniqueCategory } from './eventStoreFixtures.ts';

export function eventStagingContract(name: string, open: (options: OpenEventStoreOptions) => Promise<OpenedEventStore>): void {
  describe(`EventStaging contract: ${name}`, () => {
    let opened: OpenedEventStore;
    let store: EventStore;
    let staging: EventStaging;
    let category: string;
    const stream = (suffix: string): string => `${category}-${suffix}`;
    const stagingId = (suffix: string): string => `${category}-staging-${suffix}`;

    beforeEach(async () => {
      opened = await open({});
      store = opened.store;
      assert.ok(store.staging, 'the adapter has a staging area');
      staging = store.staging;
      category = uniqueCategory();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    /** What every read of the log says, to compare before and after staging. */
    async function logView(): Promise<unknown> {
      const head = await store.headPosition();
      return {
        head,
        count: await store.countAfter(null),
        stream: (await store.readStream(stream('a'))).map((event) => event.metadata.eventId),
        revision: await store.streamRevision(stream('a')),
        all: (await store.readAll(null, { maxCount: 10_000 })).map((event) => event.metadata.eventId),
        category: (await store.readAll(null, { maxCount: 10_000, categories: [category] })).length,
        types: (await store.readAll(null, { maxCount: 10_000, eventTypes: ['Staged'] })).length,
      };
    }

    test('staged events are returned by no read until the commit appends them after the stream, in order', async () => {
      const before = await store.append(stream('a'), [sampleEvent('A'), sampleEvent('B')], 'no_stream');
      const seenBefore = await logView();
      const pages = [
        [sampleEvent('Staged', { page: 0, n: 0 }), sampleEvent('Staged', { page: 0, n: 1 })],
        [sampleEvent('Staged', { page: 1, n: 0, text: 'ä "quoted" \u2713' })],
        [sampleEvent('Staged', { page: 2, n: 0 }), sampleEvent('Other', null)],
      ];
      for (const page of pages) await staging.stage(stagingId('1'), page);
      assert.equal(await staging.stagedCount(stagingId('1')), 5);
      assert.deepEqual(await logView(), seenBefore, 'staging changes no read');

      const seen = appendNotification(store);
      try {
        const result = await staging.commit(stagingId('1'), stream('a'), before.nextExpectedRevision);
        assert.equal(result.nextExpectedRevision, 6);
        assert.ok(comparePositions(await seen.until(result.position), result.position) >= 0, 'listeners are notified');
      } finally {
        seen.stop();
      }
      const read = await store.readStream(stream('a'));
      const sent = pages.flat();
      assert.deepEqual(
        read.slice(2).map((event) => ({ type: event.type, data: event.data, metadata: event.metadata, revision: event.revision })),
        sent.map((event, i) => ({ type: event.type, data: event.data, metadata: event.metadata, revision: i + 2 })),
      );
      const all = await store.readAll(before.position, { maxCount: 100 });
      assert.deepEqual(
        all.map((event) => event.metadata.eventId),
        sent.map((event) => event.metadata.eventId),
      );
      assert.ok(all.every((event, i) => i === 0 || comparePositions(all[i - 1]?.position ?? null, event.position) < 0));
      assert.equal(all.at(-1)?.position, await store.headPosition());
      assert.equal(await staging.stagedCount(stagingId('1')), 0, 'the commit empties the staging');
    });

    test('a retried commit answers the first result and appends nothing; an empty staging cannot commit', async () => {
      await staging.stage(stagingId('1'), [sampleEvent('Staged')]);
      const first = await staging.commit(stagingId('1'), stream('a'), 'no_stream');
      const again = await staging.commit(stagingId('1'), stream('a'), 'no_stream');
      assert.deepEqual(again, first);
      assert.equal((await store.readStream(stream('a'))).length, 1);
      await assert.rejects(staging.commit(stagingId('never'), stream('a'), 'any'), /holds no events/);
    });

    test('a stale expected revision appends nothing and keeps the staging; discard deletes it', async () => {
      await store.append(stream('a'), [sampleEvent('A')], 'no_stream');
      await staging.stage(stagingId('1'), [sampleEvent('Staged'), sampleEvent('Staged')]);
      const seenBefore = await logView();
      await assert.rejects(staging.commit(stagingId('1'), stream('a'), 'no_stream'), { name: 'StreamConflictError', actual: 0 });
      assert.deepEqual(await logView(), seenBefore);
      assert.equal(await staging.stagedCount(stagingId('1')), 2);
      await staging.discard(stagingId('1'));
      assert.equal(await staging.stagedCount(stagingId('1')), 0);
      await assert.rejects(staging.commit(stagingId('1'), stream('a'), 0), /holds no events/);
      assert.deepEqual(await logView(), seenBefore);
    });

    test('an event id already in the log fails the commit whole', async () => {
      const taken = sampleEvent('A');
      await store.append(stream('b'), [taken], 'no_stream');
      await staging.stage(stagingId('1'), [sampleEvent('Staged'), taken]);
      await assert.rejects(staging.commit(stagingId('1'), stream('a'), 'any'));
      assert.equal(await store.streamRevision(stream('a')), null);
    });

    test('stagings are separate; discardAbandoned deletes those idle for the given time', async () => {
      await staging.stage(stagingId('1'), [sampleEvent('Staged', { s: 1 })]);
      await staging.stage(stagingId('2'), [sampleEvent('Staged', { s: 2 }), sampleEvent('Staged', { s: 2 })]);
      assert.equal(await staging.discardAbandoned(60_000), 0, 'fresh stagings of a live process are kept');
      const listed = (await staging.list()).filter((entry) => entry.stagingId.startsWith(category));
      assert.deepEqual(listed.map((entry) => [entry.stagingId, entry.events]).sort(), [
        [stagingId('1'), 1],
        [stagingId('2'), 2],
      ]);
      assert.ok(listed.every((entry) => entry.touchedAt > 0));
      const committed = await staging.commit(stagingId('2'), stream('a'), 'no_stream');
      assert.equal(committed.nextExpectedRevision, 1);
      assert.deepEqual(
        (await store.readStream(stream('a'))).map((event) => event.data),
        [{ s: 2 }, { s: 2 }],
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(await staging.discardAbandoned(0), 1);
      assert.equal(await staging.stagedCount(stagingId('1')), 0);
      assert.deepEqual(await staging.list(), []);
    });

    test('checkUnique finds the clashes of recorded values as one command would; discard and commit drop them', async () => {
      const v = (index: number, rowId: string, field: number, value: string | number, holder: string | null = null, created = true) => ({
        index,
        rowId,
        field,
        path: field === 0 ? '/sku' : '/n',
        value,
        holder,
        created,
      });
      // sku "a": n1 first, n3 repeats it. sku "b": held by h1, which the staging also writes (free). sku "c": held by
      // h2, which it neither writes nor deletes (every row of the value clashes with h2). n 7 (number) and sku "7"
      // (string) never clash; n 5 repeats across fields only in name. h3 is deleted: its value "d" is free.
      await staging.recordUnique(
        stagingId('u'),
        [v(0, 'n1', 0, 'a'), v(1, 'n2', 0, 'b', 'h1'), v(2, 'n3', 0, 'a'), v(3, 'n4', 1, 7)],
        ['n1', 'n2', 'n3', 'n4'],
      );
      await staging.recordUnique(
        stagingId('u'),
        [v(4, 'h1', 0, 'x', null, false), v(5, 'n5', 0, 'c', 'h2'), v(5, 'n5', 1, 5), v(6, 'n6', 0, '7'), v(7, 'n7', 0, 'd', 'h3')],
        ['h1', 'n5', 'n6', 'n7'],
      );
      await staging.recordUnique(stagingId('u'), [v(8, 'n8', 0, 'c', 'h2', false), v(8, 'n8', 1, 5, null, false)], ['n8', 'h3']);
      const found = await staging.checkUnique(stagingId('u'), 2);
      assert.deepEqual({ rows: found.rows, created: found.created, updated: found.updated }, { rows: 3, created: 2, updated: 1 });
      assert.deepEqual(found.first, [
        { index: 2, rowId: 'n3', field: 0, path: '/sku', value: 'a', otherRowId: 'n1' },
        { index: 5, rowId: 'n5', field: 0, path: '/sku', value: 'c', otherRowId: 'h2' },
      ]);
      assert.deepEqual((await staging.checkUnique(stagingId('u'), 100)).first.slice(2), [
        { index: 8, rowId: 'n8', field: 0, path: '/sku', value: 'c', otherRowId: 'h2' },
        { index: 8, rowId: 'n8', field: 1, path: '/n', value: 5, otherRowId: 'n5' },
      ]);
      assert.deepEqual([...(await staging.clashingRows(stagingId('u'), ['n1', 'n3', 'n8', 'zz']))].sort(), ['n3', 'n8']);
      await staging.discard(stagingId('u'));
      assert.deepEqual((await staging.checkUnique(stagingId('u'), 100)).rows, 0, 'discard drops the recorded values');
      await staging.recordUnique(stagingId('w'), [v(0, 'n1', 0, 'a'), v(1, 'n2', 0, 'a')], ['n1', 'n2']);
      await staging.stage(stagingId('w'), [sampleEvent('Staged')]);
      await staging.commit(stagingId('w'), stream('a'), 'no_stream');
      assert.equal((await staging.checkUnique(stagingId('w'), 100)).rows, 0, 'commit drops them');
      assert.equal(await staging.discardAbandoned(60_000), 0);
    });

    test('a second instance commits what the first staged, and the first reads it', async (t) => {
      if (!opened.openSecond) {
        t.skip('this adapter cannot open a second instance on the same backend');
        return;
      }
      const second = await opened.openSecond();
      try {
        await staging.stage(stagingId('1'), [sampleEvent('Staged')]);
        const result = await second.staging?.commit(stagingId('1'), stream('a'), 'no_stream');
        const head: Position | null = await store.headPosition();
        assert.equal(result?.position, head);
        assert.equal((await store.readStream(stream('a'))).length, 1);
      } finally {
        await second.close();
      }
    });
  });
}
