import { MongoServerError } from 'mongodb';
import type { ClientSession, Db, IndexDescription, MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import type { Clock, Position, ProjectionRef, ProjectionSpec, ProjectionStatus } from '../../../contracts/index.ts';
import { NULLS, collectionLayout } from './mongoViewLayout.ts';
import type { CollectionLayout } from './mongoViewLayout.ts';

type VersionDoc = {
  _id: string;
  name: string;
  version: number;
  /** The ProjectionSpec as JSON text. */
  spec: string;
  position: Position | null;
  updatedAt: number | null;
  error: string | null;
};
/** The version readers use; every activate and drop writes it, so that the two conflict when concurrent. */
type ActiveDoc = { _id: string; version: number; changes: number };
type LeaseDoc = { _id: string; owner: string; expiresAt: number };

export type Layouts = ReadonlyMap<string, CollectionLayout>;

const versionId = (name: string, version: number): string => `${name}@${version}`;

export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

function isCommandNotFound(err: unknown): boolean {
  return err instanceof MongoServerError && (err.code === 59 || /no such command/i.test(err.message));
}

/** Runs `fn` in a transaction (retried by the driver on transient errors such as write conflicts). */
export async function inTransaction<T>(client: MongoClient, fn: (session: ClientSession) => Promise<T>): Promise<T> {
  const session = client.startSession();
  try {
    return await session.withTransaction(fn);
  } finally {
    await session.endSession();
  }
}

function layoutsOf(spec: ProjectionSpec): CollectionLayout[] {
  return spec.collections.map((c) => collectionLayout(spec.name, spec.version, c));
}

/** The indexes of a collection; with `deferReadIndexes`, not its `readersOnly` ones (completeVersion adds them). */
export function indexesOf(layout: CollectionLayout, spec: ProjectionSpec['collections'][number], deferReadIndexes = false): IndexDescription[] {
  for (const index of spec.indexes ?? []) {
    if (index.unique === true && index.readersOnly === true) {
      throw new Error(`collection "${spec.name}": a unique index cannot be readersOnly (${index.fields.join(', ')})`);
    }
  }
  const declared = (spec.indexes ?? []).filter((index) => !(deferReadIndexes && index.readersOnly === true));
  const indexes: IndexDescription[] = declared.map((index) => ({
    key: Object.fromEntries(index.fields.map((f) => [f, 1 as const])),
    name: `${index.fields.join('__')}${index.unique === true ? '__u' : ''}`,
    // Null fields are not stored; like SQLite, a unique index ignores documents with a null indexed field.
    ...(index.unique === true ? { unique: true, partialFilterExpression: Object.fromEntries(index.fields.map((f) => [f, { $exists: true }])) } : {}),
  }));
  // `_id` encodes the whole key; this index serves filters on a prefix of it (the SQLite primary key does both).
  const keyPattern = layout.key.join(',');
  if (!(spec.indexes ?? []).some((i) => i.fields.join(',') === keyPattern)) {
    indexes.unshift({ key: Object.fromEntries(layout.key.map((f) => [f, 1 as const])), name: 'key' });
  }
  return indexes;
}

/** Projection versions, checkpoints, leases and the active versions, plus a cache of parsed specs. */
export function createMongoViewMeta(client: MongoClient, db: Db, clock: Clock, log: Logger | undefined) {
  const versions = db.collection<VersionDoc>('strata_view_versions');
  const active = db.collection<ActiveDoc>('strata_view_active');
  const leases = db.collection<LeaseDoc>('strata_view_leases');
  const cache = new Map<string, Layouts>();

  async function layouts(name: string, version: number, fresh = false): Promise<Layouts | null> {
    const id = versionId(name, version);
    const cached = cache.get(id);
    if (cached !== undefined && !fresh) return cached;
    const doc = await versions.findOne({ _id: id }, { projection: { spec: 1 } });
    if (doc === null) {
      cache.delete(id);
      return null;
    }
    const map = new Map(layoutsOf(JSON.parse(doc.spec) as ProjectionSpec).map((l) => [l.collection, l]));
    cache.set(id, map);
    return map;
  }

  /**
   * `drop` where the server has it. The test stand-in (jongodb) has no `drop` command: the documents are deleted
   * instead and the empty collection and its indexes stay behind.
   */
  async function dropCollection(name: string): Promise<void> {
    try {
      await db.collection(name).drop();
    } catch (err) {
      if (!isCommandNotFound(err)) throw err;
      log?.debug({ collection: name }, 'server has no drop command, deleting the documents instead');
      await db.collection(name).deleteMany({});
    }
  }

  // Creates what is missing; a changed key or type needs a new version.
  async function ensure(spec: ProjectionSpec, deferReadIndexes = false): Promise<void> {
    const mine = layoutsOf(spec);
    const names = new Set(mine.map((l) => l.name));
    if (names.size !== mine.length) throw new Error(`projection ${spec.name}: duplicate collection names`);
    const id = versionId(spec.name, spec.version);
    for (const other of await versions.find({ _id: { $ne: id } }).toArray()) {
      const clash = layoutsOf(JSON.parse(other.spec) as ProjectionSpec).find((l) => names.has(l.name));
      if (clash) throw new Error(`collection ${clash.name} of ${spec.name} v${spec.version} clashes with ${other.name} v${other.version}`);
    }
    const existing = await versions.findOne({ _id: id });
    const before = existing === null ? null : (JSON.parse(existing.spec) as ProjectionSpec);
    // The first version of a projection becomes active below: readers need all of its indexes at once.
    const activeNow = (await active.findOne({ _id: spec.name }))?.version;
    const defer = deferReadIndexes && activeNow !== undefined && activeNow !== spec.version;
    for (const [i, layout] of mine.entries()) {
      const collectionSpec = spec.collections[i] as ProjectionSpec['collections'][number];
      const collection = db.collection(layout.name);
      // Documents of a version whose drop was interrupted must not leak into a new version with the same number.
      if (existing === null) await collection.deleteMany({});
      await collection.createIndexes(indexesOf(layout, collectionSpec, defer));
      const known = new Set(Object.keys(before?.collections.find((c) => c.name === layout.collection)?.fields ?? {}));
      for (const [field] of layout.fields) {
        if (before === null || known.has(field) || layout.key.includes(field)) continue;
        // Documents written before the field existed hold null there: flag it for sorting.
        await collection.updateMany({ [field]: { $exists: false } }, { $set: { [`${NULLS}.${field}`]: true } });
      }
    }
    const text = JSON.stringify({ name: spec.name, version: spec.version, collections: spec.collections });
    if (existing === null) {
      const doc = { name: spec.name, version: spec.version, spec: text, position: null, updatedAt: null, error: null };
      await versions.updateOne({ _id: id }, { $setOnInsert: doc }, { upsert: true });
    } else if (existing.spec !== text) {
      await versions.updateOne({ _id: id }, { $set: { spec: text } });
    }
    try {
      // The first version of a projection becomes active; later ones wait for activate().
      await active.updateOne({ _id: spec.name }, { $setOnInsert: { version: spec.version, changes: 0 } }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a concurrent ensure inserted it first
    }
    cache.delete(id);
  }

  return {
    layouts,
    ensure,
    /** The stored spec of a version, or null when it does not exist. */
    async spec(name: string, version: number): Promise<ProjectionSpec | null> {
      const doc = await versions.findOne({ _id: versionId(name, version) }, { projection: { spec: 1 } });
      return doc === null ? null : (JSON.parse(doc.spec) as ProjectionSpec);
    },
    async activeVersion(name: string): Promise<number | null> {
      return (await active.findOne({ _id: name }))?.version ?? null;
    },
    async activate(name: string, version: number): Promise<void> {
      await inTransaction(client, async (session) => {
        if ((await versions.findOne({ _id: versionId(name, version) }, { session })) === null) {
          throw new Error(`projection ${name} v${version} does not exist`);
        }
        await active.updateOne({ _id: name }, { $set: { version }, $inc: { changes: 1 } }, { upsert: true, session });
      });
    },
    async dropVersion(ref: ProjectionRef): Promise<void> {
      const id = versionId(ref.name, ref.version);
      const dropped = await inTransaction(client, async (session) => {
        const doc = await versions.findOne({ _id: id }, { session });
        if (doc === null) return null;
        if ((await active.findOne({ _id: ref.name }, { session }))?.version === ref.version) {
          throw new Error(`projection ${ref.name} v${ref.version} is active and cannot be dropped`);
        }
        await versions.deleteOne({ _id: id }, { session });
        await active.updateOne({ _id: ref.name }, { $inc: { changes: 1 } }, { session });
        return layoutsOf(JSON.parse(doc.spec) as ProjectionSpec);
      });
      cache.delete(id);
      // DDL stays outside the transaction; a crash before it leaves collections that the next ensure of this version empties.
      for (const layout of dropped ?? []) await dropCollection(layout.name);
    },
    async checkpoint(ref: ProjectionRef): Promise<Position | null> {
      return (await versions.findOne({ _id: versionId(ref.name, ref.version) }, { projection: { position: 1 } }))?.position ?? null;
    },
    /** Compare-and-set of the checkpoint inside the batch's transaction. False on a mismatch. */
    async moveCheckpoint(session: ClientSession, ref: ProjectionRef, expected: Position | null, next: Position): Promise<boolean> {
      const id = versionId(ref.name, ref.version);
      const set = { position: next, updatedAt: clock.now(), error: null };
      // `position: null` also matches a missing position.
      if ((await versions.updateOne({ _id: id, position: expected }, { $set: set }, { session })).matchedCount === 1) return true;
      if ((await versions.findOne({ _id: id }, { session, projection: { _id: 1 } })) === null) {
        throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
      }
      return false;
    },
    async recordError(ref: ProjectionRef, message: string | null): Promise<void> {
      await versions.updateOne({ _id: versionId(ref.name, ref.version) }, { $set: { error: message } });
    },
    async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
      const now = clock.now();
      try {
        // Matches only a lease that is ours or expired; when another owner holds it the upsert's insert collides.
        const lease = await leases.findOneAndUpdate(
          { _id: name, $or: [{ owner }, { expiresAt: { $lte: now } }] },
          { $set: { owner, expiresAt: now + ttlMs } },
          { upsert: true, returnDocument: 'after' },
        );
        return lease?.owner === owner;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async releaseLease(name: string, owner: string): Promise<void> {
      await leases.deleteOne({ _id: name, owner });
    },
    async statuses(): Promise<ProjectionStatus[]> {
      const [versionDocs, leaseDocs, activeDocs] = await Promise.all([versions.find().toArray(), leases.find().toArray(), active.find().toArray()]);
      const now = clock.now();
      const leaseOf = new Map(leaseDocs.filter((l) => l.expiresAt > now).map((l) => [l._id, l]));
      const activeOf = new Map(activeDocs.map((a) => [a._id, a.version]));
      return versionDocs
        .sort((a, b) => (a.name === b.name ? a.version - b.version : a.name < b.name ? -1 : 1))
        .map((v) => {
          const lease = leaseOf.get(v.name);
          return {
            name: v.name,
            version: v.version,
            active: activeOf.get(v.name) === v.version,
            position: v.position ?? null,
            updatedAt: v.updatedAt ?? null,
            error: v.error ?? null,
            leaseOwner: lease?.owner ?? null,
            leaseExpiresAt: lease?.expiresAt ?? null,
          };
        });
    },
  };
}

export type MongoViewMeta = ReturnType<typeof createMongoViewMeta>;
