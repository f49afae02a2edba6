import { createHash } from 'node:crypto';
import type { IndexDescription } from 'mongodb';
import type { SortIndex } from '../../../contracts/index.ts';
import { createQueryBuilder } from './mongoViewFilter.ts';
import type { CollectionLayout } from './mongoViewLayout.ts';
import { sortPlan } from './mongoViewSort.ts';

/**
 * The index of ViewStore.ensureIndex: the equality fields, then the sort spec `find` uses for `sort` (null flags
 * before nullable plain fields), named by a hash of it. Null when a sort key is a cast or a json path: such sorts run
 * as an aggregation over computed keys, which no index can serve, so creating one would only slow writes down.
 */
export function sortIndexOf(layout: CollectionLayout, index: SortIndex): IndexDescription | null {
  if (index.equal.length + index.sort.length === 0) throw new Error('an index needs at least one field');
  const builder = createQueryBuilder(layout);
  for (const field of index.equal) builder.cast({ field }); // validates the field
  const plan = index.sort.length === 0 ? null : sortPlan(layout, builder, index.sort);
  if (plan !== null && plan.kind !== 'find') return null;
  const key: Record<string, 1 | -1> = {};
  for (const field of index.equal) key[field] = 1;
  for (const [field, direction] of Object.entries(plan?.sort ?? {})) if (!Object.hasOwn(key, field)) key[field] = direction;
  const text = JSON.stringify(Object.entries(key));
  return { key, name: `sort_${createHash('sha256').update(text).digest('hex').slice(0, 16)}` };
}

/** Whether an index name is one sortIndexOf gives (declared indexes are named after their fields). */
export function isSortIndexName(name: string | undefined): boolean {
  return name !== undefined && /^sort_[0-9a-f]{16}$/.test(name);
}
