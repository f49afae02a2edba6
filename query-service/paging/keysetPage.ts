import { castValue } from '../../contracts/index.ts';
import type { Filter, Scalar, SortKey, ViewDoc, ViewStore } from '../../contracts/index.ts';
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
  let docs: ViewDoc[];
  if (page.after === null) {
    docs = await store.find(query.projection, query.collection, { filter: query.filter, orderBy, limit });
  } else {
    const values = decodeCursor(page.after, hash, query.keys);
    docs = [];
    for (const part of afterParts(orderBy, values)) {
      if (docs.length >= limit) break;
      const filter: Filter = { kind: 'and', filters: [query.filter, part] };
      docs.push(...(await store.find(query.projection, query.collection, { filter, orderBy, limit: limit - docs.length })));
    }
  }
  const pageDocs = docs.slice(0, page.first);
  const nodes = await toNodes(pageDocs);
  const edges = pageDocs.map((doc, i) => ({
    cursor: encodeCursor(
      hash,
      query.keys.map((key) => sortValueOf(key, doc)),
    ),
    node: nodes[i] as T,
  }));
  const base = query.filter;
  return {
    edges,
    pageInfo: {
      hasNextPage: docs.length > page.first,
      hasPreviousPage: page.after !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: memoize(() => store.count(query.projection, query.collection, base)),
  };
}

/** A key on a plain field of the view document, holding values of `type` (or missing). */
export function fieldKey(field: string, direction: 'asc' | 'desc' = 'asc', type: 'string' | 'number' | 'boolean' = 'string'): KeysetKey {
  return { ref: { field }, direction, valueOf: (doc) => doc[field], accepts: (value) => value === null || typeof value === type };
}
