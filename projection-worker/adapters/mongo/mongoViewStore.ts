import { MongoClient, MongoServerError } from 'mongodb';
import type { Document } from 'mongodb';
import type { Logger } from 'pino';
import { AppError, createKeyedLock, systemClock } from '../../../contracts/index.ts';
import type { Clock, Filter, FindQuery, Position, ProjectionRef, SortKey, ViewChange, ViewDoc, ViewStore } from '../../../contracts/index.ts';
import { UnknownFieldError, createQueryBuilder } from './mongoViewFilter.ts';
import type { Query } from './mongoViewFilter.ts';
import { decodeDoc, lookupId } from './mongoViewLayout.ts';
import type { CollectionLayout, StoredDoc } from './mongoViewLayout.ts';
import { createMongoViewMeta, inTransaction } from './mongoViewMeta.ts';
import { sortPlan } from './mongoViewSort.ts';
import type { SortPlan } from './mongoViewSort.ts';
import { layeredCount, layeredFind, type ReadBudget } from './mongoViewLayers.ts';
import { sortIndexOf } from './mongoViewIndex.ts';
import { completeMongoVersion } from './mongoViewComplete.ts';
import { applyChanges } from './mongoViewWrites.ts';

export type MongoViewStoreOptions = {
  /** Connection string; the server must be a replica set (a single node is fine) for transactions. */
  readonly url: string;
  readonly database: string;
  readonly log?: Logger;
  readonly clock?: Clock;
  /** QUERY_TIMEOUT_MS: `maxTimeMS` of every find and count; past it the read fails with `503 QUERY_TIMEOUT`. */
  readonly queryTimeoutMs?: number;
};

const PING_TIMEOUT_MS = 5000;

/** Thrown inside a batch's transaction when the checkpoint moved: aborts it without changing anything. */
class CheckpointMoved extends Error {}

/**
 * ViewStore on MongoDB: one collection per (projection, version, collection) named like the SQLite tables, `_id`
 * derived from the key fields, checkpoints, active versions and leases in `strata_view_*` collections. A batch's
 * changes and its checkpoint compare-and-set share one transaction, so a replayed or concurrent batch changes
 * nothing (a concurrent one hits a write conflict, is retried by the driver and then sees the moved checkpoint).
 */
/** The MongoDB view store, plus what tests read to prove index use. */
export type MongoViewStore = ViewStore & {
  /** Key patterns of the indexes of the active version of a collection (contract tests: field indexes exist). */
  indexKeys(projection: string, collection: string): Promise<Record<string, unknown>[]>;
};

export function createMongoViewStore(options: MongoViewStoreOptions): MongoViewStore {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const client = new MongoClient(options.url, { appName: 'strata-views' });
  const db = client.db(options.database);
  const meta = createMongoViewMeta(client, db, clock, log);
  log?.debug({ database: options.database }, 'view store opened');
  const budget: ReadBudget = options.queryTimeoutMs === undefined ? {} : { maxTimeMS: options.queryTimeoutMs };
  // Indexes already created by this client, by collection and name (collection names carry the version).
  const ensuredIndexes = new Set<string>();

  async function layoutFor(projection: string, version: number, collection: string, fresh: boolean): Promise<CollectionLayout> {
    const layout = (await meta.layouts(projection, version, fresh))?.get(collection);
    if (layout !== undefined) return layout;
    if (!fresh) return layoutFor(projection, version, collection, true);
    throw new Error(`projection ${projection} has no collection "${collection}"`);
  }

  /** Runs a read on the active version; reloads the spec once when another process added a field to it. */
  async function read<T>(projection: string, collection: string, empty: T, run: (layout: CollectionLayout) => Promise<T>): Promise<T> {
    const version = await meta.activeVersion(projection);
    if (version === null) return empty;
    try {
      try {
        return await run(await layoutFor(projection, version, collection, false));
      } catch (err) {
        if (!(err instanceof UnknownFieldError)) throw err;
        log?.debug({ projection, collection }, 'view spec changed, reloading');
        return await run(await layoutFor(projection, version, collection, true));
      }
    } catch (err) {
      if (!isMaxTimeExpired(err)) throw err;
      throw new AppError('QUERY_TIMEOUT', `The query ran longer than ${options.queryTimeoutMs} ms`, undefined, { 'Retry-After': '1' });
    }
  }

  /** Stored documents matching `where`, sorted by `keys` (nulls last), offset and limit applied. */
  async function readStored(
    layout: CollectionLayout,
    where: Query,
    keys: readonly SortKey[],
    limit: number | undefined,
    offset: number,
  ): Promise<{ docs: Document[]; plan: SortPlan | null }> {
    const collection = db.collection<StoredDoc>(layout.name);
    const plan = keys.length > 0 ? sortPlan(layout, createQueryBuilder(layout), keys) : null;
    // MongoDB reads a limit of 0 as "no limit".
    if (limit === 0) return { docs: [], plan };
    if (plan?.kind === 'aggregate') {
      const pipeline: Document[] = [{ $match: where }, { $addFields: plan.values }, { $addFields: plan.flags }, { $sort: plan.sort }];
      if (offset > 0) pipeline.push({ $skip: offset });
      if (limit !== undefined) pipeline.push({ $limit: limit });
      return { docs: await collection.aggregate(pipeline, budget).toArray(), plan };
    }
    let cursor = collection.find(where, budget);
    if (plan !== null) cursor = cursor.sort(plan.sort);
    if (offset > 0) cursor = cursor.skip(offset);
    if (limit !== undefined) cursor = cursor.limit(limit);
    return { docs: await cursor.toArray(), plan };
  }

  async function select(layout: CollectionLayout, query: FindQuery): Promise<ViewDoc[]> {
    const limit = count(query.limit);
    const offset = count(query.offset) ?? 0;
    if (limit === 0) return [];
    const keys = query.orderBy ?? [];
    if (query.versions !== undefined) {
      const collection = db.collection<StoredDoc>(layout.name);
      const layered = { ...query, versions: query.versions };
      const docs = await layeredFind(
        collection,
        layout,
        layered,
        limit,
        offset,
        (where, armKeys, armLimit) => readStored(layout, where, armKeys, armLimit, 0),
        budget,
      );
      return docs.map((doc) => decodeDoc(layout, doc));
    }
    const where: Query = createQueryBuilder(layout).where(query.filter ?? { kind: 'all' });
    const { docs } = await readStored(layout, where, keys, limit, offset);
    return docs.map((doc) => decodeDoc(layout, doc));
  }

  const batchOrder = createKeyedLock();
  return {
    backend: 'mongodb',
    ensureProjection: (spec, ensureOptions) => meta.ensure(spec, ensureOptions?.deferReadIndexes === true),
    completeVersion: (ref) => completeMongoVersion(db, meta, ref),
    // The batches of one version are applied in the order they were handed over (the port's guarantee).
    applyBatch: (ref: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]): Promise<boolean> =>
      batchOrder.run(`${ref.name}\u0000${ref.version}`, async () => {
        const layouts = await meta.layouts(ref.name, ref.version);
        if (layouts === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
        try {
          await inTransaction(client, async (session) => {
            if (!(await meta.moveCheckpoint(session, ref, expected, next))) throw new CheckpointMoved();
            await applyChanges(db, session, ref, layouts, changes);
          });
          return true;
        } catch (err) {
          if (err instanceof CheckpointMoved) return false;
          throw err;
        }
      }),
    checkpoint: (ref) => meta.checkpoint(ref),
    recordError: (ref, message) => meta.recordError(ref, message),
    acquireLease: (name, owner, ttlMs) => meta.acquireLease(name, owner, ttlMs),
    releaseLease: (name, owner) => meta.releaseLease(name, owner),
    activeVersion: (name) => meta.activeVersion(name),
    activate: (name, version) => meta.activate(name, version),
    dropVersion: (ref) => meta.dropVersion(ref),
    projectionStatuses: () => meta.statuses(),
    get: (projection, collection, key) =>
      read(projection, collection, null, async (layout) => {
        const id = lookupId(layout, key);
        if (id === null) return null;
        const doc = await db.collection<StoredDoc>(layout.name).findOne({ _id: id });
        return doc === null ? null : decodeDoc(layout, doc);
      }),
    find: (projection, collection, query = {}) => read(projection, collection, [], (layout) => select(layout, query)),
    count: (projection, collection, filter: Filter = { kind: 'all' }, versions) =>
      read(projection, collection, 0, (layout) => {
        const stored = db.collection<StoredDoc>(layout.name);
        if (versions !== undefined) return layeredCount(stored, layout, filter, versions, budget);
        return stored.countDocuments(createQueryBuilder(layout).where(filter), budget);
      }),
    indexKeys: (projection, collection) =>
      read(projection, collection, [], async (layout) => (await db.collection(layout.name).indexes()).map((index) => ({ ...index.key }))),
    ensureIndex: (projection, collection, spec) =>
      read(projection, collection, undefined, async (layout) => {
        const index = sortIndexOf(layout, spec);
        if (index === null || ensuredIndexes.has(`${layout.name}/${String(index.name)}`)) return;
        await db.collection(layout.name).createIndex(index.key, { name: index.name });
        ensuredIndexes.add(`${layout.name}/${String(index.name)}`);
      }),
    async ping(): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      });
      try {
        const pong = db.command({ ping: 1 }).then(
          (reply) => reply.ok === 1,
          () => false,
        );
        return await Promise.race([pong, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => client.close(),
  };
}

function count(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`limit and offset must be integers >= 0, got ${value}`);
  return value;
}

/** MongoDB's answer to a read past its `maxTimeMS` (error 50, MaxTimeMSExpired). */
function isMaxTimeExpired(err: unknown): boolean {
  return err instanceof MongoServerError && (err.code === 50 || err.codeName === 'MaxTimeMSExpired');
}
