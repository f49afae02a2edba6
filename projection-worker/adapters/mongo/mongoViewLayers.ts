import type { Collection, Document } from 'mongodb';
import type { Filter, FindQuery, SortKey, VersionedRead } from '../../../contracts/index.ts';
import { armFilter, assertVersionedRead, identityPins, pinnedFilter, pinnedIdentity, topmost, upperFilter } from '../layeredRead.ts';
import { createQueryBuilder } from './mongoViewFilter.ts';
import type { Query } from './mongoViewFilter.ts';
import { encodeValue } from './mongoViewLayout.ts';
import type { CollectionLayout, StoredDoc } from './mongoViewLayout.ts';
import type { SortPlan } from './mongoViewSort.ts';

/** The server-side time limit of each read (QUERY_TIMEOUT_MS): `maxTimeMS` on every find, aggregate and count. */
export type ReadBudget = { readonly maxTimeMS?: number };

/**
 * Layered reads on MongoDB (docs/reference/versioned-storage.md §1): the identities the upper layers hold are read
 * first (one find per upper layer, narrowed like the query to a table or to row ids), then one find per layer with
 * the query's filter, sort and limit and the identities of the layers above as `$nin`, merged here in the store's
 * sort order. A count is the sum of the arms' counts.
 */

type Builder = ReturnType<typeof createQueryBuilder>;
/** Reads the stored documents of one arm: query, sort, at most `limit` (all when undefined). */
export type ArmReader = (where: Query, keys: readonly SortKey[], limit: number | undefined) => Promise<{ docs: StoredDoc[]; plan: SortPlan | null }>;

/** The queries of each layer's arm: its candidates minus the identities of the layers above. */
async function armQueries(
  collection: Collection<StoredDoc>,
  layout: CollectionLayout,
  builder: Builder,
  filter: Filter | undefined,
  versions: VersionedRead,
  budget: ReadBudget,
): Promise<Query[]> {
  assertVersionedRead(layout.collection, layout.types, layout.key, versions);
  const { layers, identity } = versions;
  const pins = identityPins(filter, identity);
  const projection = Object.fromEntries(identity.map((field) => [field, 1]));
  const upper = await Promise.all(
    layers.slice(0, -1).map((layer) => collection.find(builder.where(upperFilter(layer, pins)), { projection, ...budget }).toArray()),
  );
  const queries: Query[] = [];
  const hidden: Document[] = [];
  layers.forEach((layer, depth) => {
    const arm = builder.where(armFilter(layer, filter));
    queries.push(hidden.length === 0 ? arm : { $and: [arm, exclusion(layout, identity, hidden, pins)] });
    hidden.push(...(upper[depth] ?? []));
  });
  return queries;
}

/**
 * Not one of `hidden` identities: `$nin` on the last identity field when the query pins the others to the values
 * all hidden documents have (a table's rows), else `$nor` over the groups of equal leading fields.
 */
function exclusion(layout: CollectionLayout, identity: readonly string[], hidden: readonly Document[], pins: readonly Filter[]): Query {
  const last = identity[identity.length - 1] as string;
  const leading = identity.slice(0, -1);
  const stored = (field: string, value: unknown) => encodeValue(layout, field, layout.types.get(field) ?? 'text', value);
  const groups = new Map<string, { readonly prefix: Record<string, unknown>; readonly values: unknown[] }>();
  for (const doc of hidden) {
    const prefix = Object.fromEntries(leading.map((field) => [field, doc[field]]));
    const key = JSON.stringify(leading.map((field) => doc[field]));
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { prefix, values: [] }));
    group.values.push(doc[last]);
  }
  const pinned = (field: string, value: unknown): boolean =>
    pins.some((pin) => pin.kind === 'compare' && pin.ref.field === field && stored(field, pin.value) === value);
  const [only] = groups.values();
  if (groups.size === 1 && only !== undefined && leading.every((field) => pinned(field, only.prefix[field]))) {
    return { [last]: { $nin: only.values } };
  }
  return { $nor: [...groups.values()].map((group) => ({ ...group.prefix, [last]: { $in: group.values } })) };
}

/** A read by id that found nothing visible. */
const NONE = Symbol('none');

/**
 * A layered read by id (the filter pins every identity field): one find reads the identity's versions in all layers
 * through the key, the topmost decides. Null when the read is not by id (or has one layer).
 */
async function readById(
  collection: Collection<StoredDoc>,
  layout: CollectionLayout,
  builder: Builder,
  filter: Filter | undefined,
  versions: VersionedRead,
  budget: ReadBudget,
): Promise<StoredDoc | typeof NONE | null> {
  const pinned = versions.layers.length > 1 ? pinnedIdentity(filter, versions.identity) : null;
  if (pinned === null) return null;
  assertVersionedRead(layout.collection, layout.types, layout.key, versions);
  const docs = await collection.find(builder.where(pinnedFilter(versions.layers, pinned)), budget).toArray();
  return topmost(docs, versions.layers) ?? NONE;
}

/** Documents of a find with `versions`, as stored, in order, offset and limit applied. */
export async function layeredFind(
  collection: Collection<StoredDoc>,
  layout: CollectionLayout,
  query: FindQuery & { readonly versions: VersionedRead },
  limit: number | undefined,
  offset: number,
  readArm: ArmReader,
  budget: ReadBudget = {},
): Promise<StoredDoc[]> {
  if (query.versions.layers.length === 0) return [];
  const builder = createQueryBuilder(layout);
  const byId = await readById(collection, layout, builder, query.filter, query.versions, budget);
  if (byId !== null) return byId === NONE || offset > 0 || limit === 0 ? [] : [byId];
  const queries = await armQueries(collection, layout, builder, query.filter, query.versions, budget);
  const keys = query.orderBy ?? [];
  const wanted = limit === undefined ? undefined : limit + offset;
  const arms = await Promise.all(queries.map((where) => readArm(where, keys, wanted)));
  const merged = arms.flatMap((arm) => arm.docs);
  const plan = arms[0]?.plan ?? null;
  if (plan !== null) merged.sort(compareBy(plan, keys));
  return merged.slice(offset, wanted);
}

/** The number of visible documents matching `filter`. */
export async function layeredCount(
  collection: Collection<StoredDoc>,
  layout: CollectionLayout,
  filter: Filter | undefined,
  versions: VersionedRead,
  budget: ReadBudget = {},
): Promise<number> {
  if (versions.layers.length === 0) return 0;
  const builder = createQueryBuilder(layout);
  const byId = await readById(collection, layout, builder, filter, versions, budget);
  if (byId !== null) return byId === NONE ? 0 : 1;
  const queries = await armQueries(collection, layout, builder, filter, versions, budget);
  const counts = await Promise.all(queries.map((where) => collection.countDocuments(where, budget)));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** The order of a sort plan over stored documents: null values last in both directions, values in BSON order. */
function compareBy(plan: SortPlan, keys: readonly SortKey[]): (a: StoredDoc, b: StoredDoc) => number {
  const fields =
    plan.kind === 'find'
      ? keys.map((k) => ({ value: (doc: StoredDoc): unknown => doc[k.ref.field], desc: k.direction === 'desc' }))
      : keys.map((k, i) => ({ value: (doc: StoredDoc): unknown => doc[`__sort${i}`], desc: k.direction === 'desc' }));
  return (a, b) => {
    for (const { value, desc } of fields) {
      const x = value(a);
      const y = value(b);
      const xNull = x === undefined || x === null;
      const yNull = y === undefined || y === null;
      if (xNull || yNull) {
        if (xNull !== yNull) return xNull ? 1 : -1;
        continue;
      }
      const order = compareBson(sortable(x, desc), sortable(y, desc));
      if (order !== 0) return desc ? -order : order;
    }
    return 0;
  };
}

/** An array sorts by its smallest element ascending and its largest descending (an empty one before all values). */
function sortable(value: unknown, desc: boolean): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return EMPTY_ARRAY;
  return value.reduce((best: unknown, item: unknown) => (compareBson(item, best) * (desc ? -1 : 1) < 0 ? item : best), value[0]);
}

const EMPTY_ARRAY = Symbol('empty array');

/** MongoDB's comparison order of BSON types, for the types view documents hold. */
function typeRank(value: unknown): number {
  if (value === EMPTY_ARRAY) return 0;
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number' || typeof value === 'bigint') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'boolean') return 8;
  if (value instanceof Date) return 9;
  if (typeof value === 'object') return 4;
  return 10;
}

function compareBson(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return Math.sign(rank);
  if (typeof a === 'number' || typeof a === 'bigint') return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
  // Binary comparison of UTF-8 bytes: Unicode code point order, as MongoDB compares strings without a collation.
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b as string, 'utf8'));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date) return a.getTime() - (b as Date).getTime();
  if (Array.isArray(a)) return compareSequences(a, b as unknown[]);
  if (typeof a === 'object' && a !== null) return compareDocuments(a as Record<string, unknown>, b as Record<string, unknown>);
  return 0;
}

function compareSequences(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareBson(a[i], b[i]);
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}

/** Embedded documents field by field: the value's type, then the field name, then the value. */
function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const x = Object.entries(a);
  const y = Object.entries(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [xKey, xValue] = x[i] as [string, unknown];
    const [yKey, yValue] = y[i] as [string, unknown];
    const order = Math.sign(typeRank(xValue) - typeRank(yValue)) || compareBson(xKey, yKey) || compareBson(xValue, yValue);
    if (order !== 0) return order;
  }
  return Math.sign(x.length - y.length);
}
