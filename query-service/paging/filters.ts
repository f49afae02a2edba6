import type { Filter, Scalar } from '../../contracts/index.ts';

/** Small Filter builders shared by readers and the row query grammar. */

export const MATCH_ALL: Filter = { kind: 'all' };
/** Matches nothing (an empty OR). */
export const MATCH_NONE: Filter = { kind: 'or', filters: [] };

export function and(...filters: Filter[]): Filter {
  const kept = filters.filter((f) => f.kind !== 'all');
  if (kept.length === 0) return MATCH_ALL;
  if (kept.length === 1) return kept[0] as Filter;
  return { kind: 'and', filters: kept };
}

export function or(...filters: Filter[]): Filter {
  if (filters.length === 1) return filters[0] as Filter;
  return { kind: 'or', filters };
}

export function not(filter: Filter): Filter {
  return { kind: 'not', filter };
}

export function eq(field: string, value: Scalar): Filter {
  return value === null ? { kind: 'isNull', ref: { field } } : { kind: 'compare', ref: { field }, op: 'eq', value };
}

export function within(field: string, values: readonly Scalar[]): Filter {
  return { kind: 'in', ref: { field }, values };
}
