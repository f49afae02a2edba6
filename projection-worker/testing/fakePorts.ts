import { appendOneByOne, sqliteGlobalPosition, sqlitePosition, streamCategory } from '../../contracts/index.ts';
import type {
  Clock,
  EventStore,
  Filter,
  NewEvent,
  Position,
  ProjectionRef,
  ProjectionSpec,
  ProjectionStatus,
  RecordedEvent,
  Scalar,
  ViewChange,
  ViewDoc,
  ViewStore,
} from '../../contracts/index.ts';

/** Small in-memory EventStore and ViewStore for the runner's unit tests (no I/O, no persistence). */

export type FakeEventStore = EventStore & {
  readonly events: RecordedEvent[];
  /** Appends `count` events of `type` to `streamId` (one append per event). */
  appendMany(streamId: string, count: number, type?: string): Promise<void>;
};

export function createFakeEventStore(options: { notifyAppends?: boolean } = {}): FakeEventStore {
  const events: RecordedEvent[] = [];
  const listeners = new Set<(head: Position) => void>();
  const notifyAppends = options.notifyAppends ?? true;
  const head = (): Position | null => events.at(-1)?.position ?? null;

  const store: FakeEventStore = {
    backend: 'sqlite',
    events,
    async append(streamId: string, newEvents: readonly NewEvent[]) {
      let revision = events.filter((e) => e.streamId === streamId).length - 1;
      for (const event of newEvents) {
        revision += 1;
        events.push({ ...event, streamId, revision, position: sqlitePosition(events.length + 1) });
      }
      const position = head() as Position;
      if (notifyAppends) queueMicrotask(() => listeners.forEach((listener) => listener(position)));
      return { nextExpectedRevision: revision, position };
    },
    appendBatch(requests) {
      return appendOneByOne((streamId, newEvents) => store.append(streamId, newEvents, 'any'), store.streamRevision, requests);
    },
    async appendMany(streamId, count, type = 'Happened') {
      for (let i = 0; i < count; i++) {
        const eventId = `${streamId}#${events.length + 1}`;
        await store.append(
          streamId,
          [
            {
              type,
              schemaVersion: 1,
              data: { n: i },
              metadata: { eventId, correlationId: eventId, causationId: null, principal: 'system', time: '' },
            },
          ],
          'any',
        );
      }
    },
    async readStream(streamId) {
      return events.filter((e) => e.streamId === streamId);
    },
    async streamRevision(streamId) {
      const revision = events.filter((e) => e.streamId === streamId).length - 1;
      return revision < 0 ? null : revision;
    },
    async readAll(after, { categories, maxCount }) {
      const from = after === null ? 0 : sqliteGlobalPosition(after);
      return events
        .slice(from)
        .filter((e) => categories === undefined || categories.includes(streamCategory(e.streamId)))
        .slice(0, maxCount);
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

type StoredVersion = {
  readonly spec: ProjectionSpec;
  checkpoint: Position | null;
  updatedAt: number | null;
  error: string | null;
  readonly docs: Map<string, Map<string, ViewDoc>>;
};

export type FakeViewStore = ViewStore & {
  /** Called before each applyBatch; throw to simulate a store failure. */
  beforeApply: ((ref: ProjectionRef) => void) | null;
  versions(name: string): number[];
  docs(ref: ProjectionRef, collection: string): ViewDoc[];
  /** Version lifecycle calls in order: `ensure name@v` (`+deferred` with deferReadIndexes), `complete`, `activate`. */
  readonly lifecycle: string[];
};

export function createFakeViewStore(clock: Clock): FakeViewStore {
  const versions = new Map<string, StoredVersion>();
  const active = new Map<string, number>();
  const leases = new Map<string, { owner: string; expiresAt: number }>();
  const id = (ref: ProjectionRef): string => `${ref.name}@${ref.version}`;

  function stored(ref: ProjectionRef): StoredVersion {
    const found = versions.get(id(ref));
    if (found === undefined) throw new Error(`projection ${id(ref)} does not exist`);
    return found;
  }

  function collectionOf(version: StoredVersion, collection: string): Map<string, ViewDoc> {
    const docs = version.docs.get(collection);
    if (docs === undefined) throw new Error(`unknown collection ${collection}`);
    return docs;
  }

  function keyOf(version: StoredVersion, collection: string, doc: Readonly<Record<string, unknown>>): string {
    const spec = version.spec.collections.find((c) => c.name === collection);
    if (spec === undefined) throw new Error(`unknown collection ${collection}`);
    return JSON.stringify(spec.key.map((field) => doc[field] ?? null));
  }

  function apply(version: StoredVersion, change: ViewChange): void {
    const docs = collectionOf(version, change.collection);
    switch (change.op) {
      case 'upsert':
        docs.set(keyOf(version, change.collection, change.doc), { ...change.doc });
        return;
      case 'update':
        for (const [key, doc] of docs) {
          if (!matches(change.filter, doc)) continue;
          const next: Record<string, unknown> = { ...doc, ...change.set };
          for (const [field, by] of Object.entries(change.inc ?? {})) next[field] = Number(next[field] ?? 0) + by;
          docs.set(key, next);
        }
        return;
      case 'delete':
        for (const [key, doc] of docs) if (matches(change.filter, doc)) docs.delete(key);
        return;
      case 'copy':
        for (const doc of [...docs.values()]) {
          if (!matches(change.filter, doc)) continue;
          const copy = { ...doc, ...change.set };
          docs.set(keyOf(version, change.collection, copy), copy);
        }
        return;
    }
  }

  function activeVersion(name: string): StoredVersion {
    const version = active.get(name);
    if (version === undefined) throw new Error(`projection ${name} does not exist`);
    return stored({ name, version });
  }

  const store: FakeViewStore = {
    backend: 'sqlite',
    beforeApply: null,
    versions: (name) => [...versions.values()].filter((v) => v.spec.name === name).map((v) => v.spec.version),
    docs: (ref, collection) => [...collectionOf(stored(ref), collection).values()],
    lifecycle: [],
    async ensureProjection(spec, options) {
      const key = id(spec);
      store.lifecycle.push(`ensure ${key}${options?.deferReadIndexes === true ? ' deferred' : ''}`);
      if (!versions.has(key)) {
        const docs = new Map(spec.collections.map((c) => [c.name, new Map<string, ViewDoc>()]));
        versions.set(key, { spec, checkpoint: null, updatedAt: null, error: null, docs });
      }
      if (!active.has(spec.name)) active.set(spec.name, spec.version);
    },
    async applyBatch(ref, expected, next, changes) {
      store.beforeApply?.(ref);
      const version = stored(ref);
      if (version.checkpoint !== expected) return false;
      // Copy-on-write so a failing change leaves nothing behind (atomic batch).
      const backup = new Map([...version.docs].map(([name, docs]) => [name, new Map(docs)]));
      try {
        for (const change of changes) apply(version, change);
      } catch (err) {
        for (const [name, docs] of backup) version.docs.set(name, docs);
        throw err;
      }
      version.checkpoint = next;
      version.updatedAt = clock.now();
      return true;
    },
    async checkpoint(ref) {
      return stored(ref).checkpoint;
    },
    async recordError(ref, message) {
      stored(ref).error = message;
    },
    async acquireLease(name, owner, ttlMs) {
      const now = clock.now();
      const lease = leases.get(name);
      if (lease !== undefined && lease.owner !== owner && lease.expiresAt > now) return false;
      leases.set(name, { owner, expiresAt: now + ttlMs });
      return true;
    },
    async releaseLease(name, owner) {
      if (leases.get(name)?.owner === owner) leases.delete(name);
    },
    async activeVersion(name) {
      return active.get(name) ?? null;
    },
    async completeVersion(ref) {
      // The fake keeps no indexes: completing only checks the version exists.
      stored(ref);
      store.lifecycle.push(`complete ${id(ref)}`);
    },
    async activate(name, version) {
      stored({ name, version });
      active.set(name, version);
      store.lifecycle.push(`activate ${id({ name, version })}`);
    },
    async dropVersion(ref) {
      if (active.get(ref.name) === ref.version) throw new Error(`cannot drop the active version of ${ref.name}`);
      versions.delete(id(ref));
    },
    async projectionStatuses(): Promise<ProjectionStatus[]> {
      return [...versions.values()].map((v) => {
        const lease = leases.get(v.spec.name);
        return {
          name: v.spec.name,
          version: v.spec.version,
          active: active.get(v.spec.name) === v.spec.version,
          position: v.checkpoint,
          updatedAt: v.updatedAt,
          error: v.error,
          leaseOwner: lease?.owner ?? null,
          leaseExpiresAt: lease?.expiresAt ?? null,
        };
      });
    },
    async get(projection, collection, key) {
      const version = activeVersion(projection);
      return collectionOf(version, collection).get(keyOf(version, collection, key)) ?? null;
    },
    async find(projection, collection, query) {
      const docs = [...collectionOf(activeVersion(projection), collection).values()];
      return docs.filter((doc) => matches(query?.filter ?? { kind: 'all' }, doc));
    },
    async count(projection, collection, filter) {
      return (await store.find(projection, collection, filter === undefined ? {} : { filter })).length;
    },
    async ensureIndex() {},
    async ping() {
      return true;
    },
    async close() {},
  };
  return store;
}

/** Top-level fields only; enough for the fakes' users. */
function matches(filter: Filter, doc: ViewDoc): boolean {
  switch (filter.kind) {
    case 'all':
      return true;
    case 'and':
      return filter.filters.every((f) => matches(f, doc));
    case 'or':
      return filter.filters.some((f) => matches(f, doc));
    case 'not':
      return !matches(filter.filter, doc);
    case 'isNull':
      return (doc[filter.ref.field] ?? null) === null;
    case 'in':
      return filter.values.includes(doc[filter.ref.field] as Scalar);
    case 'compare': {
      const value = doc[filter.ref.field] as Scalar;
      if (value === null || value === undefined) return false;
      if (filter.op === 'eq') return value === filter.value;
      if (filter.op === 'ne') return value !== filter.value;
      throw new Error(`fake view store: unsupported op ${filter.op}`);
    }
    default:
      throw new Error(`fake view store: unsupported filter ${filter.kind}`);
  }
}
