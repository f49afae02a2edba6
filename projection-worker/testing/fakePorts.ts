import { StreamConflictError, appendOneByOne, sqliteGlobalPosition, sqlitePosition, streamCategory } from '../../contracts/index.ts';
import type {
  AppendResult,
  Clock,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  RecordedEvent,
  UpcastFn,
  ViewStore,
} from '../../contracts/index.ts';
import { createSqliteViewStore } from '../adapters/sqlite/sqliteViewStore.ts';

/**
 * Ports for the runner's tests without files: an in-memory EventStore and an in-memory SQLite ViewStore. Both pass
 * the ports' contract suites (tests/contract/eventStore.contract.test.ts, viewStore.contract.test.ts), so they cannot drift from the
 * real adapters.
 */

export type FakeEventStore = EventStore & {
  /** The log as stored (before upcasting); tests may push recorded events to start from a given log. */
  readonly events: RecordedEvent[];
  /** Appends `count` events of `type` to `streamId` (one append per event). */
  appendMany(streamId: string, count: number, type?: string): Promise<void>;
};

export type FakeEventStoreOptions = {
  /** Whether `onAppended` listeners hear of appends (default true); false leaves waking up to the test. */
  readonly notifyAppends?: boolean;
  readonly upcast?: UpcastFn;
};

/** The EventStore port in memory, with SQLite positions: expected revisions, idempotent retries, filtered reads. */
export function createFakeEventStore(options: FakeEventStoreOptions = {}): FakeEventStore {
  const events: RecordedEvent[] = [];
  const listeners = new Set<(head: Position) => void>();
  const notifyAppends = options.notifyAppends ?? true;
  const upcast: UpcastFn = options.upcast ?? ((event) => event);
  const head = (): Position | null => events.at(-1)?.position ?? null;
  const streamEvents = (streamId: string): RecordedEvent[] => events.filter((e) => e.streamId === streamId);
  const revisionOf = (streamId: string): number | null => streamEvents(streamId).at(-1)?.revision ?? null;
  const resultOf = (event: RecordedEvent): AppendResult => ({ nextExpectedRevision: event.revision, position: event.position });

  /** The result of the first attempt of a retried append (its first event id is stored), else null. */
  function retried(streamId: string, newEvents: readonly NewEvent[]): AppendResult | null {
    const stored = (event: NewEvent | undefined) => events.find((e) => e.metadata.eventId === event?.metadata.eventId);
    const first = stored(newEvents[0]);
    if (first === undefined) return null;
    if (first.streamId !== streamId) throw new Error(`event id ${first.metadata.eventId} is already stored in stream ${first.streamId}`);
    const last = stored(newEvents.at(-1));
    return resultOf(last !== undefined && last.streamId === streamId ? last : first);
  }

  // Everything before the first await runs in one turn, so concurrent appends see each other's events.
  function append(streamId: string, newEvents: readonly NewEvent[], expected: ExpectedRevision): AppendResult {
    if (newEvents.length === 0) throw new Error(`append to ${streamId}: events must not be empty`);
    const original = retried(streamId, newEvents);
    if (original !== null) return original;
    const actual = revisionOf(streamId);
    const matches = expected === 'any' || (expected === 'no_stream' ? actual === null : actual === expected);
    if (!matches) throw new StreamConflictError(streamId, expected, actual);
    let revision = actual ?? -1;
    for (const event of newEvents) {
      revision += 1;
      events.push({ ...event, streamId, revision, position: sqlitePosition(events.length + 1) });
    }
    const position = head() as Position;
    if (notifyAppends) queueMicrotask(() => listeners.forEach((listener) => listener(position)));
    return { nextExpectedRevision: revision, position };
  }

  const store: FakeEventStore = {
    backend: 'sqlite',
    events,
    async append(streamId, newEvents, expected) {
      return append(streamId, newEvents, expected);
    },
    appendBatch(requests) {
      return appendOneByOne(store.append, store.streamRevision, requests);
    },
    async appendMany(streamId, count, type = 'Happened') {
      for (let i = 0; i < count; i++) {
        const eventId = `${streamId}#${events.length + 1}`;
        const metadata = { eventId, correlationId: eventId, causationId: null, principal: 'system', time: '' };
        append(streamId, [{ type, schemaVersion: 1, data: { n: i }, metadata }], 'any');
      }
    },
    async readStream(streamId, { fromRevision = 0, maxCount } = {}) {
      const from = streamEvents(streamId).filter((e) => e.revision >= fromRevision);
      return from.slice(0, maxCount ?? from.length).map(upcast);
    },
    async streamRevision(streamId) {
      return revisionOf(streamId);
    },
    async readAll(after, { categories, eventTypes, maxCount, maxBytes }) {
      const from = after === null ? 0 : sqliteGlobalPosition(after);
      const everything = categories === undefined && eventTypes === undefined;
      const wanted = (e: RecordedEvent): boolean =>
        everything || (categories?.includes(streamCategory(e.streamId)) ?? false) || (eventTypes?.includes(e.type) ?? false);
      const batch = events.slice(from).filter(wanted).slice(0, Math.max(0, maxCount));
      // As the SQLite store: stop after the event whose data brings the total to maxBytes.
      let bytes = 0;
      const end = maxBytes === undefined ? -1 : batch.findIndex((e) => (bytes += JSON.stringify(e.data).length) >= maxBytes);
      if (end === -1) return batch.map(upcast);
      return Object.assign(batch.slice(0, end + 1).map(upcast), { cutShort: true as const });
    },
    async headPosition() {
      return head();
    },
    onAppended(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async countAfter(after) {
      return events.length - (after === null ? 0 : sqliteGlobalPosition(after));
    },
    async ping() {
      return true;
    },
    async close() {},
  };
  return store;
}

export type FakeViewStore = ViewStore & {
  /** Versions of projection `name` ensured through this store and not dropped, in the order they were ensured. */
  versions(name: string): number[];
  /** Version lifecycle calls in order: `ensure name@v` (`+deferred` with deferReadIndexes), `complete`, `activate`. */
  readonly lifecycle: string[];
};

/**
 * The real SQLite view store on a private in-memory database (no file), recording the version lifecycle calls the
 * runner makes, so rebuild tests can check their order.
 */
export function createFakeViewStore(clock: Clock): FakeViewStore {
  const inner = createSqliteViewStore({ file: ':memory:', clock });
  const ensured = new Map<string, number[]>();
  const lifecycle: string[] = [];
  const id = (name: string, version: number): string => `${name}@${version}`;
  return {
    ...inner,
    lifecycle,
    versions: (name) => [...(ensured.get(name) ?? [])],
    async ensureProjection(spec, ensureOptions) {
      lifecycle.push(`ensure ${id(spec.name, spec.version)}${ensureOptions?.deferReadIndexes === true ? ' deferred' : ''}`);
      await inner.ensureProjection(spec, ensureOptions);
      const versions = ensured.get(spec.name) ?? [];
      if (!versions.includes(spec.version)) ensured.set(spec.name, [...versions, spec.version]);
    },
    async completeVersion(ref) {
      await inner.completeVersion(ref);
      lifecycle.push(`complete ${id(ref.name, ref.version)}`);
    },
    async activate(name, version) {
      await inner.activate(name, version);
      lifecycle.push(`activate ${id(name, version)}`);
    },
    async dropVersion(ref) {
      await inner.dropVersion(ref);
      ensured.set(
        ref.name,
        (ensured.get(ref.name) ?? []).filter((version) => version !== ref.version),
      );
    },
  };
}
