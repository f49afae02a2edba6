import type { Statement } from 'better-sqlite3';
import type { Logger } from 'pino';
import { AppError, StreamConflictError, positionBackend, sqliteGlobalPosition, sqlitePosition, streamCategory } from '../../contracts/index.ts';
import type {
  AppendBatchOutcome,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  ReadAllOptions,
  ReadAllResult,
  RecordedEvent,
  UpcastFn,
} from '../../contracts/index.ts';
import { createAppendNotifier } from './appendNotifier.ts';
import { createRecentAppends, type AppendedEvent } from './recentAppends.ts';
import { createSqliteEventStaging } from './sqliteEventStaging.ts';
import { openEventsDatabase, prepareEventStatements, toRecordedEvent } from './sqliteEventSchema.ts';
import type { EventRow, EventStatements } from './sqliteEventSchema.ts';

export type SqliteEventStoreOptions = {
  /** Path of the database file; every process on this host that opens the same file shares the log. */
  readonly file: string;
  readonly upcast?: UpcastFn;
  /** How often `onAppended` looks for appends by other processes; default 50 ms. */
  readonly pollIntervalMs?: number;
  readonly log?: Logger;
  /** The process id recorded with staged events (default `process.pid`; tests name a process that is gone). */
  readonly pid?: number;
};

type PendingAppend = {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
  /** The `appendBatch` call it belongs to: a failure fails the later appends to its stream unattempted. */
  readonly group: { readonly failedStreams: Set<string> } | null;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (err: unknown) => void;
};

/**
 * The last appends kept in memory for this process's readers (recentAppends.ts): a few bulk events (~300 KB each),
 * for about as long as the projection runners take to read them.
 */
const RECENT_APPENDS = { maxBytes: 4 * 1024 * 1024, keepMs: 1000 };

type Outcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly err: unknown };

/** The embedded event store: one SQLite file in WAL mode, shared by the processes of one host. */
export function createSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  const { log } = options;
  const upcast: UpcastFn = options.upcast ?? ((event) => event);
  const db = openEventsDatabase(options.file);
  const stmts = prepareEventStatements(db);
  const readHead = (): Position | null => {
    const head = stmts.head.get();
    return head === null || head === undefined ? null : sqlitePosition(head);
  };
  const notifier = createAppendNotifier({
    readHead,
    changeCounter: () => stmts.dataVersion.get() ?? 0,
    pollIntervalMs: options.pollIntervalMs ?? 50,
    log,
  });

  // Nested better-sqlite3 transactions become savepoints: a failing append rolls back alone inside the batch.
  // A one-event append needs none: its only write is one INSERT, and a failing statement undoes only itself.
  const recent = createRecentAppends(RECENT_APPENDS);
  // The events inserted by the transaction in progress (an item rolled back to its savepoint leaves none).
  let inserted: AppendedEvent[] = [];
  const appendAtomically = db.transaction((item: PendingAppend, into: AppendedEvent[]) => appendInTransaction(stmts, item, into));
  const writeBatch = db.transaction((batch: readonly PendingAppend[]): Outcome[] =>
    batch.map((item): Outcome => {
      // Some errors (disk full, I/O) make SQLite roll back the whole transaction; going on would autocommit.
      if (!db.inTransaction) throw new Error('event append transaction was rolled back by SQLite');
      const { group } = item;
      if (group?.failedStreams.has(item.streamId) === true) {
        const actual = stmts.streamRevision.get(item.streamId) ?? null;
        return { ok: false, err: new StreamConflictError(item.streamId, item.expected, actual) };
      }
      try {
        const into: AppendedEvent[] = [];
        const result = item.events.length === 1 ? appendInTransaction(stmts, item, into) : appendAtomically(item, into);
        inserted.push(...into);
        return { ok: true, result };
      } catch (err) {
        group?.failedStreams.add(item.streamId);
        return { ok: false, err };
      }
    }),
  );

  let queue: PendingAppend[] = [];
  let flushScheduled = false;
  let closed = false;

  // Group commit: one fsync costs far more than the inserts, so every append issued in the same turn of the
  // event loop shares one BEGIN IMMEDIATE ... COMMIT.
  function flush(): void {
    flushScheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    inserted = [];
    try {
      outcomes = writeBatch.immediate(batch);
      // Committed: this process's readers may take these events from memory.
      recent.add(inserted);
    } catch (err) {
      log?.error({ err, appends: batch.length }, 'event append transaction failed');
      for (const item of batch) item.reject(err);
      return;
    }
    let appended = 0;
    outcomes.forEach((outcome, i) => {
      const item = batch[i];
      if (item === undefined) return;
      if (outcome.ok) {
        appended += item.events.length;
        item.resolve(outcome.result);
      } else {
        item.reject(outcome.err);
      }
    });
    log?.debug({ appends: batch.length, appended }, 'events appended');
    if (appended > 0) {
      const head = readHead();
      if (head !== null) notifier.notify(head);
    }
  }

  // A commit's events reach readers from the file: the recent-appends window no longer ends at the head, and the
  // next append of this process starts a new window.
  const staging = createSqliteEventStaging(db, {
    pid: options.pid ?? process.pid,
    now: Date.now,
    afterCommit: () => {
      const head = readHead();
      if (head !== null) notifier.notify(head);
    },
  });

  function afterPosition(after: Position | null): number {
    if (after === null) return 0;
    if (positionBackend(after) !== 'sqlite') {
      throw new AppError('BAD_REQUEST', `position "${after}" is not a SQLite event store position`);
    }
    return sqliteGlobalPosition(after);
  }

  const toEvent = (row: EventRow): RecordedEvent => upcast(toRecordedEvent(row));

  function enqueue(item: PendingAppend): void {
    queue.push(item);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  }

  function checkAppend(streamId: string, events: readonly NewEvent[]): Error | null {
    if (closed) return new Error('event store is closed');
    if (events.length === 0) return new Error(`append to ${streamId}: events must not be empty`);
    return null;
  }

  return {
    backend: 'sqlite',
    staging,

    append(streamId, events, expected) {
      const invalid = checkAppend(streamId, events);
      if (invalid !== null) return Promise.reject(invalid);
      return new Promise<AppendResult>((resolve, reject) => enqueue({ streamId, events, expected, group: null, resolve, reject }));
    },

    appendBatch(requests) {
      // Queued together, so they share one flush (one transaction) and keep their order.
      const group = { failedStreams: new Set<string>() };
      return Promise.all(
        requests.map(({ streamId, events, expected }) => {
          const invalid = checkAppend(streamId, events);
          const appended =
            invalid !== null
              ? Promise.reject(invalid)
              : new Promise<AppendResult>((resolve, reject) => enqueue({ streamId, events, expected, group, resolve, reject }));
          if (invalid !== null) group.failedStreams.add(streamId);
          return appended.then(
            (result): AppendBatchOutcome => ({ ok: true, result }),
            (error: unknown): AppendBatchOutcome => ({ ok: false, error }),
          );
        }),
      );
    },

    async readStream(streamId, readOptions = {}) {
      const rows = stmts.readStream.all(streamId, readOptions.fromRevision ?? 0, readOptions.maxCount ?? -1);
      return rows.map(toEvent);
    },

    async streamRevision(streamId) {
      return stmts.streamRevision.get(streamId) ?? null;
    },

    async readAll(after, readOptions) {
      const from = afterPosition(after);
      const { maxCount, maxBytes } = readOptions;
      if (maxCount <= 0) return [];
      const { categories, eventTypes } = readOptions;
      const head = stmts.head.get() ?? 0;
      // Nothing was appended after `from` (a reader at the head): no read of the log (one per category or type).
      if (from >= head) return [];
      const kept = recent.after(from, head);
      if (kept !== null) return readKept(kept, readOptions, upcast);
      if (categories === undefined && eventTypes === undefined) return resultOf(readRows(stmts.readAll, [from, maxCount], maxBytes), toEvent);
      // One indexed range read per category and per event type, merged by position: never a scan of other events.
      // An event matching both lists comes back twice; keep one.
      const reads = [
        ...[...new Set(categories ?? [])].map((category) => readRows(stmts.readCategory, [category, from, maxCount], maxBytes)),
        ...[...new Set(eventTypes ?? [])].map((type) => readRows(stmts.readType, [type, from, maxCount], maxBytes)),
      ].filter((read) => read.rows.length > 0);
      if (reads.length <= 1) return resultOf(reads[0] ?? { rows: [], cut: false }, toEvent);
      // A read cut by maxBytes says nothing past its last event: the merge stops at the first such end.
      const ends = reads.filter((read) => read.cut).map((read) => read.rows.at(-1)?.[0] ?? Infinity);
      const end = Math.min(...ends);
      const rows = reads.flatMap((read) => read.rows).filter((row) => row[0] <= end);
      rows.sort((a, b) => a[0] - b[0]);
      const unique = rows.filter((row, i) => i === 0 || rows[i - 1]?.[0] !== row[0]);
      return resultOf({ rows: unique.slice(0, maxCount), cut: ends.length > 0 }, toEvent);
    },

    async headPosition() {
      return readHead();
    },

    onAppended(listener) {
      return notifier.subscribe(listener);
    },

    async countAfter(after) {
      // Positions are gap-free (AUTOINCREMENT, rows are never deleted, a rolled-back insert also rolls back
      // sqlite_sequence), so the count is a subtraction instead of a range scan.
      const head = stmts.head.get() ?? 0;
      return Math.max(0, head - afterPosition(after));
    },

    async ping() {
      try {
        return stmts.ping.get() === 1;
      } catch {
        return false;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      notifier.stop();
      flush();
      db.close();
    },
  };
}

/**
 * Runs a read of events; with `maxBytes` it stops after the event whose data brings the total to it (`cut`: more
 * events may follow), so a batch of bulk events is not read whole (EventStore `ReadAllOptions.maxBytes`).
 */
function readRows<P extends unknown[]>(stmt: Statement<P, EventRow>, params: P, maxBytes: number | undefined): { rows: EventRow[]; cut: boolean } {
  if (maxBytes === undefined) return { rows: stmt.all(...params), cut: false };
  const rows: EventRow[] = [];
  let bytes = 0;
  for (const row of stmt.iterate(...params)) {
    rows.push(row);
    bytes += row[5].length;
    if (bytes >= maxBytes) return { rows, cut: true };
  }
  return { rows, cut: false };
}

/** The recorded events of a read, marked `cutShort` when maxBytes ended it. */
function resultOf(read: { rows: readonly EventRow[]; cut: boolean }, toEvent: (row: EventRow) => RecordedEvent): ReadAllResult {
  const events = read.rows.map(toEvent);
  return read.cut ? Object.assign(events, { cutShort: true as const }) : events;
}

/** A read answered from this process's last appends (same selection, order and maxBytes cut as the SQL reads). */
function readKept(kept: readonly AppendedEvent[], options: ReadAllOptions, upcast: UpcastFn): ReadAllResult {
  const { categories, eventTypes, maxCount, maxBytes } = options;
  const all = categories === undefined && eventTypes === undefined;
  const events: RecordedEvent[] = [];
  let size = 0;
  for (const { event, category, bytes } of kept) {
    if (events.length >= maxCount) break;
    if (!(all || categories?.includes(category) === true || eventTypes?.includes(event.type) === true)) continue;
    events.push(upcast(event));
    size += bytes;
    if (maxBytes !== undefined && size >= maxBytes) return Object.assign(events, { cutShort: true as const });
  }
  return events;
}

/** Inserts the events of `item` and records them (recorded form, position, JSON size) in `into`. */
function appendInTransaction(stmts: EventStatements, item: PendingAppend, into: AppendedEvent[]): AppendResult {
  const { streamId, events, expected } = item;
  const first = events[0];
  if (first === undefined) throw new Error(`append to ${streamId}: events must not be empty`);
  const stored = stmts.eventById.get(first.metadata.eventId);
  if (stored !== undefined) {
    if (stored.stream_id !== streamId) {
      throw new Error(`event id ${first.metadata.eventId} is already stored in stream ${stored.stream_id}`);
    }
    return originalResult(stmts, item, stored);
  }
  const actual = stmts.streamRevision.get(streamId) ?? null;
  const matches = expected === 'any' || (expected === 'no_stream' ? actual === null : actual === expected);
  if (!matches) throw new StreamConflictError(streamId, expected, actual);
  const category = streamCategory(streamId);
  let revision = actual ?? -1;
  let position = 0;
  for (const event of events) {
    revision += 1;
    const data = JSON.stringify(event.data ?? null);
    const metadata = JSON.stringify(event.metadata);
    const { lastInsertRowid } = stmts.insert.run(
      streamId,
      category,
      revision,
      event.metadata.eventId,
      event.type,
      event.schemaVersion,
      data,
      metadata,
    );
    position = Number(lastInsertRowid);
    const recorded: RecordedEvent = {
      streamId,
      revision,
      position: sqlitePosition(position),
      type: event.type,
      schemaVersion: event.schemaVersion,
      data: event.data ?? null,
      metadata: event.metadata,
    };
    into.push({ event: recorded, category, position, bytes: data.length + metadata.length });
  }
  return { nextExpectedRevision: revision, position: sqlitePosition(position) };
}

/** The result the first, successful attempt of a retried append returned: its last event's place in the log. */
function originalResult(stmts: EventStatements, item: PendingAppend, first: { stream_id: string; revision: number; position: number }): AppendResult {
  const lastId = item.events[item.events.length - 1]?.metadata.eventId;
  const last = lastId === undefined ? undefined : stmts.eventById.get(lastId);
  const end = last !== undefined && last.stream_id === item.streamId ? last : first;
  return { nextExpectedRevision: end.revision, position: sqlitePosition(end.position) };
}
