import type { Logger } from 'pino';
import { BACKWARDS, END, KurrentDBClient } from '@kurrent/kurrentdb-client';
import type { RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import { appendOneByOne, isStreamConflict } from '../../contracts/index.ts';
import type { AppendResult, EventStore, ExpectedRevision, NewEvent, Position, RecordedEvent, UpcastFn } from '../../contracts/index.ts';
import { createKurrentAppendNotifier } from './kurrentAppendNotifier.ts';
import {
  compareLogPositions,
  eventUuid,
  failedAppendConflict,
  parseKurrentPosition,
  requirePosition,
  toConnectionString,
  toEventData,
  toPosition,
  toRecordedEvent,
  toStreamConflict,
  toStreamState,
} from './kurrentEventMapping.ts';
import { countAfter, readForward, readLast, readStreamEvents } from './kurrentLogReader.ts';
import type { KurrentClient } from './kurrentLogReader.ts';
import { readAllSources } from './kurrentReadFilters.ts';

export type KurrentEventStoreOptions = {
  /** Connection string: `kurrentdb://host:2113?tls=false`, `kurrentdb+discover://…`; `esdb://…` is accepted too. */
  readonly url: string;
  readonly upcast?: UpcastFn;
  readonly log?: Logger;
  /** `countAfter` counts exactly up to this many events and estimates beyond; default 10 000. */
  readonly countExactUpTo?: number;
  /** Wait before reopening a dropped `$all` subscription; default 1000 ms. */
  readonly resubscribeDelayMs?: number;
  /** `ping` answers false when the server does not answer within this time; default 5000 ms. */
  readonly pingTimeoutMs?: number;
};

/**
 * The KurrentDB (EventStoreDB) event store: one client per instance, connecting on first use; positions
 * `k:<commit>:<prepare>` (spec operations §4.1).
 */
export function createKurrentEventStore(options: KurrentEventStoreOptions): EventStore {
  const client = KurrentDBClient.connectionString(toConnectionString(options.url));
  return createKurrentEventStoreOnClient(client, options);
}

/** The adapter over any client with KurrentDBClient's API (unit tests pass an in-memory fake). */
export function createKurrentEventStoreOnClient(client: KurrentClient, options: Omit<KurrentEventStoreOptions, 'url'>): EventStore {
  const { log } = options;
  const upcast: UpcastFn = options.upcast ?? ((event) => event);
  const countExactUpTo = options.countExactUpTo ?? 10_000;
  const pingTimeoutMs = options.pingTimeoutMs ?? 5000;
  let closed = false;

  async function headPosition(): Promise<Position | null> {
    const last = await readLast(client);
    return last === null ? null : toPosition(last.position);
  }

  const notifier = createKurrentAppendNotifier({
    client,
    readHead: headPosition,
    retryDelayMs: options.resubscribeDelayMs ?? 1000,
    log,
  });

  // Reads that decide appends go to the leader: a lagging follower would only produce conflicts and retries.
  const readRevisions = (streamId: string, fromRevision: number, maxCount: number): Promise<KurrentRecordedEvent[]> =>
    readStreamEvents(client, streamId, { fromRevision: BigInt(fromRevision), maxCount, requiresLeader: true });

  const resultOf = (event: KurrentRecordedEvent): AppendResult => ({
    nextExpectedRevision: Number(event.revision),
    position: toPosition(requirePosition(event)),
  });

  /**
   * KurrentDB deduplicates a retry by event ids only when every event sits where the retry expects it; a partial
   * match is reported as a wrong expected version. Like the port (and the SQLite adapter), a retry whose first
   * event is stored at the expected place returns the original result. With `any` deduplication is the server's
   * best effort (its cache of recent event ids): nothing to look up here.
   */
  async function originalResult(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) {
    if (expected === 'any') return null;
    const stored = await readRevisions(streamId, expected === 'no_stream' ? 0 : expected + 1, events.length);
    let end: KurrentRecordedEvent | null = null;
    for (const [i, event] of events.entries()) {
      const candidate = stored[i];
      if (candidate === undefined || candidate.id.toLowerCase() !== eventUuid(event.metadata.eventId)) break;
      end = candidate;
    }
    return end === null ? null : resultOf(end);
  }

  /**
   * The append response carries the commit position of the whole write, not the position of its last event (the
   * server reports the commit position twice), and nothing for a deduplicated retry. So the last event is read
   * back: one extra round trip per append buys the exact position the port promises.
   */
  async function appendedResult(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    lastRevision: number,
  ): Promise<AppendResult> {
    const last = events[events.length - 1];
    const [stored] = await readRevisions(streamId, lastRevision, 1);
    if (last !== undefined && stored !== undefined && stored.id.toLowerCase() === eventUuid(last.metadata.eventId)) {
      return resultOf(stored);
    }
    const original = await originalResult(streamId, events, expected);
    if (original !== null) return original;
    throw new Error(`append to ${streamId} succeeded but revision ${lastRevision} does not hold its last event`);
  }

  async function append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (closed) throw new Error('event store is closed');
    if (events.length === 0) throw new Error(`append to ${streamId}: events must not be empty`);
    const streamState = toStreamState(expected);
    try {
      const appended = await client.appendToStream(streamId, events.map(toEventData), { streamState });
      if (!appended.success) throw failedAppendConflict(streamId, expected, appended.nextExpectedRevision);
      return await appendedResult(streamId, events, expected, Number(appended.nextExpectedRevision));
    } catch (err) {
      const conflict = isStreamConflict(err) ? err : toStreamConflict(err, streamId, expected);
      if (conflict === null) throw err;
      const original = await originalResult(streamId, events, expected);
      if (original === null) throw conflict;
      log?.debug({ stream: streamId, expected }, 'append retry matched stored events');
      return original;
    }
  }

  const toEvent = (event: KurrentRecordedEvent): RecordedEvent => upcast(toRecordedEvent(event));

  async function appendAndNotify(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await append(streamId, events, expected);
    log?.debug({ stream: streamId, expectedRevision: expected, appended: events.length }, 'events appended');
    notifier.notify(result.position);
    return result;
  }

  const store: EventStore = {
    backend: 'kurrent',

    append: appendAndNotify,

    // KurrentDB has no transaction across streams: the requests go one after another (the port's fallback).
    appendBatch: (requests) => appendOneByOne(appendAndNotify, (streamId) => store.streamRevision(streamId), requests),

    async readStream(streamId, readOptions = {}) {
      const maxCount = readOptions.maxCount ?? Number.MAX_SAFE_INTEGER;
      if (maxCount <= 0) return [];
      const events = await readRevisions(streamId, Math.max(0, readOptions.fromRevision ?? 0), maxCount);
      return events.map(toEvent);
    },

    async streamRevision(streamId) {
      const [last] = await readStreamEvents(client, streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
        requiresLeader: true,
      });
      return last === undefined ? null : Number(last.revision);
    },

    async readAll(after, readOptions) {
      const from = after === null ? null : parseKurrentPosition(after);
      const { maxCount } = readOptions;
      if (maxCount <= 0) return [];
      const pages = await Promise.all(readAllSources(readOptions).map((source) => readForward(client, from, source, maxCount)));
      // Two sources (categories, event types) may both return an event: merge by position, keep one copy.
      const merged = pages.length === 1 ? (pages[0] ?? []) : dedupeByPosition(pages.flat());
      return merged.slice(0, maxCount).map(toEvent);
    },

    headPosition,

    onAppended(listener) {
      return notifier.subscribe(listener);
    },

    async countAfter(after) {
      return countAfter(client, after === null ? null : parseKurrentPosition(after), countExactUpTo);
    },

    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), pingTimeoutMs);
      });
      const reachable = (async () => {
        for await (const _ of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) break;
        return true;
      })().catch((err: unknown) => {
        log?.debug({ err }, 'event store ping failed');
        return false;
      });
      try {
        return await Promise.race([reachable, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      notifier.stop();
      await client.dispose();
    },
  };
  return store;
}

function dedupeByPosition<T extends { readonly position: { commit: bigint; prepare: bigint } }>(events: T[]): T[] {
  events.sort((a, b) => compareLogPositions(a.position, b.position));
  return events.filter((event, i) => {
    const previous = events[i - 1];
    return previous === undefined || compareLogPositions(previous.position, event.position) !== 0;
  });
}
