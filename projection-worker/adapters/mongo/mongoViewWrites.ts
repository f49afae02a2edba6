import type { AnyBulkWriteOperation, ClientSession, Db, Document } from 'mongodb';
import type { ProjectionRef, ViewChange, ViewDoc } from '../../../contracts/index.ts';
import { createQueryBuilder } from './mongoViewFilter.ts';
import type { Query } from './mongoViewFilter.ts';
import { NULLS, decodeDoc, encodeDoc, encodeValue } from './mongoViewLayout.ts';
import type { CollectionLayout } from './mongoViewLayout.ts';
import type { Layouts } from './mongoViewMeta.ts';

type Update = Extract<ViewChange, { op: 'update' }>;
type Copy = Extract<ViewChange, { op: 'copy' }>;
type BulkOp = AnyBulkWriteOperation;
type Fields = readonly (readonly [string, unknown])[];

/** Operations per bulk write, and `_id`s per `$in` list. */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const nonEmpty = (o: Record<string, unknown>): boolean => Object.keys(o).length > 0;

/**
 * Applies view changes in order inside the batch's transaction. Consecutive upserts and deletes of one collection
 * share an ordered bulk write; `update` with `inc` and `copy` first read the matching `_id`s, so that their filter
 * sees the documents as they were before the change (as one SQL statement would).
 */
export async function applyChanges(
  db: Db,
  session: ClientSession,
  ref: ProjectionRef,
  layouts: Layouts,
  changes: readonly ViewChange[],
): Promise<void> {
  const builders = new Map<CollectionLayout, ReturnType<typeof createQueryBuilder>>();
  const where = (layout: CollectionLayout, filter: Parameters<ReturnType<typeof createQueryBuilder>['where']>[0]): Query => {
    let builder = builders.get(layout);
    if (builder === undefined) builders.set(layout, (builder = createQueryBuilder(layout)));
    return builder.where(filter);
  };
  const collection = (layout: CollectionLayout) => db.collection(layout.name);
  // Filters are built at run time; MongoDB's types would want ObjectId `_id`s.
  const idIn = (ids: readonly unknown[], more: Query = {}): Query => ({ _id: { $in: ids }, ...more });

  let pending: { layout: CollectionLayout; ops: BulkOp[] } | null = null;
  async function flush(): Promise<void> {
    if (pending !== null && pending.ops.length > 0) await collection(pending.layout).bulkWrite(pending.ops, { session, ordered: true });
    pending = null;
  }
  async function queue(layout: CollectionLayout, op: BulkOp): Promise<void> {
    if (pending !== null && (pending.layout !== layout || pending.ops.length >= CHUNK)) await flush();
    pending ??= { layout, ops: [] };
    pending.ops.push(op);
  }

  async function matchingIds(layout: CollectionLayout, query: Query): Promise<unknown[]> {
    const docs = await collection(layout)
      .find(query, { session, projection: { _id: 1 } })
      .toArray();
    return docs.map((d) => d._id);
  }

  /** Applies `set` and `inc` (null counts as 0) to decoded documents, for changes of key fields. */
  async function rekey(layout: CollectionLayout, query: Query, set: Fields, inc: readonly [string, number][]): Promise<void> {
    const docs = await collection(layout).find(query, { session }).toArray();
    if (docs.length === 0) return;
    const next = docs.map((stored) => {
      const doc = { ...decodeDoc(layout, stored), ...Object.fromEntries(set) };
      for (const [name, amount] of inc) {
        const value = doc[name];
        doc[name] = (typeof value === 'number' ? value : 0) + amount;
      }
      return encodeDoc(layout, doc);
    });
    // Inserts, not upserts: a new key that is already taken fails the batch, as the SQL UPDATE would.
    const ops: BulkOp[] = [{ deleteMany: { filter: idIn(docs.map((d) => d._id)) } }];
    for (const doc of next) ops.push({ insertOne: { document: doc } });
    for (const part of chunks(ops)) await collection(layout).bulkWrite(part, { session, ordered: true });
  }

  async function update(layout: CollectionLayout, change: Update): Promise<void> {
    const inc = Object.entries(change.inc ?? {});
    for (const [name, amount] of inc) {
      const type = layout.types.get(name);
      if ((type !== 'integer' && type !== 'real') || typeof amount !== 'number' || !Number.isFinite(amount)) {
        throw new Error(`${layout.collection}.${name}: inc needs a number field and a finite amount`);
      }
    }
    // Undeclared fields are ignored, as in documents; a field also incremented takes the increment.
    const set = Object.entries(change.set ?? {}).filter(([name]) => layout.types.has(name) && !Object.hasOwn(change.inc ?? {}, name));
    if (set.length === 0 && inc.length === 0) return;
    const query = where(layout, change.filter);
    if (set.some(([name]) => layout.key.includes(name))) return rekey(layout, query, set, inc);
    const $set: Record<string, unknown> = {};
    const $unset: Record<string, ''> = {};
    for (const [name, value] of set) {
      const stored = encodeValue(layout, name, layout.types.get(name) ?? 'json', value);
      if (stored === undefined) {
        $unset[name] = '';
        $set[`${NULLS}.${name}`] = true;
      } else {
        $set[name] = stored;
        $unset[`${NULLS}.${name}`] = '';
      }
    }
    const setUpdate = { ...(nonEmpty($set) ? { $set } : {}), ...(nonEmpty($unset) ? { $unset } : {}) };
    if (inc.length === 0) {
      await collection(layout).updateMany(query, setUpdate, { session });
      return;
    }
    // $inc fails on null, so numbers and nulls get separate updates; the `_id`s fix the matching set first.
    for (const ids of chunks(await matchingIds(layout, query))) {
      const ops: BulkOp[] = nonEmpty(setUpdate) ? [{ updateMany: { filter: idIn(ids), update: setUpdate } }] : [];
      for (const [name, amount] of inc) {
        const $inc: Document = { [name]: amount };
        ops.push({ updateMany: { filter: idIn(ids, { [name]: { $type: 'number' } }), update: { $inc } } });
        ops.push({
          updateMany: {
            filter: idIn(ids, { [name]: { $not: { $type: 'number' } } }),
            update: { $set: { [name]: amount === 0 ? 0 : amount }, $unset: { [`${NULLS}.${name}`]: '' } },
          },
        });
      }
      await collection(layout).bulkWrite(ops, { session, ordered: true });
    }
  }

  /**
   * Copies in chunks of `_id`s read first, so that copies never become sources. (A copy that replaces a source of
   * a later chunk is read in its replaced state; SQLite would read it as it was. No projector copies that way.)
   */
  async function copy(layout: CollectionLayout, change: Copy): Promise<void> {
    const set = declared(layout, change.set);
    for (const ids of chunks(await matchingIds(layout, where(layout, change.filter)))) {
      const docs = await collection(layout).find(idIn(ids), { session }).toArray();
      const ops: BulkOp[] = docs.map((stored) => {
        const doc = encodeDoc(layout, { ...decodeDoc(layout, stored), ...set });
        return { replaceOne: { filter: { _id: doc._id } as Query, replacement: doc, upsert: true } };
      });
      if (ops.length > 0) await collection(layout).bulkWrite(ops, { session, ordered: true });
    }
  }

  for (const change of changes) {
    const layout = layouts.get(change.collection);
    if (layout === undefined) throw new Error(`projection ${ref.name} v${ref.version} has no collection "${change.collection}"`);
    switch (change.op) {
      case 'upsert': {
        const doc = encodeDoc(layout, change.doc);
        await queue(layout, { replaceOne: { filter: { _id: doc._id } as Query, replacement: doc, upsert: true } });
        break;
      }
      case 'delete':
        await queue(layout, { deleteMany: { filter: where(layout, change.filter) } });
        break;
      case 'insertIfAbsent': {
        const { _id, ...fields } = encodeDoc(layout, change.doc);
        await queue(layout, { updateOne: { filter: { _id } as Query, update: { $setOnInsert: fields }, upsert: true } });
        break;
      }
      case 'update':
        await flush();
        await update(layout, change);
        break;
      case 'copy':
        await flush();
        await copy(layout, change);
        break;
      default: {
        const unknownChange: never = change;
        throw new Error(`unknown view change ${JSON.stringify(unknownChange)}`);
      }
    }
  }
  await flush();
}

/** The declared fields of `set` (undeclared ones are ignored, as in documents). */
function declared(layout: CollectionLayout, set: ViewDoc | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(set ?? {}).filter(([name]) => layout.types.has(name)));
}
