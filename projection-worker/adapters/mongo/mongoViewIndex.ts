import { createHash } from 'node:crypto';
import type { IndexDescription } from 'mongodb';
import type { SortIndex } from '../../../contracts/index.ts';
import { createQueryBuilder, documentPath } from './mongoViewFilter.ts';
import type { CollectionLayout } from './mongoViewLayout.ts';
import { sortPlan } from './mongoViewSort.ts';

/**
 * The index of ViewStore.ensureIndex: the equality fields, then the sort spec `find` uses for `sort` (null flags
 * before nullable plain fields), named by a hash of it.
 *
 * A sort with casts runs as an aggregation over computed keys, which no index can serve: null, since an index would
 * only slow writes down. A sort on uncast json paths without `*` (a field index, domain.md §5.5: `(branchId,
 * tableKey, data.sku, rowId)`) also sorts by computed keys, but its index serves the queries filters on those paths
 * become (`{'data.sku': {$eq: …}}`, see `jsonTest`), so it is created on the document paths.
 */
export function sortIndexOf(layout: CollectionLayout, index: SortIndex): IndexDescription | null {
  if (index.equal.length + index.sort.length === 0) throw new Error('an index needs at least one field');
  const builder = createQueryBuilder(layout);
  for (const field of index.equal) builder.cast({ field }); // validates the field
  const plan = index.sort.length === 0 ? null : sortPlan(layout, builder, index.sort);
  const key: Record<string, 1 | -1> = {};
  for (const field of index.equal) key[field] = 1;
  if (plan !== null && plan.kind !== 'find') {
    const onPaths = index.sort.every(
      (k) => k.ref.cast === undefined && (k.ref.path ?? []).every((segment) => typeof segment === 'string' && segment !== '*'),
    );
    if (!onPaths) return null;
    for (const k of index.sort) {
      const path = builder.typeOf(k.ref.field) === 'json' ? documentPath(k.ref.field, k.ref.path ?? []) : k.ref.field;
      if (!Object.hasOwn(key, path)) key[path] = k.direction === 'asc' ? 1 : -1;
    }
  } else {
    for (const [field, direction] of Object.entries(plan?.sort ?? {})) if (!Object.hasOwn(key, field)) key[field] = direction;
  }
  // Included fields (SortIndex.include) follow on their document paths, so the filters on them read the index.
  for (const ref of index.include ?? []) {
    if (ref.cast !== undefined || (ref.path ?? []).some((segment) => typeof segment !== 'string' || segment === '*')) continue;
    const path = builder.typeOf(ref.field) === 'json' ? documentPath(ref.field, ref.path ?? []) : ref.field;
    if (!Object.hasOwn(key, path)) key[path] = 1;
  }
  const text = JSON.stringify(Object.entries(key));
  return { key, name: `sort_${createHash('sha256').update(text).digest('hex').slice(0, 16)}` };
}

/** Whether an index name is one sortIndexOf gives (declared indexes are named after their fields). */
export function isSortIndexName(name: string | undefined): boolean {
  return name !== undefined && /^sort_[0-9a-f]{16}$/.test(name);
}
