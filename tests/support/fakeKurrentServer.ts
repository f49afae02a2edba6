import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { ANY, BACKWARDS, END, NO_STREAM, START, StreamNotFoundError, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import type {
  AllStreamJSONRecordedEvent,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendResult,
  AppendStreamState,
  EventData,
  Filter,
  JSONType,
  MetadataType,
  Position as LogPosition,
  ReadPosition,
  ReadRevision,
} from '@kurrent/kurrentdb-client';
import type { KurrentClient } from '../../command-service/index.ts';

/**
 * An in-memory stand-in for one KurrentDB node, for unit tests of the adapter's own logic (no server runs here).
 * It follows the server behaviour the adapter relies on, as read in the KurrentDB sources: events of one append
 * share a commit position and get increasing prepare positions; the append response reports the commit position
 * twice; a read of `$all` from a position includes that position forwards and excludes it backwards; filtered reads
 * count matching events only; a retry whose events all sit where its expected revision puts them succeeds without
 * appending; a missing stream is a StreamNotFoundError while reading. It is not a proof of the server's behaviour.
 */
export type FakeKurrentServer = {
  /** A new client connection to this node. */
  client(): KurrentClient;
  /** Writes an event as another tool would (any stream name, any data), bypassing expected revisions. */
  appendForeign(streamId: string, type: string, data: JSONType | Uint8Array, metadata?: MetadataType): void;
  /** Fails every open subscription as a dropped connection would. */
  dropSubscriptions(): void;
  /** Number of open subscriptions (all clients). */
  subscriptionCount(): number;
};

type Subscription = { readonly stream: PassThrough; readonly filter: Filter | undefined; readonly owner: object };

const EVENT_SIZE = 128n;

function matches(filter: Filter | undefined, event: AllStreamJSONRecordedEvent): boolean {
  if (filter === undefined) return true;
  const subject = filter.filterOn === 'streamName' ? event.streamId : event.type;
  if ('regex' in filter) return new RegExp(filter.regex).test(subject);
  return filter.prefixes.some((prefix) => subject.startsWith(prefix));
}

function compare(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

/** A copy as a client would decode it from the wire. */
const roundTrip = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export function createFakeKurrentServer(options: { systemEventEvery?: number } = {}): FakeKurrentServer {
  const log: AllStreamJSONRecordedEvent[] = [];
  const streams = new Map<string, AllStreamJSONRecordedEvent[]>();
  const subscriptions = new Set<Subscription>();
  let nextPosition = 4096n;
  let appends = 0;

  function write(streamId: string, events: readonly Omit<AllStreamJSONRecordedEvent, 'streamId' | 'revision' | 'position' | 'created'>[]) {
    const stream = streams.get(streamId) ?? [];
    streams.set(streamId, stream);
    const commit = nextPosition;
    const written = events.map((event) => {
      const recorded: AllStreamJSONRecordedEvent = {
        ...event,
        streamId,
        revision: BigInt(stream.length),
        created: new Date(),
        position: { commit, prepare: nextPosition },
      };
      nextPosition += EVENT_SIZE;
      stream.push(recorded);
      log.push(recorded);
      return recorded;
    });
    for (const sub of subscriptions) {
      for (const event of written) if (matches(sub.filter, event)) sub.stream.write({ event } satisfies AllStreamResolvedEvent);
    }
    return { commit, last: written[written.length - 1] };
  }

  // KurrentDB writes its own events between ours (statistics, metadata): readers must skip them.
  function maybeSystemEvents(): void {
    appends += 1;
    if (options.systemEventEvery === undefined || appends % options.systemEventEvery !== 0) return;
    write('$stats-127.0.0.1:2113', [{ id: randomUUID(), type: '$statsCollected', isJson: true, data: {}, metadata: undefined }]);
    write('$settings', [{ id: randomUUID(), type: 'settingsUpdated', isJson: true, data: {}, metadata: undefined }]);
  }

  function append(streamName: string, events: EventData[], streamState: AppendStreamState): AppendResult {
    const stream = streams.get(streamName) ?? [];
    const current = stream.length - 1;
    const wrong = () =>
      new WrongExpectedVersionError(undefined, {
        streamName,
        expected: streamState,
        current: current === -1 ? NO_STREAM : BigInt(current),
      });
    const ids = events.map((event) => event.id.toLowerCase());
    // The server's idempotency check: the retried events must all sit where the expected revision puts them.
    const retried = (start: number): AppendResult | null => {
      const stored = ids.map((id, i) => (stream[start + i]?.id === id ? stream[start + i] : undefined));
      if (stored[0] === undefined) return null;
      const last = stored[stored.length - 1];
      if (stored.some((event) => event === undefined) || last === undefined) throw wrong();
      return { success: true, nextExpectedRevision: last.revision, position: { commit: last.position.commit, prepare: last.position.commit } };
    };
    if (streamState === ANY) {
      const first = stream.findIndex((event) => event.id === ids[0]);
      const dedup = first === -1 ? null : retried(first);
      if (dedup !== null) return dedup;
    } else {
      const expected = streamState === NO_STREAM ? -1 : typeof streamState === 'bigint' ? Number(streamState) : current;
      if (expected < current) {
        const dedup = retried(expected + 1);
        if (dedup === null) throw wrong();
        return dedup;
      }
      if (expected > current) throw wrong();
    }
    const { commit, last } = write(
      streamName,
      events.map((event) => ({
        id: event.id.toLowerCase(),
        type: event.type,
        isJson: true,
        data: roundTrip(event.data as JSONType),
        metadata: roundTrip(event.metadata as MetadataType | undefined),
      })),
    );
    maybeSystemEvents();
    return { success: true, nextExpectedRevision: last?.revision ?? -1n, position: { commit, prepare: commit } };
  }

  async function* readStream(
    streamName: string,
    {
      fromRevision = START,
      direction = 'forwards',
      maxCount = Number.MAX_SAFE_INTEGER,
    }: { fromRevision?: ReadRevision; direction?: string; maxCount?: number | bigint } = {},
  ): AsyncGenerator<{ event: AllStreamJSONRecordedEvent }> {
    await Promise.resolve();
    const stream = streams.get(streamName);
    if (stream === undefined) throw new StreamNotFoundError(undefined, streamName);
    const backwards = direction === BACKWARDS;
    const from = fromRevision === START ? 0 : fromRevision === END ? stream.length - 1 : Number(fromRevision);
    const selected = backwards ? stream.slice(0, from + 1).reverse() : stream.slice(from);
    for (const event of selected.slice(0, Number(maxCount))) yield { event };
  }

  async function* readAll({
    fromPosition = START,
    direction = 'forwards',
    maxCount = Number.MAX_SAFE_INTEGER,
    filter,
  }: { fromPosition?: ReadPosition; direction?: string; maxCount?: number | bigint; filter?: Filter } = {}): AsyncGenerator<AllStreamResolvedEvent> {
    await Promise.resolve();
    const backwards = direction === BACKWARDS;
    const ordered = backwards ? [...log].reverse() : [...log];
    let count = 0;
    for (const event of ordered) {
      if (count >= Number(maxCount)) return;
      if (typeof fromPosition === 'object') {
        const order = compare(event.position, fromPosition);
        if (backwards ? order >= 0 : order < 0) continue;
      } else if (fromPosition === END && !backwards) {
        return;
      }
      if (!matches(filter, event)) continue;
      count += 1;
      yield { event };
    }
  }

  function client(): KurrentClient {
    const owner = {};
    let disposed = false;
    const alive = () => {
      if (disposed) throw new Error('client is disposed');
    };
    return {
      async appendToStream(streamName, events, { streamState = ANY } = {}) {
        alive();
        await Promise.resolve();
        return append(streamName, events, streamState);
      },
      readStream(streamName, readOptions) {
        alive();
        return readStream(streamName, readOptions);
      },
      readAll(readOptions) {
        alive();
        return readAll(readOptions);
      },
      subscribeToAll(subscribeOptions = {}) {
        alive();
        if (subscribeOptions.fromPosition !== END) throw new Error('the fake only subscribes from the end');
        const stream = new PassThrough({ objectMode: true });
        const sub: Subscription = { stream, filter: subscribeOptions.filter, owner };
        subscriptions.add(sub);
        const unsubscribe = async () => {
          subscriptions.delete(sub);
          stream.end();
        };
        setImmediate(() => stream.emit('confirmation'));
        // The real subscription is a Transform with typed event overloads; a PassThrough with `unsubscribe` acts alike.
        return Object.assign(stream, { unsubscribe }) as unknown as AllStreamSubscription;
      },
      async dispose() {
        disposed = true;
        for (const sub of subscriptions) {
          if (sub.owner !== owner) continue;
          subscriptions.delete(sub);
          sub.stream.end();
        }
      },
    };
  }

  return {
    client,
    appendForeign(streamId, type, data, metadata) {
      const isJson = !(data instanceof Uint8Array);
      // A binary event is typed as JSON here only to share one record type; `isJson` tells readers the truth.
      write(streamId, [{ id: randomUUID(), type, isJson: isJson as true, data: data as JSONType, metadata }]);
    },
    dropSubscriptions() {
      for (const sub of [...subscriptions]) {
        subscriptions.delete(sub);
        sub.stream.emit('error', new Error('connection lost'));
      }
    },
    subscriptionCount: () => subscriptions.size,
  };
}
