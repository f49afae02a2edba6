// SQLite-specific behaviour beyond the EventStore contract (tests/contract/eventStoreContract.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppError, sqliteGlobalPosition } from '../../contracts/index.ts';
import type { NewEvent } from '../../contracts/index.ts';
import { createSqliteEventStore } from './sqliteEventStore.ts';
import { openEventsDatabase, prepareEventStatements } from './sqliteEventSchema.ts';

function event(type: string, eventId: string = randomUUID()): NewEvent {
  return {
    type,
    schemaVersion: 1,
    data: { type },
    metadata: { eventId, correlationId: 'c', causationId: null, principal: 'system', time: '2025-03-01T09:30:00.000Z' },
  };
}

async function withFile(run: (file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-sqlite-events-'));
  try {
    await run(join(dir, 'events.db'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a failing append in a group commit rolls back alone and leaves no gap', () =>
  withFile(async (file) => {
    const store = createSqliteEventStore({ file });
    try {
      const taken = randomUUID();
      const first = await store.append('thing-1', [event('A', taken)], 'no_stream');
      // Same tick: both share one transaction. The first reuses an event id stored in another stream.
      const [bad, good] = await Promise.allSettled([
        store.append('thing-2', [event('B'), event('C', taken)], 'any'),
        store.append('thing-3', [event('D')], 'any'),
      ]);
      assert.equal(bad?.status, 'rejected');
      assert.equal(good?.status, 'fulfilled');
      assert.deepEqual(await store.readStream('thing-2'), []);
      const position = good.status === 'fulfilled' ? good.value.position : '';
      assert.equal(sqliteGlobalPosition(position), sqliteGlobalPosition(first.position) + 1);
    } finally {
      await store.close();
    }
  }));

test('appends issued in one tick to one stream apply in order', () =>
  withFile(async (file) => {
    const store = createSqliteEventStore({ file });
    try {
      const results = await Promise.all([
        store.append('thing-1', [event('A')], 'no_stream'),
        store.append('thing-1', [event('B')], 0),
        store.append('thing-1', [event('C')], 1),
      ]);
      assert.deepEqual(
        results.map((r) => r.nextExpectedRevision),
        [0, 1, 2],
      );
    } finally {
      await store.close();
    }
  }));

test('close writes appends still waiting for the group commit, and the log survives reopening', () =>
  withFile(async (file) => {
    const store = createSqliteEventStore({ file });
    const pending = store.append('thing-1', [event('A'), event('B')], 'no_stream');
    await store.close();
    assert.equal((await pending).nextExpectedRevision, 1);
    await assert.rejects(store.append('thing-1', [event('C')], 1), /closed/);
    const reopened = createSqliteEventStore({ file });
    try {
      assert.deepEqual(
        (await reopened.readStream('thing-1')).map((e) => e.type),
        ['A', 'B'],
      );
    } finally {
      await reopened.close();
    }
  }));

test('readAll rejects a position from another backend', () =>
  withFile(async (file) => {
    const store = createSqliteEventStore({ file });
    try {
      const kurrent = `k:${'0'.repeat(20)}:${'0'.repeat(20)}`;
      await assert.rejects(store.readAll(kurrent, { maxCount: 10 }), (err) => isAppError(err, 'BAD_REQUEST'));
    } finally {
      await store.close();
    }
  }));

test('log reads are index searches, never scans or sorts', () =>
  withFile(async (file) => {
    const db = openEventsDatabase(file);
    try {
      const stmts = prepareEventStatements(db);
      const plan = (sql: string, ...params: unknown[]) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...params)
          .map((row) => (row as { detail: string }).detail)
          .join(' | ');
      assert.match(plan(stmts.readCategory.source, 'draft', 0, 10), /^SEARCH events USING INDEX events_category_position/);
      assert.match(plan(stmts.readAll.source, 0, 10), /^SEARCH events USING INTEGER PRIMARY KEY/);
      assert.match(plan(stmts.readStream.source, 'draft-1', 0, 10), /^SEARCH events USING INDEX/);
      assert.match(plan(stmts.streamRevision.source, 'draft-1'), /^SEARCH events USING COVERING INDEX/);
    } finally {
      db.close();
    }
  }));

test('readAll with maxBytes stops after the event whose data reaches it; a merge of categories stops at the first cut', () =>
  withFile(async (file) => {
    const store = createSqliteEventStore({ file });
    // A second connection: it appended nothing, so it reads the log (the writer answers from its last appends).
    const reader = createSqliteEventStore({ file });
    try {
      const big = (type: string): NewEvent => ({ ...event(type), data: { type, text: 'x'.repeat(1000) } });
      // a1 b1 a2 b2 a3 b3: each event's data is about 1 KB.
      for (let i = 0; i < 3; i++) {
        await store.append('alpha-1', [big('A')], 'any');
        await store.append('beta-1', [big('B')], 'any');
      }
      const types = (events: readonly { type: string }[]) => events.map((e) => e.type).join(' ');
      assert.equal(types(await reader.readAll(null, { maxCount: 10 })), 'A B A B A B');
      const cut = await reader.readAll(null, { maxCount: 10, maxBytes: 1500 });
      assert.deepEqual([types(cut), cut.cutShort], ['A B', true]);
      assert.equal(types(await reader.readAll(null, { maxCount: 10, maxBytes: 1 })), 'A');
      assert.equal((await reader.readAll(null, { maxCount: 10 })).cutShort, undefined);
      assert.equal(types(await reader.readAll(null, { maxCount: 10, categories: ['alpha'], maxBytes: 2500 })), 'A A A');
      // Each category's read is cut after two events (a1 a2 and b1 b2): the merge ends at a2, the earlier end.
      const merged = await reader.readAll(null, { maxCount: 10, categories: ['alpha', 'beta'], maxBytes: 1500 });
      assert.deepEqual([types(merged), merged.cutShort], ['A B A', true]);
      const rest = await reader.readAll(merged.at(-1)?.position ?? null, { maxCount: 10, categories: ['alpha', 'beta'], maxBytes: 1500 });
      assert.equal(types(rest), 'B A B');
      // The writer's own last appends are cut the same way (data and metadata counted).
      const own = await store.readAll(null, { maxCount: 10, categories: ['alpha', 'beta'], maxBytes: 1500 });
      assert.deepEqual([types(own), own.cutShort], ['A B', true]);
    } finally {
      await reader.close();
      await store.close();
    }
  }));

test('reads of the last appends answer from memory exactly what the log holds, also around other writers', () =>
  withFile(async (file) => {
    const writer = createSqliteEventStore({ file, pollIntervalMs: 5 });
    // A second connection on the same file: it appended nothing, so it always reads the log.
    const other = createSqliteEventStore({ file, pollIntervalMs: 5 });
    const readBoth = async (after: string | null, options: Parameters<typeof writer.readAll>[1]) => {
      const [mine, logged] = await Promise.all([writer.readAll(after, options), other.readAll(after, options)]);
      assert.deepEqual(mine, logged);
      return mine;
    };
    try {
      const taken = randomUUID();
      await writer.append('branch-1', [event('A', taken)], 'no_stream');
      // One transaction: a multi-event append, a failing one (rolled back to its savepoint), one of another category.
      await Promise.allSettled([
        writer.append('branch-1', [event('B'), event('C')], 0),
        writer.append('branch-2', [event('D'), event('E', taken)], 'any'),
        writer.append('organization-1', [event('F')], 'no_stream'),
      ]);
      const all = await readBoth(null, { maxCount: 100 });
      assert.deepEqual(
        all.map((e) => e.type),
        ['A', 'B', 'C', 'F'],
      );
      assert.equal((await readBoth(all[0]?.position ?? null, { maxCount: 2 })).length, 2);
      assert.deepEqual(
        (await readBoth(all[1]?.position ?? null, { categories: ['organization'], maxCount: 10 })).map((e) => e.type),
        ['F'],
      );
      assert.deepEqual(
        (await readBoth(null, { eventTypes: ['C'], categories: ['organization'], maxCount: 10 })).map((e) => e.type),
        ['C', 'F'],
      );
      // Another process appends: reads reaching past the writer's last append go to the log.
      await other.append('branch-3', [event('G')], 'no_stream');
      await writer.append('branch-1', [event('H')], 2);
      assert.deepEqual(
        (await readBoth(all[3]?.position ?? null, { maxCount: 10 })).map((e) => e.type),
        ['G', 'H'],
      );
      assert.deepEqual(
        (await readBoth(null, { maxCount: 100 })).map((e) => e.type),
        ['A', 'B', 'C', 'F', 'G', 'H'],
      );
    } finally {
      await other.close();
      await writer.close();
    }
  }));

test('the staging of a process that is gone is abandoned at once; a live process keeps its own until idle', () =>
  withFile(async (file) => {
    // A pid no process has (above Linux's pid_max): a server killed mid-import.
    const killed = createSqliteEventStore({ file, pid: 2 ** 31 - 2 });
    const live = createSqliteEventStore({ file });
    try {
      await killed.staging?.stage('import-killed', [event('RowsCreated')]);
      await live.staging?.stage('import-live', [event('RowsCreated')]);
      assert.equal(await live.staging?.discardAbandoned(3_600_000), 1);
      assert.equal(await live.staging?.stagedCount('import-killed'), 0);
      assert.equal(await live.staging?.stagedCount('import-live'), 1);
      assert.equal(await live.countAfter(null), 0, 'nothing reached the log');
      // After a commit appended by another process, this process's next append is read back right.
      await killed.staging?.stage('import-2', [event('S1'), event('S2')]);
      await killed.staging?.commit('import-2', 'thing-1', 'no_stream');
      await live.append('thing-1', [event('After')], 1);
      assert.deepEqual(
        (await live.readAll(null, { maxCount: 10 })).map((e) => e.type),
        ['S1', 'S2', 'After'],
      );
    } finally {
      await killed.close();
      await live.close();
    }
  }));

test('a commit after this process appended is read back from the file, not from the recent appends', () =>
  withFile(async (file) => {
    const store = createSqliteEventStore({ file });
    try {
      const first = await store.append('thing-1', [event('A')], 'no_stream');
      await store.staging?.stage('import-1', [event('S1'), event('S2')]);
      await store.staging?.commit('import-1', 'thing-1', first.nextExpectedRevision);
      await store.append('thing-1', [event('B')], 2);
      assert.deepEqual(
        (await store.readAll(first.position, { maxCount: 10 })).map((e) => e.type),
        ['S1', 'S2', 'B'],
      );
    } finally {
      await store.close();
    }
  }));
