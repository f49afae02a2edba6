import type { SortKey } from '../../../contracts/index.ts';
import type { Expr } from './mongoViewCast.ts';
import type { createQueryBuilder } from './mongoViewFilter.ts';
import { NULLS } from './mongoViewLayout.ts';
import type { CollectionLayout } from './mongoViewLayout.ts';

export type SortSpec = Record<string, 1 | -1>;

/**
 * How to sort with null values (and, with a cast, values that cannot be cast) after all others in both directions:
 * plain fields sort on their `_nulls` flag first (a find, index-friendly filter); casts and json paths need computed
 * keys in an aggregation (`$addFields` stages: the values, then their null flags).
 */
export type SortPlan =
  | { readonly kind: 'find'; readonly sort: SortSpec }
  | { readonly kind: 'aggregate'; readonly values: Record<string, Expr>; readonly flags: Record<string, Expr>; readonly sort: SortSpec };

export function sortPlan(layout: CollectionLayout, builder: ReturnType<typeof createQueryBuilder>, keys: readonly SortKey[]): SortPlan {
  for (const k of keys) {
    if (k.direction !== 'asc' && k.direction !== 'desc') throw new Error(`bad sort direction "${String(k.direction)}"`);
  }
  const computed = keys.some((k) => k.ref.cast !== undefined || builder.typeOf(k.ref.field) === 'json');
  if (!computed) {
    const sort: SortSpec = {};
    for (const k of keys) {
      // A later key on the same field cannot change the order (and would move the earlier one in an object).
      if (Object.hasOwn(sort, k.ref.field)) continue;
      builder.cast(k.ref); // validates the field (and rejects paths on plain fields)
      if (!layout.key.includes(k.ref.field)) sort[`${NULLS}.${k.ref.field}`] = 1;
      sort[k.ref.field] = k.direction === 'asc' ? 1 : -1;
    }
    return { kind: 'find', sort };
  }
  const values: Record<string, Expr> = {};
  const flags: Record<string, Expr> = {};
  const sort: SortSpec = {};
  keys.forEach((k, i) => {
    values[`__sort${i}`] = builder.cast(k.ref);
    flags[`__null${i}`] = { $eq: [{ $ifNull: [`$__sort${i}`, null] }, null] };
    sort[`__null${i}`] = 1;
    sort[`__sort${i}`] = k.direction === 'asc' ? 1 : -1;
  });
  return { kind: 'aggregate', values, flags, sort };
}
