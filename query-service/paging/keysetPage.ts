import { castValue } from '../../contracts/index.ts';
import type { Filter, Scalar, SortKey, VersionedRead, ViewDoc, ViewStore } from '../../contracts/index.ts';
import type { LazyConnection } from './lazyConnection.ts';
import { decodeCursor, encodeCursor, queryHashOf } from './keysetCursor.ts';
import type { PageRequest } from './pageArgs.ts';

/** A sort key plus how to read its (raw, uncast) value from a document of the page. */
export type KeysetKey = SortKey & {
  readonly valueOf: (doc: ViewDoc) => unknown;
  /** Whether a value from a cursor can be this key's sort value (what `sortValueOf` yields for some document). */
  readonly accepts: (value: Scalar) => boolean;
};

/**
 * One connection query over a view collection. `keys` must end in a unique key so the order is total; `queryKey`
 * identifies the query (parent ids, where, orderBy) and is hashed into every cursor.
 */
export type KeysetQuery = {
  readonly projection: string;
  readonly collection: string;
  readonly filter: Filter;
  readonly keys: readonly KeysetKey[];
  readonly queryKey: unknown;
  /** A layered read (FindQuery.versions): the filter and the page apply to the documents the revision sees. */
  readonly versions?: VersionedRead;
};

const NONE: Filter = { kind: 'or', filters: [] };

function or(...filters: Filter[]): Filter {
  const kept = filters.filter((f) => f !== NONE);
  if (kept.length === 1) return kept[0] as Filter;
  return { kind: 'or', filters: kept };
}

/** A key's value as the store orders it: null when missing, not a scalar, or not castable. */
export function sortValueOf(key: KeysetKey, doc: ViewDoc): Scalar {
  const value = key.valueOf(doc);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
  if (key.ref.cast !== undefined && castValue(key.ref.cast, value) === null) return null;
  return value;
}

/**
 * Rows strictly after `values` in the order of `keys`, in the bounded form
 * `k1 beyond v1 OR k1 IS NULL OR (k1 = v1 AND after(k2...))`. Nulls sort last in both directions (SortKey), so
 * after a null value only nulls follow: `k1 IS NULL AND after(k2...)`.
 */
export function afterFilter(keys: readonly SortKey[], values: readonly Scalar[], index = 0): Filter {
  const key = keys[index];
  if (key === undefined) return NONE;
  const value = values[index] ?? null;
  const rest = afterFilter(keys, values, index + 1);
  const isNull: Filter = { kind: 'isNull', ref: key.ref };
  if (value === null) return rest === NONE ? NONE : { kind: 'and', filters: [isNull, rest] };
  const beyond: Filter = { kind: 'compare', ref: key.ref, op: key.direction === 'asc' ? 'gt' : 'lt', value };
  const tie: Filter = { kind: 'compare', ref: key.ref, op: 'eq', value };
  return or(beyond, isNull, rest === NONE ? NONE : { kind: 'and', filters: [tie, rest] });
}

/**
 * `afterFilter` split into the parts a store reads one after the other, each an index range. With a non-null first
 * value: the present values from v1 on, bounded by `k1 >= v1` (asc) or `k1 <= v1` (desc) so an index on
 * (..., k1, ...) starts at the cursor instead of at the first row (page 50 then costs what page 1 costs), and then
 * the null tail `k1 IS NULL` (nulls sort last in both directions). The union of the parts is `afterFilter`.
 */
export function afterParts(keys: readonly SortKey[], values: readonly Scalar[]): Filter[] {
  const key = keys[0];
  const value = values[0] ?? null;
  if (key === undefined || value === null) return [afterFilter(keys, values)];
  const asc = key.direction === 'asc';
  const rest = afterFilter(keys, values, 1);
  const bound: Filter = { kind: 'compare', ref: key.ref, op: asc ? 'gte' : 'lte', value };
  const beyond: Filter = { kind: 'compare', ref: key.ref, op: asc ? 'gt' : 'lt', value };
  const tie: Filter = { kind: 'compare', ref: key.ref, op: 'eq', value };
  const present: Filter = { kind: 'and', filters: [bound, or(beyond, rest === NONE ? NONE : { kind: 'and', filters: [tie, rest] })] };
  return [present, { kind: 'isNull', ref: key.ref }];
}

function memoize(compute: () => Promise<number>): () => Promise<number> {
  let pending: Promise<number> | null = null;
  return () => (pending ??= compute());
}

/**
 * One page of a keyset connection (system-api.md §2): fetches `first + 1` documents after the cursor to learn
 * `hasNextPage`; `totalCount` counts the base filter only when called.
 */
export async function keysetPage<T>(
  store: ViewStore,
  query: KeysetQuery,
  page: PageRequest,
  toNodes: (docs: readonly ViewDoc[]) => Promise<readonly T[]> | readonly T[],
): Promise<LazyConnection<T>> {
  const hash = queryHashOf([query.projection, query.collection, query.queryKey]);
  const orderBy: SortKey[] = query.keys.map((k) => ({ ref: k.ref, direction: k.direction }));
  const limit = page.first + 1;
  const versions = query.versions === undefined ? {} : { versions: query.versions };
  let docs: ViewDoc[];
  if (page.after === null) {
    docs = await store.find(query.projection, query.collection, { filter: query.filter, orderBy, limit, ...versions });
  } else {
    const values = decodeCursor(page.after, hash, query.keys);
    docs = [];
    for (const part of afterParts(orderBy, values)) {
      if (docs.length >= limit) break;
      const filter: Filter = { kind: 'and', filters: [query.filter, part] };
      docs.push(...(await store.find(query.projection, query.collection, { filter, orderBy, limit: limit - docs.length, ...versions })));
    }
  }
  return pageFrom(
    docs,
    query,
    hash,
    page,
    toNodes,
    memoize(() => store.count(query.projection, query.collection, query.filter, query.versions)),
  );
}

/**
 * A keyset page over documents already read, filtered and sorted by `query.keys` (ascending or descending strings
 * and numbers, nulls last): the same cursors as `keysetPage`. For the few documents a reader resolves itself
 * (the tables of a revision read through its layers).
 */
export async function keysetPageOf<T>(
  all: readonly ViewDoc[],
  query: Pick<KeysetQuery, 'projection' | 'collection' | 'keys' | 'queryKey'>,
  page: PageRequest,
  toNodes: (docs: readonly ViewDoc[]) => Promise<readonly T[]> | readonly T[],
): Promise<LazyConnection<T>> {
  const hash = queryHashOf([query.projection, query.collection, query.queryKey]);
  const compare = (a: readonly Scalar[], b: readonly Scalar[]): number => {
    for (const [i, key] of query.keys.entries()) {
      const x = a[i] ?? null;
      const y = b[i] ?? null;
      if (x === y) continue;
      if (x === null || y === null) return x === null ? 1 : -1;
      const order = x < y ? -1 : 1;
      return key.direction === 'asc' ? order : -order;
    }
    return 0;
  };
  const valuesOf = (doc: ViewDoc) => query.keys.map((key) => sortValueOf(key, doc));
  const sorted = [...all].sort((a, b) => compare(valuesOf(a), valuesOf(b)));
  const after = page.after === null ? null : decodeCursor(page.after, hash, query.keys);
  const docs = (after === null ? sorted : sorted.filter((doc) => compare(valuesOf(doc), after) > 0)).slice(0, page.first + 1);
  return pageFrom(docs, query, hash, page, toNodes, () => Promise.resolve(all.length));
}

async function pageFrom<T>(
  docs: readonly ViewDoc[],
  query: Pick<KeysetQuery, 'keys'>,
  hash: string,
  page: PageRequest,
  toNodes: (docs: readonly ViewDoc[]) => Promise<readonly T[]> | readonly T[],
  totalCount: () => Promise<number>,
): Promise<LazyConnection<T>> {
  const pageDocs = docs.slice(0, page.first);
  const nodes = await toNodes(pageDocs);
  const edges = pageDocs.map((doc, i) => ({
    cursor: encodeCursor(
      hash,
      query.keys.map((key) => sortValueOf(key, doc)),
    ),
    node: nodes[i] as T,
  }));
  return {
    edges,
    pageInfo: {
      hasNextPage: docs.length > page.first,
      hasPreviousPage: page.after !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount,
  };
}

/** A key on a plain field of the view document, holding values of `type` (or missing). */
export function fieldKey(field: string, direction: 'asc' | 'desc' = 'asc', type: 'string' | 'number' | 'boolean' = 'string'): KeysetKey {
  return { ref: { field }, direction, valueOf: (doc) => doc[field], accepts: (value) => value === null || typeof value === type };
}
